/* test_world.c — the simulation engine end to end, on small scenarios written inline:
 * determinism (same seed, same bytes; another seed, another run; a recorded choice list
 * replays exactly), GC pauses holding replies, clocks that jump or drift changing when keys
 * expire, persistence across crashes, failover under asynchronous replication, partitions,
 * message loss, client crashes, and client-model errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "monitor.h"
#include "scenario.h"
#include "fault_search.h"
#include "scenario_fixture.h"
#include "trace.h"
#include "world.h"

typedef struct outcome {
    char *jsonl;
    char *trace;
    int rc;
    check_result cr;
    char *err;
} outcome;

/* Whether needle is in the line that starts at line (a JSONL record). */
static int in_line(const char *line, const char *needle)
{
    const char *eol = strchr(line, '\n'), *at = strstr(line, needle);
    return at && (!eol || at < eol);
}

static outcome run_with(const scenario *sc, chooser *ch)
{
    outcome o = { 0 };
    buf err, b;
    buf_init(&err);
    buf_init(&b);
    world_opts opts = { .chooser = ch, .seed = sc->seed };
    world *w = world_new(sc, &opts, &err);
    if (!w) fail_msg("world_new: %s", err.p);
    o.rc = world_run(w, &err);
    history_write_jsonl(world_history(w), &b);
    o.jsonl = buf_steal(&b);
    trace_render(world_history(w), TRACE_VERBOSE, &b);
    o.trace = buf_steal(&b);
    check_run(world_history(w), sc, &o.cr);
    o.err = buf_steal(&err);
    world_free(w);
    return o;
}

static outcome run_text(const char *text)
{
    scenario *sc = load_scenario_text(text);
    outcome o = run_with(sc, NULL);
    scenario_free(sc);
    return o;
}


static void outcome_free(outcome *o)
{
    free(o->jsonl);
    free(o->trace);
    free(o->err);
    check_free(&o->cr);
}

static verdict mutex(const outcome *o)
{
    return o->cr.p[PROP_MUTUAL_EXCLUSION].v;
}

#define BASE(extra)                                                                               \
    "return { name = 't', about = 'a test', protocol = 'distlock', nodes = 1,\n"                  \
    "  lease = '10s', wait = '30s', network = { delay = {'1ms', '5ms'} },\n" extra "}\n"

static const char *three_clients = BASE(
    "  clients = { { name = 'A', work = '1s', rounds = 3 }, { name = 'B', start = '10ms', work = '1s', rounds = 3 },\n"
    "              { name = 'C', start = '20ms', work = '1s', rounds = 3 } },\n"
    "  duration = '60s', seed = 7,\n");

/* A run longer than its event budget stops with WORLD_TOO_LONG and one line saying where. */
static void test_world_event_budget_stops_a_run(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text(BASE("  clients = { { name = 'A', work = '1s', rounds = 1000000 } }, duration = '1000h',\n"));
    buf err;
    buf_init(&err);
    world_opts opts = { .seed = 1, .max_events = 1000 };
    world *w = world_new(sc, &opts, &err);
    assert_non_null(w);
    assert_int_equal(world_run(w, &err), WORLD_TOO_LONG);
    assert_int_equal(world_events(w), 1001);
    assert_non_null(strstr(err.p, "inline.lua: the run passed 0.001 million events at "));
    assert_null(strchr(err.p, '\n'));
    world_free(w);
    buf_release(&err);
    scenario_free(sc);
}

/* An explored fault takes its parameter as given: a negative drift (a slow clock) too, and
 * no parameter means the default (+10 %). */
static void test_world_explored_drift_keeps_its_sign(void **state)
{
    (void)state;
    static const char *const params[] = { "params = { -0.2 }", "params = { 0.3 }", "" };
    static const double want[] = { -0.2, 0.3, 0.1 };
    for (int i = 0; i < 3; i++) {
        char extra[512];
        snprintf(extra, sizeof extra,
                 "  clients = { { name = 'A', work = '1s' } }, duration = '5s',\n"
                 "  explore = { faults = { drift = { targets = { 'n1' }, %s } }, max_faults = 1 },\n",
                 params[i]);
        char text[1024];
        snprintf(text, sizeof text, BASE("%s"), extra);
        scenario *sc = load_scenario_text(text);
        chooser *ch = chooser_new(CHOOSER_EXPLORE, 1);
        choice first = { 1, 2, 0, "fault", 1 }; /* at the first instant: the one fault */
        chooser_set_script(ch, &first, 1);
        buf err;
        buf_init(&err);
        world_opts opts = { .chooser = ch, .explore = 1, .search = &fault_search };
        world *w = world_new(sc, &opts, &err);
        assert_non_null(w);
        assert_int_equal(world_run(w, &err), 0);
        int n;
        const fault_cfg *f = world_injected(w, &n);
        assert_int_equal(n, 1);
        assert_int_equal(f[0].kind, FAULT_DRIFT);
        assert_true(f[0].rate == want[i]);
        world_free(w);
        buf_release(&err);
        chooser_free(ch);
        scenario_free(sc);
    }
}

