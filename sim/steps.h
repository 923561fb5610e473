/* steps.h — the engine's promise to the model checker: what an exploring world records of
 * its run (world_opts.explore) and the search's reductions read (model/reduce*.c,
 * model/level.c): the steps it handled, the chooser's decisions as the world describes
 * them, and the comparisons of a clock with an instant. The record is written by
 * sim/steps.c as the world runs; nothing here lets a reader change the world.
 *
 * A step is the handling of one event of the queue (its kind below) or an injected fault's
 * start. */
#ifndef LOCKLAB_STEPS_H
#define LOCKLAB_STEPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct world world;

/* What a step handled (world_step.ev): the step record's own names for the kinds of the
 * engine's events (core.h's enum event_kind; sim/steps.c maps one to the other), so that the
 * search reads no engine-private header. */
enum step_kind {
    STEP_FAULT = -1,      /* an injected fault's start */
    STEP_DELIVER,         /* a message arrives */
    STEP_CLIENT_START,    /* a client process starts its workload */
    STEP_TIMER,           /* a coroutine's sleep or wait ends: a timer its cause set */
    STEP_PAUSE_END,       /* a GC pause ends */
    STEP_EXPIRE,          /* a node's next key deadline: set by its cause */
    STEP_SCHEDULED_FAULT, /* a fault of the scenario starts */
    STEP_FAULT_END,       /* a fault ends */
    STEP_RESTART,         /* a crashed node restarts by itself */
    STEP_FSYNC,           /* a node's once-a-second fsync */
    STEP_FAILOVER_CHECK,  /* a master's down_after has passed */
    STEP_ROUTE,           /* clients learn a shard's new master */
    STEP_SPAWN,           /* a coroutine spawned by ctx:spawn starts */
    STEP_WAIT_TIMEOUT     /* a client's WAIT for replicas times out */
};

/* What an exploring world (world_opts.explore) tells the explorer about its run, for the
 * search's reductions (model/reduce*.c):
 * - the steps: every event it handled, in order, with the actor it happened at (for a
 *   fault: its target) and the step whose handling scheduled it (its cause: a message's
 *   send, a timer's setting, a fault's start), so the explorer can tell which later steps
 *   move when one message is delivered later;
 * - per chooser decision (by its index in the chooser's record): what kind it is and, for
 *   a message's delay, how much later it could arrive and the step that delivered it; for a
 *   fault decision, its instant and which alternatives the world offered there. */
typedef struct world_step {
    int64_t t_us;    /* when it happened, true time */
    int actor;       /* -1: no actor (a world event without a target) */
    int key;         /* whose state it reads and writes: the actor, except that a master and
                        its replicas are one (replication and failover read across them);
                        WORLD_KEY_ALL: every actor's (clients learning a new master);
                        WORLD_KEY_CUT: a partition's (below); -1 */
    int cause;       /* a step index, -1 (none: the scenario's own schedule), or
                        WORLD_CAUSE_INSTANT (an injected fault: it moves with the step that
                        makes its instant, the next one that is not an injected fault) */
    int client;      /* one of the checker's observations: a client's step that the properties
                        order against other clients' (observed_since in steps.c) */
    int clock;       /* it read a clock for a value: WORLD_READ_MS in whole ms (core_clock_read),
                        WORLD_READ_US to the µs (a server's TIME: core_clock_read_us); 0 */
    int32_t tick_us; /* until its actor's clock reads the next whole ms, and ... */
    int32_t back_us; /* ... since it began reading the current one: a reading in whole ms
                        moved by less reads the same value (0: no clock); one to the µs
                        changes every µs */
    int64_t read_ms, read_us; /* what its actor's clock reads at t, in whole ms and in local
                        µs (model/orders.c's yardstick: the value a reading sees) */
    int ev;          /* what it handled (enum step_kind above) */
    int stale_by;    /* a timer whose wait had ended: the step that ended it (-1: before the
                        log); WORLD_NOT_STALE for every other step */
    int also;        /* a delivery held behind another on its link (FIFO): the step of the
                        window it moves with too, or -1 */
    int inert;       /* a node's step that changed nothing (server_kind.inert): two such steps
                        commute */
    int cut;         /* it asked whether two actors that a partition of the scenario separates
                        can talk (net_partitioned): ordered against a partition's start and end
                        (WORLD_KEY_CUT) */
    int qactor;      /* the event's actor in the queue (sched.h: simultaneous events are offered
                        by it), and ... */
    uint64_t seq;    /* ... its sequence number there */
    uint64_t made;   /* the sequence number of the first event its handling pushed (those it
                        pushed are numbered from it in the order it made them) */
} world_step;
#define WORLD_READ_MS 1
#define WORLD_READ_US 2
#define WORLD_NOT_STALE (-9)
#define WORLD_CAUSE_INSTANT (-2)
#define WORLD_KEY_ALL (-3)
/* the key of a partition's start and end (where no node has a replica to fail over): what
 * changes is only what net_partitioned answers, so they are ordered against the steps that
 * asked it about a pair a partition separates (world_step.cut), not against every step */
