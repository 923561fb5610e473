/* serve_ctl.c — the world around the served nodes (serve.h): their clocks, their lives
 * (start, crash, restart, with what their persistence keeps), replication to replicas, the
 * periodic work Redis's serverCron does, and the LOCKLAB control commands.
 *
 * Clocks. True time is the serve's (manual: moved by LOCKLAB ADVANCE; wall: the monotonic
 * clock since the start). A node's clock reads base + offset + true time × (1 + drift) +
 * its jumps, in ms, base being the date at the start (wall) or the scenario epoch
 * (manual), offset and drift the scenario's. Keys expire on the node's clock, lazily and at
 * each cron (10 times a second, and after each ADVANCE), as in Redis.
 *
 * Lives. A crash closes the node's port (a client then gets "connection refused") and every
 * connection to it, and drops its server: the script cache and pub/sub go with it, and its
 * keyspace goes or stays as its persistence says — `none` loses it, `always` keeps all of
 * it, `everysec` keeps what it held at the last whole second of true time. A restart opens
 * the port again with a fresh server on what was kept.
 *
 * Replication. A scenario's replica is served read-only, and its master's every change
 * reaches it at once (no lag): the key's new state, or its deletion. A replica that starts,
 * or whose master starts, copies the master's whole keyspace (a full resync).
 *
 * The history is serve_hist.c's. */
#include "serve.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "cli.h"
#include "repl.h"

/* ---- clocks ---- */

static int64_t serve_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t serve_true_us(const serve *sv)
{
    return sv->opt.manual ? sv->manual_us : serve_mono_us() - sv->start_mono_us;
}

int64_t serve_node_clock_us(void *ud)
{
    const snode *n = ud;
    const serve *sv = n->sv;
    int64_t base = sv->opt.manual ? REPL_START_MS * 1000 : sv->start_real_us;
    double run = (double)serve_true_us(sv) * (1.0 + n->drift);
    return base + (n->offset_ms + n->jump_ms) * 1000 + (int64_t)floor(run);
}

/* In whole ms, rounded down (one rounding, of the µs clock: the ms clock never lags it). */
int64_t serve_node_clock(void *ud)
{
    int64_t us = serve_node_clock_us(ud);
    return us >= 0 ? us / 1000 : -((-us + 999) / 1000);
}

/* ---- replication ---- */

/* A master's change reaches each replica that is up (store_observer_fn). */
static void serve_observe(void *ud, store_event ev, slice key)
{
    snode *m = ud;
    serve *sv = m->sv;
    kv *e = ev == STORE_WRITTEN ? store_lookup(server_store(m->srv), key) : NULL;
    for (int i = 0; i < sv->nnodes; i++) {
        snode *r = &sv->nodes[i];
        if (r->master != m->idx || !r->srv) continue;
        store *db = server_store(r->srv);
        if (!e) {
            store_delete(db, key);
            continue;
        }
        kv *copy = store_set(db, key, (obj_type)e->type, obj_clone((obj_type)e->type, e->ptr), 0);
        if (e->expire >= 0) store_set_expire(db, copy, e->expire);
        store_touched(db, copy);
    }
}

/* Replaces n's keyspace with db (taken), on n's clock, observed if n is a master. */
static void serve_install(snode *n, store *db)
{
    store_set_clock(db, serve_node_clock, n);
    store_free(server_swap_store(n->srv, db));
    if (n->master < 0) store_set_observer(db, serve_observe, n);
}

/* A full resync of replica r from its master, when both are up. */
static void serve_resync(snode *r)
{
    snode *m = &r->sv->nodes[r->master];
    if (r->srv && m->srv) serve_install(r, store_clone(server_store(m->srv)));
}

/* ---- lives ---- */

void serve_node_start(snode *n)
{
    server_config cfg = { .clock = serve_node_clock, .clock_ud = n, .clock_us = serve_node_clock_us, .track_access = 1,
                          .script_tick = serve_script_tick, .script_tick_ud = n, .deliver = serve_deliver, .deliver_ud = n,
                          .push = serve_push, .host = &serve_host, .host_ud = n };
    n->up_us = serve_true_us(n->sv);
    n->srv = server_new(&cfg);
    store *kept = NULL;
    if (n->persist == PERSIST_ALWAYS) {
        kept = n->synced;
        n->synced = NULL;
    } else if (n->persist == PERSIST_EVERYSEC && n->synced) {
        kept = store_clone(n->synced);
    }
    serve_install(n, kept ? kept : store_new(serve_node_clock, n));
    if (n->master >= 0) {
        server_set_replica(n->srv, 1);
        serve_resync(n);
    }
    for (int i = 0; i < n->sv->nnodes; i++)
        if (n->sv->nodes[i].master == n->idx) serve_resync(&n->sv->nodes[i]);
}