static void test_world_same_seed_same_bytes(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text(three_clients);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        chooser *c1 = chooser_new(CHOOSER_RUN, seed), *c2 = chooser_new(CHOOSER_RUN, seed);
        outcome a = run_with(sc, c1), b = run_with(sc, c2);
        assert_string_equal(a.jsonl, b.jsonl);
        assert_string_equal(a.trace, b.trace);
        assert_int_equal(mutex(&a), VERDICT_HOLDS);
        outcome_free(&a);
        outcome_free(&b);
        chooser_free(c1);
        chooser_free(c2);
    }
    scenario_free(sc);
}

static void test_world_other_seed_other_run(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text(three_clients);
    chooser *c1 = chooser_new(CHOOSER_RUN, 1), *c2 = chooser_new(CHOOSER_RUN, 2);
    outcome a = run_with(sc, c1), b = run_with(sc, c2);
    assert_string_not_equal(a.jsonl, b.jsonl);
    outcome_free(&a);
    outcome_free(&b);
    chooser_free(c1);
    chooser_free(c2);
    scenario_free(sc);
}

static void test_world_choice_list_replays_exactly(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text(three_clients);
    chooser *rec = chooser_new(CHOOSER_RUN, 99);
    outcome a = run_with(sc, rec);
    buf file;
    buf_init(&file);
    chooser_write(rec, &file);
    choice *v;
    size_t n;
    buf err;
    buf_init(&err);
    assert_int_equal(chooser_parse(file.p, &v, &n, &err), 0);
    chooser *rep = chooser_new(CHOOSER_REPLAY, 12345); /* a different seed: the list decides */
    chooser_set_script(rep, v, n);
    outcome b = run_with(sc, rep);
    assert_string_equal(a.jsonl, b.jsonl);
    assert_false(chooser_exhausted(rep));
    free(v);
    buf_release(&file);
    buf_release(&err);
    outcome_free(&a);
    outcome_free(&b);
    chooser_free(rec);
    chooser_free(rep);
    scenario_free(sc);
}

/* Kleppmann: A's lease runs out during its pause; B acquires; both are "inside". */
static void test_world_gc_pause_breaks_mutual_exclusion(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  clients = { { name = 'A', work = '15s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
                              "  faults = { { at = '1s', gc_pause = 'A', duration = '12s' } },\n"
                              "  duration = '60s',\n"));
    assert_int_equal(o.rc, 0);
    assert_int_equal(mutex(&o), VERDICT_VIOLATED);
    assert_int_equal(o.cr.p[PROP_RESOURCE_SAFETY].v, VERDICT_VIOLATED);
    /* The pause ends at 13 s; A's release happens after its 15 s of work, and the key it
     * finds is no longer its own. */
    assert_non_null(strstr(o.trace, "GC pause of A for 12000 ms"));
    assert_non_null(strstr(o.trace, "the lock was no longer mine"));
    outcome_free(&o);
}

/* The properties in monitor form: fed the history one event at a time, mutual exclusion is
 * known violated once both clients are inside past their entries — long before the run ends
 * — and the verdicts at the end are check_run's, evidence and all. */
static void test_world_monitor_knows_before_the_end(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text(BASE("  clients = { { name = 'A', work = '15s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
                                           "  faults = { { at = '1s', gc_pause = 'A', duration = '12s' } },\n"
                                           "  duration = '60s',\n"));
    buf err;
    buf_init(&err);
    world_opts opts = { .seed = sc->seed };
    world *w = world_new(sc, &opts, &err);
    assert_non_null(w);
    assert_int_equal(world_run(w, &err), 0);
    const history *h = world_history(w);
    monitor *m = monitor_new(h, sc);
    size_t n = history_len(h), known = n;
    for (size_t i = 0; i < n; i++) {
        monitor_step(m, i);
        if (known == n && monitor_violated(m, PROP_MUTUAL_EXCLUSION)) known = i;
    }
    assert_true(known < n);
    /* known at the first event after B entered while A, paused, was still inside */
    assert_true(history_at(h, known)->t_us < 14000000);
    assert_false(monitor_violated(m, PROP_FAIRNESS)); /* not judged: the scenario does not expect it */
    check_result online, batch;
    monitor_finish(m, &online);
    check_run(h, sc, &batch);
    for (int p = 0; p < PROP_COUNT; p++) {
        assert_int_equal(online.p[p].v, batch.p[p].v);
        assert_int_equal(online.p[p].at_us, batch.p[p].at_us);
        assert_string_equal(online.p[p].evidence ? online.p[p].evidence : "", batch.p[p].evidence ? batch.p[p].evidence : "");
    }
    assert_int_equal(online.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
    check_free(&online);
    check_free(&batch);
    monitor_free(m);
    world_free(w);
    buf_release(&err);
    scenario_free(sc);
}

/* The Redis documentation's failover story, with asynchronous replication and with writes
 * acknowledged only once a majority of the master and its two replicas has them
 * (replication.commit = "quorum", a ZooKeeper or etcd ensemble): the crash inside the lag
 * loses A's lock in the first, and in the second A is never told it has a lock to lose. */
static void test_world_quorum_commit_survives_a_failover(void **state)
{
    (void)state;
    for (int quorum = 0; quorum < 2; quorum++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "return { name = 't', about = 'a', protocol = 'distlock', nodes = 1, replicas = 2,\n"
                 "  lease = '10s', wait = '30s', network = { delay = '2ms' },\n"
                 "  replication = { lag = '50ms', down_after = '1s', detection = '500ms', commit = '%s' },\n"
                 "  clients = { { name = 'A', work = '5s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
                 "  faults = { { at = '20ms', crash = 'n1' } }, duration = '30s' }\n",
                 quorum ? "quorum" : "async");
        outcome o = run_text(text);
        assert_int_equal(o.rc, 0);
        assert_int_equal(mutex(&o), quorum ? VERDICT_HOLDS : VERDICT_VIOLATED);
        /* quorum: the SET ran at 2 ms, and its reply was held; the crash dropped it */
        if (quorum) assert_non_null(strstr(o.trace, "gives up waiting for a reply"));
        outcome_free(&o);
    }
}

