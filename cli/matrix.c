/* matrix.c — `locklab matrix [TABLE]`: every lock design of a matrix table under every
 * situation, each cell an ordinary scenario run once and judged, the whole set beside what
 * each design's source claims (sim/scenario_matrix.h reads the table; reports/matrix.c
 * renders it).
 *
 * The cells run one after another in this process: each is a world of a few thousand events
 * and the models and scripts are compiled once for all of them (a chunkcache), so the whole
 * default table takes well under a second. With --html every run is recorded in full (the
 * scripts' redis.calls, as `locklab run --html` does) and its player page written beside the
 * index, which links each verdict to it. Each run is also asked (model/touch.h) whether its
 * situation reached the lock and whether each property saw the lock. Exit 0 when every cell
 * shows what its scenario expects with evidence, 1 when one does not or a cell is vacuous or a
 * property unobserved on its row, 2 for a bad table or scenario, 3 when a file cannot be
 * written. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "chunkcache.h"
#include "cli.h"
#include "gnuplot.h"
#include "html.h"
#include "matrix.h"
#include "scenario.h"
#include "scenario_matrix.h"
#include "scriptlib.h"
#include "touch.h"
#include "world.h"

static void matrix_usage(FILE *f)
{
    fputs("usage: locklab matrix [TABLE] [options]\n"
          "\n"
          "Runs every lock design of a matrix table under every situation of it and prints the\n"
          "table: a block per design, a line per property (mutual exclusion, resource safety,\n"
          "release safety, no deadlock, re-entrancy), a column per situation (the holder\n"
          "crashes, pauses, is cut off, loses its renewals, has its clock jump, has its\n"
          "release delayed, loses its host; a server restarts, fails over, its clock jumps,\n"
          "its leader is cut off with a waiter; a waiter gives up), each verdict ✓ or ✗ with\n"
          "a mark where it stands against what the design's source claims: = as claimed,\n"
          "! the source claims otherwise, ? a violation the source does not warn of. Under\n"
          "each design, the source's words and the notes on its cells.\n"
          "\n"
          "Every cell must prove it was exercised: from its run's history, the situation's\n"
          "fault reached the lock (a lease lost during a pause, a message of the lock cut, a\n"
          "node storing it crashed ...: the column's `exercised`), or the design's row says\n"
          "why it cannot (`untouched`, with the source's reason). And every property a design\n"
          "judges must be observed in one of its cells (someone held the lock, a release ran on\n"
          "it ...), or the row says why not (`unobservable`). A vacuous cell or a property never\n"
          "observed is marked ∅ and fails the table.\n"
          "\n"
          "TABLE is a table file (default: scenarios/matrix/table.lua); each cell is the\n"
          "scenario ROW/COLUMN.lua beside it, which 'locklab run' replays and whose expect\n"
          "pins the cell's verdicts. A new design is a folder of scenarios and a row of the\n"
          "table: no C (see the table file's header).\n"
          "\n"
          "options:\n"
          "  --html FILE   write the table as a page; each verdict opens its run's page (the\n"
          "                player of 'locklab run --html'), written into FILE's name with\n"
          "                '-runs' (out/m.html: out/m-runs/ROW--COLUMN.html)\n"
          "  --csv FILE    one line per design, situation and property: the verdict, what\n"
          "                the scenario expects, the source's claim, the mark, the scenario,\n"
          "                whether the fault reached the lock and the verdict was observed\n"
          "  --plot FILE   a heat map of the table with gnuplot: FILE.png or FILE.svg\n"
          "  --png FILE    the overview (designs x situations, a mark per cell and per\n"
          "                violated property) as a\n"
          "                1280x800 picture for slides, rendered by headless Chromium\n"
          "  -q, --quiet   no table on stdout (the files and the exit code only)\n"
          "  -h, --help    this text\n"
          "Progress goes to stderr. A file that cannot be written is said before any cell runs.\n"
          "\n"
          "exit: 0 every cell shows what its scenario expects, with evidence; 1 one does not,\n"
          "      or a cell is vacuous, or a property unobserved; 2 bad input; 3 internal or\n"
          "      I/O error\n",
          f);
}

enum { OPT_HTML = 256, OPT_CSV, OPT_PLOT, OPT_PNG };
static const struct option matrix_options[] = {
    { "help", no_argument, NULL, 'h' },
    { "quiet", no_argument, NULL, 'q' },
    { "html", required_argument, NULL, OPT_HTML },
    { "csv", required_argument, NULL, OPT_CSV },
    { "plot", required_argument, NULL, OPT_PLOT },
    { "png", required_argument, NULL, OPT_PNG },
    { NULL, 0, NULL, 0 },
};

typedef struct matrix_args {
    const char *table, *html, *csv, *plot, *png;
    int quiet;
} matrix_args;

/* The first executable of names on $PATH (its full path, to free), or NULL. */
static char *find_program(const char *const *names)
{
    const char *path = getenv("PATH");
    for (; path && *names; names++) {
        const char *p = path;
        for (;;) {
            const char *colon = strchr(p, ':');
            size_t len = colon ? (size_t)(colon - p) : strlen(p);
            buf b;
            buf_init(&b);
            if (len) buf_append(&b, p, len);
            else buf_putc(&b, '.');
            buf_printf(&b, "/%s", *names);
            if (access(b.p, X_OK) == 0) return buf_steal(&b);
            buf_release(&b);
            if (!colon) break;
            p = colon + 1;
        }
    }
    return NULL;
}

