/* prop_reentrancy.c — the reentrancy property (monitorint.h).
 *
 * reentrancy (judged when the scenario expects it): a holder's re-entrant acquire failed
 * (acquire_failed with the outcome reentry_failed), or the holder's own command deleted an
 * object of the lock unit while it held the lock more than once (its model said it reentered
 * more times than it released an inner hold; a re-entry happens inside the acquire, before the
 * workload's acquired): one release freed what another hold still counted on. State: per
 * client, its holds; the command running. */
#include "monitorint.h"

#include <stdlib.h>
#include <string.h>

typedef struct reentrancy_mon {
    const lock_unit *unit;
    int *holds;         /* per client: how many holds it has to undo (0: not holding) */
    int exec_client, exec_node;
    int64_t exec_t;
} reentrancy_mon;

static void reentrancy_step(reentrancy_mon *m, const history *h, const hist_event *e, prop_result *r)
{
    buf p;
    buf_init(&p);
    if (e->kind == H_ACQUIRE_FAILED && e->code == HO_REENTRY_FAILED) {
        buf_printf(&p, "%s held the lock, but its re-entrant acquire at ", history_actor_name(h, e->actor));
        mon_put_t(&p, e->t_us);
        buf_printf(&p, " failed: %s.", e->text ? e->text : "re-entry failed");
    } else if (e->kind == H_ACQUIRED && e->actor >= 0) {
        if (m->holds[e->actor] < 1) m->holds[e->actor] = 1;
    } else if (e->kind == H_LOCK_UNIT && e->actor >= 0) {
        /* re-entries happen inside the acquire, before the workload records it acquired:
         * a re-entry means a first hold */
        if (e->code == HU_REENTERED) m->holds[e->actor] = (m->holds[e->actor] < 1 ? 1 : m->holds[e->actor]) + 1;
        if (e->code == HU_INNER_RELEASED && m->holds[e->actor] > 1) m->holds[e->actor]--;
    } else if (e->kind == H_ACQUIRE || e->kind == H_ACQUIRE_FAILED || e->kind == H_RELEASED || e->kind == H_END ||
               e->kind == H_ERROR || mon_is_crash_of(e, e->actor)) {
        if (e->actor >= 0) m->holds[e->actor] = 0;
    } else if (e->kind == H_EXEC) {
        m->exec_client = e->peer, m->exec_node = e->actor, m->exec_t = e->t_us;
    } else if (e->kind == H_KEY_DELETED && e->actor == m->exec_node && e->t_us == m->exec_t && m->exec_client >= 0 &&
               m->holds[m->exec_client] > 1 && mon_unit_has(m->unit, e->text)) {
        int c = m->exec_client;
        if (m->holds[c] == 2) buf_printf(&p, "%s held the lock twice", history_actor_name(h, c));
        else buf_printf(&p, "%s held the lock %d times", history_actor_name(h, c), m->holds[c]);
        buf_printf(&p, " (it took it again while holding it), but its own command deleted %s on %s at ", e->text,
                   history_actor_name(h, e->actor));
        mon_put_t(&p, e->t_us);
        buf_printf(&p, ": one release freed the lock while another of %s's holds was still open.", history_actor_name(h, c));
    }
    if (p.len) {
        r->v = VERDICT_VIOLATED;
        r->at_us = e->t_us;
        r->evidence = buf_steal(&p);
    }
    buf_release(&p);
}

static void init(void *st, const mon_env *env)
{
    *(reentrancy_mon *)st = (reentrancy_mon){ .unit = env->unit, .holds = xcalloc((size_t)(env->nact > 0 ? env->nact : 1), sizeof(int)),
                                              .exec_client = -1, .exec_node = -1, .exec_t = -1 };
}

static void step(void *st, const mon_env *env, const hist_event *e, prop_result *r)
{
    reentrancy_step(st, env->h, e, r);
}

static void release(void *st)
{
    free(((reentrancy_mon *)st)->holds);
}

const prop_monitor reentrancy_monitor = { sizeof(reentrancy_mon), init, step, NULL, NULL, release, 0 };