void serve_node_stop(snode *n, sclient *sender)
{
    serve_unlisten(n);
    for (sclient *c = n->clients; c; c = c->next) {
        if (c == sender) c->closing = 1;
        else serve_client_kill(c, 0);
    }
    if (n->persist == PERSIST_ALWAYS) {
        store_free(n->synced);
        n->synced = server_swap_store(n->srv, store_new(serve_node_clock, n));
        store_set_observer(n->synced, NULL, NULL);
    }
    server_free(n->srv);
    n->srv = NULL;
}

void serve_cron(serve *sv)
{
    int64_t now_us = serve_true_us(sv), now_ms = now_us / 1000;
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        for (sclient *c = n->clients; c; c = c->next)
            if (c->paused_until && now_us >= c->paused_until) {
                c->paused_until = 0;
                serve_record(sv, "fault_end", n, c, 0, NULL, "pause ends", NULL);
                serve_client_flow(c, NULL);
            }
        if (!n->srv) continue;
        if (n->master < 0) server_active_expire(n->srv);
        if (n->persist == PERSIST_EVERYSEC && now_ms - n->synced_at >= 1000) {
            store_free(n->synced);
            n->synced = store_clone(server_store(n->srv));
            n->synced_at = now_ms - now_ms % 1000;
        }
    }
    serve_block_timeouts(sv);
    if (sv->hist.json && fflush(sv->hist.json) != 0 && !sv->hist.json_error) sv->hist.json_error = errno ? errno : EIO;
}

int serve_nodes_init(serve *sv)
{
    scenario *sc = NULL;
    if (sv->opt.scenario && cli_load_scenario("serve", sv->opt.scenario, &sc) != EXIT_OK) return -1;
    int masters = sv->opt.nnodes ? sv->opt.nnodes : 1, per = sv->opt.replicas + 1;
    int nn = sc ? sc->nnodes : masters * per;
    if (sv->opt.port + nn - 1 > 65535) {
        cli_error("serve: %d nodes from port %d would pass port 65535", nn, sv->opt.port);
        scenario_free(sc);
        return -1;
    }
    sv->nodes = xcalloc((size_t)nn, sizeof *sv->nodes);
    sv->nnodes = nn;
    for (int i = 0; i < nn; i++) {
        snode *n = &sv->nodes[i];
        n->sv = sv;
        n->idx = i;
        n->port = sv->opt.port + i;
        snprintf(n->port_text, sizeof n->port_text, "%d", n->port);
        n->master = sc ? sc->nodes[i].master : i % per ? i - i % per : -1;
        n->persist = sv->opt.persist >= 0 ? (persistence)sv->opt.persist : sc ? sc->nodes[i].persist : PERSIST_NONE;
        n->offset_ms = sc ? sc->nodes[i].clock.offset_ms : 0;
        n->drift = sc ? sc->nodes[i].clock.drift : 0;
        buf name;
        buf_init(&name);
        if (sc) buf_puts(&name, sc->nodes[i].name);
        else if (i % per) buf_printf(&name, "n%dr%d", i / per + 1, i % per);
        else buf_printf(&name, "n%d", i / per + 1);
        n->name = buf_steal(&name);
    }
    scenario_free(sc);
    serve_history_init(&sv->hist, (size_t)sv->opt.history_max);
    if (sv->opt.json && !(sv->hist.json = fopen(sv->opt.json, "w"))) {
        cli_error("serve: cannot write '%s': %s", sv->opt.json, strerror(errno));
        return -1;
    }
    struct timeval tv;
    gettimeofday(&tv, NULL);
    sv->start_real_us = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    sv->start_mono_us = serve_mono_us();
    sv->rng = 0x9e3779b97f4a7c15ull;
    return 0;
}

