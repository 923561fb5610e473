/* monitor.c — the properties as monitors (see monitor.h): each reads the history one event
 * at a time and keeps only its own state.
 *
 * mutual_exclusion: each client is inside its critical section from its cs_enter to its
 * cs_exit (or, if it crashed or the run ended inside, until then); two clients inside at the
 * same true time violate it. State: the intervals so far (the evidence names the first pair in
 * the order they were entered, so earlier ones are kept); known violated as soon as two clients
 * are seen inside at once past both entries.
 *
 * resource_safety: the shared resource accepted a write it should not have — one whose token
 * is lower than a token it had already accepted, or one from a client that was no longer the
 * rightful holder because another client had acquired the lock after it. State: per client,
 * when it last acquired; the highest token accepted.
 *
 * The lock unit: the server objects that are the lock — the scenario's lock key, and what the
 * clients' models declared (lock_unit events: an object, or every object under a prefix: a
 * znode's children, an etcd key prefix, a table's rows, a collection's documents).
 *
 * release_safety: a release removed or changed an object of the lock unit on a node while it
 * belonged to another client. An object belongs to the client whose command last set it on
 * that node (key changes follow the exec event of the command that made them); objects that
 * arrived by replication have no known owner and are not judged. State: per client, inside a
 * release or not; per node and object, its owner; the release requests in flight; the command
 * running.
 *
 * no_deadlock: for longer than a bound, some live client was trying to acquire the lock and
 * no live client held it. The bound is options.deadlock_bound, or twice the lease (twice the
 * 30 s watchdog timeout without a lease). State: who waits, who holds, since when nobody
 * holds while somebody waits.
 *
 * fairness (judged when the scenario expects it): a client acquired the lock while another
 * client, whose first acquire command reached the server earlier, was still waiting. State:
 * per client, waiting or not and its place in line.
 *
 * reentrancy (judged when the scenario expects it): a holder's re-entrant acquire failed
 * (acquire_failed with the outcome reentry_failed), or the holder's own command deleted an
 * object of the lock unit while it held the lock more than once (its model said it
 * reentered more times than it released an inner hold; a re-entry happens inside the acquire,
 * before the workload's acquired): one release freed what another hold still counted on.
 * State: per client, its holds; the command running. */
#include "monitor.h"

#include "clock.h"

#include <stdlib.h>
#include <string.h>

typedef struct interval {
    int actor;
    int64_t start, end;       /* true µs */
    int64_t lstart, lend;     /* the actor's local ms at both ends (-1: unknown) */
} interval;

static void put_t(buf *b, int64_t us)
{
    buf_printf(b, "%lld.%03llds", (long long)(us / 1000000), (long long)((us / 1000) % 1000));
}

/* The faults that started before `until`, as one phrase. */
static void faults_before(const history *h, int64_t until, buf *b)
{
    int n = 0;
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        if (e->t > until) break;
        if (e->kind != H_FAULT) continue;
        buf_puts(b, n++ ? "; " : " Faults before then: ");
        buf_printf(b, "%s at ", e->text ? e->text : "fault");
        put_t(b, e->t);
    }
    if (n) buf_putc(b, '.');
}

/* An actor's local clock at true time t, rebuilt from the scenario: its configured offset and
 * drift, then the scenario's drift and clock_jump faults on it up to t. (Faults injected by
 * the explorer are pinned into the scenario before a run is judged for evidence.) */
static int64_t local_at(const scenario *sc, const char *name, int64_t t)
{
    lclock c;
    const clock_cfg *cfg = NULL;
    int ni = scenario_node_index(sc, name), ci = scenario_client_index(sc, name);
    if (ni >= 0) cfg = &sc->nodes[ni].clock;
    else if (ci >= 0) cfg = &sc->clients[ci].clock;
    lclock_init(&c, 1700000000000LL, cfg ? cfg->offset_ms : 0, cfg ? cfg->drift : 0);
    for (int i = 0; i < sc->nfaults; i++) {
        const fault_cfg *f = &sc->faults[i];
        if (f->at > t || !f->target || strcmp(f->target, name)) continue;
        if (f->kind == FAULT_DRIFT) lclock_set_drift(&c, f->at, f->rate);
        else if (f->kind == FAULT_CLOCK_JUMP) lclock_jump(&c, f->at, f->by_ms);
    }
    return lclock_read(&c, t);
}

