/* test_store.c — the keyspace and the key commands: lazy and active expiry on the local
 * clock, strict "now > deadline", replicas that hide but keep expired keys, observers,
 * EXPIRE's options and error texts, TTL rounding, the canonical dump and fingerprint, KEYS's
 * glob (glob.c) on the pathological patterns of CVE-2022-36021. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "server.h"
#include "store.h"

#include "fixture.h"

static void test_store_lazy_expiry_is_strict(void **state)
{
    fixture *f = *state;
    assert_string_equal(RUN(f, "set", "k", "v", "px", "100"), "OK");
    f->now += 100; /* deadline == now: still alive */
    assert_string_equal(RUN(f, "get", "k"), "\"v\"");
    assert_string_equal(RUN(f, "pttl", "k"), "(integer) 0");
    f->now += 1;
    assert_string_equal(RUN(f, "exists", "k"), "(integer) 0");
    assert_string_equal(RUN(f, "pttl", "k"), "(integer) -2");
    assert_int_equal(f->events[STORE_EXPIRED], 1);
    assert_int_equal(store_size(server_store(f->srv)), 0);
}

static void test_store_active_expire_in_deadline_order(void **state)
{
    fixture *f = *state;
    store *db = server_store(f->srv);
    RUN(f, "set", "a", "1", "px", "300");
    RUN(f, "set", "b", "1", "px", "100");
    RUN(f, "set", "c", "1");
    assert_int_equal(store_next_expiry(db), f->now + 100);
    f->now += 200;
    assert_int_equal(store_active_expire(db), 1);
    assert_string_equal(RUN(f, "dbsize"), "(integer) 2");
    assert_int_equal(store_next_expiry(db), f->now + 100);
    RUN(f, "persist", "a");
    assert_int_equal(store_next_expiry(db), INT64_MAX);
}

/* The expiry index against a reference: 2,000 keys get deadlines with many ties, TTLs are
 * changed, removed and keys deleted in a seeded pseudo-random order; then active expiry,
 * one ms at a time, must report keys in (deadline, time the TTL was last set) order, with
 * store_next_expiry exact at every step, and so must a clone taken before. With `rising`,
 * deadlines mostly grow with time, as leases do (they land in the index's sorted run, with
 * its dead items and compaction); otherwise they are drawn at random (mostly the heap). */
typedef struct expiry_log {
    int n;
    int order[2000];
} expiry_log;

static void log_expired(void *ud, store_event ev, slice key)
{
    expiry_log *lg = ud;
    if (ev != STORE_EXPIRED) return;
    int i = 0;
    for (size_t k = 1; k < key.len; k++) i = i * 10 + (key.p[k] - '0'); /* not NUL-terminated */
    lg->order[lg->n++] = i;
}

static void check_expiry_order(fixture *f, int rising)
{
    store *db = store_new(fixture_clock, f);
    expiry_log lg = { 0 }, clone_lg = { 0 };
    store_set_observer(db, log_expired, &lg);
    enum { N = 2000, STEPS = 6 * N };
    int64_t when[N];
    uint64_t setseq[N], seq = 0, rng = 12345;
    char name[16];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "k%d", i);
        store_add(db, slice_cstr(name), OBJ_STRING, sstr_new("v", 1));
        when[i] = -1;
    }
    for (int step = 0; step < STEPS; step++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        int i = (int)((rng >> 33) % N), op = (int)((rng >> 20) % 8);
        snprintf(name, sizeof name, "k%d", i);
        kv *e = store_lookup(db, slice_cstr(name));
        if (!e) continue;
        if (op == 0) {
            store_persist(db, e);
            when[i] = -1;
        } else if (op == 1 && step % 7 == 0) {
            store_delete(db, slice_cstr(name));
            when[i] = -2;
        } else {
            int64_t d = (int64_t)((rng >> 40) % 50); /* 50 distinct deadlines */
            if (rising) { /* one in eight a little behind the others (into the heap) */
                int64_t rise = (int64_t)step * 50 / STEPS;
                d = op == 2 && rise >= d % 10 ? rise - d % 10 : rise;
            }
            when[i] = f->now + 1 + d;
            setseq[i] = seq++;
            store_set_expire(db, e, when[i]);
        }
    }
    store *clone = store_clone(db);
    store_set_observer(clone, log_expired, &clone_lg);
    for (int64_t t = f->now; t <= f->now + 52; t++) {
        int64_t next = INT64_MAX;
        for (int i = 0; i < N; i++)
            if (when[i] >= t && when[i] < next) next = when[i];
        assert_int_equal(store_next_expiry(db), next);
        assert_int_equal(store_next_expiry(clone), next);
        int64_t saved = f->now;
        f->now = t + 1;
        int before = lg.n;
        store_active_expire(db);
        store_active_expire(clone);
        f->now = saved;
        /* Exactly the keys due at t, in the order their TTLs were set. */
        int want = 0;
        uint64_t last = 0;
        for (int k = before; k < lg.n; k++) {
            int i = lg.order[k];
            assert_int_equal(when[i], t);
            if (k > before) assert_true(setseq[i] > last);
            last = setseq[i];
        }
        for (int i = 0; i < N; i++) want += when[i] == t;
        assert_int_equal(lg.n - before, want);
    }
    assert_int_equal(clone_lg.n, lg.n);
    assert_memory_equal(clone_lg.order, lg.order, (size_t)lg.n * sizeof *lg.order);
    store_free(clone);
    store_free(db);
}

