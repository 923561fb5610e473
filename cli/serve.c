/* serve.c — `locklab serve`: the fake Redis on TCP, so that redis-cli, redis-py, node-redis,
 * Redisson or any client connects to it as to redis-server 7.0. This file runs the requests
 * (RESP2 and inline, sim/redis/resp.c) on their node's server in the world, each whole
 * request at once, atomically, as Redis runs them, its reply appended to the connection's
 * output; AUTH and protected mode; a script running long (BUSY, SCRIPT/FUNCTION KILL); the
 * options, signals and the libevent loop. The sockets are serve_io.c's; the world, time and
 * faults serve_ctl.c's (serveint.h has the picture). */
#include "serveint.h"

#include "store.h"

#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* ---- requests ---- */

/* --requirepass: AUTH [default] PASS and HELLO's AUTH option check it; before it, every
 * command but AUTH, HELLO, RESET and QUIT gets Redis's NOAUTH; RESET logs out. Returns 1 when it answered into
 * out, 0 to let the command run (a HELLO whose AUTH passed runs then). */
static int serve_auth(sclient *c, int argc, const slice *argv, reply *out)
{
    const char *pass = c->sv->opt.requirepass;
    if (slice_eq_nocase(argv[0], "reset")) {
        /* Redis's RESET needs no authentication and takes it away (the default user again,
         * who needs the password): +RESET, then NOAUTH until the next AUTH */
        if (argc == 1) c->authed = 0;
        return 0;
    }
    if (slice_eq_nocase(argv[0], "auth")) {
        if (argc < 2) {
            reply_error(out, "ERR wrong number of arguments for 'auth' command");
        } else if (argc > 3) {
            reply_error(out, "ERR syntax error");
        } else if ((argc == 3 && !slice_eq(argv[1], slice_cstr("default"))) || !slice_eq(argv[argc - 1], slice_cstr(pass))) {
            reply_error(out, "WRONGPASS invalid username-password pair or user is disabled.");
        } else {
            c->authed = 1;
            reply_ok(out);
        }
        return 1;
    }
    if (slice_eq_nocase(argv[0], "hello")) {
        for (int i = 2; i + 2 < argc; i++)
            if (slice_eq_nocase(argv[i], "auth")) {
                if (!slice_eq(argv[i + 1], slice_cstr("default")) || !slice_eq(argv[i + 2], slice_cstr(pass))) {
                    reply_error(out, "WRONGPASS invalid username-password pair or user is disabled.");
                    return 1;
                }
                c->authed = 1;
                return 0;
            }
        if (!c->authed) {
            reply_error(out, "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
                             "<proto> AUTH <user> <pass> option can be used to authenticate the client and select the "
                             "RESP protocol version at the same time");
            return 1;
        }
        return 0;
    }
    if (c->authed) return 0;
    reply_error(out, "NOAUTH Authentication required.");
    return 1;
}

/* What a connection to node n gets while n runs a script past busy-reply-threshold: SCRIPT
 * KILL (an EVAL) and FUNCTION KILL (an FCALL) end the script unless it has written, then
 * Redis's UNKILLABLE; SHUTDOWN NOSAVE ends it whatever it did, and the node with it (a
 * crash: LOCKLAB RESTART brings it back), the connections closed without a reply as Redis's
 * are; MULTI, DISCARD, WATCH, UNWATCH, RESET and HELLO run (Redis's allow-busy commands);
 * everything else gets Redis's BUSY, which marks a transaction in MULTI (its EXEC then
 * answers EXECABORT) and ends it when it is the EXEC. Returns 1 when c gets no reply. */
