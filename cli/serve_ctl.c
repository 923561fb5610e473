/* serve_ctl.c — the world `locklab serve` serves (serveint.h): sim/world.h's own world, built
 * from a scenario (--scenario, or one made from --nodes, --replicas and --persistence) without
 * its clients, and moved in real time; and the LOCKLAB control commands, which act on it.
 *
 * One engine. Clocks, lives, replication, persistence and failover are the world's, exactly
 * as `locklab run` runs them: a node's clock is its lclock (offset, drift, jumps); a crash and
 * a restart are the world's crash and restart faults, keeping what the node's persistence
 * keeps (none, everysec's last fsync, always); a master's every change reaches its replicas
 * with the replication lag the scenario draws (the network's delay by default), a master that
 * crashes loses what it had not sent, a master down for down_after is replaced by its best
 * replica; a key expires at its deadline on its master's clock (in any of the 16 databases,
 * SELECT's too: the world's expiry, no pass of serve's own) and reaches the replicas as a
 * deletion (database 0's, which alone is replicated and persisted). LOCKLAB CRASH, RESTART, JUMP, ADVANCE (--clock wall), PARTITION, HEAL and FAILOVER
 * inject the scenario faults of those names (world_inject): the same code, the same typed
 * history events. A scenario's own timed faults on its nodes happen at their times.
 *
 * The connections are not actors of the world (a scenario's clients and the faults aimed at
 * them are left out): LOCKLAB PAUSE-CLIENT and DROP act on one connection here, and are
 * recorded as typed gc_pause and drop faults on its node; DROP's losses are drawn by the
 * world's chooser, from the scenario's seed.
 *
 * Time. --clock manual: true time moves on LOCKLAB ADVANCE only (world_advance). --clock
 * wall: before anything is served the world is moved to the real elapsed time (serve_catch_up),
 * and a timer wakes the loop at the world's next event; true time 0 is the start's date with
 * its µs within the ms, so that a node's clock reads the real date to the µs. */
#include "serveint.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <event2/event.h>

#include "cli.h"
#include "redis_kind.h"

static int64_t serve_clock_ms_fn(void *ud)
{
    return serve_node_clock(ud);
}

static int64_t serve_elapsed_us_fn(void *ud)
{
    (void)ud;
    return serve_mono_us();
}

static int64_t serve_clock_us_fn(void *ud)
{
    return serve_node_clock_us(ud);
}

static void serve_wtimer_cb(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    serve_catch_up(ud);
}

void serve_catch_up(serve *sv)
{
    if (!sv->opt.manual) world_advance(sv->w, serve_mono_us() - sv->start_mono_us + sv->t0_us);
    serve_sync(sv, NULL);
    if (sv->opt.manual || !sv->base) return;
    if (!sv->wtimer) sv->wtimer = evtimer_new(sv->base, serve_wtimer_cb, sv);
    int64_t next = world_next_event(sv->w), now = serve_true_us(sv);
    if (next == INT64_MAX) return;
    int64_t us = next > now ? next - now : 0;
    if (us > 1000000) us = 1000000;
    struct timeval tv = { (time_t)(us / 1000000), (suseconds_t)(us % 1000000) };
    evtimer_add(sv->wtimer, &tv);
}

/* ---- the servers: the world's, with the host's side configured here ---- */

/* kind_host.setup: each server of a node, at its start and every restart, is configured for
 * TCP connections: their pub/sub deliveries, INFO's and CLIENT's host, a long script's tick,
 * the µs clock (TIME) and access stamps (OBJECT IDLETIME). */
static void serve_server_setup(void *ud, int widx, void *native)
{
    snode *n = serve_node_of(ud, widx);
    server_config *cfg = native;
    cfg->clock = serve_clock_ms_fn;
    cfg->clock_us = serve_clock_us_fn;
    cfg->clock_ud = n;
    cfg->elapsed_us = serve_elapsed_us_fn; /* the slow log's durations: real time */
    cfg->track_access = 1;
    cfg->script_tick = serve_script_tick;
    cfg->script_tick_ud = n;
    /* no instruction budget, as in Redis: a script runs until it ends, SCRIPT KILL or
     * FUNCTION KILL (read-only ones) or SIGTERM; run and check keep theirs */
    cfg->lua_instruction_limit = UINT64_MAX;
    cfg->deliver = serve_deliver;
    cfg->push = serve_push;
    cfg->deliver_ud = n;
    cfg->host = &serve_host;
    cfg->host_ud = n;
}

