/* client_sandbox.c — what client model code may do, and what one of its steps may cost
 * (client_run.c is the runtime around it).
 *
 * The sandbox: base, string, table and math, without print/dofile/loadfile/load and without
 * math.random (randomness must come from ctx:random, through the chooser, to keep runs
 * reproducible). require() loads only lua/clients/<name>.lua.
 *
 * The budget of one step (from a resume to the next wait), which model code cannot evade:
 *  - instructions: 20 million, counted by a count hook. Work done in C counts too: every 16
 *    bytes the model allocates, and every 16 bytes of subject string.find/match/gmatch/gsub
 *    scan, count as one instruction (so a few cheap calls over a 30 MB string are stopped
 *    like a loop that spins). All deterministic: a step is stopped at the same place on
 *    every run.
 *  - memory: CLIENT_MEMORY_LIMIT for the state, enforced by its allocator.
 *  - the error cannot be caught: once the budget is spent the hook fires on every
 *    instruction of the thread and raises again, so a model's pcall (or xpcall, or a loop
 *    around them) swallows it only until its next instruction; the run then ends with
 *    "client X: the client model M ran ... without waiting" (exit 2).
 *  - finalizers: a metatable with __gc is refused by setmetatable (Lua runs finalizers with
 *    hooks off, where no budget could stop them).
 *  - CPU time, a safety net for what the count hook cannot see (one C call that does not
 *    return, such as a pathological pattern): a timer on the process's CPU time
 *    (ITIMER_VIRTUAL, a tick each CLIENT_CPU_TICK_S seconds while a world has clients) looks
 *    whether the same step is still running; after CLIENT_CPU_STEP_TICKS ticks it makes the
 *    hook raise at the next instruction (lua_sethook is async-signal-safe), and if the step
 *    still has not returned CLIENT_CPU_EXIT_TICKS ticks later, it writes one line naming the
 *    model and exits 2. The line carries no timing, and a step within the instruction
 *    budget never comes near it. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "clientint.h"
#include "guard.h"

#define CLIENT_MEMORY_LIMIT (64u << 20)
#define CLIENT_INSTRUCTION_BUDGET 20000000 /* per resume */
#define HOOK_EVERY 1000
#define BYTES_PER_INSN 16 /* C work: bytes allocated or scanned per instruction charged */
#define CLIENT_CPU_TICK_S 1
#define CLIENT_CPU_STEP_TICKS 3  /* ticks one step may span before the hook is told to stop it */
#define CLIENT_CPU_EXIT_TICKS 2  /* further ticks before the process gives up on it */

/* ---- the CPU-time safety net ----
 * Process-wide (signals are): which state runs a step now, and a count of steps begun. The
 * handler only reads these, calls lua_sethook on the running thread, or writes and exits. */
static volatile sig_atomic_t cpu_in_step;     /* 1 while a model's step runs */
static volatile sig_atomic_t cpu_killed;      /* the safety net asked the hook to stop it */
static volatile sig_atomic_t cpu_step_serial; /* bumped at each step */
static lua_State *volatile cpu_thread;        /* the thread the step runs in */
static const char *volatile cpu_model;        /* its model, for the last line */
static int cpu_users;                         /* client runtimes alive in this process */
static pid_t cpu_pid;                         /* the process that armed the timer */

static void rt_hook(lua_State *L, lua_Debug *ar);