static int serve_busy_answer(snode *n, sclient *c, int argc, const slice *argv, reply *out)
{
    int script_kill = argc == 2 && slice_eq_nocase(argv[0], "script") && slice_eq_nocase(argv[1], "kill");
    int function_kill = argc == 2 && slice_eq_nocase(argv[0], "function") && slice_eq_nocase(argv[1], "kill");
    if (argc == 2 && slice_eq_nocase(argv[0], "shutdown") && slice_eq_nocase(argv[1], "nosave")) {
        n->busy_kill = n->busy_shutdown = 1; /* the script's command ends, then the node */
        c->closing = 1;
        return 1;
    }
    /* Redis's scriptKill: a script that wrote is UNKILLABLE to either kill, before the kill
     * of the other kind is refused (with BUSY, below) */
    if ((script_kill && !n->busy_function) || (function_kill && n->busy_function) ||
        ((script_kill || function_kill) && n->busy_wrote)) {
        if (n->busy_wrote) {
            reply_error(out, "UNKILLABLE Sorry the script already executed write commands against the dataset. You "
                             "can either wait the script termination or kill the server in a hard way using the "
                             "SHUTDOWN NOSAVE command.");
        } else {
            n->busy_kill = 1;
            reply_ok(out);
        }
    } else if (!script_kill && !function_kill && !slice_eq_nocase(argv[0], "shutdown") && server_allow_busy(argc, argv)) {
        /* Redis's allow-busy commands (a transaction's bookkeeping, the handshake, FUNCTION
         * STATS), which the running script never touches: it is between two instructions here */
        server_exec(n->srv, &c->conn, argc, argv, out);
    } else {
        char err[128];
        snprintf(err, sizeof err, "BUSY Redis is busy running a script. You can only call %s or SHUTDOWN NOSAVE.",
                 n->busy_function ? "FUNCTION KILL" : "SCRIPT KILL");
        server_reject(n->srv, &c->conn, argc, argv, err, out); /* in MULTI: EXECABORT later */
    }
    return 0;
}

/* Runs one request of c: QUIT and LOCKLAB here, everything else on the node's server. */
static void serve_command(sclient *c, int argc, char **words, size_t *lens)
{
    slice small[16];
    slice *argv = argc <= 16 ? small : xmalloc((size_t)argc * sizeof *argv);
    for (int i = 0; i < argc; i++) argv[i] = (slice){ words[i], lens[i] };
    serve *sv = c->sv;
    snode *n = c->node;
    reply rep;
    reply_init(&rep);
    if (c->drop_p > 0 && serve_dropped(c, "request")) { /* lost on the way: never run */
        if (argv != small) free(argv);
        return;
    }
    int busy_any = 0, mute = 0;
    for (int i = 0; i < sv->nnodes; i++) busy_any |= sv->nodes[i].busy;
    if (slice_eq_nocase(argv[0], "quit")) {
        reply_ok(&rep); /* Redis 7.0 answers QUIT before looking at anything else */
        c->closing = 1;
    } else if (sv->opt.requirepass && serve_auth(c, argc, argv, &rep)) {
        /* answered: AUTH, a HELLO whose AUTH failed, or NOAUTH */
    } else if (n->busy) {
        mute = serve_busy_answer(n, c, argc, argv, &rep);
    } else if (slice_eq_nocase(argv[0], "locklab") && busy_any) {
        reply_error(&rep, "ERR a node is busy running a script: LOCKLAB commands wait until it ends (SCRIPT KILL "
                          "ends it)");
    } else if (slice_eq_nocase(argv[0], "locklab")) {
        serve_control(sv, c, argc, argv, &rep);
    } else {
        sclient *outer = sv->current; /* a command of another node, run while a script is busy */
        c->conn.may_block = 1;
        sv->current = c;
        n->busy_function = slice_eq_nocase(argv[0], "fcall") || slice_eq_nocase(argv[0], "fcall_ro");
        server_exec(n->srv, &c->conn, argc, argv, &rep);
        n->script_start_us = n->script_poll_us = 0;
        n->busy = n->busy_wrote = n->busy_kill = 0;
        sv->current = outer;
        if (n->busy_shutdown) { /* SHUTDOWN NOSAVE came while it ran: the node goes down */
            n->busy_shutdown = 0;
            mute = 1;
            serve_node_shutdown(sv, n);
        }
    }
    sv->commands++;
    n->commands++;
    c->last_us = serve_true_us(sv);
    int control = slice_eq_nocase(argv[0], "locklab");
    if (!control && n->srv) {
        world_node_ran(sv->w, n->widx); /* its next expiry */
        if (world_node_master(sv->w, n->widx) < 0) c->repl_off = world_node_offset(sv->w, n->widx);
    }
    if (c->conn.blocked) {
        serve_block(c, argc, argv); /* answered later: serve_unblock, serve_block_timeouts */
    } else if (mute) {
        /* SHUTDOWN NOSAVE, and the command its node was running: the connection closes */
    } else {
        buf_reset(&sv->scratch);
        reply_to_resp(&rep, &sv->scratch);
        serve_record(sv, "exec", n, c, argc, argv, NULL, sv->scratch.p, sv->scratch.len, rep.type == REPLY_MULTI);
        if (!(c->drop_p > 0 && serve_dropped(c, "reply"))) serve_write_resp(c, sv->scratch.p, sv->scratch.len);
        if (sv->scratch.cap > SERVE_QUERY_KEEP) buf_release(&sv->scratch);
    }
    serve_history_drain(sv); /* what the command did in the world: its key changes */
    reply_release(&rep);
    if (argv != small) free(argv);
    if (control) { /* a node started or stopped: WAIT's count */
        for (int i = 0; i < sv->nnodes; i++)
            if (sv->nodes[i].blocked && sv->nodes[i].srv) serve_unblock(&sv->nodes[i]);
    } else if (n->blocked && n->srv) {
        serve_block_unblocked(n); /* CLIENT UNBLOCK's */
        serve_unblock(n);
    }
}

