/* exploreint.h — what the model checker's files share (model/explore.c, search.c,
 * level.c, reduce*.c, orders.c, shrink.c, parallel.c, shard*.c, pool*.c); not an API. */
#ifndef LOCKLAB_EXPLOREINT_H
#define LOCKLAB_EXPLOREINT_H

#include <stdint.h>

#include "explore.h"
#include "fault_search.h"
#include "steps.h"
#include "world.h"

/* One path: a whole run from the initial state. */
typedef struct xpath {
    int violated;          /* the first searched property violated, or -1 */
    check_result cr;
    choice *rec;
    size_t nrec;
    fault_cfg *inj;        /* copies; names borrowed from the scenario */
    int ninj;
    uint64_t events;
    uint64_t hash;         /* of the history: distinct outcomes */
    world_decision *decs;  /* per decision (systematic search only) */
    world_step *steps;
    int nsteps;
    world_cmp *cmps;       /* clock comparisons with their margins */
    int ncmps;
} xpath;

/* search.c: one path */
void path_free(xpath *p);
/* Runs sc once under ch (explore: inject the explore table's faults); fills p. shared: what
 * every world of the search shares (borrowed). 0, or -1 with err on a model failure. */
int search_run_path(const scenario *sc, chooser *ch, int explore, const int *searched, const world_opts *shared, xpath *p,
             buf *err);
/* search_run_path's return when shared->stop ended the run midway. */
#define RUN_STOPPED (-2)
int search_is_fault_decision(const choice *c);
/* A path's orders, as a hash: at each key (world_step.key), the sequence of the steps made
 * there, each known by what it is rather than when (its event's kind, its actor, the step
 * that caused it and its place among what that step's handling made, in the order it made
 * them: world_step.made) and, for a step that read a clock,
 * by the whole ms it read (the instant that ms ends); and the sequence of the clients' steps
 * the properties order against each other (the checker's time line). Two paths with the same
 * orders are one run with timestamps moved — what model/reduce.c tries once each. */
uint64_t explore_orders(const xpath *p);
/* A decision of where a fault lands (which fault at an instant, how early in its gap): never
 * bounded by deviations or max_depth. */
int search_is_placement(const world_decision *d);
/* monotonic seconds: progress and time limits only */
double search_now(void);
/* Which properties a search looks for: those the scenario's expect names, else the four
 * safety and liveness ones. */
void search_choose_properties(const scenario *sc, int *searched);

/* A set of 64-bit hashes (distinct outcomes): open addressing, 8 bytes a slot. */
typedef struct hset {
    uint64_t *v;
    size_t cap, n;
} hset;
void hset_add(hset *s, uint64_t h);
int hset_has(const hset *s, uint64_t h);

/* A set of alternatives of one decision: every one (all), or those enabled by bit (below 64)
 * and by value (a window's offsets, sorted). */
typedef struct alts {
    int all;
    uint64_t mask;
    int64_t *v;
    uint32_t n, cap;
} alts;
void alts_clear(alts *a);
void alts_free(alts *a);
void alts_add(alts *a, int64_t u);
int alts_has(const alts *a, int64_t u);
/* The least enabled alternative above u and below n, or -1. */
int64_t alts_next(const alts *a, int64_t u, int64_t n);
/* Adds what src has and dst lacks to dst (and to fresh, if given); returns whether any. */
int alts_union(alts *dst, const alts *src, alts *fresh);
void alts_copy(alts *dst, const alts *src);
/* Arrays of sets: allocated zeroed, freed with their contents. */
alts *alts_array(size_t n);
void alts_array_free(alts *a, size_t n);
/* For the worker pipes: an array of sets as bytes (appended to b), and back. */
void alts_write(buf *b, const alts *a, size_t n);
int alts_read(int fd, alts *a, size_t n, int (*read_full)(int, void *, size_t));