#define WORLD_KEY_CUT (-4)

/* OTHER: any alternative may matter (a pick, a loss, a ctx:random value); DELAY: a window
 * that only says when its step happens, alternative i i*unit_us later than the first (a
 * message's delay, a sleep of random length); SHIFT: how much earlier (alternative i: i µs)
 * an injected fault landed than the instant it is applied at; DRIFT: the same of a drift,
 * whose target's clock then reads rate µs more a µs earlier it began; FAULT: which fault, if
 * any, lands at an instant. */
typedef enum world_dec_kind { WDEC_OTHER, WDEC_DELAY, WDEC_FAULT, WDEC_SHIFT, WDEC_DRIFT } world_dec_kind;
typedef struct world_decision {
    world_dec_kind kind;
    int step;         /* DELAY: the delivering step; FAULT, SHIFT, DRIFT: the injected fault's step; or -1 */
    int64_t unit_us;  /* DELAY, SHIFT, DRIFT: per alternative */
    int64_t held_us;  /* DELAY: how much its value can grow before its event moves (FIFO behind another) */
    int64_t t_us;     /* FAULT, SHIFT, DRIFT: its instant, true time */
    uint64_t offered; /* FAULT: alternatives offered (bit i: alternative i; bit 0 is "none") */
    uint64_t valid;   /* FAULT: alternatives that would change something (offered or not) */
    int target;       /* FAULT, DRIFT: the key (see world_step) of the actor the chosen fault hit */
    double rate;      /* DRIFT: the drift's rate (0.1: its clock 10% fast) */
    int tie;          /* OTHER: which of `tie` simultaneous events goes first (sched_pop), the
                         chosen one handled at `step`, at instant `t_us` */
} world_decision;
const world_step *world_steps(const world *w, int *n);
/* A comparison of a clock with an instant (core_clock_compare): at `step`, against the reading
 * made at `origin` (-1: an instant read outside the log), with `margin_us` (true time) to spare. */
typedef struct world_cmp {
    int step, origin;
    int64_t margin_us;
    int before;       /* it read before the instant (a stretch: shorter than its bound): only
                         `step` later or `origin` earlier can flip it; 0: only the reverse */
    int true_time;    /* of two true instants (a property's bound), not of clock readings in
                         whole ms: it flips at its margin, whatever the clocks read */
} world_cmp;
const world_cmp *world_comparisons(const world *w, int *n);
/* Exploring: per history event (*n of them so far), the step that made it, or -1 (an event
 * made outside a step, or after the last). */
const int *world_history_steps(const world *w, size_t *n);
/* *n is the chooser's record length; a decision the world did not describe is OTHER. */
const world_decision *world_decisions(world *w, size_t *n);

#endif
