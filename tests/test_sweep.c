/* test_sweep.c — locklab sweep's parts: the Wilson score interval against published values,
 * parameter names resolved against a scenario (and refused when the scenario lacks them),
 * FROM:TO:STEP ranges and their error paths, values set on a loaded scenario (the node count
 * rebuilt, invariants re-checked), and the table and CSV of a made-up result.
 *
 * Run from the repository root: the data directory (LOCKLAB_HOME) is set to it, so the real
 * distlock model loads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scenario.h"
#include "scenario_fixture.h"
#include "scenario_vary.h"
#include "sweep_plot.h"
#include "world.h"

static const char *gc_text =
    "return { name = 'gc', about = 'a test', protocol = 'distlock', nodes = 1,\n"
    "  lease = '10s', wait = '30s', network = { delay = {'1ms', '5ms'} },\n"
    "  clients = { { name = 'A', work = '1s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
    "  faults = { { at = '20ms', gc_pause = 'A', duration = '12s' },\n"
    "             { at = '30s', clock_jump = 'n1', by = '-2s' } },\n"
    "  duration = '60s' }\n";

static const char *redlock_text =
    "return { name = 'rl', about = 'a test', protocol = 'distlock', mode = 'redlock', nodes = 3,\n"
    "  replicas = 1, per_node = { n2 = { persistence = 'always' } },\n"
    "  links = { { from = 'A', to = 'n1', delay = '7ms' }, { from = 'A', to = 'n2' } },\n"
    "  clients = { { name = 'A' } },\n"
    "  faults = { { at = '1s', crash = 'n3' } }, duration = '10s' }\n";

static const char *named_text =
    "return { name = 'named', about = 'a test', protocol = 'distlock', mode = 'redlock',\n"
    "  nodes = { 'A', 'B', 'C' }, lease = false, clients = { { name = 'c1' } }, duration = '10s' }\n";

/* A node with its own drift (per_node): one `drift` for every node would override it. */
static const char *pinned_drift_text =
    "return { name = 'pd', about = 'a test', protocol = 'distlock', mode = 'redlock', nodes = 3,\n"
    "  clock = { drift = 0.01 }, per_node = { n3 = { clock = { drift = 0.05 } } },\n"
    "  clients = { { name = 'A' } }, duration = '10s' }\n";

/* vary_resolve's error for name on text, or "" when it resolves. */
static void expect_resolve_error(const char *text, const char *name, const char *needle)
{
    scenario *sc = load_scenario_text(text);
    vary_target t;
    buf err;
    buf_init(&err);
    int rc = vary_resolve(sc, name, &t, &err);
    if (needle) {
        assert_int_equal(rc, -1);
        if (!strstr(err.p, needle)) fail_msg("'%s': '%s' does not say '%s'", name, err.p, needle);
        assert_null(strchr(err.p, '\n'));
    } else {
        if (rc) fail_msg("'%s': %s", name, err.p);
    }
    buf_release(&err);
    scenario_free(sc);
}

