/* test_bytecode.c — the proofs of bytecode.h on real Lua 5.4 dumps: which chunks may run
 * against the real globals (and refill KEYS/ARGV blindly), and every way a chunk could reach
 * or change the globals, the redis table or KEYS/ARGV withholding the verdict. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "scriptlib.h"
#include "util.h"

static const char *const sealed[] = { "redis", NULL };
static const char *const indexed[] = { "KEYS", "ARGV", NULL };
static const char *const banned[] = { "_G", "load", "loadstring", NULL };
static const bytecode_rules rules = { sealed, indexed, banned };

static int dump_writer(lua_State *L, const void *p, size_t n, void *ud)
{
    (void)L;
    buf_append(ud, p, n);
    return 0;
}

/* The verdicts for a chunk, compiled and dumped as script.c does. */
static unsigned verdict_n(const char *src, size_t len)
{
    lua_State *L = luaL_newstate();
    assert_non_null(L);
    if (luaL_loadbufferx(L, src, len, "@user_script", "t") != LUA_OK)
        fail_msg("does not compile: %s: %s", src, lua_tostring(L, -1));
    buf b;
    buf_init(&b);
    assert_int_equal(lua_dump(L, dump_writer, &b, 0), 0);
    unsigned v = bytecode_env_use(b.p, b.len, &rules);
    buf_release(&b);
    lua_close(L);
    return v;
}

static unsigned verdict(const char *src) { return verdict_n(src, strlen(src)); }

#define BOTH (BYTECODE_ENV_SAFE | BYTECODE_INDEXED_SAFE)

static void test_bytecode_lock_scripts_are_safe(void **state)
{
    (void)state;
    /* Redisson's lock and unlock (3.x), as in lua/redis/. */
    assert_int_equal(verdict("if ((redis.call('exists', KEYS[1]) == 0) or "
                             "(redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then "
                             "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
                             "redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; "
                             "return redis.call('pttl', KEYS[1]);"),
                     BOTH);
    assert_int_equal(verdict("local val = redis.call('get', KEYS[3]); if val ~= false then "
                             "return tonumber(val); end; local counter = redis.call('hincrby', "
                             "KEYS[1], ARGV[3], -1); if (counter > 0) then return 0 else "
                             "redis.call(ARGV[4], KEYS[2], ARGV[1]); return 1; end;"),
                     BOTH);
    /* Keys computed between reading the table and indexing it. */
    assert_int_equal(verdict("local i = 1; return {ARGV[i + 1], KEYS[#ARGV], ARGV[i * 2 - 1], KEYS[ARGV[1]]}"), BOTH);
    /* A variable index, #ARGV, a loop and a nested function are fine too. */
    assert_int_equal(verdict("local n = 0; for i = 1, #ARGV do n = n + #ARGV[i] end; "
                             "local function f(j) return redis.pcall('get', KEYS[j]) end; "
                             "return {n, f(1), KEYS.x, string.format('%d', 1)}"),
                     BOTH);
}

/* Every script of the library (lua/redis/) runs against the real globals, and every one
 * of them but node-redlock's only reads KEYS and ARGV: a change in the analysis that
 * withdrew either verdict would silently cost the lock scripts their speed. node-redlock's
 * scripts, written for several keys, hand KEYS to ipairs(), which the analysis cannot follow:
 * they run with KEYS refilled in full, correct and a little slower. */
static void test_bytecode_library_scripts_are_safe(void **state)
{
    (void)state;
    buf err, body;
    buf_init(&err);
    buf_init(&body);
    scriptlib *lib = scriptlib_load(NULL, &err);
    if (!lib) fail_msg("%s", err.p);
    assert_true(scriptlib_count(lib) >= 27);
    for (size_t i = 0; i < scriptlib_count(lib); i++) {
        const script_info *si = scriptlib_at(lib, i);
        assert_int_equal(scriptlib_body(lib, si, &body, &err), 0);
        unsigned v = verdict_n(body.p, body.len), want = strncmp(si->id, "node-redlock/", 13) ? BOTH : BYTECODE_ENV_SAFE;
        if (v != want) fail_msg("%s: verdict %u, want %u", si->id, v, want);
    }
    scriptlib_free(lib);
    buf_release(&body);
    buf_release(&err);
}

