/* run.c — `locklab run SCENARIO`: load a scenario, run its world once, narrate what happened,
 * judge it, and exit 0 when every expectation is met (1 when one is not). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "export.h"
#include "html.h"
#include "scenario.h"
#include "scriptlib.h"
#include "timeline.h"
#include "trace.h"
#include "world.h"

static void run_usage(FILE *f)
{
    fputs("usage: locklab run SCENARIO [options]\n"
          "\n"
          "Runs a scenario once and narrates it: every request, reply, expiry and fault, in\n"
          "true-time order, with each actor's own clock where it differs. Then judges the\n"
          "properties and compares them with the scenario's `expect` table.\n"
          "SCENARIO is a file, or the name of a built-in scenario (see 'locklab list').\n"
          "\n"
          "options:\n"
          "  --seed N         use seed N instead of the scenario's\n"
          "  --choices FILE   replay the decisions recorded in FILE (see --save-choices)\n"
          "  --save-choices FILE  write this run's decisions, to replay it exactly\n"
          "  --json FILE      write the history as JSONL (one event per line; docs/history.md)\n"
          "  --verdicts FILE  write the verdicts, their evidence and instants, and the\n"
          "                   expectations as JSON (docs/verdicts.md)\n"
          "  --export FORMAT FILE  write the history for another tool: knossos (Jepsen EDN,\n"
          "                   mutex model), porcupine (JSON operations) or shiviz (log with\n"
          "                   vector clocks); docs/export.md. May be given once per format.\n"
          "  -v, --verbose    also show every redis.call inside scripts and every key change\n"
          "  --brief          only the story: acquisitions, critical sections, writes, expiries, faults\n"
          "  -q, --quiet      no trace and no terminal timeline, only the verdicts\n"
          "  --plot FILE      draw the timeline with gnuplot: FILE.png or FILE.svg\n"
          "  --spacetime FILE write the space-time (Lamport) diagram as SVG\n"
          "  --html FILE      write a page to step through the run (one file, opens offline):\n"
          "                   a time cursor with play, steps and jumps to faults and\n"
          "                   violations; each node's keys and TTLs, what each client\n"
          "                   believes, messages in flight, clocks, the scripts' redis.calls;\n"
          "                   the lesson and the verdicts with their evidence\n"
          "  --html-static FILE  the printable page: the lesson, the verdicts, both pictures\n"
          "                   and the narrated trace (needs gnuplot)\n"
          "  --rename OLD=NEW run with the actor OLD (a node or a client) called NEW\n"
          "                   everywhere the scenario names it; a run and its verdicts\n"
          "                   never depend on names (repeatable)\n"
          "  -h, --help       this text\n"
          "Short options combine (-qv); a value may follow '=' (--seed=7).\n"
          "\n"
          "exit: 0 expectations met, 1 a property violated or an expectation not met,\n"
          "      2 bad input, 3 internal or I/O error\n",
          f);
}

/* Far beyond any value a run records (indices, µs delays, the models' ctx:random draws),
 * and small enough that a replayed delay added to the clock cannot overflow it: the chooser
 * replays an exponential delay's value as written (sim/chooser.c), unchecked. */
#define CHOICE_VALUE_MAX ((int64_t)1 << 62)

/* The largest choice file read: a run of ten million events makes fewer decisions. */
#define CHOICES_MAX ((size_t)512 << 20)

/* A replay is faithful when every decision the run made is the one the file holds: the same
 * label, and the value the file says (the chooser clamps a value that does not fit the
 * decision, silently). A list saved from another scenario, or edited, fails this. 0, or -1
 * after saying where the list and the run part. */
static int check_replay(const char *file, const choice *want, const choice_where *src, size_t nwant, const chooser *ch)
{
    size_t nrec;
    const choice *rec = chooser_record(ch, &nrec);
    for (size_t i = 0; i < nrec && i < nwant; i++) {
        const char *what = rec[i].what ? rec[i].what : "";
        if (src[i].len && (strlen(what) != src[i].len || memcmp(what, src[i].label, src[i].len) != 0)) {
            cli_error("run: %s:%d: the choice list does not fit this scenario: decision %zu is '%.*s' in the "
                      "file but '%s' in this run (was the list saved from another scenario?)",
                      file, src[i].line, i + 1, (int)(src[i].len > 40 ? 40 : src[i].len), src[i].label, what);
            return -1;
        }
        if (rec[i].real != want[i].value) {
            cli_error("run: %s:%d: the choice list does not fit this scenario: decision %zu (%s) is %lld in the "
                      "file, which this run cannot take (it took %lld)",
                      file, src[i].line, i + 1, what, (long long)want[i].value, (long long)rec[i].real);
            return -1;
        }
    }
    if (nwant > nrec)
        fprintf(stderr, "locklab: note: the run made %zu decisions; the last %zu in %s were not used\n", nrec,
                nwant - nrec, file);
    return 0;
}

