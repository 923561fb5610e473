/* test_monitor.c — the judge, fed hand-built histories: one case per property (violated and
 * holding), and one per fault kind (only a crash ends a client's critical section; every
 * fault is named in the evidence as it happened). The histories carry the typed fields the
 * engine writes (fault kind and id, outcomes, lock_unit); their text is deliberately
 * misleading (an actor called "crasher", a "re-entry failed" reason without its outcome), since
 * a verdict comes from what happened, never from words. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "history.h"
#include "monitor.h"
#include "scenario.h"
#include "scenario_fixture.h"

#define MS 1000
#define EPOCH 1700000000000LL

static scenario *scenario_with(const char *extra)
{
    char text[2048];
    snprintf(text, sizeof text,
             "return { name = 'monitors', about = 'a test', protocol = 'distlock', lease = '10s',\n"
             "  clients = { { name = 'crasher' }, { name = 'B' }, { name = 'C' } }, duration = '60s',\n%s }\n",
             extra ? extra : "");
    return load_scenario_text(text);
}

typedef struct story {
    history *h;
    int n1, a, b, c; /* a is the client called "crasher" */
} story;

static story story_new(void)
{
    story s;
    s.h = history_new();
    s.n1 = history_add_actor(s.h, "n1", 1);
    s.a = history_add_actor(s.h, "crasher", 0);
    s.b = history_add_actor(s.h, "B", 0);
    s.c = history_add_actor(s.h, "C", 0);
    return s;
}

static hist_event *ev(story *s, int64_t ms, hist_kind k, int actor)
{
    return history_add(s->h, ms * MS, k, actor, EPOCH + ms);
}

static hist_event *evt(story *s, int64_t ms, hist_kind k, int actor, int peer, const char *text)
{
    hist_event *e = ev(s, ms, k, actor);
    e->peer = peer;
    if (text) e->text = xstrdup(text);
    return e;
}

static hist_event *fault(story *s, int64_t ms, int kind, int id, int actor, const char *text)
{
    hist_event *e = evt(s, ms, H_FAULT, actor, -1, text);
    e->fault = kind;
    e->fault_id = id;
    return e;
}

/* A client's command runs on n1 at `ms` and changes `key` (set, or deleted). */
static void exec_key(story *s, int64_t ms, int client, int64_t req, const char *cmd, hist_kind change, const char *key)
{
    evt(s, ms, H_EXEC, s->n1, client, cmd)->a = req;
    evt(s, ms, change, s->n1, -1, key);
}

static check_result judge(story *s, const scenario *sc)
{
    check_result r;
    check_run(s->h, sc, &r);
    return r;
}

static void done(story *s, scenario *sc, check_result *r)
{
    check_free(r);
    history_free(s->h);
    scenario_free(sc);
}

/* ---- mutual_exclusion ---- */

static void test_mutual_exclusion(void **state)
{
    (void)state;
    scenario *sc = scenario_with(NULL);
    story s = story_new();
    ev(&s, 0, H_CS_ENTER, s.a);
    ev(&s, 100, H_CS_ENTER, s.b);
    ev(&s, 200, H_CS_EXIT, s.b);
    ev(&s, 300, H_CS_EXIT, s.a);
    check_result r = judge(&s, sc);
    assert_int_equal(r.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
    assert_int_equal(r.p[PROP_MUTUAL_EXCLUSION].at_us, 100 * MS);
    assert_non_null(strstr(r.p[PROP_MUTUAL_EXCLUSION].evidence, "crasher and B were both inside the critical section "
                                                                 "from 0.100s to 0.200s"));
    done(&s, sc, &r);

    sc = scenario_with(NULL);
    s = story_new();
    ev(&s, 0, H_CS_ENTER, s.a);
    ev(&s, 100, H_CS_EXIT, s.a);
    ev(&s, 100, H_CS_ENTER, s.b);
    ev(&s, 200, H_CS_EXIT, s.b);
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_HOLDS);
    done(&s, sc, &r);
}

/* Each fault kind on the holder "crasher" while it is inside: only a crash ends its critical
 * section (B entering later is then no overlap); the others leave it inside, and the
 * evidence names the fault by its text at its time. */