/* A reply that falls due during a pause is handled when the pause ends, not before. */
static void test_world_gc_pause_holds_replies(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  network = { delay = '10ms' },\n"
                              "  clients = { { name = 'A', work = '1s' } },\n"
                              "  faults = { { at = '5ms', gc_pause = 'A', duration = '500ms' } },\n"
                              "  duration = '10s',\n"));
    /* The SET was sent at 0 and answered at 20 ms, during the pause (5–505 ms). */
    const char *acq = strstr(o.jsonl, "\"ev\":\"acquired\"");
    assert_non_null(acq);
    const char *line = acq;
    while (line > o.jsonl && line[-1] != '\n') line--;
    assert_true(strncmp(line, "{\"t\":505.000,", 13) == 0);
    outcome_free(&o);
}

/* A node clock jumping forward past the TTL expires the key early (redlock-clock-jump's
 * mechanism, on one node). */
static void test_world_node_clock_jump_expires_lock(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  clients = { { name = 'A', work = '5s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
                              "  faults = { { at = '1s', clock_jump = 'n1', by = '20s' } },\n"
                              "  duration = '30s',\n"));
    assert_non_null(strstr(o.trace, "key lock EXPIRED"));
    assert_int_equal(mutex(&o), VERDICT_VIOLATED);
    outcome_free(&o);
}

static void test_world_no_fault_no_violation_with_drift(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  clock = { drift = 0.005 },\n"
                              "  clients = { { name = 'A', work = '1s', rounds = 2 }, { name = 'B', work = '1s', rounds = 2 } },\n"
                              "  duration = '60s',\n"));
    assert_int_equal(mutex(&o), VERDICT_HOLDS);
    outcome_free(&o);
}

/* Crash and restart: without persistence the lock is forgotten; with fsync always it is
 * not. */
static void crash_restart(const char *persist, verdict want)
{
    char text[1024];
    snprintf(text, sizeof text,
             BASE("  persistence = '%s', timeout = '100ms',\n"
                  "  clients = { { name = 'A', work = '5s' }, { name = 'B', start = '1s', work = '1s' } },\n"
                  "  faults = { { at = '2500ms', crash = 'n1' }, { at = '2600ms', restart = 'n1' } },\n"
                  "  duration = '60s',\n"),
             persist);
    outcome o = run_text(text);
    assert_int_equal(mutex(&o), want);
    outcome_free(&o);
}

static void test_world_crash_restart_without_persistence_forgets(void **state)
{
    (void)state;
    crash_restart("none", VERDICT_VIOLATED);
}

static void test_world_crash_restart_with_fsync_always_remembers(void **state)
{
    (void)state;
    crash_restart("always", VERDICT_HOLDS);
}

static void test_world_crash_restart_everysec_keeps_old_writes(void **state)
{
    (void)state;
    /* The lock was written at ~0 s; fsyncs at 1 s and 2 s saved it before the crash. */
    crash_restart("everysec", VERDICT_HOLDS);
}

/* The master dies before the write replicates; the replica is promoted; B acquires. */
static void test_world_failover_loses_the_lock(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  replicas = 1,\n"
                              "  replication = { lag = {'50ms', '100ms'}, down_after = '1s', detection = '500ms' },\n"
                              "  clients = { { name = 'A', work = '5s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
                              "  faults = { { at = '20ms', crash = 'n1' } },\n"
                              "  duration = '30s', seed = 3,\n"));
    assert_non_null(strstr(o.trace, "promoted to master in place of n1"));
    assert_non_null(strstr(o.trace, "its master crashed before sending it"));
    assert_int_equal(mutex(&o), VERDICT_VIOLATED);
    outcome_free(&o);
}