/* "its clock: 10.106s" — local time as seconds since the scenario's epoch. */
static void put_local(buf *b, int64_t local_ms)
{
    int64_t rel = local_ms - 1700000000000LL;
    buf_printf(b, "%s%lld.%03llds", rel < 0 ? "-" : "", (long long)(rel < 0 ? -rel : rel) / 1000,
               (long long)(rel < 0 ? -rel : rel) % 1000);
}


/* ---- mutual_exclusion ---------------------------------------------------------------- */

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
    m->last_t = e->t;
    if (!m->seen && m->nopen >= 2) { /* an event later than two open entries: they overlap */
        int inside = 0;
        for (int a = 0; a < nact && inside < 2; a++)
            if (m->open[a] >= 0 && m->iv[m->open[a]].start < e->t) inside++;
        m->seen = inside >= 2;
    }
    if (e->actor < 0) return;
    if (e->kind == H_CS_ENTER) {
        if (m->ni == m->cap) m->iv = xrealloc(m->iv, (m->cap = m->cap ? m->cap * 2 : 16) * sizeof *m->iv);
        m->iv[m->ni] = (interval){ e->actor, e->t, INT64_MAX, e->local, -1 };
        if (m->open[e->actor] < 0) m->nopen++;
        m->open[e->actor] = (int)m->ni++;
    } else if ((e->kind == H_CS_EXIT || (e->kind == H_FAULT && e->fault == FAULT_CRASH)) && m->open[e->actor] >= 0) {
        m->iv[m->open[e->actor]].end = e->t;
        m->iv[m->open[e->actor]].lend = e->local;
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
    }
    r->v = VERDICT_HOLDS;
    for (size_t i = 0; i < ni && r->v == VERDICT_HOLDS; i++) {
        for (size_t j = i + 1; j < ni; j++) {
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
            put_t(&p, s);
            buf_puts(&p, " to ");
            put_t(&p, en);
            buf_printf(&p, " (true time, %lld ms together); by their own clocks, ", (long long)((en - s + 500) / 1000));
            for (int k = 0; k < 2; k++) {
                const char *nm = history_actor_name(h, k ? b->actor : a->actor);
                buf_printf(&p, "%s%s's from ", k ? " and " : "", nm);
                put_local(&p, local_at(sc, nm, s));
                buf_puts(&p, " to ");
                put_local(&p, local_at(sc, nm, en));
            }
            buf_printf(&p, ". %s entered at ", history_actor_name(h, a->actor));
            put_t(&p, a->start);
            buf_printf(&p, "; %s entered at ", history_actor_name(h, b->actor));
            put_t(&p, b->start);
            buf_printf(&p, ", while %s had not left.", history_actor_name(h, a->actor));
            faults_before(h, en, &p);
            r->v = VERDICT_VIOLATED;
            r->at = s;
            r->evidence = buf_steal(&p);
            break;
        }
    }
}

/* ---- resource_safety ----------------------------------------------------------------- */

typedef struct resource_mon {
    int64_t *acquired_at;
    int64_t max_token;
} resource_mon;

static void resource_step(resource_mon *m, const history *h, const hist_event *e, int nact, prop_result *r)
{
    if (e->kind == H_ACQUIRED && e->actor >= 0) m->acquired_at[e->actor] = e->t;
    if (e->kind != H_WRITE || !e->b) return;
    buf p;
    buf_init(&p);
    if (e->a >= 0 && e->a < m->max_token) {
        buf_printf(&p, "The resource accepted %s's write with token %lld at ", history_actor_name(h, e->actor),
                   (long long)e->a);
        put_t(&p, e->t);
        buf_printf(&p, " after it had already accepted token %lld.", (long long)m->max_token);
    } else {
        int usurper = -1;
        for (int a = 0; a < nact; a++)
            if (a != e->actor && m->acquired_at[a] > m->acquired_at[e->actor] && m->acquired_at[e->actor] >= 0) usurper = a;
        if (usurper >= 0) {
            buf_printf(&p, "The resource accepted a write from %s at ", history_actor_name(h, e->actor));
            put_t(&p, e->t);
            buf_printf(&p, ", but %s had acquired the lock after %s did (at ", history_actor_name(h, usurper),
                       history_actor_name(h, e->actor));
            put_t(&p, m->acquired_at[usurper]);
            buf_printf(&p, "): %s was no longer the rightful holder%s", history_actor_name(h, e->actor),
                       e->a >= 0 ? ", and nothing fenced its stale token." : ", and without a fencing token the resource could not tell.");
        }
    }
    if (e->a > m->max_token) m->max_token = e->a;
    if (p.len) {
        faults_before(h, e->t, &p);
        r->v = VERDICT_VIOLATED;
        r->at = e->t;
        r->evidence = buf_steal(&p);
    }
    buf_release(&p);
}

