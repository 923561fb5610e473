/* test_consul.c — the fake Consul through the server-kind vtable (sim/consul/consul_kind.c),
 * with a fake host: sessions (TTL bounds, renewal, invalidation at twice the TTL on the
 * leader's clock, destroy), KV acquire and release (holders, re-acquire, LockIndex,
 * ModifyIndex), the lock-delay after an invalidation and none after a release, behavior
 * delete, a replica (no timers, writes refused, timers restarted when promoted, its own lock-delay
 * set when it applies an invalidation), replies as a model receives them, the copies
 * persistence and replication are made of, and the node's serfHealth check (gossip declares a
 * node failed 4.5 s after a failed probe; a node that answers again refutes it). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "consul/consul_kind.h"

#include "kind_fixture.h"

static const kind_fixture KF = { .kind = &consul_kind, .sep = ' ', .nclients = 3, .primary = 1,
                                 .pushes = KF_PUSHES_NOTHING };

static void advance(kserver *s, fake_host *h, int64_t ms)
{
    h->now += ms;
    while (K->next_deadline(s) <= h->now) K->expire(s);
}

static void test_consul_sessions_locks_and_lock_delay(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    kserver *s = make(&h);
    expect(s, "SESSION_CREATE 5000 0 release", "400 Invalid Session TTL '5000ms', must be between [10s=24h0m0s]");
    expect(s, "SESSION_CREATE 10000 61000 release",
           "400 locklab: a lock-delay is between 0 and 60 seconds (61000ms)");
    expect(s, "SESSION_CREATE 10000 15000 release", "session-1");
    expect(s, "SESSION_CREATE 10000 15000 release", "session-2");
    expect_log(&h, "written session/session-1; written session/session-2; ");
    expect(s, "KV_ACQUIRE lock A session-1", "true");
    expect(s, "KV_ACQUIRE lock A2 session-1", "true"); /* the holder again: LockIndex stays */
    expect(s, "KV_ACQUIRE lock B session-2", "false");
    expect(s, "KV_RELEASE lock B session-2", "false");
    expect(s, "KV_ACQUIRE lock B nope", "500 invalid session \"nope\"");
    expect(s, "KV_GET lock", "lock=A2 session=session-1 lock_index=1 modify_index=5");
    expect(s, "KV_GET other", "404 (no such key)");
    /* renewed at 15 s, session-1 lives until 35 s; session-2 goes at 20 s */
    advance(s, &h, 15000);
    expect(s, "SESSION_RENEW session-1", "session-1 ttl=10000ms lock_delay=15000ms behavior=release");
    buf_reset(&h.log);
    advance(s, &h, 5000);
    expect_log(&h, "deleted session/session-2; ");
    expect(s, "SESSION_RENEW session-2", "404 Session id 'session-2' not found");
    advance(s, &h, 14999);
    expect_log(&h, "");
    advance(s, &h, 1);
    expect_log(&h, "written kv/lock; deleted session/session-1; ");
    expect(s, "KV_GET lock", "lock=A2 session=\"\" lock_index=1 modify_index=7");
    /* the lock-delay: 15 s after the invalidation */
    expect(s, "SESSION_CREATE 0 15000 release", "session-3");
    expect(s, "KV_ACQUIRE lock C session-3", "false");
    advance(s, &h, 14999);
    expect(s, "KV_ACQUIRE lock C session-3", "false");
    advance(s, &h, 1);
    expect(s, "KV_ACQUIRE lock C session-3", "true");
    expect(s, "KV_GET lock", "lock=C session=session-3 lock_index=2 modify_index=9");
    /* a release sets no lock-delay; a destroy of a holding session does */
    expect(s, "KV_RELEASE lock C session-3", "true");
    expect(s, "KV_ACQUIRE lock C session-3", "true");
    expect(s, "SESSION_DESTROY session-3", "true");
    expect(s, "SESSION_DESTROY session-3", "true");
    expect(s, "SESSION_CREATE 0 0 delete", "session-4");
    expect(s, "KV_ACQUIRE lock D session-4", "false");
    /* behavior delete */
    expect(s, "KV_ACQUIRE other D session-4", "true");
    buf_reset(&h.log);
    expect(s, "SESSION_DESTROY session-4", "true");
    expect_log(&h, "deleted kv/other; deleted session/session-4; ");
    expect(s, "KV_GET other", "404 (no such key)");
    expect(s, "bogus", "400 locklab: SESSION_CREATE TTL_MS LOCK_DELAY_MS release|delete, SESSION_RENEW ID, "
                       "SESSION_DESTROY ID, KV_GET KEY, KV_ACQUIRE KEY VALUE SESSION, KV_RELEASE KEY VALUE SESSION");
    done(s, &h);
}

