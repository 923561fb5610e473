/* connection_client.c — CLIENT, as redis-server 7.0.15 answers it (connection.c has the
 * other commands about a connection and the server):
 *   - CLIENT REPLY ON/OFF/SKIP (server_exec sends nothing but pub/sub's pushes while off).
 *   - CLIENT ID, GETNAME, SETNAME, INFO, LIST [TYPE t] [ID id ...], KILL (the address form and
 *     ID / ADDR / LADDR / TYPE / SKIPME filters), UNBLOCK (the host ends the wait: only it
 *     parks connections), NO-EVICT, HELP; others answer Redis's
 *     "unknown subcommand" (CLIENT SETINFO does so on Redis 7.0.15 itself: it is 7.2's).
 *     CLIENT LIST's memory fields are the connection's buffers where the host knows them,
 *     0 otherwise.
 * The host (server.h's server_host: locklab serve) supplies the connections, their addresses
 * and buffers, kills and unblocks them; without one (the REPL) there is one connection. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "pubsub.h"
#include "server.h"
#include "tracking.h"

/* ---- CLIENT ---- */

static const char *const client_help[] = {
    "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CACHING (YES|NO)",
    "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
    "GETREDIR",
    "    Return the client ID we are redirecting to when tracking is enabled.",
    "GETNAME",
    "    Return the name of the current connection.",
    "ID",
    "    Return the ID of the current connection.",
    "INFO",
    "    Return information about the current client connection.",
    "KILL <ip:port>",
    "    Kill connection made from <ip:port>.",
    "KILL <option> <value> [<option> <value> [...]]",
    "    Kill connections. Options are:",
    "    * ADDR (<ip:port>|<unixsocket>:0)",
    "      Kill connections made from the specified address",
    "    * LADDR (<ip:port>|<unixsocket>:0)",
    "      Kill connections made to specified local address",
    "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
    "      Kill connections by type.",
    "    * USER <username>",
    "      Kill connections authenticated by <username>.",
    "    * SKIPME (YES|NO)",
    "      Skip killing current connection (default: yes).",
    "LIST [options ...]",
    "    Return information about client connections. Options:",
    "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
    "      Return clients of specified type.",
    "UNPAUSE",
    "    Stop the current client pause, resuming traffic.",
    "PAUSE <timeout> [WRITE|ALL]",
    "    Suspend all, or just write, clients for <timeout> milliseconds.",
    "REPLY (ON|OFF|SKIP)",
    "    Control the replies sent to the current connection.",
    "SETNAME <name>",
    "    Assign the name <name> to the current connection.",
    "UNBLOCK <clientid> [TIMEOUT|ERROR]",
    "    Unblock the specified blocked client.",
    "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
    "         [OPTIN] [OPTOUT] [NOLOOP]",
    "    Control server assisted client side caching.",
    "TRACKINGINFO",
    "    Report tracking status for the current connection.",
    "NO-EVICT (ON|OFF)",
    "    Protect current client connection from eviction.",
    "HELP",
    "    Prints this help.",
};

/* Which connections a CLIENT LIST or KILL picks. */
typedef struct client_filter {
    cmdctx *c;
    const slice *ids;  /* ID id ...: any of them */
    int nids;
    int type;          /* -1 any, 0 normal, 1 pubsub, 2 none (master, replica) */
    slice addr, laddr;
    int skipme;
    int kill;          /* CLIENT KILL: kill the matches; else list them */
    size_t found;
    buf out;
} client_filter;