/* Reads a RESP number ending in CRLF at p[*i..n); -1 if there is none whole. */
static long long scan_number(const char *p, size_t n, size_t *i)
{
    long long v = 0;
    size_t j = *i;
    while (j < n && p[j] >= '0' && p[j] <= '9' && v < 1000000000) v = v * 10 + (p[j++] - '0');
    if (j == *i || j + 1 >= n || p[j] != '\r' || p[j + 1] != '\n') return -1;
    *i = j + 2;
    return v;
}

/* A pipelined batch (two or more whole requests in the query buffer): the first key each
 * names is looked up ahead, all at once (server_prefetch), so that their cache misses
 * overlap instead of each request waiting for its own. Only a hint: the requests then run
 * one by one as always. Stops at anything but a whole multibulk request of two or more
 * arguments. */
static void serve_prefetch_batch(sclient *c)
{
    const char *p = c->query.p;
    size_t n = c->query.len, i = c->qpos;
    slice keys[STORE_PREFETCH_MAX];
    size_t nkeys = 0;
    while (nkeys < STORE_PREFETCH_MAX && i < n && p[i] == '*') {
        i++;
        long long argc = scan_number(p, n, &i);
        if (argc < 2) break;
        slice key = { NULL, 0 };
        for (long long a = 0; a < argc; a++) {
            if (i >= n || p[i] != '$') goto done;
            i++;
            long long len = scan_number(p, n, &i);
            if (len < 0 || (size_t)len + 2 > n - i) goto done;
            if (a == 1) key = (slice){ p + i, (size_t)len };
            i += (size_t)len + 2;
        }
        keys[nkeys++] = key;
    }
done:
    if (nkeys >= 2) server_prefetch(c->node->srv, &c->conn, keys, nkeys);
}

/* Whether CLIENT PAUSE holds the request c's parser has just read. */
static int serve_pause_holds(sclient *c)
{
    int argc = c->parser.args.argc;
    slice small[16];
    slice *v = argc <= 16 ? small : xmalloc((size_t)argc * sizeof *v);
    for (int i = 0; i < argc; i++) v[i] = (slice){ c->parser.args.argv[i], c->parser.args.len[i] };
    int held = server_pause_holds(c->node->srv, &c->conn, argc, v, c->node->pause_type == 1);
    if (v != small) free(v);
    return held;
}