static void test_bytecode_global_writes_and_env_escape(void **state)
{
    (void)state;
    assert_int_equal(verdict("x = 1"), 0);
    assert_int_equal(verdict("local function f() y = 2 end; f()"), 0);
    assert_int_equal(verdict("redis = nil"), 0);
    assert_int_equal(verdict("local e = _ENV; e.x = 1"), 0);
    assert_int_equal(verdict("local function f() return _ENV end; return f()"), 0);
    assert_int_equal(verdict("_ENV = {}"), 0);
    assert_int_equal(verdict("return rawset(_ENV, 'x', 1)"), 0);
    /* A local named _ENV is a table in a register: its globals are not ours. */
    assert_int_equal(verdict("local _ENV = { y = 1 }; x = y"), BOTH);
}

static void test_bytecode_banned_globals(void **state)
{
    (void)state;
    assert_int_equal(verdict("return _G.redis"), 0);
    assert_int_equal(verdict("return _G"), 0);
    assert_int_equal(verdict("return loadstring('return 1')()"), 0);
    assert_int_equal(verdict("return load(function() return nil end)"), 0);
    assert_int_equal(verdict("local function f() return _G end; return 1"), 0);
}

static void test_bytecode_sealed_table_only_read_as_fields(void **state)
{
    (void)state;
    assert_int_equal(verdict("local r = redis; return r.call('ping')"), 0);
    assert_int_equal(verdict("redis.call = nil"), 0);
    assert_int_equal(verdict("redis.x = 1"), 0);
    assert_int_equal(verdict("return redis == 1"), 0);
    assert_int_equal(verdict("return redis"), 0);
    assert_int_equal(verdict("return rawset(redis, 'call', 1)"), 0);
    assert_int_equal(verdict("return setmetatable(redis, {})"), 0);
    assert_int_equal(verdict("for k in pairs(redis) do end"), 0);
    assert_int_equal(verdict("return redis['call']('ping')"), BOTH);
    assert_int_equal(verdict("return redis:call('ping')"), 0);
    assert_int_equal(verdict("local t = { redis }; return #t"), 0);
}

static void test_bytecode_indexed_tables_only_read(void **state)
{
    (void)state;
    /* Each of these keeps the run safe against the real globals but may change or keep
     * KEYS/ARGV, so the tables must be checked (or rebuilt) before the next run. */
    static const char *const writers[] = {
        "KEYS[1] = 'x'",
        "ARGV.x = 1",
        "table.insert(KEYS, 'x')",
        "return unpack(ARGV)",
        "setmetatable(KEYS, {})",
        "rawset(ARGV, 1, 'x')",
        "local k = KEYS; return k[1]",
        "return KEYS",
        "return redis.call('get', KEYS)",
        "local t = {}; t[KEYS] = 1",
        "local function f() KEYS[2] = 1 end; f()",
        "local t = {}; local k = KEYS; t[1] = k; return t[1][1]",
        "return KEYS[(function() return 1 end)()]",
    };
    for (size_t i = 0; i < LL_ARRAY_LEN(writers); i++) {
        unsigned v = verdict(writers[i]);
        if (v != BYTECODE_ENV_SAFE) fail_msg("%s: verdict %u, want %u", writers[i], v, BYTECODE_ENV_SAFE);
    }
}

static void test_bytecode_malformed_dumps(void **state)
{
    (void)state;
    assert_int_equal(bytecode_env_use("", 0, &rules), 0);
    assert_int_equal(bytecode_env_use("\x1bLua\x53", 5, &rules), 0); /* Lua 5.3 */
    /* Every truncation of a good dump is refused, never read past its end. */
    lua_State *L = luaL_newstate();
    const char *src = "local function f(x) return redis.call('get', KEYS[x]) end; return f(1)";
    assert_int_equal(luaL_loadbufferx(L, src, strlen(src), "@user_script", "t"), LUA_OK);
    buf b;
    buf_init(&b);
    lua_dump(L, dump_writer, &b, 0);
    assert_int_equal(bytecode_env_use(b.p, b.len, &rules), BOTH);
    for (size_t n = 0; n < b.len; n++) {
        char *copy = xmalloc(n ? n : 1); /* exactly n bytes: ASan sees any overread */
        memcpy(copy, b.p, n);
        assert_int_equal(bytecode_env_use(copy, n, &rules), 0);
        free(copy);
    }
    buf_release(&b);
    lua_close(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytecode_lock_scripts_are_safe),
        cmocka_unit_test(test_bytecode_library_scripts_are_safe),
        cmocka_unit_test(test_bytecode_global_writes_and_env_escape),
        cmocka_unit_test(test_bytecode_banned_globals),
        cmocka_unit_test(test_bytecode_sealed_table_only_read_as_fields),
        cmocka_unit_test(test_bytecode_indexed_tables_only_read),
        cmocka_unit_test(test_bytecode_malformed_dumps),
    };
    return cmocka_run_group_tests_name("bytecode", tests, NULL, NULL);
}
