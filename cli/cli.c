/* cli.c — the helpers every subcommand shares (see cli.h): finding and loading a scenario,
 * reading a whole number, and saying what went wrong in locklab's one-line form. It uses the
 * engine's loaders (sim/) and nothing of cli/ but its own header, so each subcommand depends
 * on it and it on none of them. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "scenario.h"
#include "scriptlib.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("locklab: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* A file path as given, or scenarios/<name>.lua in the data directory. */
char *cli_resolve_scenario(const char *arg)
{
    if (access(arg, R_OK) == 0) return xstrdup(arg);
    buf b;
    buf_init(&b);
    buf_printf(&b, "%s/scenarios/%s%s", ll_data_dir(), arg, strstr(arg, ".lua") ? "" : ".lua");
    if (access(b.p, R_OK) == 0) return buf_steal(&b);
    buf_release(&b);
    return NULL;
}

int cli_load_scenario(const char *cmd, const char *arg, struct scenario **out)
{
    *out = NULL;
    if (!arg) {
        cli_error("%s: which scenario? usage: locklab %s SCENARIO (try 'locklab list')", cmd, cmd);
        return EXIT_USAGE;
    }
    char *path = cli_resolve_scenario(arg);
    if (!path) {
        cli_error("%s: no scenario file or built-in scenario named '%s' (try 'locklab list')", cmd, arg);
        return EXIT_USAGE;
    }
    buf err;
    buf_init(&err);
    *out = scenario_load(path, &err);
    free(path);
    if (!*out) cli_error("%s", err.p);
    buf_release(&err);
    return *out ? EXIT_OK : EXIT_USAGE;
}

void cli_run_error(const char *text, int full)
{
    const char *nl = strchr(text, '\n');
    if (full || !nl) {
        cli_error("%s", text);
        return;
    }
    cli_error("%.*s (locklab run SCENARIO --verbose shows the Lua traceback)", (int)(nl - text), text);
}

int cli_parse_whole(const char *text, unsigned long long max, unsigned long long *out)
{
    if (!text || !isdigit((unsigned char)text[0])) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v > max) return -1;
    *out = v;
    return 0;
}