static void show(lua_State *L, int idx, buf *out)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        buf_puts(out, luaL_tolstring(L, idx, NULL));
        lua_pop(L, 1);
        return;
    }
    const char *f[] = { "Key", "Value", "Session", "LockIndex", "ID", "TTL", "Behavior" };
    buf_putc(out, '{');
    for (int i = 0; i < 7; i++) {
        if (lua_getfield(L, idx, f[i]) != LUA_TNIL) {
            buf_printf(out, " %s=", f[i]);
            buf_puts(out, luaL_tolstring(L, -1, NULL));
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    buf_puts(out, " }");
}

static void test_consul_replies_reach_lua(void **state)
{
    (void)state;
    fake_host h = { .now = 0 };
    kserver *s = make(&h);
    lua_State *L = luaL_newstate();
    const char *req[] = { "SESSION_CREATE 10000 15000 release", "KV_GET k", "KV_ACQUIRE k v session-1", "KV_GET k",
                          "SESSION_RENEW session-1", "SESSION_RENEW x" };
    const char *want[] = { "session-1", "nil", "true", "{ Key=k Value=v Session=session-1 LockIndex=1 }",
                           "{ ID=session-1 TTL=10000 Behavior=release }", "nil Session id 'x' not found 404" };
    for (int i = 0; i < 6; i++) {
        int err;
        char *got = run_values(s, L, req[i], &err, show);
        assert_int_equal(err, i == 5);
        assert_string_equal(got, want[i]);
        free(got);
    }
    lua_close(L);
    done(s, &h);
}

static void test_consul_replicas_and_copies(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 0, 0);
    expect(p.m, "SESSION_CREATE 10000 15000 release", "session-1");
    expect(p.m, "KV_ACQUIRE lock A session-1", "true");
    replicate(p.m, p.r, "session/session-1", 0);
    replicate(p.m, p.r, "kv/lock", 0);
    /* a replica runs no timers and takes no writes */
    assert_true(K->next_deadline(p.r) == INT64_MAX);
    expect(p.r, "KV_ACQUIRE lock B session-1", "500 No cluster leader");
    expect(p.r, "KV_GET lock", "lock=A session=session-1 lock_index=1 modify_index=3");
    /* promoted at 30 s: the TTL starts again ("renewed ... on leader failover") */
    p.hr.now = 30000;
    K->set_replica(p.r, 0);
    assert_int_equal(K->next_deadline(p.r), 50000);
    kdata *snap = K->snapshot(p.r);
    expect(p.r, "SESSION_DESTROY session-1", "true");
    expect(p.r, "KV_GET lock", "lock=A session=\"\" lock_index=1 modify_index=4");
    K->load(p.r, snap);
    K->data_free(snap);
    expect_dump(p.r, "session session-1 ttl=10000ms lock_delay=15000ms behavior=release invalidated at 50000\n"
                     "kv lock=A session=session-1 lock_index=1 modify_index=3\n"
                     "lock-delay lock until 45000\n");
    K->copy_data(p.m, p.r);
    expect(p.m, "SESSION_CREATE 10000 0 release", "session-2");
    pair_close(&p);
}

/* Every server sets its own lock-delay when it applies an invalidation, by its own clock
 * (state/session.go, deleteSessionTxn), and a leader refuses an acquire inside its entry
 * (kvs_endpoint.go): a follower promoted inside a lock-delay still refuses the lock. A
 * holder's release sets none, on the leader or on a follower. */
