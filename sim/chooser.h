/* chooser.h — every nondeterministic decision of a run goes through here.
 *
 * A run is a pure function of (scenario, seed, choice list). In RUN mode the chooser draws
 * from a seeded PRNG (xoshiro256**) and records every decision; in REPLAY mode it returns
 * the recorded decisions in order (and falls back to the PRNG if the list runs out, saying
 * so through chooser_exhausted); in EXPLORE mode the model checker feeds a prefix of
 * decisions and every further decision takes its first alternative, while the chooser
 * records how many alternatives each point had, so the explorer can enumerate siblings.
 *
 * Each decision is recorded as (value, number of alternatives). Ranges are decisions too:
 * in RUN mode a range draws uniformly; in EXPLORE mode every value of the range is an
 * alternative, numbered by its offset from the range's low end (the default, offset 0): the
 * explorer decides which offsets a path needs (model/reduce.c). */
#ifndef LOCKLAB_CHOOSER_H
#define LOCKLAB_CHOOSER_H

#include <stdint.h>

#include "util.h"

typedef enum chooser_mode { CHOOSER_RUN, CHOOSER_REPLAY, CHOOSER_EXPLORE } chooser_mode;

typedef struct choice {
    int64_t value;     /* the index chosen, or the value drawn from a range (EXPLORE: its
                          offset from the range's low end) */
    int64_t n;         /* alternatives at this point (RUN ranges: hi - lo + 1) */
    uint8_t kind;      /* 0 pick, 1 range */
    const char *what;  /* static label, for traces and choice files */
    int64_t real;      /* what the simulation got: the index, or the value (in EXPLORE mode
                          a range's alternative 1 is its upper end): a choice file holds
                          these, so an explored path replays in REPLAY mode */
} choice;

typedef struct chooser chooser;

chooser *chooser_new(chooser_mode mode, uint64_t seed);
void chooser_free(chooser *c);
/* Starts a new run with the same mode and seed: clears the record, rewinds the PRNG. */
void chooser_reset(chooser *c);
/* REPLAY / EXPLORE: the decisions to follow (copied). */
void chooser_set_script(chooser *c, const choice *v, size_t n);

/* An index in [0, n). n == 1 is not a decision and is not recorded. */
int64_t chooser_pick(chooser *c, int64_t n, const char *what);
/* A value in [lo, hi]. lo == hi is not recorded. */
int64_t chooser_range(chooser *c, int64_t lo, int64_t hi, const char *what);
/* True with probability p (0 and 1 are not decisions). */
int chooser_chance(chooser *c, double p, const char *what);
/* An exponential draw with the given mean, capped at 50 means (RUN); EXPLORE offers the
 * whole window [0, 50 means] as a range. */
int64_t chooser_exponential(chooser *c, int64_t mean, const char *what);

/* A value that only needs to be unique (a lock value, a request id): drawn uniformly in
 * [lo, hi] from a stream of its own, the same for every seed and mode. It is not a decision:
 * never recorded, never branched on, so a choice list replays exactly under any seed and
 * every path of a search sees the same values. */
int64_t chooser_unique(chooser *c, int64_t lo, int64_t hi);

const choice *chooser_record(const chooser *c, size_t *n);
/* RUN: forgets the decisions recorded so far, the PRNG going on where it is (a world that
 * runs for days, as locklab serve's, and never replays them). */
void chooser_forget(chooser *c);
int chooser_exhausted(const chooser *c); /* REPLAY ran past its list */
chooser_mode chooser_mode_of(const chooser *c);

/* Choice files: one decision a line, "value/n what". */
void chooser_write(const chooser *c, buf *out);
/* The same lines for any list of decisions (their `real` values). */
void chooser_write_list(const choice *v, size_t n, buf *out);
int chooser_parse(const char *text, choice **v, size_t *n, buf *err);
/* Where each parsed decision stands: its line, and its label (pointing into text, len
 * bytes, 0 when there is none), so that a replay can be checked against the file. */
typedef struct choice_where {
    int line;
    const char *label;
    size_t len;
} choice_where;
/* chooser_parse, also filling *where (n entries, freed by the caller). */
int chooser_parse_where(const char *text, choice **v, choice_where **where, size_t *n, buf *err);

/* A small PRNG for tools outside the simulation (sweeps pick seeds with it). */
uint64_t ll_splitmix64(uint64_t *state);

#endif