/* CLIENT LIST's line for one connection (Redis 7.0.15's fields, in its order). */
static void client_line(cmdctx *c, const conn *k, const conn_peer *p, buf *out)
{
    size_t nch, npat, nsh;
    pubsub_channels_of(c->ps, k->id, &nch);
    pubsub_patterns_of(c->ps, k->id, &npat);
    pubsub_shards_of(c->ps, k->id, &nsh);
    int multi = c->srv ? server_conn_multi(c->srv, k->id) : -1;
    const char *name = c->srv ? server_conn_name(c->srv, k->id) : "";
    char flags[12];
    int nf = 0;
    if (k->subscriptions > 0 || k->shard_subscriptions > 0) flags[nf++] = 'P';
    if (multi >= 0) flags[nf++] = 'x';
    if (k->blocked) flags[nf++] = 'b';
    char *fp = flags + nf;
    long long redir = c->srv ? tracking_client_flags(c->srv, k->id, &fp) : -1; /* t, R, B */
    nf = (int)(fp - flags);
    if (!nf) flags[nf++] = 'N';
    flags[nf] = '\0';
    buf_printf(out,
               "id=%d addr=%s laddr=%s fd=%d name=%s age=%lld idle=%lld flags=%s db=0 sub=%zu psub=%zu ssub=%zu "
               "multi=%d qbuf=%llu qbuf-free=0 argv-mem=0 multi-mem=0 rbs=0 rbp=0 obl=%llu oll=0 omem=%llu "
               "tot-mem=0 events=r cmd=%s user=default redir=%lld resp=%d\n",
               k->id, p->addr, p->laddr, p->fd, name, p->age, p->idle, flags, nch, npat, nsh, multi, p->qbuf, p->obl,
               p->obl, k->last_cmd ? k->last_cmd : "NULL", redir, k->resp == 3 ? 3 : 2);
}

static int client_matches(client_filter *f, const conn *k, const conn_peer *p)
{
    if (f->nids) {
        int any = 0;
        for (int i = 0; i < f->nids; i++) {
            long long id;
            if (ll_parse_int64(f->ids[i], &id) == 0 && id == k->id) any = 1;
        }
        if (!any) return 0;
    }
    int sub = k->subscriptions > 0 || k->shard_subscriptions > 0;
    if (f->type == 2 || (f->type == 1 && !sub) || (f->type == 0 && sub)) return 0;
    if (f->addr.p && !slice_eq(f->addr, slice_cstr(p->addr))) return 0;
    if (f->laddr.p && !slice_eq(f->laddr, slice_cstr(p->laddr))) return 0;
    if (f->kill && f->skipme && f->c->conn && k->id == f->c->conn->id) return 0;
    return 1;
}

static void client_visit(void *arg, const conn *k, const conn_peer *p)
{
    client_filter *f = arg;
    if (!client_matches(f, k, p)) return;
    f->found++;
    if (!f->kill) {
        client_line(f->c, k, p, &f->out);
        return;
    }
    const server_config *cfg = server_config_of(f->c->srv);
    if (cfg->host->kill) cfg->host->kill(cfg->host_ud, k->id);
}

/* Visits every connection, or only the caller's without a host. */
static void client_each(client_filter *f)
{
    cmdctx *c = f->c;
    const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
    if (cfg && cfg->host && cfg->host->each_conn) {
        cfg->host->each_conn(cfg->host_ud, client_visit, f);
    } else if (c->conn && !f->kill) {
        conn_peer p = { .addr = "127.0.0.1:0", .laddr = "127.0.0.1:6379", .fd = -1 };
        client_visit(f, c->conn, &p);
    }
}

static int client_type(slice t)
{
    if (slice_opt_is(t, "normal")) return 0;
    if (slice_opt_is(t, "pubsub")) return 1;
    if (slice_opt_is(t, "master") || slice_opt_is(t, "replica") || slice_opt_is(t, "slave")) return 2;
    return -2;
}