static char *chromium_path(void)
{
    static const char *const names[] = { "chromium", "chromium-browser", "google-chrome", NULL };
    return find_program(names);
}

/* Can path be written (before any cell runs, so that a bad path costs nothing)? A file that
 * was not there is not left behind. EXIT_OK, or EXIT_INTERNAL after the one-line error. */
static int writable(const char *opt, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("matrix: %s '%s' is a folder: give a file name in it", opt, path);
        return EXIT_INTERNAL;
    }
    int existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        cli_error("matrix: %s '%s': cannot write it: %s", opt, path, strerror(errno));
        return EXIT_INTERNAL;
    }
    fclose(f);
    if (!existed) remove(path);
    return EXIT_OK;
}

/* EXIT_OK to run; -1 after the usage (exit 0); EXIT_USAGE after the one-line error. */
static int parse_args(int argc, char **argv, matrix_args *a)
{
    memset(a, 0, sizeof *a);
    int c;
    optind = 0;
    while ((c = cli_getopt("matrix", argc, argv, "hq", matrix_options)) != -1) {
        switch (c) {
        case 'h': matrix_usage(stdout); return -1;
        case 'q': a->quiet = 1; break;
        case OPT_HTML: a->html = optarg; break;
        case OPT_CSV: a->csv = optarg; break;
        case OPT_PLOT: a->plot = optarg; break;
        case OPT_PNG: a->png = optarg; break;
        default: return EXIT_USAGE; /* said */
        }
    }
    if (optind < argc) a->table = argv[optind++];
    if (optind < argc) {
        cli_error("matrix: one table at a time ('%s' is extra)", argv[optind]);
        return EXIT_USAGE;
    }
    if (a->plot) {
        size_t n = strlen(a->plot);
        if (n < 5 || (strcmp(a->plot + n - 4, ".png") && strcmp(a->plot + n - 4, ".svg"))) {
            cli_error("matrix: --plot '%s': the file name must end in .png or .svg", a->plot);
            return EXIT_USAGE;
        }
        if (!gp_installed()) { /* said before anything runs or is written */
            cli_error("matrix: --plot needs gnuplot, which is not installed (apt-get install gnuplot-nox)");
            return EXIT_USAGE;
        }
    }
    if (a->png) {
        size_t n = strlen(a->png);
        if (n < 5 || strcmp(a->png + n - 4, ".png")) {
            cli_error("matrix: --png '%s': the file name must end in .png", a->png);
            return EXIT_USAGE;
        }
        char *chromium = chromium_path();
        if (!chromium) {
            cli_error("matrix: --png needs Chromium, which is not installed (apt-get install chromium)");
            return EXIT_USAGE;
        }
        free(chromium);
    }
    /* every file asked for, before any cell runs */
    const char *const opts[] = { "--html", "--csv", "--plot", "--png" };
    const char *const files[] = { a->html, a->csv, a->plot, a->png };
    for (int i = 0; i < 4; i++)
        if (files[i] && writable(opts[i], files[i]) != EXIT_OK) return EXIT_INTERNAL;
    return EXIT_OK;
}

/* The overview page through headless Chromium into a 1280 × 800 PNG (written beside path,
 * moved into place once complete). 0, or -1 with a one-line reason in err. */
