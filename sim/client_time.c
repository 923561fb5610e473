/* client_time.c — the ctx API's clock: what a client model reads of its own time.
 *
 *   ctx:now()                       the client's clock, local ms
 *   ctx:monotonic()                 the same without clock jumps
 *   ctx:instant(), ctx:before(i)    a reading to measure from, and "is my clock still
 *                                   before it?"
 *
 * Nothing in the simulation sees true time: each client reads its own clock (clock.h),
 * which may drift or jump. What a model reads matters to the model checker's reductions
 * (model/reduce.c): a plain reading is assumed to steer whatever follows, a deadline decided
 * with ctx:before only through its margin (see "Instants" below). */
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdint.h>

#include "clientint.h"

static int ctx_now(lua_State *L)
{
    clientrt *rt = rt_of(L);
    core_clock_read(rt->cx);
    lua_pushinteger(L, local_now(rt, ctx_client(L)));
    return 1;
}

/* ---- Instants ----
 *
 * ctx:now() is a number, and whatever a model computes from it may steer its behaviour: the
 * model checker must assume that any change in what the clock read matters (model/reduce.c).
 * Most uses are deadlines — "is the validity used up?", "is the wait budget spent?" — and a
 * deadline can only flip when the clock moves by the margin left. So a model may read its
 * clock as an *instant*: ctx:instant() (or an instant plus or minus ms) is a point in its
 * local time, and ctx:before(i) says whether its clock is still before it. The checker then
 * knows the margin of each decision and explores a later message only where it could use the
 * margin up. ctx:before's second value, the ms to spare as a string (negative: late), is for
 * ctx:log only. An instant turned into a number (i1 - i2) counts as a reading of its clock as
 * ctx:now() does; comparing instants with < is an error: use ctx:before. */

typedef struct instant {
    double ms;          /* local ms */
    int origin;         /* the step that read the clock (core_step), or -1 */
    core *cx;
} instant;

static instant *push_instant(lua_State *L, core *cx, double ms, int origin)
{
    instant *i = lua_newuserdatauv(L, sizeof *i, 0);
    *i = (instant){ ms, origin, cx };
    luaL_setmetatable(L, "locklab.instant");
    return i;
}

static instant *to_instant(lua_State *L, int idx)
{
    return luaL_testudata(L, idx, "locklab.instant");
}

/* ms as a whole number, whatever a model added to an instant (no overflow, no NaN). */
static lua_Integer whole_ms(double v)
{
    if (v != v) return 0;
    if (v > 9e15) return (lua_Integer)9e15;
    if (v < -9e15) return (lua_Integer)-9e15;
    return (lua_Integer)v;
}

static int ctx_instant(lua_State *L)
{
    clientrt *rt = rt_of(L);
    push_instant(L, rt->cx, (double)local_now(rt, ctx_client(L)), core_step(rt->cx));
    return 1;
}

static int instant_add(lua_State *L)
{
    instant *a = to_instant(L, 1), *b = to_instant(L, 2);
    if (a && b) return luaL_error(L, "adding two instants means nothing; add ms to one");
    instant *i = a ? a : b;
    double ms = luaL_checknumber(L, a ? 2 : 1);
    if (!isfinite(ms)) return luaL_error(L, "an instant plus %f: give a finite number of ms", ms);
    push_instant(L, i->cx, i->ms + ms, i->origin);
    return 1;
}

static int instant_sub(lua_State *L)
{
    instant *a = to_instant(L, 1), *b = to_instant(L, 2);
    if (!a) return luaL_error(L, "subtracting an instant from a number means nothing");
    if (b) { /* a number of ms: both readings count as clock readings, as ctx:now() does */
        core_clock_read_at(a->cx, a->origin);
        core_clock_read_at(b->cx, b->origin);
        lua_pushnumber(L, a->ms - b->ms);
        return 1;
    }
    double ms = luaL_checknumber(L, 2);
    if (!isfinite(ms)) return luaL_error(L, "an instant minus %f: give a finite number of ms", ms);
    push_instant(L, a->cx, a->ms - ms, a->origin);
    return 1;
}

static int instant_compare(lua_State *L)
{
    return luaL_error(L, "instants are not compared with < or <=: ask ctx:before(instant)");
}

static int instant_tostring(lua_State *L)
{
    instant *i = to_instant(L, 1);
    double rel = i->ms - 1700000000000.0; /* the scenario's epoch (core.h) */
    lua_Integer a = whole_ms(rel < 0 ? -rel : rel);
    lua_pushfstring(L, "%s%I.%s%I%s", rel < 0 ? "-" : "", (lua_Integer)(a / 1000),
                    a % 1000 < 100 ? (a % 1000 < 10 ? "00" : "0") : "", (lua_Integer)(a % 1000), "s");
    return 1;
}

/* ctx:before(deadline): the client's clock still reads before it. A deadline given as a
 * number (built from ctx:now()) is a plain reading. */
static int ctx_before(lua_State *L)
{
    clientrt *rt = rt_of(L);
    client *c = ctx_client(L);
    double now = (double)local_now(rt, c), at;
    instant *i = to_instant(L, 2);
    if (i) {
        at = i->ms;
        /* the decision flips only when this reading and the one the deadline came from move
         * apart by the ms left between them (less one, for whole-ms readings), at the clock's
         * fastest rate: true µs that no move of one of them shorter than can flip it */
        double left = at > now ? at - now : now - at;
        double margin = left > 1 ? (left - 1) * 1000.0 / (1 + (c->clock.drift > 0 ? c->clock.drift : 0)) : 0;
        core_clock_compare(rt->cx, i->origin, margin < 9e18 ? (int64_t)margin : INT64_MAX, now < at);
    } else {
        at = luaL_checknumber(L, 2);
        if (at != at) return luaL_error(L, "ctx:before: NaN is not a deadline");
        core_clock_read(rt->cx);
    }
    lua_pushboolean(L, now < at);
    lua_pushfstring(L, "%I", whole_ms(at - now));
    return 2;
}

/* ctx:monotonic(): the client's clock without its jumps (CLOCK_MONOTONIC, Go's monotonic
 * reading, performance.now()): it runs at the clock's rate, drift included, but a clock_jump
 * fault (an NTP step, a hand-set clock) does not move it. */
static int ctx_monotonic(lua_State *L)
{
    clientrt *rt = rt_of(L);
    core_clock_read(rt->cx);
    lua_pushinteger(L, lclock_read_monotonic(&ctx_client(L)->clock, rt->cx->now_us));
    return 1;
}

const luaL_Reg ctx_time_methods[] = {
    { "now", ctx_now }, { "monotonic", ctx_monotonic }, { "instant", ctx_instant }, { "before", ctx_before },
    { NULL, NULL },
};

static const luaL_Reg instant_methods[] = {
    { "__add", instant_add }, { "__sub", instant_sub }, { "__lt", instant_compare }, { "__le", instant_compare },
    { "__tostring", instant_tostring }, { NULL, NULL },
};

void instant_open(lua_State *L)
{
    luaL_newmetatable(L, "locklab.instant");
    luaL_setfuncs(L, instant_methods, 0);
    lua_pushliteral(L, "locklab.instant");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}
