/* main.c — the locklab command line: a table of subcommands (as git.c has), usage, the
 * version, `locklab help CMD` (CMD --help, as git help does), and the exit-code contract
 * (cli.h). The usage's lists of server kinds, faults and properties are read from their
 * tables (sim/kinds.c, history.h's FAULT_KINDS, property_names), never written out here;
 * tests/cli/test_cli.sh holds the README's and the playground's lists against them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "cli.h"
#include "history.h"
#include "kinds.h"

typedef struct subcommand {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    { "run", cli_run, "run a scenario once, narrate it, and judge it" },
    { "check", cli_check, "model-check a scenario: search its faults and schedules for a violation" },
    { "sweep", cli_sweep, "violation rate of each property against one parameter, with a plot" },
    { "list", cli_list, "the built-in scenarios, one line each" },
    { "matrix", cli_matrix, "every lock design under the standard faults, beside what its source claims" },
    { "compare", cli_compare, "one scenario under two script versions or option sets: where they part" },
    { "redis", cli_redis, "a fake Redis 7.0 at the keyboard; --check replays a transcript" },
    { "kind", cli_kind, "one server of any kind (the server kinds below) by hand" },
    { "serve", cli_serve, "fake Redis nodes on TCP ports, for redis-cli and client libraries" },
    { "scripts", cli_scripts, "the library of real lock scripts: list, show, body, sha" },
};

/* A list of names under a heading, wrapped at 80 columns, each further line indented. */
static void put_list(FILE *f, const char *heading, const char *const *names, int n)
{
    int col = fprintf(f, "%s", heading);
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(names[i]) + (i + 1 < n ? 1 : 0);
        if (col + 1 + len > 80) col = fprintf(f, "\n%*s", (int)strlen(heading), "") - 1;
        col += fprintf(f, " %s%s", names[i], i + 1 < n ? "," : "");
    }
    fputc('\n', f);
}

static void usage(FILE *f)
{
    /* the server kinds by the first word of their titles: "ZooKeeper", "etcd", ... */
    fputs("usage: locklab <command> [options] [args]\n"
          "\n"
          "locklab simulates and model-checks distributed lock protocols: Redis and its client\n"
          "libraries, beside",
          f);
    int nkinds = 0;
    while (server_kind_at(nkinds)) nkinds++;
    int col = 18;
    for (int i = 1; i < nkinds; i++) {
        const char *t = server_kind_at(i)->title;
        int len = (int)strcspn(t, " ");
        const char *sep = i == 1 ? "" : i + 1 < nkinds ? "," : " and";
        if (col + (int)strlen(sep) + 1 + len + 1 > 88) {
            fprintf(f, "%s\n%.*s", sep, len, t);
            col = len;
        } else {
            col += fprintf(f, "%s %.*s", sep, len, t);
        }
    }
    fputs(".\n\ncommands:\n", f);
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fputc('\n', f);
    const char *kinds[64];
    for (int i = 0; i < nkinds && i < 64; i++) kinds[i] = server_kind_at(i)->name;
    put_list(f, "server kinds:", kinds, nkinds < 64 ? nkinds : 64);
    put_list(f, "faults:      ", fault_kind_names, FAULT_KIND_COUNT);
    put_list(f, "properties:  ", property_names, PROP_COUNT);
    fputs("\n'locklab <command> --help' or 'locklab help <command>' tells more about a command;\n"
          "'locklab --version' prints the version.\n"
          "exit codes: 0 ok, 1 violation or mismatch, 2 bad input or usage, 3 internal or I/O error,\n"
          "            4 check: none found but not proven, 130 interrupted (Ctrl-C)\n",
          f);
}

/* Output that could not be written (a full disk, a closed pipe) is an I/O error, whatever
 * the command concluded: a caller reading a verdict from a truncated output must not see
 * success. Returns rc, or EXIT_INTERNAL after saying why. */
static int finish_output(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    if (rc == EXIT_INTERNAL) return rc; /* the command has said what went wrong already */
    cli_error("cannot write the output: %s", strerror(errno ? errno : EIO));
    return EXIT_INTERNAL;
}

static const subcommand *find(const char *name)
{
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (!strcmp(name, subcommands[i].name)) return &subcommands[i];
    return NULL;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("locklab %s\nfake Redis with the semantics of Redis 7.0.15; %s\n", LOCKLAB_VERSION, LUA_RELEASE);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "help") && argc > 2) { /* locklab help CMD = locklab CMD --help */
        const subcommand *c = find(argv[2]);
        if (!c || argc > 3) {
            if (c) cli_error("help: one command at a time ('%s' is extra); try 'locklab help %s'", argv[3], argv[2]);
            else cli_error("help: unknown command '%s'; try 'locklab --help'", argv[2]);
            return EXIT_USAGE;
        }
        static char help[] = "--help";
        char *args[] = { argv[2], help, NULL };
        return c->fn(2, args);
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    const subcommand *c = find(argv[1]);
    if (c) return c->fn(argc - 1, argv + 1);
    const char *names[sizeof subcommands / sizeof subcommands[0]];
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++) names[i] = subcommands[i].name;
    const char *near = ll_nearest(argv[1], names, sizeof names / sizeof names[0]);
    /* a word too short for an edit distance to mean much ("rn"): the one command that starts
     * with its first letter and holds its letters in order */
    for (size_t i = 0, found = 0; !near && strlen(argv[1]) == 2 && i < sizeof names / sizeof names[0]; i++) {
        const char *n = names[i], *p = argv[1];
        if (*n != *p) continue;
        for (; *n && *p; n++) p += *n == *p;
        if (!*p && found++ == 0) near = names[i];
        else if (!*p) { near = NULL; break; }
    }
    if (near) cli_error("unknown command '%s'; did you mean '%s'? (try 'locklab --help')", argv[1], near);
    else cli_error("unknown command '%s'; try 'locklab --help'", argv[1]);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    return finish_output(dispatch(argc, argv));
}
