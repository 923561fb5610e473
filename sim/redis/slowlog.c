/* slowlog.c — SLOWLOG (Redis 7.0.15's slowlog.c), ROLE and LASTSAVE.
 *
 * The slow log: a command that took slowlog-log-slower-than µs or more (0: every command;
 * negative: none) is kept, newest first, at most slowlog-max-len of them: its id, the unix
 * time it ended, its duration, its arguments (at most 32: the last then says how many more;
 * each at most 128 bytes, then how many more), the client's address and name. Durations are
 * read on the host's elapsed-time clock (server_config's elapsed_us): real time in locklab
 * serve; none elsewhere, where a command takes no time (a simulated node's µs clock is not
 * read for it: that reading would tell the model checker the request depends on its µs). As in Redis, EXEC and the
 * commands flagged skip_slowlog are not logged (the commands of a transaction are), nor the
 * commands a script calls; a blocked command is logged when it is served. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "server.h"
#include "serverint.h"

#define SLOWLOG_ARGS 32
#define SLOWLOG_ARGLEN 128

struct slowentry {
    long long id, time, duration;
    char **argv;
    size_t *lens;
    int argc;
    char *addr, *name;
};

void slowlog_free(server *srv)
{
    for (size_t i = 0; i < srv->nslow; i++) {
        struct slowentry *e = &srv->slow[i];
        for (int j = 0; j < e->argc; j++) free(e->argv[j]);
        free(e->argv);
        free(e->lens);
        free(e->addr);
        free(e->name);
    }
    free(srv->slow);
    srv->slow = NULL;
    srv->nslow = srv->capslow = 0;
}

static void slowlog_trim(server *srv)
{
    long long max = srv->slowlog_max_len < 0 ? 0 : srv->slowlog_max_len;
    while ((long long)srv->nslow > max) { /* the oldest are at the end */
        struct slowentry *e = &srv->slow[--srv->nslow];
        for (int j = 0; j < e->argc; j++) free(e->argv[j]);
        free(e->argv);
        free(e->lens);
        free(e->addr);
        free(e->name);
    }
}

struct addr_find {
    int id;
    char *addr;
};

static void addr_visit(void *arg, const conn *c, const conn_peer *p)
{
    struct addr_find *f = arg;
    if (c->id == f->id && !f->addr) f->addr = xstrdup(p->addr);
}

void slowlog_push(server *srv, const conn *c, int argc, const slice *argv, long long duration)
{
    struct slowentry e = { .id = srv->slowlog_next_id++, .duration = duration };
    e.time = srv->cfg.clock ? srv->cfg.clock(srv->cfg.clock_ud) / 1000 : 0;
    e.argc = argc > SLOWLOG_ARGS ? SLOWLOG_ARGS : argc;
    e.argv = xcalloc((size_t)e.argc, sizeof *e.argv);
    e.lens = xcalloc((size_t)e.argc, sizeof *e.lens);
    for (int j = 0; j < e.argc; j++) {
        if (j == SLOWLOG_ARGS - 1 && argc > SLOWLOG_ARGS) {
            e.argv[j] = xformat("... (%d more arguments)", argc - SLOWLOG_ARGS + 1);
        } else if (argv[j].len > SLOWLOG_ARGLEN) {
            buf b;
            buf_init(&b);
            buf_append(&b, argv[j].p, SLOWLOG_ARGLEN);
            buf_printf(&b, "... (%zu more bytes)", argv[j].len - SLOWLOG_ARGLEN);
            e.argv[j] = xmemdup(b.p, b.len);
            e.lens[j] = b.len;
            buf_release(&b);
            continue;
        } else {
            e.argv[j] = xmemdup(argv[j].p, argv[j].len);
            e.lens[j] = argv[j].len;
            continue;
        }
        e.lens[j] = strlen(e.argv[j]);
    }
    struct addr_find f = { .id = c ? c->id : -1 };
    const server_host *h = srv->cfg.host;
    if (c && h && h->each_conn) h->each_conn(srv->cfg.host_ud, addr_visit, &f);
    e.addr = f.addr ? f.addr : xstrdup(c ? "127.0.0.1:0" : "");
    e.name = xstrdup(c ? server_conn_name(srv, c->id) : "");
    if (srv->nslow == srv->capslow) {
        srv->capslow = srv->capslow ? 2 * srv->capslow : 16;
        srv->slow = xrealloc(srv->slow, srv->capslow * sizeof *srv->slow);
    }
    memmove(srv->slow + 1, srv->slow, srv->nslow * sizeof *srv->slow);
    srv->slow[0] = e;
    srv->nslow++;
    slowlog_trim(srv);
}

