/* fault_search.h — the model checker's policy for faults, as the world asks for it
 * (world.h's world_search): which faults it offers where, their default sizes, how far
 * back each may have landed. See fault_search.c. */
#ifndef LOCKLAB_FAULT_SEARCH_H
#define LOCKLAB_FAULT_SEARCH_H

#include "world.h"

extern const world_search fault_search;

#endif