void serve_sync(serve *sv, sclient *sender)
{
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        server *now = redis_kind_server(world_node_server(sv->w, n->widx));
        if (now == n->srv) continue;
        if (n->srv) { /* it went down (and maybe came up again: another process) */
            serve_unlisten(n);
            for (sclient *c = n->clients; c; c = c->next) {
                if (c == sender) c->closing = 1;
                else serve_client_kill(c, 0);
            }
            if (n->blocked) n->blocked = NULL;
        }
        n->srv = now;
        if (now) { /* a new process: the port and limit CONFIG SET changed are its options' again */
            n->up_us = serve_true_us(sv);
            n->port = sv->opt.port + n->idx;
            snprintf(n->port_text, sizeof n->port_text, "%d", n->port);
            n->query_limit = sv->opt.query_limit;
            if (sv->base && serve_listen(n) < 0)
                fprintf(stderr, "locklab serve: %s: cannot listen on port %d again: %s\n", n->name, n->port,
                        strerror(errno));
        }
    }
    serve_history_drain(sv);
    for (int i = 0; i < sv->nnodes; i++)
        if (sv->nodes[i].blocked && sv->nodes[i].srv) serve_unblock(&sv->nodes[i]);
    serve_block_timeouts(sv);
}

/* The ends of LOCKLAB PAUSE-CLIENT and DROP that are due. (Keys expire in the world, every
 * database's at its deadline: sim/node_expiry.c, sim/redis/server_data.c.) */
void serve_pause_end(snode *n)
{
    n->pause_until_us = 0;
    n->pause_type = 0;
    if (n->srv) server_hold_expiry(n->srv, 0);
    for (sclient *c = n->clients; c; c = c->next)
        if (c->postponed && !c->dead) {
            c->postponed = 0;
            serve_process(c);
        }
}

void serve_cron(serve *sv)
{
    int64_t now_us = serve_true_us(sv);
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        if (n->pause_until_us && now_us >= n->pause_until_us) serve_pause_end(n);
        for (sclient *c = n->clients; c; c = c->next)
            if (c->paused_until_us && now_us >= c->paused_until_us) {
                c->paused_until_us = 0;
                hist_event *e = world_record(sv->w, H_FAULT_END, n->widx);
                e->fault = FAULT_GC_PAUSE;
                history_set_text(e, "pause of c%d ends", c->conn.id);
                serve_client_flow(c, NULL);
            }
    }
    serve_history_drain(sv);
    if (sv->hist.json && fflush(sv->hist.json) != 0 && !sv->hist.json_error) sv->hist.json_error = errno ? errno : EIO;
}

/* ---- building ---- */

/* The scenario of --nodes N --replicas K --persistence P: nodes n1..nN, each with K replicas
 * nNr1..; the network's and replication's defaults (a delay of 1-5 ms, a lag as long). */
static scenario *serve_default_scenario(const serve_options *o, buf *err)
{
    buf text;
    buf_init(&text);
    int masters = o->nnodes ? o->nnodes : 1;
    buf_printf(&text, "return { name = \"locklab serve\", about = \"locklab serve --nodes --replicas\",\n"
                      "  protocol = \"%s\", mode = \"%s\", nodes = %d, replicas = %d,\n"
                      "  clients = { { name = \"serve-client\" } }, duration = \"1s\" }\n",
               masters > 1 ? "redlock" : "distlock", masters > 1 ? "redlock" : "single", masters, o->replicas);
    scenario *sc = scenario_load_string("serve", text.p, err);
    buf_release(&text);
    return sc;
}