static const char *verdict_word(verdict v)
{
    return v == VERDICT_HOLDS ? "holds" : v == VERDICT_VIOLATED ? "VIOLATED" : "not judged";
}

/* A verdict's word, padded to pad columns; at a terminal VIOLATED in red, holds in green. */
static void verdict_out(FILE *out, verdict v, int colour, int pad)
{
    const char *w = verdict_word(v);
    const char *on = !colour ? "" : v == VERDICT_VIOLATED ? "\033[1;31m" : v == VERDICT_HOLDS ? "\033[32m" : "";
    fprintf(out, "%s%s%s", on, w, *on ? "\033[0m" : "");
    for (int k = (int)strlen(w); k < pad; k++) fputc(' ', out);
}

/* Prints the verdict table and returns the number of unmet expectations. */
static int report(const scenario *sc, const check_result *cr, FILE *out)
{
    int unmet = 0, width = cli_tty_width(out), colour = cli_colour(out);
    fprintf(out, "\nverdicts for \"%s\":\n", sc->name);
    for (int p = 0; p < PROP_COUNT; p++) {
        const prop_result *r = &cr->p[p];
        const expect_cfg *ex = check_expectation(sc, (property)p);
        if (r->v == VERDICT_NOT_JUDGED && !ex) continue;
        const char *mark = "";
        if (ex) {
            int met = (r->v == VERDICT_VIOLATED) == ex->violated && r->v != VERDICT_NOT_JUDGED;
            mark = met ? "  ✓ as expected" : "  ✗ EXPECTED ";
            if (!met) unmet++;
            fprintf(out, "  %-17s ", property_name((property)p));
            verdict_out(out, r->v, colour, 10);
            fprintf(out, "%s%s\n", mark, met ? "" : (ex->violated ? "violated" : "holds"));
        } else {
            fprintf(out, "  %-17s ", property_name((property)p));
            verdict_out(out, r->v, colour, 0);
            fputc('\n', out);
        }
        /* at a terminal, the evidence wrapped at its width; elsewhere one line as always */
        if (r->evidence && width) cli_wrap(out, "      ", r->evidence, width);
        else if (r->evidence) fprintf(out, "      %s\n", r->evidence);
    }
    return unmet;
}

/* Writes the pictures asked for; returns EXIT_OK, or the exit code of the first failure
 * (each failure said in one line). */
static int pictures(const history *h, const scenario *sc, const check_result *cr, uint64_t seed, const char *plot,
                    const char *spacetime, const char *html, const char *html_static)
{
    int code = EXIT_OK;
    buf err;
    buf_init(&err);
    for (int i = 0; i < 4; i++) {
        int io = 0, rc = 0;
        buf_reset(&err);
        if (i == 0 && plot) rc = timeline_plot(h, sc, seed, plot, &err, &io);
        if (i == 1 && spacetime) rc = spacetime_write(h, sc, spacetime, &err, &io);
        if (i == 2 && html) rc = html_report(h, sc, cr, seed, html, &err, &io);
        if (i == 3 && html_static) rc = html_static_report(h, sc, cr, seed, html_static, &err, &io);
        if (rc == 0) continue;
        fflush(stdout);
        cli_error("run: %s", err.p ? err.p : "failed");
        if (code == EXIT_OK) code = io ? EXIT_INTERNAL : EXIT_USAGE;
    }
    buf_release(&err);
    return code;
}

/* The long options, a line each, with the letter or OPT_ code that parse_run_args's switch
 * takes. A new option: its OPT_ code, its line here, its case there, its field in run_args. */
enum { OPT_BRIEF = 256, OPT_SEED, OPT_CHOICES, OPT_SAVE_CHOICES, OPT_JSON, OPT_VERDICTS, OPT_EXPORT, OPT_PLOT,
       OPT_SPACETIME, OPT_HTML, OPT_HTML_STATIC, OPT_RENAME };
