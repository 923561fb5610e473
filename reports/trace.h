/* trace.h — the narrated text trace of a run (see trace.c). */
#ifndef LOCKLAB_TRACE_H
#define LOCKLAB_TRACE_H

#include "history.h"
#include "util.h"

/* Appends the whole trace; verbose adds every redis.call inside scripts and key changes. */
void trace_render(const history *h, int verbose, buf *out);
/* Appends one event's line. */
void trace_line(const history *h, const hist_event *e, buf *out);

#endif
