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

static const server_kind *K = &redis_kind;

/* The host: a clock the test sets, and a log of what the server reported. */
typedef struct fake_host {
    int64_t now;
    buf log;
} fake_host;

static int64_t fh_clock(void *ud)
{
    return ((fake_host *)ud)->now;
}

static void fh_changed(void *ud, kind_event ev, slice unit)
{
    static const char *const names[] = { "written", "deleted", "expired" };
    buf_printf(&((fake_host *)ud)->log, "%s %.*s; ", names[ev], (int)unit.len, unit.p);
}

static void fh_push(void *ud, int client, slice topic, slice payload)
{
    buf_printf(&((fake_host *)ud)->log, "push %d %.*s %.*s; ", client, (int)topic.len, topic.p, (int)payload.len,
               payload.p);
}

static kserver *make(fake_host *h)
{
    kind_host host = { .ud = h, .clock = fh_clock, .changed = fh_changed, .push = fh_push, .nclients = 2,
                       .client_base = 3 };
    return K->create(&host);
}

/* Runs a request (words separated by spaces) for client over conn; returns the brief reply
 * (heap string). */
static char *run(kserver *s, int client, int conn, const char *request)
{
    slice argv[16];
    int argc = 0;
    for (const char *p = request; *p && argc < 16;) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        argv[argc++] = (slice){ p, n };
        p += n + (e != NULL);
    }
    void *reply = malloc(K->reply_size);
    K->exec(s, client, conn, argc, argv, reply);
    buf b;
    buf_init(&b);
    K->reply_brief(reply, &b);
    K->reply_release(reply);
    free(reply);
    return buf_steal(&b);
}

static void expect(kserver *s, const char *request, const char *want)
{
    char *got = run(s, 0, 0, request);
    assert_string_equal(got, want);
    free(got);
}

static void expect_dump(kserver *s, const char *want)
{
    buf b;
    buf_init(&b);
    K->dump(s, &b);
    assert_string_equal(b.p ? b.p : "", want);
    buf_release(&b);
}

static void expect_log(fake_host *h, const char *want)
{
    assert_string_equal(h->log.p ? h->log.p : "", want);
    buf_reset(&h->log);
}

static void test_kind_requests_report_their_changes_and_expire_at_the_host_clock(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    buf_init(&h.log);
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
    K->destroy(s);
    buf_release(&h.log);
}

static void test_kind_replies_reach_lua_as_a_client_library_returns_them(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    buf_init(&h.log);
    kserver *s = make(&h);
    lua_State *L = luaL_newstate();
    const char *reqs[] = { "INCR n", "GET missing", "INCR", "HSET h f v" };
    const char *want[] = { "1", "nil", "nil ERR wrong number of arguments for 'incr' command", "1" };
    for (int i = 0; i < 4; i++) {
        slice argv[4];
        int argc = 0;
        char *copy = strdup(reqs[i]);
        for (char *t = strtok(copy, " "); t; t = strtok(NULL, " ")) argv[argc++] = slice_cstr(t);
        void *reply = malloc(K->reply_size);
        K->exec(s, 0, 0, argc, argv, reply);
        assert_int_equal(K->reply_is_error(reply), i == 2);
        int n = K->reply_push(L, reply);
        buf b;
        buf_init(&b);
        int top = lua_gettop(L);
        for (int v = top - n + 1; v <= top; v++) {
            buf_printf(&b, "%s%s", v > top - n + 1 ? " " : "", luaL_tolstring(L, v, NULL));
            lua_pop(L, 1);
        }
        assert_string_equal(b.p, want[i]);
        lua_pop(L, n);
        buf_release(&b);
        K->reply_release(reply);
        free(reply);
        free(copy);
    }
    lua_close(L);
    K->destroy(s);
    buf_release(&h.log);
}

static void test_kind_pushes_reach_subscribed_clients_until_they_leave(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    buf_init(&h.log);
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
    K->destroy(s);
    buf_release(&h.log);
}

/* A master and its replica, each with a fake host of its own (the pair must not move). */
typedef struct pair {
    fake_host hm, hr;
    kserver *m, *r;
} pair;

static void pair_open(pair *p)
{
    p->hm = (fake_host){ .now = 1000 };
    p->hr = (fake_host){ .now = 1000 };
    buf_init(&p->hm.log);
    buf_init(&p->hr.log);
    p->m = make(&p->hm);
    p->r = make(&p->hr);
    K->set_replica(p->r, 1);
}

static void pair_close(pair *p)
{
    K->destroy(p->m);
    K->destroy(p->r);
    buf_release(&p->hm.log);
    buf_release(&p->hr.log);
}

/* One key's change (or deletion) captured on m and applied on r, as replication sends it. */
static void replicate(kserver *m, kserver *r, const char *key, int deleted)
{
    kchange *c = K->capture(m, slice_cstr(key), deleted);
    K->apply(r, c);
    K->change_free(c);
}

static void test_kind_data_copies_make_persistence_and_replication(void **state)
{
    (void)state;
    pair p;
    pair_open(&p);
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
    pair_open(&p);
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
