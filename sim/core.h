/* core.h — what every part of a running world shares: the scenario, the true time, the
 * event queue, the chooser, the history, each actor's clock, and the hook through which a
 * window decision is described to the explorer.
 *
 * The world owns one core and wires the other parts to it: the network (net.c), the nodes
 * (node.c) and the clients (client_run.c) read the time and push their events through it, so
 * none of them calls back into world.c. The world alone knows all of them: it builds them,
 * hands each event to its part (dispatch), and injects the faults.
 *
 * Actors are numbered nodes first, then clients; the history uses the same numbers. */
#ifndef LOCKLAB_CORE_H
#define LOCKLAB_CORE_H

#include "chooser.h"
#include "clock.h"
#include "history.h"
#include "scenario.h"
#include "sched.h"
#include "steps.h"

/* The kinds of the events of the queue (sched.h), which the parts push and the world
 * dispatches; a step records its event's as its own (steps.h's enum step_kind: world_step.ev). */
enum event_kind {
    EV_DELIVER,        /* a message arrives (data: msg) */
    EV_CLIENT_START,   /* a client process starts its workload */
    EV_TIMER,          /* a coroutine's sleep or wait ends (gen: coro << 32 | wait generation) */
    EV_PAUSE_END,      /* a GC pause ends */
    EV_EXPIRE,         /* a node's next key deadline (gen: node expiry generation) */
    EV_FAULT,          /* gen: fault index */
    EV_FAULT_END,
    EV_RESTART,        /* a crashed node restarts by itself (restart_delay) */
    EV_FSYNC,          /* a node's once-a-second fsync (persistence everysec) */
    EV_FAILOVER_CHECK, /* down_after has passed since a master went down (gen: down epoch) */
    EV_ROUTE,          /* clients learn a shard's new master (gen: shard << 32 | node) */
    EV_SPAWN,          /* a coroutine spawned by ctx:spawn starts (gen: coro) */
    EV_WAIT_TIMEOUT    /* a client's WAIT for replicas at a node times out (gen: the wait's id) */
};

struct chunkcache;

/* The scenario's epoch: local clocks read 1700000000000 ms (2023-11-14T22:13:20Z) plus
 * their offset at true time 0, so times look like real Unix milliseconds (history.h). */
#define WORLD_EPOCH_MS HISTORY_EPOCH_MS

/* The kinds of events a part pushes on the queue: steps.h (a step of the explorer's log
 * records its event's). */

/* Describes decision `decision` to the explorer: a window whose alternatives are `unit` µs
 * apart (a range's offsets: 1 for a delay in µs, 1000 for a sleep in ms). */
typedef void (*core_window_fn)(void *ud, size_t decision, int64_t unit, int64_t held);
/* A step of the log (core.step) read a clock for a value; see core_clock_read_at. */
typedef void (*core_mark_fn)(void *ud, int step);
/* The step being handled compared a clock with an instant read at step `origin`; see
 * core_clock_compare. */
typedef void (*core_compare_fn)(void *ud, int origin, int64_t margin_us, int before);

#define CORE_NOT_STALE (-9)

typedef struct core {
    const scenario *sc;
    int64_t now_us;             /* true time */
    sched *q;
    chooser *ch;
    history *hist;
    int verbose;                /* record every call inside scripts */
    int explore;                /* the explorer reads the steps and decisions */
    struct chunkcache *chunks;  /* compiled Lua shared between worlds (borrowed), or NULL */
    int nnodes, nclients, nactors;
    const lclock **clocks;      /* per actor: its clock (each part registers its own) */
    core_window_fn window;      /* installed by the world (window_ud is theirs too) */
    core_mark_fn mark;
    core_compare_fn compare;
    void *window_ud;
    int clock_read;             /* exploring: the step being handled read a clock's value
                                   (CORE_READ_MS: in whole ms; CORE_READ_US: to the µs) */
    int inert;                  /* exploring: the step being handled changed nothing (a pure
                                   request that reported no effect: server_kind.inert) */
    int cut_read;               /* exploring: the step being handled asked whether a pair of
                                   actors that a partition of the scenario separates can talk
                                   (net_partitioned) */
    int stale_by;               /* exploring: the step being handled did nothing because the
                                   wait it would have ended had ended at this step (-1: before
                                   the log began); CORE_NOT_STALE otherwise */
    int step;                   /* exploring: the step being handled (its index), else -1 */
} core;

/* The actor named `name` (a node or a client), or -1. */
int core_actor(const core *cx, const char *name);
/* The actor's local time in ms (-1: the world's, true time). */
int64_t core_local(const core *cx, int actor);

/* A window: a decision that only says *when* something happens (a message's delay, a sleep
 * of random length). Call core_decisions_made before drawing it, then
 * core_window_decision with that count and the µs between two of its values just before
 * pushing the event it times: while exploring, the explorer then branches only on the values
 * where the event or what it causes falls elsewhere among the other events (model/reduce.c). */
size_t core_decisions_made(const core *cx);
/* An actor read its clock for a value its behaviour may depend on (ctx:now(), a TTL in a
 * reply, a deadline set from it): while exploring, the step is marked (world_step.clock),
 * and the search tries a window where it moves such a reading past a whole ms of its clock. */
void core_clock_read(core *cx);
/* The same for a reading to the µs (a server's TIME): it changes with every µs its step
 * moves, so the search tries every value of a window that moves it. */
void core_clock_read_us(core *cx);
#define CORE_READ_MS 1
#define CORE_READ_US 2
/* The step being handled (an index of the explorer's step log), or -1 when not exploring or
 * between steps: what an instant or a deadline records as its origin. */
int core_step(const core *cx);
/* A value read from a clock at an earlier step — a deadline set then — left its holder now
 * (a TTL in a reply): that step counts as having read its clock, as core_clock_read says. */
void core_clock_read_at(core *cx, int step);
/* The step being handled compared the actor's clock with an instant read at step `origin`
 * (ctx:before): its outcome changes only if the two readings move apart by margin_us or
 * more (true µs), in the one direction that can flip it: this reading later or the origin's
 * earlier when it read before the instant (`before`), the other way round when not. The
 * search tries a window's value where it could move them that far that way. */
void core_clock_compare(core *cx, int origin, int64_t margin_us, int before);
void core_window_decision(core *cx, size_t before, int64_t unit);
/* The event that window decision `before` times waits `held` µs more than its value says
 * (a message behind the one before it on its link): it moves only once the value passes
 * that. */
void core_window_held(core *cx, size_t before, int64_t held);

#endif