/* reduce.c: which alternatives a path shows to be needed. */
struct reducer_keys;
typedef struct reducer {
    uint8_t *in;       /* cone membership, per step */
    int64_t *acc_us;   /* per step: how much later the windows on its chain can still bring it */
    int64_t *facc_us;  /* per step: the same, of the windows that move it µs for µs (reduce.c) */
    struct reducer_keys *keys; /* per key: the cone's times, sorted */
    int *ufind;        /* reduce_tie_needed's classes of steps */
    int *win;          /* per step: the delay window (a decision's index) that timed it, or -1 */
    int *kid, *sib;    /* per step: the first step it caused, and the next of its cause's */
    uint8_t *fol;      /* per step: in the cone only as a follower's (reduce.c, followers) */
    uint8_t *tmp;      /* per step: another cone */
    uint8_t *skip;     /* per step: left out of order_crossing_later (reduce.c, stayers) */
    int64_t *stay_us;  /* per step: how far the root moves before it does (reduce.c, stayers) */
    int64_t *opp_us;   /* per step: how far the windows decided after the root that move the
                          other way can bring it towards the root's cone at most (reduce.c) */
    int64_t *opp_sure_us; /* ... and surely, at their last values */
    int opp;           /* whether any step has some */
    int drifting, drift_key; /* a drift's root (reduce.c, drift_crossing): the key of its
                          target, whose readings in the moving cone do not change */
    struct later_drift { int key, step; int64_t us; } *ldrift; /* the drifts decided after the
                          root: target, step, how much they can still shift its readings */
    int nldrift, capldrift;
    int64_t *logt;     /* order_crossing_later's cone times as inserted, and their banks */
    int *logb, nlog, caplog;
    int64_t *qm;       /* per step, four: how it moves in whole ms, and from which step's
                          reading (reduce.c, reduce_cone_ms_steps) */
    int *anc, nanc, capanc;     /* per window off its first value: the steps it is anchored to */
    int *anc_at, *followed;     /* per decision: where its anchors start in anc (ANCHOR_*) */
    size_t capdec;
    int cap, nkeys;
    int coarse;        /* a coarse pass: readings to the µs taken at their whole ms (explore.c) */
    int ends;          /* windows at their two ends only (EXPLORE_DELAYS_ENDS) */
    int faults;        /* the scenario's fault budget (explore.max_faults), and ... */
    int split;         /* ... whether the path being read has some left: a step sharing its
                          instant with one before it at a key a fault can hit is then moved a
                          µs apart (a fault lands between two steps only where their instants
                          differ) */
    uint8_t *hit;      /* per actor: a fault of the explore table is tied to it (NULL: the
                          table has one that is not, a partition, a lossy link, a drift, ...) */
    int nhit;
    uint8_t *hitkey;   /* per key of the path being read: a hit actor's */
} reducer;
void reduce_release(reducer *r);
/* Which actors the explore table's faults hit (reducer.hit). */
void reduce_fault_targets(reducer *r, const scenario *sc);
/* The alternatives a new decision starts with (c: its record); 1 when a range too wide to
 * try whole (ctx:random over more than EXPLORE_RANDOM_ALL values) is only sampled. */
int reduce_initial_avail(alts *a, const world_decision *d, const choice *c, int extremes);
/* Reads path p and enables, in avail (one set per decision of p), the alternatives it shows
 * to be needed, anywhere on its stack. observer: the key of the checker's time line. */
void reduce_analyse(reducer *r, const xpath *p, alts *avail, int observer);

/* shrink.c: the minimiser. Takes the found path (a systematic one, or a random one when
 * random is set), fills r's counter-example fields. */
void shrink_found(const scenario *sc, int random, const world_opts *shared, xpath *found, explore_result *r);

/* explore.c, level.c, search.c: the search and how a level ended. */
enum level_end { LEVEL_FOUND, LEVEL_COMPLETE, LEVEL_CUT, LEVEL_STOPPED, LEVEL_ERROR };
typedef struct search {
    const scenario *sc;
    const explore_opts *o;
    explore_result *r;
    world_opts shared;
    hset outcomes;
    reducer red;
    int observer;
    double t0_s, last_progress_s; /* search_now() at its start and at its last progress call */
    int have_found;
    xpath found;
    int pass;               /* a first level's pass with a fault budget below max_faults
                               (explore_run), or 0 */
    int level;              /* the deviation bound of the level being searched; -1 while the
                               random schedules run (explore_run) */
    int coarse;             /* in the level's coarse pass (explore_run) */
    int probe_after;        /* the level after which the random schedules found a violation */
    int read_us;            /* the first default path read a clock to the µs (level_run_root): each
                               level after the first has a coarse pass first (explore_run) */
    explore_opts wopts;     /* a worker's copy of the options (parallel.c) */
} search;

