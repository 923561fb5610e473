/* test_redisson.c — the Redisson client models (lua/clients/redisson.lua, redisson-fenced.lua)
 * through the scenarios that teach them: what the verdict table cannot pin. The release
 * outcome of an expired unlock per script version (#2018), Kleppmann's tokens 33 and 34, the
 * watchdog's renewals, the HEAD watchdog retrying through a partition, re-entry, and the
 * resend schedule of RedisExecutor per release (in virtual time). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scenario_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "history.h"
#include "scenario.h"
#include "world.h"

typedef struct run {
    scenario *sc;
    world *w;
    check_result cr;
} run;

static run run_scenario(scenario *sc)
{
    run r = { .sc = sc };
    buf err;
    buf_init(&err);
    world_opts opts = { .seed = sc->seed };
    r.w = world_new(sc, &opts, &err);
    if (!r.w) fail_msg("world_new: %s", err.p);
    if (world_run(r.w, &err) != 0) fail_msg("world_run: %s", err.p);
    buf_release(&err);
    check_run(world_history(r.w), sc, &r.cr);
    return r;
}

static scenario *load_file(const char *path)
{
    buf err;
    buf_init(&err);
    scenario *sc = scenario_load(path, &err);
    if (!sc) fail_msg("%s did not load: %s", path, err.p);
    buf_release(&err);
    return sc;
}

static run run_file(const char *path)
{
    return run_scenario(load_file(path));
}

static run run_text(const char *text)
{
    return run_scenario(load_scenario_text(text));
}

/* run_text of fmt with its one %s replaced by arg (a version, an option). */
static run run_textf(const char *fmt, const char *arg)
{
    char text[1024];
    if (snprintf(text, sizeof text, fmt, arg) >= (int)sizeof text) fail_msg("scenario text too long");
    return run_text(text);
}

static void run_free(run *r)
{
    check_free(&r->cr);
    world_free(r->w);
    scenario_free(r->sc);
}

static int actor_is(const history *h, const hist_event *e, const char *name)
{
    return e->actor >= 0 && !strcmp(history_actor_name(h, e->actor), name);
}

/* The n-th (from 1) event of `kind` by `actor`, or NULL. */
static const hist_event *nth(const run *r, const char *actor, hist_kind kind, int n)
{
    const history *h = world_history(r->w);
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        if (e->kind == kind && actor_is(h, e, actor) && --n == 0) return e;
    }
    return NULL;
}

/* How many events of `kind` by `actor` have a text containing `needle`. */
static int events_with(const run *r, const char *actor, hist_kind kind, const char *needle)
{
    const history *h = world_history(r->w);
    int n = 0;
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        if (e->kind == kind && actor_is(h, e, actor) && e->text && strstr(e->text, needle)) n++;
    }
    return n;
}

/* How many log lines of `actor` contain `needle`. */
static int logs_with(const run *r, const char *actor, const char *needle)
{
    return events_with(r, actor, H_LOG, needle);
}

/* How many requests `actor` sent whose label contains `needle`. */
static int requests_with(const run *r, const char *actor, const char *needle)
{
    return events_with(r, actor, H_REQUEST, needle);
}

static void test_unlock_after_expiry_head_throws(void **state)
{
    (void)state;
    run r = run_file("scenarios/unlock-after-expiry.lua");
    const hist_event *e = nth(&r, "A", H_RELEASED, 1);
    assert_non_null(e);
    assert_non_null(e->text);
    assert_non_null(strstr(e->text, "IllegalMonitorStateException: attempt to unlock lock, "
                                    "not locked by current thread by node id: "));
    assert_non_null(strstr(e->text, " thread-id: 1"));
    run_free(&r);
}

static void test_unlock_after_expiry_344_is_silent(void **state)
{
    (void)state;
    run r = run_file("scenarios/unlock-after-expiry-3.4.4.lua");
    const hist_event *e = nth(&r, "A", H_RELEASED, 1);
    assert_non_null(e);
    assert_string_equal(e->text, "released");
    run_free(&r);
}

static void test_fencing_tokens_are_33_and_34(void **state)
{
    (void)state;
    run r = run_file("scenarios/gc-pause-fencing.lua");
    const hist_event *a = nth(&r, "A", H_ACQUIRED, 1), *b = nth(&r, "B", H_ACQUIRED, 1);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->a, 33);
    assert_int_equal(b->a, 34);
    /* A's second write, after its pause, carries 33 and is refused. */
    const hist_event *w = nth(&r, "A", H_WRITE, 2);
    assert_non_null(w);
    assert_int_equal(w->a, 33);
    assert_int_equal(w->b, 0);
    run_free(&r);
}

