/* test_chunkcache.c — compiled chunks shared between Lua states: a text compiled once is
 * loaded from its dump by the next state and behaves as the text does (results, error
 * positions, source names); names and texts are told apart; texts that do not compile are
 * never kept; and worlds built through a cache run exactly as worlds built without one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "chunkcache.h"
#include "check.h"
#include "history.h"
#include "scenario.h"
#include "scriptlib.h"
#include "world.h"

/* Loads text through c in a fresh state and runs it; returns "ok:<result>" or
 * "error:<message>" (heap string). */
static char *load_and_run(chunkcache *c, const char *text, const char *name)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    buf out;
    buf_init(&out);
    int rc = chunkcache_load(c, L, text, strlen(text), name);
    if (rc == LUA_OK) rc = lua_pcall(L, 0, 1, 0);
    buf_printf(&out, "%s:%s", rc == LUA_OK ? "ok" : "error", luaL_tolstring(L, -1, NULL));
    lua_close(L);
    return buf_steal(&out);
}

static void expect_run(chunkcache *c, const char *text, const char *name, const char *want)
{
    char *got = load_and_run(c, text, name);
    assert_string_equal(got, want);
    free(got);
}

static void test_chunkcache_second_load_is_a_hit_and_the_same(void **state)
{
    (void)state;
    chunkcache *c = chunkcache_new();
    const char *text = "local t = {}\nfor i = 1, 3 do t[i] = i * i end\n"
                       "local function f() error('boom') end\n"
                       "local ok, e = pcall(f)\nreturn table.concat(t, ',') .. ' ' .. e .. ' ' ..\n"
                       "debug.getinfo(1, 'S').source";
    const char *want = "ok:1,4,9 model.lua:3: boom @model.lua";
    expect_run(c, text, "@model.lua", want);
    assert_int_equal(chunkcache_hits(c), 0);
    assert_int_equal(chunkcache_size(c), 1);
    expect_run(c, text, "@model.lua", want);
    expect_run(c, text, "@model.lua", want);
    assert_int_equal(chunkcache_hits(c), 2);
    /* The same text under another name is another chunk (the name is in its dump). */
    expect_run(c, text, "@other.lua", "ok:1,4,9 other.lua:3: boom @other.lua");
    assert_int_equal(chunkcache_size(c), 2);
    assert_int_equal(chunkcache_hits(c), 2);
    /* Without a cache: the text, compiled. */
    expect_run(NULL, text, "@model.lua", want);
    chunkcache_free(c);
    chunkcache_free(NULL);
}

static void test_chunkcache_errors_are_not_kept(void **state)
{
    (void)state;
    chunkcache *c = chunkcache_new();
    for (int i = 0; i < 2; i++)
        expect_run(c, "return 1 +", "@bad.lua", "error:bad.lua:1: unexpected symbol near <eof>");
    assert_int_equal(chunkcache_size(c), 0);
    assert_int_equal(chunkcache_hits(c), 0);
    /* A runtime error is the chunk's own: the compiled chunk is kept. */
    expect_run(c, "\nreturn nil .. 'x'", "@rt.lua", "error:rt.lua:2: attempt to concatenate a nil value");
    expect_run(c, "\nreturn nil .. 'x'", "@rt.lua", "error:rt.lua:2: attempt to concatenate a nil value");
    assert_int_equal(chunkcache_hits(c), 1);
    chunkcache_free(c);
}

/* The JSONL history and the verdicts of a library scenario, built with the given cache. */
static char *run_scenario(const char *name, chunkcache *c, uint64_t seed)
{
    buf path, err, out;
    buf_init(&path);
    buf_init(&err);
    buf_init(&out);
    buf_printf(&path, "%s/scenarios/%s.lua", ll_data_dir(), name);
    scenario *sc = scenario_load(path.p, &err);
    if (!sc) fail_msg("%s: %s", name, err.p);
    world_opts o = { .seed = seed, .chunks = c };
    world *w = world_new(sc, &o, &err);
    if (!w) fail_msg("%s: %s", name, err.p);
    world_run(w, &err);
    history_write_jsonl(world_history(w), &out);
    check_result cr;
    check_run(world_history(w), sc, &cr);
    for (int p = 0; p < PROP_COUNT; p++) buf_printf(&out, "%d", (int)cr.p[p].v);
    check_free(&cr);
    world_free(w);
    scenario_free(sc);
    buf_release(&path);
    buf_release(&err);
    return buf_steal(&out);
}

/* Client models (redisson and the fenced model it requires, redlock, the fair lock) and
 * the lock scripts of every node come out of the cache from the second world on, and every
 * world runs byte for byte as it does compiled from text. */
static void test_chunkcache_worlds_run_the_same(void **state)
{
    (void)state;
    static const char *const names[] = { "gc-pause-fencing", "redlock-crash-restart-nofsync",
                                         "fairlock-lease-timeout", "unlock-after-expiry" };
    chunkcache *c = chunkcache_new();
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < LL_ARRAY_LEN(names); i++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                char *plain = run_scenario(names[i], NULL, seed);
                char *cached = run_scenario(names[i], c, seed);
                if (strcmp(plain, cached) != 0) fail_msg("%s seed %llu differs through the cache", names[i], (unsigned long long)seed);
                free(plain);
                free(cached);
            }
    assert_true(chunkcache_hits(c) > 20);
    chunkcache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunkcache_second_load_is_a_hit_and_the_same),
        cmocka_unit_test(test_chunkcache_errors_are_not_kept),
        cmocka_unit_test(test_chunkcache_worlds_run_the_same),
    };
    return cmocka_run_group_tests_name("chunkcache", tests, NULL, NULL);
}
