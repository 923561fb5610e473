/* test_zk.c — the fake ZooKeeper (sim/zk/) through the server-kind vtable, as a node drives
 * it, with a fake host recording what it reports: every request form and its error replies
 * (as the Java client's KeeperException.Code names them), sequence numbers and Stat
 * bookkeeping, zxids (a failed write takes one), sessions (negotiated timeouts, expiry at
 * tick boundaries deleting ephemeral nodes, a dropped connection that does not end a
 * session), one-shot watches pushed to the client, replies as Lua values, and the data
 * copies of persistence and replication (capture/apply, snapshot/load, copy, promotion of
 * a replica with a new epoch and renewed sessions), checked through the canonical dump.
 * The differential test (tests/diff/zookeeper/) checks the same against a real server. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "zk_kind.h"

#include "kind_fixture.h"

#define T0 INT64_C(1700000000000) /* a multiple of the 2000 ms tick */

/* The fake ZooKeeper, a primary with a 2000 ms tick: clients 0..2 are actors 1..3, requests
 * are words between spaces, watch events are pushed. */
static const int64_t tick_2000[3] = { 2000 };
static const kind_fixture KF = { .kind = &zk_kind, .sep = ' ', .nclients = 3, .client_base = 1,
                                 .options = tick_2000, .primary = 1 };

static void test_zk_requests_and_their_errors(void **state)
{
    (void)state;
    fake_host h = { .now = T0 };
    kserver *s = make(&h);
    expect(s, "create /a x", "(error) ConnectionLoss"); /* no session on this connection */
    expect(s, "connect 100", "session 0x100000000000001 timeout 4000");        /* 2 ticks */
    expect(s, "connect 999999", "session 0x100000000000002 timeout 40000");    /* 20 ticks */
    expect(s, "connect 6000", "session 0x100000000000003 timeout 6000");
    buf_reset(&h.log);
    expect(s, "create /a x", "/a"); /* zxid 4 */
    expect_log(&h, "written /a; written /; ");
    expect(s, "create /a y", "(error) NodeExists");                 /* 5 */
    expect(s, "create /b/c z", "(error) NoNode");                   /* 6 */
    expect(s, "create /a/e 1 ephemeral", "/a/e");                   /* 7 */
    expect(s, "create /a/e/f 1", "(error) NoChildrenForEphemerals"); /* 8 */
    expect(s, "create /a/s- 1 persistent_sequential", "/a/s-0000000001"); /* 9 */
    expect(s, "delete /a/e", "OK");                                 /* 10 */
    expect(s, "create /a/ 2 ephemeral_sequential", "/a/0000000002"); /* 11: deletions do not count */
    expect(s, "create /a/x 1 container", "(error) BadArguments");
    expect(s, "create a x", "(error) BadArguments");                /* 12 */
    expect(s, "create /a/. x", "(error) BadArguments");             /* 13: the parent first, then the path */
    expect(s, "exists /a",
           "czxid=0x4 mzxid=0x4 pzxid=0xb version=0 cversion=4 aversion=0 ephemeralOwner=0x0 dataLength=1 numChildren=2");
    expect(s, "exists /nope", "(null)");
    expect(s, "getData /a/0000000002",
           "\"2\" czxid=0xb mzxid=0xb pzxid=0xb version=0 cversion=0 aversion=0 ephemeralOwner=0x100000000000003 "
           "dataLength=1 numChildren=0");
    expect(s, "getData /nope", "(error) NoNode");
    expect(s, "getChildren /a", "[0000000002, s-0000000001]");
    expect(s, "getChildren /", "[a, zookeeper]");
    expect(s, "getChildren /nope", "(error) NoNode");
    expect(s, "delete /a 3", "(error) BadVersion");  /* 14: BadVersion before NotEmpty */
    expect(s, "delete /a", "(error) NotEmpty");      /* 15 */
    expect(s, "delete /zookeeper", "(error) BadArguments"); /* 16: an error txn too */
    expect(s, "setData /a new 1", "(error) BadVersion"); /* 16 */
    expect(s, "setData /a new 0",
           "czxid=0x4 mzxid=0x12 pzxid=0xb version=1 cversion=4 aversion=0 ephemeralOwner=0x0 dataLength=3 numChildren=2");
    expect(s, "setData /nope x", "(error) NoNode");
    expect(s, "delete /a/s-0000000001 -1", "OK");
    expect(s, "delete /a/s-0000000001", "(error) NoNode");
    expect(s, "frobnicate /a", "(error) Unimplemented");
    expect(s, "delete /a x", "(error) BadArguments");
    expect(s, "ping", "OK");
    buf_reset(&h.log);
    expect(s, "close", "OK"); /* its ephemeral node goes */
    expect_log(&h, "deleted /a/0000000002; written /a; deleted session:0x100000000000003; ");
    expect(s, "exists /a", "(error) SessionExpired");
    expect(s, "connect 6000 0x100000000000003", "(error) SessionExpired");
    expect(s, "connect 6000 0x100000000000001", "session 0x100000000000001 timeout 4000"); /* re-attached */
    char *d = dump(s);
    assert_string_equal(d, "zxid 0x16\n"
                           "\"session:0x100000000000001\" session at=-1 timeout=4000\n"
                           "\"session:0x100000000000002\" session at=-1 timeout=40000\n"
                           /* the root: 1 creation, 2 children */
                           "\"/\" znode at=-1 \"\" czxid=0x0 mzxid=0x0 pzxid=0x4 version=0 cversion=0\n"
                           "\"/a\" znode at=-1 \"new\" czxid=0x4 mzxid=0x12 pzxid=0x16 version=1 cversion=6\n");
    free(d);
    done(s, &h);
}