static void test_mutual_exclusion_each_fault_kind(void **state)
{
    (void)state;
    static const char *const texts[FAULT_KIND_COUNT] = {
        [FAULT_GC_PAUSE] = "GC pause of crasher for 12000 ms",
        [FAULT_CRASH] = "crash of crasher",
        [FAULT_RESTART] = "restart of crasher (words: crash)",
        [FAULT_CLOCK_JUMP] = "clock of crasher jumps by +5000 ms",
        [FAULT_DRIFT] = "clock of crasher drifts at +1%",
        [FAULT_PARTITION] = "partition crasher | n1,B (no crash here)",
        [FAULT_FAILOVER] = "failover of crasher",
        [FAULT_DROP] = "every link of crasher drops 100% of messages",
        [FAULT_DISK_STALL] = "disk of crasher stalls for 3000 ms",
    };
    for (int k = 0; k < FAULT_KIND_COUNT; k++) {
        scenario *sc = scenario_with(NULL);
        story s = story_new();
        ev(&s, 0, H_CS_ENTER, s.a);
        fault(&s, 50, k, 0, s.a, texts[k]);
        ev(&s, 100, H_CS_ENTER, s.b);
        ev(&s, 200, H_CS_EXIT, s.b);
        check_result r = judge(&s, sc);
        if (k == FAULT_CRASH) {
            assert_int_equal(r.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_HOLDS);
        } else {
            assert_int_equal(r.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
            char want[160];
            snprintf(want, sizeof want, "Faults before then: %s at 0.050s.", texts[k]);
            assert_non_null(strstr(r.p[PROP_MUTUAL_EXCLUSION].evidence, want));
        }
        done(&s, sc, &r);
    }
}

/* The evidence's local times come from the history: each actor's clock at the start, and
 * the clock faults it records (typed: a jump's ms, a drift's rate), those an explorer
 * injected as much as the scenario's. */
static void test_evidence_clocks_from_the_history(void **state)
{
    (void)state;
    scenario *sc = scenario_with(NULL);
    story s = story_new();
    history_set_actor_clock(s.h, s.a, 2000, 0);
    ev(&s, 0, H_CS_ENTER, s.a);
    fault(&s, 50, FAULT_CLOCK_JUMP, 3, s.b, "a jump")->param_ms = 5000;
    fault(&s, 50, FAULT_DRIFT, 4, s.b, "a drift")->rate = 1.0; /* twice as fast from 0.050s */
    ev(&s, 100, H_CS_ENTER, s.b);
    ev(&s, 200, H_CS_EXIT, s.b);
    check_result r = judge(&s, sc);
    assert_int_equal(r.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_MUTUAL_EXCLUSION].evidence,
                           "by their own clocks, crasher's from 2.100s to 2.200s and B's from 5.150s to 5.350s."));
    assert_int_equal(history_local_at(s.h, s.b, 50 * MS), EPOCH + 5050);
    assert_int_equal(history_local_at(s.h, s.b, 49 * MS), EPOCH + 49);
    done(&s, sc, &r);
}

/* ---- resource_safety ---- */

static void test_resource_safety(void **state)
{
    (void)state;
    /* a lower token accepted after a higher one */
    scenario *sc = scenario_with(NULL);
    story s = story_new();
    hist_event *w = ev(&s, 0, H_WRITE, s.b);
    w->a = 34, w->b = 1;
    w = ev(&s, 10, H_WRITE, s.a);
    w->a = 33, w->b = 1;
    check_result r = judge(&s, sc);
    assert_int_equal(r.p[PROP_RESOURCE_SAFETY].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_RESOURCE_SAFETY].evidence, "accepted crasher's write with token 33"));
    done(&s, sc, &r);

    /* no tokens: a write of the one that acquired first, after the other acquired */
    sc = scenario_with(NULL);
    s = story_new();
    ev(&s, 0, H_ACQUIRED, s.a);
    ev(&s, 100, H_ACQUIRED, s.b);
    ev(&s, 200, H_WRITE, s.a)->b = 1;
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_RESOURCE_SAFETY].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_RESOURCE_SAFETY].evidence, "crasher was no longer the rightful holder"));
    done(&s, sc, &r);

    /* the same write refused (fencing): nothing accepted, it holds */
    sc = scenario_with(NULL);
    s = story_new();
    ev(&s, 0, H_ACQUIRED, s.a);
    ev(&s, 100, H_ACQUIRED, s.b);
    ev(&s, 200, H_WRITE, s.a)->b = 0;
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_RESOURCE_SAFETY].v, VERDICT_HOLDS);
    done(&s, sc, &r);
}

/* ---- release_safety ---- */

