/* test_scenario.c — the scenario loader: every field parsed to the right value (units,
 * defaults, replica names, per-node overrides), every error with its exact one-line
 * message and line, the sandbox's limits, and a small mutation fuzz that must neither crash
 * nor leak.
 *
 * The group setup moves into a fresh temporary directory holding lua/clients/{redisson,
 * distlock,redlock}.lua and makes it the data directory (LOCKLAB_HOME), so that the
 * protocol check sees a known set of client models whatever the repository holds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario.h"

typedef struct fixture {
    char old_cwd[4096];
    char dir[64];
    char *full_text; /* tests/scenarios/valid-full.lua */
} fixture;

static const char *const client_models[] = { "redisson", "distlock", "redlock" };

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    buf b;
    buf_init(&b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_append(&b, chunk, n);
    fclose(f);
    return buf_steal(&b);
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

static int group_setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx || !getcwd(fx->old_cwd, sizeof fx->old_cwd)) return -1;
    fx->full_text = read_text("tests/scenarios/valid-full.lua");
    snprintf(fx->dir, sizeof fx->dir, "/tmp/locklab-scenario-XXXXXX");
    if (!fx->full_text || !mkdtemp(fx->dir) || chdir(fx->dir) != 0) return -1;
    /* the loader checks protocols against ll_data_dir(), which reads this once */
    if (setenv("LOCKLAB_HOME", fx->dir, 1) != 0) return -1;
    if (mkdir("lua", 0700) != 0 || mkdir("lua/clients", 0700) != 0) return -1;
    for (size_t i = 0; i < sizeof client_models / sizeof *client_models; i++) {
        char path[128];
        snprintf(path, sizeof path, "lua/clients/%s.lua", client_models[i]);
        if (write_text(path, "return {}\n") != 0) return -1;
    }
    *state = fx;
    return 0;
}

static int group_teardown(void **state)
{
    fixture *fx = *state;
    for (size_t i = 0; i < sizeof client_models / sizeof *client_models; i++) {
        char path[128];
        snprintf(path, sizeof path, "lua/clients/%s.lua", client_models[i]);
        unlink(path);
    }
    unlink("t.lua");
    rmdir("lua/clients");
    rmdir("lua");
    int rc = chdir(fx->old_cwd);
    rmdir(fx->dir);
    free(fx->full_text);
    free(fx);
    return rc;
}

/* ---- helpers ----------------------------------------------------------------------- */

/* Line 1 "return {", line 2 the required fields, line 3 two clients; `fields` from line 4. */
#define HEAD "return {\n" \
             "  name = \"t\", about = \"a\", protocol = \"redisson\", duration = \"60s\",\n" \
             "  clients = { { name = \"A\" }, { name = \"B\" } },\n"
/* The same without clients: `fields` from line 3. */
#define HEAD_NO_CLIENTS "return {\n" \
                        "  name = \"t\", about = \"a\", protocol = \"redisson\", duration = \"60s\",\n"

static scenario *load_ok(const char *text)
{
    buf err;
    buf_init(&err);
    scenario *s = scenario_load_string("t.lua", text, &err);
    if (!s) fail_msg("unexpected error: %s", err.p);
    buf_release(&err);
    return s;
}

static void expect_error(const char *text, const char *message)
{
    buf err;
    buf_init(&err);
    scenario *s = scenario_load_string("t.lua", text, &err);
    if (s) {
        scenario_free(s);
        fail_msg("loaded, but expected: %s", message);
    }
    assert_non_null(err.p);
    assert_string_equal(err.p, message);
    buf_release(&err);
}

/* HEAD + fields + "}" */
static void expect_error_in(const char *fields, const char *message)
{
    buf text;
    buf_init(&text);
    buf_printf(&text, "%s%s\n}\n", HEAD, fields);
    expect_error(text.p, message);
    buf_release(&text);
}

static scenario *load_with(const char *fields)
{
    buf text;
    buf_init(&text);
    buf_printf(&text, "%s%s\n}\n", HEAD, fields);
    scenario *s = load_ok(text.p);
    buf_release(&text);
    return s;
}

/* ---- values ------------------------------------------------------------------------ */

static void test_duration_units(void **state)
{
    (void)state;
    assert_int_equal(scenario_parse_duration("500us"), 500);
    assert_int_equal(scenario_parse_duration("250ms"), 250000);
    assert_int_equal(scenario_parse_duration("10s"), 10000000);
    assert_int_equal(scenario_parse_duration("1.5s"), 1500000);
    assert_int_equal(scenario_parse_duration("2m"), 120000000);
    assert_int_equal(scenario_parse_duration("1h"), 3600000000LL);
    assert_int_equal(scenario_parse_duration("250"), 250000);         /* a bare number is ms */
    assert_int_equal(scenario_parse_duration("0.0015"), 2);           /* rounded to µs */
    assert_int_equal(scenario_parse_duration(".5s"), 500000);
    assert_int_equal(scenario_parse_duration("0"), 0);
    assert_int_equal(scenario_parse_duration("10 parsecs"), -1);
    assert_int_equal(scenario_parse_duration("-5s"), -1);
    assert_int_equal(scenario_parse_duration(""), -1);
    assert_int_equal(scenario_parse_duration("s"), -1);
    assert_int_equal(scenario_parse_duration("1e3"), -1);
    assert_int_equal(scenario_parse_duration("99999999999h"), -1);
    assert_int_equal(scenario_parse_duration(NULL), -1);
}

static void test_duration_signed(void **state)
{
    (void)state;
    int64_t us = 0;
    assert_int_equal(scenario_parse_signed_duration("-20s", &us), 0);
    assert_int_equal(us, -20000000);
    assert_int_equal(scenario_parse_signed_duration("3ms", &us), 0);
    assert_int_equal(us, 3000);
    assert_int_equal(scenario_parse_signed_duration("--1s", &us), -1);
    assert_int_equal(scenario_parse_signed_duration("-", &us), -1);
    /* too large is told apart from malformed, so that a message can say which */
    assert_int_equal(scenario_parse_signed_duration("1000000h", &us), -2);
    assert_int_equal(scenario_parse_signed_duration("-1000000h", &us), -2);
}

