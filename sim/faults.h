/* faults.h — the table of fault kinds, as kinds.h is for server kinds and model/properties.c
 * for properties: one row per kind (history.h's FAULT_KINDS: its kind, name and typed history
 * fields) and one file, sim/fault_<name>.c, holding its fault_def: how a scenario gives it,
 * what it does when it starts and ends, how the trace tells it, how a counter-example writes
 * it back, and what the model checker's search needs to offer it. A new fault is one row and
 * one file; nothing else in the engine switches over fault kinds (tests/test_faults.c lists
 * the table against the reader, the history, the narration and the search). */
#ifndef LOCKLAB_FAULTS_H
#define LOCKLAB_FAULTS_H

#include <stdint.h>

#include "history.h"
#include "scenario.h"
#include "util.h"

struct loader; /* the scenario loader (scenario_int.h) */
struct world;  /* the running world (worldint.h) */

/* What the explore table's `params` of a kind are (scenarios/README.md, "explore"). */
typedef enum fault_param {
    FP_NONE,        /* it takes none */
    FP_POSITIVE_US, /* durations longer than 0 (a pause, a cut) */
    FP_SIGNED_US,   /* signed durations (a clock jump) */
    FP_US,          /* durations, 0 allowed (a crash's restart delay: 0 stays down) */
    FP_RATE,        /* rates from -0.5 to 1 (a drift) */
    FP_PROBABILITY  /* probabilities from 0 to 1 (a lossy link) */
} fault_param;

/* The kinds of actor a fault's own key names (scenario_int.h's ACT_* have the same values). */
enum { FT_NODE = 1, FT_CLIENT = 2, FT_MASTER = 4 };

typedef struct fault_def {
    fault_kind kind;        /* its row (history.h): its name is fault_kind_names[kind] */

    /* ---- the scenario: { at = ..., <name> = <target>, <keys>... } ---- */
    int targets;            /* FT_* its own key names; 0: read_target reads it */
    const char *keys[2];    /* its keys besides `at` and its own; the first nrequired required */
    int nkeys, nrequired;
    /* Its own key at stack index idx, when it is not one actor (a partition's groups, a link). */
    void (*read_target)(struct loader *ld, int idx, const char *path, fault_cfg *f);
    /* Its parameters from the fault's table t (after `duration`, which every kind reads). */
    void (*read)(struct loader *ld, int t, const char *path, fault_cfg *f);
    /* The fault as a scenario's `faults` entry writes it ("  { at = ..., ... },\n" lines). */
    void (*write)(buf *b, const scenario *sc, const fault_cfg *f);

    /* ---- the run ---- */
    /* Its sentence in the trace (the history event's text). */
    void (*describe)(const fault_cfg *f, buf *out);
    /* Its typed fields in the history's fault event (param, rate: history.h's row). */
    void (*note)(const fault_cfg *f, hist_event *e);
    /* It starts at its target (-1: none); it landed `early` µs before now (a searched fault:
     * what it schedules counts from its own instant). */
    void (*start)(struct world *w, const fault_cfg *f, int id, int target, int64_t early);
    /* It ends (its duration ran out, or world_end_fault); NULL: nothing to undo. */
    void (*end)(struct world *w, const fault_cfg *f, int id, int target);
    int own_end;            /* its target ends it (a pause: the client's), not its duration */
    /* Starting it now would change nothing (a crash of what is down); NULL: never. */
    int (*idle)(const struct world *w, const fault_cfg *f, int target);

    /* ---- the model checker's search (model/fault_search.c) ---- */
    fault_param param;      /* what explore.faults.<name>.params are */
    int tied;               /* it acts on its target alone when it lands: offered only where
                               its target has an event due (world.h, world_fault_tied_to_target) */
    int cuts;               /* a partition: what it changes is what net_partitioned answers
                               (world.c, fault_actor: WORLD_KEY_CUT) */
    int everywhere;         /* it changes what every actor's messages do (a partition, a lossy
                               link): it is ordered against every step */
    int lease_halves;       /* its default size without params: halves of the lease (3: a
                               pause of 1.5 x the lease; 4: a jump of 2 x); 0: none */
    double value;           /* its default rate or probability without params */
    /* The fault the search offers at `target`, of size `us` (µs) or `value`. */
    void (*offer)(fault_cfg *f, const char *target, int64_t us, double value);
    /* What a searched fault needs from the scenario before it runs (a partition: the groups
     * that cut its target off); NULL: nothing. */
    void (*place)(fault_cfg *f, const scenario *sc);
    /* How long after its start (µs) what it schedules falls (a restart, a pause's or a cut's
     * end): how far back its instant may move with the same order of events; 0: nothing. */
    int64_t (*length)(const fault_cfg *f);
} fault_def;

/* The row of kind k (every kind has one). */
const fault_def *fault_def_of(fault_kind k);
/* The kind called `name`, or -1. */
int fault_kind_find(const char *name);

/* The fault's sentence, as the trace tells it. */
void fault_describe(const fault_cfg *f, buf *out);
/* The fault written as a scenario's `faults` entries (a counter-example pins it so). */
void fault_write(buf *b, const scenario *sc, const fault_cfg *f);
/* A duration as a scenario writes it: "250ms", or "1500us" when not whole ms. */
void fault_put_us(buf *b, int64_t us);
/* The rows' shared pieces for a fault of one target and a duration (a pause, a disk stall, a
 * cut): fault_def.write as "  { at = ..., <name> = \"<target>\", duration = ... },", .offer
 * (the target, the duration us) and .length (its duration). */
void fault_write_target_duration(buf *b, const scenario *sc, const fault_cfg *f);
void fault_offer_target_duration(fault_cfg *f, const char *target, int64_t us, double value);
int64_t fault_length_duration(const fault_cfg *f);

#endif
