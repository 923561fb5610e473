/* test_mongo.c — the fake MongoDB through the server-kind vtable (sim/mongo/mongo_kind.c),
 * with a fake host whose clock the test sets: every command of the subset and its response
 * documents and error codes (E11000 from insert and from a racing upsert), findAndModify's
 * forms, the TTL monitor's timing (a pass every ttl_monitor ms from the server's start, so a
 * document goes up to a period after its expiry; nothing on a secondary), replies as a model
 * receives them, and the data copies replication and persistence use. The semantics follow
 * the MongoDB manual (sim/mongo/mongo.c's header); there is no Debian mongod to diff with. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "mongo/mongo.h"
#include "mongo/mongo_kind.h"

#include "kind_fixture.h"

/* The fake MongoDB: a request is one command document, nothing is pushed. */
static const kind_fixture KF = { .kind = &mongo_kind, .nclients = 2, .pushes = KF_PUSHES_NOTHING };

/* As the node does: expire while the clock is past the deadline. */
static void advance_to(fake_host *h, kserver *s, int64_t t)
{
    h->now = t;
    while (K->next_deadline(s) < h->now) K->expire(s);
}

#define FAM(q, u) "{\"findAndModify\": \"locks\", \"query\": " q ", \"update\": " u ", \"upsert\": true, \"new\": true}"
#define DUP "E11000 duplicate key error collection: locklab.locks index: _id_ dup key: { _id: \\\"lock\\\" }"

