/* sched.h — the event queue of a simulated world: a binary heap ordered by (true time in µs,
 * sequence number), so events at the same time fire first-in first-out (libuv's timer
 * order). Which of several *simultaneous* events runs first is a decision of the chooser:
 * sched_pop offers the earliest pending event of each distinct actor among the events due
 * at the earliest time, so per-actor (and so per-link) order is never broken. World events
 * (actor < 0, such as faults) come first at their instant, without a decision. A pop among
 * k simultaneous events walks them in the heap (they form a subtree at its root) and takes
 * out only the one chosen: O(k + log n), not k pops and pushes.
 *
 * Events carry a kind, a target actor, a generation (for cheap invalidation: an event whose
 * generation no longer matches its target's is ignored by the engine) and an owned payload. */
#ifndef LOCKLAB_SCHED_H
#define LOCKLAB_SCHED_H

#include <stdint.h>

#include "chooser.h"

typedef struct event {
    int64_t time_us; /* true time */
    uint64_t seq;
    int kind;
    int actor;
    uint64_t gen;
    void *data;     /* owned by the event until popped */
    int cause;      /* the explorer's step log: the step whose handling pushed it (-1: none) */
    int dec;        /* the chooser decision that timed it (a message's delay), or -1 */
} event;

typedef struct sched sched;

sched *sched_new(void);
/* Frees pending events, calling release on each payload that is not NULL. */
void sched_free(sched *s, void (*release)(event *e));
void sched_clear(sched *s, void (*release)(event *e));
void sched_push(sched *s, int64_t time, int kind, int actor, uint64_t gen, void *data);
/* The same for an event pushed, as it were, when the queue's next sequence number was seq (a
 * value sched_next_seq returned): among events due at its instant it comes after those pushed
 * before then and before those pushed since (an explored fault's end, pushed as it would have
 * been where the fault landed: sim/world.c). */
void sched_push_since(sched *s, uint64_t seq, int64_t time, int kind, int actor, uint64_t gen, void *data);
/* Causality for the explorer's reductions: every event pushed from now on records `cause`
 * (the step being handled); the next push alone also records `dec` (the decision that
 * timed it). Both default to -1. */
void sched_set_cause(sched *s, int cause);
/* The same as sched_push, for an event whose instant another step decided (a key's expiry
 * at the deadline some earlier command set): it records that step as its cause. */
void sched_push_caused(sched *s, int cause, int64_t time, int kind, int actor, uint64_t gen, void *data);
void sched_tag_next(sched *s, int dec);
/* Pops the next event into *out; 0 when the queue is empty. The chooser may be NULL (plain
 * FIFO among simultaneous events). */
int sched_pop(sched *s, chooser *ch, event *out);
/* How many simultaneous events the last sched_pop offered the chooser (the earliest of each
 * actor, in sequence order: the alternatives of its decision); 0 when it made no decision. */
int sched_last_tie(const sched *s);
int64_t sched_peek_time(const sched *s); /* INT64_MAX when empty */
/* The sequence number the next push gets (the events pushed while one step is handled are
 * numbered from it, two apart, in the order its handling made them). */
uint64_t sched_next_seq(const sched *s);
size_t sched_pending(const sched *s);
/* Iterates pending events in no particular order (fingerprints); it starts at 0. */
const event *sched_at(const sched *s, size_t i);

#endif