/* Runs what c's query buffer holds, request by request, until it ends inside one, a
 * request closes the connection, or the node goes down under it. */
void serve_process(sclient *c)
{
    buf err;
    buf_init(&err);
    if (c->node->srv && c->query.len - c->qpos > 64) serve_prefetch_batch(c);
    while (!c->dead && !c->closing && c->node->srv && !c->node->partitioned && !c->paused_until_us && !c->conn.blocked &&
           !c->postponed) {
        size_t at = c->qpos;
        resp_status st = resp_parse(&c->parser, c->query.p ? c->query.p : "", c->query.len, &c->qpos, &err);
        if (st == RESP_MORE) break;
        if (st == RESP_ERROR) {
            reply rep;
            reply_init(&rep);
            reply_errorf(&rep, "ERR %s", err.p);
            serve_record(c->sv, "protocol_error", c->node, c, 0, NULL, err.p, NULL, 0, 0);
            serve_write(c, &rep);
            reply_release(&rep);
            c->closing = 1;
            break;
        }
        snode *n = c->node;
        if (n->pause_until_us && serve_true_us(c->sv) < n->pause_until_us && serve_pause_holds(c)) {
            /* CLIENT PAUSE: the request stays in the buffer until the pause ends */
            c->qpos = at;
            c->postponed = 1;
            break;
        }
        serve_command(c, c->parser.args.argc, c->parser.args.argv, c->parser.args.len);
    }
    buf_release(&err);
    if (c->closing) serve_client_kill(c, 1);
    /* keep only what is still to be read */
    if (c->qpos > 0) {
        size_t rest = c->query.len - c->qpos;
        memmove(c->query.p, c->query.p + c->qpos, rest);
        c->query.len = rest;
        c->query.p[rest] = '\0';
        c->qpos = 0;
    }
    if (c->query.len == 0 && c->query.cap > SERVE_QUERY_KEEP) buf_release(&c->query);
}

/* ---- a script running long (serve_io.c's serve_busy_poll does the loop's work meanwhile) ---- */

/* The signal that asked the process to stop (serve_signal_handler), or 0. */
static volatile sig_atomic_t serve_signal;

int serve_script_tick(void *ud, int wrote)
{
    snode *n = ud;
    serve *sv = n->sv;
    if (serve_signal) return 1;
    int64_t now = serve_mono_us();
    if (!n->script_start_us) n->script_start_us = now;
    if (now - n->script_start_us < 1000) return 0;
    const char *t = server_config_get(n->srv, "busy-reply-threshold");
    long long threshold = 5000;
    if (t) ll_parse_int64(slice_cstr(t), &threshold);
    if (now - n->script_start_us < threshold * 1000) return 0;
    if (!n->busy)
        fprintf(stderr, "locklab serve: %s: a script has run %lld ms (busy-reply-threshold): other clients get -BUSY\n",
                n->name, threshold);
    n->busy = 1;
    n->busy_wrote = wrote;
    if (!sv->busy_polling && now - n->script_poll_us >= 5000) {
        n->script_poll_us = now;
        sv->busy_polling = 1;
        serve_busy_poll(sv);
        sv->busy_polling = 0;
    }
    return n->busy_kill || serve_signal;
}

/* ---- options ---- */

/* SIGINT and SIGTERM: a plain handler notes the signal (so that a running script's tick
 * sees it: serve_script_tick) and wakes the loop through a pipe. */
static int serve_signal_fd = -1;
static void serve_signal_handler(int sig)
{
    serve_signal = sig;
    char b = 1;
    ssize_t w = write(serve_signal_fd, &b, 1);
    (void)w;
}