static void test_store_expiry_order_matches_reference(void **state)
{
    check_expiry_order(*state, 0);
}

static void test_store_expiry_order_with_rising_deadlines(void **state)
{
    check_expiry_order(*state, 1);
}

/* A key looked up and not found is found once added, whichever keys are added between
 * (the store remembers the last miss), for short and long keys. */
static void test_store_missed_key_found_once_added(void **state)
{
    fixture *f = *state;
    store *db = store_new(fixture_clock, f);
    char longkey[200];
    memset(longkey, 'k', sizeof longkey);
    slice keys[] = { SLICE_LIT("a"), SLICE_LIT("b"), { longkey, sizeof longkey } };
    for (size_t i = 0; i < LL_ARRAY_LEN(keys); i++) {
        slice k = keys[i];
        assert_null(store_lookup(db, k));
        assert_null(store_lookup(db, k));
        store_add(db, SLICE_LIT("other"), OBJ_STRING, sstr_new("o", 1));
        assert_null(store_lookup(db, k));
        kv *e = store_add(db, k, OBJ_STRING, sstr_new("v", 1));
        assert_ptr_equal(store_lookup(db, k), e);
        assert_int_equal(store_delete(db, SLICE_LIT("other")), 1);
        assert_ptr_equal(store_lookup(db, k), e);
        assert_int_equal(store_delete(db, k), 1);
        assert_null(store_lookup(db, k));
        assert_ptr_not_equal(store_add(db, k, OBJ_STRING, sstr_new("w", 1)), NULL);
        assert_non_null(store_lookup(db, k));
    }
    assert_int_equal(store_size(db), 3);
    store_free(db);
}

/* A deleted key's string block is reused for a new string of the same block size, and
 * the new value is whole; strings of another size get blocks of their own. */
static void test_store_reuses_deleted_string_blocks(void **state)
{
    fixture *f = *state;
    store *db = store_new(fixture_clock, f);
    sstr *a = store_sstr_new(db, "1", 1);
    store_add(db, SLICE_LIT("latch"), OBJ_STRING, a);
    store_set_expire(db, store_lookup(db, SLICE_LIT("latch")), f->now + 1);
    f->now += 2;
    assert_null(store_lookup(db, SLICE_LIT("latch"))); /* expired: its "1" becomes a spare */
    sstr *b = store_sstr_new(db, "0", 1);
    assert_ptr_equal(b, a);
    assert_true(b->len == 1 && strcmp(b->p, "0") == 0);
    store_add(db, SLICE_LIT("latch"), OBJ_STRING, b);
    assert_int_equal(store_delete(db, SLICE_LIT("latch")), 1);
    char big[100];
    memset(big, 'x', sizeof big);
    sstr *c = store_sstr_new(db, big, sizeof big);
    assert_ptr_not_equal(c, a);
    assert_true(c->len == sizeof big && memcmp(c->p, big, sizeof big) == 0 && c->p[c->len] == 0);
    store_add(db, SLICE_LIT("big"), OBJ_STRING, c);
    assert_ptr_equal(store_sstr_new(db, "", 0), a); /* "" has the block size of "1" */
    free(a);
    store_free(db);
}

