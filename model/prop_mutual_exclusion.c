/* prop_mutual_exclusion.c — the mutual_exclusion property (monitorint.h).
 *
 * mutual_exclusion: each client is inside its critical section from its cs_enter to its
 * cs_exit (or, if it crashed or the run ended inside, until then); two clients inside at the
 * same true time violate it. State: the intervals so far (the evidence names the first pair in
 * the order they were entered, so earlier ones are kept); known violated as soon as two
 * clients are seen inside at once past both entries. */
#include "monitorint.h"

#include <stdlib.h>
#include <string.h>

typedef struct interval {
    int actor;
    int64_t start, end;       /* true µs */
    int64_t lstart, lend;     /* the actor's local ms at both ends (-1: unknown) */
} interval;

typedef struct mutex_mon {
    interval *iv;
    size_t ni, cap;
    int *open;          /* per actor: its open interval, or -1 */
    int nopen;          /* actors with an open interval */
    int64_t last_t;
    int seen;           /* two clients inside at once, past both entries */
} mutex_mon;

static void mutex_step(mutex_mon *m, const hist_event *e, int nact)
{
    m->last_t = e->t_us;
    if (!m->seen && m->nopen >= 2) { /* an event later than two open entries: they overlap */
        int inside = 0;
        for (int a = 0; a < nact && inside < 2; a++)
            if (m->open[a] >= 0 && m->iv[m->open[a]].start < e->t_us) inside++;
        m->seen = inside >= 2;
    }
    if (e->actor < 0) return;
    if (e->kind == H_CS_ENTER) {
        if (m->ni == m->cap) m->iv = xrealloc(m->iv, (m->cap = m->cap ? m->cap * 2 : 16) * sizeof *m->iv);
        m->iv[m->ni] = (interval){ e->actor, e->t_us, INT64_MAX, e->local_ms, -1 };
        if (m->open[e->actor] < 0) m->nopen++;
        m->open[e->actor] = (int)m->ni++;
    } else if ((e->kind == H_CS_EXIT || (e->kind == H_FAULT && e->fault == FAULT_CRASH)) && m->open[e->actor] >= 0) {
        m->iv[m->open[e->actor]].end = e->t_us;
        m->iv[m->open[e->actor]].lend = e->local_ms;
        m->open[e->actor] = -1;
        m->nopen--;
    }
}

static void mutex_finish(mutex_mon *m, const history *h, const scenario *sc, prop_result *r)
{
    interval *iv = m->iv;
    size_t ni = m->ni;
    for (size_t i = 0; i < ni; i++) {
        if (iv[i].end == INT64_MAX) iv[i].end = m->last_t;
        LL_ASSERT(iv[i].start <= iv[i].end);
        LL_ASSERT(i == 0 || iv[i - 1].start <= iv[i].start); /* the scan below stops on it */
    }
    r->v = VERDICT_HOLDS;
    /* the intervals are in the order they began (the history is fed in time order): those
     * that begin once i has ended cannot overlap it, nor can any after them */
    for (size_t i = 0; i < ni && r->v == VERDICT_HOLDS; i++) {
        for (size_t j = i + 1; j < ni && iv[j].start < iv[i].end; j++) {
            if (iv[i].actor == iv[j].actor) continue;
            int64_t s = iv[i].start > iv[j].start ? iv[i].start : iv[j].start;
            int64_t en = iv[i].end < iv[j].end ? iv[i].end : iv[j].end;
            if (s >= en) continue;
            const interval *a = iv[i].start <= iv[j].start ? &iv[i] : &iv[j];
            const interval *b = a == &iv[i] ? &iv[j] : &iv[i];
            buf p;
            buf_init(&p);
            buf_printf(&p, "%s and %s were both inside the critical section from ", history_actor_name(h, a->actor),
                       history_actor_name(h, b->actor));
            mon_put_t(&p, s);
            buf_puts(&p, " to ");
            mon_put_t(&p, en);
            buf_printf(&p, " (true time, %lld ms together); by their own clocks, ", (long long)((en - s + 500) / 1000));
            for (int k = 0; k < 2; k++) {
                const char *nm = history_actor_name(h, k ? b->actor : a->actor);
                buf_printf(&p, "%s%s's from ", k ? " and " : "", nm);
                mon_put_local(&p, mon_local_at(h, k ? b->actor : a->actor, s));
                buf_puts(&p, " to ");
                mon_put_local(&p, mon_local_at(h, k ? b->actor : a->actor, en));
            }
            buf_printf(&p, ". %s entered at ", history_actor_name(h, a->actor));
            mon_put_t(&p, a->start);
            buf_printf(&p, "; %s entered at ", history_actor_name(h, b->actor));
            mon_put_t(&p, b->start);
            buf_printf(&p, ", while %s had not left.", history_actor_name(h, a->actor));
            mon_faults_before(h, en, &p);
            r->v = VERDICT_VIOLATED;
            r->at_us = s;
            r->evidence = buf_steal(&p);
            break;
        }
    }
}

static void init(void *st, const mon_env *env)
{
    mutex_mon *m = st;
    m->open = xmalloc((size_t)(env->nact > 0 ? env->nact : 1) * sizeof *m->open);
    for (int a = 0; a < env->nact; a++) m->open[a] = -1;
}

static void step(void *st, const mon_env *env, const hist_event *e, prop_result *r)
{
    (void)r;
    mutex_step(st, e, env->nact);
}

static void finish(void *st, const mon_env *env, prop_result *r)
{
    mutex_finish(st, env->h, env->sc, r);
}

static int seen(const void *st, const prop_result *r)
{
    (void)r;
    return ((const mutex_mon *)st)->seen;
}

static void release(void *st)
{
    mutex_mon *m = st;
    free(m->iv);
    free(m->open);
}

/* Read on every event (its verdict is decided at the end); known violated as soon as two
 * clients are seen inside at once. */
const prop_monitor mutual_exclusion_monitor = { sizeof(mutex_mon), init, step, finish, seen, release, 1 };