static void test_scenario_defaults(void **state)
{
    (void)state;
    scenario *s = load_ok(HEAD "}");
    assert_string_equal(s->path, "t.lua");
    assert_string_equal(s->name, "t");
    assert_string_equal(s->about, "a");
    assert_string_equal(s->protocol, "redisson");
    assert_string_equal(s->mode, "single");
    assert_null(s->scripts);
    assert_string_equal(s->lock, "lock");
    assert_int_equal(s->fencing, 0);
    assert_int_equal(s->nmasters, 1);
    assert_int_equal(s->nnodes, 1);
    assert_string_equal(s->nodes[0].name, "n1");
    assert_int_equal(s->nodes[0].master, -1);
    assert_int_equal(s->nodes[0].persist, PERSIST_NONE);
    assert_int_equal(s->nodes[0].restart_delay_us, -1);
    assert_int_equal(s->nodes[0].clock.offset_ms, 0);
    assert_true(s->nodes[0].clock.drift == 0);
    assert_int_equal(s->lease_us, 10000000);
    assert_int_equal(s->wait_us, 30000000);
    assert_int_equal(s->timeout_us, 3000000);
    assert_int_equal(s->delay.kind, DIST_UNIFORM);
    assert_int_equal(s->delay.a_us, 1000);
    assert_int_equal(s->delay.b_us, 5000);
    assert_true(s->loss == 0);
    assert_int_equal(s->nlinks, 0);
    assert_int_equal(s->repl_lag.kind, DIST_UNIFORM); /* the network's delay */
    assert_int_equal(s->repl_lag.b_us, 5000);
    assert_int_equal(s->down_after_us, 5000000);
    assert_int_equal(s->detection_us, 1000000);
    assert_int_equal(s->nclients, 2);
    const client_cfg *c = &s->clients[1];
    assert_string_equal(c->name, "B");
    assert_int_equal(c->start_us, 0);
    assert_int_equal(c->work_us, 1000000);
    assert_int_equal(c->rounds, 1);
    assert_int_equal(c->wait_us, -1);
    assert_int_equal(c->lease_us, -1);
    assert_int_equal(c->think_us, 0);
    assert_int_equal(c->line, 3);
    assert_int_equal(s->nfaults, 0);
    assert_int_equal(s->duration_us, 60000000);
    assert_int_equal(s->seed, 1);
    assert_int_equal(s->nexpects, 0);
    assert_int_equal(s->noptions, 0);
    assert_int_equal(s->explore.present, 0);
    scenario_free(s);
}

static void test_scenario_full_file(void **state)
{
    fixture *fx = *state;
    scenario *s = load_ok(fx->full_text);
    assert_string_equal(s->name, "every field");
    assert_non_null(strstr(s->about, "[[nested]]"));
    assert_string_equal(s->protocol, "redlock");
    assert_string_equal(s->mode, "redlock");
    assert_string_equal(s->scripts, "redisson@3.11.1");
    assert_string_equal(s->lock, "orders");
    assert_int_equal(s->fencing, 1);
    assert_int_equal(s->seed, 42);
    assert_int_equal(s->duration_us, 60000000);
    assert_int_equal(s->lease_us, 8000000);
    assert_int_equal(s->wait_us, 5000000);
    assert_int_equal(s->timeout_us, 250000);

    /* nodes: masters first, then replicas "<master>r<k>" */
    static const char *const names[] = { "A", "B", "C", "Ar1", "Br1", "Cr1" };
    assert_int_equal(s->nmasters, 3);
    assert_int_equal(s->nnodes, 6);
    for (int i = 0; i < 6; i++) {
        assert_string_equal(s->nodes[i].name, names[i]);
        assert_int_equal(s->nodes[i].master, i < 3 ? -1 : i - 3);
    }
    assert_int_equal(s->nodes[0].line, 12);
    assert_int_equal(s->nodes[3].line, 13);
    /* all-node settings, and per_node overrides field by field */
    assert_int_equal(s->nodes[0].persist, PERSIST_EVERYSEC);
    assert_int_equal(s->nodes[0].restart_delay_us, 500000);
    assert_int_equal(s->nodes[1].persist, PERSIST_ALWAYS);
    assert_int_equal(s->nodes[1].restart_delay_us, -1);
    assert_int_equal(s->nodes[2].restart_delay_us, 2000000);
    assert_int_equal(s->nodes[2].clock.offset_ms, -1000);
    assert_true(s->nodes[2].clock.drift == 0.001);
    assert_int_equal(s->nodes[5].clock.offset_ms, -1000);
    assert_true(s->nodes[5].clock.drift == -0.002);

    assert_int_equal(s->delay.kind, DIST_EXP);
    assert_int_equal(s->delay.a_us, 2000);
    assert_true(s->loss == 0.01);
    assert_int_equal(s->repl_lag.kind, DIST_CONST);
    assert_int_equal(s->repl_lag.a_us, 40000);
    assert_int_equal(s->down_after_us, 3000000);
    assert_int_equal(s->detection_us, 1500000);

    assert_int_equal(s->nlinks, 2);
    assert_string_equal(s->links[0].from, "X");
    assert_string_equal(s->links[0].to, "A");
    assert_int_equal(s->links[0].delay.kind, DIST_UNIFORM);
    assert_int_equal(s->links[0].delay.a_us, 10000);
    assert_int_equal(s->links[0].delay.b_us, 20000);
    assert_true(s->links[0].loss == 0.5);
    assert_int_equal(s->links[0].line, 25);
    assert_int_equal(s->links[1].delay.kind, DIST_EXP); /* the network's */
    assert_true(s->links[1].loss == 0.01);

    assert_int_equal(s->nclients, 3);
    const client_cfg *x = &s->clients[0], *y = &s->clients[1], *z = &s->clients[2];
    assert_string_equal(x->name, "X");
    assert_int_equal(x->work_us, 1500000);
    assert_int_equal(x->rounds, 3);
    assert_int_equal(x->think_us, 100000);
    assert_int_equal(x->lease_us, -1);
    assert_int_equal(x->line, 30);
    assert_int_equal(y->start_us, 100000);
    assert_int_equal(y->work_us, 250500);
    assert_int_equal(y->wait_us, 2000000);
    assert_int_equal(y->lease_us, -2);
    assert_int_equal(y->clock.offset_ms, 20);
    assert_true(y->clock.drift == 0.05);
    assert_int_equal(y->line, 31);
    assert_int_equal(z->lease_us, -2);

    assert_int_equal(s->nfaults, 11);
    const fault_cfg *f = s->faults;
    assert_int_equal(f[0].kind, FAULT_GC_PAUSE);
    assert_int_equal(f[0].at_us, 1000000);
    assert_string_equal(f[0].target, "X");
    assert_int_equal(f[0].duration_us, 12000000);
    assert_int_equal(f[0].line, 36);
    assert_int_equal(f[1].kind, FAULT_CRASH);
    assert_string_equal(f[1].target, "C");
    assert_int_equal(f[1].duration_us, -1);
    assert_string_equal(f[2].target, "Z");
    assert_int_equal(f[3].kind, FAULT_RESTART);
    assert_int_equal(f[4].kind, FAULT_CLOCK_JUMP);
    assert_int_equal(f[4].jump_ms, -20000);
    assert_int_equal(f[5].jump_ms, 1500);
    assert_int_equal(f[6].kind, FAULT_DRIFT);
    assert_string_equal(f[6].target, "Ar1");
    assert_true(f[6].rate == 0.05);
    assert_int_equal(f[7].kind, FAULT_PARTITION);
    assert_int_equal(f[7].duration_us, 5000000);
    assert_int_equal(f[7].ngroups, 2);
    assert_string_equal(f[7].groups[0][0], "X");
    assert_string_equal(f[7].groups[0][1], "A");
    assert_null(f[7].groups[0][2]);
    assert_string_equal(f[7].groups[1][2], "C");
    assert_null(f[7].groups[1][3]);
    assert_null(f[7].groups[2]);
    assert_int_equal(f[8].kind, FAULT_FAILOVER);
    assert_string_equal(f[8].target, "A");
    assert_int_equal(f[9].kind, FAULT_DROP);
    assert_string_equal(f[9].from, "X");
    assert_string_equal(f[9].to, "A");
    assert_true(f[9].probability == 0.5);
    assert_int_equal(f[9].duration_us, -1);
    assert_int_equal(f[10].duration_us, 1000000);
    assert_true(f[10].probability == 1);

    /* expect in the canonical property order, options sorted by key */
    assert_int_equal(s->nexpects, 2);
    assert_string_equal(s->expects[0].property, "mutual_exclusion");
    assert_int_equal(s->expects[0].violated, 1);
    assert_string_equal(s->expects[1].property, "no_deadlock");
    assert_int_equal(s->expects[1].violated, 0);
    assert_int_equal(s->expects[0].line, 52);
    assert_int_equal(s->noptions, 3);
    assert_string_equal(s->options[0].key, "drift_factor");
    assert_int_equal(s->options[0].type, OPT_NUMBER);
    assert_true(s->options[0].num == 0.01);
    assert_string_equal(s->options[1].key, "extend");
    assert_int_equal(s->options[1].type, OPT_BOOL);
    assert_int_equal(s->options[1].b, 1);
    assert_string_equal(s->options[2].key, "preset");
    assert_int_equal(s->options[2].type, OPT_STRING);
    assert_string_equal(s->options[2].s, "redlock-rb");

    const explore_cfg *e = &s->explore;
    assert_int_equal(e->present, 1);
    assert_int_equal(e->max_faults, 2);
    assert_int_equal(e->horizon_us, 30000000);
    assert_int_equal(e->max_depth, 500);
    assert_int_equal(e->nfaults, 4); /* in fault-kind order */
    assert_int_equal(e->faults[0].kind, FAULT_GC_PAUSE);
    assert_int_equal(e->faults[0].ntargets, 2);
    assert_string_equal(e->faults[0].targets[1], "Y");
    assert_int_equal(e->faults[0].nparams, 0);
    assert_int_equal(e->faults[1].kind, FAULT_CRASH);
    assert_int_equal(e->faults[1].nparams, 2);
    assert_int_equal(e->faults[1].params_us[1], 20000000);
    assert_int_equal(e->faults[2].kind, FAULT_CLOCK_JUMP);
    assert_int_equal(e->faults[2].params_us[0], -5000000);
    assert_int_equal(e->faults[3].kind, FAULT_DRIFT);
    assert_int_equal(e->faults[3].nparams, 0);
    assert_int_equal(e->faults[3].nvalues, 2);
    assert_true(e->faults[3].values[1] == 0.1);
    scenario_free(s);
}

