/* explore.h — the model checker: a systematic search over the chooser's decisions (message
 * delays, simultaneous events, losses, jitter, and where each budgeted fault lands) for a
 * run that violates a property, and the minimisation of what it finds.
 *
 * Search: stateless depth-first. A path is one complete run from the initial state whose
 * decisions follow a prefix and then take their first alternative (their default); the next
 * path changes the deepest decision that still has an alternative to try. Every placement of
 * at most max_faults faults within the horizon is searched whatever else is bounded; the
 * other decisions are bounded by deviations from their default (max_deviations, else
 * iterative deepening until the space is exhausted or the time limit). Reductions
 * (reduce.c): a window (a delay, a random sleep, a fault's instant in its gap) is tried at
 * each value where the order of the steps it depends on, a whole-ms clock reading or a
 * ctx:before margin changes — one value per order, interior ones included; a fault is offered
 * only before an event of its target; unique values are not decisions. No states are merged
 * (see the README). Random mode runs N schedules drawn from seeds instead. */
#ifndef LOCKLAB_EXPLORE_H
#define LOCKLAB_EXPLORE_H

#include <stdint.h>

#include "check.h"
#include "chooser.h"
#include "scenario.h"

typedef struct explore_opts {
    uint64_t random_runs;   /* 0: exhaustive search; N: N random schedules */
    uint64_t seed;          /* random mode */
    uint64_t max_paths;     /* stop after this many paths (0: no limit) */
    int max_deviations;     /* -1: the scenario's explore.max_deviations, else iterative
                               deepening 0, 1, 2, ...; k >= 0: exactly this bound */
    double time_limit_s;    /* 0: none. Iterative deepening stops there, naming the
                               largest bound it exhausted */
    int delays_extremes;    /* EXPLORE_DELAYS_*: every window by its orders (0), and its last
                               value too (1), or at its two ends only (2) */
    volatile int *stop;     /* set (by a signal handler) to stop early with the totals so far */
    int jobs;               /* worker processes (<= 1: search in this process) */
    int shard_index, shard_count; /* search only shard I of N (1-based; 0: all) */
    const char *pool;       /* with a shard: the N tasks take shares from this folder, which
                               they share (model/pool.c), instead of a fixed share each */
    int pool_balance;       /* N > 0: search in this process, handing the shares out as N
                               tasks of a pool would (explore_pool_balance) */
    uint64_t probes;        /* random schedules run after the first level (EXPLORE_PROBES is
                               the command's default; 0: none) */
    /* Called about every 250 ms of search with the running totals (progress display). */
    void (*progress)(void *ud, uint64_t paths, uint64_t transitions, int deviations, double seconds);
    void *progress_ud;
    /* Called with each path of a systematic search in this process (tests/orders.c): its orders
     * (explore_orders) and whether it violated a searched property. */
    void (*path_seen)(void *ud, uint64_t orders, int violated);
    void *path_seen_ud;
} explore_opts;

/* The widest ctx:random range whose every value is tried; a wider one is sampled at this
 * many evenly spaced values (explore_result.abstracted says so). */
#define EXPLORE_RANDOM_ALL 4096

/* Random schedules run once the first level of the systematic search is done (explore_run,
 * explore_opts.probes; this many by default in `locklab check`): a violation that many random
 * schedules show is found before the search reaches the deviations it needs, while one that
 * the default schedule shows is still found first, with its few deviations. */
#define EXPLORE_PROBES 128

/* explore_opts.delays_extremes. ENDS is the abstraction of a model checker with discrete
 * time, SPIN's in make bench: each window (a message's delay, a random sleep) at its first
 * and last value only, and each injected fault at the instant of an event (no shift back
 * over the gap before it); no order between them is searched, so it proves nothing of them
 * (explore_result.abstracted: EXPLORE_SAMPLED_ENDS). */
#define EXPLORE_DELAYS_ORDERS 0
#define EXPLORE_DELAYS_EXTREMES 1
#define EXPLORE_DELAYS_ENDS 2

/* explore_result.abstracted */
#define EXPLORE_SAMPLED_RANDOM 1  /* a ctx:random range too wide: evenly spaced values tried */
#define EXPLORE_SAMPLED_ENDS 4    /* windows at their two ends only (EXPLORE_DELAYS_ENDS) */

