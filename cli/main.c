/* main.c — the locklab command line: a table of subcommands (as git.c has), usage, the
 * version, `locklab help CMD` (CMD --help, as git help does), and the exit-code contract
 * (cli.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <lua.h>

#include "cli.h"

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
    { "kind", cli_kind, "one server of any kind (redis, zookeeper, etcd, mysql, mongodb) by hand" },
    { "serve", cli_serve, "fake Redis nodes on TCP ports, for redis-cli and client libraries" },
    { "scripts", cli_scripts, "the library of real lock scripts: list, show, body, sha" },
};

static void usage(FILE *f)
{
    fputs("usage: locklab <command> [options] [args]\n"
          "\n"
          "locklab simulates and model-checks distributed lock protocols: Redis and its client\n"
          "libraries, beside ZooKeeper, etcd, MySQL and MongoDB.\n"
          "\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fputs("\n'locklab <command> --help' or 'locklab help <command>' tells more about a command;\n"
          "'locklab --version' prints the version.\n"
          "exit codes: 0 ok, 1 violation or mismatch, 2 bad input or usage, 3 internal or I/O error\n",
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
    cli_error("unknown command '%s'; try 'locklab --help'", argv[1]);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    return finish_output(dispatch(argc, argv));
}
