/* serve_ctl.c — the world around the served nodes (serve.h): their clocks, their lives
 * (start, crash, restart, with what their persistence keeps), replication to replicas, the
 * periodic work Redis's serverCron does, the LOCKLAB control commands, and the history.
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
 * History. Each command run, connection, protocol error and fault is one JSON line in the
 * schema of docs/history.md ("t" true ms with µs, "ev", "actor" the node, "local" its clock,
 * "peer" the connection as "c<id>", "text", "reply"), written to --json as it happens and
 * kept in memory, the last --history-max of them within 64 MiB, for LOCKLAB HISTORY. A
 * command's text is MONITOR's rendering ("SET" "k" "v"), each argument cut at 16 KiB (a
 * lock script fits whole) and the text at 64 KiB. */
#include "serve.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "cli.h"
#include "object.h"
#include "repl.h"

#define SERVE_ARG_MAX ((size_t)16 << 10)
#define SERVE_TEXT_MAX ((size_t)64 << 10)
#define SERVE_BRIEF_MAX ((size_t)4 << 10)
#define SERVE_HISTORY_BYTES ((size_t)64 << 20)

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

int64_t serve_node_clock(void *ud)
{
    const snode *n = ud;
    const serve *sv = n->sv;
    int64_t base = sv->opt.manual ? REPL_START_MS : sv->start_real_ms;
    double run = (double)serve_true_us(sv) * (1.0 + n->drift) / 1000.0;
    return base + n->offset_ms + (int64_t)floor(run) + n->jump_ms;
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
    server_config cfg = { .clock = serve_node_clock, .clock_ud = n, .deliver = serve_deliver, .deliver_ud = n };
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
    int64_t now_ms = serve_true_us(sv) / 1000;
    for (int i = 0; i < sv->nnodes; i++) {
        snode *n = &sv->nodes[i];
        if (!n->srv) continue;
        if (n->master < 0) store_active_expire(server_store(n->srv));
        if (n->persist == PERSIST_EVERYSEC && now_ms - n->synced_at >= 1000) {
            store_free(n->synced);
            n->synced = store_clone(server_store(n->srv));
            n->synced_at = now_ms - now_ms % 1000;
        }
    }
    if (sv->hist.json && fflush(sv->hist.json) != 0 && !sv->hist.json_error) sv->hist.json_error = errno ? errno : EIO;
}

int serve_nodes_init(serve *sv)
{
    scenario *sc = NULL;
    if (sv->opt.scenario && cli_load_scenario("serve", sv->opt.scenario, &sc) != EXIT_OK) return -1;
    int nn = sc ? sc->nnodes : sv->opt.nnodes ? sv->opt.nnodes : 1;
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
        n->master = sc ? sc->nodes[i].master : -1;
        n->persist = sv->opt.persist >= 0 ? (persistence)sv->opt.persist : sc ? sc->nodes[i].persist : PERSIST_NONE;
        n->offset_ms = sc ? sc->nodes[i].clock.offset_ms : 0;
        n->drift = sc ? sc->nodes[i].clock.drift : 0;
        buf name;
        buf_init(&name);
        if (sc) buf_puts(&name, sc->nodes[i].name);
        else buf_printf(&name, "n%d", i + 1);
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
    sv->start_real_ms = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
    sv->start_mono_us = serve_mono_us();
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

/* ---- history ---- */

void serve_history_init(serve_history *h, size_t max)
{
    memset(h, 0, sizeof *h);
    h->cap = max;
    if (max) {
        h->line = xcalloc(max, sizeof *h->line);
        h->len = xcalloc(max, sizeof *h->len);
    }
}

/* Forgets every kept record. */
static void serve_history_clear(serve_history *h)
{
    for (size_t i = 0; i < h->cap; i++) {
        free(h->line[i]);
        h->line[i] = NULL;
    }
    h->n = h->head = h->bytes = 0;
}

void serve_history_release(serve_history *h)
{
    if (h->cap) serve_history_clear(h);
    free(h->line);
    free(h->len);
    memset(h, 0, sizeof *h);
}

/* The i-th kept record, oldest first. */
static size_t serve_history_slot(const serve_history *h, size_t i)
{
    return (h->head + h->cap - h->n + i) % h->cap;
}

static void serve_history_push(serve_history *h, const char *p, size_t n)
{
    if (!h->cap) return;
    while (h->n && (h->n == h->cap || h->bytes + n > SERVE_HISTORY_BYTES)) {
        size_t old = serve_history_slot(h, 0);
        h->bytes -= h->len[old];
        free(h->line[old]);
        h->line[old] = NULL;
        h->n--;
    }
    h->line[h->head] = xmemdup(p, n);
    h->len[h->head] = n;
    h->bytes += n;
    h->head = (h->head + 1) % h->cap;
    h->n++;
}

/* A JSON string of bytes: ASCII as is (escaped where JSON says), other bytes as \u00XX, so
 * that binary arguments still make valid JSON. */
static void serve_json_str(buf *out, const char *p, size_t n)
{
    buf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)p[i];
        if (ch == '"' || ch == '\\') buf_printf(out, "\\%c", ch);
        else if (ch == '\n') buf_puts(out, "\\n");
        else if (ch < 0x20 || ch >= 0x7f) buf_printf(out, "\\u%04x", ch);
        else buf_putc(out, (char)ch);
    }
    buf_putc(out, '"');
}

