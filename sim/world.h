/* world.h — one simulated world: the nodes (fake Redis servers with clocks, persistence,
 * replication and failover), the network between every pair of actors, the client processes
 * running their protocol models as Lua coroutines, and the faults of the scenario — driven
 * by the event queue and the chooser. A run is a pure function of (scenario, chooser).
 *
 * A world is built from a validated scenario, run once to its end, and freed; building one
 * is cheap, so the explorer and sweeps build thousands. */
#ifndef LOCKLAB_WORLD_H
#define LOCKLAB_WORLD_H

#include "chooser.h"
#include "history.h"
#include "scenario.h"

typedef struct world world;
typedef struct world_search world_search;

typedef struct world_opts {
    chooser *chooser;    /* borrowed; NULL: the world makes a RUN chooser from the seed */
    uint64_t seed;       /* used when chooser is NULL */
    int verbose;         /* record every redis.call inside scripts */
    const char *data_dir;/* where lua/ lives; NULL: ll_data_dir() */
    int explore;         /* inject faults from the scenario's explore table, one chooser
                            decision at each new instant (locklab check) */
    const world_search *search; /* exploring: which faults are offered where (the model
                                   checker's policy, model/fault_search.c); NULL: none */
    const struct scriptlib *lib; /* a loaded script index to share (borrowed), or NULL */
    struct chunkcache *chunks;   /* compiled Lua to share between worlds (borrowed), or NULL */
    uint64_t max_events;         /* 0: WORLD_MAX_EVENTS (see world_run) */
    volatile int *stop;          /* set (a signal handler's flag): world_run ends before the
                                    next event with WORLD_STOPPED; NULL: runs to its end */
    int fault_budget;            /* exploring: at most this many faults (a pass of the search
                                    below the table's max_faults); 0: max_faults */
    uint64_t observe;            /* exploring: the history kinds (bit H_*) that make a step one
                                    of the checker's observations, ordered against every other
                                    client's (world_step.client): what the searched properties'
                                    monitors compare across clients (model/properties.c); a
                                    node's change of a key counts only if H_KEY_SET is in it,
                                    a fault only a client's. 0: WORLD_OBSERVE_ALL */
    /* A world driven from outside (locklab serve, world_advance below): */
    void (*server_setup)(void *ud, int node, void *native); /* kind_host.setup of every server */
    void *server_setup_ud;
    int extra_partitions;        /* partitions world_inject may have in force at once */
} world_opts;

/* Every kind any property compares across clients, keys' changes included. */
#define WORLD_OBSERVE_ALL                                                                                       \
    ((1ULL << H_START) | (1ULL << H_ACQUIRE) | (1ULL << H_ACQUIRED) | (1ULL << H_ACQUIRE_FAILED) |             \
     (1ULL << H_RELEASE) | (1ULL << H_RELEASED) | (1ULL << H_CS_ENTER) | (1ULL << H_CS_EXIT) |                 \
     (1ULL << H_WRITE) | (1ULL << H_ERROR) | (1ULL << H_END) | (1ULL << H_LOCK_UNIT) | (1ULL << H_FAULT) |      \
     (1ULL << H_FAULT_END) | (1ULL << H_KEY_SET) | (1ULL << H_KEY_DELETED) | (1ULL << H_KEY_EXPIRED) |         \
     (1ULL << H_KEYSPACE))

/* NULL on error (a protocol or script that cannot be loaded), with a one-line reason. */
world *world_new(const scenario *sc, const world_opts *o, buf *err);
void world_free(world *w);
/* Runs to the end: the scenario's duration, or every client's workload done. Returns 0, or -1
 * when a client model failed (err holds the message and Lua traceback; the history up to the
 * failure stays valid), or WORLD_TOO_LONG when the run passed its budget of scheduler events
 * (world_opts.max_events; err says so in one line): a run's history grows with its events
 * (some 200 bytes each), and a scenario of weeks with many clients would otherwise take
 * gigabytes before it ended. Ten million is about a day of four busy clients. */
int world_run(world *w, buf *err);
#define WORLD_MAX_EVENTS 10000000
#define WORLD_TOO_LONG (-2)
#define WORLD_STOPPED (-3)   /* world_opts.stop was set: the run ended where it was */
const history *world_history(const world *w);
uint64_t world_events(const world *w);   /* events processed */
int64_t world_now(const world *w);       /* true µs */
const scenario *world_scenario(const world *w); /* the scenario it runs (borrowed) */
/* The faults the explorer injected, in order, with their `at` times (borrowed). */
const fault_cfg *world_injected(const world *w, int *n);
/* Exploring: a fault of this kind acts on its target alone when it lands (a crash, restart,
 * pause or clock jump), so it is offered only where its target has an event due, and past the
 * horizon up to its target's first event there (the explorer's coverage line says so). */
