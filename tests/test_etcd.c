/* test_etcd.c — the fake etcd (sim/etcd/) through the server-kind vtable, as a node drives it,
 * with a fake host that records what the server reports: every request form and its reply
 * (the brief line, and the Lua values a model receives), etcd's error texts, revisions and
 * versions, transactions, lease grant with the minimum TTL, keep-alive, revoke and expiry at
 * the lessor's 500 ms tick (one revision for a lease's keys), watches from a past revision
 * and live, a replica's data (capture and apply, the revision following its primary's,
 * leases that never expire there and are promoted with TTL + election timeout), snapshot and
 * load, and the canonical dump. The same semantics are checked against a real etcd 3.4 by
 * tests/diff/etcd/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "etcd_kind.h"

#include "kind_fixture.h"

/* The fake etcd, a primary: requests are words between '|' (so that words may hold spaces),
 * watch events are pushed, the watch's topic in brackets. */
static const kind_fixture KF = { .kind = &etcd_kind, .sep = '|', .nclients = 2, .primary = 1,
                                 .pushes = KF_PUSH_BRACKETED };

static void test_kv_revisions(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, "GET|a", "{header={revision=1}}");
    expect(s, "PUT|a|1", "{header={revision=2}}");
    expect_log(&h, "written a; ");
    expect(s, "put|a|2|prev_kv", "{header={revision=3} prev_kv={key=a create_revision=2 mod_revision=2 version=1 value=1}}");
    expect(s, "GET|a", "{header={revision=3} kvs=[{key=a create_revision=2 mod_revision=3 version=2 value=2}] count=1}");
    expect(s, "DEL|a", "{header={revision=4} deleted=1}");
    expect_log(&h, "written a; deleted a; ");
    expect(s, "DEL|a", "{header={revision=4}}"); /* a miss takes no revision */
    expect(s, "PUT|a|again", "{header={revision=5}}");
    expect(s, "GET|a", "{header={revision=5} kvs=[{key=a create_revision=5 mod_revision=5 version=1 value=again}] count=1}");
    /* the past, replayed from the history; the future refused */
    expect(s, "GET|a|REV|3", "{header={revision=5} kvs=[{key=a create_revision=2 mod_revision=3 version=2 value=2}] count=1}");
    expect(s, "GET|a|REV|4", "{header={revision=5}}");
    expect(s, "GET|a|REV|6", "(error) etcdserver: mvcc: required revision is a future revision");
    expect(s, "PUT|b|x y", "{header={revision=6}}");
    expect(s, "GET|b", "{header={revision=6} kvs=[{key=b create_revision=6 mod_revision=6 version=1 value=\"x y\"}] count=1}");
    done(s, &h);
}