static void test_zk_sessions_expire_at_tick_boundaries(void **state)
{
    (void)state;
    fake_host h = { .now = T0 + 500 };
    kserver *s = make(&h);
    expect(s, "connect 6000", "session 0x100000000000001 timeout 6000");
    expect(s, "create /e 1 ephemeral", "/e");
    expect_as(s, 1, "connect 40000", "session 0x100000000000002 timeout 40000");
    expect_as(s, 1, "exists /e watch", "czxid=0x2 mzxid=0x2 pzxid=0x2 version=0 cversion=0 aversion=0 "
                                       "ephemeralOwner=0x100000000000001 dataLength=1 numChildren=0");
    /* touched at T0+500: due at T0+6500, rounded up to the next tick, T0+8000 */
    assert_int_equal(K->next_deadline(s), T0 + 7999);
    h.now = T0 + 3000;
    expect(s, "ping", "OK"); /* renewed: T0+9000 -> T0+10000 */
    assert_int_equal(K->next_deadline(s), T0 + 9999);
    K->disconnect(s, 0); /* a crash: the session stays */
    h.now = T0 + 9999;
    buf_reset(&h.log);
    K->expire(s);
    expect_log(&h, "");
    h.now = T0 + 10000;
    K->expire(s);
    expect_log(&h, "expired /e; written /; push 1 watcher NodeDeleted /e; expired session:0x100000000000001; ");
    assert_int_equal(K->next_deadline(s), T0 + 500 + 40000 + 1500 - 1); /* client 1's */
    expect(s, "exists /e", "(error) ConnectionLoss"); /* its connection is gone */
    expect(s, "connect 6000 0x100000000000001", "(error) SessionExpired");
    expect(s, "ping", "(error) SessionExpired");
    /* server options: another tick and bounds */
    fake_host h2 = { .now = T0 + 10 };
    const int64_t opts2[3] = { 200, 1000, 3000 };
    kserver *s2 = kf_create(&h2, 1, 0, opts2);
    expect(s2, "connect 10", "session 0x100000000000001 timeout 1000");
    assert_int_equal(K->next_deadline(s2), T0 + 1199);
    expect(s2, "connect 99999", "session 0x100000000000002 timeout 3000");
    buf_release(&h.log);
    buf_release(&h2.log);
    K->destroy(s);
    K->destroy(s2);
}

