/* prop_resource_safety.c — the resource_safety property (monitorint.h).
 *
 * resource_safety: the shared resource accepted a write it should not have — one whose token
 * is lower than a token it had already accepted, or one from a client that was no longer the
 * rightful holder because another client had acquired the lock after it. State: per client,
 * when it last acquired; the highest token accepted. */
#include "monitorint.h"

#include <stdlib.h>
#include <string.h>

typedef struct resource_mon {
    int64_t *acquired_at;
    int64_t max_token;
} resource_mon;

static void resource_step(resource_mon *m, const history *h, const hist_event *e, int nact, prop_result *r)
{
    if (e->kind == H_ACQUIRED && e->actor >= 0) m->acquired_at[e->actor] = e->t_us;
    if (e->kind != H_WRITE || !e->b) return;
    buf p;
    buf_init(&p);
    if (e->a >= 0 && e->a < m->max_token) {
        buf_printf(&p, "The resource accepted %s's write with token %lld at ", history_actor_name(h, e->actor),
                   (long long)e->a);
        mon_put_t(&p, e->t_us);
        buf_printf(&p, " after it had already accepted token %lld.", (long long)m->max_token);
    } else {
        int usurper = -1;
        for (int a = 0; a < nact; a++)
            if (a != e->actor && m->acquired_at[a] > m->acquired_at[e->actor] && m->acquired_at[e->actor] >= 0) usurper = a;
        if (usurper >= 0) {
            buf_printf(&p, "The resource accepted a write from %s at ", history_actor_name(h, e->actor));
            mon_put_t(&p, e->t_us);
            buf_printf(&p, ", but %s had acquired the lock after %s did (at ", history_actor_name(h, usurper),
                       history_actor_name(h, e->actor));
            mon_put_t(&p, m->acquired_at[usurper]);
            buf_printf(&p, "): %s was no longer the rightful holder%s", history_actor_name(h, e->actor),
                       e->a >= 0 ? ", and nothing fenced its stale token." : ", and without a fencing token the resource could not tell.");
        }
    }
    if (e->a > m->max_token) m->max_token = e->a;
    if (p.len) {
        mon_faults_before(h, e->t_us, &p);
        r->v = VERDICT_VIOLATED;
        r->at_us = e->t_us;
        r->evidence = buf_steal(&p);
    }
    buf_release(&p);
}

static void init(void *st, const mon_env *env)
{
    resource_mon *m = st;
    m->acquired_at = xmalloc((size_t)(env->nact > 0 ? env->nact : 1) * sizeof *m->acquired_at);
    for (int a = 0; a < env->nact; a++) m->acquired_at[a] = -1;
    m->max_token = -1;
}

static void step(void *st, const mon_env *env, const hist_event *e, prop_result *r)
{
    resource_step(st, env->h, e, env->nact, r);
}

static void release(void *st)
{
    free(((resource_mon *)st)->acquired_at);
}

const prop_monitor resource_safety_monitor = { sizeof(resource_mon), init, step, NULL, NULL, release, 0 };
