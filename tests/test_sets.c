/* test_sets.c — the set type (t_set.c) and the server's 16 databases (server.c's dbset,
 * db.c): what the differential test (tests/diff/cases/sets.txt, select.txt) cannot see from
 * outside. The intset order and its conversion, clones that share nothing, the canonical
 * dump, random draws that are the same in every run, and the simulated world's view of the
 * databases: only database 0 is observed, a SWAPDB with it reports every key it changes,
 * and a keyspace swapped in (a restart, a resync) leaves the others empty. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "object.h"
#include "server.h"
#include "store.h"
#include "set.h"

#include "fixture.h"

#define EXPECT(f, want, ...) assert_string_equal(RUN(f, __VA_ARGS__), want)

static void test_set_intset_order_and_conversion(void **state)
{
    (void)state;
    set *s = set_new();
    const char *in[] = { "30", "-7", "5", "0", "5" };
    for (size_t i = 0; i < 5; i++) set_add(s, slice_cstr(in[i]), NULL);
    assert_int_equal(set_len(s), 4);
    assert_string_equal(set_encoding(s), "intset");
    const char *want[] = { "-7", "0", "5", "30" };
    for (size_t i = 0; i < 4; i++) assert_true(slice_eq(set_at(s, i), slice_cstr(want[i])));
    /* a non-canonical integer converts it, for good */
    set_add(s, slice_cstr("05"), NULL);
    assert_string_equal(set_encoding(s), "hashtable");
    set_del(s, slice_cstr("05"));
    assert_string_equal(set_encoding(s), "hashtable");
    assert_true(set_has(s, slice_cstr("30")));
    assert_false(set_has(s, slice_cstr("05")));
    /* removals in the hashtable keep every other member reachable by index */
    set_del(s, slice_cstr("-7"));
    int seen = 0;
    for (size_t i = 0; i < set_len(s); i++) seen += set_has(s, set_at(s, i));
    assert_int_equal(seen, 3);
    set_free(s);
}

static void test_set_intset_limit_is_512(void **state)
{
    (void)state;
    set *s = set_new();
    char tmp[16];
    for (int i = 512; i >= 1; i--) {
        snprintf(tmp, sizeof tmp, "%d", i);
        set_add(s, slice_cstr(tmp), NULL);
    }
    assert_string_equal(set_encoding(s), "intset");
    assert_true(slice_eq(set_at(s, 0), slice_cstr("1")));
    assert_true(slice_eq(set_at(s, 511), slice_cstr("512")));
    set_add(s, slice_cstr("0"), NULL);
    assert_string_equal(set_encoding(s), "hashtable");
    assert_int_equal(set_len(s), 513);
    set_free(s);
}

static void test_set_clone_and_dump(void **state)
{
    (void)state;
    set *s = set_new();
    set_add(s, slice_cstr("b"), NULL);
    set_add(s, slice_cstr("a\n"), NULL);
    set_add(s, slice_cstr("10"), NULL);
    set *c = set_clone(s);
    set_del(s, slice_cstr("b"));
    assert_int_equal(set_len(c), 3);
    buf out;
    buf_init(&out);
    set_dump(c, &out);
    assert_string_equal(out.p, "{\"10\", \"a\\n\", \"b\"}");
    assert_string_equal(obj_type_name(OBJ_SET), "set");
    buf_release(&out);
    set_free(s);
    set_free(c);
}

static void test_set_commands_events_and_dump(void **state)
{
    fixture *f = *state;
    EXPECT(f, "(integer) 2", "sadd", "s", "x", "y");
    EXPECT(f, "(integer) 0", "sadd", "s", "x");
    assert_int_equal(f->events[STORE_WRITTEN], 1); /* a SADD that adds nothing writes nothing */
    EXPECT(f, "(integer) 2", "srem", "s", "x", "y");
    assert_int_equal(f->events[STORE_DELETED], 1);
    EXPECT(f, "(integer) 1", "sadd", "s", "1");
    buf_reset(&f->out);
    store_dump(server_store(f->srv), &f->out, 0);
    assert_string_equal(f->out.p, "\"s\" set pttl=-1 {\"1\"}\n");
}

