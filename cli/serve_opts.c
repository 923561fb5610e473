/* serve_opts.c — `locklab serve`'s command line: its --help and its options, read into
 * serve_options (serve.c runs the server they describe). */
#include "serveint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void serve_usage(FILE *f)
{
    fputs("usage: locklab serve [--port P] [--bind ADDR] [--nodes N] [--scenario FILE]\n"
          "                     [--clock wall|manual] [--json FILE] [options]\n"
          "\n"
          "Serves fake Redis 7.0 nodes over TCP, one port each (P, P+1, ...), speaking RESP2\n"
          "and inline commands: redis-cli, redis-py, node-redis, ioredis, Redisson... connect\n"
          "to them as to redis-server. Ctrl-C (SIGINT) or SIGTERM stops it.\n"
          "\n"
          "  --port P            the first node's port (default 6379; CONFIG SET port moves\n"
          "                      a node, until it restarts)\n"
          "  --bind ADDR         the address to listen on (default 127.0.0.1)\n"
          "  --nodes N           how many nodes, n1..nN (default 1, at most 64)\n"
          "  --replicas K        give each node K read-only replicas, nNr1..nNrK, on the\n"
          "                      ports after it (default 0, at most 4; LOCKLAB FAILOVER\n"
          "                      promotes one)\n"
          "  --scenario FILE     serve a scenario's world: its nodes (names, masters and\n"
          "                      replicas, persistence, clocks), network and replication\n"
          "                      (the lag, failover) and its timed faults on the nodes; its\n"
          "                      clients are left out (the connections are the clients)\n"
          "  --clock wall        the nodes' clocks follow the real one (the default)\n"
          "  --clock manual      time moves only on LOCKLAB ADVANCE; clocks start at\n"
          "                      1700000000000 ms, as in `locklab redis`\n"
          "  --persistence none|everysec|always\n"
          "                      what a node keeps over LOCKLAB CRASH and RESTART (default\n"
          "                      none: everything is lost; everysec: the last whole second)\n"
          "  --json FILE         write the history as JSON Lines (docs/history.md): every\n"
          "                      command with its reply (ev exec), connect, disconnect,\n"
          "                      protocol_error, and the world's events: key changes,\n"
          "                      faults, node_down, node_up, promoted, ...\n"
          "  --history-max N     records LOCKLAB HISTORY keeps in memory (default 100000, at\n"
          "                      most 1000000 and 64 MiB; 0: none, and without --json no\n"
          "                      record is made: a pipelined benchmark runs twice as fast)\n"
          "  --maxclients N      connections at most, over all nodes (default 10000)\n"
          "  --query-buffer-limit BYTES\n"
          "                      a connection's unread requests at most (default 1gb, Redis's\n"
          "                      client-query-buffer-limit, which CONFIG SET changes for a\n"
          "                      node); past it the connection closes\n"
          "  --output-buffer-limit BYTES\n"
          "                      a connection's unsent replies at most (default 256mb; Redis\n"
          "                      has no limit for normal clients); past it the connection closes\n"
          "  --requirepass PASS  clients must AUTH PASS (or HELLO ... AUTH default PASS) first,\n"
          "                      for every command, LOCKLAB ones included (Redis's requirepass)\n"
          "  --protected-mode yes|no\n"
          "                      yes (the default, as Redis): without --requirepass, a client\n"
          "                      from another host than this one is refused with Redis's\n"
          "                      DENIED message; give --requirepass with a non-loopback --bind\n"
          "  --enable-debug-command no|yes|local\n"
          "                      DEBUG (RELOAD, OBJECT, SLEEP, SET-ACTIVE-EXPIRE, DIGEST, ...,\n"
          "                      what Redis's own test suite uses): refused by default, as\n"
          "                      Redis refuses it; local: from loopback connections only\n"
          "BYTES: a number with an optional unit, as in redis.conf: 1k = 1000, 1kb = 1024,\n"
          "m, mb, g, gb.\n"
          "\n"
          "Control commands, on any node (LOCKLAB HELP lists them): LOCKLAB ADVANCE ms,\n"
          "LOCKLAB TIME, LOCKLAB CRASH node, LOCKLAB RESTART node, LOCKLAB JUMP node ms,\n"
          "LOCKLAB PARTITION node, LOCKLAB HEAL [node], LOCKLAB PAUSE-CLIENT id ms,\n"
          "LOCKLAB DROP id probability [ms], LOCKLAB FAILOVER node, LOCKLAB CLIENTS,\n"
          "LOCKLAB NODES, LOCKLAB HISTORY [count|RESET].\n"
          "\n"
          "Protocol errors are Redis 7.0's (\"ERR Protocol error: invalid bulk length\", ...),\n"
          "after which the connection closes. Prints one line when it listens on every port.\n"
          "Exit: 0 stopped by a signal, 2 bad usage, 3 a port cannot be opened or the --json\n"
          "file cannot be written (serve stops at once: the history is not lost silently).\n",
          f);
}

/* A size as redis.conf writes it (memtoull): digits and an optional unit. */
static int serve_parse_bytes(const char *text, unsigned long long *out)
{
    static const struct { const char *unit; unsigned long long mul; } units[] = {
        { "", 1 }, { "b", 1 }, { "k", 1000 }, { "kb", 1024 }, { "m", 1000000 }, { "mb", 1u << 20 },
        { "g", 1000000000 }, { "gb", 1u << 30 },
    };
    size_t digits = strspn(text, "0123456789");
    if (digits == 0 || digits > 15) return -1;
    for (size_t i = 0; i < LL_ARRAY_LEN(units); i++) {
        if (strcasecmp(text + digits, units[i].unit) != 0) continue;
        *out = strtoull(text, NULL, 10) * units[i].mul;
        return 0;
    }
    return -1;
}

