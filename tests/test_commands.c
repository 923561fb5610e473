/* test_commands.c — the command table and its lookup: every command is found by its name in
 * any case, nothing else is, and the hand-written perfect-hash slot table in commands.c
 * agrees with the command table. Then transactions (MULTI/EXEC/WATCH, server.c) where the
 * differential cases cannot reach: two connections on one server, the engine's active
 * expiry, a read-only replica, a closed connection, a swapped keyspace. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fixture.h"

/* Prints a multiplier under which the current table is collision-free, and its slot table,
 * for pasting into commands.c after a command was added. */
static void print_new_slot_table(void)
{
    size_t n = commands_count();
    for (uint32_t m = 1; m < 2000000; m += 2) {
        uint32_t mul = m * 0x9E3779B1u;
        unsigned char slot[COMMANDS_SLOTS] = { 0 };
        size_t i;
        for (i = 0; i < n; i++) {
            const command *c = commands_at(i);
            unsigned h = commands_hash((slice){ c->name, c->namelen }, mul);
            if (slot[h]) break;
            slot[h] = (unsigned char)(i + 1);
        }
        if (i < n) continue;
        printf("#define COMMANDS_HASH_MUL 0x%08xu\nstatic const unsigned char slot_of[COMMANDS_SLOTS] = {\n", mul);
        for (int r = 0; r < COMMANDS_SLOTS; r++) printf("%s%2d,%s", r % 16 ? " " : "    ", slot[r], r % 16 == 15 ? "\n" : "");
        printf("};\n");
        return;
    }
    printf("no collision-free multiplier found: widen the hash key in commands_hash\n");
}

static void test_commands_slot_table_matches_command_table(void **state)
{
    (void)state;
    size_t n = commands_count();
    assert_true(n < 255);
    unsigned char want[COMMANDS_SLOTS] = { 0 };
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        const command *c = commands_at(i);
        assert_int_equal(strlen(c->name), c->namelen);
        assert_true(c->namelen >= 3 && c->namelen <= 16);
        if (i) assert_true(strcmp(commands_at(i - 1)->name, c->name) < 0);
        unsigned h = commands_hash((slice){ c->name, c->namelen }, commands_hash_mul());
        if (want[h]) ok = 0;
        want[h] = (unsigned char)(i + 1);
    }
    for (unsigned h = 0; ok && h < COMMANDS_SLOTS; h++)
        if (commands_slot(h) != want[h]) ok = 0;
    if (!ok) print_new_slot_table();
    assert_true(ok);
}

static void test_commands_lookup_finds_every_command_in_any_case(void **state)
{
    (void)state;
    for (size_t i = 0; i < commands_count(); i++) {
        const command *c = commands_at(i);
        char upper[32], mixed[32];
        for (size_t k = 0; k <= c->namelen; k++) {
            char ch = c->name[k];
            upper[k] = ch >= 'a' && ch <= 'z' ? (char)(ch - 32) : ch;
            mixed[k] = k % 2 ? upper[k] : ch;
        }
        assert_ptr_equal(commands_lookup(slice_cstr(c->name)), c);
        assert_ptr_equal(commands_lookup(slice_cstr(upper)), c);
        assert_ptr_equal(commands_lookup(slice_cstr(mixed)), c);
    }
}

static void test_commands_lookup_rejects_unknown_names(void **state)
{
    (void)state;
    static const char *const bad[] = { "", "g", "ge", "gets", "sget", "hgetal", "hgetalll", "evalsh",
                                       "zremrangebyscorex", "xyz", "set\n", "s\0t", "hincrbyfloats",
                                       "watchx", "exex", "EXPIREAT_", "get ", "hkeys1" };
    for (size_t i = 0; i < LL_ARRAY_LEN(bad); i++) assert_null(commands_lookup(slice_cstr(bad[i])));
    /* Same hash key (first four letters, last two, length) as a command, other middle. */
    assert_null(commands_lookup(SLICE_LIT("hincxby")));
    assert_null(commands_lookup(SLICE_LIT("s\0t")));
    assert_null(commands_lookup(SLICE_LIT("GET\0")));
}

/* Runs a command on connection c of f's server (the fixture's own is f->c). */
#define ON(f, cn, ...) on(f, cn, (const char *[]){ __VA_ARGS__, NULL })
static const char *on(fixture *f, conn *c, const char **words)
{
    int n = 0;
    while (words[n]) n++;
    server_execv(f->srv, c, &f->r, n, words);
    return fixture_printed(f);
}

