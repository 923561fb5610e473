/* matrixint.h — what the matrix's renderings share (matrix.c, matrix_html.c): what a cell
 * says, in text or in HTML. Not an API (matrix.h is). */
#ifndef LOCKLAB_MATRIXINT_H
#define LOCKLAB_MATRIXINT_H

#include "matrix.h"

enum { PROSE_WIDTH = 92, LABEL_WIDTH = 20 };

/* A mark as the tables write it, by matrix_mark: "", "=", "!", "?". */
extern const char *const matrix_mark_text[];

/* A cell's scenario as outputs name it (relative: the table's shown folder). */
void matrix_shown_cell(const matrix_table *t, int row, int c, buf *out);
/* "∅" after a verdict that has no evidence behind it: the cell's fault never reached the lock,
 * or the property holds with no event of the lock its monitor judges. */
const char *matrix_hollow(const matrix_cell *c, int p);
const char *matrix_glyph(const matrix_cell *c, int p);
const char *matrix_verdict_text(const matrix_cell *c, int p);
/* "mutual exclusion" for mutual_exclusion. */
void matrix_prop_label(const char *name, buf *out);
/* A cell's note, led by its strongest mark, or by ✗ (a violation in a row without a source) or
 * ✓ (every property holds: the note says why, which a reader of a ✓ needs as much). */
const char *matrix_note_of(const matrix_result *r, int row, int col, const char **lead);
/* Per property of a row: where it held with no event of the lock for its monitor to judge, as
 * one line led by ∅ (NEVER OBSERVED when that is every cell judging it), or the row's reason it
 * cannot be observed (○). Lines into out, each ending in a newline. */
void matrix_observation_lines(const matrix_result *r, int row, buf *out);
/* What a cell's evidence says, beyond its note: its fault cannot reach the lock (the row
 * says why), never did (vacuous), or did although the row says it cannot (stale); and each
 * property that holds unobserved. Each a line led by `lead` (text) into out; 0 if none. */
int matrix_evidence_lines(const matrix_result *r, int row, int col, buf *out, int html);

#endif