static void test_mongo_find_and_modify_upserts_once_and_returns_the_holder(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    kserver *s = make(&h);
    expect(s, FAM("{\"_id\": \"lock\"}", "{\"$setOnInsert\": {\"owner\": \"A\"}}"),
           "{\"lastErrorObject\": {\"n\": 1, \"updatedExisting\": false, \"upserted\": \"lock\"}, "
           "\"value\": {\"_id\": \"lock\", \"owner\": \"A\"}, \"ok\": 1}");
    expect_log(&h, "written locks; written locks/1; ");
    expect(s, FAM("{\"_id\": \"lock\"}", "{\"$setOnInsert\": {\"owner\": \"B\"}}"),
           "{\"lastErrorObject\": {\"n\": 1, \"updatedExisting\": true}, "
           "\"value\": {\"_id\": \"lock\", \"owner\": \"A\"}, \"ok\": 1}");
    expect_log(&h, "");
    /* a query that asks for more than _id misses the document, and the upsert's insert collides */
    expect(s, FAM("{\"_id\": \"lock\", \"owner\": \"B\"}", "{\"$set\": {\"n\": 1}}"),
           "{\"ok\": 0, \"errmsg\": \"" DUP "\", \"code\": 11000, \"codeName\": \"DuplicateKey\", "
           "\"keyPattern\": {\"_id\": 1}, \"keyValue\": {\"_id\": \"lock\"}}");
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"lock\"}, {\"_id\": \"other\"}]}",
           "{\"n\": 0, \"writeErrors\": [{\"index\": 0, \"code\": 11000, \"errmsg\": \"" DUP "\", "
           "\"keyPattern\": {\"_id\": 1}, \"keyValue\": {\"_id\": \"lock\"}}], \"ok\": 1}");
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"lock\"}, {\"x\": 1}], \"ordered\": false}",
           "{\"n\": 1, \"writeErrors\": [{\"index\": 0, \"code\": 11000, \"errmsg\": \"" DUP "\", "
           "\"keyPattern\": {\"_id\": 1}, \"keyValue\": {\"_id\": \"lock\"}}], \"ok\": 1}");
    expect_log(&h, "written locks/2; ");
    /* $set on a match, new: false returns the document before */
    expect(s, "{\"findAndModify\": \"locks\", \"query\": {\"owner\": \"A\"}, \"update\": {\"$set\": {\"n\": 2}, "
              "\"$unset\": {\"owner\": 1}}}",
           "{\"lastErrorObject\": {\"n\": 1, \"updatedExisting\": true}, "
           "\"value\": {\"_id\": \"lock\", \"owner\": \"A\"}, \"ok\": 1}");
    expect(s, "{\"find\": \"locks\", \"filter\": {\"n\": {\"$gte\": 2}}}",
           "{\"cursor\": {\"firstBatch\": [{\"_id\": \"lock\", \"n\": 2}], \"id\": 0, \"ns\": \"locklab.locks\"}, "
           "\"ok\": 1}");
    expect(s, "{\"find\": \"locks\", \"filter\": {\"owner\": null, \"n\": {\"$exists\": false}}}",
           "{\"cursor\": {\"firstBatch\": [{\"_id\": 1, \"x\": 1}], \"id\": 0, \"ns\": \"locklab.locks\"}, \"ok\": 1}");
    expect(s, "{\"findAndModify\": \"locks\", \"query\": {\"_id\": \"none\"}, \"update\": {\"$set\": {\"a\": 1}}}",
           "{\"lastErrorObject\": {\"n\": 0, \"updatedExisting\": false}, \"value\": null, \"ok\": 1}");
    expect(s, "{\"findAndModify\": \"locks\", \"query\": {\"_id\": \"lock\"}, \"update\": {\"$set\": {\"_id\": 5}}}",
           "{\"ok\": 0, \"errmsg\": \"Performing an update on the path '_id' would modify the immutable field '_id'\", "
           "\"code\": 66, \"codeName\": \"ImmutableField\"}");
    expect(s, "{\"findAndModify\": \"locks\", \"query\": {\"_id\": \"lock\"}, \"remove\": true}",
           "{\"lastErrorObject\": {\"n\": 1}, \"value\": {\"_id\": \"lock\", \"n\": 2}, \"ok\": 1}");
    expect(s, "{\"delete\": \"locks\", \"deletes\": [{\"q\": {}, \"limit\": 0}]}", "{\"n\": 1, \"ok\": 1}");
    expect_log(&h, "written locks/1; deleted locks/1; deleted locks/2; ");
    /* errors */
    expect(s, "{\"findAndModify\": \"locks\", \"query\": {}}",
           "{\"ok\": 0, \"errmsg\": \"Either an update or remove=true must be specified\", \"code\": 9, "
           "\"codeName\": \"FailedToParse\"}");
    expect(s, "{\"find\": \"locks\", \"filter\": {\"a\": {\"$near\": 1}}}",
           "{\"ok\": 0, \"errmsg\": \"unknown operator: $near\", \"code\": 2, \"codeName\": \"BadValue\"}");
    expect(s, "{\"ping\": 1}", "{\"ok\": 0, \"errmsg\": \"no such command: 'ping'\", \"code\": 59, "
                               "\"codeName\": \"CommandNotFound\"}");
    expect(s, "{\"insert\": \"locks\", \"documents\": [{}], \"writeConcern\": {\"w\": 2}}",
           "{\"ok\": 0, \"errmsg\": \"locklab: only writeConcern {w: 1} and {w: \\\"majority\\\"} are modelled\", "
           "\"code\": 2, \"codeName\": \"BadValue\"}");
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"a\": 1.5}]}",
           "{\"ok\": 0, \"errmsg\": \"bad JSON at offset 40: only whole numbers are in the subset\", \"code\": 9, "
           "\"codeName\": \"FailedToParse\"}");
    expect(s, "[1]", "{\"ok\": 0, \"errmsg\": \"a request is a document: {\\\"command\\\": ...}\", \"code\": 9, "
                     "\"codeName\": \"FailedToParse\"}");
    expect(s, "{\"drop\": \"locks\"}", "{\"nIndexesWas\": 1, \"ns\": \"locklab.locks\", \"ok\": 1}");
    expect(s, "{\"drop\": \"locks\"}", "{\"ok\": 0, \"errmsg\": \"ns not found\", \"code\": 26, "
                                       "\"codeName\": \"NamespaceNotFound\"}");
    K->set_replica(s, 1);
    expect(s, "{\"insert\": \"locks\", \"documents\": [{}]}",
           "{\"ok\": 0, \"errmsg\": \"not primary\", \"code\": 10107, \"codeName\": \"NotWritablePrimary\"}");
    done(s, &h);
}

