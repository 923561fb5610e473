/* bench_engine.c — the simulation engine's speed and memory (make bench).
 *
 *   events:  5 distlock clients on one node, 1–5 ms network delay, 10 simulated minutes;
 *            scheduler events per second of wall time, and the speed-up over real time.
 *   runs:    1,000 runs of one small scenario with different seeds, in one process.
 *   memory:  peak resident memory of the process after both.
 *
 * Wall-clock time is read here, outside the simulation, only to measure it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "chunkcache.h"
#include "scenario.h"
#include "world.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *standard =
    "return { name = 'bench: 5 distlock clients, 10 minutes', about = 'benchmark workload',\n"
    "  protocol = 'distlock', nodes = 1, lease = '10s', wait = '600s',\n"
    "  network = { delay = {'1ms', '5ms'} },\n"
    "  clients = {\n"
    "    { name = 'A', work = '100ms', rounds = 100000 }, { name = 'B', work = '100ms', rounds = 100000 },\n"
    "    { name = 'C', work = '100ms', rounds = 100000 }, { name = 'D', work = '100ms', rounds = 100000 },\n"
    "    { name = 'E', work = '100ms', rounds = 100000 } },\n"
    "  duration = '10m', seed = 1 }\n";

static const char *small =
    "return { name = 'bench: GC pause', about = 'benchmark workload', protocol = 'distlock', nodes = 1,\n"
    "  lease = '10s', wait = '30s', network = { delay = {'1ms', '5ms'} },\n"
    "  clients = { { name = 'A', work = '15s' }, { name = 'B', start = '100ms', work = '1s' } },\n"
    "  faults = { { at = '1s', gc_pause = 'A', duration = '12s' } },\n"
    "  duration = '60s', seed = 1 }\n";

static scenario *load(const char *text)
{
    buf err;
    buf_init(&err);
    scenario *sc = scenario_load_string("bench.lua", text, &err);
    if (!sc) {
        fprintf(stderr, "bench_engine: %s\n", err.p);
        exit(3);
    }
    buf_release(&err);
    return sc;
}

static uint64_t run_once(const scenario *sc, uint64_t seed, chunkcache *chunks)
{
    buf err;
    buf_init(&err);
    world_opts o = { .seed = seed, .chunks = chunks };
    world *w = world_new(sc, &o, &err);
    if (!w || world_run(w, &err) != 0) {
        fprintf(stderr, "bench_engine: %s\n", err.p);
        exit(3);
    }
    uint64_t ev = world_events(w);
    world_free(w);
    buf_release(&err);
    return ev;
}

int main(void)
{
    scenario *sc = load(standard);
    double best = 0;
    uint64_t events = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_s();
        events = run_once(sc, 1, NULL);
        double dt = now_s() - t0;
        double rate = (double)events / dt;
        if (rate > best) best = rate;
    }
    double sim_s = (double)sc->duration_us / 1e6;
    printf("engine_events=%llu\n", (unsigned long long)events);
    printf("engine_events_per_s=%.0f\n", best);
    printf("engine_speedup_x=%.0f\n", sim_s / ((double)events / best));
    scenario_free(sc);

    sc = load(small);
    double t0 = now_s();
    uint64_t total = 0;
    chunkcache *chunks = chunkcache_new(); /* as sweeps and the checker build worlds */
    for (uint64_t seed = 1; seed <= 1000; seed++) total += run_once(sc, seed, chunks);
    chunkcache_free(chunks);
    double dt = now_s() - t0;
    printf("engine_1000_runs_s=%.3f\n", dt);
    printf("engine_runs_per_s=%.0f\n", 1000.0 / dt);
    printf("engine_small_events=%llu\n", (unsigned long long)total);
    scenario_free(sc);

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("engine_peak_rss_mb=%.1f\n", (double)ru.ru_maxrss / 1024.0);
    return 0;
}
