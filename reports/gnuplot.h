/* gnuplot.h — what the two pictures drawn by gnuplot share: the run's timeline (timeline.c)
 * and a sweep's plot (sweep_plot.c). Each writes its own script and runs gnuplot its own way;
 * these are the pieces that were the same in both. The matrix's heat map (matrix.c) and the
 * sweep's plot also share how gnuplot is run (gp_draw). */
#ifndef LOCKLAB_GNUPLOT_H
#define LOCKLAB_GNUPLOT_H

#include "util.h"

/* Appends s as a gnuplot string expression that expands nothing: single-quoted pieces (a
 * quote doubled), a newline as "\n" between them, other control characters as spaces.
 * Anything a user wrote goes into a script this way and no other. */
void gp_quote(buf *out, const char *s);
/* The same for a tic label, which gnuplot reads as a format: '%' doubled too. */
void gp_quote_format(buf *out, const char *s);

/* 1 when an executable gnuplot is on $PATH (an empty entry is the current directory, as
 * the shell takes it). */
int gp_installed(void);

/* Runs gnuplot (no shell) on script, which must draw to its standard output (`set output`
 * with no file), and appends the picture to image once it is whole (a PNG through its IEND
 * chunk, an SVG through </svg>). 0, or -1 with a one-line reason in err and *io 0 when
 * gnuplot is not installed (bad usage), 1 when it failed. */
int gp_render(const buf *script, int svg, buf *image, buf *err, int *io);

/* Draws path (.svg: SVG, else PNG) with the program script() writes (to standard output,
 * as gp_render wants; script is told whether SVG is wanted), then writes the picture to path
 * through a temporary file renamed into place (ll_write_file): every write checked. 0, or -1
 * with a one-line reason in err (gnuplot's first complaint, or why path could not be
 * written). */
int gp_draw(const char *path, void (*script)(const void *ud, int svg, buf *gp), const void *ud, buf *err);

#endif
