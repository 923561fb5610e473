#!/usr/bin/env python3
"""The playground as a teacher and a student use it, in headless Chromium (tests/web/cdp.py):
  - layouts: at 390 and 1280 px (and 768, 1920 for the screenshots) the playground after a
    run, a lesson after its answer and the step-through page (`locklab run --html`) have no
    sideways scroll, and no two labels of the player's timeline or world overlap (bounding
    boxes); the picture is the first thing under the buttons after Run; screenshots of each
    go to out/web-shots/ (not checked: for a person to look at);
  - the engine never runs on the page's thread: during a heavy run the page keeps handling
    its events (ordering, not time: see below) and the browser records no task of the page
    over 100 ms (said, not judged: a length is wall-clock time);
  - the course: every lesson of scenarios/course/lessons.txt opens at #lesson=N, predict
    first (no verdict, no Run before the answer), the run opens at the moment the property
    breaks, and its exercise is checked by the engine: the lesson's answer meets its goal, the
    lesson's own scenario does not;
  - the matrix in the page is `locklab matrix`'s CSV byte for byte; a two-knob sweep's cells
    are the engine's verdicts; a live fault (a node picked in the player) makes a scenario
    whose verdicts `locklab run` gives byte for byte.
When emcc or chromium is missing, this fails (make deps installs both): it never skips.
Prints "N passed, N failed". Usage: tests/web/test_course.py (LOCKLAB=native binary)."""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
from cdp import Chromium, ChromiumError  # noqa: E402

os.chdir(ROOT)
LL = os.path.abspath(os.environ.get("LOCKLAB", "./locklab"))
SITE = os.path.join(ROOT, "out", "playground")
SHOTS = os.path.join(ROOT, "out", "web-shots")
PAGE = "file://" + os.path.join(SITE, "index.html")
passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what + (("\n    " + str(detail)[:700].replace("\n", "\n    ")) if detail else ""))


def finish():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 else 1)


def native(args, cwd=ROOT, env=None):
    out = tempfile.mkdtemp(prefix="locklab-web-native.")
    try:
        words = [a.replace("{out}", out) for a in args]
        p = subprocess.run([LL] + words, cwd=cwd, env=dict(os.environ, **(env or {})), capture_output=True)
        files = {}
        for name in os.listdir(out):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                files[name] = f.read()
        return p.stdout.decode(), p.stderr.decode(), p.returncode, files
    finally:
        shutil.rmtree(out)


# In the page (or in the player's frame, `doc`): the bounding boxes of the labels that must not
# overlap — the timeline's texts (ticks, row names, faults, violations), the world's wire
# labels — and the wire labels must stay inside their column. Returns the overlapping pairs.
OVERLAPS = r"""(function (doc) {
  var out = [], box = function (e) { var r = e.getBoundingClientRect(); return { x0: r.left, x1: r.right, y0: r.top, y1: r.bottom, t: e.textContent }; };
  var meet = function (a, b) { return a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1 && a.y0 < b.y1 - 1 && b.y0 < a.y1 - 1; };
  var groups = [doc.querySelectorAll('svg.tl text'), doc.querySelectorAll('.wires text')];
  groups.forEach(function (g) {
    var b = Array.prototype.map.call(g, box).filter(function (x) { return x.x1 > x.x0; });
    for (var i = 0; i < b.length; i++) for (var j = i + 1; j < b.length; j++) if (meet(b[i], b[j])) out.push([b[i].t, b[j].t]);
  });
  var wires = doc.querySelector('.wires');
  if (wires && wires.offsetWidth) {
    var w = wires.getBoundingClientRect();
    Array.prototype.forEach.call(doc.querySelectorAll('.wires text.wlabel'), function (e) {
      var r = e.getBoundingClientRect();
      if (r.left < w.left - 1 || r.right > w.right + 1) out.push([e.textContent, 'outside the wires column']);
    });
  }
  return out;
})"""
SIDEWAYS = "(function (doc, win) { return [doc.scrollingElement.scrollWidth, win.innerWidth]; })"
FRAME = ("new Promise(function (done) { var f = document.getElementById('player'); (function p() { var d = f.contentDocument;"
         " if (d && d.body && d.body.dataset.ready && d.body.classList.contains('embedded')) done(true); else setTimeout(p, 20); })(); })")