/* With a long replication lag absent (the write replicated long before the crash), the
 * promoted replica still holds the lock: no violation. */
static void test_world_failover_after_replication_is_safe(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  replicas = 1,\n"
                              "  replication = { lag = '1ms', down_after = '1s', detection = '500ms' },\n"
                              "  clients = { { name = 'A', work = '5s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
                              "  faults = { { at = '2s', crash = 'n1' } },\n"
                              "  duration = '30s',\n"));
    assert_int_equal(mutex(&o), VERDICT_HOLDS);
    outcome_free(&o);
}

static void test_world_partition_drops_and_times_out(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  timeout = '500ms',\n"
                              "  clients = { { name = 'A', start = '100ms', work = '1s' } },\n"
                              "  faults = { { at = 0, partition = { {'A'}, {'n1'} }, duration = '1s' } },\n"
                              "  duration = '20s',\n"));
    assert_non_null(strstr(o.trace, "lost (partition)"));
    assert_non_null(strstr(o.trace, "gives up waiting for a reply (timeout)"));
    assert_non_null(strstr(o.trace, "ACQUIRED the lock")); /* after the partition heals */
    outcome_free(&o);
}

static void test_world_total_loss_on_a_link(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  timeout = '200ms', wait = '2s',\n"
                              "  clients = { { name = 'A', work = '1s' } },\n"
                              "  faults = { { at = 0, drop = {'A', 'n1'}, probability = 1 } },\n"
                              "  duration = '20s',\n"));
    assert_non_null(strstr(o.trace, "lost (loss)"));
    assert_null(strstr(o.trace, "ACQUIRED the lock"));
    assert_non_null(strstr(o.trace, "gives up acquiring"));
    outcome_free(&o);
}

/* A crashed client's lock stays until its lease runs out. */
static void test_world_client_crash_leaves_lock_until_expiry(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  clients = { { name = 'A', work = '30s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
                              "  faults = { { at = '1s', crash = 'A' } },\n"
                              "  duration = '60s',\n"));
    assert_int_equal(mutex(&o), VERDICT_HOLDS);
    const char *exp = strstr(o.jsonl, "\"ev\":\"key_expired\"");
    assert_non_null(exp);
    const char *acq = strstr(o.jsonl, "\"ev\":\"acquired\",\"actor\":\"B\"");
    assert_non_null(acq);
    assert_true(acq > exp);
    outcome_free(&o);
}

static void test_world_restart_delay_brings_the_node_back(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  restart_delay = '500ms', timeout = '100ms',\n"
                              "  clients = { { name = 'A', start = '2s', work = '1s' } },\n"
                              "  faults = { { at = '1s', crash = 'n1' } },\n"
                              "  duration = '10s',\n"));
    const char *up = strstr(o.jsonl, "\"ev\":\"node_up\"");
    assert_non_null(up);
    const char *line = up;
    while (line > o.jsonl && line[-1] != '\n') line--;
    assert_true(strncmp(line, "{\"t\":1500.000,", 14) == 0);
    assert_non_null(strstr(o.trace, "restarted empty (no persistence)"));
    assert_non_null(strstr(o.trace, "ACQUIRED the lock"));
    outcome_free(&o);
}

/* A forced failover: the replica becomes master at once, the old master becomes its replica,
 * and clients send to the new master after the detection delay. */
static void test_world_forced_failover_reroutes_clients(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  replicas = 1, replication = { lag = '1ms', detection = '200ms' },\n"
                              "  clients = { { name = 'A', work = '100ms', rounds = 10, think = '100ms' } },\n"
                              "  faults = { { at = '1s', failover = 'n1' } },\n"
                              "  duration = '10s',\n"));
    assert_non_null(strstr(o.trace, "n1r1  promoted to master in place of n1"));
    assert_non_null(strstr(o.trace, "→ n1r1"));
    assert_null(strstr(o.trace, "MODEL ERROR"));
    outcome_free(&o);
}

/* A master cut off from its replica for down_after is replaced while still up (split
 * brain); when the partition heals it rejoins as a replica and drops its own data. */
static void test_world_partition_failover_and_rejoin(void **state)
{
    (void)state;
    outcome o = run_text(BASE("  replicas = 1, timeout = '200ms',\n"
                              "  replication = { lag = '1ms', down_after = '1s', detection = '200ms' },\n"
                              "  clients = { { name = 'A', work = '5s' }, { name = 'B', start = '500ms', work = '1s' } },\n"
                              "  faults = { { at = '100ms', partition = { {'A', 'n1'}, {'B', 'n1r1'} }, duration = '3s' } },\n"
                              "  duration = '20s',\n"));
    const char *promoted = strstr(o.trace, "1.100s  n1r1  promoted to master in place of n1");
    const char *rejoined = strstr(o.trace, "3.100s  n1    rejoins as a replica of n1r1");
    assert_non_null(promoted);
    assert_non_null(rejoined);
    assert_true(promoted < rejoined);
    /* the history says what n1 holds after it threw its own data away: n1r1's copy of A's lock */
    const char *resync = strstr(o.jsonl, "\"ev\":\"keyspace\",\"actor\":\"n1\"");
    assert_non_null(resync);
    const char *eol = strchr(resync, '\n');
    assert_true(in_line(resync, "\"text\":\"full resynchronisation from n1r1\""));
    const char *value = strstr(resync, "\\\"lock\\\" string at=");
    assert_true(value && value < eol);
    assert_true(strstr(value, "\\\"A:") && strstr(value, "\\\"A:") < eol);
    outcome_free(&o);
}