static void put_err(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(2, s, n);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

/* A request a node runs for a model (guard.h): the same net as a step's. */
static volatile sig_atomic_t guard_in_request, guard_serial, guard_over;
static volatile int *guard_stop;
static double guard_deadline;
static int guard_cuts; /* GUARD_CUT_*: why scripts were ended since guard_set_stop */

void guard_set_stop(volatile int *flag, double deadline)
{
    guard_stop = flag;
    guard_deadline = deadline;
    guard_cuts = 0;
}

int guard_cut(void)
{
    return guard_cuts;
}

double guard_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void guard_request_begin(void)
{
    guard_serial++;
    guard_over = 0;
    guard_in_request = 1;
}

static void guard_give_up(void)
{
    put_err("locklab: the client model ");
    put_err(cpu_model ? cpu_model : "?");
    put_err(" made a node run a script (EVAL or FCALL) that used up its CPU time without returning: "
            "an endless loop over a large string, or a pathological string pattern?\n");
    _exit(2);
}

void guard_request_end(void)
{
    guard_in_request = 0;
}

int guard_script_tick(void *ud, int wrote)
{
    (void)ud;
    (void)wrote;
    if (guard_over) guard_give_up(); /* the CPU-time net, from here rather than the signal */
    if (guard_stop && *guard_stop) {
        guard_cuts |= GUARD_CUT_STOP;
        return 1;
    }
    /* (a call per 100 instructions of a looping script, the clock read at every 8th: tens of
     * ns, against a few µs of script, or a few ms when each turn scans a large string) */
    static unsigned calls;
    if (guard_deadline > 0 &&
        ((guard_cuts & GUARD_CUT_DEADLINE) || ((++calls & 7) == 0 && guard_now() >= guard_deadline))) {
        guard_cuts |= GUARD_CUT_DEADLINE;
        return 1;
    }
    return 0;
}

static void guard_tick(void)
{
    static sig_atomic_t seen_serial = -1, ticks;
    if (!guard_in_request || guard_serial != seen_serial) {
        seen_serial = guard_serial;
        ticks = 0;
        return;
    }
    if (++ticks == CLIENT_CPU_STEP_TICKS) guard_over = 1; /* the script's next tick gives up */
    else if (ticks >= CLIENT_CPU_STEP_TICKS + CLIENT_CPU_EXIT_TICKS) guard_give_up(); /* a C call never returned */
}

static void cpu_tick(int sig)
{
    (void)sig;
    guard_tick();
    static sig_atomic_t seen_serial = -1, ticks;
    if (!cpu_in_step || cpu_step_serial != seen_serial) {
        seen_serial = cpu_step_serial;
        ticks = 0;
        return;
    }
    ticks++;
    if (ticks == CLIENT_CPU_STEP_TICKS && cpu_thread) {
        cpu_killed = 1;
        lua_sethook(cpu_thread, rt_hook, LUA_MASKCOUNT, 1);
    } else if (ticks >= CLIENT_CPU_STEP_TICKS + CLIENT_CPU_EXIT_TICKS) {
        put_err("locklab: the client model ");
        put_err(cpu_model ? cpu_model : "?");
        put_err(" used up its CPU time in one step without returning from a library call "
                "(a pathological string pattern?)\n");
        _exit(2);
    }
}

static void cpu_arm(int on)
{
    struct itimerval it = { { on ? CLIENT_CPU_TICK_S : 0, 0 }, { on ? CLIENT_CPU_TICK_S : 0, 0 } };
    if (on) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = cpu_tick;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGVTALRM, &sa, NULL);
    }
    setitimer(ITIMER_VIRTUAL, &it, NULL);
}

/* A runtime comes or goes: the timer runs while there is one (in this process: a forked
 * worker inherits the count but not the timer). */
void client_cpu_users_add(int d)
{
    if (cpu_pid != getpid()) {
        cpu_pid = getpid();
        cpu_users = 0;
    }
    if (d > 0 && cpu_users++ == 0) cpu_arm(1);
    if (d < 0 && cpu_users > 0 && --cpu_users == 0) cpu_arm(0);
}

void client_step_begin(clientrt *rt, lua_State *T)
{
    rt->budget = CLIENT_INSTRUCTION_BUDGET;
    rt->step_actions = 0;
    cpu_thread = T;
    cpu_model = rt->cx->sc->protocol;
    cpu_step_serial++;
    cpu_in_step = 1;
}

void client_step_end(void)
{
    cpu_in_step = 0;
    cpu_thread = NULL;
}

static void *rt_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    clientrt *rt = ud;
    if (nsize == 0) {
        if (ptr) rt->mem -= osize;
        free(ptr);
        return NULL;
    }
    size_t old = ptr ? osize : 0;
    if (nsize > old && rt->mem + (nsize - old) > rt->mem_limit) return NULL;
    void *p = realloc(ptr, nsize);
    if (p) rt->mem = rt->mem - old + nsize;
    if (p && nsize > old) rt->budget -= (long)((nsize - old) / BYTES_PER_INSN); /* seen at the hook's next call */
    return p;
}

static void rt_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    clientrt *rt;
    lua_getallocf(L, (void **)&rt);
    if (!rt->killed) {
        rt->budget -= HOOK_EVERY;
        if (rt->budget >= 0 && !cpu_killed) return;
        rt->killed = cpu_killed ? 2 : 1;
    }
    /* From now on every instruction of this thread raises again: no pcall can keep it. */
    lua_sethook(L, rt_hook, LUA_MASKCOUNT, 1);
    luaL_where(L, 0); /* in a hook, level 0 is the function it stopped */
    if (rt->killed == 2)
        lua_pushfstring(L, "the client model %s used up its CPU time in one step without waiting: an endless loop?",
                        rt->cx->sc->protocol);
    else
        lua_pushfstring(L, "the client model %s ran %d instructions without waiting: an endless loop?",
                        rt->cx->sc->protocol, CLIENT_INSTRUCTION_BUDGET);
    lua_concat(L, 2);
    lua_error(L);
}

/* string.find/match/gmatch/gsub (upvalue 1), charged a share of the budget for the subject
 * they may scan; the hook raises at its next call if that spent it. */
