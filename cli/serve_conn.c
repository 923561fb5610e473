/* serve_conn.c — what a served node's server asks of `locklab serve` about its connections
 * (serveint.h), and the connections that wait in a blocking command.
 *
 * The host (sim/redis/server.h's server_host). INFO's fields that only the serve knows —
 * the process, the node's port and uptime, its connections and the blocked ones, what it
 * received, whether its persistence is an append-only file, and its replication (the
 * world's): a master's replicas and their offsets, or a replica's master and whether that
 * master is up. CLIENT LIST / INFO walk the node's connections oldest
 * first with their address, age and buffers; CLIENT KILL closes one once the reply to the
 * command running is written. CONFIG GET port / appendonly / appendfsync / maxclients /
 * client-query-buffer-limit answer the serve's options.
 *
 * Blocking (BLPOP, BRPOP and the other blocking pops). A command that found nothing to pop marks its connection blocked
 * (sim/redis/conn.h); the serve keeps a copy of it in the node's queue, oldest first, reads
 * nothing more from that connection, and after every command run on the node runs each
 * queued one again in that order, as Redis serves the clients blocked on a key in the order
 * they blocked: the first that now pops gets its reply, and the connection goes on with what
 * it sent meanwhile. A deadline is on the node's clock, as Redis's is on its own: with
 * --clock wall a timer fires when it should pass (the cron, 10 times a second, catches a
 * clock that jumped), with --clock manual LOCKLAB ADVANCE does; both answer the null array
 * to those past it. A crash closes blocked connections with the others. */
#include "serveint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/listener.h>

/* ---- the host ---- */

int serve_conns(const snode *n, int *blocked)
{
    int conns = 0;
    *blocked = 0;
    for (const sclient *c = n->clients; c; c = c->next)
        if (!c->dead) conns++, *blocked += c->conn.blocked || c->postponed;
    return conns;
}

static void host_info(void *ud, const char *section, buf *out)
{
    snode *n = ud;
    serve *sv = n->sv;
    if (!strcmp(section, "server")) {
        long long up = (long long)((serve_true_us(sv) - n->up_us) / 1000000);
        buf_printf(out, "process_id:%ld\r\ntcp_port:%d\r\nuptime_in_seconds:%lld\r\nuptime_in_days:%lld\r\n",
                   (long)getpid(), n->port, up, up / 86400);
    } else if (!strcmp(section, "clients")) {
        int blocked, conns = serve_conns(n, &blocked);
        buf_printf(out, "connected_clients:%d\r\nmaxclients:%lld\r\nblocked_clients:%d\r\n", conns,
                   sv->opt.maxclients, blocked);
    } else if (!strcmp(section, "persistence")) {
        buf_printf(out, "aof_enabled:%d\r\n", sv->wsc.nodes[n->widx].persist != PERSIST_NONE);
    } else if (!strcmp(section, "stats")) {
        buf_printf(out, "total_connections_received:%lld\r\ntotal_commands_processed:%lld\r\n", n->connections,
                   n->commands);
    } else if (!strcmp(section, "replication")) {
        int master = world_node_master(sv->w, n->widx);
        if (master >= 0) {
            const snode *m = serve_node_of(sv, master);
            buf_printf(out, "master_host:%s\r\nmaster_port:%d\r\nmaster_link_status:%s\r\n"
                            "master_sync_in_progress:0\r\nslave_repl_offset:%llu\r\nslave_read_only:1\r\n"
                            "connected_slaves:0\r\n",
                       sv->opt.bind, m->port, m->srv ? "up" : "down",
                       (unsigned long long)world_node_offset(sv->w, n->widx));
            return;
        }
        int k = 0;
        for (int i = 0; i < sv->nnodes; i++)
            k += world_node_master(sv->w, sv->nodes[i].widx) == n->widx && sv->nodes[i].srv;
        buf_printf(out, "connected_slaves:%d\r\n", k);
        k = 0;
        uint64_t off = world_node_offset(sv->w, n->widx);
        for (int i = 0; i < sv->nnodes; i++) {
            const snode *r = &sv->nodes[i];
            if (world_node_master(sv->w, r->widx) == n->widx && r->srv)
                buf_printf(out, "slave%d:ip=%s,port=%d,state=online,offset=%llu,lag=0\r\n", k++, sv->opt.bind, r->port,
                           (unsigned long long)world_node_offset(sv->w, r->widx));
        }
        buf_printf(out, "master_repl_offset:%llu\r\n", (unsigned long long)off);
    }
}