static void test_kv_ranges_and_errors(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, "PUT|p/b|2", "{header={revision=2}}");
    expect(s, "PUT|p/a|1", "{header={revision=3}}");
    expect(s, "PUT|p/c|3", "{header={revision=4}}");
    expect(s, "PUT|q|x", "{header={revision=5}}");
    expect(s, "GET|p/|PREFIX|KEYS_ONLY",
           "{header={revision=5} kvs=[{key=p/a create_revision=3 mod_revision=3 version=1} {key=p/b create_revision=2 "
           "mod_revision=2 version=1} {key=p/c create_revision=4 mod_revision=4 version=1}] count=3}");
    expect(s, "GET|p/|FIRST_CREATE", "{header={revision=5} kvs=[{key=p/b create_revision=2 mod_revision=2 version=1 value=2}] more=true count=3}");
    expect(s, "GET|p/|LAST_CREATE|MAX_CREATE|3", "{header={revision=5} kvs=[{key=p/a create_revision=3 mod_revision=3 version=1 value=1}] more=true count=3}");
    expect(s, "GET|p/a|END|p/c|COUNT_ONLY", "{header={revision=5} count=2}");
    expect(s, "GET||FROM_KEY|COUNT_ONLY", "{header={revision=5} count=4}");
    expect(s, "GET|p/|PREFIX|LIMIT|1|SORT|VALUE|DESCEND", "{header={revision=5} kvs=[{key=p/c create_revision=4 mod_revision=4 version=1 value=3}] more=true count=3}");
    expect(s, "GET|p/|PREFIX|MIN_MOD|3|MAX_MOD|3", "{header={revision=5} kvs=[{key=p/a create_revision=3 mod_revision=3 version=1 value=1}] count=3}");
    expect(s, "GET||PREFIX|COUNT_ONLY", "{header={revision=5} count=4}");
    expect(s, "PUT||v", "(error) etcdserver: key is not provided");
    expect(s, "GET|", "(error) etcdserver: key is not provided");
    expect(s, "DEL|", "(error) etcdserver: key is not provided");
    expect(s, "PUT|q|v|IGNORE_VALUE", "(error) etcdserver: value is provided");
    expect(s, "PUT|nokey||IGNORE_VALUE", "(error) etcdserver: key not found");
    expect(s, "PUT|q||IGNORE_VALUE|LEASE|5", "(error) etcdserver: requested lease not found");
    expect(s, "PUT|q||IGNORE_VALUE", "{header={revision=6}}");
    expect(s, "PUT|lease 694d000000000001|x", "(error) locklab: keys of the form 'lease <16 hex digits>' name leases in locklab's history");
    expect(s, "PUT|q", "(error) locklab: a request ended too soon");
    expect(s, "GET|q|BOGUS", "(error) locklab: unknown option (at 'BOGUS')");
    expect(s, "GET|q|LIMIT|x", "(error) locklab: not a number (at 'x')");
    expect(s, "FROB", "(error) locklab: unknown request; PUT, GET, DEL, TXN, LEASE_GRANT, LEASE_REVOKE, LEASE_KEEPALIVE, LEASE_TTL, LEASE_LEASES, SUBSCRIBE (at 'FROB')");
    expect(s, "DEL|p/|PREFIX|PREV_KV", "{header={revision=7} deleted=3 prev_kvs=[{key=p/a create_revision=3 mod_revision=3 version=1 value=1} "
                                       "{key=p/b create_revision=2 mod_revision=2 version=1 value=2} {key=p/c create_revision=4 mod_revision=4 version=1 value=3}]}");
    expect_log(&h, "written p/b; written p/a; written p/c; written q; written q; deleted p/a; deleted p/b; deleted p/c; ");
    done(s, &h);
}

static void test_txn(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    /* the Mutex's transaction: a free lock, then a second waiter, then the waiter again */
    const char *lock_a = "TXN|IF|CREATE|lock/a|=|0|THEN|PUT|lock/a||GET|lock/|FIRST_CREATE|ELSE|GET|lock/a|GET|lock/|FIRST_CREATE";
    const char *lock_b = "TXN|IF|CREATE|lock/b|=|0|THEN|PUT|lock/b||GET|lock/|FIRST_CREATE|ELSE|GET|lock/b|GET|lock/|FIRST_CREATE";
    expect(s, lock_a, "{header={revision=2} succeeded=true responses=[{response_put={header={revision=2}}} {response_range={header={revision=2} "
                      "kvs=[{key=lock/a create_revision=2 mod_revision=2 version=1}] count=1}}]}");
    expect(s, lock_b, "{header={revision=3} succeeded=true responses=[{response_put={header={revision=3}}} {response_range={header={revision=3} "
                      "kvs=[{key=lock/a create_revision=2 mod_revision=2 version=1}] more=true count=2}}]}");
    expect(s, lock_b, "{header={revision=3} responses=[{response_range={header={revision=3} kvs=[{key=lock/b create_revision=3 mod_revision=3 "
                      "version=1}] count=1}} {response_range={header={revision=3} kvs=[{key=lock/a create_revision=2 mod_revision=2 version=1}] more=true count=2}}]}");
    /* several writes, one revision; a miss on a missing key compares as zeros, a VALUE fails */
    expect(s, "TXN|THEN|PUT|x|1|PUT|y|2|DEL|lock/a", "{header={revision=4} succeeded=true responses=[{response_put={header={revision=4}}} "
                                                    "{response_put={header={revision=4}}} {response_delete_range={header={revision=4} deleted=1}}]}");
    expect(s, "TXN|IF|VERSION|none|=|0|MOD|none|<|1|LEASE|none|=|0|THEN|GET|x|COUNT_ONLY", "{header={revision=4} succeeded=true "
                                                                                            "responses=[{response_range={header={revision=4} count=1}}]}");
    expect(s, "TXN|IF|VALUE|none|=||THEN|PUT|z|1", "{header={revision=4}}");
    expect(s, "TXN|IF|VALUE|x|>|0|VALUE|x|!=|2|THEN|DEL|nothing", "{header={revision=4} succeeded=true responses=[{response_delete_range={header={revision=4}}}]}");
    expect(s, "TXN|IF|VERSION|lock/|=|1|PREFIX|THEN|GET|x|COUNT_ONLY", "{header={revision=4} succeeded=true responses=[{response_range={header={revision=4} count=1}}]}");
    expect(s, "TXN|THEN|PUT|d|1|PUT|d|2", "(error) etcdserver: duplicate key given in txn request");
    expect(s, "TXN|THEN|PUT|d/1|1|DEL|d/|PREFIX", "(error) etcdserver: duplicate key given in txn request");
    expect(s, "TXN|IF|CREATE||=|0", "(error) etcdserver: key is not provided");
    expect(s, "TXN|THEN|PUT|k|v|LEASE|77", "(error) etcdserver: requested lease not found");
    expect(s, "TXN|IF|CREATE|x|=|0|THEN|PUT|k|v|LEASE|77|ELSE|GET|x|COUNT_ONLY", "{header={revision=4} responses=[{response_range={header={revision=4} count=1}}]}");
    expect(s, "TXN|IF|CREATE|x|~|0", "(error) locklab: a compare's operator is =, !=, < or > (at '~')");
    expect(s, "TXN|ELSE|GET|x|THEN|GET|x", "(error) locklab: expected PUT, GET or DEL (at 'THEN')");
    done(s, &h);
}