static void test_store_replica_hides_but_keeps_expired_keys(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "k", "v", "px", "10");
    server_set_replica(f->srv, 1);
    f->now += 50;
    assert_string_equal(RUN(f, "get", "k"), "(nil)");
    assert_string_equal(RUN(f, "ttl", "k"), "(integer) -2");
    assert_string_equal(RUN(f, "type", "k"), "none");
    assert_string_equal(RUN(f, "dbsize"), "(integer) 1");
    assert_int_equal(store_active_expire(server_store(f->srv)), 0);
    assert_string_equal(RUN(f, "set", "x", "1"), "(error) READONLY You can't write against a read only replica.");
}

static void test_store_expire_options_and_errors(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "k", "v");
    assert_string_equal(RUN(f, "expire", "k", "10", "xx"), "(integer) 0");
    assert_string_equal(RUN(f, "expire", "k", "10", "nx"), "(integer) 1");
    assert_string_equal(RUN(f, "expire", "k", "20", "nx"), "(integer) 0");
    assert_string_equal(RUN(f, "expire", "k", "5", "gt"), "(integer) 0");
    assert_string_equal(RUN(f, "expire", "k", "20", "gt"), "(integer) 1");
    assert_string_equal(RUN(f, "expire", "k", "30", "lt"), "(integer) 0");
    assert_string_equal(RUN(f, "ttl", "k"), "(integer) 20");
    assert_string_equal(RUN(f, "expire", "k", "10", "xx", "nx"),
                        "(error) ERR NX and XX, GT or LT options at the same time are not compatible");
    assert_string_equal(RUN(f, "expire", "k", "10", "gt", "lt"),
                        "(error) ERR GT and LT options at the same time are not compatible");
    assert_string_equal(RUN(f, "expire", "k", "10", "bogus"), "(error) ERR Unsupported option bogus");
    assert_string_equal(RUN(f, "expire", "k", "abc"), "(error) ERR value is not an integer or out of range");
    assert_string_equal(RUN(f, "expire", "k", "99999999999999999"), "(error) ERR invalid expire time in 'expire' command");
    assert_string_equal(RUN(f, "pexpire", "k", "9223372036854775807"),
                        "(error) ERR invalid expire time in 'pexpire' command");
    assert_string_equal(RUN(f, "expire", "nokey", "10"), "(integer) 0");
    assert_string_equal(RUN(f, "pexpire", "k", "0"), "(integer) 1");
    assert_string_equal(RUN(f, "exists", "k"), "(integer) 0");
}

/* EXPIRE's and FLUSHALL's options are C strings to Redis: matched and quoted up to a NUL;
 * an error quoting an argument has its CR/LF trimmed at the end and blanked inside. */
static void test_store_options_are_c_strings(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "k", "v");
    assert_string_equal(RUN_BIN(f, SL("expire"), SL("k"), SL("10"), SL("nx\0junk")), "(integer) 1");
    assert_string_equal(RUN_BIN(f, SL("expire"), SL("k"), SL("10"), SL("a\0b")),
                        "(error) ERR Unsupported option a");
    assert_string_equal(RUN(f, "expire", "k", "10", "a\r\nb"), "(error) ERR Unsupported option a  b");
    assert_string_equal(RUN(f, "expire", "k", "10", "a\n"), "(error) ERR Unsupported option a");
    assert_string_equal(RUN_BIN(f, SL("flushall"), SL("sync\0x")), "OK");
    assert_string_equal(RUN(f, "dbsize"), "(integer) 0");
}

static void test_store_ttl_rounds_half_up(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "k", "v");
    RUN(f, "pexpire", "k", "1500");
    assert_string_equal(RUN(f, "ttl", "k"), "(integer) 2");
    RUN(f, "pexpire", "k", "1499");
    assert_string_equal(RUN(f, "ttl", "k"), "(integer) 1");
    RUN(f, "pexpire", "k", "499");
    assert_string_equal(RUN(f, "ttl", "k"), "(integer) 0");
    assert_string_equal(RUN(f, "persist", "k"), "(integer) 1");
    assert_string_equal(RUN(f, "persist", "k"), "(integer) 0");
    assert_string_equal(RUN(f, "ttl", "k"), "(integer) -1");
}