static void test_sweep_wilson_known_values(void **state)
{
    (void)state;
    /* Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 and 15/148; the rest
     * are the textbook rule-of-three neighbours (0/10: 0.2775; 5/10: 0.2366-0.7634). */
    static const struct { int k, n; double lo, hi; } cases[] = {
        { 81, 263, 0.2553, 0.3662 }, { 15, 148, 0.0624, 0.1605 }, { 0, 10, 0, 0.2775 },
        { 5, 10, 0.2366, 0.7634 },   { 10, 10, 0.7225, 1 },       { 0, 100, 0, 0.0370 },
        { 50, 100, 0.4038, 0.5962 }, { 100, 100, 0.9630, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double lo, hi;
        sweep_wilson(cases[i].k, cases[i].n, &lo, &hi);
        if (fabs(lo - cases[i].lo) > 0.00005 || fabs(hi - cases[i].hi) > 0.00005)
            fail_msg("%d/%d: [%.5f, %.5f], wanted [%.4f, %.4f]", cases[i].k, cases[i].n, lo, hi, cases[i].lo,
                     cases[i].hi);
    }
    double lo, hi;
    sweep_wilson(0, 0, &lo, &hi);
    assert_true(lo == 0 && hi == 1);
    sweep_wilson(0, 7, &lo, &hi);
    assert_true(lo == 0 && !signbit(lo)); /* exactly 0, never -0.000 */
    sweep_wilson(7, 7, &lo, &hi);
    assert_true(hi == 1);
}

static void test_sweep_resolve_names(void **state)
{
    (void)state;
    expect_resolve_error(gc_text, "gc_pause", NULL);
    expect_resolve_error(gc_text, "faults[1].duration", NULL);
    expect_resolve_error(gc_text, "clock_jump", NULL);
    expect_resolve_error(gc_text, "faults[2].by", NULL);
    expect_resolve_error(gc_text, "drift", NULL);
    expect_resolve_error(gc_text, "per_node.n1.drift", NULL);
    expect_resolve_error(pinned_drift_text, "drift", "different clock drifts (n1 0.01, n3 0.05)");
    expect_resolve_error(pinned_drift_text, "drift", "vary per_node.n3.drift instead");
    expect_resolve_error(pinned_drift_text, "per_node.n3.drift", NULL);
    expect_resolve_error(pinned_drift_text, "per_node.n1.drift", NULL);
    expect_resolve_error(gc_text, "network.delay", NULL);
    expect_resolve_error(gc_text, "lease", NULL);
    expect_resolve_error(gc_text, "timeout", NULL);
    expect_resolve_error(gc_text, "work", NULL);
    expect_resolve_error(redlock_text, "nodes", NULL);
    expect_resolve_error(redlock_text, "replication.lag", NULL);
    expect_resolve_error(redlock_text, "restart_delay", NULL);
    expect_resolve_error(redlock_text, "per_node.n3r1.restart_delay", NULL);
}

static void test_sweep_resolve_refuses_what_the_scenario_lacks(void **state)
{
    (void)state;
    expect_resolve_error(redlock_text, "gc_pause", "the scenario has no gc_pause fault");
    expect_resolve_error(redlock_text, "clock_jump", "no clock_jump fault");
    expect_resolve_error(gc_text, "faults[3].duration", "the scenario has 2 faults");
    expect_resolve_error(gc_text, "faults[2].duration", "fault 2 is a clock_jump, which has no duration");
    expect_resolve_error(gc_text, "faults[1].by", "fault 1 is not a clock_jump");
    expect_resolve_error(gc_text, "replication.lag", "no replicas");
    expect_resolve_error(gc_text, "restart_delay", "no node crashes");
    expect_resolve_error(gc_text, "nodes", "exactly one master");
    expect_resolve_error(gc_text, "per_node.n9.drift", "no node named 'n9'");
    expect_resolve_error(gc_text, "per_node.n1.persistence", "per_node.n1.drift or per_node.n1.restart_delay");
    expect_resolve_error(gc_text, "gcpause", "unknown parameter 'gcpause'");
    expect_resolve_error(named_text, "nodes", "names its masters");
    expect_resolve_error(named_text, "lease", "no lease");
}

/* The values of a range as text, or the error. */
static void range_text(const char *text, const char *name, const char *range, int max, buf *out)
{
    scenario *sc = load_scenario_text(text);
    vary_target t;
    buf err;
    buf_init(&err);
    assert_int_equal(vary_resolve(sc, name, &t, &err), 0);
    double *v = NULL;
    int n = 0;
    buf_reset(out);
    if (vary_parse_range(&t, range, max, &v, &n, &err) != 0) {
        buf_printf(out, "error: %s", err.p);
    } else {
        for (int i = 0; i < n; i++) {
            if (i) buf_putc(out, ' ');
            vary_format(&t, v[i], out);
        }
    }
    free(v);
    buf_release(&err);
    scenario_free(sc);
}

static void test_sweep_ranges(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    range_text(gc_text, "gc_pause", "5s:8s:1s", 100, &b);
    assert_string_equal(b.p, "5s 6s 7s 8s");
    range_text(gc_text, "gc_pause", "0:1s:250ms", 100, &b);
    assert_string_equal(b.p, "0 250ms 500ms 750ms 1s");
    range_text(gc_text, "gc_pause", "9.9s:10.1s:50ms", 100, &b);
    assert_string_equal(b.p, "9.9s 9.95s 10s 10.05s 10.1s");
    range_text(gc_text, "gc_pause", "1000:2500:500", 100, &b); /* bare numbers are ms */
    assert_string_equal(b.p, "1s 1.5s 2s 2.5s");
    range_text(gc_text, "gc_pause", "5s:5s:1s", 100, &b);
    assert_string_equal(b.p, "5s");
    range_text(gc_text, "drift", "0:0.005:0.001", 100, &b);
    assert_string_equal(b.p, "0 0.001 0.002 0.003 0.004 0.005");
    range_text(gc_text, "drift", "0.1:0.3:0.1", 100, &b); /* 0.1 + 2 * 0.1 is 0.30000000000000004 */
    assert_string_equal(b.p, "0.1 0.2 0.3");
    range_text(gc_text, "clock_jump", "-2s:2s:1s", 100, &b);
    assert_string_equal(b.p, "-2s -1s 0 1s 2s");
    range_text(redlock_text, "nodes", "3:9:2", 100, &b);
    assert_string_equal(b.p, "3 5 7 9");
    range_text(gc_text, "gc_pause", "500us:1500us:500us", 100, &b);
    assert_string_equal(b.p, "500us 1ms 1500us");
    buf_release(&b);
}

static void expect_range_error(const char *text, const char *name, const char *range, const char *needle)
{
    buf b;
    buf_init(&b);
    range_text(text, name, range, 10000, &b);
    if (strncmp(b.p, "error: ", 7) != 0 || !strstr(b.p, needle))
        fail_msg("%s=%s: '%s' does not say '%s'", name, range, b.p, needle);
    buf_release(&b);
}

static void test_sweep_range_errors(void **state)
{
    (void)state;
    expect_range_error(gc_text, "gc_pause", "15s:5s:1s", "FROM 15s is greater than TO 5s");
    expect_range_error(gc_text, "gc_pause", "5s:15s:0", "the step 0 is not positive");
    expect_range_error(gc_text, "gc_pause", "5s:15s:-1s", "the step -1s is not positive");
    expect_range_error(gc_text, "gc_pause", "0:100s:1ms", "100001 points, more than 10000");
    expect_range_error(gc_text, "gc_pause", "5s:15s", "is not FROM:TO:STEP");
    expect_range_error(gc_text, "gc_pause", "5s:15s:1s:2s", "is not FROM:TO:STEP");
    expect_range_error(gc_text, "gc_pause", "::", "is not FROM:TO:STEP");
    expect_range_error(gc_text, "gc_pause", "5 parsecs:15s:1s", "bad duration \"5 parsecs\"");
    expect_range_error(gc_text, "gc_pause", "-5s:15s:1s", "\"-5s\" is negative");
    expect_range_error(gc_text, "clock_jump", "1500us:2s:1s", "not a whole number of milliseconds");
    expect_range_error(gc_text, "drift", "0:x:0.1", "\"x\" is not a number");
    expect_range_error(gc_text, "drift", "0:0.02:-0.001", "is not positive");
    expect_range_error(redlock_text, "nodes", "3:9:1.5", "not a whole number");
    expect_range_error(redlock_text, "nodes", "0:9:1", "from 1 to 64");
}

static void apply_ok(scenario *sc, const scenario *base, const char *name, const char *value)
{
    vary_target t;
    buf err;
    buf_init(&err);
    double v;
    if (vary_resolve(base, name, &t, &err) || vary_parse_value(&t, value, &v, &err) ||
        vary_apply(sc, base, &t, v, &err))
        fail_msg("%s=%s: %s", name, value, err.p);
    buf_release(&err);
}

static void test_sweep_apply_sets_fields(void **state)
{
    (void)state;
    scenario *base = load_scenario_text(gc_text), *sc = load_scenario_text(gc_text);
    apply_ok(sc, base, "gc_pause", "7s");
    assert_int_equal(sc->faults[0].duration_us, 7000000);
    apply_ok(sc, base, "clock_jump", "-5s");
    assert_int_equal(sc->faults[1].jump_ms, -5000);
    apply_ok(sc, base, "drift", "0.02");
    assert_true(sc->nodes[0].clock.drift == 0.02);
    apply_ok(sc, base, "lease", "3s");
    assert_int_equal(sc->lease_us, 3000000);
    apply_ok(sc, base, "timeout", "250ms");
    assert_int_equal(sc->timeout_us, 250000);
    apply_ok(sc, base, "work", "2s");
    assert_int_equal(sc->clients[0].work_us, 2000000);
    assert_int_equal(sc->clients[1].work_us, 2000000);
    apply_ok(sc, base, "network.delay", "9ms");
    assert_true(sc->delay.kind == DIST_CONST && sc->delay.a_us == 9000);
    scenario_free(sc);
    scenario_free(base);

    base = load_scenario_text(redlock_text);
    sc = load_scenario_text(redlock_text);
    apply_ok(sc, base, "network.delay", "9ms");
    assert_int_equal(sc->links[0].delay.a_us, 7000); /* its own delay stays */
    assert_int_equal(sc->links[1].delay.a_us, 9000); /* the network's follows */
    apply_ok(sc, base, "restart_delay", "11s");
    for (int i = 0; i < sc->nnodes; i++) assert_int_equal(sc->nodes[i].restart_delay_us, 11000000);
    apply_ok(sc, base, "replication.lag", "40ms");
    assert_true(sc->repl_lag.kind == DIST_CONST && sc->repl_lag.a_us == 40000);
    apply_ok(sc, base, "per_node.n2.drift", "0.1");
    assert_true(sc->nodes[1].clock.drift == 0.1 && sc->nodes[0].clock.drift == 0);
    scenario_free(sc);
    scenario_free(base);
}

static void test_sweep_apply_node_count(void **state)
{
    (void)state;
    scenario *base = load_scenario_text(redlock_text), *sc = load_scenario_text(redlock_text);
    apply_ok(sc, base, "nodes", "5");
    assert_int_equal(sc->nmasters, 5);
    assert_int_equal(sc->nnodes, 10);
    assert_string_equal(sc->nodes[4].name, "n5");
    assert_string_equal(sc->nodes[9].name, "n5r1");
    assert_int_equal(sc->nodes[9].master, 4);
    assert_int_equal(sc->nodes[1].persist, PERSIST_ALWAYS); /* n2 keeps its own settings */
    assert_int_equal(sc->nodes[3].persist, PERSIST_NONE);   /* a new node takes n1's */
    assert_int_equal(scenario_node_index(sc, "n3r1"), 7);
    apply_ok(sc, base, "nodes", "3"); /* back to the file's shape */
    assert_int_equal(sc->nnodes, 6);
    assert_string_equal(sc->nodes[5].name, "n3r1");

    vary_target t;
    buf err;
    buf_init(&err);
    assert_int_equal(vary_resolve(base, "nodes", &t, &err), 0);
    assert_int_equal(vary_apply(sc, base, &t, 2, &err), -1); /* the crash names n3 */
    assert_non_null(strstr(err.p, "nodes=2: fault 1 (crash) names 'n3', which does not exist then"));
    scenario_free(sc);
    scenario_free(base);

    base = load_scenario_text(gc_text);
    sc = load_scenario_text(gc_text);
    assert_int_equal(vary_resolve(base, "drift", &t, &err), 0);
    assert_int_equal(vary_apply(sc, base, &t, 1.5, &err), -1);
    assert_non_null(strstr(err.p, "between -0.5 and 1"));
    assert_int_equal(vary_resolve(base, "lease", &t, &err), 0);
    assert_int_equal(vary_apply(sc, base, &t, 0, &err), -1);
    assert_non_null(strstr(err.p, "lease=0: the lease must be longer than 0"));
    buf_release(&err);
    scenario_free(sc);
    scenario_free(base);
}

/* The varied scenario runs as the value says: a 5 s pause inside a 10 s lease holds, a 12 s
 * one breaks mutual exclusion. */
static void test_sweep_applied_value_changes_the_run(void **state)
{
    (void)state;
    scenario *base = load_scenario_text(gc_text), *sc = load_scenario_text(gc_text);
    static const struct { const char *pause; verdict v; } cases[] = {
        { "5s", VERDICT_HOLDS }, { "12s", VERDICT_VIOLATED }, { "1s", VERDICT_HOLDS },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        apply_ok(sc, base, "gc_pause", cases[i].pause);
        buf err;
        buf_init(&err);
        world_opts o = { .seed = 3 };
        world *w = world_new(sc, &o, &err);
        assert_non_null(w);
        assert_int_equal(world_run(w, &err), 0);
        check_result cr;
        check_run(world_history(w), sc, &cr);
        if (cr.p[PROP_MUTUAL_EXCLUSION].v != cases[i].v) fail_msg("gc_pause=%s: unexpected verdict", cases[i].pause);
        check_free(&cr);
        world_free(w);
        buf_release(&err);
    }
    scenario_free(sc);
    scenario_free(base);
}

static void test_sweep_table_and_csv(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text(gc_text);
    sweep_result r = { .sc = sc, .scenario_arg = "gc", .runs = 10, .seed = 1, .npoints = 2 };
    buf err;
    buf_init(&err);
    assert_int_equal(vary_resolve(sc, "gc_pause", &r.target, &err), 0);
    sweep_point pts[2] = { { .value = 9e6, .runs = 10 }, { .value = 10.5e6, .runs = 10 } };
    for (int i = 0; i < 2; i++)
        for (int p = 0; p < PROP_COUNT; p++) pts[i].judged[p] = p < PROP_FAIRNESS ? 10 : 0;
    pts[1].violated[PROP_MUTUAL_EXCLUSION] = 5;
    r.points = pts;
    buf out;
    buf_init(&out);
    sweep_csv(&r, &out);
    assert_string_equal(out.p,
        "gc_pause_s,label,runs,errors,"
        "mutual_exclusion_violated,mutual_exclusion_judged,mutual_exclusion_rate,mutual_exclusion_lo,mutual_exclusion_hi,"
        "resource_safety_violated,resource_safety_judged,resource_safety_rate,resource_safety_lo,resource_safety_hi,"
        "release_safety_violated,release_safety_judged,release_safety_rate,release_safety_lo,release_safety_hi,"
        "no_deadlock_violated,no_deadlock_judged,no_deadlock_rate,no_deadlock_lo,no_deadlock_hi\n"
        "9,9s,10,0,0,10,0.000000,0.000000,0.277533,0,10,0.000000,0.000000,0.277533,0,10,0.000000,0.000000,0.277533,"
        "0,10,0.000000,0.000000,0.277533\n"
        "10.5,10.5s,10,0,5,10,0.500000,0.236593,0.763407,0,10,0.000000,0.000000,0.277533,0,10,0.000000,0.000000,"
        "0.277533,0,10,0.000000,0.000000,0.277533\n");
    buf_reset(&out);
    sweep_table(&r, &out);
    assert_non_null(strstr(out.p, "gc_pause   runs   mutual_exclusion\n"));
    assert_non_null(strstr(out.p, "   10.5s     10   5/10  0.500 [0.237, 0.763]\n"));
    assert_non_null(strstr(out.p, "never violated: resource_safety, release_safety, no_deadlock\n"));
    assert_non_null(strstr(out.p, "not judged in this scenario: fairness, reentrancy\n"));
    int show[PROP_COUNT];
    assert_int_equal(sweep_shown(&r, show), 1);
    buf_release(&out);
    buf_release(&err);
    scenario_free(sc);
}

int main(void)
{
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return 3;
    setenv("LOCKLAB_HOME", cwd, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_wilson_known_values),
        cmocka_unit_test(test_sweep_resolve_names),
        cmocka_unit_test(test_sweep_resolve_refuses_what_the_scenario_lacks),
        cmocka_unit_test(test_sweep_ranges),
        cmocka_unit_test(test_sweep_range_errors),
        cmocka_unit_test(test_sweep_apply_sets_fields),
        cmocka_unit_test(test_sweep_apply_node_count),
        cmocka_unit_test(test_sweep_applied_value_changes_the_run),
        cmocka_unit_test(test_sweep_table_and_csv),
    };
    return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