static void test_leases_and_expiry(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, "LEASE_GRANT|1|ID|7", "{header={revision=1} ID=7 TTL=2}"); /* the minimum: 2 s */
    expect(s, "LEASE_GRANT|60|ID|7", "(error) etcdserver: lease already exists");
    expect(s, "LEASE_GRANT|9000000001", "(error) etcdserver: too large lease TTL");
    expect(s, "LEASE_GRANT|10", "{header={revision=1} ID=7587720947189409792 TTL=10}"); /* 0x694d << 48 | ms << 8 */
    expect(s, "LEASE_GRANT|10", "{header={revision=1} ID=7587720947189409793 TTL=10}");
    expect_log(&h, "written lease 0000000000000007; written lease 694d00000003e800; written lease 694d00000003e801; ");
    expect(s, "PUT|k1|a|LEASE|7", "{header={revision=2}}");
    expect(s, "PUT|k2|b|LEASE|0x7", "{header={revision=3}}");
    expect(s, "LEASE_TTL|7|KEYS", "{header={revision=3} ID=7 TTL=2 grantedTTL=2 keys=[k1 k2]}");
    expect(s, "LEASE_TTL|8", "{header={revision=3} ID=8 TTL=-1}");
    expect(s, "LEASE_KEEPALIVE|8", "{header={revision=3} ID=8}");
    /* expiry at 1000 + 2000 = 3000, which is a tick of the lessor loop (started at 1000) */
    assert_int_equal(K->next_deadline(s), 2999);
    h.now = 2600;
    expect(s, "LEASE_KEEPALIVE|7", "{header={revision=3} ID=7 TTL=2}"); /* now expires at 4600 */
    assert_int_equal(K->next_deadline(s), 4999); /* the loop's tick after 4600 */
    h.now = 4700; /* past 4600, but the loop looks at 5000 */
    expect(s, "LEASE_KEEPALIVE|7", "{header={revision=3} ID=7}"); /* expired: waits for the revoke, then TTL 0 */
    K->expire(s);
    expect(s, "GET|k1", "{header={revision=3} kvs=[{key=k1 create_revision=2 mod_revision=2 version=1 value=a lease=7}] count=1}");
    buf_reset(&h.log);
    h.now = 5000;
    K->expire(s);
    expect_log(&h, "expired k1; expired k2; expired lease 0000000000000007; ");
    expect(s, "GET|k|PREFIX", "{header={revision=4}}");
    expect(s, "GET|k2|REV|3", "{header={revision=4} kvs=[{key=k2 create_revision=3 mod_revision=3 version=1 value=b lease=7}] count=1}");
    /* revoke: the keys at one revision, then the lease */
    expect(s, "PUT|r1|a|LEASE|7587720947189409792", "{header={revision=5}}");
    expect(s, "PUT|r2|a|LEASE|7587720947189409792", "{header={revision=6}}");
    buf_reset(&h.log);
    expect(s, "LEASE_REVOKE|7587720947189409792", "{header={revision=7}}");
    expect_log(&h, "deleted r1; deleted r2; deleted lease 694d00000003e800; ");
    expect(s, "LEASE_REVOKE|7587720947189409792", "(error) etcdserver: requested lease not found");
    expect(s, "LEASE_LEASES", "{header={revision=7} leases=[{ID=7587720947189409793}]}");
    expect(s, "LEASE_TTL", "(error) locklab: a request ended too soon");
    done(s, &h);
}

