/* test_kind.c — the fake Redis through the server-kind vtable (server_kind.h), as a node
 * drives it, with a fake host recording what the server tells it: requests and their
 * replies (brief and as Lua values), the changes a request makes, pub/sub pushes to a
 * client's subscription, expiry at the host's clock, and the data copies persistence and
 * replication are made of (snapshot and load, a full copy, one key's change captured on a
 * master and applied on a replica), checked through the canonical dump; a set among them,
 * and the databases other than 0, which stay the node's own. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "redis_kind.h"

#include "kind_fixture.h"

/* The fake Redis: clients 0 and 1 are actors 3 and 4; requests are words between spaces. */
static const kind_fixture KF = { .kind = &redis_kind, .sep = ' ', .nclients = 2, .client_base = 3 };

static void test_kind_requests_report_their_changes_and_expire_at_the_host_clock(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, "SET k v PX 500", "OK");
    expect_log(&h, "written k; ");
    buf b;
    buf_init(&b);
    int64_t deadline = 0;
    assert_int_equal(K->describe(s, slice_cstr("k"), &b, &deadline), 1);
    assert_string_equal(b.p, "\"v\"");
    assert_int_equal(deadline, 1500);
    buf_release(&b);
    assert_int_equal(K->describe(s, slice_cstr("nope"), &b, &deadline), 0);
    assert_int_equal(K->next_deadline(s), 1500);
    expect_dump(s, "\"k\" string at=1500 \"v\"\n");
    expect(s, "GET nope", "nil");
    expect(s, "INCR k", "(error) ERR value is not an integer or out of range");
    h.now = 1501;
    K->expire(s);
    expect_log(&h, "expired k; ");
    assert_int_equal(K->next_deadline(s), INT64_MAX);
    K->set_replica(s, 1);
    expect(s, "SET k v", "(error) READONLY You can't write against a read only replica.");
    done(s, &h);
}

static void test_kind_replies_reach_lua_as_a_client_library_returns_them(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    lua_State *L = luaL_newstate();
    const char *reqs[] = { "INCR n", "GET missing", "INCR", "HSET h f v" };
    const char *want[] = { "1", "nil", "nil ERR wrong number of arguments for 'incr' command", "1" };
    for (int i = 0; i < 4; i++) {
        int is_error;
        char *got = run_values(s, L, reqs[i], &is_error, NULL);
        assert_int_equal(is_error, i == 2);
        assert_string_equal(got, want[i]);
        free(got);
    }
    lua_close(L);
    done(s, &h);
}

static void test_kind_pushes_reach_subscribed_clients_until_they_leave(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    char *r = run(s, 1, 1, "SUBSCRIBE ch");
    assert_string_equal(r, "[[\"subscribe\", \"ch\", 1]]");
    free(r);
    expect(s, "PUBLISH ch hello", "1");
    expect_log(&h, "push 1 ch hello; ");
    K->unsubscribe(s, 1, "ch");
    expect(s, "PUBLISH ch again", "0");
    expect_log(&h, "");
    r = run(s, 1, 1, "SUBSCRIBE ch");
    free(r);
    K->disconnect(s, 1);
    expect(s, "PUBLISH ch gone", "0");
    expect_log(&h, "");
    done(s, &h);
}

static void test_kind_data_copies_make_persistence_and_replication(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 1000, 1000);
    kserver *m = p.m, *r = p.r;
    expect(m, "SET a 1 PX 5000", "OK");
    expect(m, "HSET h f v", "1");
    const char *both = "\"a\" string at=6000 \"1\"\n\"h\" hash at=-1 {\"f\": \"v\"}\n";
    expect_dump(m, both);
    /* one key at a time, as replication sends them */
    replicate(m, r, "a", 0);
    replicate(m, r, "h", 0);
    expect_dump(r, both);
    expect_log(&p.hr, "written a; written h; ");
    expect(m, "DEL a", "1");
    replicate(m, r, "a", 1);
    expect_dump(r, "\"h\" hash at=-1 {\"f\": \"v\"}\n");
    expect_log(&p.hr, "deleted a; ");
    /* a snapshot outlives its server and loads into a fresh one; a full copy replaces */
    kdata *snap = K->snapshot(m);
    expect(m, "FLUSHALL", "OK");
    K->destroy(m);
    kserver *m2 = p.m = make(&p.hm);
    K->load(m2, snap);
    K->data_free(snap);
    expect_dump(m2, "\"h\" hash at=-1 {\"f\": \"v\"}\n");
    expect(m2, "SET b 2", "OK");
    K->copy_data(r, m2);
    expect_dump(r, "\"b\" string at=-1 \"2\"\n\"h\" hash at=-1 {\"f\": \"v\"}\n");
    expect(r, "SET c 3", "(error) READONLY You can't write against a read only replica.");
    K->data_free(NULL);
    pair_close(&p);
}

/* A set travels like any value; databases other than 0 are the node's own: their writes
 * are reported to nobody and no dump, snapshot or replica sees them. */
static void test_kind_sets_replicate_and_other_databases_stay_local(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 1000, 1000);
    kserver *m = p.m, *r = p.r;
    expect(m, "SADD s b a 3", "3");
    expect_log(&p.hm, "written s; ");
    replicate(m, r, "s", 0);
    expect_dump(r, "\"s\" set at=-1 {\"3\", \"a\", \"b\"}\n");
    expect(r, "SISMEMBER s a", "1");
    expect(r, "SADD s c", "(error) READONLY You can't write against a read only replica.");
    expect(m, "SELECT 2", "OK");
    expect(m, "SET x 1", "OK");
    expect(m, "SPOP s", "nil");
    expect_log(&p.hm, "");
    expect_dump(m, "\"s\" set at=-1 {\"3\", \"a\", \"b\"}\n");
    kdata *snap = K->snapshot(m);
    kserver *m2 = make(&p.hm);
    K->load(m2, snap);
    K->data_free(snap);
    expect_dump(m2, "\"s\" set at=-1 {\"3\", \"a\", \"b\"}\n");
    expect(m2, "GET x", "nil");
    K->destroy(m2);
    pair_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_requests_report_their_changes_and_expire_at_the_host_clock),
        cmocka_unit_test(test_kind_replies_reach_lua_as_a_client_library_returns_them),
        cmocka_unit_test(test_kind_pushes_reach_subscribed_clients_until_they_leave),
        cmocka_unit_test(test_kind_data_copies_make_persistence_and_replication),
        cmocka_unit_test(test_kind_sets_replicate_and_other_databases_stay_local),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
