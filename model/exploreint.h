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
} xpath;

void path_free(xpath *p);
/* Runs sc once under ch (explore: inject the explore table's faults); fills p. shared: what
 * every world of the search shares (borrowed). 0, or -1 with err on a model failure. */
int run_path(const scenario *sc, chooser *ch, int explore, const int *searched, const world_opts *shared, xpath *p,
             buf *err);
int is_fault_decision(const choice *c);
double explore_now(void); /* monotonic seconds: progress and time limits only */

/* A set of 64-bit hashes (distinct outcomes): open addressing, 8 bytes a slot. */
typedef struct hset {
    uint64_t *v;
    size_t cap, n;
} hset;
void hset_add(hset *s, uint64_t h);

/* reduce.c: which alternatives a path shows to be needed. */
typedef struct reducer {
    uint8_t *in;       /* cone membership, per step */
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

#endif
