/* zsetint.h — what zset.c and the sorted-set commands (t_zset.c) share beyond zset.h: the
 * representation (a dict from member to score, and `v`, the payloads in (score, member)
 * order; zset.c says why and its invariants) and the range queries over it, which ZRANGE's
 * kin, ZCOUNT, ZLEXCOUNT and ZREMRANGEBY* walk. Not for the other command files. */
#ifndef LOCKLAB_REDIS_ZSETINT_H
#define LOCKLAB_REDIS_ZSETINT_H

#include "dict.h"
#include "util.h"

/* zset.h's type; this header includes none of a file above it (zset.c includes it) */
typedef struct zset zset;

struct zset {
    dict *d;    /* member -> double score */
    double **v; /* payloads of d in (score, member) order */
    size_t len, cap;
    int big;
};

/* A score range as Redis parses it: "(" makes a bound exclusive; the rest is strtod over
 * the whole argument (so "", " 5" and "inf" are numbers; "nan" is not). */
typedef struct zrange_score {
    double min, max;
    int minex, maxex;
} zrange_score;

/* A lex bound: "-" and "+" are the extremes, "[x" includes x, "(x" excludes it. */
typedef struct zlex_bound {
    int kind; /* -1 minus infinity, 1 plus infinity, 0 a string */
    int ex;
    slice s;
} zlex_bound;

slice zset_member(const zset *z, const double *p);
int zset_cmp(const zset *z, const double *p, double score, slice member);
/* First index whose (score, member) is >= the given pair. */
size_t zset_lower(const zset *z, double score, slice member);
/* First index whose score is > s (after = 1) or >= s (after = 0). */
size_t zset_score_bound(const zset *z, double s, int after);
void zset_insert_at(zset *z, size_t i, double *p);
void zset_remove_at(zset *z, size_t i);
/* The index of a member known to be present with score *p. */
size_t zset_index_of(const zset *z, const double *p);
/* Removes ranks [from, to). */
void zset_del_range(zset *z, size_t from, size_t to);
int zset_parse_score_bound(slice s, double *v, int *ex);
int zset_parse_score_range(slice min, slice max, zrange_score *r);
/* The ranks [*from, *to) whose scores lie in r. */
void zset_score_span(const zset *z, const zrange_score *r, size_t *from, size_t *to);
int zset_parse_lex_bound(slice a, zlex_bound *b);
/* Redis's sdscmplex of a member against a bound: "-" is below and "+" above everything. */
int zset_lex_cmp(slice m, const zlex_bound *b);
int zset_lex_gte_min(slice m, const zlex_bound *min);
int zset_lex_lte_max(slice m, const zlex_bound *max);
/* Whether no string can lie in [min, max]: min above max, or equal with one end open. Two
 * "-" (or two "+") compare equal, as the one shared object they are in Redis. */
int zset_lex_range_empty(const zlex_bound *min, const zlex_bound *max);
/* The ranks [*from, *to) a BYLEX range replies, `offset` already skipped; the reply walks
 * them backwards when rev. Redis walks a listpack from one end: forwards, from the first
 * member >= min (which must be <= max), past `offset` members, then while members are
 * <= max; backwards symmetrically. Members are in byte order when all scores are equal,
 * which is what BYLEX is for: then this is plain range arithmetic. With unequal scores
 * Redis's reply is "unspecified" but, on a listpack, exactly this walk, so it is imitated
 * for small zsets; a big zset (a skiplist with random levels in Redis, so not reproducible
 * anyway) takes the binary searches, which agree whenever the members are in order. */
void zset_lex_span(const zset *z, const zlex_bound *min, const zlex_bound *max, int rev,
                          long long offset, size_t *from, size_t *to);

#endif