/* ---- the lock unit ------------------------------------------------------------------- */

typedef struct unit_name {
    const char *name;   /* borrowed from the history (or the scenario) */
    int prefix;
} unit_name;

typedef struct lock_unit {
    unit_name *v;
    size_t n, cap;
} lock_unit;

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

static int unit_has(const lock_unit *u, const char *key)
{
    for (size_t i = 0; key && i < u->n; i++)
        if (u->v[i].prefix ? !strncmp(key, u->v[i].name, strlen(u->v[i].name)) : !strcmp(key, u->v[i].name)) return 1;
    return 0;
}

/* ---- release_safety ------------------------------------------------------------------ */

static int is_crash_of(const hist_event *e, int actor)
{
    return e->kind == H_FAULT && e->fault == FAULT_CRASH && e->actor == actor;
}

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
        m->exec_t = e->t;
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
        if (!unit_has(m->unit, e->text)) break;
        int attributed = e->actor == m->exec_node && e->t == m->exec_t && e->kind != H_KEY_EXPIRED;
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
            put_t(&p, e->t);
            buf_printf(&p, ", but the key belonged to %s then: %s removed a lock it did not own.",
                       history_actor_name(h, before), history_actor_name(h, m->exec_client));
            faults_before(h, e->t, &p);
            r->v = VERDICT_VIOLATED;
            r->at = e->t;
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

/* ---- no_deadlock --------------------------------------------------------------------- */

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
    return 2 * (sc->lease > 0 ? sc->lease : 30000000);
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
    put_t(&p, m->since);
    buf_puts(&p, " to ");
    put_t(&p, m->since + m->bound);
    buf_printf(&p, " and beyond (the bound is %lld ms) the lock could not be obtained: ", (long long)(m->bound / 1000));
    int first = 1;
    for (int a = 0; a < nact; a++)
        if (m->waiting[a]) buf_printf(&p, "%s%s", first ? "" : ", ", history_actor_name(h, a)), first = 0;
    buf_puts(&p, " kept trying, and no live client held it.");
    faults_before(h, m->since + m->bound, &p);
    r->v = VERDICT_VIOLATED;
    r->at = m->since + m->bound;
    r->evidence = buf_steal(&p);
}

static void deadlock_step(deadlock_mon *m, const history *h, const hist_event *e, int nact, prop_result *r)
{
    deadlock_judge(m, h, nact, e->t, r);
    if (r->v != VERDICT_HOLDS) return;
    int a = e->actor;
    if (a >= 0 && a < nact) {
        if (e->kind == H_ACQUIRE && !m->waiting[a]) m->waiting[a] = 1, m->nwaiting++;
        if ((e->kind == H_ACQUIRED || e->kind == H_ACQUIRE_FAILED) && m->waiting[a]) m->waiting[a] = 0, m->nwaiting--;
        if (e->kind == H_ACQUIRED && !m->holding[a]) m->holding[a] = 1, m->nholding++;
        if (e->kind == H_RELEASED && m->holding[a]) m->holding[a] = 0, m->nholding--;
        if (is_crash_of(e, a) || e->kind == H_END || e->kind == H_ERROR) {
            if (m->waiting[a]) m->waiting[a] = 0, m->nwaiting--;
            if (m->holding[a]) m->holding[a] = 0, m->nholding--;
        }
    }
    int stuck = m->nwaiting > 0 && m->nholding == 0;
    if (stuck && m->since < 0) m->since = e->t;
    if (!stuck) m->since = -1;
}

/* ---- fairness ------------------------------------------------------------------------ */

typedef struct fairness_mon {
    int *waiting;
    int64_t *queued_at;
} fairness_mon;

