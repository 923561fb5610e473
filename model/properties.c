/* properties.c — the table of properties: each row its monitor (prop_<name>.c), when it is
 * judged, and the server kinds it applies to; the names are the history's vocabulary
 * (history.h: property_names), which a scenario's `expect` and the matrix's `properties` use.
 * A new property is a PROP_* and its name in history.h/history.c, a row here and its file;
 * monitor.c wires every row the same way. */
#include "monitorint.h"

const property_def property_table[PROP_COUNT] = {
    [PROP_MUTUAL_EXCLUSION] = { &mutual_exclusion_monitor, JUDGED_ALWAYS, NULL },
    [PROP_RESOURCE_SAFETY] = { &resource_safety_monitor, JUDGED_ALWAYS, NULL },
    [PROP_RELEASE_SAFETY] = { &release_safety_monitor, JUDGED_ALWAYS, NULL },
    [PROP_NO_DEADLOCK] = { &no_deadlock_monitor, JUDGED_ALWAYS, NULL },
    [PROP_FAIRNESS] = { &fairness_monitor, JUDGED_WHEN_EXPECTED, NULL },
    [PROP_REENTRANCY] = { &reentrancy_monitor, JUDGED_WHEN_EXPECTED, NULL },
};