def viewport(c, w, h):
    c.call("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 500})


def shot(c, name):
    os.makedirs(SHOTS, exist_ok=True)
    d = c.call("Page.captureScreenshot", {"format": "png"})
    with open(os.path.join(SHOTS, name + ".png"), "wb") as f:
        f.write(base64.b64decode(d["data"]))


def layout(c, what, frame=True):
    sw, iw = c.eval(SIDEWAYS + "(document, window)")
    check(what + ": no sideways scroll (%d px laid out in %d)" % (sw, iw), sw <= iw, (sw, iw))
    doc = "document.getElementById('player').contentDocument" if frame else "document"
    win = "document.getElementById('player').contentWindow" if frame else "window"
    if frame:
        fsw, fiw = c.eval(SIDEWAYS + "(%s, %s)" % (doc, win))
        check(what + ": the player's frame has no sideways scroll (%d in %d)" % (fsw, fiw), fsw <= fiw, (fsw, fiw))
    pairs = c.eval(OVERLAPS + "(%s)" % doc)
    check(what + ": no two labels overlap", pairs == [], pairs)


build = subprocess.run(["make", "--no-print-directory", "playground"], capture_output=True, text=True)
check("make playground", build.returncode == 0, (build.stdout + build.stderr)[-1500:])
if build.returncode != 0:
    finish()
listed = set(l.split()[0] for l in subprocess.run([LL, "list"], capture_output=True, text=True).stdout.split("\n") if l.strip())

try:
    with Chromium() as c:
        # --- layouts: the playground after Run, at four widths
        for w, h in ((390, 844), (768, 1024), (1024, 768), (1280, 800), (1920, 1080)):
            c.open("about:blank")
            viewport(c, w, h)
            c.open(PAGE + "#run=gc-pause-single")
            viewport(c, w, h)
            c.eval("locklab.ready")
            c.eval(FRAME)
            c.eval("document.getElementById('player').contentWindow.postMessage({ locklab: 'goto', to: 'violation' }, '*')")
            c.eval("new Promise(function (d) { setTimeout(d, 300); })")
            what = "playground at %d px" % w
            layout(c, what)
            if w in (390, 1280):
                top = c.eval("document.getElementById('player').getBoundingClientRect().top")
                check(what + ": the picture first after Run (the player's frame at the top, y = %d)" % top, -1 <= top < 60, top)
            shot(c, "playground-%d" % w)
        # the presenter's layout: the timeline and the world at the cursor on one 1280x800 screen
        viewport(c, 1280, 800)
        out = tempfile.mkdtemp(prefix="locklab-web-player.")
        for name in ("gc-pause-single", "fairlock-fifo", "failover-async-replication"):
            subprocess.run([LL, "run", name, "-q", "--html", os.path.join(out, name + ".html")], capture_output=True)
        c.open("file://" + os.path.join(out, "gc-pause-single.html") + "#violation&present")
        viewport(c, 1280, 800)
        c.eval("new Promise(function (d) { setTimeout(d, 300); })")
        c.eval("window.scrollTo(0, document.getElementById('controls').getBoundingClientRect().top + scrollY)")
        bottom = c.eval("document.getElementById('world').getBoundingClientRect().bottom")
        check("presenter layout (#present) at 1280x800: the controls, the timeline and the world on one screen (world ends at y = %d)" % bottom,
              0 < bottom <= 800, bottom)
        shot(c, "player-present-1280")
        # --- the step-through page itself (locklab run --html), at 390 and 1280 px
        for w, h in ((390, 844), (1280, 800)):
            for name, at in (("gc-pause-single", "violation"), ("gc-pause-single", "step=2"), ("fairlock-fifo", "t=3"),
                             ("failover-async-replication", "step=6")):
                c.open("about:blank")
                viewport(c, w, h)
                c.open("file://" + os.path.join(out, name + ".html") + "#" + at)
                viewport(c, w, h)
                c.eval("new Promise(function (d) { setTimeout(d, 400); })")
                layout(c, "step-through page %s#%s at %d px" % (name, at, w), frame=False)
                shot(c, "player-%s-%s-%d" % (name, at.replace("=", ""), w))
        # the matrix's page (locklab matrix --html): each table scrolls in its own box
        subprocess.run([LL, "matrix", "-q", "--html", os.path.join(out, "m.html")], capture_output=True)
        for w, h in ((390, 844), (1280, 800)):
            c.open("about:blank")
            viewport(c, w, h)
            c.open("file://" + os.path.join(out, "m.html"))
            viewport(c, w, h)
            sw, iw = c.eval(SIDEWAYS + "(document, window)")
            check("the matrix's page at %d px: no sideways scroll (%d in %d)" % (w, sw, iw), sw <= iw, (sw, iw))
            shot(c, "matrix-page-%d" % w)
        # the fair lock: the waiters' entries are theirs, by name (not the holder's, not UUIDs)
        c.open("file://" + os.path.join(out, "fairlock-fifo.html") + "#t=3")
        c.eval("new Promise(function (d) { setTimeout(d, 300); })")
        cell = c.eval("Array.prototype.filter.call(document.querySelectorAll('#node-n1 tr'), function (tr) {"
                      " return /redisson_lock_timeout/.test(tr.textContent); }).map(function (tr) { return tr.querySelector('td.value').textContent; })[0]")
        check("fair lock at 3 s: the timeout entries named C4 and C5, credited to both, not to the holder C3",
              cell and "C4:1" in cell and "C5:1" in cell and "(C4, C5)" in cell and "C3" not in cell, cell)
        check("fair lock: no raw UUID in a value shown", not c.eval("/[0-9a-f]{8}-[0-9a-f]{4}-/.test(Array.prototype.map.call("
                                                                   "document.querySelectorAll('#world td.value'), function (e) { return e.textContent; }).join(' '))"))
        shutil.rmtree(out)
        c.console_errors[:] = [e for e in c.console_errors if "favicon" not in e]
        check("the pages logged no error (layouts)", not c.console_errors, c.console_errors)

        # --- a lesson after its answer, at 390 and 1280 px
        for w, h in ((390, 844), (1280, 800)):
            c.open("about:blank")
            viewport(c, w, h)
            c.open(PAGE + "#lesson=3")
            viewport(c, w, h)
            c.eval("locklab.ready")
            shot(c, "lesson3-predict-%d" % w)
            c.eval("locklab.answer(3, 0)")
            c.eval(FRAME)
            c.eval("new Promise(function (d) { setTimeout(d, 300); })")
            layout(c, "lesson 3 at %d px" % w)
            shot(c, "lesson3-after-%d" % w)

        c.open(PAGE)
        viewport(c, 1280, 800)
        c.eval("locklab.ready")
        # --- the matrix in the page: locklab matrix's CSV, byte for byte, and its table
        r = c.eval("locklab.matrix()")
        o, e, rc, files = native(["matrix", "-q", "--csv", "{out}/matrix.csv"])
        check("matrix in the worker: exit %d as native" % rc, r["code"] == rc, (r.get("stderr") or "")[-300:])
        # (the one difference: a cell's path, absolute natively, /locklab/... in the page)
        check("matrix: the CSV byte-identical (but the cells' folder)",
              r["csv"] == (files.get("matrix.csv") or "").replace(ROOT + "/", "/locklab/"))
        cells = c.eval("Number(document.getElementById('matrix-out').dataset.cells)")
        check("matrix: the table in the page has every row of the CSV (%s)" % cells,
              cells == len((files.get("matrix.csv") or "").strip().split("\n")) - 1 and cells > 100)
        c.eval("document.getElementById('matrix-box').scrollIntoView()")
        shot(c, "matrix-1280")
        # a cell is a click away from its run: the cell's scenario picked and run
        c.eval("document.querySelector('#matrix-out td[data-cell=\"matrix/redlock/clock-jump\"]').click()")
        r = c.eval("new Promise(function (d) { (function poll() { var v = [document.getElementById('pick').value, document.getElementById('player').hidden];"
                   " if (!locklab.busy() && !v[1] && v[0] === 'matrix/redlock/clock-jump') d(v); else setTimeout(poll, 50); })(); })")
        check("matrix: a click on a cell runs it (%s)" % r, r == ["matrix/redlock/clock-jump", False], r)

        # --- a two-knob sweep: each row is `locklab sweep` (cli/sweep.c) in the worker, its
        # table and CSV byte for byte what ./locklab sweep prints for that text and those words
        c.eval("locklab.select('gc-pause-single')")
        r = c.eval("locklab.sweep('gc_pause', '4s:12s:8s', 'k-lease', '6s,20s', 'mutual_exclusion', '3')")
        # A works 15 s (its work runs on through the pause): safe only where the lease outlives it
        check("sweep: 2x2 cells, safe only where the lease (20 s) outlives A's 15 s of work (%s)" % (r and r.get("cells")),
              r and r["code"] == 0 and r["cells"] == ["unsafe", "unsafe", "safe", "safe"], r and {k: r[k] for k in ("code", "cells", "paths")})
        check("sweep: drawn as a heat map (2 safe cells, 2 unsafe; 3/3 and 0/3 runs)",
              c.eval("Array.prototype.map.call(document.querySelectorAll('#sweep-out td[data-k]'), function (td) { return td.textContent; })")
              == ["3/3", "3/3", "0/3", "0/3"])
        texts = c.eval("locklab.select('gc-pause-single').then(function () { return ['6s', '20s'].map(function (v) {"
                       " return locklab.setKnob('k-lease', v); }); })")
        for k, (one, path, text) in enumerate(zip(r["rows"] if r else [], r["paths"] if r else [], texts)):
            work = tempfile.mkdtemp(prefix="locklab-web-sweep.")
            with open(os.path.join(work, path), "w", encoding="utf-8") as f:
                f.write(text)
            o, e, rc, files = native(["sweep", path] + r["args"] + ["--csv", "{out}/sweep.csv"], cwd=work, env={"LOCKLAB_HOME": ROOT})
            shutil.rmtree(work)
            check("sweep row %d: exit %d as ./locklab sweep" % (k + 1, rc), one["code"] == rc == 0, one["stderr"][-300:])
            check("sweep row %d: the table byte-identical to ./locklab sweep %s %s" % (k + 1, path, " ".join(r["args"])),
                  one["stdout"] == o and "violation rate per property" in o, (one["stdout"][-400:], o[-400:]))
            check("sweep row %d: the CSV byte-identical" % (k + 1), one["csv"] == files.get("sweep.csv") and one["csv"].count("\n") == 3)
        c.eval("locklab.select('gc-pause-single')")
        r = c.eval("locklab.sweep('gc_pause', '4s:12s', 'k-lease', '6s', 'mutual_exclusion', '1')")
        note = c.eval("document.getElementById('sweep-note').textContent")
        check("sweep: a bad range gets locklab sweep's own one-line error (%s)" % note,
              r["code"] == 2 and note.startswith("locklab: sweep: gc_pause:") and "FROM:TO:STEP" in note, (r, note))

        # --- live faults: a node picked in the player at an instant; the scenario with that
        # fault added runs again, the page says what changed, and the text replays natively
        c.eval("locklab.select('single-basic').then(function () { return locklab.run(); })")
        # a click on n1's card in the player's frame tells the page
        c.eval(FRAME)
        c.eval("document.getElementById('player').contentDocument.getElementById('node-n1').click()")
        who = c.eval("new Promise(function (d) { setTimeout(function () { d(document.getElementById('live').hidden ? null :"
                     " document.getElementById('live-who').textContent); }, 200); })")
        check("live fault: a click on a node in the player offers its faults (%s)" % who, who is not None and who.startswith("n1 at "), who)
        actors = c.eval("Array.prototype.map.call(document.getElementById('player').contentDocument.querySelectorAll('#world .card'),"
                        " function (e) { return e.id.replace(/^(node|client)-/, ''); })")
        check("live fault: the player's cards name every actor (%s)" % actors, sorted(actors or []) == ["A", "B", "C", "n1"], actors)
        # each size the student's: a clock jump, a cut, a pause, a drift rate, as typed
        for kind, who, size, line, changed in (
                ("clock_jump", "n1", "10s", 'clock_jump = "n1", by = "10s"', "mutual_exclusion holds → violated"),
                ("clock_jump", "n1", "-3s", 'clock_jump = "n1", by = "-3s"', None),
                ("partition", "n1", "12s", 'partition = { { "n1" }, { "A", "B", "C" } }, duration = "12s"', None),
                ("gc_pause", "A", "11s", 'gc_pause = "A", duration = "11s"', "mutual_exclusion holds → violated"),
                ("gc_pause", "A", "3s", 'gc_pause = "A", duration = "3s"', None),
                ("drift", "n1", "0.9", 'drift = "n1", rate = 0.9', None),
                ("crash", "n1", "2s", '{ at = "500ms", crash = "n1" }, { at = "2500ms", restart = "n1" }', None),
                ("crash", "A", "", '{ at = "500ms", crash = "A" }', None)):
            c.eval("locklab.select('single-basic').then(function () { return locklab.run(); })")
            c.eval("locklab.pick(%s, %s, 500000, %s)" % (json.dumps(who), "true" if who == "n1" else "false", json.dumps(actors)))
            r = c.eval("locklab.liveFault(%s, %s)" % (json.dumps(kind), json.dumps(size)))
            text = c.eval("locklab.text()")
            what = "live fault %s of %s, %s" % (kind, who, size)
            check(what + ": the fault, of that size, is in the scenario's text", line in text and 'at = "500ms"' in text, text[:900])
            note = c.eval("document.getElementById('live-note').textContent")
            check(what + ": the page says what changed (%s)" % note, (changed in note) if changed else ("Added" in note and r["code"] in (0, 1)), note)
            work = tempfile.mkdtemp(prefix="locklab-web-live.")
            with open(os.path.join(work, "my-single-basic.lua"), "w", encoding="utf-8") as f:
                f.write(text)
            _, _, _, lfiles = native(["run", "my-single-basic.lua", "-q", "--verdicts", "{out}/v.json", "--json", "{out}/h.jsonl",
                                      "--html", "{out}/p.html"], cwd=work, env={"LOCKLAB_HOME": ROOT})
            check(what + ": its verdicts byte-identical to locklab run of that text", r and r["verdicts"] == lfiles.get("v.json"))
            shutil.rmtree(work)
        # a size the engine refuses: its own one-line error, and a rate that is no number
        c.eval("locklab.select('single-basic').then(function () { return locklab.run(); })")
        c.eval("locklab.pick('A', false, 500000, %s)" % json.dumps(actors))
        r = c.eval("locklab.liveFault('gc_pause', 'ten')")
        note = c.eval("document.getElementById('live-note').textContent")
        check("live fault: a pause of 'ten': the engine's error said (%s)" % note, r["code"] == 2 and 'bad duration "ten"' in note, note)
        c.eval("locklab.select('single-basic').then(function () { return locklab.run(); })")
        c.eval("locklab.pick('n1', true, 500000, %s)" % json.dumps(actors))
        r = c.eval("locklab.liveFault('drift', 'fast')")
        check("live fault: a drift rate that is no number is refused before running",
              r is None and "is a number" in c.eval("document.getElementById('live-note').textContent"))

        # --- the engine never runs on the page's thread. A heavy edited run (60 clients polling
        # for 20 minutes) goes to the worker. Robust on a loaded machine:
        # (1) ordering, not time: a probe re-arms setTimeout(0) on the page while the run is
        #     busy; a page whose thread ran the engine could not turn it once until the end;
        # (2) the browser's long-task record (PerformanceObserver 'longtask'): no task of the
        #     page over 100 ms while the worker runs (the page does almost nothing then, so a
        #     loaded machine does not make one); the observer is first shown to see a 150 ms
        #     task the page makes itself, so that an empty record means something.
        heavy = ('return { name = "heavy", about = [[a heavy run for the test]], protocol = "distlock", nodes = 1,'
                 ' lease = "10s", wait = "20m", network = { delay = {"1ms", "5ms"} }, clients = (function ()'
                 ' local t = {} for i = 1, 60 do t[i] = { name = "C" .. i, start = i, work = "20s" } end return t end)(),'
                 ' duration = "20m", seed = 1 }\n')
        c.open(PAGE)  # a fresh page: what the tests above left behind is no part of this run
        c.eval("locklab.ready")
        c.eval("locklab.setText(%s)" % json.dumps(heavy))
        r = c.eval("""new Promise(function (done) {
            var tasks = [], obs = new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) { tasks.push(e); }); });
            obs.observe({ type: 'long-animation-frame' });
            obs.observe({ type: 'longtask' });
            setTimeout(function () { var t = performance.now(); while (performance.now() - t < 150) {} }, 0);
            setTimeout(function () {
              tasks = tasks.concat(obs.takeRecords());
              var scripts = function (list) { var out = []; list.forEach(function (e) { (e.scripts || []).forEach(function (x) { out.push(x); }); }); return out; };
              var seen = scripts(tasks).some(function (x) { return x.duration >= 140; });
              /* the page's own garbage (the module's text decoded at the start, ...) collected
               * now, not by chance in the middle of the run on a loaded machine: what is
               * measured is whether the engine's work reaches the page's thread */
              if (typeof gc === 'function') gc();
              tasks = tasks.concat(obs.takeRecords());
              tasks = [];
              document.getElementById('run').click();
              var p = new Promise(function (d) { setTimeout(function () { locklab.idle().then(function () { d({ code: 0 }); }); }, 0); });
              var busyTurns = 0, t0 = performance.now(), t1 = null;
              (function probe() {
                if (locklab.busy()) { busyTurns++; setTimeout(probe, 0); }
                else if (busyTurns === 0) setTimeout(probe, 0);
                else t1 = performance.now();
              })();
              p.then(function (r) {
                setTimeout(function () {
                  tasks = tasks.concat(obs.takeRecords());
                  obs.disconnect();
                  r.code = /exit [01]|what happens now/.test(document.getElementById('status').textContent) ? 1 : 3;
                  /* the run: from the click until the worker's result arrives (the task that
                   * receives it, a garbage collection of the page's heap, and drawing the
                   * player are after the run) */
                  var end = locklab.host.doneAt;
                  var during = tasks.filter(function (e) { return e.entryType === 'longtask' && e.startTime >= t0 - 1 && e.startTime < end - 2; });
                  var ran = scripts(tasks).filter(function (x) { return x.startTime >= t0 - 1 && x.startTime < end - 2; });
                  done({ seen: seen, busyTurns: busyTurns, ms: end - t0, code: r.code, all: tasks.map(function (e) { return Math.round(e.duration); }),
                         long: during.map(function (e) { return Math.round(e.duration); }),
                         scripts: ran.map(function (x) { return [Math.round(x.duration), x.invoker]; }).filter(function (x) { return x[0] > 20; }),
                         at: during.map(function (e) { return [Math.round(e.startTime - t0), Math.round(end - e.startTime), e.name,
                                                               JSON.stringify(e.attribution.map(function (a) { return a.containerType; }))]; }) });
                }, 300);
              });
            }, 400);
          })""")
        check("responsive: the long-animation-frame observer sees a 150 ms script of the page", r["seen"], r)
        check("responsive: the heavy run ran in the worker (exit %s, %.1f s)" % (r["code"], r["ms"] / 1000), r["code"] in (0, 1), r)
        check("responsive: the page turned its event loop all through the run (%d turns)" % r["busyTurns"], r["busyTurns"] >= 20, r)
        # the scripts the page's thread ran during the run, said, not judged: their length is
        # wall-clock time (a 112 ms timer handler on a machine loaded 16 on 2 cores); that the
        # engine is not among them is what the turns above show, by ordering
        if any(d > 100 for d, _ in r["scripts"]):
            print("note: scripts of the page's thread over 100 ms during the run (a loaded machine): %s" % r["scripts"])
        # --- drawing the heavy run's 50,000 events: the player builds its model a slice at a
        # time (at most LL_SLICE = 2000 events read per task, reports/html_model.js), the page's
        # event loop turning between slices; counted in events and turns, not in ms (the
        # times are in make bench: tools/bench-web.sh)
        c.eval(FRAME)
        d = c.eval("(function () { var b = document.getElementById('player').contentDocument.body;"
                   " return { ready: b.dataset.ready, slices: Number(b.dataset.slices), most: Number(b.dataset.sliceMost) }; })()")
        # the events the page holds: one a line between '"events":[' and '],\n"total":' (html_data.c)
        drawn = c.eval("(function () { var t = locklab.pageData(), i = t.indexOf('\"events\":['), j = t.indexOf('],\\n\"total\":', i);"
                       " return t.slice(i, j).split('\\n').length - 1; })()")
        check("drawing the heavy run: %d events, built in %d slices of at most %d events each (<= 2000)" % (drawn, d["slices"], d["most"]),
              d["ready"] == "1" and drawn >= 40000 and 0 < d["most"] <= 2000 and d["slices"] >= 7 * drawn // 2000, (d, drawn))
        # the page's thread turns between the slices: a probe that re-posts itself through a
        # MessageChannel (the task source the player's slices use, so they take turns) while
        # the frame draws the same page again counts its turns (ordering, not time)
        p = c.eval("""new Promise(function (done) {
            var f = document.getElementById('player'), turns = 0, ch = new MessageChannel(), was = f.contentDocument;
            ch.port1.onmessage = function probe() {
              var b = f.contentDocument !== was && f.contentDocument && f.contentDocument.body;
              if (b && b.dataset.ready && b.dataset.slices) done({ turns: turns, slices: Number(b.dataset.slices) });
              else { turns++; ch.port2.postMessage(0); }
            };
            locklab.redraw();
            ch.port2.postMessage(0);
          })""")
        check("drawing the heavy run: the page's event loop turned between the slices (%d turns for %d slices)" % (p["turns"], p["slices"]),
              p["turns"] >= p["slices"] // 2, p)
        # the long tasks the browser saw, said, not judged: on a loaded machine a frame's commit
        # waits for a starved compositor thread (the trace names it "Commit"), which is the
        # machine's load and no script of the page's
        if r["long"]:
            print("note: long tasks of the page during the run (rendering, no script over 100 ms): %s ms" % r["long"])
        # Stop during a run: no result claimed, and the next run is answered by a new worker
        r = c.eval("""new Promise(function (done) {
            document.getElementById('run').click();
            (function poll() { if (locklab.busy()) { document.getElementById('stop').click();
              locklab.idle().then(function () { done({ status: document.getElementById('status').textContent,
                note: document.getElementById('progress-note').textContent }); }); } else setTimeout(poll, 5); })();
          })""")
        check("Stop during a run: the page says it was stopped, with no result", r["status"] == "run stopped: no result"
              and r["note"].startswith("stopped"), r)
        r = c.eval("locklab.select('gc-pause-single').then(function () { return locklab.run(); })")
        check("Stop: the next run is answered (a new worker, the module not compiled again)", r["code"] == 0 and r["page"] > 0, r)
        check("responsive: the engine in a worker from a module compiled once",
              c.eval("locklab.host.module !== null && locklab.host.worker !== null && locklab.host.startMs > 0"))

        # --- Check is offered only for a scenario with an explore table, also after a job
        c.eval("locklab.select('gc-pause-single').then(function () { return locklab.run(); })")
        check("Check is off for a scenario with no explore table (after a run too)", c.eval("document.getElementById('check').disabled"))
        c.eval("locklab.select('check/failover').then(function () { return locklab.command(['list']); })")
        check("Check is on for a model checker's problem", not c.eval("document.getElementById('check').disabled"))

        # --- a check's counter-example as downloads that locklab run replays
        c.eval("locklab.check('check/failover')")
        links = c.eval("Promise.all(Array.prototype.map.call(document.querySelectorAll('#downloads a'), function (a) {"
                       " return fetch(a.href).then(function (r) { return r.text(); }).then(function (t) { return [a.download, t]; }); }))")
        files = dict(links or [])
        check("check: the counter-example offered as two downloads", sorted(files) == ["counterexample.choices", "counterexample.lua"], sorted(files))
        if len(files) == 2:
            work = tempfile.mkdtemp(prefix="locklab-web-dl.")
            for name, text in files.items():
                with open(os.path.join(work, name), "w", encoding="utf-8") as f:
                    f.write(text)
            p = subprocess.run([LL, "run", "counterexample.lua", "--choices", "counterexample.choices", "-q"], cwd=work,
                               env=dict(os.environ, LOCKLAB_HOME=ROOT), capture_output=True, text=True)
            check("check: the downloaded files replay with locklab run to the violation (exit %d)" % p.returncode,
                  p.returncode in (0, 1) and "mutual_exclusion  VIOLATED" in p.stdout, p.stdout[-400:] + p.stderr[-300:])
            shutil.rmtree(work)

        # --- the course
        course = c.eval("locklab.course().map(function (l) { return { title: l.title, scenario: l.scenario, knob: l.knob, goal: l.goal,"
                        " answer: l.answer, options: l.options.length, sources: l.sources, look: !!l.look, exercise: !!l.exercise,"
                        " question: !!l.question }; })")
        check("the course has at least ten lessons (%d)" % len(course), len(course) >= 10)
        for n, L in enumerate(course, 1):
            what = "lesson %d (%s)" % (n, L["title"])
            check(what + ": complete (a library scenario, question, options, what to look at, exercise, sources)",
                  L["scenario"] in listed and L["options"] >= 2 and L["look"] and L["exercise"] and L["question"] and L["sources"], L)
            check(what + ": its sources are published works, never 'seed'", all("seed" not in x.lower() for x in L["sources"]), L["sources"])
            c.open(PAGE + "#lesson=%d" % n)
            c.eval("locklab.ready")
            state = c.eval("JSON.stringify([document.getElementById('course').hidden, document.getElementById('lesson-after').hidden,"
                           " document.getElementById('player').hidden, getComputedStyle(document.getElementById('actions')).display,"
                           " document.querySelectorAll('#lesson-predict button.choice').length, document.getElementById('pick').value])")
            check(what + ": predict first (no verdict, no player, no Run before the answer)",
                  json.loads(state) == [False, True, True, "none", L["options"], L["scenario"]], state)
            a = c.eval("locklab.answer(%d, 0)" % n)
            shown = c.eval("document.getElementById('lesson-verdict').textContent")
            check(what + ": after the answer, the run and its verdict (%s)" % a["verdict"],
                  not c.eval("document.getElementById('lesson-after').hidden") and a["verdict"] in ("holds", "violated")
                  and (("VIOLATED" in shown) if a["verdict"] == "violated" else ("holds" in shown)), (a, shown))
            c.eval(FRAME)
            if a["verdict"] == "violated":
                v = json.loads(c.eval("locklab.pageData()"))["verdicts"]
                first = min(x["at"] for x in v if x["verdict"] == "violated")
                got = c.eval("new Promise(function (d) { setTimeout(function () {"
                             " d(Number(document.getElementById('player').contentDocument.body.dataset.t)); }, 200); })")
                check(what + ": the player opens at the moment the property breaks (%.3f s)" % (first / 1e6), got == first, (got, first))
            check(what + ": the address stays #lesson=%d" % n, c.eval("location.hash") == "#lesson=%d" % n, c.eval("location.hash"))
            # the student's way: the value typed, the button pressed, the engine's answer shown
            ui = c.eval("(function () { document.getElementById('ex-value').value = %s; document.getElementById('ex-check').click();"
                        " return new Promise(function (d) { setTimeout(function () { locklab.idle().then(function () {"
                        " d([document.getElementById('ex-result').className, document.getElementById('ex-result').textContent]); }); }, 0); }); })()"
                        % json.dumps(L["answer"]))
            check(what + ": Check my answer with %s says yes" % L["answer"], ui[0] == "good" and ui[1].startswith("✓ Yes"), ui)
            good = c.eval("locklab.exercise(%d, %s)" % (n, json.dumps(L["answer"])))
            check(what + ": the answer %s meets the goal %s (by the engine)" % (L["answer"], L["goal"]), good["ok"], good)
            own = c.eval("document.getElementById('k-%s').value" % L["knob"])
            base = c.eval("locklab.exercise(%d, %s)" % (n, json.dumps(own)))
            check(what + ": the lesson's own %s (%s) does not meet it" % (L["knob"], own), base["ok"] is False, base)
        check("the course's pages logged no error", not c.console_errors, c.console_errors)
except ChromiumError as e:
    check("headless Chromium", False, e)
finish()
