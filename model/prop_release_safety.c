/* prop_release_safety.c — the release_safety property (monitorint.h).
 *
 * release_safety: a release removed or changed an object of the lock unit on a node while it
 * belonged to another client. An object belongs to the client whose command last set it on
 * that node (key changes follow the exec event of the command that made them); objects that
 * arrived by replication have no known owner and are not judged. State: per client, inside a
 * release or not; per node and object, its owner; the release requests in flight; the command
 * running. */
#include "monitorint.h"

#include <stdlib.h>
#include <string.h>

/* The owner of one object of the lock unit on one node. */
typedef struct owned {
    int node;
    const char *name;   /* borrowed from the history */
    int owner;          /* the client owning it there, -1 none, -2 unknown */
} owned;

typedef struct release_mon {
    const lock_unit *unit;
    int *releasing;     /* per actor: inside a release (between its release and released milestones) */
    owned *own;         /* the objects of the unit seen, per node */
    size_t nown, capown;
    /* release requests in flight: (client, request id); one leaves when a node executes it,
     * so the list stays short however long the run (lost ones stay, and are few) */
    int64_t *reqs;
    size_t nreq, capreq;
    int exec_client, exec_node, exec_is_release;
    int64_t exec_t;
} release_mon;

static void release_step(release_mon *m, const history *h, const hist_event *e, prop_result *r)
{
    switch (e->kind) {
    case H_RELEASE: m->releasing[e->actor] = 1; break;
    case H_RELEASED: m->releasing[e->actor] = 0; break;
    case H_REQUEST:
        if (e->actor >= 0 && m->releasing[e->actor]) {
            if (m->nreq == m->capreq) m->reqs = xrealloc(m->reqs, (m->capreq = m->capreq ? m->capreq * 2 : 16) * 2 * sizeof *m->reqs);
            m->reqs[2 * m->nreq] = e->actor;
            m->reqs[2 * m->nreq + 1] = e->a;
            m->nreq++;
        }
        break;
    case H_EXEC:
        m->exec_client = e->peer;
        m->exec_node = e->actor;
        m->exec_t = e->t_us;
        m->exec_is_release = 0;
        for (size_t k = 0; k < m->nreq; k++)
            if (m->reqs[2 * k] == e->peer && m->reqs[2 * k + 1] == e->a) {
                m->exec_is_release = 1;
                m->nreq--;
                m->reqs[2 * k] = m->reqs[2 * m->nreq];
                m->reqs[2 * k + 1] = m->reqs[2 * m->nreq + 1];
                break;
            }
        break;
    case H_KEY_SET:
    case H_KEY_DELETED:
    case H_KEY_EXPIRED: {
        if (!mon_unit_has(m->unit, e->text)) break;
        int attributed = e->actor == m->exec_node && e->t_us == m->exec_t && e->kind != H_KEY_EXPIRED;
        owned *o = NULL;
        for (size_t k = 0; k < m->nown && !o; k++)
            if (m->own[k].node == e->actor && !strcmp(m->own[k].name, e->text)) o = &m->own[k];
        if (!o) {
            if (m->nown == m->capown) m->own = xrealloc(m->own, (m->capown = m->capown ? 2 * m->capown : 8) * sizeof *m->own);
            o = &m->own[m->nown++];
            *o = (owned){ e->actor, e->text, -1 };
        }
        int before = o->owner;
        if (attributed && m->exec_is_release && before >= 0 && before != m->exec_client) {
            buf p;
            buf_init(&p);
            buf_printf(&p, "%s's release %s the lock key", history_actor_name(h, m->exec_client),
                       e->kind == H_KEY_DELETED ? "deleted" : "changed");
            if (strcmp(e->text, m->unit->v[0].name)) buf_printf(&p, " %s", e->text); /* not the scenario's lock key */
            buf_printf(&p, " on %s at ", history_actor_name(h, e->actor));
            mon_put_t(&p, e->t_us);
            buf_printf(&p, ", but the key belonged to %s then: %s removed a lock it did not own.",
                       history_actor_name(h, before), history_actor_name(h, m->exec_client));
            mon_faults_before(h, e->t_us, &p);
            r->v = VERDICT_VIOLATED;
            r->at_us = e->t_us;
            r->evidence = buf_steal(&p);
        }
        if (e->kind != H_KEY_SET) o->owner = -1;
        else if (attributed) {
            if (before < 0 || !m->exec_is_release) o->owner = m->exec_client;
        } else {
            o->owner = -2; /* replicated: owner unknown */
        }
        break;
    }
    default:
        if (e->kind != H_CALL) m->exec_node = -1;
        break;
    }
}

static void init(void *st, const mon_env *env)
{
    *(release_mon *)st = (release_mon){ .unit = env->unit, .releasing = xcalloc((size_t)(env->nact > 0 ? env->nact : 1), sizeof(int)),
                                        .exec_client = -1, .exec_node = -1, .exec_t = -1 };
}

static void step(void *st, const mon_env *env, const hist_event *e, prop_result *r)
{
    release_step(st, env->h, e, r);
}

static void release(void *st)
{
    release_mon *m = st;
    free(m->releasing);
    free(m->own);
    free(m->reqs);
}

const prop_monitor release_safety_monitor = { sizeof(release_mon), init, step, NULL, NULL, release, 0 };