static void test_watchdog_renews_every_10s(void **state)
{
    (void)state;
    run r = run_file("scenarios/watchdog-long-work.lua");
    /* 45 s of work: renewals at about 10, 20, 30 and 40 s. */
    assert_int_equal(logs_with(&r, "A", "watchdog renewed the lease to 30000 ms"), 4);
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_HOLDS);
    run_free(&r);
}

static void test_head_watchdog_keeps_trying_through_a_partition(void **state)
{
    (void)state;
    run r = run_file("scenarios/partitioned-holder.lua");
    /* renewal at 10 s, 4 resends, fails at about 30 s; again 10 s later: its resends reach n1
     * once the partition heals at 55 s, after the lock lapsed */
    assert_int_equal(logs_with(&r, "A", "Can't update locks [lock] expiration"), 1);
    assert_int_equal(logs_with(&r, "A", "occurred after 4 of 4 retry attempts"), 1);
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
    run_free(&r);
}

/* The 3.x per-lock watchdog (renew@3.43.0) stops after its first failed renewal. */
static void test_343_watchdog_stops_on_error(void **state)
{
    (void)state;
    run r = run_text(
        "return { name = 'x', about = 'x', protocol = 'redisson', scripts = 'redisson@3.43.0',\n"
        "  lease = false, wait = '60s',\n"
        "  clients = { { name = 'A', work = '60s' }, { name = 'B', start = '100ms' } },\n"
        "  faults = { { at = '5s', partition = { { 'A' }, { 'n1', 'B' } }, duration = '50s' } },\n"
        "  duration = '90s' }\n");
    assert_int_equal(logs_with(&r, "A", "the watchdog stops"), 1);
    assert_int_equal(logs_with(&r, "A", "Can't update lock"), 1);
    run_free(&r);
}

/* ---- RedisExecutor's resends, per release: the virtual times of A's renewal requests while
 * a 50 s partition (from 5 s) loses every one of them (lua/clients/redisson.lua, "How Redisson
 * sends a command"). */

static run run_partitioned_watchdog(const char *version)
{
    return run_textf("return { name = 'x', about = 'x', protocol = 'redisson', scripts = 'redisson@%s',\n"
                     "  lease = false, wait = '60s',\n"
                     "  clients = { { name = 'A', work = '60s' }, { name = 'B', start = '100ms' } },\n"
                     "  faults = { { at = '5s', partition = { { 'A' }, { 'n1', 'B' } }, duration = '50s' } },\n"
                     "  duration = '90s' }\n",
                     version);
}

/* The true times (µs) of A's renewal requests, at most `cap`; how many there were. */
static int renewal_times(const run *r, int64_t *at, int cap)
{
    const history *h = world_history(r->w);
    int n = 0;
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        if (e->kind != H_REQUEST || !actor_is(h, e, "A") || !e->text || !strstr(e->text, "redisson/renew")) continue;
        if (n < cap) at[n] = e->t_us;
        n++;
    }
    return n;
}

/* When A's first renewal went out (µs): 10 s, by A's clock which counts whole ms, after the
 * lock was acquired. */
static int64_t first_renewal(const run *r, const int64_t *at)
{
    const hist_event *e = nth(r, "A", H_ACQUIRED, 1);
    assert_non_null(e);
    assert_true(at[0] >= e->t_us + 10000000 - 1000 && at[0] <= e->t_us + 10000000 + 1000);
    return at[0];
}

/* 3.4.4: no resend; the renewal fails at its timeout and the watchdog stops. */
static void test_resends_344_none(void **state)
{
    (void)state;
    run r = run_partitioned_watchdog("3.4.4");
    int64_t at[8];
    assert_int_equal(renewal_times(&r, at, 8), 1);
    first_renewal(&r, at);
    assert_int_equal(logs_with(&r, "A", "resending"), 0);
    assert_int_equal(logs_with(&r, "A", "the watchdog stops"), 1);
    run_free(&r);
}

/* The renewal and its 3 resends `gap_us` apart (the 3000 ms timeout plus the release's
 * delay), then the per-lock watchdog (renew@3.43.0 text) stops. */
