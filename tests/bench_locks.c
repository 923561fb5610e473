/* bench_locks.c — the fake Redis's lock-script throughput and memory, each measured beside a
 * real redis-server doing the same work (tools/bench.sh runs the modes and prints the table).
 *
 *   bench_locks script [--reps N] [--rounds R]           in process, through server_exec
 *   bench_locks redis-script PORT [--reps N] [--rounds R] [--conns C]
 *   bench_locks memory [--locks N]                       peak RSS holding N locks
 *   bench_locks redis-memory PORT [--locks N]            the same N locks in redis-server
 *
 * The throughput workload, identical on both sides: over NAMES distinct lock names, each
 * round runs for every name the Redisson reentrant-lock acquire script (redisson/lock@HEAD)
 * and then its unlock script (redisson/unlock@HEAD, with the unlock latch), both by EVALSHA
 * after SCRIPT LOAD, with the bodies read from lua/redis/ through scriptlib. Every reply is
 * checked (acquire: nil; unlock: 1), so neither side can skip work. Locks never pile up:
 * the unlock deletes each lock. The unlock leaves its latch key (SET ... PX ARGV[5]); with a
 * latch TTL of 1 ms it has lapsed by the next round, whose GET of it finds it expired and
 * deletes it (lazy expiry), so the keyspace stays at NAMES latches in steady state. (Redisson
 * itself DELs the latch after the reply; we keep the workload to the two scripts.) In
 * process the manual clock moves 2 ms between rounds; the real server's clock moves by
 * itself, and a round takes far longer than 1 ms.
 *
 * Output: `key=value` lines on stdout, for tools/bench.sh. Exit 0, 2 usage, 3 a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/benchkit.h"
#include "reply.h"
#include "script.h"
#include "scriptlib.h"
#include "server.h"
#include "store.h"
#include "util.h"

#define NAMES 100000
#define OWNER "8743c9c0-0795-4907-87fd-6c719a6b4586:1" /* <uuid>:<threadId>, as Redisson */
#define LEASE "30000"                                  /* lockWatchdogTimeout */
#define HOLD_LEASE "3600000"   /* memory runs: an hour, so nothing expires while measuring */
#define REQUEST_ID "5f3c1b9a7e2d4c60"
#define LATCH_TTL "1"
#define MAX_REPS 64

typedef struct script_pair {
    buf lock, unlock;                /* bodies, exactly as sent */
    char lock_sha[41], unlock_sha[41];
} script_pair;

/* The names of one lock, laid out in one arena: key, channel, latch. */
typedef struct workload {
    script_pair sc;
    size_t names;
    buf arena;
    size_t *off;                     /* 3 offsets per name into arena */
    uint16_t *len;
} workload;

static _Noreturn void die(const char *what, const char *why)
{
    fprintf(stderr, "bench_locks: %s: %s\n", what, why);
    exit(3);
}

/* ---- the scripts, from the library ---- */

static void load_body(const scriptlib *lib, const char *id, buf *body, char sha[41])
{
    buf err;
    buf_init(&err);
    const script_info *si = scriptlib_find(lib, id, &err);
    if (!si || scriptlib_body(lib, si, body, &err) != 0) die(id, err.p ? err.p : "not found");
    buf_release(&err);
    script_sha1hex(body->p, body->len, sha);
}

static void scripts_load(script_pair *sc)
{
    buf err;
    buf_init(&err);
    buf_init(&sc->lock);
    buf_init(&sc->unlock);
    scriptlib *lib = scriptlib_load(NULL, &err);
    if (!lib) die("cannot load the script library", err.p ? err.p : "?");
    load_body(lib, "redisson/lock@HEAD", &sc->lock, sc->lock_sha);
    load_body(lib, "redisson/unlock@HEAD", &sc->unlock, sc->unlock_sha);
    scriptlib_free(lib);
    buf_release(&err);
}

static void scripts_release(script_pair *sc)
{
    buf_release(&sc->lock);
    buf_release(&sc->unlock);
}

/* ---- the workload's commands ---- */

