/* clientint.h — what the parts of the clients share, and no other file: client_load.c (the
 * Lua state and the models loaded), client_run.c (the runtime: the coroutines, the events
 * that resume them), client_ctx.c, client_requests.c and client_time.c (the ctx API the
 * models call, which makes a coroutine wait) and client_sandbox.c (each step's budget). */
#ifndef LOCKLAB_CLIENTINT_H
#define LOCKLAB_CLIENTINT_H

#include <lauxlib.h>
#include <lua.h>
#include <math.h>

#include "client.h"
#include "dict.h"
#include "scriptlib.h"

typedef enum coro_state {
    CO_READY,       /* created, not started */
    CO_RUNNING,
    CO_WAIT_REPLY,  /* ctx:call / ctx:eval / ctx:subscribe */
    CO_WAIT_ANY,    /* ctx:receive: the next reply to any request of ctx:send */
    CO_SLEEP,       /* ctx:sleep */
    CO_WAIT_MSG,    /* ctx:wait */
    CO_CRITICAL,    /* inside ctx:critical, holding for work_ms */
    CO_DONE
} coro_state;

typedef struct coro {
    int idx;               /* its index in the client's coros (timers and replies name it) */
    void *L;               /* lua_State* of the coroutine */
    int ref;               /* registry reference that anchors it */
    coro_state state;
    uint64_t wait_gen;     /* bumped whenever the coroutine stops waiting */
    int *gen_steps;        /* exploring: per wait generation g, the step at which wait g ended
                              (core_step: what made a timer of wait g stale) */
    uint32_t ngen_steps, capgen_steps;
    uint64_t req_id;       /* the reply it waits for */
    int sub;               /* the subscription it waits on */
    int64_t token;         /* ctx:critical's token (-1: none) */
    int is_main;
    /* ctx:send / ctx:receive: the requests sent and not yet received or abandoned, and the
     * replies to them that came while the coroutine was not in ctx:receive (owned here) */
    uint64_t *pending;     /* pending[pending_head .. npending) */
    int npending, cappending, pending_head;
    struct msg **inbox;    /* inbox[inbox_head .. ninbox) */
    int ninbox, capinbox, inbox_head;
} coro;

/* What one request of ctx:send costs the model's memory cap from its sending until the model
 * receives or abandons its reply (the request in flight, its reply held, their records: the
 * audit measured about 2.5 KB each, N9), so unreceived replies cannot pile up beyond it. */
#define CLIENT_PENDING_COST 2048

typedef struct subscription {
    int shard;             /* the node name the client used */
    int node;              /* the node actually subscribed to */
    char *channel;
    char **queue;          /* messages not yet taken by ctx:wait */
    int nqueue, capqueue;
} subscription;

/* The clients of a world and the Lua runtime they share. */
struct clientrt {
    core *cx;
    net *net;
    cluster *cu;
    client *clients;    /* cx->nclients of them */
    int64_t resource_max_token; /* the fenced resource's highest accepted token */
    int failed;         /* a model raised an error: the run stops */
    char *failure;      /* the first one, "client A: ..." */
    /* the Lua state */
    lua_State *L;
    size_t mem, mem_limit;
    long budget;        /* instructions left to the running coroutine */
    int step_actions;   /* requests, spawns, logs and milestones of the running step */
    int killed;         /* a step ran out of its budget (1) or its CPU time (2): the run is over */
    int boot_ref;       /* the bootstrap function */
    int module_ref;     /* the protocol module (a table with new) */
    int workload_ref;   /* the workload function */
    char *dir;          /* the data directory */
    /* the scripts ctx:eval sends */
    scriptlib *lib;
    const scriptlib *shared_lib; /* borrowed, or NULL: lib is our own */
    const char *version;/* script version of the scenario ("3.11.1", "HEAD") */
    dict *bodies;       /* script id -> char* body (resolved once) */
};