/* The default path of a level and the alternatives enabled along it: the search is split
 * into items, one per (position, alternative) off this path, each the subtree below it. An
 * item's paths may enable alternatives at earlier positions (new items); items are taken
 * deepest position first, lowest alternative first — the order of a depth-first search —
 * so a new item always comes after the one that found it. */
typedef struct rootpath {
    choice *rec;
    world_decision *decs;
    size_t n;
    alts *avail, *done;
    alts *initial;         /* avail right after the default path: the items a shard splits */
} rootpath;
void rootpath_free(rootpath *rp);

/* search.c: the search's stop conditions and its accounting of each path */
int search_should_stop(search *S);
enum level_end search_stopped_in_run(search *S, buf *err);
/* Accounts for one path; 1 when it violates a searched property (kept in S->found). */
int search_account(search *S, xpath *p, int bound);
/* A model failed on a path (its error in err): says which, by its decisions' values. */
void search_note_failing_path(search *S, chooser *ch, buf *err);
/* Runs random schedule k of those run after the first level (--probes); fills p. */
int search_run_probe(search *S, int k, xpath *p, buf *err);

/* level.c: one level in this process */
enum level_end level_run_root(search *S, int bound, rootpath *rp, buf *err);
/* The next item to take (deepest first); 0 when none. Items the bounds forbid, or another
 * shard's, are passed over (a bound's in *cut). */
int level_next_item(search *S, rootpath *rp, int bound, size_t *pos, int64_t *alt, int *cut);
/* Does item (position pa, alternative aa) come before item (pb, ab) in the order
 * level_next_item takes them (deepest position first, lowest alternative first)? */
int level_item_before(uint64_t pa, int64_t aa, uint64_t pb, int64_t ab);
enum level_end level_run_item(search *S, rootpath *rp, int bound, size_t pos, int64_t alt, buf *err);

/* shrink.c: re-runs a path from its decisions (EXPLORE form) into S->found. */
int shrink_refind(search *S, const int64_t *vals, size_t n, buf *err);
/* Replays a found path (EXPLORE form) and minimises it into r's counter-example fields
 * (the totals in r are kept). */
int shrink_path(const scenario *sc, const int64_t *vals, size_t n, int order, explore_result *r, buf *err);

/* parallel.c: the items of a level over --jobs worker processes. Returns how the level
 * ended; a violation found is left in S->found (the one a single job would have found). */
enum level_end parallel_items(search *S, rootpath *rp, int bound, int *cut, buf *err);
/* parallel.c: the search of a level by shard explore_opts.shard_index of shard_count: its
 * share of the subtrees, split below the default path's items (one process). */
enum level_end parallel_shard_level(search *S, int bound, buf *err);
/* pool.c: the same with explore_opts.pool (or pool_balance): shares claimed from a folder the
 * tasks share; the shares this task enabled and ran, as lines of its shard file (pool_write). */
enum level_end pool_level(search *S, int bound, buf *err);
void pool_write(buf *b);
/* shard.c: what the tasks of one search agree on. Its identity (the scenario, N, the build,
 * the scenario file's hash, the options) as lines; its parts, as a shard file writes them:
 * the running executable's hash, the scenario file's, the options that bound the search. */
void shard_identity(const scenario *sc, const explore_opts *o, buf *b);
uint64_t shard_build_id(void);
uint64_t shard_source_hash(const scenario *sc);
void shard_options(const explore_opts *o, buf *b);
/* shard.c: does path a come before path b (EXPLORE form) in the order one search runs them? */
int shard_path_before(const int64_t *a, size_t na, const int64_t *b, size_t nb);

#endif
