/* exploreint.h — what the model checker's files share (model/explore.c, reduce.c,
 * shrink.c, parallel.c); not an API. */
#ifndef LOCKLAB_EXPLOREINT_H
#define LOCKLAB_EXPLOREINT_H

#include <stdint.h>

#include "explore.h"
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

void path_free(xpath *p);
/* Runs sc once under ch (explore: inject the explore table's faults); fills p. shared: what
 * every world of the search shares (borrowed). 0, or -1 with err on a model failure. */
int run_path(const scenario *sc, chooser *ch, int explore, const int *searched, const world_opts *shared, xpath *p,
             buf *err);
int is_fault_decision(const choice *c);
double explore_now(void);
/* Which properties a search looks for: those the scenario's expect names, else the four
 * safety and liveness ones. */
void choose_searched(const scenario *sc, int *searched); /* monotonic seconds: progress and time limits only */

/* A set of 64-bit hashes (distinct outcomes): open addressing, 8 bytes a slot. */
typedef struct hset {
    uint64_t *v;
    size_t cap, n;
} hset;
void hset_add(hset *s, uint64_t h);

/* reduce.c: which alternatives a path shows to be needed. */
typedef struct reducer {
    uint8_t *in;       /* cone membership, per step */
    int64_t *acc;      /* per step: how much later it can come, every window before it on its
                          chain of causes at its late end */
    int64_t *last;     /* per key: the last time seen */
    int cap, nkeys;
} reducer;
void reducer_release(reducer *r);
int alt_enabled(uint64_t avail, int64_t u);
uint64_t initial_avail(const world_decision *d, int extremes);
/* Reads path p and enables, in avail (one mask per decision of p), the alternatives it
 * shows to be needed, anywhere on its stack. observer: the key of the checker's time line. */
void reduce_analyse(reducer *r, const xpath *p, uint64_t *avail, int observer, explore_result *res);

/* shrink.c: the minimiser. Takes the found path (a systematic one, or a random one when
 * random is set), fills r's counter-example fields. */
void shrink_found(const scenario *sc, int random, const world_opts *shared, xpath *found, explore_result *r);

/* explore.c: the search of one level. */
enum level_end { LEVEL_FOUND, LEVEL_COMPLETE, LEVEL_CUT, LEVEL_STOPPED, LEVEL_ERROR };
typedef struct search {
    const scenario *sc;
    const explore_opts *o;
    explore_result *r;
    world_opts shared;
    hset outcomes;
    reducer red;
    int observer;
    double t0, last_progress;
    int have_found;
    xpath found;
    int level;              /* the deviation bound of the level being searched */
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
    uint64_t *avail, *done;
    uint64_t *initial;     /* avail right after the default path: the items a shard splits */
} rootpath;
void rootpath_free(rootpath *rp);
int should_stop(search *S);
/* Accounts for one path; 1 when it violates a searched property (kept in S->found). */
int account(search *S, xpath *p, int bound);
enum level_end run_root(search *S, int bound, rootpath *rp, buf *err);
/* The next item to take (deepest first); 0 when none. Items the bounds forbid, or another
 * shard's, are passed over (a bound's in *cut). */
int next_item(search *S, rootpath *rp, int bound, size_t *pos, int64_t *alt, int *cut);
enum level_end run_item(search *S, rootpath *rp, int bound, size_t pos, int64_t alt, buf *err);

/* Re-runs a path from its decisions (EXPLORE form) into S->found. */
int explore_refind(search *S, const int64_t *vals, size_t n, buf *err);
/* Replays a found path (EXPLORE form) and minimises it into r's counter-example fields
 * (the totals in r are kept). */
int explore_shrink_path(const scenario *sc, const int64_t *vals, size_t n, explore_result *r, buf *err);

/* parallel.c: the items of a level over --jobs worker processes. Returns how the level
 * ended; a violation found is left in S->found (the one a single job would have found). */
enum level_end parallel_items(search *S, rootpath *rp, int bound, int *cut, buf *err);

#endif
