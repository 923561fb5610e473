/* trace.h — the narrated text trace of a run (see trace.c). */
#ifndef LOCKLAB_TRACE_H
#define LOCKLAB_TRACE_H

#include "history.h"
#include "util.h"

typedef enum trace_level {
    TRACE_BRIEF,   /* the story: milestones, critical sections, writes, expiries, faults */
    TRACE_NORMAL,  /* and every request, execution and reply */
    TRACE_VERBOSE  /* and every redis.call inside scripts, and every key change */
} trace_level;

/* Appends the whole trace at the given level of detail (the lock key named "lock"). */
void trace_render(const history *h, trace_level level, buf *out);
/* The same, the scenario's lock key named: the story (TRACE_BRIEF) keeps what explains it as
 * well as the milestones: a node's execution that changed the lock key's value or removed it
 * ("n1 runs SET lock … → OK"), a lost replication, and a client's first timeout of a streak. */
void trace_render_story(const history *h, trace_level level, const char *lockkey, buf *out);
/* Each event's level: the least detailed trace that tells it (3: none); the caller frees. */
unsigned char *trace_levels(const history *h, const char *lockkey);
/* 1 when the trace at that level tells the event. */
int trace_wanted(const hist_event *e, trace_level level);
/* Appends one event's line. */
void trace_line(const history *h, const hist_event *e, buf *out);

#endif
