/* sched.c — see sched.h. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

struct sched {
    event *heap;
    size_t len, cap;
    uint64_t seq;
    int cause, next_dec;
    /* sched_pop's scratch, kept between pops: the heap positions of the events due at one
     * instant, and per actor the position of its earliest one (valid where stamp says so) */
    size_t *ties, capties;
    size_t *first_of;
    uint64_t *stamp, pops;
    size_t capactors;
    int last_tie;   /* candidates offered by the last pop (0: it was not a decision among them) */
};

static int before(const event *a, const event *b)
{
    return a->time_us != b->time_us ? a->time_us < b->time_us : a->seq < b->seq;
}

static void up(sched *s, size_t i)
{
    event e = s->heap[i];
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(&e, &s->heap[p])) break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = e;
}

static void down(sched *s, size_t i)
{
    event e = s->heap[i];
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        const event *best = &e;
        if (l < s->len && before(&s->heap[l], best)) m = l, best = &s->heap[l];
        if (l + 1 < s->len && before(&s->heap[l + 1], best)) m = l + 1;
        if (m == i) break;
        s->heap[i] = s->heap[m];
        i = m;
    }
    s->heap[i] = e;
}

sched *sched_new(void)
{
    sched *s = xcalloc(1, sizeof(sched));
    s->cause = s->next_dec = -1;
    s->seq = 2; /* even, two apart: sched_push_since's odd numbers fit between */
    return s;
}

void sched_set_cause(sched *s, int cause)
{
    s->cause = cause;
}

void sched_tag_next(sched *s, int dec)
{
    s->next_dec = dec;
}

void sched_clear(sched *s, void (*release)(event *e))
{
    if (release)
        for (size_t i = 0; i < s->len; i++)
            if (s->heap[i].data) release(&s->heap[i]);
    s->len = 0;
    s->seq = 2;
}

void sched_free(sched *s, void (*release)(event *e))
{
    if (!s) return;
    sched_clear(s, release);
    free(s->heap);
    free(s->ties);
    free(s->first_of);
    free(s->stamp);
    free(s);
}

static void push_event(sched *s, event e)
{
    if (s->len == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->heap = xrealloc(s->heap, s->cap * sizeof *s->heap);
    }
    s->heap[s->len] = e;
    up(s, s->len++);
}

uint64_t sched_next_seq(const sched *s)
{
    return s->seq;
}

void sched_push(sched *s, int64_t time, int kind, int actor, uint64_t gen, void *data)
{
    push_event(s, (event){ time, s->seq, kind, actor, gen, data, s->cause, s->next_dec });
    s->seq += 2;
    s->next_dec = -1;
}

void sched_push_since(sched *s, uint64_t seq, int64_t time, int kind, int actor, uint64_t gen, void *data)
{
    LL_ASSERT(seq >= 2 && seq <= s->seq && !(seq & 1));
    push_event(s, (event){ time, seq - 1, kind, actor, gen, data, s->cause, s->next_dec });
    s->next_dec = -1;
}

void sched_push_caused(sched *s, int cause, int64_t time, int kind, int actor, uint64_t gen, void *data)
{
    int saved = s->cause;
    s->cause = cause;
    sched_push(s, time, kind, actor, gen, data);
    s->cause = saved;
}

static event pop_min(sched *s)
{
    event e = s->heap[0];
    s->heap[0] = s->heap[--s->len];
    if (s->len) down(s, 0);
    return e;
}

/* Takes the event at heap position i out of the heap. */
static event remove_at(sched *s, size_t i)
{
    event e = s->heap[i];
    s->heap[i] = s->heap[--s->len];
    if (i < s->len) {
        up(s, i);
        down(s, i);
    }
    return e;
}

static void tie_add(sched *s, size_t *n, size_t i)
{
    if (*n == s->capties) {
        s->capties = s->capties ? s->capties * 2 : 64;
        s->ties = xrealloc(s->ties, s->capties * sizeof *s->ties);
    }
    s->ties[(*n)++] = i;
}

int sched_pop(sched *s, chooser *ch, event *out)
{
    s->last_tie = 0;
    if (!s->len) return 0;
    int64_t t = s->heap[0].time_us;
    /* Another event due at t is, if there is one, a child of the root (its ancestors are all
     * due at t too, the heap's order being by time first). */
    int tied = (s->len > 1 && s->heap[1].time_us == t) || (s->len > 2 && s->heap[2].time_us == t);
    if (!ch || !tied) {
        *out = pop_min(s);
        return 1;
    }
    /* Several events are due at the same instant. They form a subtree at the root: walk it
     * (without taking anything out), find the earliest of each actor, offer those of the
     * first 16 actors in order of their earliest event, and take out only the one chosen.
     * A pop costs the number of tied events, not a pop and a push of each. */
    size_t n = 0;
    tie_add(s, &n, 0);
    for (size_t k = 0; k < n; k++)
        for (size_t c = 2 * s->ties[k] + 1; c <= 2 * s->ties[k] + 2 && c < s->len; c++)
            if (s->heap[c].time_us == t) tie_add(s, &n, c);
    /* World events (actor < 0: faults) happen first at their instant, without a decision:
     * a fault pinned at time t then acts exactly where an explored one was injected. */
    size_t world = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        const event *e = &s->heap[s->ties[k]];
        if (e->actor < 0 && (world == SIZE_MAX || e->seq < s->heap[world].seq)) world = s->ties[k];
    }
    if (world != SIZE_MAX) {
        *out = remove_at(s, world);
        return 1;
    }
    s->pops++;
    size_t cand[16], ncand = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = s->ties[k];
        size_t a = (size_t)s->heap[i].actor;
        if (a >= s->capactors) {
            size_t cap = s->capactors ? s->capactors : 16;
            while (cap <= a) cap *= 2;
            s->first_of = xrealloc(s->first_of, cap * sizeof *s->first_of);
            s->stamp = xrealloc(s->stamp, cap * sizeof *s->stamp);
            memset(s->stamp + s->capactors, 0, (cap - s->capactors) * sizeof *s->stamp);
            s->capactors = cap;
        }
        if (s->stamp[a] != s->pops) {
            s->stamp[a] = s->pops;
            s->first_of[a] = i;
        } else if (s->heap[i].seq < s->heap[s->first_of[a]].seq) {
            s->first_of[a] = i;
        }
    }
    /* the actors' earliest events, the 16 first in sequence order (a sorted insertion) */
    for (size_t k = 0; k < n; k++) {
        size_t i = s->ties[k], a = (size_t)s->heap[i].actor;
        if (s->first_of[a] != i) continue;
        uint64_t seq = s->heap[i].seq;
        if (ncand == 16 && seq > s->heap[cand[15]].seq) continue;
        size_t at = ncand < 16 ? ncand++ : 15;
        while (at > 0 && s->heap[cand[at - 1]].seq > seq) {
            cand[at] = cand[at - 1];
            at--;
        }
        cand[at] = i;
    }
    s->last_tie = (int)ncand;
    *out = remove_at(s, cand[chooser_pick(ch, (int64_t)ncand, "simultaneous events")]);
    return 1;
}

int sched_last_tie(const sched *s)
{
    return s->last_tie;
}

int64_t sched_peek_time(const sched *s)
{
    return s->len ? s->heap[0].time_us : INT64_MAX;
}

size_t sched_pending(const sched *s)
{
    return s->len;
}

const event *sched_at(const sched *s, size_t i)
{
    return i < s->len ? &s->heap[i] : NULL;
}
