/* fault_crash.c — a crash ({ at = "5s", crash = "n1" }): a node goes down (and restarts after
 * restart_after_ms when the search gave it a delay, or at a restart fault, or after its
 * restart_delay); a client's process dies, its host closing its connections, or with
 * host = true its whole host vanishes silently, the servers noticing at their TCP
 * keepalive (its `duration`). */
#include "faultint.h"

#include <lua.h>

static void read(struct loader *ld, int t, const char *path, fault_cfg *f)
{
    lua_State *L = ld->rd.L;
    char p[PATH_LEN];
    int ty = rd_get(L, t, "host");
    rd_path_key(p, path, "host");
    if (ty != LUA_TNIL && ty != LUA_TBOOLEAN)
        rd_fail(&ld->rd, p, "%s must be true (the client's host vanishes: no FIN, no reset) or false (its "
                "process dies and its host closes the connections), not %s", p, rd_type_name(L, -1));
    f->host = ty == LUA_TBOOLEAN && lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (f->host && scenario_node_index(ld->s, f->target) >= 0)
        rd_fail(&ld->rd, p, "%s: a host crash is a client's (a node's crash is its host's already)", p);
    /* the servers notice a vanished client when their TCP keepalive gives up on it */
    if (f->host) f->duration_us = ld->s->keepalive_us;
}

static void describe(const fault_cfg *f, buf *out)
{
    if (f->host) {
        buf_printf(out, "crash of %s's host (silent: the servers notice at their TCP keepalive, %lld ms)", f->target,
                   (long long)(f->duration_us / 1000));
        return;
    }
    buf_printf(out, "crash of %s", f->target);
    if (f->restart_after_ms > 0) buf_printf(out, " (restarts after %lld ms)", (long long)f->restart_after_ms);
}

static void note(const fault_cfg *f, hist_event *e)
{
    e->param_ms = f->restart_after_ms > 0 ? f->restart_after_ms : 0;
}

static void start(struct world *w, const fault_cfg *f, int id, int target, int64_t early)
{
    (void)id;
    if (target < w->cx.nnodes) node_crash(&w->cu, &w->cu.nodes[target]);
    else if (f->host) client_vanish(w->rt, fault_client(w, target));
    else client_crash(w->rt, fault_client(w, target));
    /* its restart: already past when it landed more than that much earlier (then at once);
     * else pushed as where it landed would have pushed it (sched_push_since: among what is
     * due at its instant, after what was pushed before then) */
    if (f->restart_after_ms > 0 && target < w->cx.nnodes) {
        int64_t len = f->restart_after_ms * 1000;
        if (early > len) node_restart(&w->cu, &w->cu.nodes[target]);
        else sched_push_since(w->cx.q, steps_seq_at(w, w->cx.now_us - early), w->cx.now_us - early + len, EV_RESTART, target, 0, NULL);
    }
}

/* a vanished host: the servers' keepalive gives up on its connections */
static void end(struct world *w, const fault_cfg *f, int id, int target)
{
    (void)id;
    if (f->host) client_drop_connections(w->rt, fault_client(w, target));
}

/* crashing what is down changes nothing */
static int idle(const struct world *w, const fault_cfg *f, int target)
{
    (void)f;
    if (target < 0) return 0;
    return target < w->cx.nnodes ? !w->cu.nodes[target].up : clients_at(w->rt, target - w->cx.nnodes)->dead;
}

static void write(buf *b, const scenario *sc, const fault_cfg *f)
{
    (void)sc;
    buf_puts(b, "  { at = ");
    fault_put_us(b, f->at_us);
    buf_printf(b, ", crash = \"%s\" },\n", f->target);
    if (f->restart_after_ms > 0) {
        buf_puts(b, "  { at = ");
        fault_put_us(b, f->at_us + f->restart_after_ms * 1000);
        buf_printf(b, ", restart = \"%s\" },\n", f->target);
    }
}

static void offer(fault_cfg *f, const char *target, int64_t us, double value)
{
    (void)value;
    f->target = (char *)target;
    f->restart_after_ms = us / 1000;
}

static int64_t length(const fault_cfg *f)
{
    return f->restart_after_ms > 0 ? f->restart_after_ms * 1000 : 0;
}

const fault_def fault_crash = {
    .kind = FAULT_CRASH,
    .targets = FT_NODE | FT_CLIENT,
    .keys = { "host" }, .nkeys = 1, .nrequired = 0,
    .read = read,
    .write = write,
    .describe = describe,
    .note = note,
    .start = start,
    .end = end,
    .idle = idle,
    .param = FP_US,
    .tied = 1,
    .offer = offer,
    .length = length,
};