static void fairness_step(fairness_mon *m, const history *h, const hist_event *e, int nact, prop_result *r)
{
    if (e->kind == H_ACQUIRE && e->actor >= 0) m->waiting[e->actor] = 1, m->queued_at[e->actor] = -1;
    /* A waiter's place in line: when its first command of this attempt reached a node. */
    if (e->kind == H_EXEC && e->peer >= 0 && m->waiting[e->peer] && m->queued_at[e->peer] < 0) m->queued_at[e->peer] = e->t;
    if (e->kind == H_ACQUIRE_FAILED || e->kind == H_END || is_crash_of(e, e->actor)) {
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
        put_t(&p, e->t);
        buf_printf(&p, " although %s had been in line longer (its request reached the server at ", history_actor_name(h, y));
        put_t(&p, m->queued_at[y]);
        buf_printf(&p, ", %s's at ", history_actor_name(h, x));
        put_t(&p, m->queued_at[x]);
        buf_printf(&p, ") and was still waiting.");
        r->v = VERDICT_VIOLATED;
        r->at = e->t;
        r->evidence = buf_steal(&p);
        break;
    }
    m->waiting[x] = 0;
}

/* ---- reentrancy ---------------------------------------------------------------------- */

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
        put_t(&p, e->t);
        buf_printf(&p, " failed: %s.", e->text ? e->text : "re-entry failed");
    } else if (e->kind == H_ACQUIRED && e->actor >= 0) {
        if (m->holds[e->actor] < 1) m->holds[e->actor] = 1;
    } else if (e->kind == H_LOCK_UNIT && e->actor >= 0) {
        /* re-entries happen inside the acquire, before the workload records it acquired:
         * a re-entry means a first hold */
        if (e->code == HU_REENTERED) m->holds[e->actor] = (m->holds[e->actor] < 1 ? 1 : m->holds[e->actor]) + 1;
        if (e->code == HU_INNER_RELEASED && m->holds[e->actor] > 1) m->holds[e->actor]--;
    } else if (e->kind == H_ACQUIRE || e->kind == H_ACQUIRE_FAILED || e->kind == H_RELEASED || e->kind == H_END ||
               e->kind == H_ERROR || is_crash_of(e, e->actor)) {
        if (e->actor >= 0) m->holds[e->actor] = 0;
    } else if (e->kind == H_EXEC) {
        m->exec_client = e->peer, m->exec_node = e->actor, m->exec_t = e->t;
    } else if (e->kind == H_KEY_DELETED && e->actor == m->exec_node && e->t == m->exec_t && m->exec_client >= 0 &&
               m->holds[m->exec_client] > 1 && unit_has(m->unit, e->text)) {
        int c = m->exec_client;
        if (m->holds[c] == 2) buf_printf(&p, "%s held the lock twice", history_actor_name(h, c));
        else buf_printf(&p, "%s held the lock %d times", history_actor_name(h, c), m->holds[c]);
        buf_printf(&p, " (it took it again while holding it), but its own command deleted %s on %s at ", e->text,
                   history_actor_name(h, e->actor));
        put_t(&p, e->t);
        buf_printf(&p, ": one release freed the lock while another of %s's holds was still open.", history_actor_name(h, c));
    }
    if (p.len) {
        r->v = VERDICT_VIOLATED;
        r->at = e->t;
        r->evidence = buf_steal(&p);
    }
    buf_release(&p);
}

/* ---- all of them --------------------------------------------------------------------- */

struct monitor {
    const history *h;
    const scenario *sc;
    int nact;           /* the actors the history had at the start */
    size_t next;        /* the next event to read */
    check_result r;     /* verdicts so far (HOLDS until violated; NOT_JUDGED: not monitored) */
    lock_unit unit;     /* the lock's server objects: the scenario's lock key first */
    mutex_mon mx;
    resource_mon rs;
    release_mon rl;
    deadlock_mon dl;
    fairness_mon fr;
    reentrancy_mon re;
};