void serve_nodes_free(serve *sv)
{
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        server_free(n->srv);
        store_free(n->synced);
        free(n->name);
    }
    free(sv->nodes);
    sv->nodes = NULL;
    sv->nnodes = 0;
    if (sv->hist.json && fclose(sv->hist.json) != 0 && !sv->hist.json_error) sv->hist.json_error = errno ? errno : EIO;
    sv->hist.json = NULL;
    serve_history_release(&sv->hist);
}

/* ---- LOCKLAB: the control commands ---- */

typedef struct serve_subcommand {
    const char *name;
    int arity; /* counting LOCKLAB and the subcommand; < 0: at least -arity */
    void (*fn)(serve *sv, sclient *c, const slice *argv, int argc, reply *out);
} serve_subcommand;

static const char *const serve_help[] = {
    "LOCKLAB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "ADVANCE <ms>",
    "    Move true time forward by ms (--clock manual); with --clock wall, jump every",
    "    node's clock forward by ms. Keys that expire meanwhile are reaped.",
    "TIME",
    "    This node's clock, in ms.",
    "JUMP <node> <ms>",
    "    Jump one node's clock by ms (negative: backwards).",
    "CRASH <node>",
    "    Crash a node: its port closes, its connections drop, its data goes or stays as",
    "    its persistence says (none, everysec, always).",
    "RESTART <node>",
    "    Restart a crashed node on the data its persistence kept.",
    "PARTITION <node>",
    "    Cut a node off from its clients: nothing is read from or written to them, new",
    "    connections wait, until HEAL (the reply to PARTITION itself is sent).",
    "HEAL [<node>]",
    "    End a node's partition (every node's, without one).",
    "DROP <id> <probability> [<ms>]",
    "    Lose each request of connection id, and each reply to it, with this probability",
    "    (0 to 1; 0 ends it), for ms of true time or until ended: a lost request is never",
    "    run, a lost reply never sent (the drop fault of scenarios, on one client's link).",
    "FAILOVER <node>",
    "    Promote the first replica of master node that is up (--replicas, a scenario's):",
    "    the master's other replicas follow it, the old master becomes its replica (a",
    "    crashed one on restart). Replication has no lag here: nothing is lost.",
    "PAUSE-CLIENT <id> <ms>",
    "    Leave connection id's requests (c7 or 7, as CLIENTS lists them) unread for ms of",
    "    true time (--clock wall: to the next tenth of a second).",
    "CLIENTS",
    "    Each connection: id, address, node, state (serving, blocked, dropping, paused,",
    "    partitioned, closing).",
    "NODES",
    "    Each node: name, address, up or down, role, persistence, clock, connections.",
    "HISTORY [<count>|RESET]",
    "    The last count records of the history (all kept by default), one JSON line",
    "    each, oldest first; RESET forgets them (the --json file keeps them).",
    "HELP",
    "    Print this help.",
};

static snode *serve_node_named(serve *sv, slice name, reply *out)
{
    for (int i = 0; i < sv->nnodes; i++)
        if (slice_eq(slice_cstr(sv->nodes[i].name), name)) return &sv->nodes[i];
    reply_errorf(out, "ERR no node named '%.*s' (LOCKLAB NODES lists them)", (int)(name.len < 128 ? name.len : 128),
                 name.p);
    return NULL;
}

static const char *serve_persist_name(persistence p)
{
    return p == PERSIST_ALWAYS ? "always" : p == PERSIST_EVERYSEC ? "everysec" : "none";
}

static void serve_ctl_help(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)sv, (void)c, (void)argv, (void)argc;
    reply *e = reply_array(out, LL_ARRAY_LEN(serve_help));
    for (size_t i = 0; i < LL_ARRAY_LEN(serve_help); i++) reply_status(&e[i], serve_help[i]);
}

static void serve_ctl_advance(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    long long ms;
    if (ll_parse_int64(argv[2], &ms) < 0 || ms < 0 || ms > 1000000000000LL) {
        reply_error(out, "ERR ms must be a whole number of milliseconds from 0 to 1000000000000 "
                         "(time only moves forward; LOCKLAB JUMP moves one node's clock back)");
        return;
    }
    for (int i = 0; i < sv->nnodes; i++) { /* every clock stays within its bound */
        const snode *n = &sv->nodes[i];
        double moved = (double)ms * (sv->opt.manual ? 1.0 + n->drift : 1.0);
        if ((double)serve_node_clock(sv->nodes + i) + moved > (double)SERVE_CLOCK_MAX_MS) {
            reply_errorf(out, "ERR the clock of node '%s' would pass %lld ms (the year 5138): refused", n->name,
                         SERVE_CLOCK_MAX_MS);
            return;
        }
    }
    if (sv->opt.manual) sv->manual_us += ms * 1000;
    else
        for (int i = 0; i < sv->nnodes; i++) sv->nodes[i].jump_ms += ms;
    char text[96];
    snprintf(text, sizeof text, "%s %lld ms", sv->opt.manual ? "time advances" : "every clock jumps", ms);
    serve_record(sv, "fault", c->node, c, 0, NULL, text, NULL);
    serve_cron(sv);
    reply_ok(out);
}