/* A key_set carries the key's deadline on the node's clock (a SET ... PX 10000 at local L:
 * L + 10000); after a restart a keyspace event gives what persistence kept, as text and as
 * typed records (`keys`): everything with fsync always, nothing without persistence. */
static void restart_keyspace(const char *persist, int kept)
{
    char text[1024];
    snprintf(text, sizeof text,
             BASE("  persistence = '%s', timeout = '100ms',\n"
                  "  clients = { { name = 'A', work = '5s' } },\n"
                  "  faults = { { at = '2500ms', crash = 'n1' }, { at = '2600ms', restart = 'n1' } },\n"
                  "  duration = '10s',\n"),
             persist);
    outcome o = run_text(text);
    const char *set = strstr(o.jsonl, "\"ev\":\"key_set\"");
    assert_non_null(set);
    long long local = -1, deadline = -1;
    assert_int_equal(sscanf(set, "\"ev\":\"key_set\",\"actor\":\"n1\",\"local\":%lld,\"deadline\":%lld", &local, &deadline), 2);
    assert_int_equal(deadline, local + 10000);
    const char *ks = strstr(o.jsonl, "\"ev\":\"keyspace\",\"actor\":\"n1\"");
    assert_non_null(ks);
    char want[128];
    snprintf(want, sizeof want, "\"text\":\"restart\",\"reply\":\"%s", kept ? "\\\"lock\\\" string at=" : "\",\"why\":\"restart\",\"keys\":[]}");
    assert_true(in_line(ks, want));
    if (kept) {
        snprintf(want, sizeof want, "at=%lld \\\"A:", deadline);
        assert_true(in_line(ks, want));
        /* and the same key as a typed record, from the node's store */
        snprintf(want, sizeof want, "\"keys\":[{\"name\":\"lock\",\"type\":\"string\",\"deadline\":%lld,\"value\":\"\\\"A:",
                 deadline);
        assert_true(in_line(ks, want));
    }
    outcome_free(&o);
}

static void test_world_history_gives_deadlines_and_restored_data(void **state)
{
    (void)state;
    restart_keyspace("always", 1);
    restart_keyspace("none", 0);
}

static void test_world_exponential_delays(void **state)
{
    (void)state;
    const char *text = BASE("  network = { delay = { exponential = '3ms' } },\n"
                            "  clients = { { name = 'A', work = '10ms', rounds = 20 }, { name = 'B', work = '10ms', rounds = 20 } },\n"
                            "  duration = '60s',\n");
    outcome a = run_text(text), b = run_text(text);
    assert_string_equal(a.jsonl, b.jsonl);
    assert_int_equal(mutex(&a), VERDICT_HOLDS);
    assert_int_equal(a.rc, 0);
    outcome_free(&a);
    outcome_free(&b);
}

static void test_world_model_error_ends_cleanly(void **state)
{
    (void)state;
    /* distlock asserts that a lease is given: run it without one. */
    outcome o = run_text(BASE("  lease = false, clients = { { name = 'A' } }, duration = '1s',\n"));
    assert_int_equal(o.rc, -1);
    assert_non_null(strstr(o.err, "client A"));
    assert_non_null(strstr(o.err, "distlock needs a lease"));
    assert_non_null(strstr(o.err, "stack traceback"));
    outcome_free(&o);
}

/* ---- client models written for the tests (in a data directory of their own) ---- */

