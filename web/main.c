/* web/main.c — the playground's entry point: the locklab command line as a function the page
 * calls, compiled to WebAssembly with the very sources of the native binary (web/web.mk).
 *
 * web_command(ARGS) runs one command, ARGS being its words separated by newlines ("run\n
 * scenarios/gc-pause-single.lua\n-q\n--verdicts\n/w/v.json"), and returns its exit code
 * (cli.h). What it prints goes to the page's stdout and stderr callbacks; the files it writes
 * (--verdicts, --json, --html, a check's counter-example) are read back from the in-memory
 * file system. The data (lua/, scenarios/, tests/check/) are embedded under /locklab, which is
 * the current directory and the data directory, so a library scenario's path is the one the
 * native binary prints when run from the top of the source tree.
 *
 * Only the commands that need no host are here: run, check, list, matrix, compare, scripts,
 * sweep. serve (sockets), redis (a terminal with libedit), --plot (gnuplot), check --jobs
 * above 1 (fork) are not part of this build: the first two are not compiled in at all, the
 * others say so in one line (LOCKLAB_NO_HOST). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
} command;

static const command commands[] = {
    { "run", cli_run },         { "check", cli_check },     { "list", cli_list },
    { "matrix", cli_matrix },   { "compare", cli_compare }, { "scripts", cli_scripts },
    { "sweep", cli_sweep },
};

#define WEB_ARGS_MAX 64

/* Where the embedded data lives: the current directory, and the data directory. */
#define WEB_HOME "/locklab"

static int web_ready(void)
{
    static int done;
    if (done) return 0;
    if (setenv("LOCKLAB_HOME", WEB_HOME, 1) != 0 || chdir(WEB_HOME) != 0) {
        cli_error("the playground's data are missing (%s: %s)", WEB_HOME, strerror(errno));
        return -1;
    }
    done = 1;
    return 0;
}

int web_command(const char *args);

EMSCRIPTEN_KEEPALIVE int web_command(const char *args)
{
    if (web_ready() != 0) return EXIT_INTERNAL;
    char *copy = strdup(args ? args : "");
    if (!copy) return EXIT_INTERNAL;
    char *argv[WEB_ARGS_MAX + 1];
    int argc = 0;
    for (char *p = copy, *word; (word = strsep(&p, "\n")) != NULL;) {
        if (argc == WEB_ARGS_MAX) {
            cli_error("more than %d words in one command", WEB_ARGS_MAX);
            free(copy);
            return EXIT_USAGE;
        }
        argv[argc++] = word;
    }
    argv[argc] = NULL;
    int rc = EXIT_USAGE;
    const command *c = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[0], commands[i].name)) c = &commands[i];
    if (c) rc = c->fn(argc, argv);
    else cli_error("'%s' is not part of the playground (run, check, list, matrix, compare, scripts, sweep are)", argv[0]);
    if (fflush(stdout) != 0 && rc != EXIT_INTERNAL) {
        cli_error("cannot write the output: %s", strerror(errno ? errno : EIO));
        rc = EXIT_INTERNAL;
    }
    fflush(stderr);
    free(copy);
    return rc;
}
