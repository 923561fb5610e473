/* sched.c — see sched.h. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

struct sched {
    event *heap;
    size_t len, cap;
    uint64_t seq;
    int cause, next_dec;
};

static int before(const event *a, const event *b)
{
    return a->time != b->time ? a->time < b->time : a->seq < b->seq;
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
    s->seq = 0;
}

void sched_free(sched *s, void (*release)(event *e))
{
    if (!s) return;
    sched_clear(s, release);
    free(s->heap);
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

void sched_push(sched *s, int64_t time, int kind, int actor, uint64_t gen, void *data)
{
    push_event(s, (event){ time, s->seq++, kind, actor, gen, data, s->cause, s->next_dec });
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

int sched_pop(sched *s, chooser *ch, event *out)
{
    if (!s->len) return 0;
    event first = pop_min(s);
    if (!ch || !s->len || s->heap[0].time != first.time) {
        *out = first;
        return 1;
    }
    /* Several events are due at the same instant: gather them (in seq order), offer the
     * first of each actor, and push the rest back with their original sequence numbers. */
    event small[16];
    event *tie = small;
    size_t n = 0, cap = 16;
    tie[n++] = first;
    while (s->len && s->heap[0].time == first.time) {
        if (n == cap) {
            cap *= 2;
            event *bigger = xmalloc(cap * sizeof *bigger);
            memcpy(bigger, tie, n * sizeof *tie);
            if (tie != small) free(tie);
            tie = bigger;
        }
        tie[n++] = pop_min(s);
    }
    /* World events (actor < 0: faults) happen first at their instant, without a decision:
     * a fault pinned at time t then acts exactly where an explored one was injected. */
    for (size_t i = 0; i < n; i++) {
        if (tie[i].actor >= 0) continue;
        *out = tie[i];
        for (size_t j = 0; j < n; j++)
            if (j != i) push_event(s, tie[j]);
        if (tie != small) free(tie);
        return 1;
    }
    size_t cand[16] = { 0 }, ncand = 0;
    for (size_t i = 0; i < n && ncand < 16; i++) {
        int seen = 0;
        for (size_t j = 0; j < ncand; j++)
            if (tie[cand[j]].actor == tie[i].actor) seen = 1;
        if (!seen) cand[ncand++] = i;
    }
    size_t pick = cand[chooser_pick(ch, (int64_t)ncand, "simultaneous events")];
    *out = tie[pick];
    for (size_t i = 0; i < n; i++)
        if (i != pick) push_event(s, tie[i]);
    if (tie != small) free(tie);
    return 1;
}

int64_t sched_peek_time(const sched *s)
{
    return s->len ? s->heap[0].time : INT64_MAX;
}

size_t sched_pending(const sched *s)
{
    return s->len;
}

const event *sched_at(const sched *s, size_t i)
{
    return i < s->len ? &s->heap[i] : NULL;
}