static const char *probe_model =
    "local M = {}\n"
    "function M.new(ctx, cfg)\n"
    "  local node = ctx:nodes()[1]\n"
    "  local lock = {}\n"
    "  function lock.acquire()\n"
    "    local mode = cfg.options.mode\n"
    "    if mode == 'pubsub' and ctx:name() == 'A' then\n"
    "      local sub = ctx:subscribe(node, 'ch')\n"
    "      ctx:log('A got %s', tostring(ctx:wait(sub, 5000)))\n"
    "      ctx:log('then %s', tostring(ctx:wait(sub, 100)))\n"
    "      ctx:unsubscribe(sub)\n"
    "    elseif mode == 'pubsub' then\n"
    "      ctx:sleep(1000)\n"
    "      ctx:log('B published to %d', ctx:call(node, 'PUBLISH', 'ch', 'hello'))\n"
    "    elseif mode == 'spawn' then\n"
    "      ctx:spawn(function(who) for i = 1, 100 do ctx:sleep(300); ctx:log('%s tick %d', who, i) end end, 'helper')\n"
    "      ctx:sleep(1000)\n"
    "      ctx:log('main done')\n"
    "    elseif mode == 'loop' then\n"
    "      while true do end\n"
    "    elseif mode == 'yield' then\n"
    "      coroutine.yield()\n"
    "    elseif mode == 'random' then\n"
    "      return math.random(10)\n"
    "    elseif mode == 'wait' then\n"
    "      ctx:call(node, 'SET', 'k', 'v')\n"
    "      local t = ctx:now()\n"
    "      local n, err = ctx:call(node, 'WAIT', 1, 1000)\n"
    "      ctx:log('WAIT 1 1000 -> %s %s after %d ms', tostring(n), tostring(err), ctx:now() - t)\n"
    "      ctx:log('replica: %s', select(2, ctx:call('n1r1', 'WAIT', 0, 0)))\n"
    "      ctx:log('bad: %s', select(2, ctx:call(node, 'WAIT', 1, -5)))\n"
    "    elseif mode == 'overunlock' then  -- lets its holder in again without counting\n"
    "      ctx:call(node, 'SET', cfg.lock, ctx:name(), 'NX', 'PX', 10000)\n"
    "      ctx:call(node, 'SET', cfg.lock, ctx:name(), 'XX', 'PX', 10000)\n"
    "      ctx:lock_unit('reentered')\n"
    "      return true\n"
    "    elseif mode == 'badunit' then\n"
    "      for _, args in ipairs({ { 42 }, { 'nonsense' }, { 'key' }, { 'prefix', '' }, { 'key', {} }, { 'key', 'a\\0b' } }) do\n"
    "        local ok, err = pcall(ctx.lock_unit, ctx, table.unpack(args))\n"
    "        ctx:log('lock_unit %s: %s', tostring(args[1]), tostring(err))\n"
    "      end\n"
    "      ctx:lock_unit('prefix', 'locks/')\n"
    "      return false, 'probe'\n"
    "    end\n"
    "    return false, 'probe'\n"
    "  end\n"
    "  function lock.release()\n"
    "    if cfg.options.mode ~= 'overunlock' then return true end\n"
    "    ctx:call(node, 'DEL', cfg.lock)  -- the inner release frees the lock\n"
    "    ctx:lock_unit('inner_released')\n"
    "    ctx:call(node, 'DEL', cfg.lock)\n"
    "    return true\n"
    "  end\n"
    "  return lock\n"
    "end\n"
    "return M\n";

static char test_home[64];

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A data directory with the real scripts and models plus the probe model. */
static void make_test_home(void)
{
    char cwd[1024], cmd[8192];
    if (!getcwd(cwd, sizeof cwd)) abort();
    snprintf(test_home, sizeof test_home, "/tmp/locklab-world-XXXXXX");
    if (!mkdtemp(test_home)) abort();
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/lua/clients && ln -s %s/lua/redis %s/lua/redis && "
             "ln -s %s/lua/clients/workload.lua %s/lua/clients/ && ln -s %s/lua/clients/distlock.lua %s/lua/clients/ && "
             "ln -s %s/lua/clients/pg-advisory-blocking.lua %s/lua/clients/ && "
             "ln -s %s/lua/clients/pg-advisory.lua %s/lua/clients/",
             test_home, cwd, test_home, cwd, test_home, cwd, test_home, cwd, test_home, cwd, test_home);
    if (system(cmd) != 0) abort();
    char path[256];
    snprintf(path, sizeof path, "%s/lua/clients/probe.lua", test_home);
    write_text(path, probe_model);
    setenv("LOCKLAB_HOME", test_home, 1);
}

#define PROBE(mode, extra)                                                                       \
    "return { name = 'probe', about = 'a test', protocol = 'probe', nodes = 1,\n"                 \
    "  options = { mode = '" mode "' }, network = { delay = '1ms' },\n" extra "}\n"

static void test_world_pubsub_delivers_and_times_out(void **state)
{
    (void)state;
    outcome o = run_text(PROBE("pubsub", "  clients = { { name = 'A' }, { name = 'B' } }, duration = '10s',\n"));
    assert_int_equal(o.rc, 0);
    assert_non_null(strstr(o.trace, "B published to 1"));
    assert_non_null(strstr(o.trace, "message on ch: hello"));
    assert_non_null(strstr(o.trace, "A got hello"));
    assert_non_null(strstr(o.trace, "then nil"));
    outcome_free(&o);
}

static void test_world_spawned_coroutines_run_until_the_workload_ends(void **state)
{
    (void)state;
    outcome o = run_text(PROBE("spawn", "  clients = { { name = 'A' } }, duration = '60s',\n"));
    assert_int_equal(o.rc, 0);
    assert_non_null(strstr(o.trace, "helper tick 3"));
    assert_non_null(strstr(o.trace, "main done"));
    assert_null(strstr(o.trace, "helper tick 4")); /* the client finished at 1 s */
    outcome_free(&o);
}