typedef struct explore_result {
    int found;                 /* a violation of a searched property */
    property prop;             /* ... of this one */
    char *evidence;            /* its evidence, from the minimised run */
    fault_cfg *faults;         /* the minimised counter-example's faults (at pinned) */
    int nfaults;
    int64_t duration_us;       /* the minimised run's duration (the scenario's, or shorter) */
    choice *choices;           /* its decisions (REPLAY form: what the simulation got) */
    size_t nchoices;
    uint64_t paths, transitions, outcomes; /* outcomes: distinct final histories */
    uint64_t probes;           /* random schedules run after the first level (not in paths;
                                  their transitions and outcomes are counted) */
    int probe_found;           /* the violation is that of random schedule probe_found - 1 of
                                  them (0: the systematic search found it) */
    int max_depth_seen;
    int complete;              /* the whole bounded space was searched */
    int deviations_exhausted;  /* the largest deviation bound searched completely (-1: none);
                                  with complete, the search needed no bound at all */
    int deviation_bound;       /* the bound in force when the search stopped (-1: none) */
    int depth_cut;             /* explore.max_depth kept some decision from branching */
    int timed_out, interrupted;
    int abstracted;            /* what the search did not try whole (EXPLORE_SAMPLED_*): then
                                  "no violation" is not a proof */
    /* For shards and their merge: the violation's path before minimising (EXPLORE form:
     * alternative indices) and the level it was found at; the distinct outcomes' hashes. */
    int64_t *found_path;
    size_t nfound_path;
    int bound_by_option;       /* the deviation bound was --max-deviations (explore_opts), not
                                  the table's explore.max_deviations (the summary names it) */
    int found_level;           /* where the search met it (explore.c, found_order: shards
                                  merged keep the first); odd: one of the random schedules, the
                                  path its index */
    uint64_t *hashes;
    size_t nhashes;
    int memory_stop;           /* stopped because the visited set reached its memory cap */
    int minimise_stopped;      /* a stop request ended the minimising: the counter-example is
                                  the smallest found by then (explore_minimise_hook) */
    int searched[PROP_COUNT];  /* which properties were searched */
    int witnessed[PROP_COUNT]; /* ... and which were violated on some path */
    double seconds;
} explore_result;

/* Searches sc (which must have an explore table). 0 when the search ran (found or not), -1
 * with a one-line reason in err when it could not (a model error, a bad table). */
int explore_run(const scenario *sc, const explore_opts *o, explore_result *r, buf *err);
/* The minimiser and the command that runs it (locklab check), process-wide: `minimising` is
 * called once when a violation starts being minimised, and *stop (a SIGINT/SIGTERM handler's
 * flag) ends the minimising between two runs, keeping the smallest counter-example found by
 * then (explore_result.minimise_stopped). All NULL: neither (the default). */
void explore_minimise_hook(void (*minimising)(void *ud), void *ud, volatile int *stop);
void explore_result_free(explore_result *r);

/* After a search with explore_opts.pool_balance N: each simulated task's paths (load[N]) and
 * when the last share ended (in paths); returns N, or 0 when there was none. */
int explore_pool_balance(const uint64_t **load, uint64_t *makespan);
/* Shards (explore_opts.shard_index/shard_count; shard_file.c): each writes what it found to a
 * file, and shard_file_merge combines the files of every shard of a search into the answer
 * one search would have given, minimising the violation (if any) as explore_run does. */
int shard_file_write(const scenario *sc, const explore_opts *o, const explore_result *r, const char *path, buf *err);
/* shard_file_merge: 0; -1 (err names the file) when a file is not a shard of this search
 * (another scenario or version of its file, another build of locklab, other options, another
 * N, an index twice); -2 when every file is but some shard is missing (err names it): not
 * finished. */
int shard_file_merge(const scenario *sc, const char *const *files, int nfiles, explore_result *r, buf *err);

/* The scenario a counter-example replays: sc with the search's faults f written in at their
 * instants (a partition's groups built) and no explore table. Free with explore_unpin. */
scenario *explore_pin(const scenario *sc, const fault_cfg *f, int nf);
void explore_unpin(scenario *pinned);

#endif
