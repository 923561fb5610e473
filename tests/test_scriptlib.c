/* test_scriptlib.c — the script library: the index loads and is valid, every body exists and
 * compiles as Redis compiles it, lookups by id / version range / release, nearest-match
 * errors, body extraction, and pinned SHA-1s (from a real redis-server's SCRIPT LOAD). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lua.h>

#include "script.h"
#include "scriptlib.h"

static scriptlib *lib_load(void)
{
    buf err;
    buf_init(&err);
    scriptlib *lib = scriptlib_load(NULL, &err);
    if (!lib) fail_msg("cannot load the library: %s", err.p);
    buf_release(&err);
    return lib;
}

static int setup(void **state)
{
    *state = lib_load();
    return 0;
}

static int teardown(void **state)
{
    scriptlib_free(*state);
    return 0;
}

static const char *find_id(const scriptlib *lib, const char *spec)
{
    const script_info *s = scriptlib_find(lib, spec, NULL);
    return s ? s->id : NULL;
}

static void test_scriptlib_index_loads(void **state)
{
    const scriptlib *lib = *state;
    assert_true(scriptlib_count(lib) >= 27);
    for (size_t i = 0; i < scriptlib_count(lib); i++) {
        const script_info *s = scriptlib_at(lib, i);
        assert_non_null(s->id);
        assert_non_null(s->protocol);
        assert_non_null(s->keys);
        assert_non_null(s->argv);
        assert_non_null(s->returns);
        /* The path is the id plus .lua: one scheme, documented in index.lua. */
        char want[512];
        snprintf(want, sizeof want, "lua/redis/%s.lua", s->id);
        assert_string_equal(s->path, want);
    }
}

static void test_scriptlib_bodies_compile(void **state)
{
    const scriptlib *lib = *state;
    for (size_t i = 0; i < scriptlib_count(lib); i++) {
        const script_info *s = scriptlib_at(lib, i);
        buf body, err;
        buf_init(&body);
        buf_init(&err);
        assert_int_equal(scriptlib_body(lib, s, &body, &err), 0);
        assert_true(body.len > 0);
        assert_null(strstr(body.p, "locklab:body"));
        lua_State *L = luaL_newstate();
        int rc = luaL_loadbufferx(L, body.p, body.len, "@user_script", "t");
        if (rc != LUA_OK) fail_msg("%s: %s", s->id, lua_tostring(L, -1));
        lua_close(L);
        buf_release(&body);
        buf_release(&err);
    }
}

static void test_scriptlib_version_cmp_orders(void **state)
{
    (void)state;
    assert_true(scriptlib_version_cmp("3.4.4", "3.11.1") < 0);
    assert_true(scriptlib_version_cmp("3.11.1", "3.31.0") < 0);
    assert_true(scriptlib_version_cmp("3.31.0", "HEAD") < 0);
    assert_true(scriptlib_version_cmp("HEAD", "3.4.4") > 0);
    assert_int_equal(scriptlib_version_cmp("3.4.4", "3.4.4"), 0);
    assert_int_equal(scriptlib_version_cmp("3.4", "3.4.0"), 0);
    assert_true(scriptlib_version_cmp("3.9.9", "3.10.0") < 0);
    assert_true(scriptlib_version_cmp("4.0.0", "3.99.99") > 0);
    /* Any non-numeric label counts as HEAD. */
    assert_int_equal(scriptlib_version_cmp("redis-docs", "HEAD"), 0);
    assert_true(scriptlib_version_cmp("redis-docs", "9.9.9") > 0);
}

static void test_scriptlib_find_exact_and_ranges(void **state)
{
    const scriptlib *lib = *state;
    assert_string_equal(find_id(lib, "redisson/lock@3.4.4"), "redisson/lock@3.4.4");
    assert_string_equal(find_id(lib, "redisson/lock@HEAD"), "redisson/lock@HEAD");
    assert_string_equal(find_id(lib, "redisson/lock"), "redisson/lock@HEAD");
    assert_string_equal(find_id(lib, "distlock/release"), "distlock/release@redis-docs");
    /* Same bytes over a known range: renew did not change from 3.0.0 to 3.43.x. */
    assert_string_equal(find_id(lib, "redisson/renew@3.4.4"), "redisson/renew@3.43.0");
    assert_string_equal(find_id(lib, "redisson-fair/unlock@3.4.4"), "redisson-fair/unlock@3.11.1");
    assert_string_equal(find_id(lib, "redisson-fair/unlock@3.31.0"), "redisson-fair/unlock@HEAD");
    assert_string_equal(find_id(lib, "redisson-fair/acquire-failed@3.11.1"),
                        "redisson-fair/acquire-failed@HEAD");
    /* Outside every range: not found (3.20.0 had a fair acquire we do not carry). */
    assert_null(find_id(lib, "redisson-fair/acquire@3.20.0"));
    assert_null(find_id(lib, "redisson/lock@3.0.0"));
    assert_null(find_id(lib, "redisson/lock@"));
}