static void test_zk_watches_fire_once(void **state)
{
    (void)state;
    fake_host h = { .now = T0 };
    kserver *s = make(&h);
    expect_as(s, 0, "connect 6000", "session 0x100000000000001 timeout 6000");
    expect_as(s, 1, "connect 6000", "session 0x100000000000002 timeout 6000");
    expect_as(s, 1, "exists /w watch", "(null)");
    expect_as(s, 1, "getData /x watch", "(error) NoNode"); /* no watch set */
    buf_reset(&h.log);
    expect(s, "create /w 1", "/w");
    expect(s, "create /x 1", "/x");
    expect_log(&h, "written /w; written /; push 1 watcher NodeCreated /w; written /x; written /; ");
    expect(s, "setData /w 2", "czxid=0x3 mzxid=0x5 pzxid=0x3 version=1 cversion=0 aversion=0 ephemeralOwner=0x0 "
                              "dataLength=1 numChildren=0");
    expect_log(&h, "written /w; "); /* the watch was used up */
    char *r = run(s, 1, 0, "getData /w watch");
    free(r);
    r = run(s, 1, 0, "getChildren /w watch");
    free(r);
    r = run(s, 0, 0, "exists /w watch");
    free(r);
    expect(s, "setData /w 3 5", "(error) BadVersion"); /* nothing fires */
    expect_log(&h, "");
    expect(s, "delete /w", "OK"); /* one event per client however many of its watches fire */
    expect_log(&h, "deleted /w; written /; push 0 watcher NodeDeleted /w; push 1 watcher NodeDeleted /w; ");
    r = run(s, 1, 0, "getChildren / watch");
    free(r);
    K->disconnect(s, 1); /* its watches go with the connection */
    expect(s, "create /y 1", "/y");
    expect_log(&h, "written /y; written /; ");
    r = run(s, 1, 0, "connect 6000 0x100000000000002");
    free(r);
    r = run(s, 1, 0, "getChildren / watch");
    free(r);
    expect(s, "create /z 1", "/z");
    expect_log(&h, "written /z; written /; push 1 watcher NodeChildrenChanged /; ");
    /* setWatches: what changed after the client's zxid fires at once, the rest is set again */
    expect(s, "create /sw 1", "/sw"); /* zxid 10, the root's pzxid too */
    buf_reset(&h.log);
    expect_as(s, 1, "setWatches 10 data /sw data /gone exist /z exist /nx child / child /sw", "OK");
    expect_log(&h, "push 1 watcher NodeDeleted /gone; push 1 watcher NodeCreated /z; ");
    expect_as(s, 1, "setWatches 9 data /sw", "OK");
    expect_log(&h, "push 1 watcher NodeDataChanged /sw; ");
    expect(s, "create /sw/c 1", "/sw/c");
    expect(s, "create /nx 1", "/nx");
    expect_log(&h, "written /sw/c; written /sw; push 1 watcher NodeChildrenChanged /sw; "
                   "written /nx; written /; push 1 watcher NodeCreated /nx; push 1 watcher NodeChildrenChanged /; ");
    expect_as(s, 1, "setWatches 0 frob /x", "(error) BadArguments");
    expect_as(s, 1, "setWatches 0 data", "(error) BadArguments");
    done(s, &h);
}

/* Runs a request and pushes its reply on L as a model receives it; returns the count. */
static int push(kserver *s, lua_State *L, const char *request)
{
    return run_push(s, L, request, NULL);
}

static void test_zk_replies_reach_lua_as_the_java_client_returns_them(void **state)
{
    (void)state;
    fake_host h = { .now = T0 };
    kserver *s = make(&h);
    lua_State *L = luaL_newstate();
    assert_int_equal(push(s, L, "connect 6000"), 2);
    assert_int_equal(lua_tointeger(L, -2), INT64_C(0x100000000000001));
    assert_int_equal(lua_tointeger(L, -1), 6000);
    lua_settop(L, 0);
    assert_int_equal(push(s, L, "create /a hello ephemeral"), 1);
    assert_string_equal(lua_tostring(L, -1), "/a");
    lua_settop(L, 0);
    assert_int_equal(push(s, L, "getData /a"), 2);
    assert_string_equal(lua_tostring(L, 1), "hello");
    lua_getfield(L, 2, "czxid");
    assert_int_equal(lua_tointeger(L, -1), 2);
    lua_getfield(L, 2, "ephemeralOwner");
    assert_int_equal(lua_tointeger(L, -1), INT64_C(0x100000000000001));
    lua_getfield(L, 2, "dataLength");
    assert_int_equal(lua_tointeger(L, -1), 5);
    lua_getfield(L, 2, "ctime");
    assert_int_equal(lua_tointeger(L, -1), T0);
    lua_settop(L, 0);
    assert_int_equal(push(s, L, "exists /nope"), 1);
    assert_true(lua_isnil(L, -1));
    lua_settop(L, 0);
    assert_int_equal(push(s, L, "delete /nope"), 2);
    assert_true(lua_isnil(L, 1));
    assert_string_equal(lua_tostring(L, 2), "NoNode");
    lua_settop(L, 0);
    assert_int_equal(push(s, L, "getChildren /"), 1);
    assert_int_equal(luaL_len(L, 1), 2);
    lua_geti(L, 1, 1);
    assert_string_equal(lua_tostring(L, -1), "a");
    lua_settop(L, 0);
    assert_int_equal(push(s, L, "ping"), 1);
    assert_true(lua_toboolean(L, -1));
    lua_close(L);
    /* a subscription on connection 1 is the watcher channel: answered OK */
    void *reply = malloc(K->reply_size);
    slice sub[2] = { SLICE_LIT("SUBSCRIBE"), SLICE_LIT("watcher") };
    K->exec(s, 0, 1, 2, sub, reply);
    assert_false(K->reply_is_error(reply));
    K->reply_release(reply);
    free(reply);
    done(s, &h);
}