int world_fault_tied_to_target(fault_kind k);

/* Exploring: the search's side of injecting faults (model/fault_search.c). At each new instant
 * up to the horizon (WORLD_PHASE_BEFORE), at the horizon itself (WORLD_PHASE_HORIZON) and past
 * it up to each target's first event there (WORLD_PHASE_LATE), the world asks the search
 * which options of its table it offers, records the decision (world_decision) and the fault's
 * step, and applies the fault chosen; which faults, where, of what size and how far back
 * each may have landed are the search's. */
enum { WORLD_PHASE_BEFORE, WORLD_PHASE_HORIZON, WORLD_PHASE_LATE };
struct world_search {
    /* Option i of the scenario's explore table written into *f (names borrowed from sc);
     * returns the number of options (i < 0 or f NULL: only counts them). */
    int (*option)(const scenario *sc, int i, fault_cfg *f);
    /* The options offered now in phase (bit 0: no fault; bit i + 1: option i; all bits when
     * there are 63 or more), and in *valid those that would change anything. */
    uint64_t (*offered)(const world *w, int nopts, int phase, uint64_t *valid);
    /* After a WORLD_PHASE_LATE instant: whether faults remain to offer past the horizon. */
    int (*late_open)(const world *w, int nopts);
    /* A random schedule (not CHOOSER_EXPLORE): the option to inject now (1 + i), or 0. */
    int64_t (*random)(chooser *ch, int nopts);
    /* How much earlier than now (µs) fault f could have landed with the same order of
     * events (world_steps); 0: it does not move. */
    int64_t (*gap)(const world *w, const fault_cfg *f);
};
/* What the search reads of the world at an instant: the key (world_step.key) of the actor a
 * fault hits (WORLD_KEY_ALL: every actor's); whether starting it now changes nothing (a crash
 * of what is down); whether the actor with that key has an event due now (marked before each
 * phase but the horizon's), and whether it has had an instant past the horizon. */
int world_fault_key(const world *w, const fault_cfg *f);
int world_fault_idle(const world *w, const fault_cfg *f);
int world_key_due(const world *w, int key);
int world_key_late_seen(const world *w, int key);

/* What an exploring world records of its run for the search (the steps, the decisions, the
 * clock comparisons, world_steps ...): steps.h. */

/* ---- a world driven from outside, in real time (locklab serve) ----
 * Built from a scenario without clients (nclients 0), it is moved by its driver instead of
 * world_run: world_advance runs every event due up to a true time (replication with its lag,
 * expiry, fsync, the scenario's timed faults, failover) and leaves the world there; requests
 * from outside run on a node's server (world_node_server) at that time, and their effects
 * (key changes, replication, history) are the world's own. */
/* Runs every event at or before `until` (true µs), the scenario's duration ignored, and sets
 * the time to `until` (never backwards). */
void world_advance(world *w, int64_t until);
/* The time of the next event (INT64_MAX: none). */
int64_t world_next_event(const world *w);
/* Injects a fault now, as a scenario's is applied (fault_start: the same history event, the
 * same effect; its `duration`, if any, schedules its end). The fault is copied (its groups
 * are taken; its names must outlive the world). Returns its id (the event's fault_id). */
int world_inject(world *w, const fault_cfg *f);
/* Ends fault `id` now (a partition heals, a lossy link stops losing). */
void world_end_fault(world *w, int id);
/* A node: up, its master (-1: it is a master), its server (the kind's; NULL while down), its
 * clock in µs, its offset on the replication stream (a master's last change sent, a
 * replica's last applied). */
int world_node_up(const world *w, int ni);
int world_node_master(const world *w, int ni);
struct kserver;
struct kserver *world_node_server(world *w, int ni);
int64_t world_node_clock_us(const world *w, int ni);
uint64_t world_node_offset(const world *w, int ni);
/* A request from outside ran on the node's server: its next expiry is scheduled again. */
void world_node_ran(world *w, int ni);
/* An event of the driver's (a request run, a connection), at the current time and the
 * actor's local time, with its fields to fill. */
hist_event *world_record(world *w, hist_kind kind, int actor);
/* Forgets the history so far (the driver wrote it out) and the chooser's record of decisions,
 * so that a world running for days stays within bounded memory. */
void world_forget(world *w);

#endif