static void test_min_ttl_option(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    int64_t opts[2] = { 500, 5000 }; /* heartbeat 500 ms, election 5 s: 10 ticks, 15 * 500 ms = 7.5 s */
    kserver *s = make_with(&h, opts);
    expect(s, "LEASE_GRANT|1|ID|1", "{header={revision=1} ID=1 TTL=8}");
    expect(s, "LEASE_GRANT|9|ID|2", "{header={revision=1} ID=2 TTL=9}");
    done(s, &h);
}

static void test_watch(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    kserver *s = make(&h);
    expect(s, "PUT|w/a|1", "{header={revision=2}}");
    expect(s, "DEL|w/a", "{header={revision=3} deleted=1}");
    buf_reset(&h.log);
    char *r = run(s, 1, 0, "SUBSCRIBE|key w/a from 2");
    assert_string_equal(r, "{header={revision=3} created=true}");
    free(r);
    expect_log(&h, "push 1 [key w/a from 2] PUT 2 w/a; push 1 [key w/a from 2] DELETE 3 w/a; ");
    r = run(s, 0, 0, "WATCH|prefix w/ from 0");
    free(r);
    expect_log(&h, "");
    expect(s, "PUT|w/b|2", "{header={revision=4}}");
    expect_log(&h, "written w/b; push 0 [prefix w/ from 0] PUT 4 w/b; ");
    expect(s, "PUT|w/a|3", "{header={revision=5}}");
    expect_log(&h, "written w/a; push 1 [key w/a from 2] PUT 5 w/a; push 0 [prefix w/ from 0] PUT 5 w/a; ");
    K->unsubscribe(s, 1, "key w/a from 2");
    K->disconnect(s, 0);
    expect(s, "DEL|w/|PREFIX", "{header={revision=6} deleted=2}");
    expect_log(&h, "deleted w/a; deleted w/b; ");
    expect(s, "SUBSCRIBE|w/a", "(error) locklab: a watch's topic is 'key KEY from REV' or 'prefix KEY from REV' (REV 0: from now)");
    expect(s, "SUBSCRIBE|key w/a from x", "(error) locklab: a watch's topic is 'key KEY from REV' or 'prefix KEY from REV' (REV 0: from now)");
    done(s, &h);
}

