/* check.h — the properties that judge a run, computed from its history (the verdicts'
 * types: verdict.h). A violated property is a result, not an error: each verdict carries its
 * evidence (who, when in true time and in each actor's local time, and the faults in force),
 * written so that a student can read *why* in one paragraph. */
#ifndef LOCKLAB_CHECK_H
#define LOCKLAB_CHECK_H

#include "verdict.h"

/* Judges every property of the history; free with check_free. */
void check_run(const history *h, const scenario *sc, check_result *out);

#endif