static void test_multi_watch_across_connections(void **state)
{
    fixture *f = *state;
    conn other = { .id = 2 };
    assert_string_equal(RUN(f, "set", "k", "1"), "OK");
    assert_string_equal(RUN(f, "watch", "k"), "OK");
    assert_string_equal(ON(f, &other, "multi"), "OK");
    assert_string_equal(ON(f, &other, "set", "k", "2"), "QUEUED");
    assert_string_equal(RUN(f, "multi"), "OK");       /* each connection has its own */
    assert_string_equal(RUN(f, "get", "k"), "QUEUED");
    int written = f->events[STORE_WRITTEN];
    assert_string_equal(ON(f, &other, "exec"), "1) OK");
    assert_int_equal(f->events[STORE_WRITTEN], written + 1); /* the observer still hears */
    assert_string_equal(RUN(f, "exec"), "(nil)");
    /* the watches are gone: the same again runs */
    assert_string_equal(RUN(f, "multi"), "OK");
    assert_string_equal(RUN(f, "get", "k"), "QUEUED");
    assert_string_equal(ON(f, &other, "set", "k", "3"), "OK");
    assert_string_equal(RUN(f, "exec"), "1) \"3\"");
}

static void test_watch_and_the_engines_active_expiry(void **state)
{
    fixture *f = *state;
    assert_string_equal(RUN(f, "set", "lease", "v", "px", "100"), "OK");
    assert_string_equal(RUN(f, "watch", "lease", "never"), "OK");
    f->now += 101;
    assert_int_equal(store_active_expire(server_store(f->srv)), 1);
    assert_string_equal(RUN(f, "multi"), "OK");
    assert_string_equal(RUN(f, "exec"), "(nil)");
    /* a key that ran out before WATCH is watched as missing: its reaping changes nothing */
    assert_string_equal(RUN(f, "set", "old", "v", "px", "10"), "OK");
    f->now += 11;
    assert_string_equal(RUN(f, "watch", "old"), "OK");
    assert_int_equal(store_active_expire(server_store(f->srv)), 0);
    assert_string_equal(RUN(f, "multi"), "OK");
    assert_string_equal(RUN(f, "exec"), "(empty array)");
}

static void test_multi_on_a_replica_and_closed_connections(void **state)
{
    fixture *f = *state;
    server_set_replica(f->srv, 1);
    assert_string_equal(RUN(f, "multi"), "OK");
    assert_string_equal(RUN(f, "set", "k", "v"),
                        "(error) READONLY You can't write against a read only replica.");
    assert_string_equal(RUN(f, "get", "k"), "QUEUED");
    assert_string_equal(RUN(f, "exec"), "(error) EXECABORT Transaction discarded because of previous errors.");
    server_set_replica(f->srv, 0);
    /* a connection closed in MULTI and watching: nothing of it stays */
    assert_string_equal(RUN(f, "watch", "k"), "OK");
    assert_string_equal(RUN(f, "multi"), "OK");
    server_conn_closed(f->srv, f->c.id);
    assert_string_equal(RUN(f, "exec"), "(error) ERR EXEC without MULTI");
    server_conn_closed(f->srv, 99); /* unknown: nothing to do */
}

static void test_watch_and_a_swapped_keyspace(void **state)
{
    fixture *f = *state;
    assert_string_equal(RUN(f, "watch", "k"), "OK");
    store *fresh = store_new(fixture_clock, f);
    store_set(fresh, SLICE_LIT("k"), OBJ_STRING, store_sstr_new(fresh, "v", 1), 0);
    store_free(server_swap_store(f->srv, fresh));
    assert_string_equal(RUN(f, "multi"), "OK");
    assert_string_equal(RUN(f, "exec"), "(nil)");
}

/* Every command has its row of Redis's COMMAND INFO flags (command_info.c), and what the
 * table says of writing, reading and scripts agrees with it (the containers CLIENT, CONFIG,
 * SCRIPT and FUNCTION excepted: Redis flags their subcommands, not them). */
static void test_commands_info_flags_agree_with_the_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < commands_count(); i++) {
        const command *cmd = commands_at(i);
        const char *flags = command_doc_flags(cmd->name, 0), *acl = command_doc_flags(cmd->name, 1);
        if (!flags || !acl) fail_msg("no COMMAND INFO row for '%s'", cmd->name);
        char padded[256];
        snprintf(padded, sizeof padded, " %s ", flags);
        if (!strcmp(cmd->name, "client") || !strcmp(cmd->name, "config") || !strcmp(cmd->name, "script") ||
            !strcmp(cmd->name, "function"))
            continue;
        if (!(cmd->flags & CMD_WRITE) != !strstr(padded, " write ")) fail_msg("'%s': write", cmd->name);
        if (!(cmd->flags & CMD_READONLY) != !strstr(padded, " readonly ")) fail_msg("'%s': readonly", cmd->name);
        if (!(cmd->flags & CMD_NOSCRIPT) != !strstr(padded, " noscript ")) fail_msg("'%s': noscript", cmd->name);
    }
}

/* FUNCTION STATS asked while a function runs (a host lets it through while busy, as Redis's
 * allow-busy flag does): running_script names the function, its FCALL and how long it has
 * run by the server's clock; while an EVAL runs it answers Redis's BUSY for scripts. Asked
 * from the script's periodic tick, the way locklab serve answers clients during a long script. */
