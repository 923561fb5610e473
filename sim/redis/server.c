/* server.c — one fake Redis server (see server.h): wiring, and the path every client
 * command takes: lookup, arity, the subscribe-mode gate, the read-only-replica gate, then the
 * handler, given the server's parts in its context (commands.h). A script's redis.call takes
 * its own path (scripting_call, script_bridge.c). */
#include "server.h"

#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "script.h"

struct server {
    server_config cfg;
    store *db;
    pubsub *ps;
    scripting *lua;
    int replica;
};

server *server_new(const server_config *cfg)
{
    server *srv = xcalloc(1, sizeof *srv);
    srv->cfg = *cfg;
    if (!srv->cfg.lua_memory_limit) srv->cfg.lua_memory_limit = 64u << 20;
    if (!srv->cfg.lua_instruction_limit) srv->cfg.lua_instruction_limit = 500000000u;
    srv->db = store_new(cfg->clock, cfg->clock_ud);
    srv->ps = pubsub_new(cfg->deliver, cfg->deliver_ud);
    scripting_config lua = { .memory_limit = srv->cfg.lua_memory_limit,
                             .instruction_limit = srv->cfg.lua_instruction_limit,
                             .trace = cfg->trace, .trace_ud = cfg->trace_ud,
                             .load = cfg->load, .load_ud = cfg->load_ud };
    srv->lua = scripting_new(&lua);
    return srv;
}

void server_free(server *srv)
{
    if (!srv) return;
    scripting_free(srv->lua);
    pubsub_free(srv->ps);
    store_free(srv->db);
    free(srv);
}

store *server_store(server *srv) { return srv->db; }
pubsub *server_pubsub(server *srv) { return srv->ps; }
const server_config *server_config_of(const server *srv) { return &srv->cfg; }

store *server_swap_store(server *srv, store *db)
{
    store *old = srv->db;
    srv->db = db;
    store_set_replica(db, srv->replica);
    return old;
}

void server_set_replica(server *srv, int replica)
{
    srv->replica = replica;
    store_set_replica(srv->db, replica);
}

/* "unknown command 'foo', with args beginning with: 'a' 'b' " — Redis caps the echoed
 * arguments at 128 bytes and turns newlines into spaces (error replies are one line). */
static void reply_unknown(reply *out, int argc, const slice *argv)
{
    buf args;
    buf_init(&args);
    for (int i = 1; i < argc && args.len < 128; i++) {
        int room = 128 - (int)args.len;
        int n = argv[i].len < (size_t)room ? (int)argv[i].len : room;
        buf_printf(&args, "'%.*s' ", n, argv[i].p);
    }
    int nlen = argv[0].len < 128 ? (int)argv[0].len : 128;
    reply_errorf(out, "ERR unknown command '%.*s', with args beginning with: %s", nlen, argv[0].p,
                 args.p ? args.p : "");
    for (size_t i = 0; i < out->len; i++)
        if (out->str[i] == '\r' || out->str[i] == '\n') out->str[i] = ' ';
    buf_release(&args);
}

void server_exec(server *srv, conn *c, int argc, const slice *argv, reply *out)
{
    reply_release(out);
    LL_ASSERT(argc >= 1);
    const command *cmd = commands_lookup(argv[0]);
    if (!cmd) {
        reply_unknown(out, argc, argv);
        return;
    }
    if ((cmd->arity > 0 && argc != cmd->arity) || (cmd->arity < 0 && argc < -cmd->arity)) {
        reply_errorf(out, "ERR wrong number of arguments for '%s' command", cmd->name);
        return;
    }
    if (c && c->subscriptions > 0 && !(cmd->flags & CMD_PUBSUB)) {
        reply_errorf(out,
                     "ERR Can't execute '%s': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / "
                     "QUIT / RESET are allowed in this context",
                     cmd->name);
        return;
    }
    if (srv->replica && (cmd->flags & CMD_WRITE)) {
        reply_error(out, "READONLY You can't write against a read only replica.");
        return;
    }
    cmdctx ctx = { .db = srv->db, .ps = srv->ps, .lua = srv->lua, .conn = c, .argc = argc, .argv = argv,
                   .out = out };
    cmd->fn(&ctx);
}

void server_execv(server *srv, conn *c, reply *out, int argc, const char *const *argv)
{
    slice small[16] = { { NULL, 0 } };
    slice *v = argc <= 16 ? small : xmalloc((size_t)argc * sizeof *v);
    for (int i = 0; i < argc; i++) v[i] = slice_cstr(argv[i]);
    server_exec(srv, c, argc, v, out);
    if (v != small) free(v);
}

void server_call_from_script(server *srv, int argc, const slice *argv, reply *out)
{
    scripting_call(srv->lua, srv->db, srv->ps, argc, argv, out);
}