static void test_store_del_exists_count_repeats(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "a", "1");
    RUN(f, "set", "b", "1");
    assert_string_equal(RUN(f, "exists", "a", "a", "nokey", "b"), "(integer) 3");
    assert_string_equal(RUN(f, "del", "a", "a", "nokey"), "(integer) 1");
    assert_string_equal(RUN(f, "type", "b"), "string");
    assert_string_equal(RUN(f, "type", "a"), "none");
}

static void test_store_generic_errors(void **state)
{
    fixture *f = *state;
    assert_string_equal(RUN(f, "foo", "a", "b"), "(error) ERR unknown command 'foo', with args beginning with: 'a' 'b' ");
    assert_string_equal(RUN(f, "GET"), "(error) ERR wrong number of arguments for 'get' command");
    assert_string_equal(RUN(f, "ping", "a", "b"), "(error) ERR wrong number of arguments for 'ping' command");
    assert_string_equal(RUN(f, "PING"), "PONG");
    assert_string_equal(RUN(f, "flushall", "bogus"), "(error) ERR syntax error");
    assert_string_equal(RUN(f, "time"), "1) \"1700000000\"\n2) \"0\"");
}

static void test_store_dump_is_canonical(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "b", "two");
    RUN(f, "set", "a", "o\"ne", "px", "1500");
    buf b;
    buf_init(&b);
    store_dump(server_store(f->srv), &b, 0);
    assert_string_equal(b.p, "\"a\" string pttl=1500 \"o\\\"ne\"\n\"b\" string pttl=-1 \"two\"\n");
    uint64_t h1 = store_fingerprint(server_store(f->srv));
    store *copy = store_clone(server_store(f->srv));
    assert_true(store_fingerprint(copy) == h1);
    store_free(copy);
    RUN(f, "set", "b", "three");
    assert_true(store_fingerprint(server_store(f->srv)) != h1);
    buf_release(&b);
}

static void test_store_observer_sees_writes_and_deletes(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "k", "v");
    RUN(f, "pexpire", "k", "100");
    RUN(f, "del", "k");
    assert_true(f->events[STORE_WRITTEN] >= 1);
    assert_int_equal(f->events[STORE_DELETED], 1);
}

static void test_store_keys_glob(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "lock:a", "1");
    RUN(f, "set", "lock:b", "1");
    RUN(f, "set", "other", "1");
    reply_release(&f->r);
    const char *argv[] = { "keys", "lock:[ab]" };
    server_execv(f->srv, &f->c, &f->r, 2, argv);
    assert_int_equal(f->r.type, REPLY_ARRAY);
    assert_int_equal(f->r.n, 2);
    assert_string_equal(RUN(f, "keys", "nomatch*"), "(empty array)");
}

/* Redis's matcher needs a non-empty string: the key "" is listed by KEYS * (special-cased)
 * and matched by the empty pattern, but not by "**" or "?*". */
static void test_store_keys_empty_key(void **state)
{
    fixture *f = *state;
    RUN(f, "set", "", "v");
    assert_string_equal(RUN(f, "keys", "*"), "1) \"\"");
    assert_string_equal(RUN(f, "keys", ""), "1) \"\"");
    assert_string_equal(RUN(f, "keys", "**"), "(empty array)");
    assert_string_equal(RUN(f, "keys", "?*"), "(empty array)");
    assert_string_equal(RUN(f, "keys", "[^a]"), "(empty array)");
    RUN(f, "set", "abc", "v");
    assert_string_equal(RUN(f, "keys", "abc**"), "1) \"abc\"");
    assert_string_equal(RUN(f, "keys", "ab*c"), "1) \"abc\"");
    assert_string_equal(RUN(f, "keys", "a*c?"), "(empty array)");
}

/* The pattern of CVE-2022-36021 against a 10,000-byte key of a's: a backtracking matcher
 * that retries every '*' at every split needs ~2^n steps here and would never finish;
 * Redis's skipLongerMatches (glob.c's give_up) answers at once. The answers are Redis
 * 7.0.15's, including its own limit: a '*' nested more than 1000 deep fails. */