static void test_scenario_file_on_disk(void **state)
{
    fixture *fx = *state;
    buf err;
    buf_init(&err);
    assert_int_equal(write_text("t.lua", fx->full_text), 0);
    scenario *s = scenario_load("t.lua", &err);
    assert_non_null(s);
    assert_string_equal(s->path, "t.lua");
    scenario_free(s);
    assert_null(scenario_load("missing.lua", &err));
    assert_string_equal(err.p, "cannot open 'missing.lua': No such file or directory");
    /* a directory opens, then fails to read: it must say why, not pass for an empty file */
    assert_null(scenario_load(".", &err));
    assert_string_equal(err.p, "cannot read '.': Is a directory");
    FILE *f = fopen("t.lua", "wb");
    assert_non_null(f);
    fwrite("return {\n  name = 'x\0',\n}\n", 1, 27, f);
    fclose(f);
    assert_null(scenario_load("t.lua", &err));
    assert_string_equal(err.p, "t.lua:2: the file contains a NUL byte");
    buf_release(&err);
}

static void test_scenario_replica_naming(void **state)
{
    (void)state;
    scenario *s = load_with("  mode = \"redlock\", nodes = 2, replicas = 2,");
    static const char *const names[] = { "n1", "n2", "n1r1", "n1r2", "n2r1", "n2r2" };
    static const int masters[] = { -1, -1, 0, 0, 1, 1 };
    assert_int_equal(s->nnodes, 6);
    for (int i = 0; i < 6; i++) {
        assert_string_equal(s->nodes[i].name, names[i]);
        assert_int_equal(s->nodes[i].master, masters[i]);
    }
    assert_int_equal(scenario_node_index(s, "n2r1"), 4);
    assert_int_equal(scenario_node_index(s, "A"), -1);
    assert_int_equal(scenario_client_index(s, "B"), 1);
    assert_int_equal(scenario_client_index(s, "n1"), -1);
    scenario_free(s);
}

static void test_scenario_per_node_overrides(void **state)
{
    (void)state;
    scenario *s = load_with("  replicas = 1, persistence = \"always\", restart_delay = \"1s\",\n"
                            "  clock = { offset = 5, drift = 0.01 },\n"
                            "  per_node = { n1r1 = { persistence = \"none\", restart_delay = \"none\",\n"
                            "                        clock = { offset = \"-2s\" } } },");
    assert_int_equal(s->nodes[0].persist, PERSIST_ALWAYS);
    assert_int_equal(s->nodes[0].restart_delay_us, 1000000);
    assert_int_equal(s->nodes[0].clock.offset_ms, 5);
    assert_int_equal(s->nodes[1].persist, PERSIST_NONE);
    assert_int_equal(s->nodes[1].restart_delay_us, -1);
    assert_int_equal(s->nodes[1].clock.offset_ms, -2000);
    assert_true(s->nodes[1].clock.drift == 0.01);
    scenario_free(s);
}

static void test_scenario_distributions(void **state)
{
    (void)state;
    scenario *s = load_with("  network = { delay = 3 }, replication = { lag = { 0, \"1s\" } },");
    assert_int_equal(s->delay.kind, DIST_CONST);
    assert_int_equal(s->delay.a_us, 3000);
    assert_int_equal(s->repl_lag.kind, DIST_UNIFORM);
    assert_int_equal(s->repl_lag.b_us, 1000000);
    scenario_free(s);
    expect_error_in("  network = { delay = { \"5ms\", \"1ms\" } },",
                    "t.lua:4: network.delay: the low end of {lo, hi} is above the high end");
    expect_error_in("  network = { delay = { \"5ms\" } },",
                    "t.lua:4: network.delay must have at least 2 durations");
    expect_error_in("  network = { delay = { exponental = 4 } },",
                    "t.lua:4: unknown key 'exponental' in network.delay; did you mean 'exponential'?");
    expect_error_in("  network = { delay = true },",
                    "t.lua:4: network.delay must be a duration, {lo, hi} or { exponential = mean }, not a boolean");
}

static void test_scenario_lease_none_and_numbers(void **state)
{
    (void)state;
    scenario *s = load_with("  lease = false, wait = 0, seed = 0, nodes = 1.0,");
    assert_int_equal(s->lease_us, -2);
    assert_int_equal(s->wait_us, 0);
    assert_int_equal(s->seed, 0);
    scenario_free(s);
    s = load_with("  lease = \"none\", timeout = 0.0016,");
    assert_int_equal(s->lease_us, -2);
    assert_int_equal(s->timeout_us, 2); /* ms with a fraction, rounded to µs */
    scenario_free(s);
    expect_error_in("  timeout = 0.0004,", "t.lua:4: timeout must be more than 0 (got 0.0004)");
}