static void expect_three_resends(const char *version, int64_t gap_us)
{
    run r = run_partitioned_watchdog(version);
    int64_t at[8];
    assert_int_equal(renewal_times(&r, at, 8), 4);
    int64_t t0 = first_renewal(&r, at);
    for (int i = 0; i < 4; i++) assert_int_equal(at[i], t0 + i * gap_us);
    assert_int_equal(logs_with(&r, "A", "occurred after 3 of 3 retry attempts"), 1);
    assert_int_equal(logs_with(&r, "A", "the watchdog stops"), 1);
    run_free(&r);
}

/* A server process that died behind a host that refuses connections (down = "refuses"):
 * every release retries the connection retryInterval (1500 ms) after each refusal, which
 * arrives one round trip (2 ms) after the attempt; HEAD 4 times with equal jitter. */
static run run_refused_watchdog(const char *version)
{
    return run_textf("return { name = 'x', about = 'x', protocol = 'redisson', scripts = 'redisson@%s',\n"
                     "  lease = false, wait = '60s', down = 'refuses', network = { delay = '1ms' },\n"
                     "  clients = { { name = 'A', work = '60s' }, { name = 'B', start = '100ms' } },\n"
                     "  faults = { { at = '5s', crash = 'n1' } },\n"
                     "  duration = '90s' }\n",
                     version);
}

static void test_connection_retries_by_release(void **state)
{
    (void)state;
    const char *versions[] = { "3.4.4", "3.11.1", "3.43.0", "HEAD" };
    for (int v = 0; v < 4; v++) {
        run r = run_refused_watchdog(versions[v]);
        int64_t at[8];
        int head = v == 3, n = renewal_times(&r, at, 8);
        first_renewal(&r, at);
        if (head) { /* 4 retries, then the renewal task tries again 10 s later (and so on) */
            assert_true(n > 6);
            for (int i = 1; i < 5; i++) {
                int64_t gap = at[i] - at[i - 1];
                assert_true(gap >= (i == 1 ? 502000 : 1002000) && gap <= (i == 1 ? 1002000 : 2002000));
            }
            assert_true(at[5] - at[4] >= 10000000);
        } else { /* 3 retries 1500 ms after each refusal, then the watchdog stops */
            assert_int_equal(n, 4);
            for (int i = 1; i < n; i++) assert_int_equal(at[i] - at[i - 1], 1502000);
            assert_int_equal(logs_with(&r, "A", "watchdog renewal: connection refused; retrying"), 3);
            assert_int_equal(logs_with(&r, "A", "watchdog renewal: RedisConnectionException: Unable to connect"), 1);
        }
        run_free(&r);
    }
}

/* 3.10.0-3.15.1 (3.11.1): three resends, each at once when the previous one timed out. */
static void test_resends_3111_at_once(void **state)
{
    (void)state;
    expect_three_resends("3.11.1", 3000000);
}

/* 3.15.2-3.47.x (3.43.0): three resends, retryInterval 1500 ms after each timeout. */
static void test_resends_343_every_4500ms(void **state)
{
    (void)state;
    expect_three_resends("3.43.0", 4500000);
}

/* 3.48.0-HEAD: four resends, EqualJitterDelay(1 s, 2 s): 500..1000 ms after the first
 * timeout, 1000..2000 ms after the others; 10 s after the last timeout the shared renewal
 * task tries again, with its own resends. */
static void test_resends_head_equal_jitter(void **state)
{
    (void)state;
    run r = run_partitioned_watchdog("HEAD");
    int64_t at[16];
    int n = renewal_times(&r, at, 16);
    assert_true(n >= 6);
    first_renewal(&r, at);
    int64_t gap = at[1] - at[0];
    assert_true(gap >= 3500000 && gap <= 4000000);
    for (int i = 2; i < 5; i++) {
        gap = at[i] - at[i - 1];
        assert_true(gap >= 4000000 && gap <= 5000000);
    }
    assert_int_equal(at[5], at[4] + 3000000 + 10000000);
    assert_true(logs_with(&r, "A", "occurred after 4 of 4 retry attempts") >= 1);
    run_free(&r);
}

/* The history says, as fields, which script each request ran (its exec and its reply say the
 * same) and which redis.call published the message a waiter got: Redisson's unlock script
 * PUBLISHes on the lock's channel, and the subscriber's publish event names that channel. */