static void host_each_conn(void *ud, void (*fn)(void *arg, const conn *c, const conn_peer *p), void *arg)
{
    snode *n = ud;
    int64_t now = serve_true_us(n->sv);
    sclient *last = n->clients;
    while (last && last->next) last = last->next;
    char laddr[80];
    snprintf(laddr, sizeof laddr, strchr(n->sv->opt.bind, ':') ? "[%s]:%d" : "%s:%d", n->sv->opt.bind, n->port);
    for (sclient *c = last; c; c = c->prev) { /* the list is newest first */
        if (c->dead) continue;
        conn_peer p = { .addr = c->addr, .laddr = laddr, .fd = c->fd,
                        .age = (now - c->since_us) / 1000000, .idle = (now - c->last_us) / 1000000,
                        .qbuf = c->query.len, /* as Redis, which trims it after the commands it holds */
                        .obl = c->out.len - c->opos };
        fn(arg, &c->conn, &p);
    }
}

static void host_kill(void *ud, int conn_id)
{
    snode *n = ud;
    for (sclient *c = n->clients; c; c = c->next)
        if (c->conn.id == conn_id && !c->dead) {
            if (c == n->sv->current) c->closing = 1; /* itself: once its reply is written */
            else serve_client_kill(c, 0);
            return;
        }
}

static const char *host_config(void *ud, const char *name)
{
    snode *n = ud;
    static char text[32];
    if (!strcmp(name, "port")) return n->port_text;
    if (!strcmp(name, "bind")) return n->sv->opt.bind;
    if (!strcmp(name, "enable-debug-command")) return n->sv->opt.debug_command;
    persistence persist = n->sv->wsc.nodes[n->widx].persist;
    if (!strcmp(name, "appendonly")) return persist == PERSIST_NONE ? "no" : "yes";
    if (!strcmp(name, "appendfsync")) return persist == PERSIST_ALWAYS ? "always" : "everysec";
    if (!strcmp(name, "maxclients")) {
        snprintf(text, sizeof text, "%lld", n->sv->opt.maxclients);
        return text;
    }
    if (!strcmp(name, "client-query-buffer-limit")) {
        snprintf(text, sizeof text, "%llu", n->query_limit);
        return text;
    }
    return NULL;
}

/* CONFIG SET port: the node listens on the new port (0: on none), then closes the old one,
 * its connections kept (Redis's changeListenPort); a port it cannot listen on leaves it as
 * it was, with Redis's answer, and the reason on stderr (Redis's log). CONFIG SET
 * client-query-buffer-limit: this node's connections' limit. */
static int host_config_set(void *ud, const char *name, const char *value, const char **err)
{
    snode *n = ud;
    if (!strcmp(name, "client-query-buffer-limit")) {
        n->query_limit = strtoull(value, NULL, 10);
        return 0;
    }
    if (strcmp(name, "port")) return 0;
    int port = atoi(value), was = n->port;
    struct evconnlistener *old = n->listener;
    struct event *relisten = n->relisten;
    n->listener = NULL;
    n->relisten = NULL;
    n->port = port;
    if (serve_listen(n) < 0) {
        fprintf(stderr, "locklab serve: %s: CONFIG SET port %d: cannot listen on %s port %d: %s\n", n->name, port,
                n->sv->opt.bind, port, strerror(errno));
        n->port = was;
        n->listener = old;
        n->relisten = relisten;
        *err = "Unable to listen on this port. Check server logs.";
        return -1;
    }
    if (old) evconnlistener_free(old);
    if (relisten) event_free(relisten);
    n->accept_full = 0;
    snprintf(n->port_text, sizeof n->port_text, "%d", n->port);
    return 0;
}