/* The returned table may be a local built before the return: lines still map. */
static void test_scenario_return_local(void **state)
{
    (void)state;
    expect_error("local s = {\n"
                 "  name = \"t\", about = \"a\", protocol = \"redisson\", duration = \"60s\",\n"
                 "  clients = { { name = \"A\" } },\n"
                 "  expect = { mutex = \"holds\" },\n"
                 "}\n"
                 "return s\n",
                 "t.lua:4: unknown property 'mutex' in expect; valid properties: mutual_exclusion, "
                 "resource_safety, release_safety, no_deadlock, fairness, reentrancy");
}

/* A field whose value comes from a local has no line of its own: its ancestor's is used. */
static void test_scenario_line_falls_back_to_ancestor(void **state)
{
    (void)state;
    expect_error("local c = { name = \"A\", work = \"-1s\" }\n"
                 "return {\n"
                 "  name = \"t\", about = \"a\", protocol = \"redisson\", duration = \"60s\",\n"
                 "  clients = {\n"
                 "    c,\n"
                 "  },\n"
                 "}\n",
                 "t.lua:5: clients[1].work must not be negative (got \"-1s\")");
    expect_error("local t = {}\n"
                 "t.name = 5\n"
                 "return t\n",
                 "t.lua:3: name must be a string, not a number");
}

static void test_scenario_options_and_explore(void **state)
{
    (void)state;
    expect_error_in("  options = { 1 },",
                    "t.lua:4: options has a positional value [1]; write options as name = value");
    expect_error_in("  options = { x = {} },", "t.lua:4: options.x must be a string, a number or a boolean, not a table");
    expect_error_in("  explore = { faults = { crash = { \"A\" } } },",
                    "t.lua:4: explore has no 'max_faults' (it is required)");
    expect_error_in("  explore = { max_faults = 1,\n    faults = { pause = { \"A\" } } },",
                    "t.lua:5: unknown fault kind 'pause' in explore.faults; valid fault kinds: gc_pause, "
                    "crash, restart, clock_jump, drift, partition, failover, drop, disk_stall");
    expect_error_in("  explore = { max_faults = 1, faults = { gc_pause = { \"n1\" } } },",
                    "t.lua:4: explore.faults.gc_pause[1]: 'n1' is a node, but gc_pause needs a client");
    expect_error_in("  explore = { max_faults = 1, faults = { restart = { targets = { \"n1\" }, params = { 1 } } } },",
                    "t.lua:4: explore.faults.restart.params: a restart takes no params");
    expect_error_in("  explore = { max_faults = -1 },",
                    "t.lua:4: explore.max_faults must be between 0 and 1000 (got -1)");
    scenario *s = load_with("  explore = { max_faults = 0, faults = { drop = { targets = { \"A\" }, params = { 0.5 } } } },");
    assert_int_equal(s->explore.max_faults, 0);
    assert_int_equal(s->explore.horizon_us, 0);
    assert_int_equal(s->explore.faults[0].kind, FAULT_DROP);
    assert_true(s->explore.faults[0].values[0] == 0.5);
    scenario_free(s);
}

/* ---- errors ------------------------------------------------------------------------ */

static void test_scenario_unknown_key_suggests(void **state)
{
    (void)state;
    expect_error_in("  down = \"refused\",", "t.lua:4: down must be \"silent\" or \"refuses\" (got \"refused\")");
    /* the nodes' kind */
    expect_error_in("  server = \"zk\",", "t.lua:4: server: no kind of server 'zk' (known: redis, zookeeper, etcd, mysql, mongodb, postgresql, kubernetes, consul)");
    expect_error_in("  server_options = { tick = \"2s\" },", "t.lua:4: server_options: the redis server has no options");
    expect_error_in("  leese = \"10s\",", "t.lua:4: unknown key 'leese' in the scenario; did you mean 'lease'?");
    expect_error(HEAD_NO_CLIENTS "  clients = {\n    { name = \"A\" },\n    { name = \"B\", wrok = 5 },\n  },\n}",
                 "t.lua:5: unknown key 'wrok' in clients[2]; did you mean 'work'?");
    expect_error_in("  per_node = { n1 = { persistance = \"always\" } },",
                    "t.lua:4: unknown key 'persistance' in per_node.n1; did you mean 'persistence'?");
    expect_error_in("  per_node = { n2 = { } },", "t.lua:4: unknown node 'n2' in per_node; valid nodes: n1");
    expect_error_in("  mode = \"redlock\", nodes = { \"alpha\", \"beta\" },\n  per_node = { alpah = { } },",
                    "t.lua:5: unknown node 'alpah' in per_node; did you mean 'alpha'?");
}

static void test_scenario_unknown_key_lists(void **state)
{
    (void)state;
    expect_error_in("  network = { jitter = 3 },",
                    "t.lua:4: unknown key 'jitter' in network; valid keys: delay, loss, partitions, tcp_retries2, keepalive");
    expect_error("return { \"x\" }", "t.lua:1: the scenario has a positional value [1]; write its fields as name = value");
    /* of two unknown keys the one written first is reported */
    expect_error_in("  zzz = 1,\n  yyy = 2,", "t.lua:4: unknown key 'zzz' in the scenario; valid keys: name, about, "
                    "protocol, server, server_options, mode, nodes, replicas, persistence, restart_delay, clock, per_node, lease, wait, "
                    "timeout, network, links, replication, clients, faults, duration, seed, fencing, down, scripts, "
                    "lock, expect, options, explore");
}

static void test_scenario_wrong_type(void **state)
{
    (void)state;
    expect_error_in("  lease = {},",
                    "t.lua:4: lease must be a duration or false (a number of ms or a string like \"10s\"), not a table");
    expect_error_in("  wait = true,",
                    "t.lua:4: wait must be a duration (a number of ms or a string like \"10s\"), not a boolean");
    expect_error_in("  fencing = \"yes\",", "t.lua:4: fencing must be true or false, not a string");
    expect_error_in("  nodes = \"3\",", "t.lua:4: nodes must be a count or a list of names, not a string");
    expect_error_in("  seed = 1.5,", "t.lua:4: seed must be a whole number (got 1.5)");
    expect_error_in("  persistence = \"sometimes\",",
                    "t.lua:4: persistence must be \"none\", \"everysec\" or \"always\" (got \"sometimes\")");
    expect_error_in("  mode = 1,", "t.lua:4: mode must be \"single\" or \"redlock\", not a number");
    expect_error_in("  clock = 5,", "t.lua:4: clock must be a table, not a number");
    expect_error_in("  name2 = function() end,", "t.lua:4: unknown key 'name2' in the scenario; did you mean 'name'?");
    expect_error(HEAD_NO_CLIENTS "  clients = { \"A\" },\n}",
                 "t.lua:3: clients[1] must be a table { name = ..., ... }, not a string");
    expect_error(HEAD_NO_CLIENTS "  clients = { { name = \"A\" }, x = 1 },\n}",
                 "t.lua:3: clients must be a list of clients, but has the key 'x'");
}