static int charged_scan(lua_State *L)
{
    clientrt *rt;
    lua_getallocf(L, (void **)&rt);
    size_t n = 0;
    if (lua_type(L, 1) == LUA_TSTRING) lua_tolstring(L, 1, &n);
    rt->budget -= (long)(n / BYTES_PER_INSN);
    if (rt->budget < 0 && !rt->killed) {
        rt->killed = 1;
        lua_sethook(L, rt_hook, LUA_MASKCOUNT, 1);
        return luaL_error(L, "the client model %s ran %d instructions without waiting: an endless loop?",
                          rt->cx->sc->protocol, CLIENT_INSTRUCTION_BUDGET);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* setmetatable (upvalue 1) without finalizers: Lua runs __gc with hooks off, out of the
 * budget's reach. */
static int no_gc_setmetatable(lua_State *L)
{
    if (lua_type(L, 2) == LUA_TTABLE && lua_getfield(L, 2, "__gc") != LUA_TNIL)
        return luaL_error(L, "setmetatable: a __gc finalizer is not allowed in a client model");
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* tostring (upvalue 1) with the same text on every run: Lua names a table, a function or a
 * coroutine by its address ("table: 0x55..."), which differs between two runs of one
 * scenario and seed; here it is "table: #n", n counting the values named so far in this
 * client (a weak registry table, upvalue 2), which a run repeats exactly. A __tostring or
 * __name metamethod still speaks for its value. */
static int same_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    int t = lua_type(L, 1);
    int by_address = t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TUSERDATA;
    if (by_address && luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL && luaL_getmetafield(L, 1, "__name") == LUA_TNIL) {
        lua_settop(L, 1);
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_pushvalue(L, 1);
        if (lua_rawget(L, -2) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 0);
            lua_Integer next = lua_tointeger(L, -1) + 1;
            lua_pop(L, 1);
            lua_pushinteger(L, next);
            lua_rawseti(L, -2, 0);
            lua_pushvalue(L, 1);
            lua_pushinteger(L, next);
            lua_rawset(L, -3);
            lua_pushinteger(L, next);
        }
        lua_pushfstring(L, "%s: #%I", luaL_typename(L, 1), (LUAI_UACINT)lua_tointeger(L, -1));
        return 1;
    }
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    return 1;
}

/* string.format (upvalue 1) without %p: an address, which differs between two runs. */
static int format_no_address(lua_State *L)
{
    const char *f = luaL_checkstring(L, 1);
    for (const char *c = f; *c; c++) {
        if (*c != '%') continue;
        c++;
        if (*c == '%') continue;
        while (*c && strchr("-+ #0123456789.", *c)) c++;
        if (*c == 'p') return luaL_error(L, "string.format: %%p gives an address, which differs between two runs of the same scenario: use tostring");
        if (!*c) break;
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* next and pairs over keys whose order a run repeats: Lua orders a table's keys by their
 * hashes, and a table, function or coroutine used as a key hashes by its address, which
 * differs between two runs of one scenario and seed (strings hash with a seed fixed at the
 * build: tools/lua.mk). Such a key is refused, saying what to do instead. */
static int checked_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (!lua_next(L, 1)) {
        lua_pushnil(L);
        return 1;
    }
    int t = lua_type(L, -2);
    if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TUSERDATA)
        return luaL_error(L, "pairs/next over a table keyed by a %s: their order follows memory addresses, which "
                          "differ between two runs of the same scenario; key it by a name or a number, or keep a list",
                          lua_typename(L, t));
    return 2;
}

static int checked_pairs(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) { /* the table's own order */
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushcfunction(L, checked_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int no_random(lua_State *L)
{
    return luaL_error(L, "math.random is not available to client models: use ctx:random(lo, hi), which the simulation can replay");
}

static void open_sandbox(lua_State *L, clientrt *rt)
{
    luaL_requiref(L, "_G", luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    lua_pop(L, 4);
    static const char *const banned[] = { "dofile", "loadfile", "load", "print", "collectgarbage", NULL };
    for (int i = 0; banned[i]; i++) {
        lua_pushnil(L);
        lua_setglobal(L, banned[i]);
    }
    lua_pushcfunction(L, checked_next);
    lua_setglobal(L, "next");
    lua_pushcfunction(L, checked_pairs);
    lua_setglobal(L, "pairs");
    lua_getglobal(L, "tostring");
    lua_newtable(L); /* the names given so far, weak in their keys */
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, same_tostring, 2);
    lua_setglobal(L, "tostring");
    lua_getglobal(L, "string");
    lua_getfield(L, -1, "format");
    lua_pushcclosure(L, format_no_address, 1);
    lua_setfield(L, -2, "format");
    lua_pop(L, 1);
    lua_getglobal(L, "math");
    lua_pushcfunction(L, no_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, no_random);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    static const char *const scans[] = { "find", "match", "gmatch", "gsub", NULL };
    lua_getglobal(L, "string");
    for (int i = 0; scans[i]; i++) {
        lua_getfield(L, -1, scans[i]);
        lua_pushcclosure(L, charged_scan, 1);
        lua_setfield(L, -2, scans[i]);
    }
    lua_pop(L, 1);
    lua_getglobal(L, "setmetatable");
    lua_pushcclosure(L, no_gc_setmetatable, 1);
    lua_setglobal(L, "setmetatable");
}

lua_State *client_state_new(clientrt *rt)
{
    rt->mem_limit = CLIENT_MEMORY_LIMIT;
    lua_State *L = lua_newstate(rt_alloc, rt);
    if (!L) return NULL;
    open_sandbox(L, rt);
    lua_sethook(L, rt_hook, LUA_MASKCOUNT, HOOK_EVERY);
    return L;
}

size_t client_memory_limit(void)
{
    return CLIENT_MEMORY_LIMIT;
}
