/* monitor.c — the properties as monitors (see monitor.h): each reads the history one event
 * at a time and keeps only its own state. Each property is a row of properties.c and a file,
 * prop_<name>.c, which says what it means and what state it keeps; this file feeds them all
 * the same way (monitorint.h), and holds what they share: the lock unit and the evidence's
 * helpers.
 *
 * The lock unit: the server objects that are the lock — the scenario's lock key, and what the
 * clients' models declared (lock_unit events: an object, or every object under a prefix: a
 * znode's children, an etcd key prefix, a table's rows, a collection's documents). */
#include "monitorint.h"

#include <stdlib.h>
#include <string.h>

void mon_put_t(buf *b, int64_t us)
{
    buf_printf(b, "%lld.%03llds", (long long)(us / 1000000), (long long)((us / 1000) % 1000));
}

/* The faults that started before `until`, as one phrase. */
void mon_faults_before(const history *h, int64_t until, buf *b)
{
    int n = 0;
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        if (e->t_us > until) break;
        if (e->kind != H_FAULT) continue;
        buf_puts(b, n++ ? "; " : " Faults before then: ");
        buf_printf(b, "%s at ", e->text ? e->text : "fault");
        mon_put_t(b, e->t_us);
    }
    if (n) buf_putc(b, '.');
}

/* An actor's local clock at true time t, as the history tells it: its clock at the start and
 * the drift and clock_jump faults on it (those the explorer injected too). */
int64_t mon_local_at(const history *h, int actor, int64_t t)
{
    return history_local_at(h, actor, t);
}

/* "its clock: 10.106s" — local time as seconds since the scenario's epoch. */
void mon_put_local(buf *b, int64_t local_ms)
{
    int64_t rel = local_ms - HISTORY_EPOCH_MS;
    buf_printf(b, "%s%lld.%03llds", rel < 0 ? "-" : "", (long long)(rel < 0 ? -rel : rel) / 1000,
               (long long)(rel < 0 ? -rel : rel) % 1000);
}

int mon_is_crash_of(const hist_event *e, int actor)
{
    return e->kind == H_FAULT && e->fault == FAULT_CRASH && e->actor == actor;
}

/* ---- the lock unit ------------------------------------------------------------------- */

static void unit_add(lock_unit *u, const char *name, int prefix)
{
    for (size_t i = 0; i < u->n; i++)
        if (u->v[i].prefix == prefix && !strcmp(u->v[i].name, name)) return;
    if (u->n == u->cap) u->v = xrealloc(u->v, (u->cap = u->cap ? 2 * u->cap : 4) * sizeof *u->v);
    u->v[u->n++] = (unit_name){ name, prefix };
}

static void unit_step(lock_unit *u, const hist_event *e)
{
    if (e->kind == H_LOCK_UNIT && e->text && (e->code == HU_KEY || e->code == HU_PREFIX)) unit_add(u, e->text, e->code == HU_PREFIX);
}

int mon_unit_has(const lock_unit *u, const char *key)
{
    for (size_t i = 0; key && i < u->n; i++)
        if (u->v[i].prefix ? !strncmp(key, u->v[i].name, strlen(u->v[i].name)) : !strcmp(key, u->v[i].name)) return 1;
    return 0;
}

/* ---- all of them --------------------------------------------------------------------- */

struct monitor {
    mon_env env;
    size_t next;        /* the next event to read */
    check_result r;     /* verdicts so far (HOLDS until violated; NOT_JUDGED: not monitored) */
    lock_unit unit;     /* the lock's server objects: the scenario's lock key first */
    void *st[PROP_COUNT]; /* each property's monitor state (NULL: not judged) */
};

/* Whether property p is judged on sc: always, or when expected; and on sc's server kind. */
static int judged_on(const scenario *sc, property p)
{
    const property_def *d = &property_table[p];
    if (d->when == JUDGED_WHEN_EXPECTED && !check_expectation(sc, p)) return 0;
    if (!d->kinds) return 1;
    for (const char *const *k = d->kinds; *k; k++)
        if (!strcmp(*k, sc->server ? sc->server : "redis")) return 1;
    return 0;
}