static int render_png(const matrix_result *res, const char *path, buf *err)
{
    char *chromium = chromium_path();
    char profile[] = "/tmp/locklab-chromium.XXXXXX";
    buf page, shot, cmd;
    buf_init(&page);
    buf_init(&shot);
    buf_init(&cmd);
    int rc = -1;
    if (!chromium || !mkdtemp(profile)) {
        buf_printf(err, "--png: cannot start Chromium%s", chromium ? " (no temporary folder)" : "");
        goto out;
    }
    buf_printf(&page, "%s/overview.html", profile);
    buf_printf(&shot, "%s/shot.png", profile); /* in the private folder: no name to plant */
    buf html;
    buf_init(&html);
    matrix_overview_page(res, &html);
    FILE *f = fopen(page.p, "w");
    int ok = f && fwrite(html.p, 1, html.len, f) == html.len;
    if (f && fclose(f) != 0) ok = 0;
    buf_release(&html);
    if (!ok) {
        buf_printf(err, "--png: cannot write the page for Chromium in %s", profile);
        goto out;
    }
    /* a fresh profile, no network, a bounded time: Chromium's only input is the page */
    buf_puts(&cmd, "timeout 120 '");
    buf_puts(&cmd, chromium);
    buf_printf(&cmd, "' --headless --no-sandbox --disable-gpu --hide-scrollbars --disable-background-networking "
                     "--disable-component-update --disable-sync --no-first-run --user-data-dir='%s/profile' "
                     "--window-size=1280,800 --screenshot='%s' 'file://%s' >/dev/null 2>&1",
               profile, shot.p, page.p);
    int status = strchr(chromium, '\'') || strchr(shot.p, '\'') ? -1 : system(cmd.p);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || access(shot.p, R_OK) != 0) {
        buf_printf(err, "--png: Chromium could not render the overview into '%s'", path);
        remove(shot.p);
    } else if (ll_install_file(shot.p, path) != 0) {
        buf_printf(err, "--png: cannot write '%s': %s", path, strerror(errno));
        remove(shot.p);
    } else {
        rc = 0;
    }
out:
    if (profile[strlen(profile) - 1] != 'X') { /* made: remove it with what Chromium left */
        buf_reset(&cmd);
        buf_printf(&cmd, "rm -rf '%s'", profile);
        if (system(cmd.p) != 0) { /* a leftover in /tmp, nothing worse */ }
    }
    free(chromium);
    buf_release(&page);
    buf_release(&shot);
    buf_release(&cmd);
    return rc;
}

/* The table's property names, each one the checker judges; EXIT_USAGE after FILE:LINE. */
static int resolve_props(const matrix_table *t, property *out)
{
    for (int p = 0; p < t->nprops; p++) {
        int k = property_from_name(t->props[p]);
        if (k < 0) {
            buf names;
            buf_init(&names);
            for (int i = 0; i < PROP_COUNT; i++) buf_printf(&names, "%s%s", i ? ", " : "", property_name((property)i));
            cli_error("matrix: %s:%d: properties[%d]: '%s' is not a property (the checker judges: %s)", t->path,
                      t->prop_lines[p], p + 1, t->props[p], names.p);
            buf_release(&names);
            return EXIT_USAGE;
        }
        out[p] = (property)k;
    }
    return EXIT_OK;
}

/* Each column's `exercised` as bits of touch.h's ways; EXIT_USAGE after FILE:LINE. */
static int resolve_exercised(const matrix_table *t, unsigned *out)
{
    for (int c = 0; c < t->ncols; c++) {
        out[c] = 0;
        for (char **e = t->col_exercised[c]; e && *e; e++) {
            int k = touch_find(*e);
            if (k < 0) {
                buf names;
                buf_init(&names);
                for (int i = 0; i < TOUCH_COUNT; i++) buf_printf(&names, "%s%s", i ? ", " : "", touch_name(i));
                cli_error("matrix: %s:%d: columns[%d].exercised: '%s' is not a way a fault reaches the lock (the "
                          "matrix knows: %s)", t->path, t->col_lines[c], c + 1, *e, names.p);
                buf_release(&names);
                return EXIT_USAGE;
            }
            out[c] |= 1u << k;
        }
    }
    return EXIT_OK;
}

/* Where --html FILE puts the runs: FILE without .html, then "-runs". */
static char *runs_dir(const char *html)
{
    size_t n = strlen(html);
    if (n > 5 && !strcmp(html + n - 5, ".html")) n -= 5;
    buf b;
    buf_init(&b);
    buf_printf(&b, "%.*s-runs", (int)n, html);
    return buf_steal(&b);
}

typedef struct runner {
    const matrix_table *t;
    matrix_result *res;
    chunkcache *chunks;
    const char *pages;     /* the runs' folder, or NULL without --html */
    const char *pages_rel; /* the same, relative to the index */
} runner;

