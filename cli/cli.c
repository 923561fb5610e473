/* cli.c — the helpers every subcommand shares (see cli.h): finding and loading a scenario,
 * reading a whole number, and saying what went wrong in locklab's one-line form. It uses the
 * engine's loaders (sim/) and nothing of cli/ but its own header, so each subcommand depends
 * on it and it on none of them. Subcommands parse their options with getopt_long (GNU: options
 * and arguments in any order, -qv, --seed=7, unambiguous abbreviations); getopt's own messages
 * are off and cli_getopt_error says what went wrong in locklab's form. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "scenario.h"
#include "scriptlib.h"
#include "timeline.h"

/* One line on stderr, whatever the message holds: its control characters (a model's error
 * text, a file name) are shown as \xHH (ll_escape_controls); keep lets some through. */
static void cli_error_keep(const char *keep, const char *fmt, va_list ap)
{
    buf b;
    buf_init(&b);
    buf_puts(&b, "locklab: ");
    char *text = xvformat(fmt, ap);
    buf_puts(&b, text);
    free(text);
    ll_escape_controls(&b, 0, keep);
    buf_putc(&b, '\n');
    fwrite(b.p, 1, b.len, stderr);
    buf_release(&b);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_error_keep(NULL, fmt, ap);
    va_end(ap);
}

static void cli_error_lines(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_error_keep("\n\t", fmt, ap);
    va_end(ap);
}

int cli_write_buf(const char *cmd, const char *path, const buf *b)
{
    buf err;
    buf_init(&err);
    int rc = ll_write_file(path, b->p, b->len, &err);
    if (rc) cli_error("%s%s%s", cmd ? cmd : "", cmd ? ": " : "", err.p);
    buf_release(&err);
    return rc ? EXIT_INTERNAL : EXIT_OK;
}

double cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

const char *cli_data_dir_shown(void)
{
    static char shown[4096];
    const char *dir = ll_data_dir();
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return dir;
    size_t n = strlen(cwd);
    if (!strcmp(dir, cwd)) return ".";
    if (!strncmp(dir, cwd, n) && dir[n] == '/' && n > 1) {
        snprintf(shown, sizeof shown, "%s", dir + n + 1);
        return shown;
    }
    return dir;
}

int cli_tty_width(FILE *f)
{
    if (!isatty(fileno(f))) return 0;
    int w = termline_width();
    return w >= 40 ? w : 40;
}

int cli_colour(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    return isatty(fileno(f)) && !(no && *no);
}

/* columns a UTF-8 text takes (continuation bytes take none) */
static int cols_of(const char *p, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)p[i] & 0xC0) != 0x80;
    return c;
}

void cli_wrap(FILE *f, const char *indent, const char *text, int width)
{
    int lead = cols_of(indent, strlen(indent)), col = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        size_t n = strcspn(p, " ");
        int w = cols_of(p, n);
        if (col && col + 1 + w > width) {
            fputc('\n', f);
            col = 0;
        }
        if (!col) {
            fputs(indent, f);
            col = lead;
        } else {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, n, f);
        col += w;
        p += n;
    }
    fputc('\n', f);
}

static int cli_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A scenario named that is not there, in one line: the built-in scenarios whose names it starts
 * (gc-pause: gc-pause-single, gc-pause-fencing, ...), else the nearest name, else how to write
 * one's own. */