/* Two servers given the same commands draw the same members. */
static void test_set_random_draws_repeat(void **state)
{
    fixture *f = *state;
    fixture g = { .now = f->now };
    server_config cfg = { .clock = fixture_clock, .clock_ud = &g };
    g.srv = server_new(&cfg);
    g.c.id = 1;
    reply_init(&g.r);
    buf_init(&g.out);
    const char *add[] = { "sadd", "s", "a", "b", "c", "d", "e", "f", "g", "h", NULL };
    run(f, add);
    run(&g, add);
    char first[256];
    snprintf(first, sizeof first, "%s", RUN(f, "srandmember", "s", "-20"));
    assert_string_equal(RUN(&g, "srandmember", "s", "-20"), first);
    snprintf(first, sizeof first, "%s", RUN(f, "spop", "s", "3"));
    assert_string_equal(RUN(&g, "spop", "s", "3"), first);
    EXPECT(f, "(integer) 5", "scard", "s");
    reply_release(&g.r);
    buf_release(&g.out);
    server_free(g.srv);
}

/* Draws with repeats are capped (RANDOM_REPLY_MAX), the same for the three commands. */
static void test_random_draws_are_capped(void **state)
{
    fixture *f = *state;
    RUN(f, "sadd", "s", "a");
    RUN(f, "hset", "h", "f", "v");
    RUN(f, "zadd", "z", "1", "m");
    const char *want = "(error) ERR locklab builds at most 1000000 random draws in one reply";
    EXPECT(f, want, "srandmember", "s", "-1000001");
    EXPECT(f, want, "hrandfield", "h", "-9223372036854775807");
    EXPECT(f, want, "zrandmember", "z", "-1000001", "withscores");
    RUN(f, "srandmember", "s", "-1000");
    assert_int_equal(f->r.n, 1000);
}

static void test_select_is_per_connection(void **state)
{
    fixture *f = *state;
    conn other = { .id = 2 };
    EXPECT(f, "OK", "select", "3");
    EXPECT(f, "OK", "set", "k", "3");
    const char *get[] = { "get", "k" };
    server_execv(f->srv, &other, &f->r, 2, get);
    assert_string_equal(fixture_printed(f), "(nil)");
    EXPECT(f, "\"3\"", "get", "k");
    assert_int_equal(f->c.db, 3);
    assert_int_equal(f->events[STORE_WRITTEN], 0); /* database 3 is not the world's */
    assert_null(store_lookup(server_store(f->srv), slice_cstr("k")));
}

static void test_swapdb_reports_database_0(void **state)
{
    fixture *f = *state;
    EXPECT(f, "OK", "set", "a", "0");
    EXPECT(f, "OK", "select", "1");
    EXPECT(f, "OK", "set", "b", "1");
    EXPECT(f, "OK", "set", "c", "1");
    int written = f->events[STORE_WRITTEN], deleted = f->events[STORE_DELETED];
    EXPECT(f, "OK", "swapdb", "1", "0");
    assert_int_equal(f->events[STORE_DELETED], deleted + 1);  /* a */
    assert_int_equal(f->events[STORE_WRITTEN], written + 2);  /* b, c */
    EXPECT(f, "\"0\"", "get", "a");
    buf_reset(&f->out);
    store_dump(server_store(f->srv), &f->out, 0);
    assert_string_equal(f->out.p, "\"b\" string pttl=-1 \"1\"\n\"c\" string pttl=-1 \"1\"\n");
}

static void test_swapped_keyspace_empties_the_others(void **state)
{
    fixture *f = *state;
    EXPECT(f, "OK", "select", "2");
    EXPECT(f, "OK", "set", "k", "v");
    store_free(server_swap_store(f->srv, store_new(fixture_clock, f)));
    EXPECT(f, "(integer) 0", "dbsize");
    EXPECT(f, "(nil)", "get", "k");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_set_intset_order_and_conversion),
        T(test_set_intset_limit_is_512),
        T(test_set_clone_and_dump),
        T(test_set_commands_events_and_dump),
        T(test_set_random_draws_repeat),
        T(test_random_draws_are_capped),
        T(test_select_is_per_connection),
        T(test_swapdb_reports_database_0),
        T(test_swapped_keyspace_empties_the_others),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