static void test_history_types_scripts_and_publishes(void **state)
{
    (void)state;
    scenario *sc = load_file("scenarios/redisson-reentrant.lua");
    buf err;
    buf_init(&err);
    world_opts opts = { .seed = sc->seed, .verbose = 1 };
    world *w = world_new(sc, &opts, &err);
    if (!w) fail_msg("world_new: %s", err.p);
    if (world_run(w, &err) != 0) fail_msg("world_run: %s", err.p);
    const history *h = world_history(w);
    int scripts = 0, replies = 0, published = 0, delivered = 0;
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        if ((e->kind == H_REQUEST || e->kind == H_EXEC || e->kind == H_REPLY) && e->label) {
            /* the label a person reads starts with the id; the field is what a program reads */
            assert_non_null(strstr(e->label, "redisson/"));
            assert_int_equal(strncmp(e->text, e->label, strlen(e->label)), 0);
            scripts += e->kind == H_REQUEST;
            replies += e->kind == H_REPLY;
        }
        if (e->kind == H_CALL) {
            assert_non_null(e->cmd);
            if (e->label) {
                assert_true(!strcasecmp(e->cmd, "publish"));
                published++;
                for (size_t k = i + 1; k < history_len(h); k++) {
                    const hist_event *x = history_at(h, k);
                    if (x->kind == H_PUBLISH && x->peer == e->actor && !strcmp(x->text, e->label)) {
                        delivered++;
                        break;
                    }
                }
            }
        }
    }
    assert_true(scripts > 0 && replies > 0);
    assert_true(published > 0);
    assert_int_equal(delivered, published);
    buf_reset(&err);
    history_write_jsonl(h, &err);
    assert_non_null(strstr(err.p, "\"command\":\"PUBLISH\",\"published\":\"redisson_lock__channel:{lock}\""));
    buf_release(&err);
    world_free(w);
    scenario_free(sc);
}

/* From 3.37.0 the lock and unlock scripts go through syncedEvalNoRetry: never resent. */
static void test_lock_script_not_resent_from_3370(void **state)
{
    (void)state;
    static const char *fmt =
        "return { name = 'x', about = 'x', protocol = 'redisson', scripts = 'redisson@%s',\n"
        "  lease = '10s', wait = '20s',\n"
        "  clients = { { name = 'A', start = '1s' } },\n"
        "  faults = { { at = '500ms', partition = { { 'A' }, { 'n1' } }, duration = '5s' } },\n"
        "  duration = '30s' }\n";
    run r = run_textf(fmt, "3.43.0");
    assert_int_equal(logs_with(&r, "A", "lock script: no reply"), 0);
    assert_null(nth(&r, "A", H_ACQUIRED, 1));
    run_free(&r);
    /* 3.31.0 resends it 1500 ms after the timeout, past the partition: acquired */
    r = run_textf(fmt, "3.31.0");
    assert_int_equal(logs_with(&r, "A", "lock script: no reply within 3000 ms; resending in 1500 ms"), 1);
    assert_non_null(nth(&r, "A", H_ACQUIRED, 1));
    run_free(&r);
}


/* ---- version-true error paths ---- */

/* A fair-lock waiter whose acquire script times out inside tryLock's wait loop: since 4.7.0
 * it calls acquireFailed and leaves the queue (#5019); 4.6.0 throws and leaves its entry. */
static void test_fair_loop_timeout_acquire_failed_from_470(void **state)
{
    (void)state;
    static const char *fmt =
        "return { name = 'x', about = 'x', protocol = 'redisson-fair', options = { %s },\n"
        "  lease = '10s', wait = '8s', network = { delay = '5ms' },\n"
        "  clients = { { name = 'A', work = '6s' }, { name = 'B', start = '100ms' } },\n"
        "  faults = { { at = '118ms', partition = { { 'B' }, { 'n1', 'A' } }, duration = '2s' } },\n"
        "  duration = '20s' }\n";
    run r = run_textf(fmt, "");
    assert_int_equal(requests_with(&r, "B", "redisson-fair/acquire-failed"), 1);
    assert_int_equal(logs_with(&r, "B", "since 4.7.0 tryLock calls acquireFailed"), 1);
    run_free(&r);
    r = run_textf(fmt, "redisson_version = '4.6.0'");
    assert_int_equal(requests_with(&r, "B", "redisson-fair/acquire-failed"), 0);
    assert_int_equal(logs_with(&r, "B", "my queue entry stays behind"), 1);
    run_free(&r);
}

/* At HEAD too, an error of the FIRST tryAcquire (before the subscription) propagates without
 * acquireFailed: B's reply comes after its 15 ms timeout, its queue entry stays behind. */