static void serve_ctl_time(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)sv, (void)argv, (void)argc;
    reply_int(out, serve_node_clock(c->node));
}

static void serve_ctl_jump(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    long long ms;
    snode *n = serve_node_named(sv, argv[2], out);
    if (!n) return;
    if (ll_parse_int64(argv[3], &ms) < 0 || ms < -1000000000000LL || ms > 1000000000000LL) {
        reply_error(out, "ERR ms must be a whole number of milliseconds within a trillion either way");
        return;
    }
    int64_t at = serve_node_clock(n) + ms;
    if (at < 0 || at > SERVE_CLOCK_MAX_MS) {
        reply_errorf(out, "ERR the clock of node '%s' would leave 0..%lld ms (1970 to the year 5138): refused", n->name,
                     SERVE_CLOCK_MAX_MS);
        return;
    }
    n->jump_ms += ms;
    char text[64];
    snprintf(text, sizeof text, "clock jumps %+lld ms", ms);
    serve_record(sv, "fault", n, c, 0, NULL, text, NULL);
    if (n->srv && n->master < 0) server_active_expire(n->srv);
    reply_ok(out);
}

static void serve_ctl_crash(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    snode *n = serve_node_named(sv, argv[2], out);
    if (!n) return;
    if (!n->srv) {
        reply_errorf(out, "ERR node '%s' is down already", n->name);
        return;
    }
    serve_node_stop(n, c);
    char text[64];
    snprintf(text, sizeof text, "crash (persistence %s)", serve_persist_name(n->persist));
    serve_record(sv, "node_down", n, c, 0, NULL, text, NULL);
    reply_ok(out);
}

static void serve_ctl_restart(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    snode *n = serve_node_named(sv, argv[2], out);
    if (!n) return;
    if (n->srv) {
        reply_errorf(out, "ERR node '%s' is up", n->name);
        return;
    }
    serve_node_start(n);
    if (serve_listen(n) < 0) {
        reply_errorf(out, "ERR cannot listen on port %d again: %s", n->port, strerror(errno));
        serve_node_stop(n, NULL);
        return;
    }
    char text[96];
    snprintf(text, sizeof text, "restart (persistence %s: %zu keys)", serve_persist_name(n->persist),
             store_size(server_store(n->srv)));
    serve_record(sv, "node_up", n, c, 0, NULL, text, NULL);
    reply_ok(out);
}

static void serve_ctl_nodes(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)c, (void)argv, (void)argc;
    reply *e = reply_array(out, (size_t)sv->nnodes);
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        int blocked, conns = serve_conns(n, &blocked);
        buf b;
        buf_init(&b);
        buf_printf(&b, "%s %s:%d %s ", n->name, sv->opt.bind, n->port, n->srv ? "up" : "down");
        if (n->master >= 0) buf_printf(&b, "replica-of=%s", sv->nodes[n->master].name);
        else buf_puts(&b, "master");
        buf_printf(&b, " persistence=%s clock=%lld connections=%d", serve_persist_name(n->persist),
                   (long long)serve_node_clock(n), conns);
        reply_bulk_take(&e[i], b.p, b.len);
    }
}

static void serve_ctl_history(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)c;
    serve_history *h = &sv->hist;
    long long want = (long long)h->n;
    if (argc == 3 && slice_opt_is(argv[2], "reset")) {
        if (h->cap) serve_history_clear(h);
        reply_ok(out);
        return;
    }
    if (argc == 3 && (ll_parse_int64(argv[2], &want) < 0 || want < 0)) {
        reply_error(out, "ERR count must be a whole number, or RESET");
        return;
    }
    size_t n = (size_t)want < h->n ? (size_t)want : h->n;
    reply *e = reply_array(out, n);
    for (size_t i = 0; i < n; i++) {
        size_t slot = serve_history_slot(h, h->n - n + i);
        reply_bulk(&e[i], h->line[slot], h->len[slot]);
    }
}