static const struct option run_options[] = {
    { "help", no_argument, NULL, 'h' },
    { "verbose", no_argument, NULL, 'v' },
    { "quiet", no_argument, NULL, 'q' },
    { "brief", no_argument, NULL, OPT_BRIEF },
    { "seed", required_argument, NULL, OPT_SEED },
    { "choices", required_argument, NULL, OPT_CHOICES },
    { "save-choices", required_argument, NULL, OPT_SAVE_CHOICES },
    { "json", required_argument, NULL, OPT_JSON },
    { "verdicts", required_argument, NULL, OPT_VERDICTS },
    { "export", required_argument, NULL, OPT_EXPORT },
    { "plot", required_argument, NULL, OPT_PLOT },
    { "spacetime", required_argument, NULL, OPT_SPACETIME },
    { "html", required_argument, NULL, OPT_HTML },
    { "html-static", required_argument, NULL, OPT_HTML_STATIC },
    { "rename", required_argument, NULL, OPT_RENAME },
    { NULL, 0, NULL, 0 },
};

/* What the command line asked for. */
#define RENAME_MAX 64

typedef struct run_args {
    const char *path, *choices, *save_choices, *json, *verdicts, *plot, *spacetime, *html, *html_static;
    const char *export_file[EXPORT_COUNT]; /* per format, NULL when not asked for */
    const char *rename[RENAME_MAX]; /* --rename OLD=NEW, in order */
    int nrename;
    int verbose, quiet, brief, have_seed;
    unsigned long long seed;
} run_args;

/* --export FORMAT FILE: the format is the option's value, the file the next argument. */
static int parse_export(run_args *ra, int argc, char **argv)
{
    int f = export_format_parse(optarg);
    if (f < 0) {
        cli_error("run: --export: unknown format '%s' (%s); try 'locklab run --help'", optarg, export_format_names());
        return -1;
    }
    if (optind >= argc) {
        cli_error("run: --export %s needs a file after the format (--export %s FILE)", optarg, optarg);
        return -1;
    }
    ra->export_file[f] = argv[optind++];
    return 0;
}

/* Parses the command line: EXIT_OK to run; -1 after printing the usage (exit 0); or
 * EXIT_USAGE after the one-line error. */
