/* fault_search.c — the model checker's policy for faults (world.h's world_search): the
 * options of the scenario's explore table (kind × target × size, with the sizes a kind
 * defaults to: a pause of 1.5 × the lease, a clock jump and a cut of 2 ×), which of them it
 * offers at each instant, and how far back each may have landed (search_gap). The world
 * asks, records and applies; this file decides.
 *
 * A crash, pause or clock jump of X (a fault tied to its target, faults.h) lands at an
 * instant only if X has an event due then: between two events of X nothing of X changes, so
 * landing it anywhere in between is the same as landing it just before the next one, with
 * its own consequences (a restart, the end of a pause) falling anywhere the gap allows: the
 * instant's shift, a window of its own (search_gap, model/reduce.c). Drift and failover
 * are offered at every instant (a drift's effect grows with time), and so are partitions and
 * lossy links (they change what messages already in flight do). A crash of what is down and
 * a restart of what is up are never offered: they change nothing.
 *
 * The horizon bounds when faults land. Those offered at every instant are offered at the
 * horizon itself too (WORLD_PHASE_HORIZON). A crash, pause or jump of X that lands in X's
 * last gap before the horizon lands just before X's first event past it (WORLD_PHASE_LATE),
 * like one in any other gap, its shift covering the gap back to X's event before: so a
 * fault's instant is always tied to an event of its target, and moves with it when a window
 * moves that event — a fault at the horizon's fixed instant would be ordered anew against
 * every event of its target a window can bring past it. The instants searched are thus those
 * up to the horizon and, for each target, up to its first event past it. */
#include <string.h>

#include "exploreint.h"
#include "faults.h"

/* Option i of the explore table into *f; the number of options. */
static int search_option(const scenario *sc, int i, fault_cfg *f)
{
    int64_t lease = scenario_lease_or_watchdog(sc);
    int k = 0;
    for (int e = 0; e < sc->explore.nfaults; e++) {
        const explore_fault *ef = &sc->explore.faults[e];
        const fault_def *d = fault_def_of(ef->kind);
        int nvals = ef->nparams > 0 ? ef->nparams : ef->nvalues > 0 ? ef->nvalues : 1;
        for (int t = 0; t < ef->ntargets; t++) {
            for (int v = 0; v < nvals; v++, k++) {
                if (k != i || !f) continue;
                memset(f, 0, sizeof *f);
                f->kind = ef->kind;
                f->duration_us = -1;
                /* its size: the params given, or the kind's default (a rate may be negative:
                 * no sentinel) */
                int64_t us = ef->nparams > 0 ? ef->params_us[v] : d->lease_halves * lease / 2;
                double value = ef->nvalues > 0 ? ef->values[v] : d->value;
                d->offer(f, ef->targets[t], us, value);
            }
        }
    }
    return k;
}

static uint64_t search_offered(const world *w, int nopts, int phase, uint64_t *valid)
{
    *valid = UINT64_MAX;
    if (1 + nopts > 64) return UINT64_MAX;
    const scenario *sc = world_scenario(w);
    uint64_t m = 1;
    *valid = 1;
    fault_cfg f;
    for (int i = 0; i < nopts; i++) {
        search_option(sc, i, &f);
        int a = world_fault_key(w, &f);
        int prunable = fault_def_of(f.kind)->tied;
        if (world_fault_idle(w, &f)) continue; /* it would change nothing */
        *valid |= 1ULL << (i + 1);
        int due = world_key_due(w, a);
        int off;
        switch (phase) {
        case WORLD_PHASE_BEFORE: off = !prunable || a < 0 || due; break;
        case WORLD_PHASE_HORIZON: off = !prunable || a < 0; break;
        default: off = prunable && due && !world_key_late_seen(w, a); break;
        }
        if (off) m |= 1ULL << (i + 1);
    }
    return m;
}

/* Whether some crash, pause or jump's target has not yet had an instant past the horizon. */
static int search_late_open(const world *w, int nopts)
{
    const scenario *sc = world_scenario(w);
    fault_cfg f;
    for (int i = 0; i < nopts; i++) {
        search_option(sc, i, &f);
        if (!fault_def_of(f.kind)->tied) continue;
        int a = world_fault_key(w, &f);
        if (a >= 0 && !world_key_late_seen(w, a)) return 1;
    }
    return 0;
}

/* Random schedules: a fault at about one instant in twenty. */
static int64_t search_random(chooser *ch, int nopts)
{
    return chooser_chance(ch, 0.05, "fault?") ? 1 + chooser_pick(ch, nopts, "fault") : 0;
}

/* How much earlier than now (µs) fault f could have landed with the same order of events:
 * back to just after the last step it could be ordered against — its target's (a master
 * and its replicas together), every actor's for a partition or a lossy link — and not before
 * the run began. 0 when landing earlier changes nothing: a fault that schedules nothing (a
 * crash that does not restart, a clock jump, a failover). A drift has no end: back to the
 * last step of its target, or the start of the run. */
static int64_t search_gap(const world *w, const fault_cfg *f)
{
    const fault_def *d = fault_def_of(f->kind);
    int64_t len = d->length ? d->length(f) : 0;
    int drift = f->kind == FAULT_DRIFT; /* its effect grows with the time it has run: no end */
    if (len <= 0 && !drift) return 0;
    int key = world_fault_key(w, f);
    int64_t now = world_now(w), prev = -1;
    int n;
    const world_step *steps = world_steps(w, &n);
    for (int s = n; s-- > 0;) {
        const world_step *x = &steps[s];
        if (x->t_us >= now && x->cause == WORLD_CAUSE_INSTANT) continue; /* this fault's own */
        if (key == WORLD_KEY_ALL || key == WORLD_KEY_CUT || x->key == key || x->key == WORLD_KEY_ALL) {
            prev = x->t_us;
            break;
        }
    }
    int64_t gap = now - prev - 1;
    /* landing more than its whole length early, it has ended (restarted) before now, nothing of
     * its target having happened meanwhile: all such instants are one (len + 1); its whole
     * length early, it ends now, after what was due now and pushed before it landed */
    if (!drift && gap > len + 1) gap = len + 1;
    return gap > 0 ? gap : 0;
}

const world_search fault_search = {
    .option = search_option,
    .offered = search_offered,
    .late_open = search_late_open,
    .random = search_random,
    .gap = search_gap,
};