#define TTL_INDEX "{\"createIndexes\": \"locks\", \"indexes\": [{\"key\": {\"expireAt\": 1}, \"name\": \"expireAt_1\", " \
                  "\"expireAfterSeconds\": 0}]}"

static void test_mongo_ttl_monitor_sweeps_once_a_period_from_the_start(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h); /* started at 1000: passes at 61000, 121000, ... */
    assert_int_equal(K->next_deadline(s), INT64_MAX);
    expect(s, TTL_INDEX, "{\"numIndexesBefore\": 1, \"numIndexesAfter\": 2, \"createdCollectionAutomatically\": true, "
                         "\"ok\": 1}");
    expect(s, TTL_INDEX, "{\"numIndexesBefore\": 2, \"numIndexesAfter\": 2, \"note\": \"all indexes already exist\", "
                         "\"createdCollectionAutomatically\": false, \"ok\": 1}");
    /* nothing to judge: no pass scheduled */
    assert_int_equal(K->next_deadline(s), INT64_MAX);
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"a\", \"expireAt\": {\"$date\": 11000}}, "
              "{\"_id\": \"b\", \"expireAt\": {\"$date\": 61000}}, {\"_id\": \"c\", \"expireAt\": {\"$date\": 61001}}, "
              "{\"_id\": \"d\", \"expireAt\": \"not a date\"}, {\"_id\": \"e\"}]}",
           "{\"n\": 5, \"ok\": 1}");
    buf_reset(&h.log);
    buf b;
    buf_init(&b);
    int64_t deadline = 0;
    assert_int_equal(K->describe(s, slice_cstr("locks/1"), &b, &deadline), 1);
    assert_int_equal(deadline, 11000);
    buf_release(&b);
    /* the node asks at the deadline + 1: the pass runs at 61000 exactly */
    assert_int_equal(K->next_deadline(s), 60999);
    advance_to(&h, s, 60999);
    expect_log(&h, "");
    /* 'a' expired at 11000 but stays until the pass: 50 s late; 'b' expires at the pass */
    advance_to(&h, s, 61000);
    expect_log(&h, "expired locks/1; expired locks/2; ");
    assert_int_equal(K->next_deadline(s), 120999);
    advance_to(&h, s, 100000);
    expect_log(&h, "");
    /* a jump over several periods: one pass, the next on the period grid */
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"f\", \"expireAt\": {\"$date\": 1000000}}]}",
           "{\"n\": 1, \"ok\": 1}");
    expect_log(&h, "written locks/6; ");
    advance_to(&h, s, 250000);
    expect_log(&h, "expired locks/3; ");
    assert_int_equal(K->next_deadline(s), 300999);
    expect(s, "{\"delete\": \"locks\", \"deletes\": [{\"q\": {\"_id\": \"f\"}, \"limit\": 1}]}", "{\"n\": 1, \"ok\": 1}");
    /* a non-date or missing field never expires, and leaves no pass to schedule */
    expect_dump(s, "collection locks indexes [_id_, expireAt_1 {expireAt: 1} expireAfterSeconds 0]\n"
                   "doc locks/4 {\"_id\": \"d\", \"expireAt\": \"not a date\"}\ndoc locks/5 {\"_id\": \"e\"}\n");
    assert_int_equal(K->next_deadline(s), INT64_MAX);
    done(s, &h);
}