/* Runs one cell and fills it; EXIT_OK, or the exit code after a one-line error. */
static int run_cell(runner *rn, int row, int col)
{
    const matrix_table *t = rn->t;
    matrix_cell *cell = &rn->res->cells[row * t->ncols + col];
    const char *path = t->rows[row].cell[col];
    if (!path) return EXIT_OK; /* not applicable: nothing of the cell is read but ran */
    cell->v = xcalloc((size_t)t->nprops, sizeof *cell->v);
    cell->expect = xmalloc((size_t)t->nprops);
    buf err;
    buf_init(&err);
    scenario *sc = scenario_load(path, &err);
    if (!sc) {
        cli_error("matrix: %s", err.p);
        buf_release(&err);
        return EXIT_USAGE;
    }
    world_opts o = { .seed = sc->seed, .chunks = rn->chunks, .verbose = rn->pages != NULL };
    world *w = world_new(sc, &o, &err);
    int rc = w ? world_run(w, &err) : -1;
    if (rc != 0) {
        cli_error("matrix: %s: %.*s", path, (int)strcspn(err.p ? err.p : "", "\n"), err.p ? err.p : "");
        world_free(w);
        scenario_free(sc);
        buf_release(&err);
        return EXIT_USAGE;
    }
    check_result cr;
    check_run(world_history(w), sc, &cr);
    cell->ran = 1;
    touch_result tr;
    touch_run(world_history(w), sc, &tr);
    const matrix_row *rw = &t->rows[row];
    cell->unseen = xcalloc((size_t)t->nprops, sizeof *cell->unseen);
    for (int p = 0; p < t->nprops; p++) {
        property k = rn->res->prop[p];
        cell->v[p] = cr.p[k].v;
        const expect_cfg *ex = check_expectation(sc, k);
        cell->expect[p] = (signed char)(ex ? ex->violated : -1);
        if (cell->v[p] == VERDICT_HOLDS && !tr.observed[k] && !rw->unobservable[p]) cell->unseen[p] = xstrdup(tr.unseen[k]);
    }
    unsigned want = rn->res->exercised[col];
    for (int k = 0; k < TOUCH_COUNT && want; k++)
        if (((want >> k) & 1) && tr.happened[k] && !cell->touched) cell->touched = xstrdup(tr.what[k]);
    if (want && !cell->touched && !rw->untouched[col]) {
        buf why;
        buf_init(&why);
        buf_puts(&why, "the situation's fault never reached the lock: the run shows none of: ");
        touch_describe_mask(want, &why);
        cell->vacuous = buf_steal(&why);
    }
    cell->stale = want && cell->touched && rw->untouched[col];
    touch_free(&tr);
    int code = EXIT_OK;
    if (rn->pages) {
        buf page, rel;
        buf_init(&page);
        buf_init(&rel);
        buf_printf(&page, "%s/%s--%s.html", rn->pages, t->rows[row].id, t->col_id[col]);
        buf_printf(&rel, "%s/%s--%s.html", rn->pages_rel, t->rows[row].id, t->col_id[col]);
        int io = 0;
        buf_reset(&err);
        if (html_report(world_history(w), sc, &cr, sc->seed, page.p, &err, &io) != 0) {
            cli_error("matrix: %s", err.p ? err.p : "cannot write a run's page");
            code = io ? EXIT_INTERNAL : EXIT_USAGE;
        }
        cell->page = buf_steal(&rel);
        buf_release(&page);
    }
    check_free(&cr);
    world_free(w);
    scenario_free(sc);
    buf_release(&err);
    return code;
}

/* Runs every cell, row by row, saying on stderr which design is running. */
static int run_all(runner *rn)
{
    const matrix_table *t = rn->t;
    int tty = isatty(2), cells = 0;
    double t0 = cli_now_s();
    for (int row = 0; row < t->nrows; row++) {
        if (tty) fprintf(stderr, "\rmatrix: %d/%d %-40s", row + 1, t->nrows, t->rows[row].id);
        else fprintf(stderr, "matrix: %s (%d of %d designs)\n", t->rows[row].id, row + 1, t->nrows);
        for (int col = 0; col < t->ncols; col++) {
            int rc = run_cell(rn, row, col);
            if (rc != EXIT_OK) return rc;
            cells += t->rows[row].cell[col] != NULL;
        }
    }
    fprintf(stderr, "%smatrix: %d runs in %.2f s\n", tty ? "\r\033[K" : "", cells, cli_now_s() - t0);
    return EXIT_OK;
}

