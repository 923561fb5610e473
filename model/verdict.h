/* verdict.h — a run's verdicts: each property's result (holds, violated with its instant and
 * its evidence, or not judged), the properties by name, and the scenario's expectation of
 * one. What the monitors (monitor.h) fill and check_run (check.h) returns; a violated
 * property is a result, not an error. */
#ifndef LOCKLAB_VERDICT_H
#define LOCKLAB_VERDICT_H

#include "history.h"
#include "scenario.h"
#include "util.h"

/* property, PROP_*: history.h (the names); model/properties.c (the monitors). */

typedef enum verdict { VERDICT_HOLDS, VERDICT_VIOLATED, VERDICT_NOT_JUDGED } verdict;

typedef struct prop_result {
    verdict v;
    int64_t at_us;     /* the first violation's instant, true time */
    char *evidence;    /* a paragraph; NULL when it holds */
} prop_result;

typedef struct check_result {
    prop_result p[PROP_COUNT];
} check_result;

const char *property_name(property p);
int property_from_name(const char *name); /* -1 if unknown */

/* The scenario's `expect` entry for property p (the last one written), or NULL. */
const expect_cfg *check_expectation(const scenario *sc, property p);
void check_free(check_result *r);

#endif
