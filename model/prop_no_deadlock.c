/* prop_no_deadlock.c — the no_deadlock property (monitorint.h).
 *
 * no_deadlock: for longer than a bound, some live client was trying to acquire the lock and no
 * live client held it. The bound is options.deadlock_bound, or twice the lease (twice the 30 s
 * watchdog timeout without a lease). State: who waits, who holds, since when nobody holds
 * while somebody waits. */
#include "monitorint.h"

#include <stdlib.h>
#include <string.h>

static int64_t deadlock_bound(const scenario *sc)
{
    for (int i = 0; i < sc->noptions; i++) {
        const option_cfg *o = &sc->options[i];
        if (strcmp(o->key, "deadlock_bound") != 0) continue;
        if (o->type == OPT_NUMBER) return (int64_t)(o->num * 1000);
        if (o->type == OPT_STRING) {
            int64_t v = scenario_parse_duration(o->s);
            if (v > 0) return v;
        }
    }
    return 2 * scenario_lease_or_watchdog(sc);
}

typedef struct deadlock_mon {
    int *waiting, *holding;
    int nwaiting, nholding;
    int64_t since, bound;
} deadlock_mon;

/* Judges the stretch that ends at t (before the event there is applied). */
static void deadlock_judge(deadlock_mon *m, const history *h, int nact, int64_t t, prop_result *r)
{
    if (m->since < 0 || t - m->since <= m->bound) return;
    buf p;
    buf_init(&p);
    buf_puts(&p, "From ");
    mon_put_t(&p, m->since);
    buf_puts(&p, " to ");
    mon_put_t(&p, m->since + m->bound);
    buf_printf(&p, " and beyond (the bound is %lld ms) the lock could not be obtained: ", (long long)(m->bound / 1000));
    int first = 1;
    for (int a = 0; a < nact; a++)
        if (m->waiting[a]) buf_printf(&p, "%s%s", first ? "" : ", ", history_actor_name(h, a)), first = 0;
    buf_puts(&p, " kept trying, and no live client held it.");
    mon_faults_before(h, m->since + m->bound, &p);
    r->v = VERDICT_VIOLATED;
    r->at_us = m->since + m->bound;
    r->evidence = buf_steal(&p);
}

/* Applies e: who waits and who holds; since when nobody holds while somebody waits. */
static void deadlock_update(deadlock_mon *m, const hist_event *e, int nact)
{
    int a = e->actor;
    if (a >= 0 && a < nact) {
        if (e->kind == H_ACQUIRE && !m->waiting[a]) m->waiting[a] = 1, m->nwaiting++;
        if ((e->kind == H_ACQUIRED || e->kind == H_ACQUIRE_FAILED) && m->waiting[a]) m->waiting[a] = 0, m->nwaiting--;
        if (e->kind == H_ACQUIRED && !m->holding[a]) m->holding[a] = 1, m->nholding++;
        if (e->kind == H_RELEASED && m->holding[a]) m->holding[a] = 0, m->nholding--;
        if (mon_is_crash_of(e, a) || e->kind == H_END || e->kind == H_ERROR) {
            if (m->waiting[a]) m->waiting[a] = 0, m->nwaiting--;
            if (m->holding[a]) m->holding[a] = 0, m->nholding--;
        }
    }
    int stuck = m->nwaiting > 0 && m->nholding == 0;
    if (stuck && m->since < 0) m->since = e->t_us;
    if (!stuck) m->since = -1;
}

static void deadlock_step(deadlock_mon *m, const history *h, const hist_event *e, int nact, prop_result *r)
{
    deadlock_judge(m, h, nact, e->t_us, r);
    if (r->v == VERDICT_HOLDS) deadlock_update(m, e, nact);
}

static void init(void *st, const mon_env *env)
{
    size_t na = (size_t)(env->nact > 0 ? env->nact : 1);
    *(deadlock_mon *)st = (deadlock_mon){ .waiting = xcalloc(na, sizeof(int)), .holding = xcalloc(na, sizeof(int)),
                                          .since = -1, .bound = deadlock_bound(env->sc) };
}

static void step(void *st, const mon_env *env, const hist_event *e, prop_result *r)
{
    deadlock_step(st, env->h, e, env->nact, r);
}

/* The run ended: the stretch up to its last event. */
static void finish(void *st, const mon_env *env, prop_result *r)
{
    size_t n = history_len(env->h);
    if (r->v == VERDICT_HOLDS) deadlock_judge(st, env->h, env->nact, n ? history_at(env->h, n - 1)->t_us : 0, r);
}

static void release(void *st)
{
    deadlock_mon *m = st;
    free(m->waiting);
    free(m->holding);
}

void no_deadlock_stretches(const history *h, const scenario *sc, void (*fn)(void *ud, size_t from, size_t to, int64_t bound),
                           void *ud)
{
    mon_env env = { .h = h, .sc = sc, .nact = (int)history_actors(h) };
    deadlock_mon m;
    init(&m, &env);
    size_t n = history_len(h), from = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t before = m.since;
        deadlock_update(&m, history_at(h, i), env.nact);
        if (before < 0 && m.since >= 0) from = i;
        if (before >= 0 && m.since < 0) fn(ud, from, i, m.bound);
    }
    if (m.since >= 0 && n > 0) fn(ud, from, n - 1, m.bound);
    release(&m);
}

const prop_monitor no_deadlock_monitor = { sizeof(deadlock_mon), init, step, finish, NULL, release, 0 };