/* WAIT: the replicas of n that are up and have applied every change n had sent when the
 * connection running WAIT ran its last command (the world's replication offsets; a replica
 * counts once the change reached it, its acknowledgement's trip back not modelled). */
static long long host_replicas(void *ud)
{
    const snode *n = ud;
    serve *sv = n->sv;
    uint64_t want = sv->current ? sv->current->repl_off : world_node_offset(sv->w, n->widx);
    long long k = 0;
    for (int i = 0; i < sv->nnodes; i++) {
        const snode *r = &sv->nodes[i];
        k += world_node_master(sv->w, r->widx) == n->widx && r->srv && world_node_offset(sv->w, r->widx) >= want;
    }
    return k;
}

/* CLIENT UNBLOCK: a connection of this node waiting in a blocking command is marked, and
 * answered once the command that asked has ended (serve_block_unblocked): its own command
 * cannot run inside another's. */
static int host_unblock(void *ud, int conn_id, int error)
{
    snode *n = ud;
    for (sclient *c = n->blocked; c; c = c->bnext)
        if (c->conn.id == conn_id) {
            if (c->dead || c->closing || c->unblock_how) return 0;
            c->unblock_how = error ? 2 : 1;
            return 1;
        }
    return 0;
}

/* CONFIG RESETSTAT: the node's INFO stats counters from 0, as Redis's resetServerStats
 * (total_commands_processed counts the CONFIG RESETSTAT itself once it ends). */
static void host_reset_stats(void *ud)
{
    snode *n = ud;
    n->connections = n->commands = 0;
}

/* DEBUG SLEEP: the whole process sleeps, as redis-server's one thread does */
static void host_sleep(void *ud, long long us)
{
    (void)ud;
    struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
}

/* CLIENT PAUSE ms WRITE|ALL (type 1, 2) and CLIENT UNPAUSE (type 0), as Redis's
 * pauseClients: a pause never shortens nor weakens one in effect. */
static void host_pause(void *ud, long long ms, int type)
{
    snode *n = ud;
    if (!type) { /* the held clients run at the next tick (serve_cron), not inside this command */
        if (n->pause_until_us) n->pause_until_us = 1;
        if (n->srv) server_hold_expiry(n->srv, 0); /* keys expire again at once */
        return;
    }
    int64_t until = serve_true_us(n->sv) + ms * 1000;
    if (until > n->pause_until_us) n->pause_until_us = until;
    if (type > n->pause_type) n->pause_type = type;
    if (n->srv) server_hold_expiry(n->srv, 1); /* no key expires while clients are paused */
}

const server_host serve_host = { .pause = host_pause, .sleep = host_sleep, .info = host_info, .each_conn = host_each_conn, .kill = host_kill,
                                 .config = host_config, .config_set = host_config_set, .replicas = host_replicas, .unblock = host_unblock,
                                 .reset_stats = host_reset_stats };

/* ---- blocking ---- */

static void serve_block_timer(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    serve_block_timeouts(ud);
}

void serve_block(sclient *c, int argc, const slice *argv)
{
    snode *n = c->node;
    if (!c->bargv) { /* newly blocked: copy the command, queue the connection last */
        c->bargc = argc;
        c->bargv = xmalloc((size_t)argc * sizeof *c->bargv);
        for (int i = 0; i < argc; i++) c->bargv[i] = (slice){ xmemdup(argv[i].p, argv[i].len), argv[i].len };
        c->bdeadline_ms = c->conn.block_deadline;
        c->bnext = NULL;
        sclient **tail = &n->blocked;
        while (*tail) tail = &(*tail)->bnext;
        *tail = c;
        if (c->bdeadline_ms && !c->sv->opt.manual) {
            int64_t ms = c->bdeadline_ms - serve_node_clock(n) + 1;
            struct timeval tv = { (time_t)(ms > 0 ? ms / 1000 : 0), (suseconds_t)(ms > 0 ? ms % 1000 * 1000 : 0) };
            c->btimer = evtimer_new(c->sv->base, serve_block_timer, c->sv);
            evtimer_add(c->btimer, &tv);
        }
    }
}