/* MONITOR's rendering of a command, within SERVE_ARG_MAX and SERVE_TEXT_MAX. */
static void serve_command_text(buf *out, int argc, const slice *argv)
{
    for (int i = 0; i < argc; i++) {
        if (out->len > SERVE_TEXT_MAX) {
            buf_printf(out, " ... (%d more arguments)", argc - i);
            return;
        }
        if (i) buf_putc(out, ' ');
        size_t n = argv[i].len < SERVE_ARG_MAX ? argv[i].len : SERVE_ARG_MAX;
        dump_repr(out, argv[i].p, n);
        if (n < argv[i].len) buf_printf(out, "... (%zu bytes)", argv[i].len);
    }
}

/* A reply as the history shows it (reply_to_brief's form), cut once out passes `end`
 * bytes: a long bulk keeps its first SERVE_BRIEF_MAX bytes, an array its first elements. */
static void serve_brief(buf *out, const reply *r, size_t end)
{
    if (r->type == REPLY_ARRAY || r->type == REPLY_MULTI) {
        buf_putc(out, '[');
        for (size_t i = 0; i < r->n; i++) {
            if (i) buf_puts(out, ", ");
            if (out->len > end) {
                buf_printf(out, "... (%zu more)", r->n - i);
                break;
            }
            serve_brief(out, &r->elem[i], end);
        }
        buf_putc(out, ']');
    } else if (r->type == REPLY_BULK && r->len > SERVE_BRIEF_MAX) {
        dump_repr(out, r->str, SERVE_BRIEF_MAX);
        buf_printf(out, "... (%zu bytes)", r->len);
    } else {
        reply_to_brief(r, out);
    }
}

void serve_record(serve *sv, const char *ev, const snode *n, const sclient *c, int argc,
                  const slice *argv, const char *text, const reply *rep)
{
    serve_history *h = &sv->hist;
    if (!h->cap && !h->json) return;
    int64_t t = serve_true_us(sv);
    buf line, tmp;
    buf_init(&line);
    buf_init(&tmp);
    buf_printf(&line, "{\"t\":%lld.%03lld,\"ev\":\"%s\",\"actor\":", (long long)(t / 1000),
               (long long)(t % 1000), ev);
    serve_json_str(&line, n->name, strlen(n->name));
    buf_printf(&line, ",\"local\":%lld", (long long)serve_node_clock((void *)n));
    if (c) buf_printf(&line, ",\"peer\":\"c%d\"", c->conn.id);
    if (argc) serve_command_text(&tmp, argc, argv);
    else if (text) buf_puts(&tmp, text);
    if (tmp.len) {
        buf_puts(&line, ",\"text\":");
        serve_json_str(&line, tmp.p, tmp.len);
    }
    if (rep) {
        buf_reset(&tmp);
        serve_brief(&tmp, rep, SERVE_BRIEF_MAX);
        buf_puts(&line, ",\"reply\":");
        serve_json_str(&line, tmp.p ? tmp.p : "", tmp.len);
    }
    buf_putc(&line, '}');
    serve_history_push(h, line.p, line.len);
    if (h->json) {
        buf_putc(&line, '\n');
        if (fwrite(line.p, 1, line.len, h->json) != line.len && !h->json_error) h->json_error = errno ? errno : EIO;
    }
    buf_release(&line);
    buf_release(&tmp);
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
    n->jump_ms += ms;
    char text[64];
    snprintf(text, sizeof text, "clock jumps %+lld ms", ms);
    serve_record(sv, "fault", n, c, 0, NULL, text, NULL);
    if (n->srv && n->master < 0) store_active_expire(server_store(n->srv));
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
        int conns = 0;
        for (sclient *k = n->clients; k; k = k->next) conns += !k->dead;
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

static const serve_subcommand serve_subcommands[] = {
    { "advance", 3, serve_ctl_advance }, { "crash", 3, serve_ctl_crash },
    { "help", 2, serve_ctl_help },       { "history", -2, serve_ctl_history },
    { "jump", 4, serve_ctl_jump },       { "nodes", 2, serve_ctl_nodes },
    { "restart", 3, serve_ctl_restart }, { "time", 2, serve_ctl_time },
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
        if ((s->arity > 0 && argc != s->arity) || (s->arity < 0 && (argc < -s->arity || argc > 3))) {
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