static void test_scenario_bad_values(void **state)
{
    (void)state;
    expect_error_in("  lease = \"-5s\",", "t.lua:4: lease must not be negative (got \"-5s\")");
    expect_error_in("  wait = -1,", "t.lua:4: wait must not be negative (got -1)");
    expect_error_in("  lease = 0,", "t.lua:4: lease must be more than 0 (got 0)");
    expect_error_in("  timeout = \"10 parsecs\",",
                    "t.lua:4: timeout: bad duration \"10 parsecs\" (write a number of ms or a string like "
                    "\"250ms\" or \"10s\"; units: us, ms, s, m, h)");
    expect_error_in("  lease = 1e300,", "t.lua:4: lease is too large");
    expect_error(HEAD_NO_CLIENTS "  clients = { { name = \"A\", rounds = 0 } },\n}",
                 "t.lua:3: clients[1].rounds must be between 1 and 1000000 (got 0)");
    expect_error_in("  network = { loss = 1.5 },", "t.lua:4: network.loss must be between 0 and 1 (got 1.5)");
    expect_error_in("  faults = { { at = \"1s\", drop = { \"A\", \"n1\" }, probability = 2 } },",
                    "t.lua:4: faults[1].probability must be between 0 and 1 (got 2)");
    expect_error_in("  faults = {\n    { at = \"61s\", crash = \"n1\" },\n  },",
                    "t.lua:5: faults[1].at: the fault comes after the end of the scenario (duration 60s)");
    expect_error_in("  nodes = 0,", "t.lua:4: nodes must be between 1 and 64 (got 0)");
    expect_error_in("  nodes = 3,",
                    "t.lua:4: nodes: mode \"single\" uses one master, but 3 are given; use mode = \"redlock\"");
    expect_error_in("  clock = { drift = -1 },", "t.lua:4: clock.drift must be between -0.5 and 1 (got -1)");
    expect_error_in("  scripts = \"redisson@\",",
                    "t.lua:4: scripts: 'redisson@' is not a script version (write \"HEAD\", \"3.11.1\" or "
                    "\"redisson@3.11.1\")");
    expect_error_in("  lock = \"\",", "t.lua:4: lock must not be empty");
    expect_error_in("  expect = { fairness = \"yes\" },",
                    "t.lua:4: expect.fairness must be \"holds\" or \"violated\" (got \"yes\")");
    expect_error_in("  explore = { max_faults = 1, horizon = \"2m\" },",
                    "t.lua:4: explore.horizon is after the end of the scenario");
}

static void test_scenario_missing_required(void **state)
{
    (void)state;
    expect_error("return {\n  about = \"a\", protocol = \"redisson\", duration = 1,\n  clients = { { name = \"A\" } },\n}",
                 "t.lua:1: the scenario has no 'name' (it is required)");
    expect_error("return {\n  name = \"t\", protocol = \"redisson\", duration = 1,\n  clients = { { name = \"A\" } },\n}",
                 "t.lua:1: the scenario has no 'about' (it is required)");
    expect_error("return {\n  name = \"t\", about = \"a\", duration = 1,\n  clients = { { name = \"A\" } },\n}",
                 "t.lua:1: the scenario has no 'protocol' (it is required)");
    expect_error("return {\n  name = \"t\", about = \"a\", protocol = \"redisson\",\n  clients = { { name = \"A\" } },\n}",
                 "t.lua:1: the scenario has no 'duration' (it is required)");
    expect_error(HEAD_NO_CLIENTS "}", "t.lua:1: the scenario has no 'clients' (it is required)");
    expect_error(HEAD_NO_CLIENTS "  clients = {},\n}", "t.lua:3: clients must not be empty");
    expect_error(HEAD_NO_CLIENTS "  clients = {\n    { work = 5 },\n  },\n}",
                 "t.lua:4: clients[1] has no 'name' (it is required)");
    expect_error_in("  name = \"\",", "t.lua:2: name must not be empty");
    expect_error_in("  faults = {\n    { crash = \"A\" },\n  },", "t.lua:5: faults[1] has no 'at' (when the fault happens)");
    expect_error_in("  faults = {\n    { at = 1, gc_pause = \"A\" },\n  },",
                    "t.lua:5: faults[1]: a gc_pause fault needs 'duration'");
    expect_error_in("  faults = { { at = 1, clock_jump = \"A\" } },", "t.lua:4: faults[1]: a clock_jump fault needs 'by'");
}

static void test_scenario_fault_kinds(void **state)
{
    (void)state;
    expect_error_in("  faults = { { at = 1, crash = \"A\", restart = \"n1\" } },",
                    "t.lua:4: faults[1] has two kinds, 'crash' and 'restart'; a fault has exactly one");
    expect_error_in("  faults = { { at = 1 } },",
                    "t.lua:4: faults[1] has no kind; give one of gc_pause, crash, restart, clock_jump, drift, "
                    "partition, failover, drop, disk_stall");
    expect_error_in("  faults = { { at = 1, crash = \"A\",\n    duration = 5 } },",
                    "t.lua:5: faults[1]: 'duration' does not apply to a crash fault (its keys: at, crash, host)");
    expect_error_in("  faults = { { at = 1, gc_pause = \"A\", duraton = 5 } },",
                    "t.lua:4: unknown key 'duraton' in faults[1]; did you mean 'duration'?");
    expect_error_in("  faults = { { at = 1, drift = \"A\", rate = \"fast\" } },",
                    "t.lua:4: faults[1].rate must be a number, not a string");
    expect_error_in("  faults = { { at = 1, drop = \"A\", probability = 1 } },",
                    "t.lua:4: faults[1].drop must be a link {from, to}, like {\"A\", \"n1\"}, not a string");
    expect_error_in("  faults = { { at = 1, drop = { \"A\", \"A\" }, probability = 1 } },",
                    "t.lua:4: faults[1].drop: a link joins two different actors");
    scenario *s = load_with("  faults = { { at = 1, clock_jump = \"n1\", by = \"-0.5ms\" },\n"
                            "             { at = \"60s\", drift = \"A\", rate = -0.01 } },");
    assert_int_equal(s->faults[0].jump_ms, -1); /* rounded half away from zero */
    assert_true(s->faults[1].rate == -0.01);
    assert_int_equal(s->faults[1].line, 5);
    scenario_free(s);
}

static void test_scenario_unknown_actor(void **state)
{
    (void)state;
    expect_error_in("  faults = {\n    { at = \"1s\", gc_pause = \"C\", duration = \"1s\" },\n  },",
                    "t.lua:5: faults[1].gc_pause: no client named 'C'");
    expect_error_in("  faults = { { at = \"1s\", gc_pause = \"Bob\", duration = \"1s\" } },",
                    "t.lua:4: faults[1].gc_pause: no client named 'Bob'");
    expect_error_in("  faults = { { at = \"1s\", crash = \"n2\" } },",
                    "t.lua:4: faults[1].crash: no node or client named 'n2'");
    expect_error(HEAD_NO_CLIENTS "  clients = { { name = \"alice\" } },\n  faults = { { at = 1, crash = \"alise\" } },\n}",
                 "t.lua:4: faults[1].crash: no node or client named 'alise'; did you mean 'alice'?");
    expect_error_in("  links = { { from = \"A\", to = \"Q\" } },", "t.lua:4: links[1].to: no node or client named 'Q'");
    expect_error_in("  links = { { from = \"A\", to = \"n1\" }, { from = \"n1\", to = \"A\" } },",
                    "t.lua:4: links[2]: the link n1-A is given twice (links work both ways)");
}