static void workload_init(workload *w, size_t names)
{
    scripts_load(&w->sc);
    w->names = names;
    buf_init(&w->arena);
    w->off = xmalloc(3 * names * sizeof *w->off);
    w->len = xmalloc(3 * names * sizeof *w->len);
    for (size_t i = 0; i < names; i++) {
        size_t start = w->arena.len;
        buf_printf(&w->arena, "lock:%zu", i);
        w->off[3 * i] = start;
        w->len[3 * i] = (uint16_t)(w->arena.len - start);
        start = w->arena.len;
        buf_printf(&w->arena, "redisson_lock__channel:{lock:%zu}", i);
        w->off[3 * i + 1] = start;
        w->len[3 * i + 1] = (uint16_t)(w->arena.len - start);
        start = w->arena.len;
        buf_printf(&w->arena, "redisson_unlock_latch:{lock:%zu}:" REQUEST_ID, i);
        w->off[3 * i + 2] = start;
        w->len[3 * i + 2] = (uint16_t)(w->arena.len - start);
    }
}

static void workload_release(workload *w)
{
    scripts_release(&w->sc);
    buf_release(&w->arena);
    free(w->off);
    free(w->len);
}

static slice name_part(const workload *w, size_t i, int part)
{
    return (slice){ w->arena.p + w->off[3 * i + part], w->len[3 * i + part] };
}

/* EVALSHA <lock sha> 1 <key> <lease> <owner>. Returns argc. */
static int acquire_argv(const char *sha, slice key, const char *lease, slice *v)
{
    v[0] = SLICE_LIT("EVALSHA");
    v[1] = (slice){ sha, 40 };
    v[2] = SLICE_LIT("1");
    v[3] = key;
    v[4] = slice_cstr(lease);
    v[5] = SLICE_LIT(OWNER);
    return 6;
}

/* EVALSHA <unlock sha> 3 <key> <channel> <latch> 0 <lease> <owner> PUBLISH <latch ttl>. */
static int unlock_argv(const workload *w, size_t i, slice *v)
{
    v[0] = SLICE_LIT("EVALSHA");
    v[1] = (slice){ w->sc.unlock_sha, 40 };
    v[2] = SLICE_LIT("3");
    v[3] = name_part(w, i, 0);
    v[4] = name_part(w, i, 1);
    v[5] = name_part(w, i, 2);
    v[6] = SLICE_LIT("0");
    v[7] = SLICE_LIT(LEASE);
    v[8] = SLICE_LIT(OWNER);
    v[9] = SLICE_LIT("PUBLISH");
    v[10] = SLICE_LIT(LATCH_TTL);
    return 11;
}

/* Command k of the stream over names[]: even k acquires, odd k unlocks the same name. */
static int pair_argv(const workload *w, size_t name, size_t k, slice *v)
{
    if (k % 2 == 0) return acquire_argv(w->sc.lock_sha, name_part(w, name, 0), LEASE, v);
    return unlock_argv(w, name, v);
}

/* Acquire must answer nil (acquired), unlock 1 (deleted and published). */
static int pair_reply_ok(size_t k, const reply *r)
{
    if (k % 2 == 0) return r->type == REPLY_NIL;
    return r->type == REPLY_INTEGER && r->integer == 1;
}

static void report_bad_reply(size_t k, const reply *r)
{
    buf b;
    buf_init(&b);
    reply_to_brief(r, &b);
    fprintf(stderr, "bench_locks: %s answered %s\n", k % 2 ? "unlock" : "acquire", b.p);
    buf_release(&b);
}

static void print_rates(const char *prefix, double *rate, int reps)
{
    printf("%s_reps=", prefix);
    for (int i = 0; i < reps; i++) printf("%s%.0f", i ? "," : "", rate[i]);
    printf("\n%s_per_sec=%.0f\n", prefix, bench_median(rate, (size_t)reps));
}

/* ---- in process ---- */

typedef struct fake {
    bench_clock clock;
    server *srv;
    conn c;
} fake;

static void fake_init(fake *f)
{
    f->clock.now_ms = 1700000000000; /* any fixed epoch */
    server_config cfg = { .clock = bench_clock_read, .clock_ud = &f->clock };
    f->srv = server_new(&cfg);
    f->c = (conn){ .id = 1 };
}

