/* test_pg.c — the fake PostgreSQL through the server-kind vtable (sim/pg/pg_kind.c), as a node
 * drives it, with a fake host: advisory locks at session and transaction level (values,
 * re-entrant counts, the two key spaces, warnings), transaction blocks and their aborts, a
 * session's end, errors, replies as a model receives them, nothing replicated or persisted,
 * and PgBouncer's transaction pooling (option pgbouncer_pool): server connections handed out
 * per transaction, last released first, and the session lock that stays behind on a pooled
 * backend for whoever runs there next; and, through a host that parks requests as a node does
 * (kind_host.park), pg_advisory_lock waiting in the server: the order of the waiters, lock_timeout,
 * statement_timeout, the deadlock check, a waiter's session ending. The server's semantics are
 * compared with PostgreSQL 15 itself by tests/diff/postgresql/, the pool's with a real pgbouncer
 * by its cases/pgbouncer.txt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "pg/pg_kind.h"

#include "kind_fixture.h"

/* Clients 0..2 have backends with pids 5..7 (client_base 4, + 1); one statement a request. */
static const kind_fixture KF = { .kind = &pg_kind, .nclients = 3, .client_base = 4, .pushes = KF_PUSHES_NOTHING };

static const int64_t direct[] = { 0 };
static const int64_t pooled[] = { 2 };

static void test_pg_session_locks_count_and_belong_to_the_session(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make_with(&h, direct);
    expect(s, "SELECT pg_advisory_lock(1), pg_try_advisory_lock(1) AS again, pg_backend_pid()", "'' | t | 5");
    expect_as(s, 1, "SELECT pg_try_advisory_lock(1), pg_advisory_unlock(1)",
              "f | f (WARNING: you don't own a lock of type ExclusiveLock)");
    expect_dump(s, "advisory lock (1) held by pid 5 (session 2, transaction 0)\n");
    expect(s, "SELECT pg_advisory_unlock(1)", "t");
    expect_as(s, 1, "SELECT pg_try_advisory_lock(1)", "f");
    expect(s, "SELECT pg_advisory_unlock(1), pg_advisory_unlock(1)",
           "t | f (WARNING: you don't own a lock of type ExclusiveLock)");
    /* two key spaces */
    expect(s, "SELECT pg_try_advisory_lock(0, 2), pg_try_advisory_lock(4294967298)", "t | t");
    expect_as(s, 1, "SELECT pg_try_advisory_lock(2), pg_try_advisory_lock(1, 2), pg_try_advisory_lock(0, 2)", "t | t | f");
    expect_dump(s, "advisory lock (2) held by pid 6 (session 1, transaction 0)\n"
                   "advisory lock (4294967298) held by pid 5 (session 1, transaction 0)\n"
                   "advisory lock (0, 2) held by pid 5 (session 1, transaction 0)\n"
                   "advisory lock (1, 2) held by pid 6 (session 1, transaction 0)\n");
    /* a waiter: the fake cannot make it wait, and says so */
    expect_as(s, 1, "SELECT pg_advisory_lock(0, 2)",
              "ERROR 0A000: locklab: pg_advisory_lock(0, 2) would wait for the lock held by pid 5; this fake cannot "
              "defer a reply (poll with pg_try_advisory_lock)");
    /* the session ends: its locks go, however many holds */
    expect(s, "SELECT pg_advisory_lock(0, 2)", "''");
    K->disconnect(s, 0);
    expect_dump(s, "advisory lock (2) held by pid 6 (session 1, transaction 0)\n"
                   "advisory lock (1, 2) held by pid 6 (session 1, transaction 0)\n");
    expect_as(s, 1, "SELECT pg_advisory_unlock_all()", "''");
    expect_dump(s, "");
    /* each lock's grant and end (not its holds' counts), as the unit advisory/KEY: the two
     * key spaces are separate locks; a session's end and unlock_all end its locks */
    expect_log(&h, "written advisory/1; deleted advisory/1; written advisory/0,2; written advisory/4294967298; "
                   "written advisory/2; written advisory/1,2; deleted advisory/4294967298; deleted advisory/0,2; "
                   "deleted advisory/1,2; deleted advisory/2; ");
    done(s, &h);
}