monitor *monitor_new(const history *h, const scenario *sc)
{
    LL_ASSERT(h && sc);
    monitor *m = xcalloc(1, sizeof *m);
    m->h = h;
    m->sc = sc;
    int nact = m->nact = (int)history_actors(h);
    size_t na = (size_t)(nact > 0 ? nact : 1);
    for (int i = 0; i < PROP_COUNT; i++) m->r.p[i].v = VERDICT_HOLDS;
    if (!check_expectation(sc, PROP_FAIRNESS)) m->r.p[PROP_FAIRNESS].v = VERDICT_NOT_JUDGED;
    if (!check_expectation(sc, PROP_REENTRANCY)) m->r.p[PROP_REENTRANCY].v = VERDICT_NOT_JUDGED;
    unit_add(&m->unit, sc->lock ? sc->lock : "lock", 0);
    m->mx.open = xmalloc(na * sizeof *m->mx.open);
    m->rs.acquired_at = xmalloc(na * sizeof *m->rs.acquired_at);
    m->rs.max_token = -1;
    m->rl = (release_mon){ .unit = &m->unit, .releasing = xcalloc(na, sizeof(int)), .exec_client = -1, .exec_node = -1,
                           .exec_t = -1 };
    m->dl = (deadlock_mon){ .waiting = xcalloc(na, sizeof(int)), .holding = xcalloc(na, sizeof(int)), .since = -1,
                            .bound = deadlock_bound(sc) };
    m->fr = (fairness_mon){ .waiting = xcalloc(na, sizeof(int)), .queued_at = xmalloc(na * sizeof(int64_t)) };
    m->re = (reentrancy_mon){ .unit = &m->unit, .holds = xcalloc(na, sizeof(int)), .exec_client = -1, .exec_node = -1,
                              .exec_t = -1 };
    for (int a = 0; a < nact; a++) {
        m->mx.open[a] = -1;
        m->rs.acquired_at[a] = -1;
        m->fr.queued_at[a] = -1;
    }
    return m;
}

void monitor_free(monitor *m)
{
    if (!m) return;
    check_free(&m->r);
    free(m->mx.iv);
    free(m->mx.open);
    free(m->rs.acquired_at);
    free(m->unit.v);
    free(m->rl.releasing);
    free(m->rl.own);
    free(m->rl.reqs);
    free(m->dl.waiting);
    free(m->dl.holding);
    free(m->fr.waiting);
    free(m->fr.queued_at);
    free(m->re.holds);
    free(m);
}

void monitor_step(monitor *m, size_t i)
{
    LL_ASSERT(i == m->next); /* each event once, in order */
    m->next++;
    const hist_event *e = history_at(m->h, i);
    LL_ASSERT(e && e->actor >= -1 && e->actor < (int)history_actors(m->h));
    LL_ASSERT(e->actor < m->nact); /* no actor joins a run after its start */
    prop_result *p = m->r.p;
    unit_step(&m->unit, e);
    mutex_step(&m->mx, e, m->nact);
    if (p[PROP_RESOURCE_SAFETY].v == VERDICT_HOLDS) resource_step(&m->rs, m->h, e, m->nact, &p[PROP_RESOURCE_SAFETY]);
    if (p[PROP_RELEASE_SAFETY].v == VERDICT_HOLDS) release_step(&m->rl, m->h, e, &p[PROP_RELEASE_SAFETY]);
    if (p[PROP_NO_DEADLOCK].v == VERDICT_HOLDS) deadlock_step(&m->dl, m->h, e, m->nact, &p[PROP_NO_DEADLOCK]);
    if (p[PROP_FAIRNESS].v == VERDICT_HOLDS) fairness_step(&m->fr, m->h, e, m->nact, &p[PROP_FAIRNESS]);
    if (p[PROP_REENTRANCY].v == VERDICT_HOLDS) reentrancy_step(&m->re, m->h, e, &p[PROP_REENTRANCY]);
}

int monitor_violated(const monitor *m, property p)
{
    if (p == PROP_MUTUAL_EXCLUSION) return m->mx.seen;
    return p < PROP_COUNT && m->r.p[p].v == VERDICT_VIOLATED;
}

void monitor_finish(monitor *m, check_result *out)
{
    size_t n = history_len(m->h);
    while (m->next < n) monitor_step(m, m->next);
    /* the run ended: the stretch up to its last event, and the intervals still open */
    if (m->r.p[PROP_NO_DEADLOCK].v == VERDICT_HOLDS)
        deadlock_judge(&m->dl, m->h, m->nact, n ? history_at(m->h, n - 1)->t : 0, &m->r.p[PROP_NO_DEADLOCK]);
    mutex_finish(&m->mx, m->h, m->sc, &m->r.p[PROP_MUTUAL_EXCLUSION]);
    *out = m->r;
    memset(&m->r, 0, sizeof m->r); /* the evidence is the caller's now */
}
