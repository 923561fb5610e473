/* test_k8s.c — the fake Kubernetes API server through the server-kind vtable
 * (sim/k8s/k8s_kind.c), with a fake host: Lease get, create, update with optimistic
 * concurrency on resourceVersion (409 Conflict on a stale one), delete, the API server's
 * statuses, a read-only replica, no expiry whatever the clock does, replies as a model
 * receives them, and the copies persistence and replication are made of. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s_kind.h"

#include "kind_fixture.h"

static const kind_fixture KF = { .kind = &k8s_kind, .sep = ' ', .nclients = 3, .primary = 1,
                                 .pushes = KF_PUSHES_NOTHING };

#define CONFLICT "409 Conflict: Operation cannot be fulfilled on leases.coordination.k8s.io \"l\": the object has " \
                 "been modified; please apply your changes to the latest version and try again"

static void test_k8s_leases_and_optimistic_concurrency(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, "GET l", "404 NotFound: leases.coordination.k8s.io \"l\" not found");
    expect(s, "CREATE l A 15 100 100 0", "201 l rv=2 holder=A duration=15s acquire=100 renew=100 transitions=0");
    expect_log(&h, "written lease/l; ");
    expect(s, "CREATE l B 15 1 1 0", "409 AlreadyExists: leases.coordination.k8s.io \"l\" already exists");
    /* two writers read rv 2; the first update wins, the second is refused */
    expect_as(s, 0, "UPDATE l 2 A 15 100 2100 0", "200 l rv=3 holder=A duration=15s acquire=100 renew=2100 transitions=0");
    expect_as(s, 1, "UPDATE l 2 B 15 2200 2200 1", CONFLICT);
    expect_log(&h, "written lease/l; ");
    /* nothing expires, however far the clock moves */
    h.now += 3600 * 1000;
    assert_true(K->next_deadline(s) == INT64_MAX);
    expect_dump(s, "lease l rv=3 holder=A duration=15s acquire=100 renew=2100 transitions=0\n");
    /* a release as client-go's tryRelease writes it: no holder, 1 s */
    expect(s, "UPDATE l 3  1 5000 5000 0", "200 l rv=4 holder=\"\" duration=1s acquire=5000 renew=5000 transitions=0");
    expect_dump(s, "lease l rv=4 holder=\"\" duration=1s acquire=5000 renew=5000 transitions=0\n");
    done(s, &h);
}

static void test_k8s_bad_requests_replica_and_delete(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, "UPDATE l 1 A 15 1 1 0", "404 NotFound: leases.coordination.k8s.io \"l\" not found");
    expect(s, "CREATE l A x 1 1 0", "400 BadRequest: locklab: DURATION, ACQUIRE, RENEW and TRANSITIONS are integers");
    expect(s, "PATCH l", "400 BadRequest: locklab: GET NAME, CREATE NAME HOLDER DURATION ACQUIRE RENEW TRANSITIONS, "
                         "UPDATE NAME RV HOLDER DURATION ACQUIRE RENEW TRANSITIONS, DELETE NAME");
    expect(s, "CREATE l A 15 -1 -1 0", "201 l rv=2 holder=A duration=15s acquire=null renew=null transitions=0");
    expect(s, "UPDATE l x A 15 1 1 0", "400 BadRequest: locklab: RESOURCEVERSION is an integer");
    K->set_replica(s, 1);
    expect(s, "UPDATE l 2 A 15 1 1 0", "503 ServiceUnavailable: locklab: this API server's etcd member is not the leader");
    expect(s, "GET l", "200 l rv=2 holder=A duration=15s acquire=null renew=null transitions=0");
    K->set_replica(s, 0);
    expect(s, "DELETE l", "200 l rv=2 holder=A duration=15s acquire=null renew=null transitions=0");
    expect_log(&h, "written lease/l; deleted lease/l; ");
    expect(s, "DELETE l", "404 NotFound: leases.coordination.k8s.io \"l\" not found");
    /* resourceVersion goes on after a delete */
    expect(s, "CREATE l B 15 1 1 0", "201 l rv=4 holder=B duration=15s acquire=1 renew=1 transitions=0");
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
    const char *f[] = { "name", "resourceVersion", "holderIdentity", "leaseDurationSeconds", "acquireTime",
                        "renewTime", "leaseTransitions" };
    for (int i = 0; i < 7; i++) {
        lua_getfield(L, idx, f[i]);
        const char *type = luaL_typename(L, -1);
        buf_printf(out, "%s%s=%s:", i ? " " : "{", f[i], type);
        buf_puts(out, luaL_tolstring(L, -1, NULL));
        lua_pop(L, 2);
    }
    buf_putc(out, '}');
}

static void test_k8s_replies_reach_lua(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    lua_State *L = luaL_newstate();
    int err;
    char *got = run_values(s, L, "CREATE l A 15 100 -1 0", &err, show);
    assert_false(err);
    assert_string_equal(got, "{name=string:l resourceVersion=string:2 holderIdentity=string:A "
                             "leaseDurationSeconds=number:15 acquireTime=number:100 renewTime=nil:nil "
                             "leaseTransitions=number:0}");
    free(got);
    got = run_values(s, L, "UPDATE l 1 B 15 1 1 1", &err, show);
    assert_true(err);
    assert_string_equal(got, "nil Conflict Operation cannot be fulfilled on leases.coordination.k8s.io \"l\": the "
                             "object has been modified; please apply your changes to the latest version and try again");
    free(got);
    lua_close(L);
    done(s, &h);
}

static void test_k8s_copies_make_persistence_and_replication(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 1000, 1000);
    expect(p.m, "CREATE l A 15 1 1 0", "201 l rv=2 holder=A duration=15s acquire=1 renew=1 transitions=0");
    replicate(p.m, p.r, "lease/l", 0);
    expect(p.r, "GET l", "200 l rv=2 holder=A duration=15s acquire=1 renew=1 transitions=0");
    expect(p.m, "UPDATE l 2 A 15 1 2001 0", "200 l rv=3 holder=A duration=15s acquire=1 renew=2001 transitions=0");
    kdata *snap = K->snapshot(p.m);
    /* the replica, promoted, refuses the stale version and takes the one it has */
    K->set_replica(p.r, 0);
    expect(p.r, "UPDATE l 3 B 15 9 9 1", "409 Conflict: Operation cannot be fulfilled on leases.coordination.k8s.io "
                                         "\"l\": the object has been modified; please apply your changes to the "
                                         "latest version and try again");
    expect(p.r, "UPDATE l 2 B 15 9 9 1", "200 l rv=3 holder=B duration=15s acquire=9 renew=9 transitions=1");
    K->load(p.r, snap);
    K->data_free(snap);
    expect_dump(p.r, "lease l rv=3 holder=A duration=15s acquire=1 renew=2001 transitions=0\n");
    replicate(p.m, p.r, "lease/nope", 1);
    K->copy_data(p.m, p.r);
    expect_dump(p.m, "lease l rv=3 holder=A duration=15s acquire=1 renew=2001 transitions=0\n");
    pair_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_k8s_leases_and_optimistic_concurrency),
        cmocka_unit_test(test_k8s_bad_requests_replica_and_delete),
        cmocka_unit_test(test_k8s_replies_reach_lua),
        cmocka_unit_test(test_k8s_copies_make_persistence_and_replication),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