static void fake_script_load(fake *f, const buf *body, const char *sha)
{
    slice v[3] = { SLICE_LIT("SCRIPT"), SLICE_LIT("LOAD"), { body->p, body->len } };
    reply r;
    reply_init(&r);
    server_exec(f->srv, &f->c, 3, v, &r);
    if (r.type != REPLY_BULK || strcmp(r.str, sha) != 0) die("SCRIPT LOAD", "unexpected reply");
    reply_release(&r);
}

/* Runs `rounds` rounds of acquire+unlock over every name; returns script executions/s. */
static double fake_rounds(fake *f, const workload *w, int rounds)
{
    slice v[11];
    reply r;
    reply_init(&r);
    size_t bad = 0;
    double t0 = bench_seconds();
    for (int round = 0; round < rounds; round++) {
        for (size_t i = 0; i < w->names; i++) {
            for (size_t k = 0; k < 2; k++) {
                int argc = pair_argv(w, i, k, v);
                server_exec(f->srv, &f->c, argc, v, &r);
                if (!pair_reply_ok(k, &r) && bad++ == 0) report_bad_reply(k, &r);
            }
        }
        f->clock.now_ms += 2; /* the latches (PX 1) lapse before the next round */
    }
    double secs = bench_seconds() - t0;
    reply_release(&r);
    if (bad) die("in-process workload", "wrong replies (see above)");
    return 2.0 * (double)w->names * rounds / secs;
}

static int run_script(int reps, int rounds)
{
    workload w;
    workload_init(&w, NAMES);
    fake f;
    fake_init(&f);
    fake_script_load(&f, &w.sc.lock, w.sc.lock_sha);
    fake_script_load(&f, &w.sc.unlock, w.sc.unlock_sha);
    fake_rounds(&f, &w, 2); /* warm-up: first-time key creation, caches, the latches */
    double rate[MAX_REPS];
    for (int i = 0; i < reps; i++) rate[i] = fake_rounds(&f, &w, rounds);
    printf("names=%d\nscript_execs_per_rep=%.0f\nlock_sha=%s\nunlock_sha=%s\n", NAMES,
           2.0 * NAMES * rounds, w.sc.lock_sha, w.sc.unlock_sha);
    printf("keys_after=%zu\n", store_size(server_store(f.srv)));
    print_rates("script", rate, reps);
    server_free(f.srv);
    workload_release(&w);
    return 0;
}

/* Holds `locks` locks, each created by the acquire script, and reports peak RSS. The names
 * are formatted on the fly so the benchmark itself holds no per-lock memory. */
static int run_memory(size_t locks)
{
    script_pair sc;
    scripts_load(&sc);
    fake f;
    fake_init(&f);
    fake_script_load(&f, &sc.lock, sc.lock_sha);
    long base_kb = bench_proc_status_kb("VmRSS");
    slice v[6];
    char key[32];
    reply r;
    reply_init(&r);
    double t0 = bench_seconds();
    for (size_t i = 0; i < locks; i++) {
        int n = snprintf(key, sizeof key, "lock:%zu", i);
        int argc = acquire_argv(sc.lock_sha, (slice){ key, (size_t)n }, HOLD_LEASE, v);
        server_exec(f.srv, &f.c, argc, v, &r);
        if (r.type != REPLY_NIL) {
            report_bad_reply(0, &r);
            die("memory workload", "acquire failed");
        }
    }
    double secs = bench_seconds() - t0;
    reply_release(&r);
    store *db = server_store(f.srv);
    if (store_size(db) != locks) die("memory workload", "wrong key count");
    printf("locks=%zu\nbaseline_rss_kb=%ld\npeak_rss_kb=%ld\nrss_kb=%ld\nstore_bytes=%zu\n"
           "load_secs=%.3f\n",
           locks, base_kb, bench_proc_status_kb("VmHWM"), bench_proc_status_kb("VmRSS"),
           store_bytes(db), secs);
    server_free(f.srv);
    scripts_release(&sc);
    return 0;
}

/* ---- against a real redis-server ---- */

typedef struct remote {
    const workload *w;
    int conns;
    size_t names_per_conn[64];
    size_t bad;
} remote;