static void test_store_keys_glob_pathological(void **state)
{
    fixture *f = *state;
    enum { N = 10000 };
    char *key = malloc(N + 1), *pat = malloc(4 * 1200 + 2);
    assert_non_null(key);
    assert_non_null(pat);
    memset(key, 'a', N);
    key[N] = '\0';
    RUN(f, "set", key, "v");
    assert_string_equal(RUN(f, "keys", "a*a*a*a*a*a*a*a*a*a*a*a*b"), "(empty array)");
    assert_string_equal(RUN(f, "keys", "*a*a*a*a*a*a*a*a*a*a*a*a*a*b*"), "(empty array)");
    RUN(f, "keys", "a*a*a*a*a*a*a*a*a*a*a*a*a");
    assert_int_equal(f->r.type, REPLY_ARRAY);
    assert_int_equal(f->r.n, 1);
    assert_string_equal(RUN(f, "scan", "0", "match", "?*?*?*?*?*?*?*?*?*?*?*?*b"),
                        "1) \"0\"\n2) (empty array)");

    /* The matcher itself, with 30 and 1,200 stars. */
    size_t n = 0;
    for (int i = 0; i < 30; i++) n += (size_t)sprintf(pat + n, "a*");
    pat[n] = 'b';
    assert_false(glob_match(pat, n + 1, key, N));
    pat[n] = 'a';
    assert_true(glob_match(pat, n + 1, key, N));
    assert_true(glob_match_nocase(pat, n + 1, key, N));
    pat[n] = 'A';
    assert_false(glob_match(pat, n + 1, key, N));
    assert_true(glob_match_nocase(pat, n + 1, key, N));
    n = 0;
    for (int i = 0; i < 1200; i++) n += (size_t)sprintf(pat + n, "a*");
    pat[n] = 'b';
    assert_false(glob_match(pat, n + 1, key, N));
    /* Nesting: "*a" 1000 times matches, 1001 times does not (Redis's protection). */
    n = 0;
    for (int i = 0; i < 1000; i++) n += (size_t)sprintf(pat + n, "*a");
    assert_true(glob_match(pat, n, key, N));
    n += (size_t)sprintf(pat + n, "*a");
    assert_false(glob_match(pat, n, key, N));
    free(pat);
    free(key);
}

/* SCAN over 1,200 keys, COUNT 10: every key exactly once, and every cursor a number a
 * JavaScript client reads exactly (node-redis 4 parses cursors as numbers: a 63-bit cursor
 * loses its low bits and the scan skips keys). Redis's cursors stay below its table size;
 * these stay below 2^32. */
static void test_store_scan_cursors_are_small(void **state)
{
    fixture *f = *state;
    enum { N = 1200 };
    char key[32];
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "key:%d", i);
        RUN(f, "set", key, "v");
    }
    unsigned char *seen = calloc(N, 1);
    assert_non_null(seen);
    char cursor[32] = "0";
    int calls = 0, total = 0;
    do {
        RUN(f, "scan", cursor, "count", "10");
        assert_int_equal(f->r.type, REPLY_ARRAY);
        const reply *cur = &f->r.elem[0], *keys = &f->r.elem[1];
        assert_true(cur->len < sizeof cursor);
        memcpy(cursor, cur->str, cur->len);
        cursor[cur->len] = '\0';
        assert_true(strtoull(cursor, NULL, 10) < (1ull << 32));
        for (size_t k = 0; k < keys->n; k++) {
            int i = atoi(keys->elem[k].str + 4);
            assert_true(i >= 0 && i < N);
            assert_int_equal(seen[i], 0);
            seen[i] = 1;
            total++;
        }
        calls++;
        assert_true(calls <= N);
    } while (strcmp(cursor, "0") != 0);
    assert_int_equal(total, N);
    free(seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store_lazy_expiry_is_strict, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_active_expire_in_deadline_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_expiry_order_matches_reference, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_expiry_order_with_rising_deadlines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_missed_key_found_once_added, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_reuses_deleted_string_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_replica_hides_but_keeps_expired_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_expire_options_and_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_options_are_c_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_ttl_rounds_half_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_del_exists_count_repeats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_generic_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_dump_is_canonical, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_observer_sees_writes_and_deletes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_keys_glob, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_keys_empty_key, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_keys_glob_pathological, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_scan_cursors_are_small, setup, teardown),
    };
    return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