void slowlog_configure(server *srv, const char *name, const char *value)
{
    long long v;
    if (ll_parse_int64(slice_cstr(value), &v) < 0) return;
    if (!strcmp(name, "slowlog-log-slower-than")) srv->slowlog_slower = v;
    if (!strcmp(name, "slowlog-max-len")) {
        srv->slowlog_max_len = v;
        slowlog_trim(srv);
    }
}

static const char *const slowlog_help[] = {
    "SLOWLOG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "GET [<count>]",
    "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
    "    Entries are made of:",
    "    id, timestamp, time in microseconds, arguments array, client IP and port,",
    "    client name",
    "LEN",
    "    Return the length of the slowlog.",
    "RESET",
    "    Reset the slowlog.",
    "HELP",
    "    Prints this help.",
};

void cmd_slowlog(cmdctx *c)
{
    slice sub = c->argv[1];
    server *srv = c->srv;
    if (slice_opt_is(sub, "help") && c->argc == 2) {
        reply_lines(c, slowlog_help, LL_ARRAY_LEN(slowlog_help));
    } else if (slice_opt_is(sub, "len") || slice_opt_is(sub, "reset")) {
        if (c->argc != 2) {
            reply_sub_args(c, "slowlog", slice_opt_is(sub, "len") ? "len" : "reset");
            return;
        }
        if (slice_opt_is(sub, "len")) {
            reply_int(c->out, srv ? (long long)srv->nslow : 0);
        } else {
            if (srv) slowlog_free(srv);
            reply_ok(c->out);
        }
    } else if (slice_opt_is(sub, "get")) {
        if (c->argc > 3) { /* slowlogCommand's own check */
            reply_error(c->out, "ERR unknown subcommand or wrong number of arguments for 'get'. Try SLOWLOG HELP.");
            return;
        }
        long long count = 10;
        if (c->argc == 3) {
            if (ll_parse_int64(c->argv[2], &count) < 0 || count < -1) {
                reply_error(c->out, "ERR count should be greater than or equal to -1");
                return;
            }
        }
        size_t n = srv ? srv->nslow : 0;
        if (count >= 0 && (size_t)count < n) n = (size_t)count;
        reply *r = reply_array(c->out, n);
        for (size_t i = 0; i < n; i++) {
            const struct slowentry *e = &srv->slow[i];
            reply *f = reply_array(&r[i], 6);
            reply_int(&f[0], e->id);
            reply_int(&f[1], e->time);
            reply_int(&f[2], e->duration);
            reply *a = reply_array(&f[3], (size_t)e->argc);
            for (int j = 0; j < e->argc; j++) reply_bulk(&a[j], e->argv[j], e->lens[j]);
            reply_bulk_cstr(&f[4], e->addr);
            reply_bulk_cstr(&f[5], e->name);
        }
    } else {
        reply_unknown_sub(c, "SLOWLOG");
    }
}

/* ROLE: a master with no replicas attached over the replication protocol (serve's replicas
 * are the simulated world's: INFO replication lists them), or a replica's line. */
void cmd_role(cmdctx *c)
{
    if (c->srv && server_is_replica(c->srv)) {
        reply *r = reply_array(c->out, 5);
        reply_bulk_cstr(&r[0], "slave");
        reply_bulk_cstr(&r[1], "127.0.0.1");
        reply_int(&r[2], 0);
        reply_bulk_cstr(&r[3], "connected");
        reply_int(&r[4], 0);
        return;
    }
    reply *r = reply_array(c->out, 3);
    reply_bulk_cstr(&r[0], "master");
    reply_int(&r[1], 0);
    reply_array(&r[2], 0);
}

/* LASTSAVE: the unix time of the last save; this server never saves (persistence is the
 * simulated world's), so, as Redis before its first save, the time it started. */
void cmd_lastsave(cmdctx *c)
{
    reply_int(c->out, c->srv ? server_started_s(c->srv) : 0);
}