static void test_scenario_wrong_actor_kind(void **state)
{
    (void)state;
    expect_error_in("  faults = { { at = 1, gc_pause = \"n1\", duration = 5 } },",
                    "t.lua:4: faults[1].gc_pause: 'n1' is a node, but gc_pause needs a client");
    expect_error_in("  faults = { { at = 1, restart = \"A\" } },",
                    "t.lua:4: faults[1].restart: 'A' is a client, but restart needs a node");
    expect_error_in("  faults = { { at = 1, failover = \"n1\" } },",
                    "t.lua:4: faults[1].failover: 'n1' has no replica to fail over to (set replicas)");
    expect_error_in("  replicas = 1, faults = { { at = 1, failover = \"n1r1\" } },",
                    "t.lua:4: faults[1].failover: 'n1r1' is a replica, but failover needs a master node");
    expect_error_in("  faults = { { at = 1, failover = \"A\" } },",
                    "t.lua:4: faults[1].failover: 'A' is a client, but failover needs a master node");
}

static void test_scenario_partition(void **state)
{
    (void)state;
    expect_error_in("  faults = { { at = 1, duration = 5, partition = {\n"
                    "      { \"A\", \"n1\" },\n"
                    "      { \"B\", \"A\" } } } },",
                    "t.lua:6: faults[1].partition[2][2]: 'A' is in two groups");
    expect_error_in("  faults = { { at = 1, duration = 5, partition = { { \"A\", \"A\" }, { \"B\" } } } },",
                    "t.lua:4: faults[1].partition[1][2]: 'A' is in two groups (named twice in one)");
    expect_error_in("  faults = { { at = 1, duration = 5, partition = { \"A\", \"B\" } } },",
                    "t.lua:4: faults[1].partition[1] must be a list of names, not a string");
    expect_error_in("  faults = { { at = 1, duration = 0, partition = { { \"A\" }, { \"B\" } } } },",
                    "t.lua:4: faults[1].duration must be more than 0 (got 0)");
    /* an actor in no group talks to everyone, so one group alone would cut nothing */
    expect_error_in("  faults = { { at = 1, duration = 5, partition = { { \"A\", \"n1\" } } } },",
                    "t.lua:4: faults[1].partition must have at least 2 groups");
    scenario *s = load_with("  faults = { { at = 1, duration = 5, partition = { { \"A\" }, { \"n1\" } } } },");
    assert_int_equal(s->faults[0].ngroups, 2);
    assert_string_equal(s->faults[0].groups[1][0], "n1");
    assert_null(s->faults[0].groups[2]);
    scenario_free(s);
}

static void test_scenario_duplicate_names(void **state)
{
    (void)state;
    expect_error(HEAD_NO_CLIENTS "  clients = { { name = \"A\" },\n    { name = \"A\" } },\n}",
                 "t.lua:4: clients[2].name: the name 'A' is used twice");
    expect_error(HEAD_NO_CLIENTS "  clients = { { name = \"n1\" } },\n}",
                 "t.lua:3: clients[1].name: 'n1' is already the name of a node");
    expect_error_in("  mode = \"redlock\", nodes = { \"A1\", \"B1\", \"A1\" },",
                    "t.lua:4: nodes[3]: the name 'A1' is used twice");
    expect_error_in("  mode = \"redlock\", nodes = { \"X\", \"Xr1\" }, replicas = 1,",
                    "t.lua:4: replicas: the replica name 'Xr1' is already a node's name");
    expect_error_in("  mode = \"redlock\", nodes = { \"a b\" },",
                    "t.lua:4: nodes[1]: 'a b' is not a valid name (1 to 32 letters, digits, '_' or '-')");
}

static void test_scenario_expect_unknown_property(void **state)
{
    (void)state;
    expect_error_in("  expect = {\n    mutal_exclusion = \"holds\" },",
                    "t.lua:5: unknown property 'mutal_exclusion' in expect; did you mean 'mutual_exclusion'? "
                    "(valid properties: mutual_exclusion, resource_safety, release_safety, no_deadlock, "
                    "fairness, reentrancy)");
}

static void test_scenario_protocol_must_exist(void **state)
{
    (void)state;
    expect_error("return {\n  name = \"t\", about = \"a\",\n  protocol = \"redison\",\n}",
                 "t.lua:3: protocol: no client model lua/clients/redison.lua; did you mean 'redisson'?");
    expect_error("return { name = \"t\", about = \"a\", protocol = \"zookeeper\" }",
                 "t.lua:1: protocol: no client model lua/clients/zookeeper.lua (there are: distlock, "
                 "redisson, redlock)");
    expect_error("return { name = \"t\", about = \"a\", protocol = \"x y\" }",
                 "t.lua:1: protocol: 'x y' is not a protocol name (letters, digits, '_' and '-')");
    /* a path is a model file read from the scenario's folder (here "t.lua": the current one, a
     * fresh directory, whose parent is the shared /tmp: a folder of its own, not "../x") */
    expect_error("return { name = \"t\", about = \"a\", protocol = \"./no-such-folder/x\" }",
                 "t.lua:1: protocol: no client model file './no-such-folder/x' (a path is read from the scenario's folder)");
}

/* ---- evaluation -------------------------------------------------------------------- */

static void test_scenario_runaway_evaluation(void **state)
{
    (void)state;
    expect_error("while true do end", "t.lua: scenario took too long to evaluate");
    /* a scenario cannot catch the budget error: there is no pcall to catch it with */
    expect_error("local function f() return f() end return f()", "t.lua: scenario took too long to evaluate");
}

static void test_scenario_memory_cap(void **state)
{
    (void)state;
    expect_error("local t = {} for i = 1, 1e8 do t[i] = i end return t", "t.lua: scenario uses too much memory");
    expect_error("local s = 'x' for i = 1, 40 do s = s .. s end return {}", "t.lua: scenario uses too much memory");
}

static void test_scenario_syntax_error_line(void **state)
{
    (void)state;
    expect_error("return {\n  name = \"t\",\n  about = = 1,\n}", "t.lua:3: unexpected symbol near '='");
    expect_error("return {\n  name = [[never closed\n", "t.lua:3: unfinished long string (starting at line 2) near <eof>");
    /* Lua quotes the token it choked on, newlines and all: the message stays one line */
    expect_error("return { x = 1 [[a\nb]] }", "t.lua:2: '}' expected (to close '{' at line 1) near '[[a b]]'");
}

static void test_scenario_runtime_error_line(void **state)
{
    (void)state;
    /* the sandbox holds no functions at all: not print, not string methods */
    expect_error("local x = 1\nprint(x)\nreturn {}", "t.lua:2: attempt to call a nil value (global 'print')");
    expect_error("\n\nreturn { name = (\"x\"):upper() }", "t.lua:3: attempt to index a string value (constant 'x')");
    expect_error("return {\n  lease = 10 * seconds,\n}",
                 "t.lua:2: attempt to perform arithmetic on a nil value (global 'seconds')");
    expect_error("return { x = #5 }", "t.lua:1: attempt to get length of a number value");
}

static void test_scenario_long_file_name(void **state)
{
    (void)state;
    /* Lua shortens long chunk names to "...tail"; messages still carry the full name */
    const char *name = "some/very/long/directory/name/that/goes/on/and/on/for/ever/t.lua";
    buf err;
    buf_init(&err);
    assert_null(scenario_load_string(name, "\n\nreturn { = }", &err));
    buf want;
    buf_init(&want);
    buf_printf(&want, "%s:3: unexpected symbol near '='", name);
    assert_string_equal(err.p, want.p);
    buf_release(&want);
    buf_release(&err);
}

