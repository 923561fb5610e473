/* scenario_vary.h — one named parameter of a loaded scenario, set to a value (locklab sweep).
 *
 * A sweep runs the same scenario for many values of one parameter. The parameter is named
 * as a user would think of it ("gc_pause", "drift", "per_node.C.restart_delay",
 * "faults[2].duration"), resolved once against the scenario — a name the scenario does not
 * have is an error, so a sweep never varies something that changes nothing — and then set
 * on the loaded struct for each value; the file is never edited. Setting re-checks the few
 * invariants the loader guarantees for that field (a lease > 0, a rate within −0.5..1, every
 * actor a fault names still existing when the node count shrinks).
 *
 * Values are doubles: durations in µs (exact up to 2^53 µs), rates as they are, counts as
 * whole numbers. */
#ifndef LOCKLAB_SCENARIO_VARY_H
#define LOCKLAB_SCENARIO_VARY_H

#include "scenario.h"
#include "util.h"

typedef enum vary_unit {
    VARY_DURATION,        /* µs ≥ 0 */
    VARY_SIGNED_DURATION, /* µs, either sign (clock jumps) */
    VARY_RATE,            /* a plain number (clock drift rate) */
    VARY_COUNT            /* a whole number ≥ 1 (masters) */
} vary_unit;

typedef struct vary_target {
    char name[80];        /* as the user wrote it */
    int kind;             /* which field (private to scenario_vary.c) */
    int index;            /* the fault or node it addresses, -1 for all */
    vary_unit unit;
} vary_target;

/* The parameter names vary_resolve knows, one per line with what each sets (for --help). */
extern const char vary_help[];

/* Resolves name against sc. 0, or -1 with a one-line reason in err that names the problem
 * and what to do ("the scenario has no gc_pause fault; ..."). */
int vary_resolve(const scenario *sc, const char *name, vary_target *t, buf *err);

/* Parses one value written as the scenario format writes that unit ("10s", "250ms", "0",
 * "-20s", "0.005", "5"). 0, or -1 with a reason in err. */
int vary_parse_value(const vary_target *t, const char *text, double *out, buf *err);

/* Parses "FROM:TO:STEP" into the values from, from+step, ... ≤ to (computed as from + i*step,
 * so no error accumulates). At most max_points values. 0 with *values (caller frees) and *n
 * set, or -1 with a reason in err (FROM > TO, STEP ≤ 0, too many points, a bad value). */
int vary_parse_range(const vary_target *t, const char *range, int max_points, double **values, int *n, buf *err);

/* Sets t to value on sc. base is the scenario as loaded (not modified; the node count is
 * rebuilt from it). 0, or -1 with a reason in err when the value is impossible for sc. */
int vary_apply(scenario *sc, const scenario *base, const vary_target *t, double value, buf *err);

/* The scenario's own value of t (for the "scenario" marker of a plot); NAN when it has none
 * (no restart delay) or t addresses several fields that differ (every node's drift). */
double vary_get(const scenario *sc, const vary_target *t);

/* The value as the scenario format writes it: "12s", "250ms", "1.5s", "0.005", "3". */
void vary_format(const vary_target *t, double value, buf *out);

#endif
