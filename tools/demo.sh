#!/usr/bin/env bash
# The body of `make demo`: run the whole scenario library and show the verdict table, the
# lock-design matrix, then tell one violation as a story, and point at what to try next.
set -uo pipefail
cd "$(dirname "$0")/.."
echo "== locklab: the scenario library, every scenario run and judged"
echo "   (each scenario states what the literature says should happen; [x] marks that verdict)"
echo
./locklab list --run
rc=$?
echo
echo "== Every lock design under the same faults (locklab matrix), beside what its sources claim"
echo "   (each cell is a scenario in scenarios/matrix/; = as claimed, ! claimed otherwise, ? not warned of)"
echo
mkdir -p out/matrix
./locklab matrix --html out/matrix/index.html --csv out/matrix/matrix.csv --plot out/matrix/heatmap.png 2>/dev/null
[ $? -eq 0 ] || rc=1
echo "   out/matrix/index.html: the table, each verdict opening its run; out/matrix/heatmap.png"
echo
echo "== One of them as a story: Kleppmann's GC pause (locklab run gc-pause-single --brief)"
echo
./locklab run gc-pause-single --brief
echo
echo "== Pictures of every scenario in out/pictures/: a page to step through each run (.html),"
echo "   the printable page (-static.html), the timeline (.png) and the space-time diagram (.svg)"
mkdir -p out/pictures
for f in scenarios/*.lua; do
    s=$(basename "$f" .lua)
    ./locklab run "$s" -q --plot "out/pictures/$s.png" --spacetime "out/pictures/$s-spacetime.svg" \
        --html "out/pictures/$s.html" --html-static "out/pictures/$s-static.html" >/dev/null 2>out/pictures/errors.txt
    [ $? -le 1 ] || { echo "   $s: $(cat out/pictures/errors.txt)"; }
done
rm -f out/pictures/errors.txt
# the index of the pictures: one row a scenario (its title as `locklab list` gives it), its four files
{
    printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\n'
    printf '<title>locklab: the pictures</title><style>body{font:16px/1.4 system-ui,sans-serif;margin:0 auto;padding:0 1em;max-width:70em}'
    printf 'td{padding:.15em .5em;vertical-align:top;border-bottom:1px solid #eee}code{font-size:.9em}</style></head><body>\n'
    printf '<h1>The pictures of every scenario</h1><p>made by tools/demo.sh (<code>locklab run NAME --html --html-static --plot --spacetime</code>)</p>\n<table>\n'
    ./locklab list | while read -r name rest; do
        [ -f "out/pictures/$name.html" ] || continue
        title=$(printf '%s' "$rest" | sed -E 's/^[^ ]+( \([^)]*\))? +//; s/&/\&amp;/g; s/</\&lt;/g')
        printf '<tr><td><a href="%s.html"><code>%s</code></a></td><td>%s</td><td><a href="%s.html">step through</a> · <a href="%s-static.html">printable</a> · <a href="%s.png">timeline</a> · <a href="%s-spacetime.svg">space-time</a></td></tr>\n' \
            "$name" "$name" "$title" "$name" "$name" "$name" "$name"
    done
    printf '</table></body></html>\n'
} >out/pictures/index.html
echo "   out/pictures/index.html lists them all"
echo "   open out/pictures/gc-pause-single.html in a browser (it works offline, from the file):"
echo "   space plays and pauses, the arrow keys step, v jumps to the moment mutual exclusion breaks"
echo
echo "== The lab in a browser (make playground): the simulator compiled to WebAssembly, nothing to install"
if make --no-print-directory playground >out/playground-build.log 2>&1; then
    rm -f out/playground-build.log
    echo "   open file://$PWD/out/playground/index.html (it works offline, from the file, or from any"
    echo "   static web server): pick a scenario, edit it, Run, Check; a link to"
    echo "   index.html#run=gc-pause-single opens on that run's verdicts"
else
    echo "   not built: make playground failed (out/playground-build.log says why)"
    rc=3
fi
echo
cat <<'EOF2'
== Next
  ./locklab run gc-pause-single            the same run with every request and reply
  ./locklab run gc-pause-single --verbose  ... and every redis.call inside every script
  ./locklab list                           the library, one line each
  ./locklab run scenarios/matrix/redisson/partition.lua --brief
                                           one cell of the matrix as a story
  ./locklab redis --play tests/transcripts/demo-reentrant-lock.txt
                                           the Redisson lock script by script, in the fake Redis
  ./locklab redis                          a fake Redis at the keyboard (type .help)
EOF2
exit $rc