/* Sets n's partition and applies it to the port and every connection. */
static void serve_partition(snode *n, int on, const sclient *sender)
{
    if (n->partitioned == on) return;
    n->partitioned = on;
    serve_accepting(n, !on);
    for (sclient *c = n->clients; c; c = c->next) serve_client_flow(c, sender);
    serve_record(n->sv, on ? "fault" : "fault_end", n, NULL, 0, NULL, on ? "partition" : "partition heals", NULL);
}

static void serve_ctl_partition(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    snode *n = serve_node_named(sv, argv[2], out);
    if (!n) return;
    serve_partition(n, 1, c);
    reply_ok(out);
}

static void serve_ctl_heal(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    snode *only = argc == 3 ? serve_node_named(sv, argv[2], out) : NULL;
    if (argc == 3 && !only) return;
    for (int i = 0; i < sv->nnodes; i++)
        if (!only || only == &sv->nodes[i]) serve_partition(&sv->nodes[i], 0, c);
    reply_ok(out);
}

static sclient *serve_client_by_id(serve *sv, slice id, reply *out)
{
    long long want;
    slice digits = id.len && (id.p[0] == 'c' || id.p[0] == 'C') ? (slice){ id.p + 1, id.len - 1 } : id;
    if (ll_parse_int64(digits, &want) == 0)
        for (int i = 0; i < sv->nnodes; i++)
            for (sclient *c = sv->nodes[i].clients; c; c = c->next)
                if (c->conn.id == want && !c->dead) return c;
    reply_errorf(out, "ERR no connection '%.*s' (LOCKLAB CLIENTS lists them)", (int)(id.len < 128 ? id.len : 128), id.p);
    return NULL;
}

static void serve_ctl_pause_client(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)c, (void)argc;
    long long ms;
    sclient *who = serve_client_by_id(sv, argv[2], out);
    if (!who) return;
    if (ll_parse_int64(argv[3], &ms) < 0 || ms <= 0 || ms > 1000000000000LL) {
        reply_error(out, "ERR ms must be a whole number of milliseconds from 1 to 1000000000000");
        return;
    }
    who->paused_until = serve_true_us(sv) + ms * 1000;
    char text[64];
    snprintf(text, sizeof text, "pause of %lld ms", ms);
    serve_record(sv, "fault", who->node, who, 0, NULL, text, NULL);
    serve_client_flow(who, NULL);
    reply_ok(out);
}

static void serve_ctl_clients(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)c, (void)argv, (void)argc;
    size_t n = 0;
    for (int i = 0; i < sv->nnodes; i++)
        for (sclient *k = sv->nodes[i].clients; k; k = k->next) n += !k->dead;
    reply *e = reply_array(out, n);
    for (int i = sv->nnodes - 1, at = 0; i >= 0; i--)
        for (sclient *k = sv->nodes[i].clients; k; k = k->next) {
            if (k->dead) continue;
            buf b;
            buf_init(&b);
            buf_printf(&b, "c%d %s node=%s state=%s", k->conn.id, k->addr, k->node->name,
                       k->closing ? "closing" : k->node->partitioned ? "partitioned" : k->paused_until ? "paused"
                       : k->conn.blocked ? "blocked" : k->drop_p > 0 ? "dropping" : "serving");
            reply_bulk_take(&e[n - 1 - (size_t)at++], b.p, b.len);
        }
}

/* ---- DROP, FAILOVER ---- */