static void free_result(matrix_result *r)
{
    for (int i = 0; r->cells && i < r->t->nrows * r->t->ncols; i++) {
        free(r->cells[i].v);
        free(r->cells[i].expect);
        free(r->cells[i].page);
        free(r->cells[i].touched);
        free(r->cells[i].vacuous);
        for (int p = 0; r->cells[i].unseen && p < r->t->nprops; p++) free(r->cells[i].unseen[p]);
        free(r->cells[i].unseen);
    }
    free(r->cells);
    free(r->prop);
    free(r->exercised);
}

/* The outputs asked for; EXIT_OK or the first failure's code (each said). */
static int outputs(const matrix_result *res, const matrix_args *a)
{
    int code = EXIT_OK;
    buf b;
    buf_init(&b);
    if (a->csv) {
        matrix_csv(res, &b);
        if (cli_write_buf("matrix", a->csv, &b) != EXIT_OK) code = EXIT_INTERNAL;
    }
    if (a->html) {
        buf_reset(&b);
        matrix_html(res, &b);
        if (cli_write_buf("matrix", a->html, &b) != EXIT_OK) code = EXIT_INTERNAL;
    }
    if (a->plot) {
        buf err;
        buf_init(&err);
        if (matrix_plot(res, a->plot, &err) != 0) {
            cli_error("matrix: %s", err.p);
            if (code == EXIT_OK) code = EXIT_INTERNAL;
        }
        buf_release(&err);
    }
    if (a->png) {
        buf err;
        buf_init(&err);
        if (render_png(res, a->png, &err) != 0) {
            cli_error("matrix: %s", err.p);
            if (code == EXIT_OK) code = EXIT_INTERNAL;
        }
        buf_release(&err);
    }
    if (!a->quiet) {
        buf_reset(&b);
        matrix_text(res, &b);
        fwrite(b.p, 1, b.len, stdout);
    }
    buf_release(&b);
    return code;
}

int cli_matrix(int argc, char **argv)
{
    matrix_args a;
    int parsed = parse_args(argc, argv, &a);
    if (parsed != EXIT_OK) return parsed < 0 ? EXIT_OK : parsed;
    buf def, err;
    buf_init(&def);
    buf_init(&err);
    if (!a.table) buf_printf(&def, "%s/scenarios/matrix/table.lua", ll_data_dir());
    matrix_table *t = matrix_table_load(a.table ? a.table : def.p, &err);
    if (!t) {
        cli_error("matrix: %s", err.p);
        buf_release(&def);
        buf_release(&err);
        return EXIT_USAGE;
    }
    if (!a.table) { /* the data directory's table: its cells are replayed by the library's names */
        free(t->shown_path);
        free(t->shown_dir);
        t->shown_path = xstrdup("matrix/table.lua");
        t->shown_dir = xstrdup("matrix");
    }
    matrix_result res = { .t = t, .prop = xcalloc((size_t)t->nprops, sizeof *res.prop),
                          .exercised = xcalloc((size_t)t->ncols, sizeof *res.exercised) };
    int code = resolve_props(t, res.prop);
    if (code == EXIT_OK) code = resolve_exercised(t, res.exercised);
    char *pages = NULL, *pages_rel = NULL;
    if (code == EXIT_OK && a.html) {
        pages = runs_dir(a.html);
        const char *slash = strrchr(pages, '/');
        pages_rel = xstrdup(slash ? slash + 1 : pages);
        if (mkdir(pages, 0777) != 0 && errno != EEXIST) {
            cli_error("matrix: cannot make the folder '%s' for the runs' pages: %s", pages, strerror(errno));
            code = EXIT_INTERNAL;
        }
    }
    if (code == EXIT_OK) {
        res.cells = xcalloc((size_t)(t->nrows * t->ncols), sizeof *res.cells);
        runner rn = { .t = t, .res = &res, .chunks = chunkcache_new(), .pages = pages, .pages_rel = pages_rel };
        code = run_all(&rn);
        chunkcache_free(rn.chunks);
    }
    if (code == EXIT_OK) {
        code = outputs(&res, &a);
        if (code == EXIT_OK && (matrix_unmet_total(&res) || matrix_hollow_total(&res))) code = EXIT_VIOLATION;
    }
    free_result(&res);
    free(pages);
    free(pages_rel);
    matrix_table_free(t);
    buf_release(&def);
    buf_release(&err);
    return code;
}