static int remote_call(resp_conn *c, int argc, const slice *v, reply *r, const char *what)
{
    if (resp_call(c, argc, v, r) != 0) die(what, "connection failed");
    return reply_is_error(r) ? -1 : 0;
}

static void remote_script_load(resp_conn *c, const buf *body, const char *sha)
{
    slice v[3] = { SLICE_LIT("SCRIPT"), SLICE_LIT("LOAD"), { body->p, body->len } };
    reply r;
    reply_init(&r);
    remote_call(c, 3, v, &r, "SCRIPT LOAD");
    if (r.type != REPLY_BULK || strcmp(r.str, sha) != 0) die("SCRIPT LOAD", "unexpected reply");
    reply_release(&r);
}

static void remote_simple(resp_conn *c, const char *cmd)
{
    slice v[1] = { slice_cstr(cmd) };
    reply r;
    reply_init(&r);
    if (remote_call(c, 1, v, &r, cmd) != 0) die(cmd, r.str);
    reply_release(&r);
}

/* Connection c takes the names c, c + conns, c + 2*conns, ... in that order, so each name's
 * acquire and unlock stay in order on one connection. */
static size_t remote_name(const remote *rm, int c, size_t j)
{
    return (size_t)c + (size_t)rm->conns * ((j / 2) % rm->names_per_conn[c]);
}

static void remote_encode(void *ud, int c, size_t j, buf *out)
{
    const remote *rm = ud;
    slice v[11];
    int argc = pair_argv(rm->w, remote_name(rm, c, j), j, v);
    resp_encode(out, argc, v);
}

static int remote_check(void *ud, int c, size_t j, const reply *r)
{
    remote *rm = ud;
    if (pair_reply_ok(j, r)) return 0;
    if (rm->bad++ == 0) report_bad_reply(j, r);
    return -1;
}

static double remote_rounds(resp_conn *cs, remote *rm, int rounds)
{
    size_t count[64];
    for (int c = 0; c < rm->conns; c++) count[c] = 2 * rm->names_per_conn[c] * (size_t)rounds;
    double t0 = bench_seconds();
    int rc = resp_pipeline(cs, rm->conns, count, 2048, remote_encode, remote_check, rm);
    double secs = bench_seconds() - t0;
    if (rc == -2) die("redis-server workload", "wrong replies (see above)");
    if (rc != 0) die("redis-server workload", "connection failed or timed out");
    return 2.0 * (double)rm->w->names * rounds / secs;
}

static void remote_connect(resp_conn *cs, int n, int port)
{
    for (int i = 0; i < n; i++)
        if (resp_connect(&cs[i], port) != 0) die("cannot connect to redis-server", strerror(errno));
}

static int run_redis_script(int port, int reps, int rounds, int conns)
{
    workload w;
    workload_init(&w, NAMES);
    resp_conn cs[64];
    remote_connect(cs, conns, port);
    remote_simple(&cs[0], "FLUSHALL");
    remote_script_load(&cs[0], &w.sc.lock, w.sc.lock_sha);
    remote_script_load(&cs[0], &w.sc.unlock, w.sc.unlock_sha);
    remote rm = { .w = &w, .conns = conns };
    for (int c = 0; c < conns; c++) rm.names_per_conn[c] = (NAMES - (size_t)c + conns - 1) / conns;
    remote_rounds(cs, &rm, 2); /* warm-up, as in process */
    double rate[MAX_REPS];
    for (int i = 0; i < reps; i++) rate[i] = remote_rounds(cs, &rm, rounds);
    printf("names=%d\nconns=%d\n", NAMES, conns);
    print_rates("redis_script", rate, reps);
    for (int c = 0; c < conns; c++) resp_close(&cs[c]);
    workload_release(&w);
    return 0;
}

/* The value of `field:` in an INFO reply, or -1. */
static long long info_field(const reply *r, const char *field)
{
    size_t n = strlen(field);
    for (const char *p = r->str; p && (p = strstr(p, field)) != NULL; p += n)
        if ((p == r->str || p[-1] == '\n') && p[n] == ':') return strtoll(p + n + 1, NULL, 10);
    return -1;
}

