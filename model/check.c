/* check.c — properties over a history (see check.h).
 *
 * mutual_exclusion: each client is inside its critical section from its cs_enter to its
 * cs_exit (or, if it crashed or the run ended inside, until then); two clients inside at the
 * same true time violate it.
 *
 * resource_safety: the shared resource accepted a write it should not have — one whose token
 * is lower than a token it had already accepted, or one from a client that was no longer the
 * rightful holder because another client had acquired the lock after it.
 *
 * release_safety: a release removed or changed the lock key on a node while the key belonged
 * to another client. A key belongs to the client whose command last set it on that node
 * (key changes follow the exec event of the command that made them); keys that arrived by
 * replication have no known owner and are not judged.
 *
 * no_deadlock: for longer than a bound, some live client was trying to acquire the lock and
 * no live client held it. The bound is options.deadlock_bound, or twice the lease (twice the
 * 30 s watchdog timeout without a lease).
 *
 * fairness (judged when the scenario expects it): a client acquired the lock while another
 * client, whose first acquire command reached the server earlier, was still waiting.
 *
 * reentrancy (judged when the scenario expects it): a holder's re-entrant acquire failed, or
 * a release freed the lock key before the holder had undone every hold (its own command
 * deleted the key and it still had unlocks to send). */
#include "check.h"

#include "clock.h"

#include <stdlib.h>
#include <string.h>

static const char *const prop_names[PROP_COUNT] = {
    "mutual_exclusion", "resource_safety", "release_safety", "no_deadlock", "fairness", "reentrancy",
};

const char *property_name(property p)
{
    return p < PROP_COUNT ? prop_names[p] : "?";
}

int property_from_name(const char *name)
{
    for (int i = 0; i < PROP_COUNT; i++)
        if (!strcmp(prop_names[i], name)) return i;
    return -1;
}

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

static void check_mutex(const history *h, const scenario *sc, prop_result *r)
{
    size_t n = history_len(h), ni = 0, cap = 16;
    interval *iv = xmalloc(cap * sizeof *iv);
    int nact = (int)history_actors(h);
    int *open = xmalloc((size_t)(nact > 0 ? nact : 1) * sizeof *open);
    for (int a = 0; a < nact; a++) open[a] = -1;
    int64_t last_t = 0;
    for (size_t i = 0; i < n; i++) {
        const hist_event *e = history_at(h, i);
        last_t = e->t;
        if (e->actor < 0) continue;
        if (e->kind == H_CS_ENTER) {
            if (ni == cap) iv = xrealloc(iv, (cap *= 2) * sizeof *iv);
            iv[ni] = (interval){ e->actor, e->t, INT64_MAX, e->local, -1 };
            open[e->actor] = (int)ni++;
        } else if ((e->kind == H_CS_EXIT || (e->kind == H_FAULT && e->text && strstr(e->text, "crash"))) && open[e->actor] >= 0) {
            iv[open[e->actor]].end = e->t;
            iv[open[e->actor]].lend = e->local;
            open[e->actor] = -1;
        }
    }
    for (size_t i = 0; i < ni; i++)
        if (iv[i].end == INT64_MAX) iv[i].end = last_t;
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
    free(iv);
    free(open);
}

static void check_resource(const history *h, prop_result *r)
{
    size_t n = history_len(h);
    int nact = (int)history_actors(h);
    int64_t *acquired_at = xmalloc((size_t)(nact > 0 ? nact : 1) * sizeof *acquired_at);
    for (int a = 0; a < nact; a++) acquired_at[a] = -1;
    int64_t max_token = -1;
    r->v = VERDICT_HOLDS;
    for (size_t i = 0; i < n && r->v == VERDICT_HOLDS; i++) {
        const hist_event *e = history_at(h, i);
        if (e->kind == H_ACQUIRED && e->actor >= 0) acquired_at[e->actor] = e->t;
        if (e->kind != H_WRITE || !e->b) continue;
        buf p;
        buf_init(&p);
        if (e->a >= 0 && e->a < max_token) {
            buf_printf(&p, "The resource accepted %s's write with token %lld at ", history_actor_name(h, e->actor),
                       (long long)e->a);
            put_t(&p, e->t);
            buf_printf(&p, " after it had already accepted token %lld.", (long long)max_token);
        } else {
            int usurper = -1;
            for (int a = 0; a < nact; a++)
                if (a != e->actor && acquired_at[a] > acquired_at[e->actor] && acquired_at[e->actor] >= 0) usurper = a;
            if (usurper >= 0) {
                buf_printf(&p, "The resource accepted a write from %s at ", history_actor_name(h, e->actor));
                put_t(&p, e->t);
                buf_printf(&p, ", but %s had acquired the lock after %s did (at ", history_actor_name(h, usurper),
                           history_actor_name(h, e->actor));
                put_t(&p, acquired_at[usurper]);
                buf_printf(&p, "): %s was no longer the rightful holder%s", history_actor_name(h, e->actor),
                           e->a >= 0 ? ", and nothing fenced its stale token." : ", and without a fencing token the resource could not tell.");
            }
        }
        if (e->a > max_token) max_token = e->a;
        if (p.len) {
            faults_before(h, e->t, &p);
            r->v = VERDICT_VIOLATED;
            r->at = e->t;
            r->evidence = buf_steal(&p);
        }
        buf_release(&p);
    }
    free(acquired_at);
}