monitor *monitor_new(const history *h, const scenario *sc)
{
    LL_ASSERT(h && sc);
    monitor *m = xcalloc(1, sizeof *m);
    m->env = (mon_env){ .h = h, .sc = sc, .nact = (int)history_actors(h), .unit = &m->unit };
    unit_add(&m->unit, sc->lock ? sc->lock : "lock", 0);
    for (int p = 0; p < PROP_COUNT; p++) {
        const prop_monitor *pm = property_table[p].monitor;
        LL_ASSERT(pm && pm->size && pm->init && pm->step && pm->release);
        if (!judged_on(sc, (property)p)) {
            m->r.p[p].v = VERDICT_NOT_JUDGED;
            continue;
        }
        m->r.p[p].v = VERDICT_HOLDS;
        m->st[p] = xcalloc(1, pm->size);
        pm->init(m->st[p], &m->env);
    }
    return m;
}

void monitor_free(monitor *m)
{
    if (!m) return;
    check_free(&m->r);
    for (int p = 0; p < PROP_COUNT; p++) {
        if (!m->st[p]) continue;
        property_table[p].monitor->release(m->st[p]);
        free(m->st[p]);
    }
    free(m->unit.v);
    free(m);
}

void monitor_step(monitor *m, size_t i)
{
    LL_ASSERT(i == m->next); /* each event once, in order */
    m->next++;
    const hist_event *e = history_at(m->env.h, i);
    LL_ASSERT(e && e->actor >= -1 && e->actor < (int)history_actors(m->env.h));
    LL_ASSERT(e->actor < m->env.nact); /* no actor joins a run after its start */
    LL_ASSERT(i == 0 || e->t_us >= history_at(m->env.h, i - 1)->t_us); /* fed in true-time order */
    unit_step(&m->unit, e);
    for (int p = 0; p < PROP_COUNT; p++) {
        const prop_monitor *pm = property_table[p].monitor;
        if (!m->st[p]) {
            LL_ASSERT(m->r.p[p].v == VERDICT_NOT_JUDGED); /* a property not judged stays so */
            continue;
        }
        prop_result was = m->r.p[p];
        if (pm->every_event || was.v == VERDICT_HOLDS) pm->step(m->st[p], &m->env, e, &m->r.p[p]);
        const prop_result *now = &m->r.p[p];
        LL_ASSERT(now->v == VERDICT_HOLDS || now->v == VERDICT_VIOLATED);
        /* a monitor knows a violation no later than the event that shows it, and never takes
         * one back: once violated, it stays violated at the same instant */
        if (now->v == VERDICT_VIOLATED) LL_ASSERT(now->at_us >= 0 && now->at_us <= e->t_us);
        if (was.v == VERDICT_VIOLATED) LL_ASSERT(now->v == VERDICT_VIOLATED && now->at_us == was.at_us);
    }
}

int monitor_violated(const monitor *m, property p)
{
    if (p >= PROP_COUNT || !m->st[p]) return 0;
    const prop_monitor *pm = property_table[p].monitor;
    return pm->seen ? pm->seen(m->st[p], &m->r.p[p]) : m->r.p[p].v == VERDICT_VIOLATED;
}

void monitor_finish(monitor *m, check_result *out)
{
    size_t n = history_len(m->env.h);
    while (m->next < n) monitor_step(m, m->next);
    /* the run ended: what its end decides (a stretch up to the last event, intervals still
     * open) */
    for (int p = 0; p < PROP_COUNT; p++) {
        const prop_monitor *pm = property_table[p].monitor;
        if (m->st[p] && pm->finish) pm->finish(m->st[p], &m->env, &m->r.p[p]);
    }
    *out = m->r;
    memset(&m->r, 0, sizeof m->r); /* the evidence is the caller's now */
}