typedef struct busy_probe {
    server *srv;
    int64_t now;
    int ticks;
    buf seen;
} busy_probe;

static int64_t busy_clock(void *ud) { return ((busy_probe *)ud)->now; }

static int busy_tick(void *ud, int wrote)
{
    busy_probe *p = ud;
    (void)wrote;
    if (p->ticks++) return 1; /* the second tick kills it */
    p->now += 250;
    conn other = { .id = 7 };
    reply r;
    reply_init(&r);
    const char *stats[] = { "function", "stats" };
    slice v[2] = { slice_cstr(stats[0]), slice_cstr(stats[1]) };
    assert_true(server_allow_busy(2, v));
    server_execv(p->srv, &other, &r, 2, stats);
    reply_to_brief(&r, &p->seen);
    reply_release(&r);
    return 0;
}

static void test_function_stats_while_a_script_runs(void **state)
{
    (void)state;
    busy_probe p = { .now = 1700000000000 };
    buf_init(&p.seen);
    server_config cfg = { .clock = busy_clock, .clock_ud = &p, .script_tick = busy_tick, .script_tick_ud = &p };
    p.srv = server_new(&cfg);
    conn c = { .id = 1 };
    reply r;
    reply_init(&r);
    server_execv(p.srv, &c, &r, 3, (const char *[]){ "function", "load",
                 "#!lua name=lib\nredis.register_function('spin', function() local a = 1 while true do a = a + 1 end end)" });
    assert_int_equal(r.type, REPLY_BULK);
    server_execv(p.srv, &c, &r, 4, (const char *[]){ "fcall", "spin", "0", "x" });
    assert_int_equal(r.type, REPLY_ERROR);
    assert_string_equal(p.seen.p, "[\"running_script\", [\"name\", \"spin\", \"command\", [\"fcall\", \"spin\", \"0\", "
                                  "\"x\"], \"duration_ms\", 250], \"engines\", [\"LUA\", [\"libraries_count\", 1, "
                                  "\"functions_count\", 1]]]");
    /* an EVAL's run: BUSY, as Redis answers FUNCTION STATS then */
    buf_reset(&p.seen);
    p.ticks = 0;
    server_execv(p.srv, &c, &r, 3, (const char *[]){ "eval", "local a = 1 while true do a = a + 1 end", "0" });
    assert_int_equal(r.type, REPLY_ERROR);
    assert_string_equal(p.seen.p, "(error) BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
    /* and with nothing running: a null */
    server_execv(p.srv, &c, &r, 2, (const char *[]){ "function", "stats" });
    buf_reset(&p.seen);
    reply_to_brief(&r, &p.seen);
    assert_string_equal(p.seen.p, "[\"running_script\", nil, \"engines\", [\"LUA\", [\"libraries_count\", 1, "
                                  "\"functions_count\", 1]]]");
    /* the allow-busy list (Redis 7.0's CMD_ALLOW_BUSY) */
    const char *yes[][2] = { { "AUTH", "x" }, { "multi", NULL }, { "script", "KILL" }, { "function", "kill" },
                             { "hello", NULL }, { "Reset", NULL }, { "watch", "k" } };
    const char *no[][2] = { { "ping", NULL }, { "script", "flush" }, { "function", "list" }, { "get", "k" },
                            { "eval", "x" }, { "client", "list" } };
    for (size_t i = 0; i < LL_ARRAY_LEN(yes); i++) {
        slice v[2] = { slice_cstr(yes[i][0]), yes[i][1] ? slice_cstr(yes[i][1]) : (slice){ NULL, 0 } };
        assert_true(server_allow_busy(yes[i][1] ? 2 : 1, v));
    }
    for (size_t i = 0; i < LL_ARRAY_LEN(no); i++) {
        slice v[2] = { slice_cstr(no[i][0]), no[i][1] ? slice_cstr(no[i][1]) : (slice){ NULL, 0 } };
        assert_false(server_allow_busy(no[i][1] ? 2 : 1, v));
    }
    reply_release(&r);
    buf_release(&p.seen);
    server_free(p.srv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands_slot_table_matches_command_table),
        cmocka_unit_test(test_commands_lookup_finds_every_command_in_any_case),
        cmocka_unit_test(test_commands_lookup_rejects_unknown_names),
        cmocka_unit_test(test_commands_info_flags_agree_with_the_table),
        cmocka_unit_test(test_function_stats_while_a_script_runs),
        cmocka_unit_test_setup_teardown(test_multi_watch_across_connections, setup, teardown),
        cmocka_unit_test_setup_teardown(test_watch_and_the_engines_active_expiry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multi_on_a_replica_and_closed_connections, setup, teardown),
        cmocka_unit_test_setup_teardown(test_watch_and_a_swapped_keyspace, setup, teardown),
    };
    return cmocka_run_group_tests_name("commands", tests, NULL, NULL);
}