static void test_scenario_must_return_one_table(void **state)
{
    (void)state;
    expect_error("local x = 1\n", "t.lua:1: the scenario returns nothing; it must end with return { ... }");
    expect_error("local x = 1\nreturn 'x'", "t.lua:2: the scenario must return a table, not a string");
    expect_error("return {}, {}", "t.lua:1: the scenario must return one table, not 2 values");
}

static void test_scenario_lexer_lines(void **state)
{
    (void)state;
    /* comments, long strings and escapes before the field must not shift its line */
    expect_error("--[==[ a\n long ]] comment\n]==]\n"
                 "return { name = 't', about = [[\n\n]], protocol = \"redisson\", -- note {\n"
                 "  duration = 'a\\\n', clients = { { name = 'A' } }, x = { [\"y\"] = 1 },\n"
                 "  lease = '1 week',\n"
                 "}",
                 "t.lua:8: unknown key 'x' in the scenario; valid keys: name, about, protocol, server, server_options, mode, "
                 "nodes, replicas, persistence, restart_delay, clock, per_node, lease, wait, timeout, "
                 "network, links, replication, clients, faults, duration, seed, fencing, down, scripts, lock, "
                 "expect, options, explore");
    expect_error("return { name = 't', about = [[\n\n]], protocol = \"redisson\",\n"
                 "  f = function() local a, b = 1, 2 if a then return { } end end, duration = 5,\n"
                 "  clients = { { name = 'A' } },\n"
                 "  [\"lease\"] = '1 week',\n"
                 "}",
                 "t.lua:4: unknown key 'f' in the scenario; valid keys: name, about, protocol, server, server_options, mode, "
                 "nodes, replicas, persistence, restart_delay, clock, per_node, lease, wait, timeout, "
                 "network, links, replication, clients, faults, duration, seed, fencing, down, scripts, lock, "
                 "expect, options, explore");
    expect_error("return { name = 't', about = [[\n\n]], protocol = \"redisson\",\n"
                 "  duration = 5, clients = { { name = 'A' } },\n"
                 "  [\"lease\"] = '1 week',\n"
                 "}",
                 "t.lua:5: lease: bad duration \"1 week\" (write a number of ms or a string like \"250ms\" "
                 "or \"10s\"; units: us, ms, s, m, h)");
}

/* Each tests/scenarios/invalid-*.lua states its error on its first line, as
 * "-- error at line N: message" or "-- error: message". */
static void test_scenario_invalid_fixtures(void **state)
{
    fixture *fx = *state;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/tests/scenarios", fx->old_cwd);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int checked = 0;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, "invalid-", 8) != 0) continue;
        buf file;
        buf_init(&file);
        buf_printf(&file, "%s/%s", dir, de->d_name);
        const char *path = file.p;
        char *text = read_text(path);
        assert_non_null(text);
        buf want, err;
        buf_init(&want);
        buf_init(&err);
        int line;
        int used = 0;
        if (sscanf(text, "-- error at line %d: %n", &line, &used) == 1 && used > 0)
            buf_printf(&want, "%s:%d: %.*s", path, line, (int)strcspn(text + used, "\n"), text + used);
        else if (strncmp(text, "-- error: ", 10) == 0)
            buf_printf(&want, "%s: %.*s", path, (int)strcspn(text + 10, "\n"), text + 10);
        else
            fail_msg("%s: the first line does not state the error", path);
        assert_null(scenario_load(path, &err));
        assert_string_equal(err.p, want.p);
        buf_release(&want);
        buf_release(&err);
        buf_release(&file);
        free(text);
        checked++;
    }
    closedir(d);
    assert_true(checked >= 5);
}

/* ---- robustness -------------------------------------------------------------------- */

static void test_scenario_bom_and_shebang(void **state)
{
    (void)state;
    /* as the lua command reads a file: a UTF-8 BOM and a #! line are skipped */
    scenario_free(load_ok("\xEF\xBB\xBF" HEAD "}\n"));
    scenario_free(load_ok("#!/usr/bin/env lua\n" HEAD "}\n"));
    /* and line numbers still count the #! line */
    expect_error("#!/usr/bin/env lua\n" HEAD "  leese = 1,\n}\n",
                 "t.lua:5: unknown key 'leese' in the scenario; did you mean 'lease'?");
}

static void test_scenario_robust_values(void **state)
{
    (void)state;
    expect_error("return {\n  name = \"t\", about = \"a\", protocol = \"workload\", duration = \"60s\",\n"
                 "  clients = { { name = \"A\" } },\n}\n",
                 "t.lua:2: protocol: 'workload' is the workload loop every model runs under, not a protocol; "
                 "name a model such as distlock, redisson or redlock");
    expect_error("return {\n  name = \"two\\nlines\", about = \"a\", protocol = \"redisson\", duration = 1,\n"
                 "  clients = { { name = \"A\" } },\n}\n",
                 "t.lua:2: name must be one line of text (it has a control character such as a newline)");
    expect_error_in("  faults = { { at = 1, drop = { \"A\" }, probability = 1 } },",
                    "t.lua:4: faults[1].drop must have at least 2 names");
    /* of two bad keys on one line, the same one every time (lua_next's order varies) */
    for (int i = 0; i < 8; i++) {
        expect_error_in("  faults = { { at = 1, drop = { from = \"A\", to = \"n1\" }, probability = 1 } },",
                        "t.lua:4: faults[1].drop must be a list of names, but has the key 'from'");
        expect_error_in("  options = { [true] = 1, [false] = 2, [2] = 3 },",
                        "t.lua:4: options has a positional value [2]; write options as name = value");
    }
}

/* A model beside the scenario (protocol = "./mine.lua", or a name found in its folder) takes
 * the place of the library's, and changes nothing else the scenario says: the nodes' kind and
 * its options are read after it and kept (the loader once freed both when a model was found
 * beside, which only the order of the reads made harmless). */
static void test_scenario_model_beside(void **state)
{
    (void)state;
    assert_int_equal(write_text("mine.lua", "return { SERVER = \"zookeeper\", new = function(ctx, cfg) end }\n"), 0);
    static const char *const protocols[] = { "./mine.lua", "mine" };
    for (size_t i = 0; i < 2; i++) {
        buf text;
        buf_init(&text);
        buf_printf(&text, "return {\n  name = \"t\", about = \"a\", protocol = \"%s\", duration = \"60s\",\n"
                   "  server = \"zookeeper\", server_options = { tick = \"3s\", max_session_timeout = \"90s\" },\n"
                   "  clients = { { name = \"A\" } },\n}\n", protocols[i]);
        scenario *s = load_ok(text.p);
        buf_release(&text);
        size_t n = strlen(s->protocol);
        assert_true(n > 9 && !strcmp(s->protocol + n - 9, "/mine.lua"));
        assert_string_equal(s->server, "zookeeper");
        assert_non_null(s->server_options);
        assert_int_equal(s->server_options[0], 3000);  /* tick, ms */
        assert_int_equal(s->server_options[1], 0);     /* min_session_timeout: its default */
        assert_int_equal(s->server_options[2], 90000); /* max_session_timeout */
        scenario_free(s);
    }
    unlink("mine.lua");
}

