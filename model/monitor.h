/* monitor.h — the properties in monitor form: each reads a run's history one event at a time,
 * in order, keeping only its own state, and can say at any point whether it has seen its
 * property violated. check_run (check.h) is these monitors fed a whole history; a search
 * that wants a verdict before a run ends, or a state to compare (state caching), feeds them
 * as the history grows. See monitor.c for what each property means and what state it keeps. */
#ifndef LOCKLAB_MONITOR_H
#define LOCKLAB_MONITOR_H

#include "verdict.h"

typedef struct monitor monitor;

/* Monitors for every property the scenario is judged on (fairness and reentrancy only when
 * it expects them), over history h (borrowed: names, and the faults before a violation, are
 * read from it as it grows). */
monitor *monitor_new(const history *h, const scenario *sc);
void monitor_free(monitor *m);

/* Reads the history's next event (h's event number i, which must be the one after the last
 * read). */
void monitor_step(monitor *m, size_t i);
/* Whether property p is already known to be violated by what was read. */
int monitor_violated(const monitor *m, property p);
/* The verdicts after the last event (the run ended there); out is filled as check_run fills it. */
void monitor_finish(monitor *m, check_result *out);

/* no_deadlock's stretches of h: each time somebody waited and no live client held the lock,
 * the event that began it and the one that ended it (or the run's last), with the bound the
 * stretch must not outlast — for the model checker, a comparison of two instants like a
 * ctx:before (model/reduce.c). */
void no_deadlock_stretches(const history *h, const scenario *sc, void (*fn)(void *ud, size_t from, size_t to, int64_t bound),
                           void *ud);

/* The history kinds (bit H_*) whose order across clients the verdicts of the searched
 * properties (searched[p] != 0) depend on: world_opts.observe for the model checker. */
uint64_t properties_observed(const int *searched);

#endif
