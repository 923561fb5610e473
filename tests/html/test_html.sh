#!/usr/bin/env bash
# The pictures of `locklab run` from the outside: --plot (PNG and SVG), --spacetime and --html
# files are written, well-formed and deterministic; bad paths and a missing gnuplot fail with
# one line, the right exit code and nothing left behind; the HTML report renders in headless
# Chromium (not blank, no console errors). Prints "N passed, N failed".
# Usage: tests/html/test_html.sh   (LOCKLAB=path/to/locklab to test another binary)
set -uo pipefail
cd "$(dirname "$0")/../.."
LL=${LOCKLAB:-./locklab}
case "$LL" in /*) ;; *) LL="$PWD/$LL" ;; esac
tmp=$(mktemp -d /tmp/locklab-html.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

# expect_exit CODE DESCRIPTION -- command...
expect_exit() {
    local want=$1 what=$2
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else bad "$what: exit $got, wanted $want"; sed 's/^/    /' "$tmp/err" | head -5; fi
}
one_line_err() {
    if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^locklab: ' "$tmp/err"; then ok; else bad "$1: stderr is not one 'locklab: ' line"; cat "$tmp/err"; fi
}
well_formed() {
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" 2>/dev/null
}
no_leftovers() { ! ls "$1"/*.tmp.* >/dev/null 2>&1; }

# --- files are written and well-formed
for s in gc-pause-single failover-async-replication redlock-clock-jump gc-pause-fencing; do
    expect_exit 0 "$s with every picture" -- "$LL" run "$s" -q --plot "$tmp/$s.png" --spacetime "$tmp/$s.st.svg" --html "$tmp/$s.html"
    check "$s: PNG written" sh -c "head -c 8 '$tmp/$s.png' | od -An -c | grep -q 'P   N   G'"
    check "$s: space-time SVG well-formed" well_formed "$tmp/$s.st.svg"
    check "$s: HTML written" grep -q '<svg' "$tmp/$s.html"
    check "$s: HTML has two inline SVGs" test "$(grep -o '<svg' "$tmp/$s.html" | wc -l)" -eq 2
    check "$s: HTML fetches nothing" sh -c "! grep -Eq '(src|href)=\"(https?:)?//' '$tmp/$s.html'"
done
expect_exit 0 "--plot as SVG" -- "$LL" run gc-pause-single -q --plot "$tmp/t.svg"
check "gnuplot SVG well-formed" well_formed "$tmp/t.svg"
check "no temporary files left" no_leftovers "$tmp"

# --- deterministic: same run, same bytes
"$LL" run redlock-basic -q --spacetime "$tmp/a.svg" --html "$tmp/a.html" --plot "$tmp/a.svg.svg" >/dev/null
"$LL" run redlock-basic -q --spacetime "$tmp/b.svg" --html "$tmp/b.html" --plot "$tmp/b.svg.svg" >/dev/null
check "space-time SVG byte-identical" cmp -s "$tmp/a.svg" "$tmp/b.svg"
check "HTML byte-identical" cmp -s "$tmp/a.html" "$tmp/b.html"
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
mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect_exit 3 "read-only directory" -- "$LL" run gc-pause-single -q --plot "$tmp/ro/t.png"
    check "nothing left in a read-only directory" test -z "$(ls -A "$tmp/ro")"
fi
expect_exit 2 "--plot with a wrong extension" -- "$LL" run gc-pause-single -q --plot "$tmp/t.jpg"
one_line_err "--plot with a wrong extension"
expect_exit 2 "--plot without a file" -- "$LL" run gc-pause-single --plot
mkdir -p "$tmp/nognuplot"
expect_exit 2 "gnuplot missing" -- env PATH="$tmp/nognuplot" "$LL" run gc-pause-single -q --plot "$tmp/ng.png"
one_line_err "gnuplot missing"
check "gnuplot missing: says how to install" grep -q 'install' "$tmp/err"
check "gnuplot missing: no file left" sh -c "! ls '$tmp'/ng.png* >/dev/null 2>&1"
printf '#!/bin/sh\necho "line 0: broken gnuplot" >&2\nexit 1\n' >"$tmp/nognuplot/gnuplot"
chmod +x "$tmp/nognuplot/gnuplot"
expect_exit 3 "gnuplot failing" -- env PATH="$tmp/nognuplot" "$LL" run gc-pause-single -q --plot "$tmp/bg.png"
one_line_err "gnuplot failing"
check "gnuplot failing: no file left" sh -c "! ls '$tmp'/bg.png* >/dev/null 2>&1"

# --- the HTML report renders in headless Chromium
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium_bin" ]; then
    bad "chromium is not installed (make deps installs it)"
else
    profile=$(mktemp -d "$tmp/profile.XXXXXX")
    timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
        --enable-logging=stderr --v=0 --screenshot="$tmp/shot.png" --window-size=1280,2000 \
        "file://$tmp/gc-pause-single.html" >"$tmp/chromium.out" 2>&1
    check "chromium took a screenshot" test -s "$tmp/shot.png"
    check "no console errors" sh -c "! grep -Eq 'Uncaught|ERROR:CONSOLE|CONSOLE\\(' '$tmp/chromium.out'"
    check "the page rendered (not blank)" python3 - "$tmp/shot.png" <<'PY'
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
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
