/* timeline.h — pictures of one run (issue: pictures). Each writer renders a history; files
 * are written to a temporary name and renamed, so nothing half-written is left behind.
 * Functions return 0, or -1 with a one-line reason in err and *io set when the failure was
 * an I/O or tool failure (exit 3) rather than bad input or a missing tool (exit 2).
 *
 * Every picture is drawn from the same reduction of the history, the tl_model: one row per
 * client and per node, intervals (waiting, holding, paused, crashed, overlapping; owner of
 * the lock key, down) and marks (writes, tokens, clock jumps), and the faults with their
 * spans. Same history → same model → byte-identical pictures. */
#ifndef LOCKLAB_TIMELINE_H
#define LOCKLAB_TIMELINE_H

#include <stdint.h>

#include "check.h"
#include "history.h"
#include "scenario.h"
#include "util.h"

/* ---- the model (tlmodel.c) ---- */

typedef enum tl_span_kind {
    TL_WAIT,    /* client: between acquire and acquired / acquire_failed */
    TL_HOLD,    /* client: inside the critical section */
    TL_PAUSE,   /* client: frozen by a GC pause */
    TL_CRASH,   /* client: crashed (until the end) */
    TL_OVERLAP, /* client: inside the critical section while another client is too */
    TL_OWNED,   /* node: the lock key exists there, set by `owner` */
    TL_DOWN     /* node: crashed, until it restarts */
} tl_span_kind;

typedef struct tl_span {
    int row;
    tl_span_kind kind;
    int64_t from_us, to_us; /* true time, from_us <= to_us */
    int owner;         /* TL_OWNED: the owning client's row, -1 when unknown */
} tl_span;

typedef enum tl_mark_kind { TL_WRITE_OK, TL_WRITE_REJECTED, TL_TOKEN, TL_CLOCK_JUMP, TL_PROMOTED } tl_mark_kind;

typedef struct tl_mark {
    int row;
    tl_mark_kind kind;
    int64_t t_us;
    int64_t value;     /* the fencing token (or -1), the clock jump in ms, the old master's row */
} tl_mark;

typedef struct tl_fault {
    int row;           /* the target's row, -1 for the whole world (partitions) */
    int64_t from_us, to_us; /* to_us == from_us: an instant (clock jump, restart, failover) */
    const char *text;  /* borrowed from the history */
} tl_fault;

typedef struct tl_row {
    int actor;         /* the history's actor index */
    int is_node;
    const char *name;  /* borrowed from the history */
    char sym;          /* one ASCII character standing for a client (its initial if unique) */
    double drift;      /* its clock's rate error as the scenario sets it (0.03: 3 % fast), 0 */
} tl_row;

typedef struct tl_model {
    tl_row *rows; int nrows, nclients;  /* clients first, in actor order, then nodes */
    tl_span *spans; size_t nspans;
    tl_mark *marks; size_t nmarks;
    tl_fault *faults; size_t nfaults;
    int64_t end_us;                     /* the last event's true time (at least 1) */
} tl_model;

/* Reduces a history to rows, spans, marks and faults; release with tl_release. The model
 * borrows names and texts from h, which must outlive it. */
void tl_build(const history *h, const scenario *sc, tl_model *m);
void tl_release(tl_model *m);
/* The row of a history actor, -1 for none. */
int tl_row_of(const tl_model *m, int actor);

/* ---- the pictures ---- */

/* The gnuplot timeline (timeline.c; PNG or SVG by the path's extension, which must be .png
 * or .svg): a row per client (waiting, holding, paused, crashed), a row per node (who owns
 * the lock key, down, clock jumps), a drifting clock said in its row's label, overlaps
 * highlighted, faults shaded (a partition or another fault of the whole network as a
 * labelled band in a row of its own, "network", above the others), rejected writes and tokens
 * marked.
 * gnuplot missing: -1, *io = 0 (exit 2); unwritable path or gnuplot failing: -1, *io = 1. */
int timeline_plot(const history *h, const scenario *sc, uint64_t seed, const char *path, buf *err, int *io);
/* The same picture as SVG text, appended to out (for the HTML report). */
int timeline_svg(const history *h, const scenario *sc, uint64_t seed, buf *out, buf *err, int *io);
/* 1 when the path ends in .png or .svg (any case). */
int timeline_path_ok(const char *path);

/* A compact text timeline (termline.c), one row per actor, each chart line exactly `width`
 * columns (clamped to 40..400), then a legend. UTF-8. */
void termline_render(const history *h, const scenario *sc, int width, buf *out);
/* The width to use for stdout: $COLUMNS, else the terminal's width when stdout is a tty,
 * else 80. */
int termline_width(void);

/* The space-time (Lamport) diagram as SVG (spacetime.c): into a buffer, or to a file. */
void spacetime_svg(const history *h, const scenario *sc, buf *out);
int spacetime_write(const history *h, const scenario *sc, const char *path, buf *err, int *io);

/* The HTML pages of a run are declared in html.h. */

/* Writes content to path through path.tmp.<pid> and a rename (tlmodel.c). -1 with the
 * reason in err (and *io = 1) when it cannot. */
int tl_write_file(const char *path, const buf *content, buf *err, int *io);

#endif