static int is_crash_of(const history *h, const hist_event *e, int actor)
{
    (void)h;
    return e->kind == H_FAULT && e->actor == actor && e->text && !strncmp(e->text, "crash of ", 9);
}

static void check_release(const history *h, const scenario *sc, prop_result *r)
{
    const char *lock = sc->lock ? sc->lock : "lock";
    size_t n = history_len(h);
    int nact = (int)history_actors(h);
    /* per actor: inside a release (between its release and released milestones) */
    int *releasing = xcalloc((size_t)(nact > 0 ? nact : 1), sizeof *releasing);
    /* per node: the client owning the lock key there, -1 none, -2 unknown */
    int *owner = xmalloc((size_t)(nact > 0 ? nact : 1) * sizeof *owner);
    for (int a = 0; a < nact; a++) owner[a] = -1;
    /* release requests in flight: (client, request id); one leaves when a node executes it,
     * so the list stays short however long the run (lost ones stay, and are few) */
    size_t nreq = 0, capreq = 16;
    int64_t *reqs = xmalloc(capreq * 2 * sizeof *reqs);
    int exec_client = -1, exec_node = -1, exec_is_release = 0;
    int64_t exec_t = -1;
    r->v = VERDICT_HOLDS;
    for (size_t i = 0; i < n && r->v == VERDICT_HOLDS; i++) {
        const hist_event *e = history_at(h, i);
        switch (e->kind) {
        case H_RELEASE: releasing[e->actor] = 1; break;
        case H_RELEASED: releasing[e->actor] = 0; break;
        case H_REQUEST:
            if (e->actor >= 0 && releasing[e->actor]) {
                if (nreq == capreq) reqs = xrealloc(reqs, (capreq *= 2) * 2 * sizeof *reqs);
                reqs[2 * nreq] = e->actor;
                reqs[2 * nreq + 1] = e->a;
                nreq++;
            }
            break;
        case H_EXEC:
            exec_client = e->peer;
            exec_node = e->actor;
            exec_t = e->t;
            exec_is_release = 0;
            for (size_t k = 0; k < nreq; k++)
                if (reqs[2 * k] == e->peer && reqs[2 * k + 1] == e->a) {
                    exec_is_release = 1;
                    nreq--;
                    reqs[2 * k] = reqs[2 * nreq];
                    reqs[2 * k + 1] = reqs[2 * nreq + 1];
                    break;
                }
            break;
        case H_KEY_SET:
        case H_KEY_DELETED:
        case H_KEY_EXPIRED: {
            if (!e->text || strcmp(e->text, lock) != 0) break;
            int attributed = e->actor == exec_node && e->t == exec_t && e->kind != H_KEY_EXPIRED;
            int before = owner[e->actor];
            if (attributed && exec_is_release && before >= 0 && before != exec_client) {
                buf p;
                buf_init(&p);
                buf_printf(&p, "%s's release %s the lock key on %s at ", history_actor_name(h, exec_client),
                           e->kind == H_KEY_DELETED ? "deleted" : "changed", history_actor_name(h, e->actor));
                put_t(&p, e->t);
                buf_printf(&p, ", but the key belonged to %s then: %s removed a lock it did not own.",
                           history_actor_name(h, before), history_actor_name(h, exec_client));
                faults_before(h, e->t, &p);
                r->v = VERDICT_VIOLATED;
                r->at = e->t;
                r->evidence = buf_steal(&p);
            }
            if (e->kind != H_KEY_SET) owner[e->actor] = -1;
            else if (attributed) {
                if (before < 0 || !exec_is_release) owner[e->actor] = exec_client;
            } else {
                owner[e->actor] = -2; /* replicated: owner unknown */
            }
            break;
        }
        default:
            if (e->kind != H_CALL) exec_node = -1;
            break;
        }
    }
    free(releasing);
    free(owner);
    free(reqs);
}

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