static void test_mongo_ttl_period_is_the_server_option_and_secondaries_never_sweep(void **state)
{
    (void)state;
    assert_string_equal(K->options[0].name, "ttl_monitor");
    assert_int_equal(K->options[0].dflt, 60000);
    fake_host h = { .now = 0 };
    int64_t opts[2] = { 5000, 0 };
    kserver *s = make_with(&h, opts);
    expect(s, "{\"createIndexes\": \"locks\", \"indexes\": [{\"key\": {\"at\": 1}, \"name\": \"at_1\", "
              "\"expireAfterSeconds\": 10}]}",
           "{\"numIndexesBefore\": 1, \"numIndexesAfter\": 2, \"createdCollectionAutomatically\": true, \"ok\": 1}");
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": 1, \"at\": {\"$date\": 1000}}]}", "{\"n\": 1, \"ok\": 1}");
    buf_reset(&h.log);
    /* expires at 1000 + 10 s = 11000; passes at 5000, 10000, 15000 */
    advance_to(&h, s, 10000);
    expect_log(&h, "");
    K->set_replica(s, 1);
    advance_to(&h, s, 15000);
    assert_int_equal(K->next_deadline(s), INT64_MAX);
    expect_log(&h, "");
    K->set_replica(s, 0);
    advance_to(&h, s, 15000);
    expect_log(&h, "expired locks/1; ");
    done(s, &h);
}

/* The write concern a reply carries for the node (mongo_kind.c): w: "majority", explicit or the
 * implicit default since MongoDB 5.0, asks the node to answer only once a majority of the set
 * has the write; w: 1 does not; a read never does. And elections need a majority's votes. */
static void test_mongo_write_concern_majority_is_the_default(void **state)
{
    (void)state;
    assert_non_null(K->reply_needs_majority);
    assert_int_equal(K->elects_by_majority, 1);
    fake_host h = { .now = 0 };
    kserver *s = make(&h);
    static const struct { const char *req; int majority; } cases[] = {
        { "{\"insert\": \"locks\", \"documents\": [{\"_id\": 1}]}", 1 },
        { "{\"insert\": \"locks\", \"documents\": [{\"_id\": 2}], \"writeConcern\": {\"w\": \"majority\"}}", 1 },
        { "{\"insert\": \"locks\", \"documents\": [{\"_id\": 3}], \"writeConcern\": {\"w\": 1}}", 0 },
        { "{\"find\": \"locks\"}", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mgreply r;
        slice a = slice_cstr(cases[i].req);
        K->exec(s, 0, 0, 1, &a, &r);
        assert_int_equal(K->reply_is_error(&r), 0);
        assert_int_equal(K->reply_needs_majority(&r), cases[i].majority);
        K->reply_release(&r);
    }
    done(s, &h);
}

/* mongod's TTLMonitor sleeps ttlMonitorSleepSecs on a steady clock (a condition variable's
 * wait_for) and compares the dates with the wall clock (Date_t::now()): the passes keep their
 * rhythm through a wall-clock jump, which changes only what a pass finds expired; where the
 * rhythm falls is the option ttl_monitor_first for a node's first start, a period after a
 * restart. */
static void test_mongo_ttl_monitor_sleeps_on_the_steady_clock_from_its_phase(void **state)
{
    (void)state;
    assert_string_equal(K->options[1].name, "ttl_monitor_first");
    assert_int_equal(K->options[1].dflt, 0);
    fake_host h = { .now = 0 };
    int64_t opts[2] = { 60000, 12000 };
    kserver *s = make_with(&h, opts);
    expect(s, TTL_INDEX, "{\"numIndexesBefore\": 1, \"numIndexesAfter\": 2, \"createdCollectionAutomatically\": true, "
                         "\"ok\": 1}");
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"a\", \"expireAt\": {\"$date\": 10000}}, "
              "{\"_id\": \"b\", \"expireAt\": {\"$date\": 30000}}]}",
           "{\"n\": 2, \"ok\": 1}");
    buf_reset(&h.log);
    /* the first pass at 12 s, then every 60 s: 72 s, 132 s */
    assert_int_equal(K->next_deadline(s), 11999);
    advance_to(&h, s, 12000);
    expect_log(&h, "expired locks/1; ");
    assert_int_equal(K->next_deadline(s), 71999);
    /* at 20 s the wall clock jumps 15 s forward: the next pass stays 52 s away on the steady
     * clock (it reads 87 s on the wall clock now), and it judges b by the wall clock */
    advance_to(&h, s, 20000);
    h.now += 15000;
    h.jumped += 15000;
    assert_int_equal(K->next_deadline(s), 86999);
    advance_to(&h, s, 86999);
    expect_log(&h, "");
    advance_to(&h, s, 87000);
    expect_log(&h, "expired locks/2; ");
    done(s, &h);
    /* a restarted process waits a whole period before its first pass, whatever the option */
    fake_host r = { .now = 5000 };
    kind_host host = { .ud = &r, .clock = fh_clock, .steady = fh_steady, .changed = fh_changed, .push = fh_push,
                       .nclients = 2, .options = opts, .restarted = 1 };
    s = K->create(&host);
    K->set_replica(s, 0);
    expect(s, TTL_INDEX, "{\"numIndexesBefore\": 1, \"numIndexesAfter\": 2, \"createdCollectionAutomatically\": true, "
                         "\"ok\": 1}");
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"a\", \"expireAt\": {\"$date\": 1000}}]}",
           "{\"n\": 1, \"ok\": 1}");
    assert_int_equal(K->next_deadline(s), 64999);
    done(s, &r);
}