static void test_release_safety(void **state)
{
    (void)state;
    /* crasher's release deletes the key B set */
    scenario *sc = scenario_with(NULL);
    story s = story_new();
    exec_key(&s, 0, s.b, 1, "SET lock B NX", H_KEY_SET, "lock");
    ev(&s, 10, H_RELEASE, s.a);
    evt(&s, 10, H_REQUEST, s.a, s.n1, "DEL lock")->a = 7;
    exec_key(&s, 11, s.a, 7, "DEL lock", H_KEY_DELETED, "lock");
    check_result r = judge(&s, sc);
    assert_int_equal(r.p[PROP_RELEASE_SAFETY].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_RELEASE_SAFETY].evidence, "crasher's release deleted the lock key on n1 at 0.011s, "
                                                              "but the key belonged to B then"));
    done(&s, sc, &r);

    /* its own key: it holds */
    sc = scenario_with(NULL);
    s = story_new();
    exec_key(&s, 0, s.a, 1, "SET lock A NX", H_KEY_SET, "lock");
    ev(&s, 10, H_RELEASE, s.a);
    evt(&s, 10, H_REQUEST, s.a, s.n1, "DEL lock")->a = 2;
    exec_key(&s, 11, s.a, 2, "DEL lock", H_KEY_DELETED, "lock");
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_RELEASE_SAFETY].v, VERDICT_HOLDS);
    done(&s, sc, &r);

    /* a lock unit declared by prefix (an etcd-like recipe): each holder has its key under
     * lock/, and a release that deletes the other's key is caught; keys outside the unit are
     * not the lock */
    sc = scenario_with(NULL);
    s = story_new();
    hist_event *u = evt(&s, 0, H_LOCK_UNIT, s.a, -1, "lock/");
    u->code = HU_PREFIX;
    exec_key(&s, 1, s.b, 1, "PUT lock/b2", H_KEY_SET, "lock/b2");
    exec_key(&s, 2, s.b, 2, "PUT other", H_KEY_SET, "other");
    ev(&s, 10, H_RELEASE, s.a);
    evt(&s, 10, H_REQUEST, s.a, s.n1, "DEL other")->a = 3;
    exec_key(&s, 11, s.a, 3, "DEL other", H_KEY_DELETED, "other");
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_RELEASE_SAFETY].v, VERDICT_HOLDS);
    check_free(&r);
    evt(&s, 12, H_REQUEST, s.a, s.n1, "DEL lock/b2")->a = 4;
    exec_key(&s, 13, s.a, 4, "DEL lock/b2", H_KEY_DELETED, "lock/b2");
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_RELEASE_SAFETY].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_RELEASE_SAFETY].evidence, "crasher's release deleted the lock key lock/b2 on n1"));
    done(&s, sc, &r);
}

/* ---- no_deadlock ---- */

static void test_no_deadlock(void **state)
{
    (void)state;
    /* B waits for 25 s with nobody holding: beyond twice the 10 s lease */
    scenario *sc = scenario_with(NULL);
    story s = story_new();
    ev(&s, 0, H_ACQUIRE, s.b);
    ev(&s, 25000, H_ACQUIRE_FAILED, s.b)->code = HO_GAVE_UP;
    check_result r = judge(&s, sc);
    assert_int_equal(r.p[PROP_NO_DEADLOCK].v, VERDICT_VIOLATED);
    assert_int_equal(r.p[PROP_NO_DEADLOCK].at_us, 20000 * MS);
    done(&s, sc, &r);

    /* the holder crashes (a fault of kind crash, whatever its text says): from then nobody
     * live holds it, and B's wait past the bound is a deadlock; while crasher held it, it
     * was not */
    sc = scenario_with(NULL);
    s = story_new();
    ev(&s, 0, H_ACQUIRED, s.a);
    ev(&s, 100, H_ACQUIRE, s.b);
    fault(&s, 15000, FAULT_CRASH, 0, s.a, "an accident");
    ev(&s, 36000, H_ACQUIRE_FAILED, s.b)->code = HO_GAVE_UP;
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_NO_DEADLOCK].v, VERDICT_VIOLATED);
    assert_int_equal(r.p[PROP_NO_DEADLOCK].at_us, 35000 * MS);
    check_free(&r);
    history_free(s.h);
    s = story_new(); /* the same with a pause: crasher still holds it, no deadlock */
    ev(&s, 0, H_ACQUIRED, s.a);
    ev(&s, 100, H_ACQUIRE, s.b);
    fault(&s, 15000, FAULT_GC_PAUSE, 0, s.a, "GC pause of crasher: a crash of sorts");
    ev(&s, 36000, H_ACQUIRE_FAILED, s.b)->code = HO_GAVE_UP;
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_NO_DEADLOCK].v, VERDICT_HOLDS);
    done(&s, sc, &r);
}

/* ---- fairness ---- */

static void test_fairness(void **state)
{
    (void)state;
    scenario *sc = scenario_with("  expect = { fairness = 'holds' },\n");
    story s = story_new();
    ev(&s, 0, H_ACQUIRE, s.b);
    evt(&s, 1, H_EXEC, s.n1, s.b, "queue B")->a = 1;
    ev(&s, 5, H_ACQUIRE, s.c);
    evt(&s, 6, H_EXEC, s.n1, s.c, "queue C")->a = 1;
    ev(&s, 10, H_ACQUIRED, s.c);
    check_result r = judge(&s, sc);
    assert_int_equal(r.p[PROP_FAIRNESS].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_FAIRNESS].evidence, "C acquired the lock at 0.010s although B had been in line longer"));
    done(&s, sc, &r);

    /* not expected: not judged */
    sc = scenario_with(NULL);
    s = story_new();
    ev(&s, 0, H_ACQUIRED, s.a);
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_FAIRNESS].v, VERDICT_NOT_JUDGED);
    done(&s, sc, &r);
}