static void check_deadlock(const history *h, const scenario *sc, prop_result *r)
{
    size_t n = history_len(h);
    int nact = (int)history_actors(h);
    int *waiting = xcalloc((size_t)(nact > 0 ? nact : 1), sizeof *waiting);
    int *holding = xcalloc((size_t)(nact > 0 ? nact : 1), sizeof *holding);
    int nwaiting = 0, nholding = 0;
    int64_t since = -1, bound = deadlock_bound(sc);
    r->v = VERDICT_HOLDS;
    for (size_t i = 0; i <= n && r->v == VERDICT_HOLDS; i++) {
        const hist_event *e = i < n ? history_at(h, i) : NULL;
        int64_t t = e ? e->t : (n ? history_at(h, n - 1)->t : 0);
        /* Judge the stretch that ends here before applying the event. */
        if (since >= 0 && t - since > bound) {
            buf p;
            buf_init(&p);
            buf_puts(&p, "From ");
            put_t(&p, since);
            buf_puts(&p, " to ");
            put_t(&p, since + bound);
            buf_printf(&p, " and beyond (the bound is %lld ms) the lock could not be obtained: ", (long long)(bound / 1000));
            int first = 1;
            for (int a = 0; a < nact; a++)
                if (waiting[a]) buf_printf(&p, "%s%s", first ? "" : ", ", history_actor_name(h, a)), first = 0;
            buf_puts(&p, " kept trying, and no live client held it.");
            faults_before(h, since + bound, &p);
            r->v = VERDICT_VIOLATED;
            r->at = since + bound;
            r->evidence = buf_steal(&p);
            break;
        }
        if (!e) break;
        int a = e->actor;
        if (a >= 0 && a < nact) {
            if (e->kind == H_ACQUIRE && !waiting[a]) waiting[a] = 1, nwaiting++;
            if ((e->kind == H_ACQUIRED || e->kind == H_ACQUIRE_FAILED) && waiting[a]) waiting[a] = 0, nwaiting--;
            if (e->kind == H_ACQUIRED && !holding[a]) holding[a] = 1, nholding++;
            if (e->kind == H_RELEASED && holding[a]) holding[a] = 0, nholding--;
            if (is_crash_of(h, e, a) || e->kind == H_END || e->kind == H_ERROR) {
                if (waiting[a]) waiting[a] = 0, nwaiting--;
                if (holding[a]) holding[a] = 0, nholding--;
            }
        }
        int stuck = nwaiting > 0 && nholding == 0;
        if (stuck && since < 0) since = e->t;
        if (!stuck) since = -1;
    }
    free(waiting);
    free(holding);
}

static int expects(const scenario *sc, property p)
{
    for (int i = 0; i < sc->nexpects; i++)
        if (!strcmp(sc->expects[i].property, property_name(p))) return 1;
    return 0;
}

static void check_fairness(const history *h, prop_result *r)
{
    size_t n = history_len(h);
    int nact = (int)history_actors(h);
    int *waiting = xcalloc((size_t)(nact > 0 ? nact : 1), sizeof *waiting);
    int64_t *queued_at = xmalloc((size_t)(nact > 0 ? nact : 1) * sizeof *queued_at);
    for (int a = 0; a < nact; a++) queued_at[a] = -1;
    r->v = VERDICT_HOLDS;
    for (size_t i = 0; i < n && r->v == VERDICT_HOLDS; i++) {
        const hist_event *e = history_at(h, i);
        if (e->kind == H_ACQUIRE && e->actor >= 0) waiting[e->actor] = 1, queued_at[e->actor] = -1;
        /* A waiter's place in line: when its first command of this attempt reached a node. */
        if (e->kind == H_EXEC && e->peer >= 0 && waiting[e->peer] && queued_at[e->peer] < 0) queued_at[e->peer] = e->t;
        if (e->kind == H_ACQUIRE_FAILED || e->kind == H_END || is_crash_of(h, e, e->actor)) {
            if (e->actor >= 0) waiting[e->actor] = 0;
        }
        if (e->kind != H_ACQUIRED || e->actor < 0) continue;
        int x = e->actor;
        for (int y = 0; y < nact; y++) {
            if (y == x || !waiting[y] || queued_at[y] < 0 || queued_at[x] < 0 || queued_at[y] >= queued_at[x]) continue;
            buf p;
            buf_init(&p);
            buf_printf(&p, "%s acquired the lock at ", history_actor_name(h, x));
            put_t(&p, e->t);
            buf_printf(&p, " although %s had been in line longer (its request reached the server at ", history_actor_name(h, y));
            put_t(&p, queued_at[y]);
            buf_printf(&p, ", %s's at ", history_actor_name(h, x));
            put_t(&p, queued_at[x]);
            buf_printf(&p, ") and was still waiting.");
            r->v = VERDICT_VIOLATED;
            r->at = e->t;
            r->evidence = buf_steal(&p);
            break;
        }
        waiting[x] = 0;
    }
    free(waiting);
    free(queued_at);
}