/* A pass that finds nothing to judge (no date in a TTL field) is skipped, not postponed: once
 * a date is written, the next pass is on the monitor's rhythm, not at once. */
static void test_mongo_ttl_monitor_keeps_its_rhythm_while_idle(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    int64_t opts[2] = { 60000, 0 };
    kserver *s = make_with(&h, opts);
    expect(s, TTL_INDEX, "{\"numIndexesBefore\": 1, \"numIndexesAfter\": 2, \"createdCollectionAutomatically\": true, "
                         "\"ok\": 1}");
    assert_int_equal(K->next_deadline(s), INT64_MAX);
    advance_to(&h, s, 70000);
    expect(s, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"a\", \"expireAt\": {\"$date\": 1000}}]}",
           "{\"n\": 1, \"ok\": 1}");
    assert_int_equal(K->next_deadline(s), 119999);
    done(s, &h);
}

static void test_mongo_replies_reach_lua_as_a_driver_returns_them(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    kserver *s = make(&h);
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    const char *reqs[] = {
        FAM("{\"_id\": \"lock\"}", "{\"$setOnInsert\": {\"owner\": \"A\", \"at\": {\"$date\": 5}}}"),
        "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"lock\"}]}",
        "{\"delete\": \"locks\", \"deletes\": [{\"q\": {\"_id\": \"lock\", \"owner\": \"B\"}, \"limit\": 1}]}",
        "{\"find\": \"locks\"}",
    };
    const char *code[] = {
        "local r = ... return r.value.owner .. ' ' .. r.value.at .. ' ' .. tostring(r.lastErrorObject.updatedExisting)",
        "local r, err, code = ... return tostring(r) .. ' ' .. code .. ' ' .. err:sub(1, 6)",
        "local r = ... return 'n=' .. r.n",
        "local r = ... return #r.cursor.firstBatch .. ' ' .. r.cursor.firstBatch[1]._id",
    };
    const char *want[] = { "A 5 false", "nil 11000 E11000", "n=0", "1 lock" };
    for (int i = 0; i < 4; i++) {
        assert_int_equal(luaL_loadstring(L, code[i]), LUA_OK);
        int is_error;
        int n = run_push(s, L, reqs[i], &is_error);
        assert_int_equal(is_error, i == 1);
        assert_int_equal(lua_pcall(L, n, 1, 0), LUA_OK);
        assert_string_equal(lua_tostring(L, -1), want[i]);
        lua_settop(L, 0);
    }
    lua_close(L);
    done(s, &h);
}

