/* cli.h — the subcommands of the locklab binary and the helpers they share. Each subcommand
 * takes the arguments after its own name (argv[0] is the subcommand) and returns the process
 * exit code; main.c dispatches to them. The helpers below them live in cli.c, which needs
 * none of the subcommands: the files of cli/ depend on cli.c, never the other way round. */
#ifndef LOCKLAB_CLI_H
#define LOCKLAB_CLI_H

#include <stddef.h>

#include "util.h"

enum exit_code {
    EXIT_OK = 0,        /* all expectations met, or no violation when none are stated */
    EXIT_VIOLATION = 1, /* a property violated, an expectation not met, a transcript mismatch */
    EXIT_USAGE = 2,     /* bad input or usage */
    EXIT_INTERNAL = 3,  /* internal or I/O error */
    EXIT_UNPROVEN = 4   /* check: no violation found, but the bounded space was not all searched
                           (stopped by --time or --max-paths, random schedules, sampled values) */
};

int cli_redis(int argc, char **argv);    /* cli/redis.c */
int cli_kind(int argc, char **argv);     /* cli/kind.c */
int cli_serve(int argc, char **argv);    /* cli/serve.c */
int cli_scripts(int argc, char **argv);  /* cli/scripts.c */
int cli_run(int argc, char **argv);      /* cli/run.c */
int cli_list(int argc, char **argv);     /* cli/list.c */
int cli_compare(int argc, char **argv);  /* cli/compare.c */
int cli_check(int argc, char **argv);    /* cli/check.c */
int cli_sweep(int argc, char **argv);    /* cli/sweep.c */
int cli_matrix(int argc, char **argv);   /* cli/matrix.c */

struct scenario;
struct explore_result;
/* Writes the counter-example of r (cli/counterexample.c): base.lua, a scenario file that wraps
 * the original one with the faults pinned and the explore table removed; base.choices, its
 * decisions; base.txt, its narrated trace (base is the path without extension). 0, or -1 with
 * the reason in err (then none of the three is left). */
int cli_write_counterexample(const struct scenario *sc, const struct explore_result *r, const char *base, buf *err);

/* The .lua files (without the extension) of dir, sorted, NULL-terminated; caller frees each
 * and the array (cli/list.c). */
char **cli_scenario_files(const char *dir, size_t *n);

/* What `locklab --version` prints first. */
#define LOCKLAB_VERSION "0.1.0"

/* ---- helpers (cli.c) ---- */

/* A scenario file path as given, or scenarios/<name>.lua of the data directory; NULL if
 * neither exists. Caller frees. */
char *cli_resolve_scenario(const char *arg);
/* Says in one line that the scenario arg is not there, and what it could have meant. */
void cli_no_scenario(const char *cmd, const char *arg);
/* The data directory as output names it: relative to the current directory when it is in
 * it ("." when it is it), else as it is (audit L11: no checkout path in what is printed when
 * one runs locklab from its tree; the same bytes in the page, whose data are /locklab). */
const char *cli_data_dir_shown(void);
/* At a terminal (audit L6): f's width (COLUMNS, else the terminal's), else 0: a file or a pipe
 * gets the bytes it always got (the tests and the page compare them). */
int cli_tty_width(FILE *f);
/* f is a terminal and NO_COLOR (no-color.org) is not set: verdicts may be coloured. */
int cli_colour(FILE *f);
/* text to f, its words wrapped at width columns, each line after indent. */
void cli_wrap(FILE *f, const char *indent, const char *text, int width);

struct scenario;
/* Resolves and loads the scenario `arg` for subcommand `cmd`; on failure prints the one-line
 * error and returns EXIT_USAGE, else EXIT_OK with *out (free with scenario_free). */
int cli_load_scenario(const char *cmd, const char *arg, struct scenario **out);

/* A whole number from 0 to max written as plain decimal digits: 0 with *out set, or -1 for
 * anything else ("", "-1", " 5", "0x10", "1e3", too large); the caller says what it takes.
 * (strtoull alone takes " -1" as 2^64 - 1.) */
int cli_parse_whole(const char *text, unsigned long long max, unsigned long long *out);

struct option;
/* The next option of a subcommand's command line, as getopt_long returns it (GNU: options and
 * arguments in any order, -qv, --seed=7 or --seed 7, unambiguous abbreviations; "--" ends
 * the options), or -1 after the last: the arguments are then argv[optind..argc-1]. A word it
 * refuses (unknown, ambiguous, a value missing or not wanted) is said in one line, "locklab:
 * CMD: ...; try 'locklab CMD --help'", and '?' returned: exit EXIT_USAGE. shortopts as for
 * getopt ("hvq"), without a leading ':'. Set optind = 0 before the first call (a fresh scan). */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *opts);

/* Writes b to path whole or not at all (ll_write_file); EXIT_OK, or EXIT_INTERNAL after the
 * one-line error "locklab: CMD: cannot write 'path': why" (without "CMD: " when cmd is NULL). */
int cli_write_buf(const char *cmd, const char *path, const buf *b);

/* Seconds on the monotonic clock, for progress reports and their timings. */
double cli_now_s(void);

/* One-line error on stderr: "locklab: <message>". */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A failure of a run (a client model's error and its Lua traceback): its first line only,
 * saying how to see the rest, unless full (locklab run --verbose) asks for everything. */
void cli_run_error(const char *text, int full);

#endif