void cli_no_scenario(const char *cmd, const char *arg)
{
    buf dir, starts;
    buf_init(&dir);
    buf_init(&starts);
    buf_printf(&dir, "%s/scenarios", ll_data_dir());
    char base[256];
    snprintf(base, sizeof base, "%s", strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg);
    size_t blen = strlen(base);
    if (blen > 4 && !strcmp(base + blen - 4, ".lua")) base[blen -= 4] = '\0';
    enum { MAX_NAMES = 1024 };
    char *names[MAX_NAMES];
    size_t n = 0, nstart = 0;
    DIR *d = opendir(dir.p);
    for (struct dirent *de; d && (de = readdir(d)) != NULL && n < MAX_NAMES;) {
        size_t len = strlen(de->d_name);
        if (len > 4 && !strcmp(de->d_name + len - 4, ".lua")) names[n++] = xmemdup(de->d_name, len - 4);
    }
    if (d) closedir(d);
    qsort(names, n, sizeof names[0], cli_cmp_str);
    for (size_t i = 0; i < n; i++)
        if (blen && !strncmp(names[i], base, blen) && nstart < 6)
            buf_printf(&starts, "%s%s", nstart++ ? ", " : "", names[i]);
    const char *near = nstart ? NULL : ll_nearest(base, (const char *const *)names, n);
    if (nstart) cli_error("%s: no scenario file or built-in scenario named '%s'; did you mean %s? (try 'locklab list')", cmd,
                          arg, starts.p);
    else if (near) cli_error("%s: no scenario file or built-in scenario named '%s'; did you mean '%s'? (try 'locklab list')",
                             cmd, arg, near);
    else cli_error("%s: no scenario file or built-in scenario named '%s' (try 'locklab list'; to write your own, start "
                   "from a copy of scenarios/gc-pause-single.lua)", cmd, arg);
    for (size_t i = 0; i < n; i++) free(names[i]);
    buf_release(&dir);
    buf_release(&starts);
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
        cli_no_scenario(cmd, arg);
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
        cli_error_lines("%s", text); /* --verbose: the traceback's lines */
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

/* What was wrong with the option getopt_long just refused (c = '?' or ':'), in one line.
 * in_cluster: the error is inside a group of short options (-qx...), which getopt has not
 * stepped past; else argv[optind - 1] is the word it refused. */
static void getopt_complaint(const char *cmd, int c, int in_cluster, char **argv, const struct option *opts)
{
    const char *arg = in_cluster ? "" : argv[optind - 1];
    char shortopt[3] = { '-', (char)optopt, 0 };
    if (strncmp(arg, "--", 2) != 0) arg = shortopt;
    int len = (int)strcspn(arg, "=");
    if (c == ':') {
        cli_error("%s: %.*s needs a value; try 'locklab %s --help'", cmd, len, arg, cmd);
        return;
    }
    if (arg == shortopt) {
        cli_error("%s: unknown option '%s'; try 'locklab %s --help'", cmd, arg, cmd);
        return;
    }
    /* the long options the word could abbreviate */
    buf names;
    buf_init(&names);
    int n = 0, exact = 0;
    for (int i = 0; opts[i].name; i++) {
        if (strncmp(opts[i].name, arg + 2, (size_t)len - 2) != 0) continue;
        exact |= (int)strlen(opts[i].name) == len - 2;
        buf_printf(&names, "%s--%s", n++ ? ", " : "", opts[i].name);
    }
    if ((exact || n == 1) && arg[len] == '=')
        cli_error("%s: %.*s takes no value (in '%s'); try 'locklab %s --help'", cmd, len, arg, arg, cmd);
    else if (n > 1 && !exact)
        cli_error("%s: '%.*s' is ambiguous (%s); try 'locklab %s --help'", cmd, len, arg, names.p, cmd);
    else {
        /* a likely typo of one of them (--breif: --brief) */
        const char *all[128], *near = NULL;
        size_t n_all = 0;
        for (int i = 0; opts[i].name && n_all < sizeof all / sizeof all[0]; i++) all[n_all++] = opts[i].name;
        char word[80];
        snprintf(word, sizeof word, "%.*s", len - 2, arg + 2);
        if (len > 2) near = ll_nearest(word, all, n_all);
        if (near) cli_error("%s: unknown option '%.*s'; did you mean '--%s'? (try 'locklab %s --help')", cmd, len, arg, near, cmd);
        else cli_error("%s: unknown option '%.*s'; try 'locklab %s --help'", cmd, len, arg, cmd);
    }
    buf_release(&names);
}

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *opts)
{
    char spec[64];
    snprintf(spec, sizeof spec, ":%s", shortopts); /* ':' first: a missing value is ':', not '?' */
    opterr = 0;
    if (optind == 0) unsetenv("POSIXLY_CORRECT"); /* options after the arguments, as always */
    int before = optind ? optind : 1;
    int c = getopt_long(argc, argv, spec, opts, NULL);
    if (c != '?' && c != ':') return c;
    getopt_complaint(cmd, c, optind == before, argv, opts);
    return '?';
}
