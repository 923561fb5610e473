/* gnuplot.h — what the two pictures drawn by gnuplot share: the run's timeline (timeline.c)
 * and a sweep's plot (sweep_plot.c). Each writes its own script and runs gnuplot its own way;
 * these are the pieces that were the same in both. */
#ifndef LOCKLAB_GNUPLOT_H
#define LOCKLAB_GNUPLOT_H

#include "util.h"

/* Appends s as a gnuplot double-quoted string: '"' and '\' escaped, a newline as \n. */
void gp_quote(buf *out, const char *s);

/* 1 when an executable gnuplot is on $PATH (an empty entry is the current directory, as
 * the shell takes it). */
int gp_installed(void);

#endif