static void test_mongo_data_copies_make_replication_and_rollback(void **state)
{
    (void)state;
    pair rs; /* the primary and its secondary */
    pair_open(&rs, 0, 0);
    kserver *p = rs.m, *sec = rs.r;
    expect(p, TTL_INDEX, "{\"numIndexesBefore\": 1, \"numIndexesAfter\": 2, \"createdCollectionAutomatically\": true, "
                         "\"ok\": 1}");
    expect(p, FAM("{\"_id\": \"lock\"}", "{\"$setOnInsert\": {\"owner\": \"A\", \"expireAt\": {\"$date\": 10}}}"),
           "{\"lastErrorObject\": {\"n\": 1, \"updatedExisting\": false, \"upserted\": \"lock\"}, "
           "\"value\": {\"_id\": \"lock\", \"owner\": \"A\", \"expireAt\": {\"$date\": 10}}, \"ok\": 1}");
    kdata *snap = K->snapshot(p);
    /* the collection's definition, then the document, as the oplog carries them */
    replicate(p, sec, "locks", 0);
    replicate(p, sec, "locks/1", 0);
    expect_log(&rs.hr, "written locks; written locks/1; ");
    expect_dump(sec, "collection locks indexes [_id_, expireAt_1 {expireAt: 1} expireAfterSeconds 0]\n"
                     "doc locks/1 {\"_id\": \"lock\", \"owner\": \"A\", \"expireAt\": {\"$date\": 10}}\n");
    /* a secondary never sweeps; its primary's TTL deletion arrives as a deletion */
    assert_int_equal(K->next_deadline(sec), INT64_MAX);
    rs.hm.now = 60000;
    K->expire(p);
    expect_log(&rs.hm, "written locks; written locks/1; expired locks/1; ");
    replicate(p, sec, "locks/1", 1);
    expect_log(&rs.hr, "deleted locks/1; ");
    /* promoted, the secondary numbers its documents after what it applied */
    K->set_replica(sec, 0);
    expect(sec, "{\"insert\": \"locks\", \"documents\": [{\"_id\": \"B\"}]}", "{\"n\": 1, \"ok\": 1}");
    expect_log(&rs.hr, "written locks/2; ");
    /* the old primary comes back and resynchronises: what it alone had is rolled back */
    K->load(p, snap);
    K->data_free(snap);
    K->copy_data(p, sec);
    expect_dump(p, "collection locks indexes [_id_, expireAt_1 {expireAt: 1} expireAfterSeconds 0]\n"
                   "doc locks/2 {\"_id\": \"B\"}\n");
    /* a dropped collection travels as its name */
    expect(sec, "{\"drop\": \"locks\"}", "{\"nIndexesWas\": 2, \"ns\": \"locklab.locks\", \"ok\": 1}");
    replicate(sec, p, "locks", 1);
    expect_dump(p, "");
    pair_close(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mongo_find_and_modify_upserts_once_and_returns_the_holder),
        cmocka_unit_test(test_mongo_ttl_monitor_sweeps_once_a_period_from_the_start),
        cmocka_unit_test(test_mongo_ttl_monitor_sleeps_on_the_steady_clock_from_its_phase),
        cmocka_unit_test(test_mongo_ttl_monitor_keeps_its_rhythm_while_idle),
        cmocka_unit_test(test_mongo_write_concern_majority_is_the_default),
        cmocka_unit_test(test_mongo_ttl_period_is_the_server_option_and_secondaries_never_sweep),
        cmocka_unit_test(test_mongo_replies_reach_lua_as_a_driver_returns_them),
        cmocka_unit_test(test_mongo_data_copies_make_replication_and_rollback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
