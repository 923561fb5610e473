#!/usr/bin/env bash
# The pictures of `locklab run` from the outside: --plot (PNG and SVG), --spacetime,
# --html-static and --html files are written, well-formed and deterministic; bad paths and a
# missing gnuplot fail with one line, the right exit code and nothing left behind; the static
# page renders in headless Chromium (not blank, no console errors); the player page (--html)
# is driven there through its address: it steps to the violation, its keyspace panel, the
# clients' beliefs and the narrated line say what the run did, its clocks agree with every
# recorded local time, and it logs nothing. Prints "N passed, N failed".
# Usage: tests/html/test_html.sh   (LOCKLAB=path/to/locklab to test another binary)
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/lib.sh html
case "$LL" in /*) ;; *) LL="$PWD/$LL" ;; esac
well_formed() {
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" 2>/dev/null
}
no_leftovers() { ! ls "$1"/*.tmp.* >/dev/null 2>&1; }

# --- files are written and well-formed
# the player's data: one JSON object in a <script> element, every event in it
player_data_ok() {
    python3 - "$1" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="run-data">\n(.*?)</script>', page, re.S)
d = json.loads(m.group(1))
assert d["total"] == len(d["events"]) > 0 and d["verdicts"] and d["timeline"]["rows"]
assert len(d["clocks"]) == len(d["actors"])
assert page.count("</script>") == 2 and page.count("<script") == 2
PY
}
for s in gc-pause-single failover-async-replication redlock-clock-jump gc-pause-fencing; do
    expect_exit 0 "$s with every picture" -- "$LL" run "$s" -q --plot "$tmp/$s.png" --spacetime "$tmp/$s.st.svg" \
        --html "$tmp/$s.html" --html-static "$tmp/$s.static.html"
    check "$s: PNG written" sh -c "head -c 8 '$tmp/$s.png' | od -An -c | grep -q 'P   N   G'"
    check "$s: space-time SVG well-formed" well_formed "$tmp/$s.st.svg"
    check "$s: static HTML written" grep -q '<svg' "$tmp/$s.static.html"
    check "$s: static HTML has two inline SVGs" test "$(grep -o '<svg' "$tmp/$s.static.html" | wc -l)" -eq 2
    check "$s: player written, with its data" player_data_ok "$tmp/$s.html"
    for f in "$tmp/$s.html" "$tmp/$s.static.html"; do
        check "$s: $(basename "$f") fetches nothing" sh -c "! grep -Eq '(src|href)=\"(https?:)?//|@import|url\\((https?:)?//' '$f'"
    done
done
mkdir -p "$tmp/nognuplot"
expect_exit 0 "--html needs no gnuplot" -- env PATH="$tmp/nognuplot" "$LL" run gc-pause-single -q --html "$tmp/ng-player.html"
check "--html without gnuplot: page written" player_data_ok "$tmp/ng-player.html"
expect_exit 0 "--plot as SVG" -- "$LL" run gc-pause-single -q --plot "$tmp/t.svg"
check "gnuplot SVG well-formed" well_formed "$tmp/t.svg"
check "no temporary files left" no_leftovers "$tmp"

# --- deterministic: same run, same bytes
"$LL" run redlock-basic -q --spacetime "$tmp/a.svg" --html "$tmp/a.html" --plot "$tmp/a.svg.svg" --html-static "$tmp/a.s.html" >/dev/null
"$LL" run redlock-basic -q --spacetime "$tmp/b.svg" --html "$tmp/b.html" --plot "$tmp/b.svg.svg" --html-static "$tmp/b.s.html" >/dev/null
check "space-time SVG byte-identical" cmp -s "$tmp/a.svg" "$tmp/b.svg"
check "player HTML byte-identical" cmp -s "$tmp/a.html" "$tmp/b.html"
check "static HTML byte-identical" cmp -s "$tmp/a.s.html" "$tmp/b.s.html"
check "timeline SVG byte-identical" cmp -s "$tmp/a.svg.svg" "$tmp/b.svg.svg"
check "long run: space-time elided or capped" grep -Eq 'more identical|diagram stops here' "$tmp/a.svg"

# --- the terminal timeline
COLUMNS=100 "$LL" run gc-pause-single >"$tmp/run.txt"
check "terminal timeline printed" grep -q '^legend:' "$tmp/run.txt"
check "terminal timeline rows are 100 columns" python3 - "$tmp/run.txt" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
rows = [l for l in lines if l[:4] in ("A   ", "B   ", "n1  ")]
sys.exit(0 if len(rows) == 3 and all(len(r) == 100 for r in rows) else 1)
PY
"$LL" run gc-pause-single -q >"$tmp/quiet.txt"
check "no terminal timeline with --quiet" sh -c "! grep -q '^legend:' '$tmp/quiet.txt'"

# --- bad input
expect_exit 3 "unwritable --plot path" -- "$LL" run gc-pause-single -q --plot /nonexistent-dir/t.png
one_line_err "unwritable --plot path"
expect_exit 3 "unwritable --spacetime path" -- "$LL" run gc-pause-single -q --spacetime /nonexistent-dir/t.svg
one_line_err "unwritable --spacetime path"
expect_exit 3 "unwritable --html path" -- "$LL" run gc-pause-single -q --html /nonexistent-dir/t.html
one_line_err "unwritable --html path"
expect_exit 3 "unwritable --html-static path" -- "$LL" run gc-pause-single -q --html-static /nonexistent-dir/t.html
one_line_err "unwritable --html-static path"
expect_exit 2 "--html-static without a file" -- "$LL" run gc-pause-single --html-static
mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect_exit 3 "read-only directory" -- "$LL" run gc-pause-single -q --plot "$tmp/ro/t.png"
    check "nothing left in a read-only directory" test -z "$(ls -A "$tmp/ro")"
fi
expect_exit 2 "--plot with a wrong extension" -- "$LL" run gc-pause-single -q --plot "$tmp/t.jpg"
one_line_err "--plot with a wrong extension"
expect_exit 2 "--plot without a file" -- "$LL" run gc-pause-single --plot
expect_exit 2 "gnuplot missing" -- env PATH="$tmp/nognuplot" "$LL" run gc-pause-single -q --plot "$tmp/ng.png"
one_line_err "gnuplot missing"
check "gnuplot missing: says how to install" grep -q 'install' "$tmp/err"
check "gnuplot missing: no file left" sh -c "! ls '$tmp'/ng.png* >/dev/null 2>&1"
printf '#!/bin/sh\necho "line 0: broken gnuplot" >&2\nexit 1\n' >"$tmp/nognuplot/gnuplot"
chmod +x "$tmp/nognuplot/gnuplot"
expect_exit 3 "gnuplot failing" -- env PATH="$tmp/nognuplot" "$LL" run gc-pause-single -q --plot "$tmp/bg.png"
one_line_err "gnuplot failing"
check "gnuplot failing: no file left" sh -c "! ls '$tmp'/bg.png* >/dev/null 2>&1"

# --- the pages in headless Chromium (no network; a fresh profile each time)
# not_blank PNG: a screenshot with more than 50 colours and 2000 non-white sampled pixels
not_blank() {
    python3 - "$1" <<'PY'
import sys, zlib, struct
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR": w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    if kind == b"IDAT": idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
bpp = {2: 3, 6: 4}[ctype]
stride = w * bpp
prev = bytearray(stride)
colours, nonwhite, i = set(), 0, 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    if y % 4 == 0:
        for x in range(0, w, 4):
            px = bytes(line[x * bpp:x * bpp + 3]); colours.add(px)
            if px != b"\xff\xff\xff": nonwhite += 1
sys.exit(0 if len(colours) > 50 and nonwhite > 2000 else 1)
PY
}
if [ -z "$chromium_bin" ]; then
    bad "chromium is not installed (make deps installs it)"
else
    # the static page, as before
    browse "$tmp/static.out" "$tmp/gc-pause-single.static.html" --screenshot="$tmp/shot.png" --window-size=1280,2000
    check "static page: chromium took a screenshot" test -s "$tmp/shot.png"
    check "static page: no console errors" quiet_console "$tmp/static.out"
    check "static page: rendered (not blank)" not_blank "$tmp/shot.png"

    # the player, stepped to the moment mutual exclusion breaks (Kleppmann's GC pause): B
    # enters while A, frozen, still believes it holds the lock, and n1's key is B's
    page=$tmp/gc-pause-single.html
    # The pages whose DOM is read are opened in one Chromium (tests/html/pages.py), one window
    # each: what `chromium --dump-dom` prints and the console log, for each below. Every
    # scenario's page too: each clock agrees with every recorded local time, nothing logged.
    for s in redlock-crash-restart-nofsync redlock-crash-restart-fsync-always; do
        "$LL" run "$s" -q --html "$tmp/$s.html" >/dev/null
    done
    pages=("$tmp/violation.dom" "file://$page#violation" 1280x1600 -- "$tmp/step.dom" "file://$page#step=5"
        -- "$tmp/story.dom" "file://$page#story&violation")
    for s in redlock-crash-restart-nofsync redlock-crash-restart-fsync-always; do
        pages+=(-- "$tmp/$s.dom" "file://$tmp/$s.html#t=1.5")
    done
    for f in scenarios/*.lua; do
        s=$(basename "$f" .lua)
        "$LL" run "$s" -q --html "$tmp/all-$s.html" >/dev/null 2>&1
        pages+=(-- "$tmp/all-$s.dom" "file://$tmp/all-$s.html#end")
    done
    python3 tests/html/pages.py "${pages[@]}" || bad "headless Chromium could not open the pages"
    check "player: no console errors at the violation" quiet_console "$tmp/violation.dom"
    check "player: the violation, read from the page" python3 - "$tmp/violation.dom" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
body = re.search(r'<body ([^>]*)>', dom).group(1)
attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body))
assert attrs["ready"] == "1" and attrs["clock-mismatches"] == "0", attrs
assert int(attrs["step"]) > 0
def part(ident, end):
    i = dom.index('id="%s"' % ident)
    return dom[i:dom.index(end, i)]
line = part("line", "</div>")
assert re.search(r'B\s+ENTERS the critical section', line), line
n1 = part("node-n1", "</table>")
row = re.search(r'<td class="key">lock</td><td class="value">"B:[^"<]*" <span class="owner"[^>]*>\(B’s\)</span></td>'
                r'<td class="ttl"><b>(\d+\.\d{3}) s</b> left', n1)
assert row and 9.9 < float(row.group(1)) <= 10.0, n1           # B's 10 s lease, just taken
a = part("client-A", "</div></div>")
assert "HOLDS" in a and "frozen by a GC pause" in a and "in the critical section" in a, a
b = part("client-B", "</div></div>")
assert "HOLDS" in b and "in the critical section" in b, b
holders = part("holders", "</p>")
assert "A, B" in holders and "2 clients at once" in holders, holders
now = re.findall(r'<li class="[^"]*\bnow\b[^"]*"[^>]*>([^<]*)</li>', part("story", "</ol>"))
assert re.search(r'B\s+ENTERS the critical section', now[0]) and now[1:] == ['✗ mutual_exclusion breaks here'], now
PY
    browse "$tmp/player.out" "$page#violation" --screenshot="$tmp/player.png" --window-size=1280,1800
    check "player: chromium took a screenshot" test -s "$tmp/player.png"
    check "player: the screenshot is not blank" not_blank "$tmp/player.png"
    check "player: no console errors in the screenshot run" quiet_console "$tmp/player.out"
    [ -n "${KEEP_SCREENSHOT:-}" ] && cp "$tmp/player.png" "$KEEP_SCREENSHOT"

    # the address drives the page: a step number, the story only, the start
    check "player: #step=5 is the fifth step" grep -q 'data-step="4"' "$tmp/step.dom"
    check "player: &story steps through the story only" python3 - "$tmp/story.dom" "$tmp/violation.dom" <<'PY'
import re, sys
step = lambda f: int(re.search(r'data-step="(\d+)"', open(f, encoding="utf-8").read()).group(1))
sys.exit(0 if 0 < step(sys.argv[1]) < step(sys.argv[2]) else 1)
PY

    # restarts: without persistence C comes back empty, with fsync always it keeps c1's key
    for s in redlock-crash-restart-nofsync redlock-crash-restart-fsync-always; do
        check "$s: no console errors" quiet_console "$tmp/$s.dom"
    done
    check "restart without fsync: C holds no keys" python3 - "$tmp/redlock-crash-restart-nofsync.dom" <<'PY'
import sys
dom = open(sys.argv[1], encoding="utf-8").read()
c = dom[dom.index('id="node-C"'):]
sys.exit(0 if c[:c.index('class="card')].count('no keys') == 1 else 1)
PY
    check "restart with fsync always: C keeps c1's lock" python3 - "$tmp/redlock-crash-restart-fsync-always.dom" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
c = dom[dom.index('id="node-C"'):]
c = c[:c.index('</table>')]
sys.exit(0 if re.search(r'<td class="key">lock</td><td class="value">"c1:[^<]*<span class="owner"[^>]*>\(c1’s\)', c) else 1)
PY

    # every scenario's page replays to its end: each clock agrees with every recorded local
    # time, and nothing is logged (a page of more than 4,000 events is drawn in slices, each a
    # task of its own, after the load event: pages.py waits for the page's data-ready first)
    for f in scenarios/*.lua; do
        s=$(basename "$f" .lua)
        if grep -q 'data-clock-mismatches="0" data-ready="1"' "$tmp/all-$s.dom" && quiet_console "$tmp/all-$s.dom"; then ok
        else bad "$s: the player did not replay cleanly to the end"; grep -E 'CONSOLE|Uncaught' "$tmp/all-$s.dom.log" | head -3; fi
    done
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