typedef struct remote_hold {
    const script_pair *sc;
    size_t bad;
} remote_hold;

static void hold_encode(void *ud, int c, size_t j, buf *out)
{
    const remote_hold *h = ud;
    char key[32];
    int n = snprintf(key, sizeof key, "lock:%zu", j);
    slice v[6];
    int argc = acquire_argv(h->sc->lock_sha, (slice){ key, (size_t)n }, HOLD_LEASE, v);
    resp_encode(out, argc, v);
}

static int hold_check(void *ud, int c, size_t j, const reply *r)
{
    remote_hold *h = ud;
    if (r->type == REPLY_NIL) return 0;
    if (h->bad++ == 0) report_bad_reply(0, r);
    return -1;
}

static int run_redis_memory(int port, size_t locks)
{
    script_pair sc;
    scripts_load(&sc);
    resp_conn c;
    remote_connect(&c, 1, port);
    remote_simple(&c, "FLUSHALL");
    remote_script_load(&c, &sc.lock, sc.lock_sha);
    slice info[2] = { SLICE_LIT("INFO"), SLICE_LIT("memory") };
    reply r;
    reply_init(&r);
    remote_call(&c, 2, info, &r, "INFO");
    long long base_rss = info_field(&r, "used_memory_rss");
    remote_hold h = { .sc = &sc };
    double t0 = bench_seconds();
    int rc = resp_pipeline(&c, 1, &locks, 4096, hold_encode, hold_check, &h);
    double secs = bench_seconds() - t0;
    if (rc != 0) die("redis-server memory workload", rc == -2 ? "acquire failed" : "I/O error");
    slice dbsize[1] = { SLICE_LIT("DBSIZE") };
    remote_call(&c, 1, dbsize, &r, "DBSIZE");
    if (r.type != REPLY_INTEGER || (size_t)r.integer != locks) die("redis-server", "wrong key count");
    remote_call(&c, 2, info, &r, "INFO");
    printf("locks=%zu\nbaseline_rss_bytes=%lld\nused_memory_rss=%lld\nused_memory=%lld\n"
           "used_memory_peak=%lld\nload_secs=%.3f\n",
           locks, base_rss, info_field(&r, "used_memory_rss"), info_field(&r, "used_memory"),
           info_field(&r, "used_memory_peak"), secs);
    reply_release(&r);
    resp_close(&c);
    scripts_release(&sc);
    return 0;
}

/* ---- command line ---- */

static void usage(FILE *f)
{
    fputs("usage: bench_locks script [--reps N] [--rounds R]\n"
          "       bench_locks redis-script PORT [--reps N] [--rounds R] [--conns C]\n"
          "       bench_locks memory [--locks N]\n"
          "       bench_locks redis-memory PORT [--locks N]\n",
          f);
}

static long opt_value(int argc, char **argv, const char *name, long dflt, long lo, long hi)
{
    for (int i = 0; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) {
            char *end;
            long v = strtol(argv[i + 1], &end, 10);
            if (*end || v < lo || v > hi) {
                fprintf(stderr, "bench_locks: %s: expected %ld..%ld\n", name, lo, hi);
                exit(2);
            }
            return v;
        }
    return dflt;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *mode = argv[1];
    int reps = (int)opt_value(argc, argv, "--reps", 5, 1, MAX_REPS);
    int rounds = (int)opt_value(argc, argv, "--rounds", 2, 1, 1000);
    size_t locks = (size_t)opt_value(argc, argv, "--locks", 1000000, 1, 100000000);
    int remote_mode = strncmp(mode, "redis-", 6) == 0;
    int port = remote_mode && argc > 2 ? atoi(argv[2]) : 0;
    if (remote_mode && (port <= 0 || port > 65535)) {
        usage(stderr);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (strcmp(mode, "script") == 0) return run_script(reps, rounds);
    if (strcmp(mode, "memory") == 0) return run_memory(locks);
    if (strcmp(mode, "redis-script") == 0)
        return run_redis_script(port, reps, rounds, (int)opt_value(argc, argv, "--conns", 4, 1, 64));
    if (strcmp(mode, "redis-memory") == 0) return run_redis_memory(port, locks);
    usage(stderr);
    return 2;
}
