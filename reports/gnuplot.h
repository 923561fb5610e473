/* gnuplot.h — what the two pictures drawn by gnuplot share: the run's timeline (timeline.c)
 * and a sweep's plot (sweep_plot.c). Each writes its own script and runs gnuplot its own way;
 * these are the pieces that were the same in both. The matrix's heat map (matrix.c) and the
 * sweep's plot also share how gnuplot is run (gp_draw). */
#ifndef LOCKLAB_GNUPLOT_H
#define LOCKLAB_GNUPLOT_H

#include "util.h"

/* Appends s as a gnuplot double-quoted string: '"' and '\' escaped, a newline as \n. */
void gp_quote(buf *out, const char *s);

/* 1 when an executable gnuplot is on $PATH (an empty entry is the current directory, as
 * the shell takes it). */
int gp_installed(void);

/* Draws path (.svg: SVG, else PNG) with the program script() writes: script gets the file
 * it must set as its output (a temporary beside path, moved into place once gnuplot has
 * succeeded) and whether SVG is wanted. 0, or -1 with a one-line reason in err (gnuplot's
 * first complaint, or why path could not be written). */
int gp_draw(const char *path, void (*script)(const void *ud, const char *tmp_out, int svg, buf *gp), const void *ud,
            buf *err);

#endif