int serve_nodes_init(serve *sv)
{
    scenario *sc = NULL;
    if (sv->opt.scenario) {
        if (cli_load_scenario("serve", sv->opt.scenario, &sc) != EXIT_OK) return -1;
    } else {
        buf err;
        buf_init(&err);
        sc = serve_default_scenario(&sv->opt, &err);
        if (!sc) {
            cli_error("serve: %s", err.p);
            buf_release(&err);
            return -1;
        }
        buf_release(&err);
    }
    sv->sc = sc;
    if (sc->server && strcmp(sc->server, "redis")) {
        cli_error("serve: %s: its nodes are %s servers; serve speaks Redis's protocol only", sc->path ? sc->path : sc->name,
                  sc->server);
        return -1;
    }
    if (sc->repl_quorum) {
        cli_error("serve: %s: replication.commit = \"quorum\" is not served (Redis replicates asynchronously)",
                  sc->path ? sc->path : sc->name);
        return -1;
    }
    int nn = sc->nnodes;
    if (sv->opt.port + nn - 1 > 65535) {
        cli_error("serve: %d nodes from port %d would pass port 65535", nn, sv->opt.port);
        return -1;
    }
    /* the serve's order: each master, then its replicas (the ports P, P+1, ...); the world's:
     * the masters, then the replicas */
    sv->nodes = xcalloc((size_t)nn, sizeof *sv->nodes);
    sv->nnodes = nn;
    int k = 0;
    for (int m = 0; m < nn; m++) {
        if (sc->nodes[m].master >= 0) continue;
        for (int r = m; r < nn; r++) {
            if (r != m && sc->nodes[r].master != m) continue;
            snode *n = &sv->nodes[k];
            n->sv = sv;
            n->idx = k;
            n->widx = r;
            n->name = sc->nodes[r].name;
            n->port = sv->opt.port + k;
            n->partition_id = -1;
            snprintf(n->port_text, sizeof n->port_text, "%d", n->port);
            n->query_limit = sv->opt.query_limit;
            k++;
        }
    }
    LL_ASSERT(k == nn);
    /* wall: true time 0 is the start's date, its µs within the ms as true time's start */
    struct timeval tv;
    gettimeofday(&tv, NULL);
    int64_t real_us = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
    sv->start_mono_us = serve_mono_us();
    sv->t0_us = sv->opt.manual ? 0 : real_us % 1000;
    for (int i = 0; i < nn; i++) {
        node_cfg *c = &sc->nodes[i];
        if (sv->opt.persist >= 0) c->persist = (persistence)sv->opt.persist;
        if (!sv->opt.manual) c->clock.offset_ms += real_us / 1000 - HISTORY_EPOCH_MS;
    }
    /* the world's scenario: without clients, and the faults aimed at them */
    sv->wsc = *sc;
    sv->wsc.nclients = 0;
    sv->wsc.clients = NULL;
    sv->wsc.explore.present = 0;
    sv->wsc.faults = xcalloc((size_t)sc->nfaults + 1, sizeof *sv->wsc.faults);
    sv->wsc.nfaults = 0;
    for (int i = 0; i < sc->nfaults; i++) {
        const fault_cfg *f = &sc->faults[i];
        if (f->target && scenario_node_index(sc, f->target) < 0) continue;
        if (f->kind == FAULT_DROP && scenario_node_index(sc, f->from) < 0) continue;
        if (f->kind == FAULT_DROP && f->to && scenario_node_index(sc, f->to) < 0) continue;
        sv->wsc.faults[sv->wsc.nfaults++] = *f;
    }
    sv->ch = chooser_new(CHOOSER_RUN, sc->seed);
    world_opts wo = { .chooser = sv->ch, .server_setup = serve_server_setup, .server_setup_ud = sv,
                      .extra_partitions = nn };
    buf err;
    buf_init(&err);
    sv->w = world_new(&sv->wsc, &wo, &err);
    if (!sv->w) {
        cli_error("serve: %s", err.p ? err.p : "the world cannot be built");
        buf_release(&err);
        return -1;
    }
    buf_release(&err);
    serve_history_init(&sv->hist, (size_t)sv->opt.history_max);
    if (sv->opt.json && !(sv->hist.json = fopen(sv->opt.json, "w"))) {
        cli_error("serve: cannot write '%s': %s", sv->opt.json, strerror(errno));
        return -2; /* an I/O error, exit 3 as --help says (a read-only disk: audit I08) */
    }
    world_advance(sv->w, sv->t0_us);
    serve_sync(sv, NULL); /* the servers (the ports open in serve.c) */
    return 0;
}