static void test_scenario_explore_params(void **state)
{
    (void)state;
    /* as in faults, a pause and a partition last longer than 0 */
    expect_error_in("  explore = { faults = { gc_pause = { targets = { \"A\" }, params = { 0 } } }, max_faults = 1 },",
                    "t.lua:4: explore.faults.gc_pause.params[1] must be more than 0 (got 0)");
    expect_error_in("  explore = { faults = { partition = { targets = { \"A\" }, params = { \"0s\" } } }, max_faults = 1 },",
                    "t.lua:4: explore.faults.partition.params[1] must be more than 0 (got \"0s\")");
    /* a clock that runs slow is a drift to explore too */
    scenario *d = load_with("  explore = { faults = { drift = { targets = { \"n1\" }, params = { 0.1, -0.2 } } }, max_faults = 1 },");
    assert_true(d->explore.faults[0].values[1] == -0.2);
    scenario_free(d);
    expect_error_in("  explore = { faults = { crash = { \"n1\", \"A\", \"n1\" } }, max_faults = 1 },",
                    "t.lua:4: explore.faults.crash[3]: 'n1' is named twice");
    /* a restart delay of 0 is one */
    scenario *s = load_with("  explore = { faults = { crash = { targets = { \"n1\" }, params = { 0 } } }, max_faults = 1 },");
    assert_int_equal(s->explore.faults[0].params_us[0], 0);
    scenario_free(s);
}

/* Names are looked up in an index, and a partition's names checked in one pass: 2000
 * partitions of every actor of the largest scenario load in well under a second. */
static void test_scenario_many_names(void **state)
{
    (void)state;
    const char *text =
        "local clients, g1, g2, faults = {}, {}, {}, {}\n"
        "for i = 1, 256 do clients[i] = { name = 'c' .. i } end\n"
        "for i = 1, 64 do\n"
        "  g1[#g1 + 1] = 'n' .. i\n"
        "  for r = 1, 8 do g2[#g2 + 1] = 'n' .. i .. 'r' .. r end\n"
        "end\n"
        "for i = 1, 256 do local g = i % 2 == 0 and g1 or g2 g[#g + 1] = 'c' .. i end\n"
        "for i = 1, 2000 do faults[i] = { at = i, partition = { g1, g2 }, duration = 1 } end\n"
        "faults[2001] = { at = 1, partition = { g1, { 'c1', 'n1' } }, duration = 1 }\n"
        "return { name = 'big', about = 'a', protocol = 'redlock', mode = 'redlock', nodes = 64,\n"
        "  replicas = 8, clients = clients, faults = faults, duration = '10s' }\n";
    expect_error(text, "t.lua:11: faults[2001].partition[2][2]: 'n1' is in two groups");
}

/* ---- fuzz -------------------------------------------------------------------------- */

/* Random byte-level and token-level mutations of the full fixture: every result is either a
 * scenario or exactly one line "t.lua...". ASan and LeakSanitizer watch the rest. */
static void test_scenario_fuzz_mutations(void **state)
{
    fixture *fx = *state;
    static const char *const inserts[] = { "{", "}", ",", "=", "\"", "[[", "]]", "--", "-1", "0",
                                           "1e309", "nil", "false", "{}", "\"x\"", "'n1'", "\n",
                                           "\"A\"", "\"-5s\"", "true", "{{", "..." };
    size_t len = strlen(fx->full_text);
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    int loaded = 0;
    buf err;
    buf_init(&err);
    for (int iter = 0; iter < 3000; iter++) {
        buf text;
        buf_init(&text);
        buf_append(&text, fx->full_text, len);
        int edits = 1 + iter % 3;
        for (int e = 0; e < edits; e++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t pos = (size_t)(rng >> 33) % text.len;
            int op = (int)((rng >> 20) % 3);
            buf next;
            buf_init(&next);
            buf_append(&next, text.p, pos);
            if (op == 0) { /* delete a run */
                size_t cut = 1 + (size_t)((rng >> 12) % 8);
                if (pos + cut > text.len) cut = text.len - pos;
                buf_append(&next, text.p + pos + cut, text.len - pos - cut);
            } else if (op == 1) { /* insert a token */
                buf_puts(&next, inserts[(rng >> 8) % (sizeof inserts / sizeof *inserts)]);
                buf_append(&next, text.p + pos, text.len - pos);
            } else { /* flip a byte to a printable one */
                buf_putc(&next, (char)(' ' + (rng >> 4) % 95));
                buf_append(&next, text.p + pos + 1, text.len - pos - 1);
            }
            buf_release(&text);
            text = next;
        }
        scenario *s = scenario_load_string("t.lua", text.p, &err);
        if (s) {
            loaded++;
            scenario_free(s);
        } else {
            assert_true(strncmp(err.p, "t.lua", 5) == 0);
            assert_null(strchr(err.p, '\n'));
        }
        buf_release(&text);
    }
    buf_release(&err);
    assert_true(loaded > 0); /* some mutations (in comments, strings) leave it valid */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration_units),
        cmocka_unit_test(test_duration_signed),
        cmocka_unit_test(test_scenario_defaults),
        cmocka_unit_test(test_scenario_full_file),
        cmocka_unit_test(test_scenario_file_on_disk),
        cmocka_unit_test(test_scenario_replica_naming),
        cmocka_unit_test(test_scenario_per_node_overrides),
        cmocka_unit_test(test_scenario_distributions),
        cmocka_unit_test(test_scenario_lease_none_and_numbers),
        cmocka_unit_test(test_scenario_return_local),
        cmocka_unit_test(test_scenario_line_falls_back_to_ancestor),
        cmocka_unit_test(test_scenario_options_and_explore),
        cmocka_unit_test(test_scenario_unknown_key_suggests),
        cmocka_unit_test(test_scenario_unknown_key_lists),
        cmocka_unit_test(test_scenario_wrong_type),
        cmocka_unit_test(test_scenario_bad_values),
        cmocka_unit_test(test_scenario_missing_required),
        cmocka_unit_test(test_scenario_fault_kinds),
        cmocka_unit_test(test_scenario_unknown_actor),
        cmocka_unit_test(test_scenario_wrong_actor_kind),
        cmocka_unit_test(test_scenario_partition),
        cmocka_unit_test(test_scenario_duplicate_names),
        cmocka_unit_test(test_scenario_expect_unknown_property),
        cmocka_unit_test(test_scenario_protocol_must_exist),
        cmocka_unit_test(test_scenario_runaway_evaluation),
        cmocka_unit_test(test_scenario_memory_cap),
        cmocka_unit_test(test_scenario_syntax_error_line),
        cmocka_unit_test(test_scenario_runtime_error_line),
        cmocka_unit_test(test_scenario_long_file_name),
        cmocka_unit_test(test_scenario_must_return_one_table),
        cmocka_unit_test(test_scenario_lexer_lines),
        cmocka_unit_test(test_scenario_invalid_fixtures),
        cmocka_unit_test(test_scenario_bom_and_shebang),
        cmocka_unit_test(test_scenario_robust_values),
        cmocka_unit_test(test_scenario_model_beside),
        cmocka_unit_test(test_scenario_explore_params),
        cmocka_unit_test(test_scenario_many_names),
        cmocka_unit_test(test_scenario_fuzz_mutations),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