/* ---- reentrancy ---- */

static void test_reentrancy(void **state)
{
    (void)state;
    /* the outcome says a re-entry failed */
    scenario *sc = scenario_with("  expect = { reentrancy = 'holds' },\n");
    story s = story_new();
    ev(&s, 0, H_ACQUIRE, s.a);
    evt(&s, 1000, H_ACQUIRE_FAILED, s.a, -1, "lock busy")->code = HO_REENTRY_FAILED;
    check_result r = judge(&s, sc);
    assert_int_equal(r.p[PROP_REENTRANCY].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_REENTRANCY].evidence, "its re-entrant acquire at 1.000s failed: lock busy."));
    check_free(&r);
    history_free(s.h);
    s = story_new(); /* the words alone are not an outcome */
    ev(&s, 0, H_ACQUIRE, s.a);
    evt(&s, 1000, H_ACQUIRE_FAILED, s.a, -1, "re-entry failed: lock busy")->code = HO_GAVE_UP;
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_REENTRANCY].v, VERDICT_HOLDS);
    check_free(&r);
    history_free(s.h);

    /* taken twice, and the inner release deletes the lock (a document of a declared unit) */
    s = story_new();
    hist_event *u = evt(&s, 0, H_LOCK_UNIT, s.a, -1, "locks/");
    u->code = HU_PREFIX;
    ev(&s, 0, H_ACQUIRE, s.a);
    exec_key(&s, 1, s.a, 1, "insert", H_KEY_SET, "locks/1");
    ev(&s, 2, H_LOCK_UNIT, s.a)->code = HU_REENTERED;
    exec_key(&s, 3, s.a, 2, "delete", H_KEY_DELETED, "locks/1");
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_REENTRANCY].v, VERDICT_VIOLATED);
    assert_non_null(strstr(r.p[PROP_REENTRANCY].evidence, "crasher held the lock twice (it took it again while holding it), "
                                                          "but its own command deleted locks/1 on n1 at 0.003s"));
    check_free(&r);
    history_free(s.h);

    /* a counting lock: the inner release only changes it, the last one deletes it */
    s = story_new();
    ev(&s, 0, H_ACQUIRE, s.a);
    exec_key(&s, 1, s.a, 1, "lock", H_KEY_SET, "lock");
    ev(&s, 2, H_LOCK_UNIT, s.a)->code = HU_REENTERED;
    exec_key(&s, 3, s.a, 2, "lock", H_KEY_SET, "lock");
    ev(&s, 4, H_ACQUIRED, s.a);
    ev(&s, 10, H_RELEASE, s.a);
    exec_key(&s, 11, s.a, 3, "unlock", H_KEY_SET, "lock");
    ev(&s, 12, H_LOCK_UNIT, s.a)->code = HU_INNER_RELEASED;
    exec_key(&s, 13, s.a, 4, "unlock", H_KEY_DELETED, "lock");
    ev(&s, 14, H_RELEASED, s.a)->code = HO_RELEASED;
    r = judge(&s, sc);
    assert_int_equal(r.p[PROP_REENTRANCY].v, VERDICT_HOLDS);
    done(&s, sc, &r);
}

/* The monitors as a search feeds them: violated as soon as it is seen. */
static void test_monitor_knows_early(void **state)
{
    (void)state;
    scenario *sc = scenario_with(NULL);
    story s = story_new();
    ev(&s, 0, H_CS_ENTER, s.a);
    ev(&s, 100, H_CS_ENTER, s.b);
    ev(&s, 150, H_LOG, s.b);
    monitor *m = monitor_new(s.h, sc);
    monitor_step(m, 0);
    monitor_step(m, 1);
    assert_false(monitor_violated(m, PROP_MUTUAL_EXCLUSION)); /* entered at the same instant as now */
    monitor_step(m, 2);
    assert_true(monitor_violated(m, PROP_MUTUAL_EXCLUSION));
    check_result r;
    monitor_finish(m, &r);
    monitor_free(m);
    assert_int_equal(r.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
    done(&s, sc, &r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutual_exclusion),
        cmocka_unit_test(test_mutual_exclusion_each_fault_kind),
        cmocka_unit_test(test_evidence_clocks_from_the_history),
        cmocka_unit_test(test_resource_safety),
        cmocka_unit_test(test_release_safety),
        cmocka_unit_test(test_no_deadlock),
        cmocka_unit_test(test_fairness),
        cmocka_unit_test(test_reentrancy),
        cmocka_unit_test(test_monitor_knows_early),
    };
    return cmocka_run_group_tests_name("monitor", tests, NULL, NULL);
}