static void test_scriptlib_resolve_picks_release(void **state)
{
    const scriptlib *lib = *state;
    buf err;
    buf_init(&err);
    assert_string_equal(scriptlib_resolve(lib, "redisson-fair/acquire", "3.20.0", &err)->id,
                        "redisson-fair/acquire@3.11.1");
    assert_string_equal(scriptlib_resolve(lib, "redisson-fair/acquire", "3.31.0", &err)->id,
                        "redisson-fair/acquire@3.31.0");
    assert_string_equal(scriptlib_resolve(lib, "redisson-fair/acquire", "HEAD", &err)->id,
                        "redisson-fair/acquire@HEAD");
    assert_string_equal(scriptlib_resolve(lib, "redisson/renew", "3.50.0", &err)->id,
                        "redisson/renew@HEAD");
    assert_string_equal(scriptlib_resolve(lib, "redisson/renew", "3.11.1", &err)->id,
                        "redisson/renew@3.43.0");
    assert_null(scriptlib_resolve(lib, "redisson/lock", "2.0.0", &err));
    assert_non_null(strstr(err.p, "no version of script 'redisson/lock' at or before 2.0.0"));
    buf_release(&err);
}

static void test_scriptlib_find_nearest_error(void **state)
{
    const scriptlib *lib = *state;
    buf err;
    buf_init(&err);
    assert_null(scriptlib_find(lib, "redisson/lok@3.4.4", &err));
    assert_string_equal(err.p, "unknown script 'redisson/lok@3.4.4'; nearest: redisson/lock@3.4.4, "
                               "redisson/lock@HEAD");
    buf_reset(&err);
    assert_null(scriptlib_find(lib, "redisson/unlock@1.0.0", &err));
    assert_string_equal(err.p, "unknown script 'redisson/unlock@1.0.0'; nearest: redisson/unlock@3.4.4, "
                               "redisson/unlock@3.11.1, redisson/unlock@HEAD");
    buf_release(&err);
}

/* Writes text to a fresh temporary file; returns its path (static buffer). */
static const char *write_temp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/locklab-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void expect_body(const char *file_text, const char *want)
{
    const char *path = write_temp(file_text);
    buf body, err;
    buf_init(&body);
    buf_init(&err);
    assert_int_equal(script_file_body(path, &body, &err), 0);
    assert_int_equal(body.len, strlen(want));
    assert_memory_equal(body.p ? body.p : "", want, body.len);
    unlink(path);
    buf_release(&body);
    buf_release(&err);
}

static void test_script_file_body_extracts(void **state)
{
    (void)state;
    /* After the marker, minus exactly one final newline; trailing spaces are kept. */
    expect_body("-- header\n-- locklab:body\nreturn 1; \n", "return 1; ");
    expect_body("-- locklab:body\nreturn 1\n\n", "return 1\n");
    expect_body("-- h\n-- locklab:body\nline1\nline2", "line1\nline2");
    /* No marker: the whole file, as redis-cli --eval sends it. */
    expect_body("-- just a script\nreturn 1\n", "-- just a script\nreturn 1\n");
    /* The marker must be a whole line. */
    expect_body("x = 1 -- locklab:body\nreturn x\n", "x = 1 -- locklab:body\nreturn x\n");
    expect_body("-- locklab:body extra\nreturn 2\n", "-- locklab:body extra\nreturn 2\n");
    expect_body("", "");

    buf body, err;
    buf_init(&body);
    buf_init(&err);
    assert_int_equal(script_file_body("/nonexistent/x.lua", &body, &err), -1);
    assert_string_equal(err.p, "cannot open '/nonexistent/x.lua': No such file or directory");
    buf_release(&body);
    buf_release(&err);
}

/* The SHA-1s a real redis-server 7.0.15 returned for SCRIPT LOAD of these bodies: if they
 * change, the file no longer holds the bytes Redisson sends. */