static void test_fair_first_error_leaves_queue_entry_at_head(void **state)
{
    (void)state;
    run r = run_text(
        "return { name = 'x', about = 'x', protocol = 'redisson-fair', lease = '10s', wait = '5s',\n"
        "  timeout = '15ms', network = { delay = '1ms' },\n"
        "  links = { { from = 'B', to = 'n1', delay = '10ms' } },\n"
        "  clients = { { name = 'A', work = '2s' }, { name = 'B', start = '100ms' } },\n"
        "  duration = '20s' }\n");
    assert_int_equal(logs_with(&r, "B", "tryLock throws; my queue entry stays behind"), 1);
    assert_int_equal(requests_with(&r, "B", "redisson-fair/acquire-failed"), 0);
    run_free(&r);
}

/* 3.4.4: an unlock that fails (here its reply is lost to a partition: no resend before 3.10.0)
 * leaves the watchdog renewing (#1602, fixed in 3.8.1); 3.11.1 cancels it. */
static void test_344_failed_unlock_keeps_the_watchdog(void **state)
{
    (void)state;
    static const char *fmt =
        "return { name = 'x', about = 'x', protocol = 'redisson', scripts = 'redisson@%s',\n"
        "  lease = false, wait = '60s', network = { delay = '1ms' },\n"
        "  clients = { { name = 'A', work = '5s', rounds = 2, think = '120s' } },\n"
        "  faults = { { at = '4900ms', partition = { { 'A' }, { 'n1' } }, duration = '4s' } },\n"
        "  duration = '60s' }\n";
    /* A lives on after its failed unlock (it thinks for two minutes): in 3.4.4 its watchdog
     * goes on renewing the lock it believes released, every 10 s once the partition heals */
    run r = run_textf(fmt, "3.4.4");
    assert_int_equal(logs_with(&r, "A", "before 3.8.1 (#1602) the watchdog keeps renewing"), 1);
    int64_t at[8];
    int n = renewal_times(&r, at, 8);
    assert_true(n >= 4 && at[n - 1] > 30000000); /* still renewing long after the unlock */
    run_free(&r);
    /* 3.11.1 resends the unlock (at once after each timeout) and its watchdog renews only while
     * the unlock is still pending: nothing after the resent unlock went through, at 11 s */
    r = run_textf(fmt, "3.11.1");
    assert_int_equal(logs_with(&r, "A", "the watchdog keeps renewing"), 0);
    n = renewal_times(&r, at, 8);
    assert_true(n <= 1 && (n == 0 || at[0] < 11000000));
    run_free(&r);
}

/* ---- replica sync (3.12.5+) ---- */

static run run_file_scripts(const char *path, const char *scripts)
{
    scenario *sc = load_file(path);
    free(sc->scripts);
    sc->scripts = strdup(scripts);
    return run_scenario(sc);
}

/* 3.43.0 against a master with a replica: the lock script and WAIT 1 1000. In
 * failover-redisson-wait the first WAIT is never answered (the master crashed), and on the
 * promoted master (no replica left) none synced: handleNoSync unlocks, INFO re-reads
 * connected_slaves, and the retry goes without WAIT. */
static void test_replica_sync_wait_by_release(void **state)
{
    (void)state;
    run r = run_file("scenarios/failover-redisson-wait.lua");
    assert_true(requests_with(&r, "A", "WAIT 1 1000") >= 2);
    assert_int_equal(logs_with(&r, "A", "unlocking it again (handleNoSync)"), 1);
    assert_int_equal(requests_with(&r, "A", "INFO ALL"), 1);
    assert_non_null(nth(&r, "A", H_ACQUIRED, 1));
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_HOLDS);
    run_free(&r);
    /* 3.12.4: no WAIT at all (RedissonLock.java@3.12.4 evalWriteAsync is the executor's) */
    r = run_file_scripts("scenarios/failover-redisson-wait.lua", "redisson@3.12.4");
    assert_int_equal(requests_with(&r, "A", "WAIT"), 0);
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
    run_free(&r);
    /* 3.12.5-3.14.0: WAIT goes with the script (60b261f93), but the caller's future is the
     * script's own: A enters at once, before the crash at 20 ms, and loses the lock in the
     * failover */
    r = run_file_scripts("scenarios/failover-redisson-wait.lua", "redisson@3.14.0");
    assert_true(requests_with(&r, "A", "WAIT 1 1000") >= 1);
    const hist_event *a = nth(&r, "A", H_ACQUIRED, 1);
    assert_non_null(a);
    assert_true(a->t_us < 20000);
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_VIOLATED);
    run_free(&r);
    /* 3.14.1 (#3253): the answer waits for the WAIT, which the crash never lets come; a batch
     * with WAIT is not resent in 3.14.1-3.15.0, so nobody takes the lock */
    r = run_file_scripts("scenarios/failover-redisson-wait.lua", "redisson@3.14.1");
    assert_true(requests_with(&r, "A", "WAIT 1 1000") >= 1);
    assert_null(nth(&r, "A", H_ACQUIRED, 1));
    assert_int_equal(logs_with(&r, "A", "resending"), 0);
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_HOLDS);
    run_free(&r);
    /* 3.15.1 resends the batch: B's goes to the promoted replica, whose WAIT answers 0 */
    r = run_file_scripts("scenarios/failover-redisson-wait.lua", "redisson@3.15.1");
    assert_true(logs_with(&r, "B", "resending") >= 1);
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_HOLDS);
    run_free(&r);
}