int serve_dropped(sclient *c, const char *what)
{
    serve *sv = c->sv;
    if (c->drop_until && serve_true_us(sv) >= c->drop_until) {
        c->drop_p = 0;
        c->drop_until = 0;
        serve_record(sv, "fault_end", c->node, c, 0, NULL, "message loss ends", NULL);
        return 0;
    }
    sv->rng ^= sv->rng >> 12, sv->rng ^= sv->rng << 25, sv->rng ^= sv->rng >> 27;
    double u = (double)((sv->rng * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
    if (u >= c->drop_p) return 0;
    char text[32];
    snprintf(text, sizeof text, "%s lost", what);
    serve_record(sv, "drop", c->node, c, 0, NULL, text, NULL);
    return 1;
}

static void serve_ctl_drop(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    double p;
    long long ms = 0;
    sclient *who = serve_client_by_id(sv, argv[2], out);
    if (!who) return;
    if (ll_parse_double(argv[3], &p) < 0 || p < 0 || p > 1) {
        reply_error(out, "ERR probability must be a number from 0 to 1");
        return;
    }
    if (argc == 5 && (ll_parse_int64(argv[4], &ms) < 0 || ms <= 0 || ms > 1000000000000LL)) {
        reply_error(out, "ERR ms must be a whole number of milliseconds from 1 to 1000000000000");
        return;
    }
    who->drop_p = p;
    who->drop_until = p > 0 && ms ? serve_true_us(sv) + ms * 1000 : 0;
    char text[96];
    if (p > 0) snprintf(text, sizeof text, "link drops %g%% of messages%s", p * 100, ms ? "" : " until ended");
    else snprintf(text, sizeof text, "message loss ends");
    if (p > 0 && ms) snprintf(text + strlen(text), sizeof text - strlen(text), " for %lld ms", ms);
    serve_record(sv, p > 0 ? "fault" : "fault_end", who->node, c, 0, NULL, text, NULL);
    reply_ok(out);
}

static void serve_ctl_failover(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    snode *old = serve_node_named(sv, argv[2], out);
    if (!old) return;
    if (old->master >= 0) {
        reply_errorf(out, "ERR node '%s' is a replica: fail over its master", old->name);
        return;
    }
    snode *r = NULL;
    for (int i = 0; i < sv->nnodes && !r; i++)
        if (sv->nodes[i].master == old->idx && sv->nodes[i].srv) r = &sv->nodes[i];
    if (!r) {
        reply_errorf(out, "ERR node '%s' has no replica that is up", old->name);
        return;
    }
    r->master = -1;
    server_set_replica(r->srv, 0);
    store_set_observer(server_store(r->srv), serve_observe, r);
    for (int i = 0; i < sv->nnodes; i++) {
        snode *o = &sv->nodes[i];
        if (o == r || o->master != old->idx) continue;
        o->master = r->idx;
        serve_resync(o);
    }
    old->master = r->idx;
    if (old->srv) {
        store_set_observer(server_store(old->srv), NULL, NULL);
        server_set_replica(old->srv, 1);
        serve_resync(old);
    }
    char text[96];
    snprintf(text, sizeof text, "promoted to master in place of %s", old->name);
    serve_record(sv, "promoted", r, NULL, 0, NULL, text, NULL);
    reply_ok(out);
}

static const serve_subcommand serve_subcommands[] = {
    { "drop", -4, serve_ctl_drop },          { "failover", 3, serve_ctl_failover },
    { "advance", 3, serve_ctl_advance },     { "clients", 2, serve_ctl_clients },
    { "crash", 3, serve_ctl_crash },         { "heal", -2, serve_ctl_heal },
    { "help", 2, serve_ctl_help },           { "history", -2, serve_ctl_history },
    { "jump", 4, serve_ctl_jump },           { "nodes", 2, serve_ctl_nodes },
    { "partition", 3, serve_ctl_partition }, { "pause-client", 4, serve_ctl_pause_client },
    { "restart", 3, serve_ctl_restart },     { "time", 2, serve_ctl_time },
};

void serve_control(serve *sv, sclient *c, int argc, const slice *argv, reply *out)
{
    if (argc < 2) {
        reply_error(out, "ERR wrong number of arguments for 'locklab' command");
        return;
    }
    for (size_t i = 0; i < LL_ARRAY_LEN(serve_subcommands); i++) {
        const serve_subcommand *s = &serve_subcommands[i];
        if (!slice_opt_is(argv[1], s->name)) continue;
        if ((s->arity > 0 && argc != s->arity) || (s->arity < 0 && (argc < -s->arity || argc > 1 - s->arity))) {
            reply_errorf(out, "ERR wrong number of arguments for 'locklab|%s' command", s->name);
            return;
        }
        s->fn(sv, c, argv, argc, out);
        return;
    }
    slice sub = slice_cstr_prefix(argv[1]);
    reply_errorf(out, "ERR unknown subcommand '%.*s'. Try LOCKLAB HELP.", (int)(sub.len < 128 ? sub.len : 128), sub.p);
    for (size_t i = 0; i < out->len; i++)
        if (out->str[i] == '\r' || out->str[i] == '\n') out->str[i] = ' ';
}
