/* check.h — the properties that judge a run, computed from its history. A violated property
 * is a result, not an error: each verdict carries its evidence (who, when in true time and
 * in each actor's local time, and the faults in force), written so that a student can read
 * *why* in one paragraph. */
#ifndef LOCKLAB_CHECK_H
#define LOCKLAB_CHECK_H

#include "history.h"
#include "scenario.h"
#include "util.h"

/* property, PROP_*: history.h (the names); model/properties.c (the monitors). */

typedef enum verdict { VERDICT_HOLDS, VERDICT_VIOLATED, VERDICT_NOT_JUDGED } verdict;

typedef struct prop_result {
    verdict v;
    int64_t at;        /* true µs of the first violation */
    char *evidence;    /* a paragraph; NULL when it holds */
} prop_result;

typedef struct check_result {
    prop_result p[PROP_COUNT];
} check_result;

const char *property_name(property p);
int property_from_name(const char *name); /* -1 if unknown */

/* The scenario's `expect` entry for property p (the last one written), or NULL. */
const expect_cfg *check_expectation(const scenario *sc, property p);

/* Judges every property of the history; free with check_free. */
void check_run(const history *h, const scenario *sc, check_result *out);
void check_free(check_result *r);

#endif