/* How many acknowledgements a lock needs, by release, in failover-redisson-one-of-two (WAIT 2
 * answers 1): all of them in 3.16.7-3.17.4 ("Only 1 of 2 slaves were synced"), any one from
 * 3.17.5 (RedissonBaseLock.java@3.17.5:223-227), none looked at in 3.14.1-3.16.6. */
static void test_replica_sync_count_by_release(void **state)
{
    (void)state;
    static const struct { const char *v; int all; } rel[] = {
        { "redisson@3.16.6", 0 }, { "redisson@3.16.7", 1 }, { "redisson@3.17.4", 1 },
        { "redisson@3.17.5", 0 }, { "redisson@3.43.0", 0 },
    };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        run r = run_file_scripts("scenarios/failover-redisson-one-of-two.lua", rel[i].v);
        int only = logs_with(&r, "A", "WAIT: 1 of 2 replicas acknowledged");
        if (rel[i].all) {
            assert_true(only >= 1);
            assert_null(nth(&r, "A", H_ACQUIRED, 1));
        } else {
            assert_int_equal(only, 0);
            assert_non_null(nth(&r, "A", H_ACQUIRED, 1));
        }
        run_free(&r);
    }
}

static void test_reentrant_option_needs_as_many_unlocks(void **state)
{
    (void)state;
    run r = run_text(
        "return { name = 'x', about = 'x', protocol = 'redisson', lease = false,\n"
        "  clients = { { name = 'A', work = '1s', rounds = 2 }, { name = 'B', start = '10ms' } },\n"
        "  options = { reentrant = 3 }, duration = '30s' }\n");
    assert_int_equal(logs_with(&r, "A", "re-entered the lock"), 4);
    assert_int_equal(logs_with(&r, "A", "the lock stays mine"), 4);
    assert_string_equal(nth(&r, "A", H_RELEASED, 2)->text, "released");
    assert_non_null(nth(&r, "B", H_ACQUIRED, 1));
    assert_int_equal(r.cr.p[PROP_MUTUAL_EXCLUSION].v, VERDICT_HOLDS);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unlock_after_expiry_head_throws),
        cmocka_unit_test(test_unlock_after_expiry_344_is_silent),
        cmocka_unit_test(test_fencing_tokens_are_33_and_34),
        cmocka_unit_test(test_watchdog_renews_every_10s),
        cmocka_unit_test(test_head_watchdog_keeps_trying_through_a_partition),
        cmocka_unit_test(test_343_watchdog_stops_on_error),
        cmocka_unit_test(test_reentrant_option_needs_as_many_unlocks),
        cmocka_unit_test(test_resends_344_none),
        cmocka_unit_test(test_connection_retries_by_release),
        cmocka_unit_test(test_resends_3111_at_once),
        cmocka_unit_test(test_resends_343_every_4500ms),
        cmocka_unit_test(test_resends_head_equal_jitter),
        cmocka_unit_test(test_lock_script_not_resent_from_3370),
        cmocka_unit_test(test_history_types_scripts_and_publishes),
        cmocka_unit_test(test_fair_loop_timeout_acquire_failed_from_470),
        cmocka_unit_test(test_fair_first_error_leaves_queue_entry_at_head),
        cmocka_unit_test(test_344_failed_unlock_keeps_the_watchdog),
        cmocka_unit_test(test_replica_sync_wait_by_release),
        cmocka_unit_test(test_replica_sync_count_by_release),
    };
    return cmocka_run_group_tests_name("redisson", tests, NULL, NULL);
}