static void serve_on_signal(evutil_socket_t fd, short what, void *ud)
{
    (void)what;
    serve *sv = ud;
    char tmp[16];
    ssize_t r = read(fd, tmp, sizeof tmp);
    (void)r;
    fprintf(stderr, "locklab serve: %s: stopping\n", serve_signal == SIGINT ? "SIGINT" : "SIGTERM");
    event_base_loopbreak(sv->base);
}

static void serve_on_tick(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    serve *sv = ud;
    serve_catch_up(sv);
    serve_cron(sv);
    /* The history is the run's result: when --json can no longer be written (a full disk),
     * stop at once rather than serve on and lose it (exit 3, said below) */
    if (sv->hist.json_error) event_base_loopbreak(sv->base);
}

static int serve_open(serve *sv)
{
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        if (serve_listen(n) < 0) {
            cli_error("serve: cannot listen on %s port %d: %s", sv->opt.bind, n->port, strerror(errno));
            return EXIT_INTERNAL;
        }
    }
    printf("locklab serve: clock %s;", sv->opt.manual ? "manual" : "wall");
    for (int i = 0; i < sv->nnodes; i++)
        printf(" %s on %s:%d%s", sv->nodes[i].name, sv->opt.bind, sv->nodes[i].port, i + 1 < sv->nnodes ? "," : "");
    printf("; ready\n");
    fflush(stdout);
    return EXIT_OK;
}

int cli_serve(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        serve_usage(stdout);
        return EXIT_OK;
    }
    serve *sv = xcalloc(1, sizeof *sv);
    int rc = serve_parse(argc, argv, &sv->opt);
    int built = rc == EXIT_OK ? serve_nodes_init(sv) : 0;
    if (built < 0) rc = built == -2 ? EXIT_INTERNAL : EXIT_USAGE;
    if (rc != EXIT_OK) {
        serve_nodes_free(sv);
        free(sv);
        return rc;
    }
    signal(SIGPIPE, SIG_IGN);
    sv->base = event_base_new();
    LL_ASSERT(sv->base != NULL);
    serve_io_events(sv);
    LL_ASSERT(pipe(sv->sigpipe) == 0);
    evutil_make_socket_nonblocking(sv->sigpipe[0]);
    evutil_make_socket_nonblocking(sv->sigpipe[1]);
    serve_signal_fd = sv->sigpipe[1];
    sv->sigev = event_new(sv->base, sv->sigpipe[0], EV_READ | EV_PERSIST, serve_on_signal, sv);
    event_add(sv->sigev, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = serve_signal_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sv->tick = event_new(sv->base, -1, EV_PERSIST, serve_on_tick, sv);
    struct timeval hz = { 0, 100000 }; /* Redis's hz 10 */
    event_add(sv->tick, &hz);
    buf_init(&sv->scratch);
    rc = serve_open(sv);
    if (rc == EXIT_OK) event_base_dispatch(sv->base);
    serve_close(sv);
    for (int i = 0; i < sv->nnodes; i++) serve_unlisten(&sv->nodes[i]);
    if (rc == EXIT_OK && sv->hist.json_error) {
        cli_error("serve: cannot write '%s': %s", sv->opt.json, strerror(sv->hist.json_error));
        rc = EXIT_INTERNAL;
    }
    if (rc == EXIT_OK)
        printf("locklab serve: stopped after %lld command%s\n", sv->commands, sv->commands == 1 ? "" : "s");
    event_free(sv->reaper);
    event_free(sv->waker);
    event_free(sv->flusher);
    event_free(sv->sigev);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    serve_signal_fd = -1;
    close(sv->sigpipe[0]);
    close(sv->sigpipe[1]);
    event_free(sv->tick);
    if (sv->wtimer) event_free(sv->wtimer);
    serve_nodes_free(sv);
    event_base_free(sv->base);
    buf_release(&sv->scratch);
    free(sv);
    return rc;
}