void serve_nodes_free(serve *sv)
{
    world_free(sv->w);
    sv->w = NULL;
    chooser_free(sv->ch);
    sv->ch = NULL;
    free(sv->wsc.faults);
    sv->wsc.faults = NULL;
    scenario_free(sv->sc);
    sv->sc = NULL;
    free(sv->nodes);
    sv->nodes = NULL;
    sv->nnodes = 0;
    if (sv->hist.json) serve_history_sync(&sv->hist); /* cut back to whole records if it fails */
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
    "    Move true time forward by ms (--clock manual): everything the world does",
    "    meanwhile happens (keys expire, replication arrives, fsyncs, failovers, the",
    "    scenario's faults); with --clock wall, jump every node's clock forward by ms.",
    "TIME",
    "    This node's clock, in ms.",
    "JUMP <node> <ms>",
    "    Jump one node's clock by ms (negative: backwards).",
    "CRASH <node>",
    "    Crash a node: its port closes, its connections drop, its data goes or stays as",
    "    its persistence says (none, everysec, always); a master with replicas is",
    "    replaced by one after the scenario's down_after (5 s by default).",
    "RESTART <node>",
    "    Restart a crashed node on the data its persistence kept.",
    "PARTITION <node>",
    "    Cut a node off from its clients and from the other nodes (replication too):",
    "    nothing is read from or written to its clients, new connections wait, until",
    "    HEAL (the reply to PARTITION itself is sent). One node stays reachable to",
    "    carry the HEAL: the last node up and reachable is not cut off.",
    "HEAL [<node>]",
    "    End a node's partition (every node's, without one).",
    "DROP <id> <probability> [<ms>]",
    "    Lose each request of connection id, and each reply to it, with this probability",
    "    (0 to 1; 0 ends it), for ms of true time or until ended: a lost request is never",
    "    run, a lost reply never sent (the drop fault of scenarios, on one client's link).",
    "FAILOVER <node>",
    "    Promote the first replica of master node that is up (--replicas, a scenario's):",
    "    the master's other replicas follow it, the old master becomes its replica (a",
    "    crashed one on restart). What had not reached the replica yet is lost.",
    "PAUSE-CLIENT <id> <ms>",
    "    Leave connection id's requests (c7 or 7, as CLIENTS lists them) unread for ms of",
    "    true time (--clock wall: to the next tenth of a second).",
    "CLIENTS",
    "    Each connection: id, address, node, state (serving, blocked, dropping, paused,",
    "    partitioned, closing).",
    "NODES",
    "    Each node: name, address, up or down, role, persistence, replication offset,",
    "    clock, connections.",
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

/* Injects a fault of the scenario's kinds into the world now, on node n (NULL: none), and
 * brings the serve in line with what it did (sender: the connection that asked). */
static int serve_fault(serve *sv, sclient *sender, fault_cfg *f)
{
    f->duration_us = -1;
    int id = world_inject(sv->w, f);
    serve_sync(sv, sender);
    return id;
}

void serve_node_shutdown(serve *sv, snode *n)
{
    if (n->srv) serve_fault(sv, NULL, &(fault_cfg){ .kind = FAULT_CRASH, .target = (char *)n->name });
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
        double drift = sv->wsc.nodes[n->widx].clock.drift;
        double moved = (double)ms * (sv->opt.manual ? 1.0 + drift : 1.0);
        if ((double)serve_node_clock(n) + moved > (double)SERVE_CLOCK_MAX_MS) {
            reply_errorf(out, "ERR the clock of node '%s' would pass %lld ms (the year 5138): refused", n->name,
                         SERVE_CLOCK_MAX_MS);
            return;
        }
    }
    if (sv->opt.manual) {
        world_advance(sv->w, serve_true_us(sv) + ms * 1000);
        serve_sync(sv, c);
        serve_cron(sv);
    } else {
        for (int i = 0; i < sv->nnodes; i++)
            serve_fault(sv, c, &(fault_cfg){ .kind = FAULT_CLOCK_JUMP, .target = (char *)sv->nodes[i].name, .jump_ms = ms });
        serve_cron(sv);
    }
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
    serve_fault(sv, c, &(fault_cfg){ .kind = FAULT_CLOCK_JUMP, .target = (char *)n->name, .jump_ms = ms });
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
    serve_fault(sv, c, &(fault_cfg){ .kind = FAULT_CRASH, .target = (char *)n->name });
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
    serve_fault(sv, c, &(fault_cfg){ .kind = FAULT_RESTART, .target = (char *)n->name });
    if (n->srv && n->port && !n->listener) {
        reply_errorf(out, "ERR cannot listen on port %d again: %s", n->port, strerror(errno));
        return;
    }
    reply_ok(out);
}

