/* check.c — check_run: the monitors of monitor.c fed a whole history (the verdicts, and the
 * properties by name: verdict.c). What each property means, and the state its monitor
 * keeps, is told in its file, prop_<name>.c; the table of them is properties.c. */
#include "check.h"

#include "monitor.h"

void check_run(const history *h, const scenario *sc, check_result *out)
{
    history_check(h); /* the judge reads only well-formed histories: kinds, actors, time, payloads */
    monitor *m = monitor_new(h, sc);
    monitor_finish(m, out);
    monitor_free(m);
    /* what a reader of a verdict relies on: a violation has its instant within the run and
     * its evidence; a property that holds or was not judged has neither */
    int64_t end = history_len(h) ? history_at(h, history_len(h) - 1)->t_us : 0;
    for (int p = 0; p < PROP_COUNT; p++) {
        const prop_result *r = &out->p[p];
        LL_ASSERT(r->v == VERDICT_HOLDS || r->v == VERDICT_VIOLATED || r->v == VERDICT_NOT_JUDGED);
        if (r->v == VERDICT_VIOLATED) LL_ASSERT(r->evidence && *r->evidence && r->at_us >= 0 && r->at_us <= end);
        else LL_ASSERT(!r->evidence);
    }
}
