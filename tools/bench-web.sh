#!/usr/bin/env bash
# tools/bench-web.sh — the playground's part of `make bench` (called by tools/bench.sh): a
# library scenario run in headless Chromium by the WebAssembly build (out/playground/) beside
# the native ./locklab running the same command, both in this run on this machine, as a
# ratio (target: at most 3x); the time the page takes to start its engine; the whole site's
# size (target: under 8 MB).
#
# Browser: `run scenarios/NAME.lua -q` called in the page (engine.js) BENCH_WEB_RUNS times
# after 30 runs to warm up (V8 compiles the module
# fast first, then optimises the functions that run most, as they run), timed with performance.now() inside the page. Native: the same
# command line BENCH_WEB_RUNS times, each a process (its start included: a user's native
# run is one). The median of BENCH_WEB_REPS (default 5) repetitions of each is reported.
# Then a model check (tests/check/failover-redisson-wait.lua, --jobs 1: one process both
# sides), a command long enough that starting a process weighs nothing.
# Exit 0 when everything ran, targets met or not (the table says which); 3 when something
# could not run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
make --no-print-directory playground >/dev/null || { echo "bench-web: make playground failed" >&2; exit 3; }
[ -x ./locklab ] || { echo "bench-web: ./locklab is missing (make locklab)" >&2; exit 3; }
echo "bench: the playground in headless Chromium beside ./locklab ..." >&2
BENCH_WEB_RUNS=${BENCH_WEB_RUNS:-10} BENCH_WEB_REPS=${BENCH_WEB_REPS:-5} python3 - "$@" <<'PY'
import os, statistics, subprocess, sys, time
sys.path.insert(0, "tests/web")
from cdp import Chromium

runs, reps = int(os.environ["BENCH_WEB_RUNS"]), int(os.environ["BENCH_WEB_REPS"])
site = os.path.abspath("out/playground")
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(site) for f in fs)
scenarios = ["gc-pause-single", "redlock-basic"]
rows = []
with Chromium() as c:
    c.open("file://" + os.path.join(site, "index.html"), watch_console=False)
    c.eval("locklab.ready")
    start_ms = c.eval("performance.now()")
    for name in scenarios:
        words = ["run", "scenarios/%s.lua" % name, "-q"]
        js = ("(function(){ var w = %r; var r = locklab.command(w); if (r.code > 1) throw new Error(r.stderr);"
              " for (var i = 0; i < 29; i++) locklab.command(w);"
              " var t = performance.now(); for (var i = 0; i < %d; i++) locklab.command(w);"
              " return (performance.now() - t) / %d; })()") % (words, runs, runs)
        browser = statistics.median(c.eval(js) for _ in range(reps))
        def native_once():
            t = time.perf_counter()
            for _ in range(runs):
                p = subprocess.run(["./locklab"] + words, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                if p.returncode > 1:
                    raise SystemExit("bench-web: ./locklab %s: %s" % (" ".join(words), p.stderr.decode()))
            return (time.perf_counter() - t) / runs * 1000
        native = statistics.median(native_once() for _ in range(reps))
        rows.append(("run " + name + " -q, one run", browser, native))
    # a longer command, where the native process's start weighs nothing: a model check
    words = ["check", "tests/check/failover-redisson-wait.lua", "--jobs", "1", "--out", "/tmp/locklab-bench-web-cex"]
    js = ("(function(){ var w = %r; var r = locklab.command(w); if (r.code > 1) throw new Error(r.stderr);"
          " var t = performance.now(); locklab.command(w); return performance.now() - t; })()") % (words,)
    browser = statistics.median(c.eval(js) for _ in range(reps))
    def native_check():
        t = time.perf_counter()
        p = subprocess.run(["./locklab"] + words, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode > 1:
            raise SystemExit("bench-web: ./locklab %s: %s" % (" ".join(words), p.stderr.decode()))
        return (time.perf_counter() - t) * 1000
    native = statistics.median(native_check() for _ in range(reps))
    for ext in ("lua", "choices", "txt"):
        try:
            os.unlink("/tmp/locklab-bench-web-cex." + ext)
        except OSError:
            pass
    rows.append(("check failover-redisson-wait --jobs 1", browser, native))

print()
print("%-44s %12s %12s %8s %8s  %s" % ("the playground (WebAssembly in Chromium)", "browser", "native", "ratio", "target", "met?"))
for what, b, n in rows:
    r = b / n
    print("%-44s %9.1f ms %9.1f ms %7.2fx %7s  %s" % (what, b, n, r, "<= 3x", "yes" if r <= 3 else "NO"))
print("%-44s %9.1f ms %12s %8s %8s" % ("page opened to engine ready (page load)", start_ms, "-", "", ""))
print("%-44s %9.2f MB %12s %8s %7s  %s" % ("the whole site (out/playground/)", size / 1048576, "-", "", "< 8 MB", "yes" if size < 8 << 20 else "NO"))
print("  (runs: %d timed after 30 to warm up, median of %d repetitions; native: one process per run, its start"
      " included; the check: one command, warmed up once, median of %d)" % (runs, reps, reps))
PY
