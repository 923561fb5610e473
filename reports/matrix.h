/* matrix.h — the lock-design matrix's results (locklab matrix) and their renderings: the text
 * table for the terminal, a CSV, an HTML page whose cells open each run's player page, and a
 * gnuplot heat map.
 *
 * The command (cli/matrix.c) runs every cell's scenario and fills a matrix_result; this file
 * only renders it. Each verdict is set beside what the row's source claims (scenario_matrix.h)
 * and marked: "=" the run agrees with the claim, "!" it contradicts it, "?" it shows a
 * violation the source does not warn of; "≠" where the run does not show what its scenario's
 * `expect` says. Every rendering is a pure function of the result: the same table gives the
 * same bytes. */
#ifndef LOCKLAB_MATRIX_H
#define LOCKLAB_MATRIX_H

#include "check.h"
#include "scenario_matrix.h"
#include "util.h"

typedef enum matrix_mark { MARK_NONE, MARK_AGREES, MARK_CONTRADICTS, MARK_UNWARNED } matrix_mark;

typedef struct matrix_cell {
    int ran;             /* 0: the column does not apply to the row */
    verdict *v;          /* per table property */
    signed char *expect; /* per table property: -1 not stated, 0 holds, 1 violated */
    char *page;          /* the run's player page, relative to the HTML index, or NULL */
    /* Whether the column's fault reached the lock (model/touch.h), from the run's history:
     * touched, what did (a sentence), or NULL; vacuous, why the cell proves nothing (none of
     * the column's ways happened) when the row does not say the fault cannot touch it, or
     * NULL; stale: the row says "untouched" but the fault did touch the lock. */
    char *touched, *vacuous;
    int stale;
    char **unseen;       /* per table property: it holds, but its monitor saw no event of the
                            lock it judges (why), and the row does not say it cannot; or NULL */
} matrix_cell;

typedef struct matrix_result {
    const matrix_table *t; /* borrowed */
    property *prop;        /* per table property: which the checker judges */
    matrix_cell *cells;    /* [row * ncols + column] */
    unsigned *exercised;   /* per column: the ways its fault must reach the lock (bits TOUCH_*), 0: none asked */
} matrix_result;

const matrix_cell *matrix_cell_at(const matrix_result *r, int row, int col);
/* How verdict p of a cell stands against the row's source. */
matrix_mark matrix_mark_of(const matrix_result *r, int row, int col, int p);
/* 1 when the cell's verdict p is not what its scenario expects. */
int matrix_unmet(const matrix_result *r, int row, int col, int p);
/* How many verdicts of the whole table are not what their scenarios expect. */
int matrix_unmet_total(const matrix_result *r);
/* How many cells are vacuous or stale, and how many verdicts "hold" unobserved: each fails the
 * table as an unmet expectation does. */
int matrix_hollow_total(const matrix_result *r);

/* The table as text: the prose wrapped to 92 columns, the grid as wide as its columns. */
void matrix_text(const matrix_result *r, buf *out);
/* One line per row, column and property: row,design,column,situation,property,verdict,
 * expected,claim,mark,scenario. */
void matrix_csv(const matrix_result *r, buf *out);
/* The page: one self-contained file, no script; each cell links to its run's page. It opens
 * with the overview (designs × situations, one mark per cell for all its properties), then
 * the detailed table, whose headers stay in view as it scrolls. */
void matrix_html(const matrix_result *r, buf *out);
/* The overview alone, as a page for a 1280 × 800 screen (matrix --png renders it). */
void matrix_overview_page(const matrix_result *r, buf *out);
/* The heat map (path .png or .svg) through gnuplot. 0, or -1 with a one-line reason. */
int matrix_plot(const matrix_result *r, const char *path, buf *err);

#endif