/* Answers c's blocked command with rep and lets it go on. */
static void serve_block_answer(sclient *c, const reply *rep)
{
    serve *sv = c->sv;
    buf_reset(&sv->scratch);
    reply_to_resp(rep, &sv->scratch);
    serve_record(sv, "exec", c->node, c, c->bargc, c->bargv, NULL, sv->scratch.p, sv->scratch.len, rep->type == REPLY_MULTI);
    serve_write_resp(c, sv->scratch.p, sv->scratch.len);
    serve_block_end(c);
    serve_client_wake(c);
}

void serve_unblock(snode *n)
{
    /* Each pass serves at most one waiter per change it sees; a served one may pop what
     * another waits for, so walk again until a pass serves none. */
    for (int served = 1; served && n->srv && !n->busy;) {
        served = 0;
        for (sclient *c = n->blocked; c; c = c->bnext) {
            if (c->dead || c->closing) continue;
            reply rep;
            reply_init(&rep);
            c->conn.blocked = 0;
            c->conn.block_retry = 1;
            sclient *outer = n->sv->current;
            n->sv->current = c;
            server_exec(n->srv, &c->conn, c->bargc, c->bargv, &rep);
            n->sv->current = outer;
            c->conn.block_retry = 0;
            if (c->conn.blocked) {
                c->conn.block_deadline = c->bdeadline_ms; /* the first deadline stands */
                reply_release(&rep);
                continue;
            }
            if (world_node_master(n->sv->w, n->widx) < 0) c->repl_off = world_node_offset(n->sv->w, n->widx);
            world_node_ran(n->sv->w, n->widx);
            serve_block_answer(c, &rep);
            reply_release(&rep);
            served = 1;
            break;
        }
    }
}

/* Ends c's wait as its timeout does (Redis's replyToBlockedClientTimedOut): its command runs
 * once more and answers what it has now, the null array (RESP3's null), WAIT its count. */
static void serve_block_expire(sclient *c)
{
    serve *sv = c->sv;
    reply rep;
    reply_init(&rep);
    c->conn.blocked = 0;
    c->conn.block_retry = 2;
    sclient *outer = sv->current;
    sv->current = c;
    server_exec(c->node->srv, &c->conn, c->bargc, c->bargv, &rep);
    sv->current = outer;
    c->conn.block_retry = 0;
    serve_block_answer(c, &rep);
    reply_release(&rep);
}

void serve_block_timeouts(serve *sv)
{
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        if (!n->srv) continue;
        int64_t now = serve_node_clock(n);
        for (sclient *c = n->blocked, *next; c; c = next) {
            next = c->bnext;
            if (!c->bdeadline_ms || now < c->bdeadline_ms || c->dead) continue;
            serve_block_expire(c);
        }
    }
}

void serve_block_unblocked(snode *n)
{
    for (sclient *c = n->blocked, *next; c; c = next) {
        next = c->bnext;
        if (!c->unblock_how || c->dead) continue;
        server_count_unblocked(n->srv, c->bargc, c->bargv); /* failed, as Redis counts it */
        if (c->unblock_how == 1) {
            serve_block_expire(c);
            continue;
        }
        /* ERROR: Redis's addReplyError(target, "-UNBLOCKED client unblocked via CLIENT
         * UNBLOCK"), not sent to a connection that said CLIENT REPLY OFF */
        reply rep;
        reply_init(&rep);
        reply_error(&rep, "UNBLOCKED client unblocked via CLIENT UNBLOCK");
        if (c->conn.reply_off) reply_multi(&rep, 0);
        serve_block_answer(c, &rep);
        reply_release(&rep);
    }
}