/* reentrancy: a holder that took the lock twice (ctx:lock_unit "reentered") and whose first
 * release deletes it is caught; the lock_unit events are in the history. */
static void test_world_reentrancy_catches_an_extra_unlock(void **state)
{
    (void)state;
    outcome o = run_text(PROBE("overunlock", "  clients = { { name = 'A', work = '100ms' } }, duration = '5s',\n"
                                             "  expect = { reentrancy = 'holds' },\n"));
    assert_int_equal(o.rc, 0);
    assert_int_equal(o.cr.p[PROP_REENTRANCY].v, VERDICT_VIOLATED);
    assert_non_null(strstr(o.cr.p[PROP_REENTRANCY].evidence, "A held the lock twice"));
    assert_non_null(strstr(o.cr.p[PROP_REENTRANCY].evidence, "its own command deleted lock on n1"));
    assert_non_null(strstr(o.jsonl, "\"ev\":\"lock_unit\",\"actor\":\"A\",\"local\":1700000000004,\"op\":\"reentered\"}"));
    assert_null(strstr(o.trace, "lock_unit")); /* for the checker, not narrated */
    outcome_free(&o);
}

/* ctx:lock_unit refuses what it cannot take, as a Lua error the model may catch; nothing
 * leaks (ASan), and a good call after them is recorded. */
static void test_world_lock_unit_bad_arguments(void **state)
{
    (void)state;
    outcome o = run_text(PROBE("badunit", "  clients = { { name = 'A' } }, duration = '1s',\n"));
    assert_int_equal(o.rc, 0);
    assert_non_null(strstr(o.trace, "lock_unit 42: ctx:lock_unit: unknown op '42'"));
    assert_non_null(strstr(o.trace, "lock_unit nonsense: ctx:lock_unit: unknown op 'nonsense'"));
    assert_non_null(strstr(o.trace, "lock_unit key: bad argument #3 to '?' (string expected, got no value)"));
    assert_non_null(strstr(o.trace, "lock_unit prefix: ctx:lock_unit: the prefix must be a non-empty name"));
    assert_non_null(strstr(o.trace, "bad argument #3 to '?' (string expected, got table)"));
    assert_non_null(strstr(o.trace, "ctx:lock_unit: the key must be a non-empty name without NUL bytes"));
    assert_non_null(strstr(o.jsonl, "\"ev\":\"lock_unit\",\"actor\":\"A\",\"local\":1700000000000,\"text\":\"locks/\",\"op\":\"prefix\"}"));
    outcome_free(&o);
}

/* WAIT at a master: answered once the replica acknowledged the client's write (GETACK on the
 * replication stream, ACK back over the net); with the replica cut off, the count 0 at the
 * timeout; refused at a replica; a negative timeout refused. */
static void test_world_wait_counts_replica_acks(void **state)
{
    (void)state;
    const char *repl = "  replicas = 1, replication = { lag = '50ms', down_after = '60s' },\n"
                       "  clients = { { name = 'A' } }, duration = '5s',\n";
    char text[2048];
    snprintf(text, sizeof text, PROBE("wait", "%s"), repl);
    outcome o = run_text(text);
    assert_int_equal(o.rc, 0);
    /* request 1 ms, GETACK 50 ms of lag, ACK 1 ms, reply 1 ms */
    assert_non_null(strstr(o.trace, "WAIT 1 1000 -> 1 nil after 53 ms"));
    assert_non_null(strstr(o.trace, "replica: ERR WAIT cannot be used with replica instances."));
    assert_non_null(strstr(o.trace, "bad: ERR timeout is negative"));
    outcome_free(&o);
    char cut[1024];
    snprintf(cut, sizeof cut, "%s  faults = { { at = 0, partition = { { 'n1', 'A' }, { 'n1r1' } }, duration = '3s' } },\n",
             repl);
    snprintf(text, sizeof text, PROBE("wait", "%s"), cut);
    o = run_text(text);
    assert_int_equal(o.rc, 0);
    assert_non_null(strstr(o.trace, "WAIT 1 1000 -> 0 nil after 1002 ms"));
    outcome_free(&o);
}

static void test_world_runaway_model_is_stopped(void **state)
{
    (void)state;
    outcome o = run_text(PROBE("loop", "  clients = { { name = 'A' } }, duration = '1s',\n"));
    assert_int_equal(o.rc, -1);
    assert_non_null(strstr(o.err, "without waiting"));
    outcome_free(&o);
}

static void test_world_model_may_not_yield_or_use_math_random(void **state)
{
    (void)state;
    outcome o = run_text(PROBE("yield", "  clients = { { name = 'A' } }, duration = '1s',\n"));
    assert_int_equal(o.rc, -1);
    /* Coroutines are the simulator's business: the library is not there at all. */
    assert_non_null(strstr(o.err, "global 'coroutine'"));
    outcome_free(&o);
    o = run_text(PROBE("random", "  clients = { { name = 'A' } }, duration = '1s',\n"));
    assert_int_equal(o.rc, -1);
    assert_non_null(strstr(o.err, "ctx:random"));
    outcome_free(&o);
}