static void test_pg_transaction_locks_and_blocks(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make_with(&h, direct);
    expect(s, "SELECT pg_advisory_xact_lock(5)", "''");
    expect_dump(s, "");
    expect(s, "BEGIN", "BEGIN");
    expect(s, "SELECT pg_advisory_xact_lock(5), pg_advisory_lock(6)", "'' | ''");
    expect(s, "SELECT pg_advisory_unlock(5)", "f (WARNING: you don't own a lock of type ExclusiveLock)");
    expect_dump(s, "advisory lock (5) held by pid 5 (session 0, transaction 1)\n"
                   "advisory lock (6) held by pid 5 (session 1, transaction 0)\npid 5 in a transaction\n");
    expect_as(s, 1, "SELECT pg_try_advisory_xact_lock(5)", "f");
    expect(s, "ROLLBACK", "ROLLBACK");
    expect_dump(s, "advisory lock (6) held by pid 5 (session 1, transaction 0)\n");
    /* an error aborts the block at once */
    expect(s, "START TRANSACTION", "START TRANSACTION");
    expect(s, "SELECT pg_try_advisory_xact_lock(7)", "t");
    expect(s, "SELECT nope(1)", "ERROR 42883: function nope(integer) does not exist");
    expect_dump(s, "advisory lock (6) held by pid 5 (session 1, transaction 0)\npid 5 in a transaction (aborted)\n");
    expect(s, "SELECT 1", "ERROR 25P02: current transaction is aborted, commands ignored until end of transaction block");
    expect(s, "COMMIT", "ROLLBACK");
    expect(s, "COMMIT", "COMMIT (WARNING: there is no transaction in progress)");
    /* errors and what is not the subset */
    expect(s, "SELECT pg_try_advisory_lock(1, 2, 3)",
           "ERROR 42883: function pg_try_advisory_lock(integer, integer, integer) does not exist");
    expect(s, "SELECT pg_try_advisory_lock('x')", "ERROR 22P02: invalid input syntax for type bigint: \"x\"");
    expect(s, "SELECT pg_advisory_lock_shared(1)",
           "ERROR 0A000: locklab: not in the fake PostgreSQL's subset at \"pg_advisory_lock_shared\"");
    expect(s, "INSERT INTO t VALUES (1)", "ERROR 0A000: locklab: not in the fake PostgreSQL's subset at \"INSERT\"");
    expect(s, "SELEC 1", "ERROR 42601: syntax error at or near \"SELEC\"");
    expect(s, "", "ERROR 0A000: locklab: not in the fake PostgreSQL's subset: the statement ends too early");
    expect(s, "SELECT pg_try_advisory_lock(1", "ERROR 42601: syntax error at end of input");
    done(s, &h);
}

