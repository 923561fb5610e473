/* prop_fairness.c — the fairness property (monitorint.h).
 *
 * fairness (judged when the scenario expects it): a client acquired the lock while another
 * client, whose first acquire command reached the server earlier, was still waiting. State:
 * per client, waiting or not and its place in line. */
#include "monitorint.h"

#include <stdlib.h>
#include <string.h>

typedef struct fairness_mon {
    int *waiting;
    int64_t *queued_at;
} fairness_mon;

static void fairness_step(fairness_mon *m, const history *h, const hist_event *e, int nact, prop_result *r)
{
    if (e->kind == H_ACQUIRE && e->actor >= 0) m->waiting[e->actor] = 1, m->queued_at[e->actor] = -1;
    /* A waiter's place in line: when its first command of this attempt reached a node. */
    if (e->kind == H_EXEC && e->peer >= 0 && m->waiting[e->peer] && m->queued_at[e->peer] < 0) m->queued_at[e->peer] = e->t_us;
    if (e->kind == H_ACQUIRE_FAILED || e->kind == H_END || mon_is_crash_of(e, e->actor)) {
        if (e->actor >= 0) m->waiting[e->actor] = 0;
    }
    if (e->kind != H_ACQUIRED || e->actor < 0) return;
    int x = e->actor;
    for (int y = 0; y < nact; y++) {
        if (y == x || !m->waiting[y] || m->queued_at[y] < 0 || m->queued_at[x] < 0 || m->queued_at[y] >= m->queued_at[x])
            continue;
        buf p;
        buf_init(&p);
        buf_printf(&p, "%s acquired the lock at ", history_actor_name(h, x));
        mon_put_t(&p, e->t_us);
        buf_printf(&p, " although %s had been in line longer (its request reached the server at ", history_actor_name(h, y));
        mon_put_t(&p, m->queued_at[y]);
        buf_printf(&p, ", %s's at ", history_actor_name(h, x));
        mon_put_t(&p, m->queued_at[x]);
        buf_printf(&p, ") and was still waiting.");
        r->v = VERDICT_VIOLATED;
        r->at_us = e->t_us;
        r->evidence = buf_steal(&p);
        break;
    }
    m->waiting[x] = 0;
}

static void init(void *st, const mon_env *env)
{
    size_t na = (size_t)(env->nact > 0 ? env->nact : 1);
    fairness_mon *m = st;
    *m = (fairness_mon){ .waiting = xcalloc(na, sizeof(int)), .queued_at = xmalloc(na * sizeof(int64_t)) };
    for (int a = 0; a < env->nact; a++) m->queued_at[a] = -1;
}

static void step(void *st, const mon_env *env, const hist_event *e, prop_result *r)
{
    fairness_step(st, env->h, e, env->nact, r);
}

static void release(void *st)
{
    fairness_mon *m = st;
    free(m->waiting);
    free(m->queued_at);
}

const prop_monitor fairness_monitor = { sizeof(fairness_mon), init, step, NULL, NULL, release, 0 };