static int serve_bad(const char *opt, const char *val, const char *want)
{
    cli_error("serve: %s '%s': %s (try 'locklab serve --help')", opt, val, want);
    return EXIT_USAGE;
}

static int serve_option(serve_options *o, const char *opt, const char *val)
{
    unsigned long long v;
    if (!strcmp(opt, "--port")) {
        if (cli_parse_whole(val, 65535, &v) < 0 || v == 0) return serve_bad(opt, val, "a port from 1 to 65535");
        o->port = (int)v;
    } else if (!strcmp(opt, "--bind")) {
        o->bind = val;
    } else if (!strcmp(opt, "--nodes")) {
        if (cli_parse_whole(val, 64, &v) < 0 || v == 0) return serve_bad(opt, val, "a number of nodes from 1 to 64");
        o->nnodes = (int)v;
    } else if (!strcmp(opt, "--replicas")) {
        if (cli_parse_whole(val, 4, &v) < 0) return serve_bad(opt, val, "a number of replicas from 0 to 4");
        o->replicas = (int)v;
    } else if (!strcmp(opt, "--scenario")) {
        o->scenario = val;
    } else if (!strcmp(opt, "--clock")) {
        if (strcmp(val, "wall") && strcmp(val, "manual")) return serve_bad(opt, val, "wall or manual");
        o->manual = !strcmp(val, "manual");
    } else if (!strcmp(opt, "--json")) {
        o->json = val;
    } else if (!strcmp(opt, "--persistence")) {
        if (!strcmp(val, "none")) o->persist = PERSIST_NONE;
        else if (!strcmp(val, "everysec")) o->persist = PERSIST_EVERYSEC;
        else if (!strcmp(val, "always")) o->persist = PERSIST_ALWAYS;
        else return serve_bad(opt, val, "none, everysec or always");
    } else if (!strcmp(opt, "--history-max")) {
        if (cli_parse_whole(val, 1000000, &v) < 0) return serve_bad(opt, val, "a number of records up to 1000000");
        o->history_max = (long long)v;
    } else if (!strcmp(opt, "--maxclients")) {
        if (cli_parse_whole(val, 1000000, &v) < 0 || v == 0) return serve_bad(opt, val, "a number from 1 to 1000000");
        o->maxclients = (long long)v;
    } else if (!strcmp(opt, "--requirepass")) {
        if (!*val) return serve_bad(opt, val, "a password that is not empty");
        o->requirepass = val;
    } else if (!strcmp(opt, "--protected-mode")) {
        if (strcmp(val, "yes") && strcmp(val, "no")) return serve_bad(opt, val, "yes or no");
        o->unprotected = !strcmp(val, "no");
    } else if (!strcmp(opt, "--enable-debug-command")) {
        if (strcmp(val, "yes") && strcmp(val, "no") && strcmp(val, "local")) return serve_bad(opt, val, "no, yes or local");
        o->debug_command = val;
    } else if (!strcmp(opt, "--query-buffer-limit") || !strcmp(opt, "--output-buffer-limit")) {
        if (serve_parse_bytes(val, &v) < 0 || v < 1024)
            return serve_bad(opt, val, "a size of at least 1024 bytes (1024, 64kb, 1mb, 1gb)");
        if (opt[2] == 'q') o->query_limit = v;
        else o->output_limit = v;
    } else {
        cli_error("serve: unknown option '%s' (try 'locklab serve --help')", opt);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int serve_parse(int argc, char **argv, serve_options *o)
{
    *o = (serve_options){ .bind = "127.0.0.1", .port = 6379, .nnodes = 0, .persist = -1,
                          .maxclients = 10000, .query_limit = 1ull << 30, .output_limit = 256ull << 20,
                          .history_max = 100000, .debug_command = "no" };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') {
            cli_error("serve: unexpected argument '%s' (try 'locklab serve --help')", a);
            return EXIT_USAGE;
        }
        const char *eq = strchr(a, '=');
        char opt[64];
        const char *val;
        if (eq && (size_t)(eq - a) < sizeof opt) {
            snprintf(opt, sizeof opt, "%.*s", (int)(eq - a), a);
            val = eq + 1;
        } else {
            snprintf(opt, sizeof opt, "%s", a);
            if (i + 1 >= argc) {
                cli_error("serve: %s needs a value (try 'locklab serve --help')", a);
                return EXIT_USAGE;
            }
            val = argv[++i];
        }
        int rc = serve_option(o, opt, val);
        if (rc != EXIT_OK) return rc;
    }
    if (o->scenario && o->replicas) {
        cli_error("serve: --replicas and --scenario both say which replicas there are; give one");
        return EXIT_USAGE;
    }
    if ((o->nnodes ? o->nnodes : 1) * (o->replicas + 1) > 64) {
        cli_error("serve: %d nodes with %d replicas each make more than 64 nodes", o->nnodes ? o->nnodes : 1,
                  o->replicas);
        return EXIT_USAGE;
    }
    if (o->scenario && o->nnodes) {
        cli_error("serve: --nodes and --scenario both say how many nodes; give one");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ---- the loop ---- */