static void test_scriptlib_sha_pinned(void **state)
{
    const scriptlib *lib = *state;
    static const struct { const char *id, *sha; } pins[] = {
        { "redisson/lock@HEAD", "149c5a8bf18676fd99e9e6e24923bd64d9b62f94" },
        { "redisson/unlock@HEAD", "6866459238a13a701d42f4971f12d9f3a50e2442" },
        { "redisson-fair/acquire@HEAD", "8f6ed299ffd259f0539c20f89253998c0777ea75" },
    };
    for (size_t i = 0; i < LL_ARRAY_LEN(pins); i++) {
        buf body, err;
        buf_init(&body);
        buf_init(&err);
        const script_info *s = scriptlib_find(lib, pins[i].id, &err);
        assert_non_null(s);
        assert_int_equal(scriptlib_body(lib, s, &body, &err), 0);
        char sha[41];
        script_sha1hex(body.p, body.len, sha);
        assert_string_equal(sha, pins[i].sha);
        buf_release(&body);
        buf_release(&err);
    }
}

/* A scratch data directory (into dir[32]) with lua/redis/index.lua = index and one script
 * file a.lua. The test allocates nothing itself: under UNIT_TESTING cmocka owns free(). */
static void make_tree(char *dir, const char *index)
{
    snprintf(dir, 32, "/tmp/locklab-lib-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/lua", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/lua/redis", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/lua/redis/index.lua", dir);
    FILE *f = fopen(path, "w");
    fputs(index, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/lua/redis/a.lua", dir);
    f = fopen(path, "w");
    fputs("-- locklab:body\nreturn 1\n", f);
    fclose(f);
}

static void remove_tree(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/lua/redis/index.lua", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/lua/redis/a.lua", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/lua/redis", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/lua", dir);
    rmdir(path);
    rmdir(dir);
}

#define ENTRY(id, name, ver, extra)                                                              \
    "{ id = '" id "', name = '" name "', version = '" ver "', protocol = 'p', "                  \
    "path = 'lua/redis/a.lua', source = 's', what = 'w', keys = 'k', argv = 'a', returns = 'r'" extra " },"

static void expect_load_error(const char *index, const char *want)
{
    char dir[32];
    make_tree(dir, index);
    buf err;
    buf_init(&err);
    scriptlib *lib = scriptlib_load(dir, &err);
    if (lib) fail_msg("loaded a bad index: %s", index);
    assert_non_null(strstr(err.p, "index.lua"));
    if (!strstr(err.p, want)) fail_msg("error '%s' does not say '%s'", err.p, want);
    assert_null(strchr(err.p, '\n'));
    buf_release(&err);
    remove_tree(dir);
}

static void test_scriptlib_load_rejects_bad_index(void **state)
{
    (void)state;
    expect_load_error("return {" ENTRY("x/a@1.0", "x/a", "1.0", "") ENTRY("x/a@1.0", "x/a", "1.0", "") "}",
                      "duplicate id 'x/a@1.0'");
    expect_load_error("return { { id = 'x/a@1.0', name = 'x/a', version = '1.0' } }",
                      "entry 1: missing string field 'protocol'");
    expect_load_error("return {" ENTRY("x/a@1.0", "x/a", "1.0", ", path = 'lua/redis/none.lua'") "}",
                      "file 'lua/redis/none.lua' not found");
    expect_load_error("return {" ENTRY("x/a@2.0", "x/a", "1.0", "") "}", "is not name@version");
    expect_load_error("return {" ENTRY("x/a@1.0", "x/a", "1.0", ", since = '2.0'") "}",
                      "since '2.0' is newer than its version");
    expect_load_error("return {" ENTRY("x/a@1.0", "x/a", "1.0", ", since = '0.5'")
                          ENTRY("x/a@0.8", "x/a", "0.8", "") "}",
                      "cover overlapping versions");
    expect_load_error("return {", "index.lua:1:");
    expect_load_error("return 42", "does not return a table");
    expect_load_error("return { 'x' }", "entry 1: not a table");
}

static void test_scriptlib_load_missing_dir(void **state)
{
    (void)state;
    buf err;
    buf_init(&err);
    assert_null(scriptlib_load("/nonexistent", &err));
    assert_string_equal(err.p, "cannot open '/nonexistent/lua/redis/index.lua': No such file or directory");
    buf_release(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_scriptlib_index_loads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scriptlib_bodies_compile, setup, teardown),
        cmocka_unit_test(test_scriptlib_version_cmp_orders),
        cmocka_unit_test_setup_teardown(test_scriptlib_find_exact_and_ranges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scriptlib_resolve_picks_release, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scriptlib_find_nearest_error, setup, teardown),
        cmocka_unit_test(test_script_file_body_extracts),
        cmocka_unit_test_setup_teardown(test_scriptlib_sha_pinned, setup, teardown),
        cmocka_unit_test(test_scriptlib_load_rejects_bad_index),
        cmocka_unit_test(test_scriptlib_load_missing_dir),
    };
    return cmocka_run_group_tests_name("scriptlib", tests, NULL, NULL);
}