/* The runtime of a ctx method or of require(): their first upvalue. */
static inline clientrt *rt_of(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

/* Pushes a reply on L as the model receives it: the kind's values, or nil and "connection
 * refused" when the node's host refused the connection. The number of values. */
static inline int push_reply(lua_State *L, const msg *m)
{
    if (m->refused) {
        lua_pushnil(L);
        lua_pushliteral(L, "connection refused");
        return 2;
    }
    return m->sk->reply_push(L, m->body);
}

/* The client whose ctx is argument 1 (a method's self). */
static inline client *ctx_client(lua_State *L)
{
    client **box = luaL_checkudata(L, 1, "locklab.ctx");
    return *box;
}

/* client_ctx.c: the scenario's options as a new table on L's stack (cfg.options, CHECK's). */
void client_push_options(lua_State *L, const scenario *sc);

/* client_time.c: the clock's ctx methods (their upvalue: the runtime), and the instants'
 * metatable, installed by ctx_open. */
extern const luaL_Reg ctx_time_methods[];
void instant_open(lua_State *L);

static inline int64_t local_now(const clientrt *rt, const client *c)
{
    return lclock_read(&c->clock, rt->cx->now_us);
}

/* ---- what the ctx methods share (client_ctx.c, client_requests.c) ---- */

/* Bounds (client_ctx.c's header): a request's arguments in all, a log line, the things one
 * step may do without waiting, and a wait past any run's end (ms). */
#define CTX_REQUEST_MAX ((size_t)16 << 20)
#define CTX_LOG_MAX 4096
#define CTX_STEP_ACTIONS 10000
#define CTX_MS_FAR 9e15 /* ms: past any run's end, and far from int64's limits */

/* One more thing done in this step; an error when the step has done too many. */
static inline void step_action(lua_State *L, clientrt *rt, const char *what)
{
    if (++rt->step_actions > CTX_STEP_ACTIONS)
        luaL_error(L, "ctx:%s: more than %d requests, spawns and logs in one step without waiting: an endless loop?",
                   what, CTX_STEP_ACTIONS);
}

/* A duration in ms at idx: a finite number (negative is taken as 0 by the callers). */
static inline double ms_arg(lua_State *L, int idx, const char *what)
{
    double ms = luaL_checknumber(L, idx);
    if (!isfinite(ms)) luaL_error(L, "ctx:%s: %f is not a duration: give a finite number of ms", what, ms);
    return ms;
}

static inline coro *current_coro(lua_State *L, client *c)
{
    for (int i = 0; i < c->ncoros; i++)
        if (c->coros[i]->L == L) return c->coros[i];
    luaL_error(L, "ctx used from outside its client's coroutines");
    return NULL;
}

static inline int coro_index(client *c, coro *co)
{
    (void)c;
    return co->idx;
}

/* Arms a timer that fires when the client's clock has advanced by ms. */
static inline void arm_timer(clientrt *rt, client *c, coro *co, double ms)
{
    int64_t at = INT64_MAX;
    if (ms < CTX_MS_FAR) { /* a finite wait (callers check); a farther one never comes within the run */
        int64_t target = local_now(rt, c) + (int64_t)(ms + 0.5);
        at = lclock_true_when(&c->clock, rt->cx->now_us, target);
    }
    if (at == INT64_MAX) at = rt->cx->sc->duration_us + 1;
    sched_push(rt->cx->q, at, EV_TIMER, c->idx, ((uint64_t)coro_index(c, co) << 32) | (co->wait_gen & 0xffffffff), NULL);
}

static inline int node_arg(lua_State *L, clientrt *rt, int arg)
{
    const char *name = luaL_checkstring(L, arg);
    int i = scenario_node_index(rt->cx->sc, name);
    if (i < 0) return luaL_error(L, "unknown node '%s'", name);
    return i;
}

/* client_run.c: frees the replies a coroutine received and has not taken (its inbox). */
void coro_drop_inbox(coro *co);

/* client_run.c: a model's error object as text, never NULL (tmp may hold it; no __tostring
 * runs); a new coroutine of client c, its thread created from (and anchored in the
 * registry of) L's state; not started. */
const char *client_error_text(lua_State *L, int idx, char *tmp, size_t n);
coro *coro_new(client *c, lua_State *L, int is_main);

/* client_requests.c: the ctx methods that send requests to nodes and take their replies
 * (call, eval, script, send, send_eval, receive, abandon, subscribe, unsubscribe, wait),
 * their upvalue the runtime. */
extern const luaL_Reg ctx_request_methods[];
/* client_ctx.c: registers the ctx objects' metatable (locklab.ctx) in L. */
void ctx_open(lua_State *L, clientrt *rt);
/* client_run.c: a write to the fenced resource with `token` (-1: none), accepted unless a
 * higher token came first (scenario.fencing). */
void client_resource_write(clientrt *rt, client *c, int64_t token);

/* client_sandbox.c: the clients' Lua state with its sandbox, allocator and budget hook
 * (NULL when it cannot be made); the budget of one step of model code, begun and ended around
 * each resume; the process's count of client runtimes (its CPU-time safety net runs while
 * there is one). */
lua_State *client_state_new(clientrt *rt);
size_t client_memory_limit(void);
void client_step_begin(clientrt *rt, lua_State *T);
void client_step_end(void);
void client_cpu_users_add(int d);

#endif