/* A request the server parks (the fake PostgreSQL's pg_advisory_lock waiting for a lock): its
 * exec is traced as waiting; a waiter that crashes is dropped with its session and never
 * answered; the release hands the lock to the next waiter, whose answer is an exec of its own
 * right after the release's. */
static void test_world_parked_requests_answered_later(void **state)
{
    (void)state;
    outcome o = run_text(
        "return { name = 't', about = 'a test', protocol = 'pg-advisory-blocking', server = 'postgresql', nodes = 1,\n"
        "  lease = false, wait = '30s', timeout = '60s', network = { delay = {'1ms', '5ms'} },\n"
        "  clients = { { name = 'A', work = '3s' }, { name = 'B', start = '100ms', work = '1s' },\n"
        "              { name = 'C', start = '200ms', work = '1s' } },\n"
        "  faults = { { at = '1s', crash = 'B' } },\n"
        "  duration = '20s', seed = 1 }\n");
    assert_int_equal(o.rc, 0);
    assert_int_equal(mutex(&o), VERDICT_HOLDS);
    assert_int_equal(o.cr.p[PROP_NO_DEADLOCK].v, VERDICT_HOLDS);
    assert_non_null(strstr(o.trace, "AS got for B → (waits in the server)"));
    const char *wait_c = strstr(o.trace, "AS got for C → (waits in the server)");
    const char *unlock = strstr(o.trace, "runs SELECT pg_advisory_unlock(2090479056) AS released for A → t");
    const char *grant = strstr(o.trace, "runs SELECT pg_advisory_lock(2090479056) AS got for C → ''");
    assert_non_null(wait_c);
    assert_non_null(unlock);
    assert_non_null(grant);
    assert_true(wait_c < unlock && unlock < grant);
    assert_null(strstr(o.trace, "AS got for B → ''"));
    assert_null(strstr(o.trace, "B     ACQUIRED"));
    assert_non_null(strstr(grant, "C     ACQUIRED the lock"));
    outcome_free(&o);
}

int main(void)
{
    make_test_home();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_world_event_budget_stops_a_run),
        cmocka_unit_test(test_world_explored_drift_keeps_its_sign),
        cmocka_unit_test(test_world_same_seed_same_bytes),
        cmocka_unit_test(test_world_other_seed_other_run),
        cmocka_unit_test(test_world_choice_list_replays_exactly),
        cmocka_unit_test(test_world_gc_pause_breaks_mutual_exclusion),
        cmocka_unit_test(test_world_monitor_knows_before_the_end),
        cmocka_unit_test(test_world_quorum_commit_survives_a_failover),
        cmocka_unit_test(test_world_gc_pause_holds_replies),
        cmocka_unit_test(test_world_node_clock_jump_expires_lock),
        cmocka_unit_test(test_world_no_fault_no_violation_with_drift),
        cmocka_unit_test(test_world_crash_restart_without_persistence_forgets),
        cmocka_unit_test(test_world_crash_restart_with_fsync_always_remembers),
        cmocka_unit_test(test_world_crash_restart_everysec_keeps_old_writes),
        cmocka_unit_test(test_world_failover_loses_the_lock),
        cmocka_unit_test(test_world_failover_after_replication_is_safe),
        cmocka_unit_test(test_world_partition_drops_and_times_out),
        cmocka_unit_test(test_world_total_loss_on_a_link),
        cmocka_unit_test(test_world_client_crash_leaves_lock_until_expiry),
        cmocka_unit_test(test_world_restart_delay_brings_the_node_back),
        cmocka_unit_test(test_world_forced_failover_reroutes_clients),
        cmocka_unit_test(test_world_partition_failover_and_rejoin),
        cmocka_unit_test(test_world_history_gives_deadlines_and_restored_data),
        cmocka_unit_test(test_world_exponential_delays),
        cmocka_unit_test(test_world_model_error_ends_cleanly),
        cmocka_unit_test(test_world_pubsub_delivers_and_times_out),
        cmocka_unit_test(test_world_spawned_coroutines_run_until_the_workload_ends),
        cmocka_unit_test(test_world_wait_counts_replica_acks),
        cmocka_unit_test(test_world_runaway_model_is_stopped),
        cmocka_unit_test(test_world_reentrancy_catches_an_extra_unlock),
        cmocka_unit_test(test_world_lock_unit_bad_arguments),
        cmocka_unit_test(test_world_model_may_not_yield_or_use_math_random),
        cmocka_unit_test(test_world_parked_requests_answered_later),
    };
    int failed = cmocka_run_group_tests_name("world", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", test_home);
    if (system(cmd) != 0) failed++;
    return failed;
}