static void check_reentrancy(const history *h, const scenario *sc, prop_result *r)
{
    const char *lock = sc->lock ? sc->lock : "lock";
    size_t n = history_len(h);
    int nact = (int)history_actors(h);
    int *releasing = xcalloc((size_t)(nact > 0 ? nact : 1), sizeof *releasing);
    int64_t *freed_at = xmalloc((size_t)(nact > 0 ? nact : 1) * sizeof *freed_at);
    for (int a = 0; a < nact; a++) freed_at[a] = -1;
    const char **freed_by = xcalloc((size_t)(nact > 0 ? nact : 1), sizeof *freed_by);
    int exec_client = -1, exec_node = -1;
    int64_t exec_t = -1;
    const char *exec_text = NULL;
    r->v = VERDICT_HOLDS;
    for (size_t i = 0; i < n && r->v == VERDICT_HOLDS; i++) {
        const hist_event *e = history_at(h, i);
        buf p;
        buf_init(&p);
        if (e->kind == H_ACQUIRE_FAILED && e->text && !strncmp(e->text, "re-entry failed", 15)) {
            buf_printf(&p, "%s held the lock, but its re-entrant acquire at ", history_actor_name(h, e->actor));
            put_t(&p, e->t);
            buf_printf(&p, " failed: %s.", e->text);
        } else if (e->kind == H_RELEASE) {
            releasing[e->actor] = 1;
            freed_at[e->actor] = -1;
        } else if (e->kind == H_RELEASED) {
            releasing[e->actor] = 0;
        } else if (e->kind == H_EXEC) {
            exec_client = e->peer, exec_node = e->actor, exec_t = e->t, exec_text = e->text;
        } else if (e->kind == H_KEY_DELETED && e->text && !strcmp(e->text, lock) && e->actor == exec_node && e->t == exec_t &&
                   exec_client >= 0 && releasing[exec_client]) {
            freed_at[exec_client] = e->t;
            freed_by[exec_client] = exec_text;
        } else if (e->kind == H_REQUEST && e->actor >= 0 && releasing[e->actor] && freed_at[e->actor] >= 0 && e->text &&
                   freed_by[e->actor] && !strncmp(e->text, freed_by[e->actor], strcspn(freed_by[e->actor], " "))) {
            /* Another request of the same kind as the one that freed the key: one more
             * unlock, for a hold that no longer exists. */
            buf_printf(&p, "%s's release freed the lock at ", history_actor_name(h, e->actor));
            put_t(&p, freed_at[e->actor]);
            buf_printf(&p, " while it still had holds to undo (it went on to send %s).", e->text ? e->text : "more unlocks");
        }
        if (p.len) {
            r->v = VERDICT_VIOLATED;
            r->at = e->t;
            r->evidence = buf_steal(&p);
        }
        buf_release(&p);
    }
    free(releasing);
    free(freed_at);
    free(freed_by);
}

void check_run(const history *h, const scenario *sc, check_result *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < PROP_COUNT; i++) out->p[i].v = VERDICT_NOT_JUDGED;
    check_mutex(h, sc, &out->p[PROP_MUTUAL_EXCLUSION]);
    check_resource(h, &out->p[PROP_RESOURCE_SAFETY]);
    check_release(h, sc, &out->p[PROP_RELEASE_SAFETY]);
    check_deadlock(h, sc, &out->p[PROP_NO_DEADLOCK]);
    if (expects(sc, PROP_FAIRNESS)) check_fairness(h, &out->p[PROP_FAIRNESS]);
    if (expects(sc, PROP_REENTRANCY)) check_reentrancy(h, sc, &out->p[PROP_REENTRANCY]);
}

void check_free(check_result *r)
{
    for (int i = 0; i < PROP_COUNT; i++) {
        free(r->p[i].evidence);
        r->p[i].evidence = NULL;
    }
}