static int parse_run_args(int argc, char **argv, run_args *ra)
{
    memset(ra, 0, sizeof *ra);
    int c;
    optind = 0; /* a fresh scan (glibc) */
    while ((c = cli_getopt("run", argc, argv, "hvq", run_options)) != -1) {
        switch (c) {
        case 'h': run_usage(stdout); return -1;
        case 'v': ra->verbose = 1; break;
        case 'q': ra->quiet = 1; break;
        case OPT_BRIEF: ra->brief = 1; break;
        case OPT_SEED:
            if (cli_parse_whole(optarg, UINT64_MAX, &ra->seed) != 0) {
                cli_error("run: --seed takes a whole number ≥ 0, not '%s'", optarg);
                return EXIT_USAGE;
            }
            ra->have_seed = 1;
            break;
        case OPT_CHOICES: ra->choices = optarg; break;
        case OPT_SAVE_CHOICES: ra->save_choices = optarg; break;
        case OPT_JSON: ra->json = optarg; break;
        case OPT_VERDICTS: ra->verdicts = optarg; break;
        case OPT_EXPORT:
            if (parse_export(ra, argc, argv) != 0) return EXIT_USAGE;
            break;
        case OPT_PLOT: ra->plot = optarg; break;
        case OPT_SPACETIME: ra->spacetime = optarg; break;
        case OPT_HTML: ra->html = optarg; break;
        case OPT_HTML_STATIC: ra->html_static = optarg; break;
        case OPT_RENAME:
            if (!strchr(optarg, '=') || ra->nrename == RENAME_MAX) {
                cli_error("run: --rename takes OLD=NEW (at most %d times), not '%s'", RENAME_MAX, optarg);
                return EXIT_USAGE;
            }
            ra->rename[ra->nrename++] = optarg;
            break;
        default: return EXIT_USAGE; /* said */
        }
    }
    if (optind < argc) ra->path = argv[optind++];
    if (optind < argc) {
        cli_error("run: one scenario at a time ('%s' is extra)", argv[optind]);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Writes each --export asked for; EXIT_OK or EXIT_INTERNAL (said). */
static int exports(const history *h, const run_args *ra)
{
    int code = EXIT_OK;
    for (int f = 0; f < EXPORT_COUNT; f++) {
        if (!ra->export_file[f]) continue;
        buf b;
        buf_init(&b);
        export_render(h, (export_format)f, &b);
        if (cli_write_buf(NULL, ra->export_file[f], &b) != EXIT_OK) code = EXIT_INTERNAL;
        buf_release(&b);
    }
    return code;
}

/* Writes the --verdicts document; cr NULL when the run failed (error says why). */
static int write_verdicts(const char *path, const history *h, const scenario *sc, const check_result *cr,
                          uint64_t seed, const char *error)
{
    buf b;
    buf_init(&b);
    verdicts_render(h, sc, cr, seed, error, &b);
    int rc = cli_write_buf(NULL, path, &b);
    buf_release(&b);
    return rc;
}

int cli_run(int argc, char **argv)
{
    run_args ra;
    int parsed = parse_run_args(argc, argv, &ra);
    if (parsed != EXIT_OK) return parsed < 0 ? EXIT_OK : parsed;
    const char *path_arg = ra.path, *choices = ra.choices, *save_choices = ra.save_choices, *json = ra.json;
    const char *plot = ra.plot, *spacetime = ra.spacetime, *html = ra.html, *html_static = ra.html_static;
    int verbose = ra.verbose, quiet = ra.quiet, brief = ra.brief, have_seed = ra.have_seed;
    unsigned long long seed = ra.seed;
    if (plot && !timeline_path_ok(plot)) {
        cli_error("run: --plot '%s': the file name must end in .png or .svg", plot);
        return EXIT_USAGE;
    }
    scenario *sc;
    if (cli_load_scenario("run", path_arg, &sc) != EXIT_OK) return EXIT_USAGE;
    buf err;
    buf_init(&err);
    for (int i = 0; i < ra.nrename; i++) {
        const char *eq = strchr(ra.rename[i], '=');
        char *from = xmemdup(ra.rename[i], (size_t)(eq - ra.rename[i]));
        int bad = scenario_rename_actor(sc, from, eq + 1, &err);
        free(from);
        if (bad) {
            cli_error("run: %s", err.p);
            buf_release(&err);
            scenario_free(sc);
            return EXIT_USAGE;
        }
    }
    chooser *ch;
    choice *want = NULL;  /* the --choices list, kept to check the replay against */
    choice_where *src = NULL; /* where each stands in text (labels point into it) */
    size_t nwant = 0;
    buf text;
    buf_init(&text);
    if (choices) {
        int bad = 0, line = 0;
        int rd = ll_read_file(choices, CHOICES_MAX, &text);
        if (rd != LL_READ_OK) {
            if (rd == LL_READ_NOT_FILE) cli_error("run: cannot read '%s': not a regular file (a FIFO or a device)", choices);
            else if (rd == LL_READ_TOO_BIG) cli_error("run: '%s' is over %d MiB: not a choice list", choices, (int)(CHOICES_MAX >> 20));
            else cli_error("run: cannot read '%s': %s", choices, strerror(errno));
            bad = 1;
        } else if (text.len && strlen(text.p) != text.len) {
            cli_error("run: %s: a NUL byte: not a choice list (see --save-choices)", choices);
            bad = 1;
        } else if (chooser_parse_where(text.p ? text.p : "", &want, &src, &nwant, &err) != 0) {
            /* "line N: why" from the parser, as FILE:N: why */
            int at = 0;
            if (sscanf(err.p, "line %d: %n", &line, &at) == 1 && at > 0)
                cli_error("run: %s:%d: %s", choices, line, err.p + at);
            else cli_error("run: %s: %s", choices, err.p);
            bad = 1;
        }
        /* alternatives "*" mark an exponential draw, never negative */
        for (size_t i = 0; !bad && i < nwant; i++)
            if (want[i].value > CHOICE_VALUE_MAX || want[i].value < -CHOICE_VALUE_MAX ||
                (want[i].n == INT64_MAX && want[i].value < 0)) {
                cli_error("run: %s:%d: decision %zu is %lld, which no run records", choices, src[i].line, i + 1,
                          (long long)want[i].value);
                bad = 1;
            }
        if (bad) {
            buf_release(&text);
            buf_release(&err);
            free(want);
            free(src);
            scenario_free(sc);
            return EXIT_USAGE;
        }
        ch = chooser_new(CHOOSER_REPLAY, have_seed ? seed : sc->seed);
        chooser_set_script(ch, want, nwant);
    } else {
        ch = chooser_new(CHOOSER_RUN, have_seed ? seed : sc->seed);
    }
    /* the player page shows each script's redis.calls: record them (a --json then has them) */
    world_opts o = { .chooser = ch, .verbose = verbose || html };
    world *w = world_new(sc, &o, &err);
    if (!w) {
        cli_run_error(err.p, verbose);
        buf_release(&err);
        buf_release(&text);
        free(src);
        free(want);
        chooser_free(ch);
        scenario_free(sc);
        return EXIT_USAGE;
    }
    int rc = world_run(w, &err);
    if (rc == WORLD_TOO_LONG) { /* no story of ten million events: just why it stopped */
        cli_error("run: %s", err.p);
        buf_release(&err);
        buf_release(&text);
        free(src);
        free(want);
        world_free(w);
        chooser_free(ch);
        scenario_free(sc);
        return EXIT_USAGE;
    }
    const history *h = world_history(w);
    int exit_code = EXIT_OK;
    /* a replay that is not one is bad input: say so before showing a run nobody asked for */
    int unfaithful = choices && check_replay(choices, want, src, nwant, ch) != 0;
    buf_release(&text);
    free(src);
    free(want);
    if (unfaithful) {
        buf_release(&err);
        world_free(w);
        chooser_free(ch);
        scenario_free(sc);
        return EXIT_USAGE;
    }
    if (!quiet) {
        buf t;
        buf_init(&t);
        printf("== %s\n   seed %llu, protocol %s, scripts %s\n\n", sc->name, have_seed ? seed : (unsigned long long)sc->seed,
               sc->protocol, sc->scripts ? sc->scripts : "HEAD");
        trace_render_story(h, verbose ? TRACE_VERBOSE : brief ? TRACE_BRIEF : TRACE_NORMAL, sc->lock ? sc->lock : "lock", &t);
        buf_puts(&t, "\n");
        termline_render(h, sc, termline_width(), &t);
        fwrite(t.p ? t.p : "", 1, t.len, stdout);
        buf_release(&t);
    }
    if (json) {
        buf j;
        buf_init(&j);
        history_write_jsonl(h, &j);
        if (cli_write_buf(NULL, json, &j) != EXIT_OK) exit_code = EXIT_INTERNAL;
        buf_release(&j);
    }
    if (exports(h, &ra) != EXIT_OK) exit_code = EXIT_INTERNAL;
    if (save_choices) {
        buf c;
        buf_init(&c);
        chooser_write(ch, &c);
        if (cli_write_buf(NULL, save_choices, &c) != EXIT_OK) exit_code = EXIT_INTERNAL;
        buf_release(&c);
    }
    if (rc != 0) {
        fflush(stdout);
        cli_run_error(err.p, verbose);
        if (ra.verdicts && write_verdicts(ra.verdicts, h, sc, NULL, have_seed ? seed : sc->seed, err.p) != EXIT_OK)
            exit_code = EXIT_INTERNAL;
        else exit_code = EXIT_USAGE;
    } else {
        check_result cr;
        check_run(h, sc, &cr);
        int pic = pictures(h, sc, &cr, have_seed ? seed : sc->seed, plot, spacetime, html, html_static);
        if (pic != EXIT_OK) exit_code = pic;
        if (ra.verdicts && write_verdicts(ra.verdicts, h, sc, &cr, have_seed ? seed : sc->seed, NULL) != EXIT_OK)
            exit_code = EXIT_INTERNAL;
        int unmet = report(sc, &cr, stdout);
        int violated = 0;
        for (int p = 0; p < PROP_COUNT; p++) violated |= cr.p[p].v == VERDICT_VIOLATED;
        if (exit_code == EXIT_OK && (unmet || (sc->nexpects == 0 && violated))) exit_code = EXIT_VIOLATION;
        if (sc->nexpects) printf("\n%s\n", unmet ? "expectations NOT met" : "all expectations met");
        check_free(&cr);
    }
    if (chooser_exhausted(ch)) fprintf(stderr, "locklab: note: the choice list ran out; later decisions came from the seed\n");
    buf_release(&err);
    world_free(w);
    chooser_free(ch);
    scenario_free(sc);
    return exit_code;
}
