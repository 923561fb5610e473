/* scenario_matrix.h — the table `locklab matrix` runs: lock designs (rows) under standard
 * situations (columns), read from a Lua file such as scenarios/matrix/table.lua.
 *
 * The table holds no experiment of its own: each cell is an ordinary scenario file,
 * <table's folder>/<row id>/<column id>.lua, which `locklab run` replays and whose `expect`
 * pins its verdicts. The table only says which rows and columns there are, which properties
 * to show, and what a published source claims about each design, in words (`says`) and as
 * verdicts per property (`claims`), so that the command can mark where a measured cell
 * agrees with the claim, contradicts it, or shows a violation the source does not mention.
 * A new design is a folder of scenarios and a row here: no C.
 *
 * It is read like a scenario (the sandbox, the line map, "FILE:LINE: what is wrong" for the
 * first problem, scenario_reader.h). Property names are kept as written, with their lines:
 * the caller checks them against the properties the checker knows (model/check.h), which
 * sim/ cannot see. */
#ifndef LOCKLAB_SCENARIO_MATRIX_H
#define LOCKLAB_SCENARIO_MATRIX_H

#include "util.h"

/* A claim about one property in one column: what the row's source says. */
enum { CLAIM_NONE = -1, CLAIM_HOLDS = 0, CLAIM_VIOLATED = 1 };

typedef struct matrix_row {
    char *id;        /* its folder of scenarios, and its name in the CSV */
    char *title;     /* as the table shows it */
    char *source;    /* whose claims these are ("the comparison table"), or NULL: none */
    char *says;      /* the source's words about the design, or NULL */
    char **cell;     /* per column: the scenario file, or NULL when not applicable */
    char **na;       /* per column: why the column does not apply, or NULL */
    char **note;     /* per column: what the measurement shows against the claim, or NULL */
    char **untouched; /* per column: why the column's fault cannot reach this design's lock (the
                        source's reason), or NULL: it must (the cell runs and is shown) */
    char **unobservable; /* per property: why its monitor cannot see this design's lock, or NULL */
    signed char *claim; /* [column * nprops + property]: CLAIM_* */
    int line;
} matrix_row;

typedef struct matrix_table {
    char *path;      /* the file, as given */
    char *dir;       /* its folder: the cells are dir/<row>/<column>.lua */
    char *title, *about;
    char **props;    /* property names as written (validated by the caller) */
    int *prop_lines;
    int nprops;
    char **col_id, **col_title, **col_short; /* short: at most 9 columns of text, for the terminal */
    char ***col_exercised; /* per column: the ways its fault must reach the lock (names as written,
                              NULL-terminated; validated by the caller, model/touch.h), or NULL */
    int *col_lines;
    int ncols;
    char *shown_path, *shown_dir; /* the file and its folder as outputs name them (the caller may
                                     make them relative: a table of the data directory) */
    matrix_row *rows;
    int nrows;
} matrix_table;

/* Reads and checks the table, and that every cell's scenario file exists (a row whose
 * folder lacks one is an error at the row's id). NULL with "FILE:LINE: ..." in err. */
matrix_table *matrix_table_load(const char *path, buf *err);
void matrix_table_free(matrix_table *t);

/* The claim of row r for column c and property p, CLAIM_*. */
int matrix_claim(const matrix_table *t, const matrix_row *r, int c, int p);

#endif
