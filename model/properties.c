/* properties.c — the table of properties: each row its monitor (prop_<name>.c), when it is
 * judged, and the server kinds it applies to; the names are the history's vocabulary
 * (history.h: property_names), which a scenario's `expect` and the matrix's `properties` use.
 * A new property is a PROP_* and its name in history.h/history.c, a row here and its file;
 * monitor.c wires every row the same way. */
#include "monitorint.h"
#include "world.h"

#define K(x) (1ULL << H_##x)

/* observes: what each monitor's verdict compares across clients, read off its step function.
 * mutual_exclusion: the critical sections' ends (a client's crash ends one); resource_safety:
 * acquisitions against the writes the resource accepted; no_deadlock: attempts, holds and the
 * ends of clients (its stretches are bounded in true time apart: world_cmp.true_time). Release
 * safety, fairness and reentrancy take everything a client does about its lock, and the keys. */
const property_def property_table[PROP_COUNT] = {
    [PROP_MUTUAL_EXCLUSION] = { &mutual_exclusion_monitor, JUDGED_ALWAYS, NULL,
                                K(CS_ENTER) | K(CS_EXIT) | K(FAULT) },
    [PROP_RESOURCE_SAFETY] = { &resource_safety_monitor, JUDGED_ALWAYS, NULL, K(ACQUIRED) | K(WRITE) },
    [PROP_RELEASE_SAFETY] = { &release_safety_monitor, JUDGED_ALWAYS, NULL, WORLD_OBSERVE_ALL },
    [PROP_NO_DEADLOCK] = { &no_deadlock_monitor, JUDGED_ALWAYS, NULL,
                           K(ACQUIRE) | K(ACQUIRED) | K(ACQUIRE_FAILED) | K(RELEASED) | K(FAULT) | K(END) |
                               K(ERROR) },
    [PROP_FAIRNESS] = { &fairness_monitor, JUDGED_WHEN_EXPECTED, NULL, WORLD_OBSERVE_ALL & ~(K(KEY_SET) | K(KEY_DELETED) | K(KEY_EXPIRED) | K(KEYSPACE)) },
    [PROP_REENTRANCY] = { &reentrancy_monitor, JUDGED_WHEN_EXPECTED, NULL, WORLD_OBSERVE_ALL },
};

uint64_t properties_observed(const int *searched)
{
    uint64_t m = 0;
    for (int q = 0; q < PROP_COUNT; q++)
        if (searched[q]) m |= property_table[q].observes;
    return m;
}