/* A replica: changes captured on the primary and applied; no expiry; promotion. */
static void test_replication(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 1000, 1000);
    kserver *m = p.m, *r = p.r;
    expect(m, "LEASE_GRANT|5|ID|9", "{header={revision=1} ID=9 TTL=5}");
    expect(m, "PUT|a|1", "{header={revision=2}}");
    expect(m, "PUT|a|2|LEASE|9", "{header={revision=3}}");
    expect(m, "PUT|b|x", "{header={revision=4}}");
    expect(m, "DEL|b", "{header={revision=5} deleted=1}");
    const char *units[] = { "lease 0000000000000009", "a", "b" };
    int deleted[] = { 0, 0, 1 };
    for (int i = 0; i < 3; i++) replicate(m, r, units[i], deleted[i]);
    expect_log(&p.hr, "written lease 0000000000000009; written a; ");
    char *dm = dump(m), *dr = dump(r);
    assert_string_equal(dm, "\"\" revision at=-1 5\n\"a\" key at=6000 \"2\" create=2 mod=3 version=2 lease=0000000000000009\n"
                            "\"lease 0000000000000009\" lease at=6000 ttl=5\n");
    /* the replica's copy never expires; its revision is its primary's */
    assert_string_equal(dr, "\"\" revision at=-1 5\n\"a\" key at=-1 \"2\" create=2 mod=3 version=2 lease=0000000000000009\n"
                            "\"lease 0000000000000009\" lease at=-1 ttl=5\n");
    free(dm);
    free(dr);
    p.hr.now = 60000;
    assert_int_equal(K->next_deadline(r), INT64_MAX);
    K->expire(r);
    /* promoted: every lease lives TTL + the election timeout (1 s) from now */
    K->set_replica(r, 0);
    assert_int_equal(K->next_deadline(r), 60000 + 1000 + 5000 - 1);
    expect(r, "PUT|c|3", "{header={revision=6}}");
    /* a full copy and a snapshot: a primary recovering them promotes its leases at once */
    kdata *snap = K->snapshot(m);
    fake_host h2 = { .now = 90000 };
    kserver *fresh = make(&h2);
    K->load(fresh, snap);
    dm = dump(fresh);
    assert_string_equal(dm, "\"\" revision at=-1 5\n\"a\" key at=96000 \"2\" create=2 mod=3 version=2 lease=0000000000000009\n"
                            "\"lease 0000000000000009\" lease at=96000 ttl=5\n");
    free(dm);
    K->copy_data(fresh, r);
    expect(fresh, "GET|c", "{header={revision=6} kvs=[{key=c create_revision=6 mod_revision=6 version=1 value=3}] count=1}");
    /* the replica's history is what it was sent: a at revision 3, not its first write */
    expect(fresh, "GET|a|REV|3", "{header={revision=6} kvs=[{key=a create_revision=2 mod_revision=3 version=2 value=2 lease=9}] count=1}");
    expect(fresh, "GET|a|REV|2", "{header={revision=6}}");
    K->data_free(snap);
    buf b;
    buf_init(&b);
    int64_t deadline = 0;
    assert_int_equal(K->describe(fresh, slice_cstr("a"), &b, &deadline), 1);
    assert_string_equal(b.p, "\"2\" create=2 mod=3 version=2 lease=0000000000000009");
    assert_int_equal(deadline, 96000);
    buf_reset(&b);
    assert_int_equal(K->describe(fresh, slice_cstr("lease 0000000000000009"), &b, &deadline), 1);
    assert_string_equal(b.p, "lease ttl=5s");
    assert_int_equal(K->describe(fresh, slice_cstr("zz"), &b, &deadline), 0);
    buf_release(&b);
    done(fresh, &h2);
    pair_close(&p);
}

/* What a model receives: the response as tables with every field, or nil and the error. */
static void test_lua_values(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    kserver *s = make(&h);
    free(run(s, 0, 0, "PUT|lock/a|"));
    lua_State *L = luaL_newstate();
    int is_error;
    assert_int_equal(run_push(s, L, "GET|lock/|FIRST_CREATE", &is_error), 1);
    assert_false(is_error);
    lua_setglobal(L, "r");
    assert_int_equal(luaL_dostring(L, "return r.header.revision, r.kvs[1].key, r.kvs[1].create_revision, r.kvs[1].value, "
                                      "r.kvs[1].lease, r.more, r.count, #r.kvs"), 0);
    assert_int_equal(lua_tointeger(L, -8), 2);
    assert_string_equal(lua_tostring(L, -7), "lock/a");
    assert_int_equal(lua_tointeger(L, -6), 2);
    assert_string_equal(lua_tostring(L, -5), "");
    assert_int_equal(lua_tointeger(L, -4), 0);
    assert_false(lua_toboolean(L, -3));
    assert_int_equal(lua_tointeger(L, -2), 1);
    assert_int_equal(lua_tointeger(L, -1), 1);
    lua_settop(L, 0);
    assert_int_equal(run_push(s, L, "LEASE_REVOKE|5", &is_error), 2);
    assert_true(is_error);
    assert_true(lua_isnil(L, -2));
    assert_string_equal(lua_tostring(L, -1), "etcdserver: requested lease not found");
    lua_close(L);
    done(s, &h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kv_revisions),
        cmocka_unit_test(test_kv_ranges_and_errors),
        cmocka_unit_test(test_txn),
        cmocka_unit_test(test_leases_and_expiry),
        cmocka_unit_test(test_min_ttl_option),
        cmocka_unit_test(test_watch),
        cmocka_unit_test(test_replication),
        cmocka_unit_test(test_lua_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