static void lua_show(lua_State *L, int idx, buf *out)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        buf_puts(out, luaL_tolstring(L, idx, NULL));
        lua_pop(L, 1);
        return;
    }
    lua_rawgeti(L, idx, 1);
    buf_puts(out, "[1]");
    const char *fields[] = { "got", "pg_advisory_lock", "pid" };
    for (int i = 0; i < 3; i++) {
        lua_getfield(L, -1, fields[i]);
        if (!lua_isnil(L, -1)) {
            buf_printf(out, " %s=", fields[i]);
            if (lua_type(L, -1) == LUA_TSTRING) buf_printf(out, "'%s'", lua_tostring(L, -1));
            else buf_puts(out, luaL_tolstring(L, -1, NULL)), lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static void test_pg_replies_reach_lua(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make_with(&h, direct);
    lua_State *L = luaL_newstate();
    const char *reqs[] = { "SELECT pg_try_advisory_lock(1) AS got", "SELECT pg_advisory_lock(1), pg_backend_pid() AS pid",
                           "SELECT pg_try_advisory_lock(NULL) AS got", "BEGIN", "SELECT x(1)", "COMMIT" };
    const char *want[] = { "[1] got=true", "[1] pg_advisory_lock='' pid=5", "[1]", "BEGIN",
                           "nil function x(integer) does not exist 42883", "ROLLBACK" };
    for (int i = 0; i < 6; i++) {
        int is_error;
        char *got = run_values(s, L, reqs[i], &is_error, lua_show);
        assert_int_equal(is_error, i == 4);
        assert_string_equal(got, want[i]);
        free(got);
    }
    lua_close(L);
    done(s, &h);
}

static void test_pg_nothing_replicated_or_persisted(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 1000, 1000);
    /* a hot standby takes advisory locks as a primary does, of its own */
    expect(p.m, "SELECT pg_try_advisory_lock(1)", "t");
    expect(p.r, "SELECT pg_try_advisory_lock(1)", "t");
    kdata *snap = K->snapshot(p.m);
    K->copy_data(p.r, p.m);
    expect_as(p.r, 1, "SELECT pg_try_advisory_lock(1)", "f"); /* client 0 holds it there */
    K->data_free(snap);
    /* a restarted server: a fresh process with the snapshot loaded holds nothing */
    fake_host h2 = { .now = 2000 };
    kserver *again = make(&h2);
    kdata *d = K->snapshot(p.m);
    K->load(again, d);
    K->data_free(d);
    expect_dump(again, "");
    expect_as(again, 1, "SELECT pg_try_advisory_lock(1)", "t");
    done(again, &h2);
    pair_close(&p);
}

static void test_pg_pgbouncer_transaction_pooling(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make_with(&h, pooled);
    /* A's session lock runs on the pool's first server connection, which goes back to the pool */
    expect(s, "SELECT pg_try_advisory_lock(1) AS got, pg_backend_pid() AS pid", "t | 1001");
    expect_dump(s, "advisory lock (1) held by pid 1001 (session 1, transaction 0)\nserver connection pid 1001 idle\n");
    /* B's statement is handed the same backend (LIFO): "its" lock is already held, by itself */
    expect_as(s, 1, "SELECT pg_try_advisory_lock(1), pg_backend_pid()", "t | 1001");
    expect_dump(s, "advisory lock (1) held by pid 1001 (session 2, transaction 0)\nserver connection pid 1001 idle\n");
    /* a transaction keeps its server connection; another client gets a second one */
    expect_as(s, 1, "BEGIN", "BEGIN");
    expect_as(s, 1, "SELECT pg_backend_pid()", "1001");
    expect(s, "SELECT pg_try_advisory_lock(1), pg_backend_pid()", "f | 1002");
    expect_as(s, 2, "SELECT pg_backend_pid()", "1002");
    expect(s, "BEGIN", "BEGIN");
    expect_as(s, 2, "SELECT pg_backend_pid()",
              "ERROR 0A000: locklab: all 2 server connections of PgBouncer's pool are inside other clients' "
              "transactions; PgBouncer would queue this client, which the fake cannot (it cannot defer a reply)");
    expect_dump(s, "advisory lock (1) held by pid 1001 (session 2, transaction 0)\n"
                   "server connection pid 1001 in a transaction of client 1\n"
                   "server connection pid 1002 in a transaction of client 0\n");
    /* a client gone inside a transaction: its server connection is closed, its backend's locks go */
    K->disconnect(s, 1);
    expect_dump(s, "server connection pid 1002 in a transaction of client 0\n");
    expect(s, "COMMIT", "COMMIT");
    expect_as(s, 2, "SELECT pg_try_advisory_xact_lock(3), pg_backend_pid()", "t | 1002");
    expect_as(s, 1, "SELECT pg_advisory_lock(4), pg_backend_pid()", "'' | 1002");
    /* a client gone between transactions leaves its session lock on the pooled backend */
    K->disconnect(s, 1);
    expect_dump(s, "advisory lock (4) held by pid 1002 (session 1, transaction 0)\nserver connection pid 1002 idle\n");
    expect_as(s, 2, "SELECT pg_advisory_unlock(4)", "t");
    done(s, &h);
}

/* A host that parks requests, as a node does (kind_host.park, unpark): it logs each parked
 * request ("park 2 (1000 ms); ") and each answer ("answer 2: ''; ", "drop 2; "), after which,
 * as a node does once it has recorded the answer, the server tells what it did
 * (server_kind.parked_answered: "written advisory/1; ", the lock handed to the waiter). */
typedef struct wait_host {
    fake_host h;
    uint64_t next;
    kserver *s;
} wait_host;

static uint64_t wh_park(void *ud, int64_t timeout_ms)
{
    wait_host *w = ud;
    buf_printf(&w->h.log, "park %llu (%lld ms); ", (unsigned long long)++w->next, (long long)timeout_ms);
    return w->next;
}

static void wh_unpark(void *ud, uint64_t ticket, void *reply)
{
    wait_host *w = ud;
    if (!reply) {
        buf_printf(&w->h.log, "drop %llu; ", (unsigned long long)ticket);
        return;
    }
    buf_printf(&w->h.log, "answer %llu: ", (unsigned long long)ticket);
    K->reply_brief(reply, &w->h.log);
    buf_puts(&w->h.log, "; ");
    K->reply_release(reply);
    if (w->s && K->parked_answered) K->parked_answered(w->s, ticket);
}

static kserver *make_waiting(wait_host *w, const int64_t *options)
{
    kind_host host = { .ud = w, .clock = fh_clock, .steady = fh_steady, .changed = fh_changed, .push = fh_push,
                       .park = wh_park, .unpark = wh_unpark, .nclients = KF.nclients, .client_base = KF.client_base,
                       .options = options };
    return w->s = K->create(&host);
}

/* A parked request's timer, as the node fires it: "again N" or the reply that ends it. */
static void expect_timer(kserver *s, uint64_t ticket, const char *want)
{
    void *reply = calloc(1, K->reply_size);
    int64_t again = -1;
    buf b;
    buf_init(&b);
    if (K->parked_timeout(s, ticket, reply, &again)) {
        K->reply_brief(reply, &b);
        K->reply_release(reply);
    } else {
        buf_printf(&b, "again %lld", (long long)again);
    }
    free(reply);
    assert_string_equal(b.p, want);
    buf_release(&b);
}

static void test_pg_lock_waits_in_the_server(void **state)
{
    (void)state;
    wait_host w = { .h = { .now = 1000 } };
    fake_host *h = &w.h;
    kserver *s = make_waiting(&w, direct);
    /* the holder; two waiters, in order; the holder's own requests still succeed */
    expect(s, "SELECT pg_advisory_lock(1)", "''");
    expect_as(s, 1, "SET lock_timeout = 1500", "SET");
    expect_as(s, 1, "SELECT pg_advisory_lock(1) AS a, pg_try_advisory_lock(7) AS b", "");
    h->now += 100;
    expect_as(s, 2, "SELECT pg_advisory_lock(1)", "");
    expect_log(h, "written advisory/1; park 1 (1000 ms); park 2 (1000 ms); ");
    expect(s, "SELECT pg_advisory_lock(1), pg_try_advisory_lock(1)", "'' | t");
    expect_as(s, 1, "SELECT 1", "ERROR 0A000: locklab: client 1's statement still waits for a lock; a connection runs "
                                "one statement at a time (the real client library would queue this one)");
    expect_dump(s, "advisory lock (1) held by pid 5 (session 3, transaction 0)\n"
                   "pid 6 waits for advisory lock (1)\npid 7 waits for advisory lock (1)\n");
    /* the deadlock check, once, finds none; then lock_timeout is the one timer left */
    h->now += 900;
    expect_timer(s, 1, "again 500");
    /* three releases: the first waiter gets it, and its statement runs on */
    expect(s, "SELECT pg_advisory_unlock(1), pg_advisory_unlock(1)", "t | t");
    expect_log(h, "");
    expect(s, "SELECT pg_advisory_unlock(1)", "t");
    /* the lock ends with the holder's unlock, and is the waiter's once its answer is recorded,
     * with what its statement went on to take */
    expect_log(h, "deleted advisory/1; answer 1: '' | t; written advisory/1; written advisory/7; ");
    expect_dump(s, "advisory lock (1) held by pid 6 (session 1, transaction 0)\n"
                   "advisory lock (7) held by pid 6 (session 1, transaction 0)\n"
                   "pid 7 waits for advisory lock (1)\n");
    /* a stale timer of an answered wait does nothing */
    expect_timer(s, 1, "again 0");
    /* the holder's session ends: the next waiter has the lock */
    K->disconnect(s, 1);
    expect_log(h, "deleted advisory/7; deleted advisory/1; answer 2: ''; written advisory/1; ");
    /* lock_timeout ends a wait with 55P03; inside a block, it aborts the transaction */
    expect(s, "SET lock_timeout = '200ms'", "SET");
    expect(s, "BEGIN", "BEGIN");
    expect(s, "SELECT pg_advisory_xact_lock(1)", "");
    expect_log(h, "park 3 (200 ms); ");
    h->now += 199;
    expect_timer(s, 3, "again 1");
    h->now += 1;
    expect_timer(s, 3, "ERROR 55P03: canceling statement due to lock timeout");
    expect(s, "SELECT 1", "ERROR 25P02: current transaction is aborted, commands ignored until end of transaction block");
    expect(s, "COMMIT", "ROLLBACK");
    /* statement_timeout: 57014 */
    expect(s, "SET lock_timeout = 0", "SET");
    expect(s, "SET statement_timeout TO '1s'", "SET");
    expect(s, "SELECT pg_advisory_lock(1)", "");
    h->now += 1000;
    expect_timer(s, 4, "ERROR 57014: canceling statement due to statement timeout");
    expect(s, "SET statement_timeout = DEFAULT", "SET");
    /* a waiter whose session ends is dropped, never answered */
    expect(s, "SELECT pg_advisory_lock(1)", "");
    K->disconnect(s, 0);
    expect_log(h, "park 4 (1000 ms); park 5 (1000 ms); drop 5; ");
    expect_dump(s, "advisory lock (1) held by pid 7 (session 1, transaction 0)\n");
    /* bad settings */
    expect(s, "SET lock_timeout = -1",
           "ERROR 22023: -1 ms is outside the valid range for parameter \"lock_timeout\" (0 .. 2147483647)");
    expect(s, "SET lock_timeout = 2147483648", "ERROR 22023: invalid value for parameter \"lock_timeout\": \"2147483648\"");
    expect(s, "SET lock_timeout = 'abc'", "ERROR 22023: invalid value for parameter \"lock_timeout\": \"abc\"");
    done(s, h);
}

static void test_pg_deadlock_found_by_the_later_check(void **state)
{
    (void)state;
    wait_host w = { .h = { .now = 0 } };
    fake_host *h = &w.h;
    kserver *s = make_waiting(&w, direct);
    expect(s, "SELECT pg_advisory_lock(10)", "''");
    expect_as(s, 1, "SELECT pg_advisory_lock(11)", "''");
    expect(s, "SELECT pg_advisory_lock(11)", "");
    h->now += 300;
    expect_as(s, 1, "SELECT pg_advisory_lock(10)", "");
    expect_log(h, "written advisory/10; written advisory/11; park 1 (1000 ms); park 2 (1000 ms); ");
    /* 0's check, 1 s into its wait, finds the cycle: 0 is the victim; its session lock stays */
    h->now += 700;
    expect_timer(s, 1, "ERROR 40P01: deadlock detected");
    expect_dump(s, "advisory lock (10) held by pid 5 (session 1, transaction 0)\n"
                   "advisory lock (11) held by pid 6 (session 1, transaction 0)\n"
                   "pid 6 waits for advisory lock (10)\n");
    h->now += 300;
    expect_timer(s, 2, "again 0");
    expect(s, "SELECT pg_advisory_unlock(10)", "t");
    expect_log(h, "deleted advisory/10; answer 2: ''; written advisory/10; ");
    done(s, h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pg_session_locks_count_and_belong_to_the_session),
        cmocka_unit_test(test_pg_transaction_locks_and_blocks),
        cmocka_unit_test(test_pg_replies_reach_lua),
        cmocka_unit_test(test_pg_nothing_replicated_or_persisted),
        cmocka_unit_test(test_pg_pgbouncer_transaction_pooling),
        cmocka_unit_test(test_pg_lock_waits_in_the_server),
        cmocka_unit_test(test_pg_deadlock_found_by_the_later_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