static void test_zk_data_copies_make_persistence_and_replication(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, T0, T0 + 777);
    kserver *m = p.m, *r = p.r;
    expect(m, "connect 6000", "session 0x100000000000001 timeout 6000");
    expect(m, "create /locks x", "/locks");
    expect(m, "create /locks/n- a ephemeral_sequential", "/locks/n-0000000000");
    expect(m, "delete /locks/n-0000000000", "OK");
    expect(m, "create /locks/n- a ephemeral_sequential", "/locks/n-0000000001");
    /* replicate every unit the master reported, in order */
    const char *units[] = { "session:0x100000000000001", "/locks", "/", "/locks/n-0000000000", "/locks",
                            "/locks/n-0000000000", "/locks", "/locks/n-0000000001", "/locks" };
    const int deleted[] = { 0, 0, 0, 0, 0, 1, 0, 0, 0 };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) replicate(m, r, units[i], deleted[i]);
    char *dm = dump(m), *dr = dump(r);
    assert_string_equal(dm, dr);
    free(dr);
    /* a replica refuses clients and never expires */
    expect(r, "exists /locks", "(error) ConnectionLoss");
    assert_int_equal(K->next_deadline(r), INT64_MAX);
    /* describe: a node's state, a session's timeout and deadline */
    buf b;
    buf_init(&b);
    int64_t deadline = 0;
    assert_true(K->describe(m, SLICE_LIT("session:0x100000000000001"), &b, &deadline));
    assert_string_equal(b.p, "timeout=6000");
    assert_int_equal(deadline, T0 + 8000);
    buf_reset(&b);
    assert_true(K->describe(m, SLICE_LIT("/locks/n-0000000001"), &b, &deadline));
    assert_string_equal(b.p, "\"a\" czxid=0x5 mzxid=0x5 pzxid=0x5 version=0 cversion=0 ephemeralOwner=0x100000000000001");
    assert_int_equal(deadline, -1);
    assert_false(K->describe(m, SLICE_LIT("/nope"), &b, &deadline));
    buf_release(&b);
    /* promoted: a new epoch of zxids, the session renewed from the replica's clock */
    K->set_replica(r, 0);
    assert_int_equal(K->next_deadline(r), T0 + 777 + 6000 + 1223 - 1);
    expect_as(r, 1, "connect 6000", "session 0x100000000000002 timeout 6000");
    expect_as(r, 1, "create /locks/n- b ephemeral_sequential", "/locks/n-0000000002");
    expect_as(r, 1, "exists /locks/n-0000000002",
              "czxid=0x100000002 mzxid=0x100000002 pzxid=0x100000002 version=0 cversion=0 aversion=0 "
              "ephemeralOwner=0x100000000000002 dataLength=1 numChildren=0");
    /* snapshot and load; a full copy */
    kdata *snap = K->snapshot(m);
    fake_host h3 = { .now = T0 + 100 };
    kserver *s3 = make(&h3);
    K->load(s3, snap);
    char *d3 = dump(s3);
    assert_string_equal(d3, dm);
    free(d3);
    assert_int_equal(K->next_deadline(s3), T0 + 100 + 6000 + 1900 - 1); /* a restart renews */
    expect(m, "delete /locks/n-0000000001", "OK");
    d3 = dump(s3);
    assert_string_equal(d3, dm); /* the snapshot is a copy */
    free(d3);
    K->copy_data(s3, m);
    char *dm2 = dump(m);
    d3 = dump(s3);
    assert_string_equal(d3, dm2);
    free(d3);
    free(dm2);
    free(dm);
    K->data_free(snap);
    pair_close(&p);
    done(s3, &h3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zk_requests_and_their_errors),
        cmocka_unit_test(test_zk_sessions_expire_at_tick_boundaries),
        cmocka_unit_test(test_zk_watches_fire_once),
        cmocka_unit_test(test_zk_replies_reach_lua_as_the_java_client_returns_them),
        cmocka_unit_test(test_zk_data_copies_make_persistence_and_replication),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