static void serve_ctl_nodes(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)c, (void)argv, (void)argc;
    reply *e = reply_array(out, (size_t)sv->nnodes);
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        int blocked, conns = serve_conns(n, &blocked);
        int master = world_node_master(sv->w, n->widx);
        buf b;
        buf_init(&b);
        buf_printf(&b, "%s %s:%d %s ", n->name, sv->opt.bind, n->port, n->srv ? "up" : "down");
        if (master >= 0) buf_printf(&b, "replica-of=%s", sv->wsc.nodes[master].name);
        else buf_puts(&b, "master");
        buf_printf(&b, " persistence=%s offset=%llu clock=%lld connections=%d",
                   serve_persist_name(sv->wsc.nodes[n->widx].persist),
                   (unsigned long long)world_node_offset(sv->w, n->widx), (long long)serve_node_clock(n), conns);
        reply_bulk_take(&e[i], b.p, b.len);
    }
}

static void serve_ctl_history(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)c;
    serve_history *h = &sv->hist;
    size_t kept = serve_history_count(h);
    long long want = (long long)kept;
    if (argc == 3 && slice_opt_is(argv[2], "reset")) {
        serve_history_clear(h);
        reply_ok(out);
        return;
    }
    if (argc == 3 && (ll_parse_int64(argv[2], &want) < 0 || want < 0)) {
        reply_error(out, "ERR count must be a whole number, or RESET");
        return;
    }
    size_t n = (size_t)want < kept ? (size_t)want : kept;
    reply *e = reply_array(out, n);
    buf line;
    buf_init(&line);
    for (size_t i = 0; i < n; i++) {
        buf_reset(&line);
        serve_history_render(sv, kept - n + i, &line);
        reply_bulk(&e[i], line.p, line.len);
    }
    buf_release(&line);
}

/* Sets n's partition: in the world, n cut off from every other node (the partition fault);
 * here, from its connections. */
static void serve_partition(snode *n, int on, sclient *sender)
{
    serve *sv = n->sv;
    if (n->partitioned == on) return;
    n->partitioned = on;
    serve_accepting(n, !on);
    for (sclient *c = n->clients; c; c = c->next) serve_client_flow(c, sender);
    if (on) {
        n->partition_id = serve_fault(sv, sender, &(fault_cfg){ .kind = FAULT_PARTITION, .ngroups = 2,
                                                                .groups = scenario_isolate_groups(&sv->wsc, n->name) });
    } else {
        world_end_fault(sv->w, n->partition_id);
        n->partition_id = -1;
        serve_sync(sv, sender);
    }
}

