/* faultint.h — what the fault files (sim/fault_<name>.c), the table (faults.c) and the world
 * share: the world's parts and the scenario loader, which a fault's start, end and reader
 * use. Not an API (faults.h is). */
#ifndef LOCKLAB_FAULTINT_H
#define LOCKLAB_FAULTINT_H

#include "faults.h"
#include "scenario_int.h"
#include "worldint.h"

/* Every kind's fault_def, one per file (fault_gc_pause in fault_gc_pause.c, ...). */
#define FAULT_DEF_DECL_(k, n, p, wr, r) extern const fault_def fault_##n;
FAULT_KINDS(FAULT_DEF_DECL_)
#undef FAULT_DEF_DECL_

/* The clock of an actor (a node's or a client's). */
lclock *fault_clock_of(struct world *w, int actor);
/* The client that actor index `actor` is (actor >= the nodes). */
client *fault_client(struct world *w, int actor);

#endif
