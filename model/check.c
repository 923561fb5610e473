/* check.c — properties over a history (see check.h).
 *
 * mutual_exclusion: each client is inside its critical section from its cs_enter to its
 * cs_exit (or, if it crashed or the run ended inside, until then); two clients inside at the
 * same true time violate it.
 *
 * resource_safety: the shared resource accepted a write it should not have — one whose token
 * is lower than a token it had already accepted, or one from a client that was no longer the
 * rightful holder because another client had acquired the lock after it. */
#include "check.h"

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

static void check_mutex(const history *h, prop_result *r)
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
            buf_printf(&p, " (true time, %lld ms together). %s entered at ", (long long)((en - s + 500) / 1000),
                       history_actor_name(h, a->actor));
            put_t(&p, a->start);
            buf_printf(&p, " (its clock: %lld)", (long long)a->lstart);
            buf_printf(&p, "; %s entered at ", history_actor_name(h, b->actor));
            put_t(&p, b->start);
            buf_printf(&p, " (its clock: %lld), while %s had not left.", (long long)b->lstart,
                       history_actor_name(h, a->actor));
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

void check_run(const history *h, const scenario *sc, check_result *out)
{
    (void)sc;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < PROP_COUNT; i++) out->p[i].v = VERDICT_NOT_JUDGED;
    check_mutex(h, &out->p[PROP_MUTUAL_EXCLUSION]);
    check_resource(h, &out->p[PROP_RESOURCE_SAFETY]);
}

void check_release(check_result *r)
{
    for (int i = 0; i < PROP_COUNT; i++) {
        free(r->p[i].evidence);
        r->p[i].evidence = NULL;
    }
}