static void serve_ctl_partition(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    snode *n = serve_node_named(sv, argv[2], out);
    if (!n) return;
    /* nothing is read from a partitioned node's connections, LOCKLAB HEAL included: one node
     * must stay reachable to carry it (audit N10: a one-node serve stayed cut off for good) */
    int others = 0;
    for (int i = 0; i < sv->nnodes; i++) others |= &sv->nodes[i] != n && sv->nodes[i].srv && !sv->nodes[i].partitioned;
    if (!others && !n->partitioned) {
        reply_errorf(out, "ERR partitioning '%s' would leave no node to send LOCKLAB HEAL to: keep one reachable "
                          "(serve --nodes 2 or more)", n->name);
        return;
    }
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
    who->paused_until_us = serve_true_us(sv) + ms * 1000;
    hist_event *e = world_record(sv->w, H_FAULT, who->node->widx);
    e->fault = FAULT_GC_PAUSE;
    e->param_ms = ms;
    history_set_text(e, "pause of c%d for %lld ms", who->conn.id, ms);
    serve_history_drain(sv);
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
                       k->closing ? "closing" : k->node->partitioned ? "partitioned" : k->paused_until_us ? "paused"
                       : k->conn.blocked ? "blocked" : k->drop_p > 0 ? "dropping" : "serving");
            reply_bulk_take(&e[n - 1 - (size_t)at++], b.p, b.len);
        }
}

/* ---- DROP, FAILOVER ---- */

/* A lost message of connection c, or the end of its loss, as the world records a drop. */
static void serve_drop_note(sclient *c, hist_kind k, const char *what)
{
    serve *sv = c->sv;
    hist_event *e = world_record(sv->w, k, c->node->widx);
    if (k == H_DROP) {
        e->msg = !strcmp(what, "request") ? HM_REQUEST : HM_REPLY;
        e->code = HL_LOSS;
        history_set_text(e, "%s of c%d lost", what, c->conn.id);
    } else {
        e->fault = FAULT_DROP;
        history_set_text(e, "message loss of c%d ends", c->conn.id);
    }
    serve_history_drain(sv);
}

int serve_dropped(sclient *c, const char *what)
{
    serve *sv = c->sv;
    if (c->drop_until_us && serve_true_us(sv) >= c->drop_until_us) {
        c->drop_p = 0;
        c->drop_until_us = 0;
        serve_drop_note(c, H_FAULT_END, what);
        return 0;
    }
    if (!chooser_chance(sv->ch, c->drop_p, "drop")) return 0;
    serve_drop_note(c, H_DROP, what);
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
    who->drop_until_us = p > 0 && ms ? serve_true_us(sv) + ms * 1000 : 0;
    if (p > 0) {
        hist_event *e = world_record(sv->w, H_FAULT, who->node->widx);
        e->fault = FAULT_DROP;
        e->rate = p;
        e->param_ms = ms ? ms : -1;
        history_set_text(e, "link of c%d drops %g%% of messages%s", who->conn.id, p * 100, ms ? "" : " until ended");
        if (ms) {
            size_t len = strlen(e->text);
            char *t = xmalloc(len + 32);
            snprintf(t, len + 32, "%s for %lld ms", e->text, ms);
            free(e->text);
            e->text = t;
        }
        serve_history_drain(sv);
    } else {
        serve_drop_note(who, H_FAULT_END, "");
    }
    reply_ok(out);
}

static void serve_ctl_failover(serve *sv, sclient *c, const slice *argv, int argc, reply *out)
{
    (void)argc;
    snode *old = serve_node_named(sv, argv[2], out);
    if (!old) return;
    if (world_node_master(sv->w, old->widx) >= 0) {
        reply_errorf(out, "ERR node '%s' is a replica: fail over its master", old->name);
        return;
    }
    int up = 0;
    for (int i = 0; i < sv->nnodes; i++)
        up |= world_node_master(sv->w, sv->nodes[i].widx) == old->widx && sv->nodes[i].srv;
    if (!up) {
        reply_errorf(out, "ERR node '%s' has no replica that is up", old->name);
        return;
    }
    serve_fault(sv, c, &(fault_cfg){ .kind = FAULT_FAILOVER, .target = (char *)old->name });
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