static void client_list(cmdctx *c, int info)
{
    client_filter f = { .c = c, .type = -1 };
    buf_init(&f.out);
    if (info) {
        if (c->argc != 2) {
            reply_sub_args(c, "client", "info");
            return;
        }
        f.ids = NULL;
    }
    for (int i = 2; i < c->argc; i++) {
        if (slice_opt_is(c->argv[i], "type") && i + 1 < c->argc) {
            if ((f.type = client_type(c->argv[++i])) == -2) {
                reply_errorf(c->out, "ERR Unknown client type '%.*s'", (int)(c->argv[i].len < 128 ? c->argv[i].len : 128),
                             c->argv[i].p);
                return;
            }
        } else if (slice_opt_is(c->argv[i], "id") && i + 1 < c->argc) {
            f.ids = &c->argv[i + 1];
            f.nids = c->argc - i - 1;
            for (int j = i + 1; j < c->argc; j++) {
                long long id;
                if (ll_parse_int64(c->argv[j], &id) < 0 || id <= 0) {
                    reply_error(c->out, "ERR Invalid client ID");
                    return;
                }
            }
            break;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    if (info) {
        char id[24];
        int n = snprintf(id, sizeof id, "%d", c->conn ? c->conn->id : 0);
        slice one = { id, (size_t)n };
        f.ids = &one;
        f.nids = 1;
        client_each(&f);
        f.ids = NULL;
    } else {
        client_each(&f);
    }
    reply_bulk(c->out, f.out.p ? f.out.p : "", f.out.len);
    buf_release(&f.out);
}

static void client_kill(cmdctx *c)
{
    client_filter f = { .c = c, .type = -1, .kill = 1, .skipme = 1 };
    buf_init(&f.out);
    int hosted = c->srv && server_config_of(c->srv)->host; /* else no other connection to kill */
    if (c->argc == 3) { /* the old form: an address; OK or an error */
        f.addr = c->argv[2];
        f.skipme = 0;
        if (hosted) client_each(&f);
        if (f.found) reply_ok(c->out);
        else reply_error(c->out, "ERR No such client");
        return;
    }
    if (c->argc % 2) {
        reply_error(c->out, ERR_SYNTAX);
        return;
    }
    for (int i = 2; i < c->argc; i += 2) {
        slice opt = c->argv[i], v = c->argv[i + 1];
        if (slice_opt_is(opt, "id")) {
            long long id;
            if (ll_parse_int64(v, &id) < 0 || id <= 0) {
                reply_error(c->out, "ERR client-id should be greater than 0");
                return;
            }
            f.ids = &c->argv[i + 1];
            f.nids = 1;
        } else if (slice_opt_is(opt, "type")) {
            if ((f.type = client_type(v)) == -2) {
                reply_errorf(c->out, "ERR Unknown client type '%.*s'", (int)(v.len < 128 ? v.len : 128), v.p);
                return;
            }
        } else if (slice_opt_is(opt, "addr")) {
            f.addr = v;
        } else if (slice_opt_is(opt, "laddr")) {
            f.laddr = v;
        } else if (slice_opt_is(opt, "user")) {
            /* serve's only user is Redis's default one, whom every connection is */
            if (!slice_eq(v, slice_cstr("default"))) {
                reply_errorf(c->out, "ERR No such user '%.*s'", (int)(v.len < 128 ? v.len : 128), v.p);
                return;
            }
        } else if (slice_opt_is(opt, "skipme")) {
            if (slice_opt_is(v, "yes")) f.skipme = 1;
            else if (slice_opt_is(v, "no")) f.skipme = 0;
            else {
                reply_error(c->out, ERR_SYNTAX);
                return;
            }
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
    }
    if (hosted) client_each(&f);
    reply_int(c->out, (long long)f.found);
}

/* CLIENT UNBLOCK id [TIMEOUT|ERROR] (Redis 7.0's clientCommand): 1 if connection id waited
 * in a blocking command — it then gets what its timeout gives (the null array; WAIT its
 * count), or the error UNBLOCKED — else 0. Only a host parks connections. */
static void client_unblock(cmdctx *c)
{
    int error = 0;
    if (c->argc == 4) {
        if (slice_opt_is(c->argv[3], "timeout")) {
            error = 0;
        } else if (slice_opt_is(c->argv[3], "error")) {
            error = 1;
        } else {
            reply_error(c->out, "ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
            return;
        }
    }
    long long id;
    if (ll_parse_int64(c->argv[2], &id) < 0) {
        reply_error(c->out, "ERR value is not an integer or out of range");
        return;
    }
    const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
    int done = 0;
    if (cfg && cfg->host && cfg->host->unblock && id > 0 && id <= INT_MAX)
        done = cfg->host->unblock(cfg->host_ud, (int)id, error);
    if (done && error) c->error_sent = "UNBLOCKED client unblocked via CLIENT UNBLOCK"; /* the text sent */
    reply_int(c->out, done);
}

void cmd_client(cmdctx *c)
{
    slice sub = c->argv[1];
    if (slice_opt_is(sub, "id") && c->argc == 2) {
        reply_int(c->out, c->conn ? c->conn->id : 0);
    } else if (slice_opt_is(sub, "getname") && c->argc == 2) {
        const char *name = c->srv && c->conn ? server_conn_name(c->srv, c->conn->id) : "";
        if (*name) reply_bulk_cstr(c->out, name);
        else reply_nil(c->out);
    } else if (slice_opt_is(sub, "setname") && c->argc == 3) {
        slice name = c->argv[2];
        for (size_t k = 0; k < name.len; k++)
            if (name.p[k] < '!' || name.p[k] > '~') {
                reply_error(c->out, "ERR Client names cannot contain spaces, newlines or special characters.");
                return;
            }
        if (c->srv && c->conn) server_conn_setname(c->srv, c->conn->id, name.p, name.len);
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "info")) {
        client_list(c, 1);
    } else if (slice_opt_is(sub, "list")) {
        client_list(c, 0);
    } else if (slice_opt_is(sub, "kill") && c->argc >= 3) {
        client_kill(c);
    } else if (slice_opt_is(sub, "unpause") && c->argc == 2) {
        const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
        if (cfg && cfg->host && cfg->host->pause) cfg->host->pause(cfg->host_ud, 0, 0);
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "pause") && (c->argc == 3 || c->argc == 4)) {
        int type = 2;
        if (c->argc == 4) {
            if (slice_opt_is(c->argv[3], "write")) type = 1;
            else if (slice_opt_is(c->argv[3], "all")) type = 2;
            else {
                reply_error(c->out, "ERR CLIENT PAUSE mode must be WRITE or ALL");
                return;
            }
        }
        long long ms;
        if (ll_parse_int64(c->argv[2], &ms) < 0) {
            reply_error(c->out, "ERR timeout is not an integer or out of range");
            return;
        }
        if (ms < 0) {
            reply_error(c->out, "ERR timeout is negative");
            return;
        }
        const server_config *cfg = c->srv ? server_config_of(c->srv) : NULL;
        if (!cfg || !cfg->host || !cfg->host->pause) { /* the REPL and the world: no one else to hold */
            reply_error(c->out, "ERR CLIENT PAUSE needs locklab serve (no other client to hold here)");
            return;
        }
        cfg->host->pause(cfg->host_ud, ms, type);
        reply_ok(c->out);
    } else if (slice_opt_is(sub, "reply") && c->argc == 3) {
        int on = slice_opt_is(c->argv[2], "on"), off = slice_opt_is(c->argv[2], "off");
        int skip = slice_opt_is(c->argv[2], "skip");
        if (!on && !off && !skip) {
            reply_error(c->out, ERR_SYNTAX);
            return;
        }
        if (c->conn) { /* Redis's clientCommand: ON clears SKIP too, so its +OK is sent */
            if (on) c->conn->reply_off = c->conn->reply_skip = 0;
            if (off) c->conn->reply_off = 1;
            if (skip && !c->conn->reply_off) c->conn->reply_skip_next = 1;
        }
        if (on) reply_ok(c->out);
        else reply_multi(c->out, 0); /* OFF and SKIP answer nothing */
    } else if (slice_opt_is(sub, "unblock") && c->argc >= 3) {
        if (c->argc <= 4) {
            client_unblock(c);
        } else { /* arity -3 lets it through to Redis's addReplySubcommandSyntaxError */
            slice s = slice_cstr_prefix(sub);
            reply_errorf(c->out, "ERR unknown subcommand or wrong number of arguments for '%.*s'. Try CLIENT HELP.",
                         (int)(s.len < 128 ? s.len : 128), s.p);
        }
    } else if (slice_opt_is(sub, "no-evict") && c->argc == 3) {
        if (slice_opt_is(c->argv[2], "on") || slice_opt_is(c->argv[2], "off")) reply_ok(c->out);
        else reply_error(c->out, ERR_SYNTAX);
    } else if (slice_opt_is(sub, "tracking") && c->argc >= 3) {
        tracking_cmd_tracking(c);
    } else if (slice_opt_is(sub, "caching") && c->argc >= 3) {
        tracking_cmd_caching(c);
    } else if (slice_opt_is(sub, "getredir") && c->argc == 2) {
        tracking_cmd_getredir(c);
    } else if (slice_opt_is(sub, "trackinginfo") && c->argc == 2) {
        tracking_cmd_trackinginfo(c);
    } else if (slice_opt_is(sub, "help") && c->argc == 2) {
        reply_lines(c, client_help, LL_ARRAY_LEN(client_help));
    } else {
        static const char *const known[] = { "id", "getname", "setname", "kill", "no-evict", "reply", "unblock", "help",
                                             "tracking", "caching", "getredir", "trackinginfo" };
        for (size_t i = 0; i < LL_ARRAY_LEN(known); i++)
            if (slice_opt_is(sub, known[i])) {
                reply_sub_args(c, "client", known[i]);
                return;
            }
        reply_unknown_sub(c, "CLIENT");
    }
}