static void test_consul_lock_delay_on_replicas(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 0, 0);
    expect(p.m, "SESSION_CREATE 10000 15000 release", "session-1");
    expect(p.m, "KV_ACQUIRE lock A session-1", "true");
    replicate(p.m, p.r, "session/session-1", 0);
    replicate(p.m, p.r, "kv/lock", 0);
    /* the leader invalidates session-1 at 10 s; the follower applies it at 10.5 s */
    p.hm.now = 10000;
    expect(p.m, "SESSION_DESTROY session-1", "true");
    p.hr.now = 10500;
    replicate(p.m, p.r, "kv/lock", 0);
    replicate(p.m, p.r, "session/session-1", 1);
    expect_dump(p.r, "kv lock=A session=\"\" lock_index=1 modify_index=4\n"
                     "lock-delay lock until 25500\n");
    /* promoted at 12 s: its own entry holds until 25.5 s */
    p.hr.now = 12000;
    K->set_replica(p.r, 0);
    expect(p.r, "SESSION_CREATE 10000 15000 release", "session-2");
    expect(p.r, "KV_ACQUIRE lock B session-2", "false");
    p.hr.now = 25499;
    expect(p.r, "KV_ACQUIRE lock B session-2", "false");
    p.hr.now = 25500;
    expect(p.r, "KV_ACQUIRE lock B session-2", "true");
    /* a later change of the key carries no lock-delay: the entry was the invalidation's */
    kserver *r2 = make(&p.hm);
    K->set_replica(r2, 1);
    replicate(p.r, r2, "session/session-2", 0);
    replicate(p.r, r2, "kv/lock", 0);
    expect_dump(r2, "session session-2 ttl=10000ms lock_delay=15000ms behavior=release\n"
                    "kv lock=B session=session-2 lock_index=2 modify_index=6\n");
    /* a holder's release sets no lock-delay on a follower either */
    expect(p.r, "KV_RELEASE lock B session-2", "true");
    replicate(p.r, r2, "kv/lock", 0);
    expect_dump(r2, "session session-2 ttl=10000ms lock_delay=15000ms behavior=release\n"
                    "kv lock=B session=\"\" lock_index=2 modify_index=7\n");
    done(r2, &p.hm);
    pair_close(&p);
}

/* A host whose clients' nodes a test takes down (kind_host.reachable: what gossip sees). */
typedef struct gossip_host {
    fake_host h;
    int down[4];
} gossip_host;

static int gh_reachable(void *ud, int client)
{
    return !((gossip_host *)ud)->down[client];
}

/* The clock moves in 100 ms steps, each running what falls due (the probes one by one). */
static void step_to(kserver *s, fake_host *h, int64_t until)
{
    while (h->now < until) {
        h->now += 100;
        while (K->next_deadline(s) <= h->now) K->expire(s);
    }
}

static int has(kserver *s, const char *text)
{
    char *d = dump(s);
    int found = strstr(d, text) != NULL;
    free(d);
    return found;
}

static void test_consul_serf_health_check(void **state)
{
    (void)state;
    gossip_host g = { .h = { .now = 0 } };
    kind_host host = { .ud = &g, .clock = fh_clock, .steady = fh_steady, .changed = fh_changed, .push = fh_push,
                       .reachable = gh_reachable, .nclients = KF.nclients, .client_base = KF.client_base };
    kserver *s = K->create(&host);
    K->set_replica(s, 0);
    /* api.Lock's session has its node's serfHealth check; CreateNoChecks' has none */
    expect_as(s, 0, "SESSION_CREATE 10000 15000 release serfHealth", "session-1");
    expect_as(s, 1, "SESSION_CREATE 10000 15000 release none", "session-2");
    expect_as(s, 2, "SESSION_CREATE 10000 15000 release serfHealth", "session-3");
    expect(s, "SESSION_CREATE 10000 15000 release maybe",
           "400 locklab: SESSION_CREATE TTL_MS LOCK_DELAY_MS release|delete [serfHealth|none]");
    expect_as(s, 0, "KV_ACQUIRE lock A session-1", "true");
    assert_true(has(s, "session session-1 ttl=10000ms lock_delay=15000ms behavior=release checks=serfHealth(client 0)"));
    assert_false(has(s, "session-2 ttl=10000ms lock_delay=15000ms behavior=release checks"));
    step_to(s, &g.h, 3000);
    /* clients 0 and 1 vanish, client 2's node misses one probe and comes back: the probe at
     * 3.1 s (one a second since the first look at 0.1 s) fails, and 4.5 s later (ProbeTimeout
     * + suspicion) node 0 is declared failed, its
     * session invalidated and its lock released; node 1's session has no check, node 2
     * refuted its suspicion */
    g.down[0] = g.down[1] = g.down[2] = 1;
    step_to(s, &g.h, 4000);
    g.down[2] = 0;
    step_to(s, &g.h, 7500);
    assert_true(has(s, "session session-1 "));
    step_to(s, &g.h, 7600);
    assert_false(has(s, "session session-1 "));
    assert_true(has(s, "session session-2 ") && has(s, "session session-3 "));
    assert_true(has(s, "kv lock=A session=\"\""));
    /* ... and the lock-delay follows, as after any invalidation */
    expect_as(s, 2, "KV_ACQUIRE lock C session-3", "false");
    done(s, &g.h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_consul_sessions_locks_and_lock_delay),
        cmocka_unit_test(test_consul_replies_reach_lua),
        cmocka_unit_test(test_consul_replicas_and_copies),
        cmocka_unit_test(test_consul_lock_delay_on_replicas),
        cmocka_unit_test(test_consul_serf_health_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
