#!/usr/bin/env bash
# Command-line tests of `locklab matrix`: usage; the table's every cell against `locklab run`
# of its scenario (the same verdicts) and against the scenario's expect; the CSV's shape; the
# HTML page (every verdict links to a run page that exists, and both render in headless
# Chromium without console errors); the heat map; determinism; a row added without C, a column
# that does not apply, and an unmet expectation (exit 1, marked); bad input: a missing table,
# a row whose scenario is missing, unknown keys, properties and columns, a broken cell
# scenario (one line naming FILE:LINE, exit 2), an unwritable output (exit 3); a vacuous
# cell (its fault never reached the lock), a stale untouched and a property a row never
# observes each fail the table (exit 1); the cells of issue 35. Prints
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh matrix
case "$LL" in /*) ;; *) LL="$PWD/$LL" ;; esac
export LOCKLAB_HOME=${LOCKLAB_HOME:-$PWD}
# one_line_err DESCRIPTION TEXT (in place of lib.sh's): stderr, progress lines aside, is one
# "locklab: " line with TEXT.
one_line_err() {
    local errs
    errs=$(grep -v '^matrix: ' "$tmp/err")
    if [ "$(printf '%s\n' "$errs" | wc -l)" -eq 1 ] && printf '%s' "$errs" | grep -q '^locklab: ' &&
        printf '%s' "$errs" | grep -qF -- "$2"; then ok
    else bad "$1: stderr is not one 'locklab: ' line saying '$2'"; sed 's/^/    /' "$tmp/err"; fi
}

expect_exit 0 "matrix --help" -- "$LL" matrix --help
grep -q '^usage: locklab matrix' "$tmp/out" && grep -q -- '--html FILE' "$tmp/out" && ok || bad "--help tells the options"
"$LL" --help | grep '^  matrix ' >/dev/null && ok || bad "matrix is in locklab --help"
expect_exit 0 "help matrix" -- "$LL" help matrix

# --- the default table: every cell as its scenario expects. Its size is counted from the
# files (a folder per design, a scenario per situation that applies to it), so that a new row
# needs no edit here.
cells=$(ls scenarios/matrix/*/*.lua | wc -l)
grid=$(( $(ls -d scenarios/matrix/*/ | wc -l) * $(grep -c '^    { id = "[^"]*", title = ' scenarios/matrix/table.lua) ))
props=5
expect_exit 0 "the default table" -- "$LL" matrix --csv "$tmp/m.csv" --html "$tmp/m.html" --plot "$tmp/m.png"
cp "$tmp/out" "$tmp/table.txt"
grep -q "^$cells runs; every verdict is what its scenario expects\\.\$" "$tmp/table.txt" && ok || bad "the table's last line"
for t in "Redis SETNX + EXPIRE" "SET NX PX + DEL" "SET NX PX + compare-and-delete" "Redisson lock() (watchdog)" \
    "Redisson fenced lock" "Redlock (5 masters)" "Redisson RedLock (5 masters)" \
    "MySQL unique index (INSERT / DELETE)" "MySQL GET_LOCK()" "MongoDB findAndModify" \
    "MongoDB findAndModify + TTL index" "ZooKeeper (Curator InterProcessMutex)" \
    "ZooKeeper (Curator), czxid fenced" "etcd concurrency.Mutex" "etcd concurrency.Mutex, revision fenced"; do
    grep -qF -- "$t" "$tmp/table.txt" && ok || bad "the table has the row '$t'"
done
grep -q "matrix: $cells runs in " "$tmp/err" && ok || bad "progress on stderr"
# the sources' claims and warnings are marked: compare-and-delete under a GC pause is warned of
# by its article, and Redlock's by the Redis docs ("="); ZooKeeper's recipe claims mutual
# exclusion ("!"), etcd's notes warn ("="); Redisson cut off contradicts its documentation
python3 - "$tmp/table.txt" <<'PY' && ok || bad "the marks of known cells in the text table"
import sys
text = open(sys.argv[1], encoding="utf-8").read()
def block(title):
    b = text[text.index("\n" + title):]
    return b[:b.index("\n\n", 1)]
def cells(title, prop):
    line = [l for l in block(title).split("\n") if l.startswith("  " + prop)][0]
    return line[20:].split()
assert cells("SET NX PX + compare-and-delete", "mutual exclusion")[2] == "✗="
assert cells("SET NX PX + compare-and-delete", "mutual exclusion")[6] == "✗?"
assert cells("Redlock (5 masters)", "mutual exclusion")[2] == "✗="
assert cells("ZooKeeper (Curator InterProcessMutex)", "mutual exclusion")[2] == "✗!"
assert cells("etcd concurrency.Mutex", "mutual exclusion")[2] == "✗="
assert cells("Redisson lock() (watchdog)", "mutual exclusion")[3] == "✗!"
assert cells("Redis SETNX + EXPIRE", "no deadlock")[1] == "✗="
assert cells("Redisson fenced lock", "resource safety")[2] == "✓="
assert "GC pause: As the article warns" in block("SET NX PX + compare-and-delete")
assert "! GC pause: Wrong:" in block("ZooKeeper (Curator InterProcessMutex)")
# issue #12's highlights: a crashed holder deadlocks the unique index, not GET_LOCK; a GC
# pause beats ZooKeeper's session and etcd's lease, and their fencing tokens keep the resource
# safe; a leader's crash keeps mutual exclusion in ZooKeeper and etcd, where a Redis or MySQL
# failover loses it; a findAndModify lock with a TTL index frees itself late
assert cells("MySQL unique index (INSERT / DELETE)", "no deadlock")[1] == "✗="
assert cells("MySQL GET_LOCK()", "no deadlock")[1] == "✓="
assert cells("MongoDB findAndModify", "no deadlock")[1] == "✗="
assert cells("MongoDB findAndModify + TTL index", "no deadlock")[1] == "✗="
# the TTL monitor's rhythm (issue #24): a pass inside the pause, or while A works after the
# server's clock jumped, deletes A's lock
assert cells("MongoDB findAndModify + TTL index", "mutual exclusion")[2].startswith("✗")
assert cells("MongoDB findAndModify + TTL index", "mutual exclusion")[6].startswith("✗")
# issue #35: the cells its audit found wrong. PostgreSQL cut off over TCP: the unlock lands
# after the cut, no deadlock; Consul under a pause past 2 x TTL + lock-delay, and MongoDB + TTL
# with the holder's clock behind when it locks, lose mutual exclusion; the transaction lock's
# inner COMMIT violates re-entrancy; Consul's re-entry is refused as api/lock.go says
for pg in ("PostgreSQL advisory lock (session)", "PostgreSQL advisory lock (session), waiting in the server",
           "PostgreSQL advisory lock (transaction)"):
    assert cells(pg, "no deadlock")[3] == "✓", pg
assert cells("Consul lock (session TTL, lock-delay)", "mutual exclusion")[2] == "✗="
assert cells("MongoDB findAndModify + TTL index", "mutual exclusion")[10].startswith("✗")
assert cells("PostgreSQL advisory lock (transaction)", "reentrancy")[0].startswith("✗")
assert cells("Consul lock (session TTL, lock-delay)", "reentrancy")[0] == "✗="
# every cell's fault reached the lock (or its row says why not), every property was seen
assert "Every cell's fault reached the lock, or its row says why it cannot" in text
assert "○ GC pause (its fault cannot reach this lock): No lease" in block("PostgreSQL advisory lock (session)")
# a ✓ cell's note is shown too
assert "✓ cut off: Over TCP the cut loses nothing" in block("PostgreSQL advisory lock (session)")
assert "/work/" not in text and "matrix/<row>/<column>.lua" in text
for zk, fenced in (("ZooKeeper (Curator InterProcessMutex)", "ZooKeeper (Curator), czxid fenced"),
                   ("etcd concurrency.Mutex", "etcd concurrency.Mutex, revision fenced")):
    assert cells(zk, "mutual exclusion")[2].startswith("✗"), zk
    assert cells(zk, "resource safety")[2].startswith("✗"), zk
    assert cells(fenced, "mutual exclusion")[2] == "✗=", fenced
    assert cells(fenced, "resource safety")[2] == "✓=", fenced
    # cut off while working as long as a watchdog row (issue #24): the session or lease
    # lapses under A's feet, as Curator's SUSPENDED note and etcd #10811 say
    assert cells(zk, "mutual exclusion")[3].startswith("✗") and cells(zk, "resource safety")[3].startswith("✗"), zk
    assert cells(fenced, "mutual exclusion")[3] == "✗=" and cells(fenced, "resource safety")[3] == "✓=", fenced
    assert cells(zk, "mutual exclusion")[4].startswith("✓") and cells(zk, "mutual exclusion")[5].startswith("✓"), zk
assert cells("etcd concurrency.Mutex", "mutual exclusion")[5] == "✓="
assert cells("SET NX PX + compare-and-delete", "mutual exclusion")[5].startswith("✗")
assert cells("MySQL unique index (INSERT / DELETE)", "mutual exclusion")[5].startswith("✗")
# the five later columns (issue #24): 8 renewal lost, 9 leader cut off with the waiter, 10 the
# holder's clock, 11 a release delayed past the lease, 12 a host crash
# a renewal path that fails while the holder works: the watchdog, the pings and the keep-alives
# lose the lock as a cut does, against Redisson's and ZooKeeper's claims, as etcd warns; the
# fenced rows keep the resource safe; a design with nothing to renew says why
assert cells("Redisson lock() (watchdog)", "mutual exclusion")[8] == "✗!"
assert cells("ZooKeeper (Curator InterProcessMutex)", "mutual exclusion")[8] == "✗!"
assert cells("etcd concurrency.Mutex", "mutual exclusion")[8] == "✗="
for fenced in ("Redisson fenced lock", "ZooKeeper (Curator), czxid fenced", "etcd concurrency.Mutex, revision fenced"):
    assert cells(fenced, "mutual exclusion")[8] == "✗=" and cells(fenced, "resource safety")[8] == "✓=", fenced
assert cells("SET NX PX + compare-and-delete", "mutual exclusion")[8] == "–"
assert "– renewal: No renewal:" in block("SET NX PX + compare-and-delete")
# the leader cut off with the waiter: no split brain, a minority that cannot lock (etcd's
# "Failure modes", Redlock's "availability penalty"); one Redis server has no leader
assert cells("etcd concurrency.Mutex", "mutual exclusion")[9] == "✓=" and cells("etcd concurrency.Mutex", "no deadlock")[9] == "✗="
assert cells("Redlock (5 masters)", "no deadlock")[9] == "✗="
for t in ("ZooKeeper (Curator InterProcessMutex)", "MongoDB findAndModify", "Consul lock (session TTL, lock-delay)",
          "Kubernetes Lease (client-go)"):
    assert cells(t, "mutual exclusion")[9].startswith("✓"), t
assert cells("Redisson lock() (watchdog)", "mutual exclusion")[9] == "–"
# the holder's clock: no design counts its lease on it once it holds the lock
for t in ("Redlock (5 masters)", "Redisson lock() (watchdog)", "Kubernetes Lease (client-go)", "etcd concurrency.Mutex",
          "SET NX PX + compare-and-delete", "ZooKeeper (Curator InterProcessMutex)", "Consul lock (session TTL, lock-delay)"):
    assert cells(t, "mutual exclusion")[10].startswith("✓"), t
# a release delayed past the lease: a DEL deletes the next holder's lock, compare-and-delete
# does not
assert cells("SET NX PX + DEL", "release safety")[11] == "✗="
assert cells("Redis SETNX + EXPIRE", "release safety")[11] == "✗="
assert cells("SET NX PX + compare-and-delete", "release safety")[11] == "✓="
assert cells("Redisson lock() (watchdog)", "release safety")[11] == "✓="
# a host crash keeps a connection-bound lock (GET_LOCK, PostgreSQL's) where a process crash
# frees it; a lease does not care
assert cells("MySQL GET_LOCK()", "no deadlock")[1] == "✓=" and cells("MySQL GET_LOCK()", "no deadlock")[12] == "✗?"
assert cells("PostgreSQL advisory lock (session)", "no deadlock")[12] == "✗?"
assert cells("SET NX PX + compare-and-delete", "no deadlock")[12] == "✓="
assert cells("etcd concurrency.Mutex", "no deadlock")[12] == "✓"
PY
# a Lease's late renewal: A's Update, held from 4 s, lands after B's takeover and the API server
# refuses it on its stale resourceVersion
"$LL" run scenarios/matrix/k8s-lease/late-release.lua >"$tmp/k8s.txt" 2>&1
grep -q '^ *4\.0[0-9]*s  A     → n1  UPDATE lock 4 A ' "$tmp/k8s.txt" &&
    grep -q '^ *16\.[0-9]*s  n1    runs UPDATE lock 4 A .* for A → 409 Conflict' "$tmp/k8s.txt" &&
    grep -q '^ *14\.[0-9]*s  B     ACQUIRED the lock' "$tmp/k8s.txt" && ok || bad "the Lease cell's story: A's late renewal is refused with 409 Conflict"
# the TTL monitor's delay is in the cell's story: A's document expires at 10 s, goes at the
# monitor's pass at 60 s, and only then B gets the lock
"$LL" run scenarios/matrix/mongodb-ttl/holder-crash.lua >"$tmp/ttl.txt" 2>&1
grep -q '^ *60\.000s  n1 .*EXPIRED' "$tmp/ttl.txt" && grep -q '^ *60\.0[0-9]*s  B     ACQUIRED the lock' "$tmp/ttl.txt" &&
    ! grep -q '^ *[1-5]\?[0-9]\.[0-9]*s  B     ACQUIRED' "$tmp/ttl.txt" && ok || bad "the TTL cell's story: the document goes at 60 s, and B gets the lock then"

# a cut over TCP (network.partitions = "tcp"): A's RELEASE_LOCK, sent at 5 s into the 40 s
# cut, is retransmitted with Linux's backoff (0.2 s doubling: 51 s after the first sending is
# the first retransmission after the heal at 41 s) and runs at 56 s; B gets the lock then
"$LL" run scenarios/matrix/mysql-getlock/partition.lua >"$tmp/tcp.txt" 2>&1
grep -q '^ *5\.00[0-9]s  A     → n1  SELECT RELEASE_LOCK' "$tmp/tcp.txt" &&
    grep -q '^ *56\.00[0-9]s  n1    runs SELECT RELEASE_LOCK' "$tmp/tcp.txt" &&
    grep -q '^ *56\.[0-9]*s  B     ACQUIRED the lock' "$tmp/tcp.txt" && ok || bad "the TCP cell's story: the release is retransmitted and runs at 56 s"

# the CSV: its shape, and each cell against the scenario's expect and against `locklab run`
python3 - "$tmp/m.csv" "$grid" "$props" <<'PY' && ok || bad "the CSV: 12 fields, a line per cell and property, expectations met"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
assert rows[0] == "row,design,column,situation,property,verdict,expected,claim,mark,scenario,reached,observed".split(","), rows[0]
body = rows[1:]
assert len(body) == int(sys.argv[2]) * int(sys.argv[3]) and all(len(r) == 12 for r in body), len(body)
for r in body:
    assert r[5] in ("holds", "violated", "not_judged", "not_applicable"), r
    assert (r[5] == "not_applicable") == (r[9] == ""), r
    assert r[6] == "" or r[6] == r[5], r
    assert not r[9].startswith("/"), r   # relative: no machine's path
    assert r[10] in ("", "touched", "untouched"), r   # no vacuous or stale cell
    assert r[11] in ("", "yes", "no", "unobservable"), r
    assert r[8] in ("", "agrees", "contradicts", "unwarned"), r
    assert (r[8] == "agrees") == (r[7] != "" and r[7] == r[5]), r
PY
python3 -c 'import csv, sys
print("\n".join(sorted({r[9] for r in list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))[1:] if r[9]})))' \
    "$tmp/m.csv" >"$tmp/cells"
check "the CSV names every scenario" test "$(wc -l <"$tmp/cells")" -eq "$cells"
n=0
mkdir -p "$tmp/v"
while read -r f; do
    "$LL" run "$f" -q --verdicts "$tmp/v/$n.json" >/dev/null 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || bad "locklab run $f exits $rc (its expect not met)"
    printf '%s\t%s\n' "$n" "$f" >>"$tmp/v/index"
    n=$((n + 1))
done <"$tmp/cells"
check "every cell replayed by locklab run" test "$n" -eq "$cells"
# each run's verdicts against the CSV's (one python for all the cells)
python3 - "$tmp/v" "$tmp/m.csv" <<'PY' >"$tmp/disagree" || bad "the matrix and locklab run disagree: $(cat "$tmp/disagree")"
import csv, json, os, sys
table = {}
for r in csv.reader(open(sys.argv[2], encoding="utf-8", newline="")):
    table.setdefault(r[9], []).append(r)
bad = []
for line in open(os.path.join(sys.argv[1], "index"), encoding="utf-8"):
    n, f = line.rstrip("\n").split("\t", 1)
    path = os.path.join(sys.argv[1], n + ".json")
    if not os.path.exists(path):
        bad.append(f)
        continue
    v = {x["property"]: x["verdict"] for x in json.load(open(path))["verdicts"]}
    if any(v[r[4]] != r[5] for r in table.get(f, [])):
        bad.append(f)
print(" ".join(bad))
sys.exit(1 if bad else 0)
PY

# the HTML page: each verdict links to a run page that exists
python3 - "$tmp/m.html" "$cells" "$props" <<'PY' && ok || bad "the HTML page: every verdict links to its run's page"
import os, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
page = page[page.index('<table class="matrix">'):]   # the detailed table (the overview is checked below)
links = re.findall(r'<a href="([^"]+)">([✓✗·])</a>', page)
assert len(links) == int(sys.argv[2]) * int(sys.argv[3]), len(links)
base = os.path.dirname(sys.argv[1])
assert all(os.path.isfile(os.path.join(base, h.split("#")[0])) for h, _ in links)
assert len({h.split("#")[0] for h, _ in links}) == int(sys.argv[2])
# a violated verdict opens its run at the moment that property breaks
assert all(h.endswith("#violation=" + h.split("=")[-1]) and "#" in h for h, g in links if g == "✗")
assert all("#" not in h for h, g in links if g != "✗")
assert page.count("<sup>!</sup>") >= 4 and "claims: the comparison table" in page
assert not re.search(r'(src|href)="(https?:)?//', page)
PY
check "the runs' pages are beside the index" test "$(ls "$tmp/m-runs" | wc -l)" -eq "$cells"
check "the heat map is a PNG" sh -c "head -c 8 '$tmp/m.png' | od -An -c | grep -q 'P   N   G'"
if [ -z "$chromium_bin" ]; then
    bad "chromium is not installed (make deps installs it)"
else
    browse "$tmp/index.dom" "$tmp/m.html" --dump-dom
    check "the page: no console errors" quiet_console "$tmp/index.dom"
    check "the page: rendered with its table" grep -q '<table class="matrix">' "$tmp/index.dom"
    link=$(grep -o 'href="m-runs/distlock--gc-pause.html#violation=mutual_exclusion"' "$tmp/m.html" | head -1)
    link=${link#href=\"}
    browse "$tmp/cell.dom" "$tmp/${link%\"}" --dump-dom --window-size=1280,1600
    check "a cell's run page: no console errors" quiet_console "$tmp/cell.dom"
    # the overview: the whole table at a glance fits a 1280 × 800 screen (measured in the
    # page as Chromium lays it out: a copy with a script that notes the box), one mark per
    # cell linking to its run; the detailed table's headers stay in view (sticky)
    python3 - "$tmp/m.html" "$tmp/measure.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
probe = ("<script>var r=document.getElementById('overview').getBoundingClientRect();"
         "document.body.setAttribute('data-box',[r.left,r.top,r.right,r.bottom].join(' '));</script>")
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", probe + "</body>"))
PY
    browse "$tmp/measure.dom" "$tmp/measure.html" --dump-dom --window-size=1280,800 --hide-scrollbars
    check "the overview fits a 1280x800 screen" python3 - "$tmp/measure.dom" <<'PY'
import re, sys
box = [float(x) for x in re.search(r'data-box="([^"]+)"', open(sys.argv[1], encoding="utf-8").read()).group(1).split()]
assert box[0] >= 0 and box[2] <= 1280 and box[3] - box[1] <= 800 - 2 * 16, box
PY
    check "the overview: one mark per cell, each opening its run" python3 - "$tmp/m.html" "$cells" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
ov = page[page.index('<section id="overview">'):page.index("</section>")]
links = re.findall(r'<td class="[a-z ]+" title="[^"]*"><a href="([^"]+)">([✓✗])', ov)
assert len(links) == int(sys.argv[2]), len(links)
assert all(("#violation=" in h) == (g == "✗") for h, g in links)
assert ".matrix thead th{position:sticky;top:0" in page
# each violated property with its own mark where they differ: Consul cut off warns of ME only
cell = re.search(r'<td class="unwarned" title="Consul lock[^"]*the holder is cut off[^"]*">.*?</td>', ov).group(0)
assert "<small>ME= RS?</small>" in cell, cell
assert "/work/" not in page
PY
    "$LL" matrix -q --png "$tmp/o.png" 2>/dev/null
    check "--png: a 1280x800 PNG of the overview" python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read(24)
assert d[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", d[16:24]) == (1280, 800)' "$tmp/o.png"
    check "a cell's run page: the player opens where mutual exclusion breaks" python3 - "$tmp/cell.dom" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', re.search(r'<body ([^>]*)>', dom).group(1)))
assert attrs["ready"] == "1" and int(attrs["step"]) > 0, attrs
i = dom.index('id="holders"')
assert "2 clients at once" in dom[i:dom.index("</p>", i)]
PY
fi

# deterministic: the same bytes twice
"$LL" matrix --csv "$tmp/m2.csv" --html "$tmp/m2.html" >"$tmp/table2.txt" 2>/dev/null
check "the text table is deterministic" cmp -s "$tmp/table.txt" "$tmp/table2.txt"
check "the CSV is deterministic" cmp -s "$tmp/m.csv" "$tmp/m2.csv"
check "the HTML page is deterministic" sh -c "sed 's/m2-runs/m-runs/g' '$tmp/m2.html' | cmp -s - '$tmp/m.html'"
check "the runs' pages are deterministic" diff -rq "$tmp/m-runs" "$tmp/m2-runs"
expect_exit 0 "--quiet" -- "$LL" matrix -q
check "--quiet prints no table" test ! -s "$tmp/out"

# --- a table of one's own: a copy of the folder, a new row without C
cp -r scenarios/matrix "$tmp/mine"
cp -r "$tmp/mine/distlock" "$tmp/mine/distlock-long"
sed -i 's/lease = "10s"/lease = "30s"/' "$tmp/mine/distlock-long"/*.lua
python3 - "$tmp/mine/table.lua" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
row = '''    { id = "distlock-long", title = "compare-and-delete, 30 s lease",
      not_applicable = { failover = "not measured here", ["renewal-lost"] = "no renewal",
                         ["leader-cut"] = "one server" } },
  },
}
'''
i = s.rindex("  },\n}")
open(p, "w").write(s[:i] + row)
PY
rm "$tmp/mine/distlock-long/failover.lua"
expect_exit 1 "a new row whose expectations were copied from another" -- "$LL" matrix "$tmp/mine/table.lua"
grep -qF 'compare-and-delete, 30 s lease' "$tmp/out" && ok || bad "the new row is in the table"
grep -q '^  – failover: not measured here$' "$tmp/out" && ok || bad "a column that does not apply says why"
grep -q '✓≠' "$tmp/out" && grep -q 'some verdicts are NOT what their scenarios expect' "$tmp/out" && ok ||
    bad "an unmet expectation is marked and said"
grep -qF "$tmp/mine/distlock-long/gc-pause.lua: mutual_exclusion holds, expected violated" "$tmp/out" && ok ||
    bad "the unmet cell is named"
# ... and its GC pause (12 s) no longer outlives its lease (30 s): the cell proves nothing
grep -qF "$tmp/mine/distlock-long/gc-pause.lua: vacuous: the situation's fault never reached the lock" "$tmp/out" &&
    grep -q '^  ∅ GC pause VACUOUS: ' "$tmp/out" && ok || bad "a vacuous cell is named and marked"
# a vacuous cell alone fails the table: the original row with the pause shortened to 5 s
cp -r scenarios/matrix "$tmp/vac"
sed -i 's/gc_pause = "A", duration = "12000ms"/gc_pause = "A", duration = "3s"/; s/gc_pause = "A", duration = "12s"/gc_pause = "A", duration = "3s"/' \
    "$tmp/vac/distlock/gc-pause.lua"
sed -i 's/mutual_exclusion = "violated", resource_safety = "violated"/mutual_exclusion = "holds", resource_safety = "holds"/' \
    "$tmp/vac/distlock/gc-pause.lua"
expect_exit 1 "a cell whose fault touches nothing" -- "$LL" matrix "$tmp/vac/table.lua"
grep -qF "$tmp/vac/distlock/gc-pause.lua: vacuous: " "$tmp/out" && grep -q 'every verdict is what its scenario expects' "$tmp/out" &&
    ok || bad "a vacuous cell fails the table though its expect is met"
# the row says the fault cannot reach its lock, but it does: stale
cp -r scenarios/matrix "$tmp/stale"
python3 - "$tmp/stale/table.lua" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace('id = "mongodb-ttl", title = "MongoDB findAndModify + TTL index",',
              'id = "mongodb-ttl", title = "MongoDB findAndModify + TTL index",\n      untouched = { ["gc-pause"] = "wrongly" },', 1)
open(p, "w").write(s)
PY
expect_exit 1 "an untouched that the run contradicts" -- "$LL" matrix "$tmp/stale/table.lua"
grep -qF "mongodb-ttl/gc-pause.lua: the row says untouched, but A lost the lock" "$tmp/out" && ok || bad "a stale untouched is named"
# a property no cell of a row observes: client-go's release safety without the row's reason
cp -r scenarios/matrix "$tmp/unobs"
python3 - "$tmp/unobs/table.lua" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r'      unobservable = \{\n        release_safety = "client-go[^\n]*\n      \},\n', '', s, count=1)
open(p, "w").write(s)
PY
expect_exit 1 "a property never observed on a row" -- "$LL" matrix "$tmp/unobs/table.lua"
grep -qF "k8s-lease: release_safety is never observed" "$tmp/out" && grep -q '^  ∅ release safety NEVER OBSERVED on this row' "$tmp/out" &&
    ok || bad "a never-observed property is named"

# --- bad input
bad_table() { # DESCRIPTION TEXT SED-EXPRESSION
    sed "$3" scenarios/matrix/table.lua >"$tmp/mine/bad.lua"
    expect_exit 2 "$1" -- "$LL" matrix "$tmp/mine/bad.lua"
    one_line_err "$1" "$2"
}
expect_exit 2 "a missing table" -- "$LL" matrix "$tmp/none.lua"
one_line_err "a missing table" "cannot open '$tmp/none.lua'"
line=$(grep -n 'id = "redlock", title' scenarios/matrix/table.lua | cut -d: -f1)
bad_table "a row naming a missing scenario" "bad.lua:$line: rows[6]: no scenario '$tmp/mine/redlok/reenter.lua'" \
    's/id = "redlock", title/id = "redlok", title/'
line=$(grep -n '^  about = ' scenarios/matrix/table.lua | cut -d: -f1)
bad_table "an unknown key" "bad.lua:$line: unknown key 'abuot' in the matrix table; did you mean 'about'?" 's/^  about = /  abuot = /'
line=$(grep -n '^  properties = ' scenarios/matrix/table.lua | cut -d: -f1)
bad_table "an unknown property" "bad.lua:$line: properties[6]: 'fast' is not a property" 's/"reentrancy" }/"reentrancy", "fast" }/'
line=$(grep -n '\["holder-crash"\] = { no_deadlock = "violated" }' scenarios/matrix/table.lua | head -1 | cut -d: -f1)
bad_table "a claim for a column that does not exist" "bad.lua:$line: rows[1].claims: 'holder-crush' is not a column" \
    's/\["holder-crash"\] = { no_deadlock = "violated" }/["holder-crush"] = { no_deadlock = "violated" }/'
bad_table "a claim that is not holds or violated" 'must be "holds", "violated" or "unsaid"' \
    's/reenter = { reentrancy = "violated" },/reenter = { reentrancy = "no" },/'
bad_table "a row without a title" "has no 'title'" 's/id = "redisson-redlock", title = "Redisson RedLock (5 masters)",/id = "redisson-redlock",/'
line=$(grep -n 'id = "holder-crash", title' scenarios/matrix/table.lua | cut -d: -f1)
bad_table "a column without a title" "bad.lua:$line: columns[2] has no 'title'" \
    's/{ id = "holder-crash", title = "the holder crashes", short = "crash",/{ id = "holder-crash", short = "crash",/'
line=$(grep -n 'id = "gc-pause", title' scenarios/matrix/table.lua | cut -d: -f1)
bad_table "an unknown way a fault reaches the lock" "bad.lua:$line: columns[3].exercised: 'lock_lsot' is not a way" \
    's/exercised = { "lock_lost" } },/exercised = { "lock_lsot" } },/'
printf 'return 42\n' >"$tmp/mine/num.lua"
expect_exit 2 "a table that is not a table" -- "$LL" matrix "$tmp/mine/num.lua"
one_line_err "a table that is not a table" "num.lua:1:"
printf 'return {\n  name = "x",\n  about = "y",\n  protocol = "distlock",\n  clients = { { nme = "A" } },\n  duration = "1s",\n}\n' \
    >"$tmp/mine/distlock/gc-pause.lua"
expect_exit 2 "a broken cell scenario" -- "$LL" matrix "$tmp/mine/table.lua"
one_line_err "a broken cell scenario" "$tmp/mine/distlock/gc-pause.lua:5:"
expect_exit 2 "two tables" -- "$LL" matrix a.lua b.lua
one_line_err "two tables" "one table at a time"
expect_exit 2 "a plot that is not png/svg" -- "$LL" matrix --plot "$tmp/x.pdf"
one_line_err "a plot that is not png/svg" "must end in .png or .svg"
expect_exit 2 "an unknown option" -- "$LL" matrix --bogus
one_line_err "an unknown option" "unknown option '--bogus'"
mkdir -p "$tmp/bin"   # gnuplot missing: exit 2 before anything runs or is written
for tool in sh cat rm mv; do ln -sf "$(command -v $tool)" "$tmp/bin/$tool"; done
expect_exit 2 "gnuplot missing" -- env PATH="$tmp/bin" "$LL" matrix --plot "$tmp/g.png" --csv "$tmp/g.csv"
one_line_err "gnuplot missing" "apt-get install gnuplot-nox"
[ ! -e "$tmp/g.png" ] && [ ! -e "$tmp/g.csv" ] && ok || bad "gnuplot missing: something was written"
mkdir "$tmp/adir"   # a folder where the file should go: unwritable even for root
expect_exit 3 "an unwritable CSV" -- "$LL" matrix -q --csv "$tmp/adir"
one_line_err "an unwritable CSV" "$tmp/adir"
# a bad output path is said before any cell runs (no progress line), and nothing is left
expect_exit 3 "--html into a missing folder" -- "$LL" matrix -q --html "$tmp/none/m.html"
one_line_err "--html into a missing folder" "$tmp/none/m.html"
! grep -q '^matrix: ' "$tmp/err" && ok || bad "--html into a missing folder: cells ran before the error"
expect_exit 3 "--html onto a folder" -- "$LL" matrix -q --html "$tmp/adir" --csv "$tmp/left.csv"
one_line_err "--html onto a folder" "is a folder"
! grep -q '^matrix: ' "$tmp/err" && [ ! -e "$tmp/left.csv" ] && ok || bad "--html onto a folder: cells ran or a file was left"
expect_exit 2 "a --png that is not .png" -- "$LL" matrix --png "$tmp/x.jpg"
one_line_err "a --png that is not .png" "must end in .png"
expect_exit 2 "Chromium missing for --png" -- env PATH="$tmp/bin" "$LL" matrix --png "$tmp/c.png"
one_line_err "Chromium missing for --png" "apt-get install chromium"
[ ! -e "$tmp/c.png" ] && ok || bad "Chromium missing: something was written"

echo "matrix: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
