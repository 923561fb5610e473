#!/usr/bin/env python3
"""The playground (make playground, web/) in headless Chromium, beside the native binary: the
same scenario and seed give the same bytes. Builds out/playground/ (once; make reuses it),
opens it from file:// through the DevTools protocol (tests/web/cdp.py) and checks:
  - #run=gc-pause-single runs at once and shows its verdicts; the verdicts JSON, the --json
    history, the player's page and the printed verdicts are those of `locklab run` with the
    same words, byte for byte;
  - the lease knob edits the text (lease = "20s"); that text runs to the native binary's bytes
    too, and its verdicts change (no violation: the lease outlives the pause);
  - a bad scenario's error is the native one, and is shown at its line in the editor;
  - the address holds the edited text: a fresh page opened on it has the same text;
  - `check` of a tests/check problem in the Web Worker: exit code, report (but its timings) and
    the counter-example files are the native ones; it opens in the player; Stop ends a search;
  - compare (two script versions) prints what `locklab compare` prints;
  - the site is under 8 MB and the page logs no error.
When emcc or chromium is missing, this fails (make deps installs both): it never skips.
Prints "N passed, N failed". Usage: tests/web/test_playground.py (LOCKLAB=native binary)."""
import json
import os
import re
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
passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what + (("\n    " + str(detail)[:600].replace("\n", "\n    ")) if detail else ""))


def same(what, browser, native):
    if browser == native:
        check(what, True)
        return
    b, n = (browser or "").split("\n"), (native or "").split("\n")
    i = next((k for k in range(min(len(b), len(n))) if b[k] != n[k]), min(len(b), len(n)))
    check(what, False, "first difference at line %d:\n browser: %r\n native:  %r"
          % (i + 1, b[i] if i < len(b) else "<end>", n[i] if i < len(n) else "<end>"))


def finish():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 else 1)


def native(args, cwd=ROOT, env=None):
    """stdout, stderr, exit code and the files it wrote into a fresh folder (named in args as
    {out}) of the native binary."""
    out = tempfile.mkdtemp(prefix="locklab-web-native.")
    try:
        words = [a.replace("{out}", out) for a in args]
        e = dict(os.environ, **(env or {}))
        p = subprocess.run([LL] + words, cwd=cwd, env=e, capture_output=True)
        files = {}
        for name in os.listdir(out):
            with open(os.path.join(out, name), encoding="utf-8") as f:
                files[name] = f.read()
        return p.stdout.decode(), p.stderr.decode(), p.returncode, files
    finally:
        shutil.rmtree(out)


# --- the build
build = subprocess.run(["make", "--no-print-directory", "playground"], capture_output=True, text=True)
check("make playground", build.returncode == 0, (build.stdout + build.stderr)[-1500:])
if build.returncode != 0:
    finish()
size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(SITE) for f in fs)
check("the site is under 8 MB (%d kB)" % (size // 1024), size < 8 << 20)
check("CodeMirror copied from Debian's libjs-codemirror", os.path.isfile(os.path.join(SITE, "codemirror", "codemirror.js")))

RUN_WORDS = ["-q", "--verdicts", "{out}/verdicts.json", "--json", "{out}/history.jsonl", "--html", "{out}/player.html"]
page = "file://" + os.path.join(SITE, "index.html")

try:
    with Chromium() as c:
        # --- a teacher's link: #run=NAME runs it at once
        c.open(page + "#run=gc-pause-single")
        c.eval("locklab.ready")
        shown = c.eval("document.getElementById('output').textContent")
        n_out, n_err, n_rc, n_files = native(["run", "scenarios/gc-pause-single.lua"] + RUN_WORDS)
        same("#run=gc-pause-single shows the verdicts locklab run prints", shown, n_out + n_err)
        check("#run=gc-pause-single: the player is shown",
              c.eval("!document.getElementById('player').hidden && document.getElementById('player').srcdoc.length > 0"))
        listed = sorted(n for n in re.findall(r"^(\S+)\s", subprocess.run([LL, "list"], capture_output=True, text=True).stdout, re.M)
                        if os.path.isfile("scenarios/%s.lua" % n))
        picked = c.eval("Array.from(document.querySelectorAll('#pick optgroup:not([label^=\"matrix\"]):not([label^=\"model\"]) option')).map(function(o){return o.value}).sort()")
        check("the picker holds every scenario locklab list names (%d)" % len(listed), picked == listed and len(listed) > 50,
              set(listed) ^ set(picked or []))
        cells = sorted(os.path.relpath(os.path.join(d, f), "scenarios")[:-4] for d, _, fs in os.walk("scenarios/matrix")
                       for f in fs if f.endswith(".lua") and d != "scenarios/matrix")  # (its own files: the table, models)
        got = c.eval("Array.from(document.querySelectorAll('#pick optgroup[label^=\"matrix\"] option')).map(function(o){return o.value}).sort()")
        check("the picker holds every matrix cell (%d)" % len(cells), got == cells and len(cells) > 50, set(cells) ^ set(got or []))
        # list and scripts name their folders relative to the current directory (audit L11): the
        # page's (/locklab) and a native run's from the top of the tree print the same bytes
        for words in (["list"], ["scripts"]):
            o, e, rc, _ = native(words)
            r = c.eval("locklab.command(%s)" % json.dumps(words))
            same("locklab %s: the same bytes in the page (no checkout path)" % words[0], r["stdout"], o)
            check("locklab %s names no absolute folder" % words[0], ROOT not in o and "/locklab" not in o, o[-200:])
        # what needs gnuplot is refused in one line that says what to do instead
        r = c.eval("locklab.command(['sweep', 'scenarios/gc-pause-single.lua', '--vary', 'lease=5s:10s:5s', '--plot', 'x.png'])")
        check("sweep --plot in the page: exit 2, one line naming --csv", r["code"] == 2 and r["stdout"] == ""
              and r["stderr"] == "locklab: sweep: --plot is not part of the browser build (write --csv FILE: the page draws it)\n", r)
        check("the editor is CodeMirror", (c.eval("document.getElementById('editor-kind').textContent") or "").startswith("CodeMirror"))

        # --- the same run, its files
        r = c.eval("locklab.run()")
        check("gc-pause-single: exit code %d as native" % n_rc, r["code"] == n_rc, r)
        same("gc-pause-single: verdicts JSON byte-identical", r["verdicts"], n_files.get("verdicts.json"))
        same("gc-pause-single: --json history byte-identical", r["history"], n_files.get("history.jsonl"))
        bpage = c.eval("locklab.page()")
        same("gc-pause-single: player page byte-identical", bpage, n_files.get("player.html"))
        # the frame is given the page in two parts (its srcdoc without the run's data, then the
        # data: reports/html_start.js, llData): together, the same bytes
        shell, data = c.eval("[document.getElementById('player').srcdoc, locklab.pageData()]")
        marker = '<script type="application/json" id="run-data">\n'
        check("gc-pause-single: the frame's page and the data handed to it make the native page",
              shell.replace(marker, marker + (data or ""), 1) == n_files.get("player.html") and len(data or "") > 1000)

        # --- the lease knob edits the text; the edited text runs as natively
        text = c.eval("locklab.setKnob('k-lease', '20s')")
        check("the lease knob edits the text", re.search(r'^\s*lease = "20s", wait = "30s",$', text, re.M), text[:800])
        r = c.eval("locklab.run()")
        # an edited scenario is the user's file, my-NAME.lua (the library's file is not
        # written over: what is printed and the player's header name the user's file)
        work = tempfile.mkdtemp(prefix="locklab-web-edit.")
        with open(os.path.join(work, "my-gc-pause-single.lua"), "w", encoding="utf-8") as f:
            f.write(text)
        e_out, e_err, e_rc, e_files = native(["run", "my-gc-pause-single.lua"] + RUN_WORDS, cwd=work,
                                             env={"LOCKLAB_HOME": ROOT})
        check("edited lease: exit code %d as native" % e_rc, r["code"] == e_rc, r["stderr"])
        same("edited lease: verdicts JSON byte-identical", r["verdicts"], e_files.get("verdicts.json"))
        same("edited lease: --json history byte-identical", r["history"], e_files.get("history.jsonl"))
        same("edited lease: printed verdicts byte-identical", r["stdout"], e_out)
        same("edited lease: the player page byte-identical (its header names my-gc-pause-single.lua)",
             c.eval("locklab.page()"), e_files.get("player.html"))
        head = c.eval("(locklab.page() || '').split('<header>')[1].split('</header>')[0]")
        check("edited lease: the player's header names the user's file", "my-gc-pause-single.lua" in head, head)
        lib = c.eval("locklab.command(['run', 'scenarios/gc-pause-single.lua', '-q']).then(function (r) { return r.stdout; })")
        same("edited lease: the library's scenario is unchanged in the page", lib, n_out)
        v = json.loads(r["verdicts"] or "{}")
        me = [x["verdict"] for x in v.get("verdicts", []) if x["property"] == "mutual_exclusion"]
        check("edited lease: a 20 s lease outlives the 12 s pause (mutual_exclusion holds)", me == ["holds"], me)

        # --- the address holds the text
        url = c.eval("location.href")
        check("the address holds the edited text", "&text=" in url, url[:200])
        c.open(url)
        c.eval("locklab.ready")
        same("a fresh page on that address has the same text", c.eval("locklab.text()"), text)

        # --- a bad scenario: the native error, at its line
        bad = text.replace("nodes = 1,", 'nodes = "one",')
        with open(os.path.join(work, "my-gc-pause-single.lua"), "w", encoding="utf-8") as f:
            f.write(bad)
        b_out, b_err, b_rc, _ = native(["run", "my-gc-pause-single.lua", "-q"], cwd=work, env={"LOCKLAB_HOME": ROOT})
        c.eval("locklab.setText(%s)" % json.dumps(bad))
        r = c.eval("locklab.run()")
        check("bad scenario: exit 2 as native (%d)" % b_rc, r["code"] == 2 == b_rc, r["stderr"])
        same("bad scenario: the native error", r["stderr"], b_err)
        line = re.search(r":(\d+): (.*)", b_err)
        marked = c.eval("Array.from(document.querySelectorAll('.CodeMirror .bad-line')).length")
        msg = c.eval("(document.querySelector('.line-error') || {}).textContent")
        check("bad scenario: the error is shown in the editor", line and msg == line.group(2).strip(), (msg, b_err))
        wanted_line = int(line.group(1)) if line else -1
        at = c.eval("(function(){ var cm = document.querySelector('.CodeMirror').CodeMirror, n = -1;"
                    " cm.eachLine(function(h){ if ((h.bgClass || '').indexOf('bad-line') >= 0) n = cm.getLineNumber(h) + 1; });"
                    " return n; })()")
        check("bad scenario: at its line (%d)" % wanted_line, marked == 1 and at == wanted_line, (marked, at))
        shutil.rmtree(work)

        # --- check, in the worker, beside the native search
        r = c.eval("locklab.check('check/failover')")
        work = tempfile.mkdtemp(prefix="locklab-web-check.")
        os.makedirs(os.path.join(work, "tests", "check"))
        shutil.copy("tests/check/failover.lua", os.path.join(work, "tests", "check"))
        p = subprocess.run([LL, "check", "tests/check/failover.lua", "--jobs", "1", "--out", "counterexample"],
                           cwd=work, env=dict(os.environ, LOCKLAB_HOME=ROOT), capture_output=True, text=True)
        untimed = lambda s: re.sub(r", [0-9.]+ s \([0-9]+ transitions/s\)", "", s or "")
        check("check failover in the worker: exit %d as native" % p.returncode, r["code"] == p.returncode == 1, r["stderr"])
        same("check failover: the report (timings aside) as native", untimed(r["stdout"]), untimed(p.stdout))
        for ext, key in (("lua", "cexLua"), ("choices", "cexChoices")):
            with open(os.path.join(work, "counterexample." + ext), encoding="utf-8") as f:
                same("check failover: counterexample.%s byte-identical" % ext, r[key], f.read())
        rv = json.loads(r["replayVerdicts"] or "{}")
        rp = subprocess.run([LL, "run", "counterexample.lua", "--choices", "counterexample.choices", "-q",
                             "--verdicts", "replay.json", "--html", "replay.html"], cwd=work, env=dict(os.environ, LOCKLAB_HOME=ROOT),
                            capture_output=True, text=True)
        with open(os.path.join(work, "replay.json"), encoding="utf-8") as f:
            same("check failover: the replay's verdicts byte-identical", r["replayVerdicts"], f.read())
        check("check failover: the counter-example replays to its violation in the player",
              r["replayCode"] == rp.returncode and any(x["property"] == "mutual_exclusion" and x["verdict"] == "violated"
                                           for x in rv.get("verdicts", []))
              and c.eval("document.getElementById('player').srcdoc.indexOf('run-data') > 0"), r["replayCode"])
        shutil.rmtree(work)

        # --- Stop ends a search at once (the worker is ended; no result is claimed)
        r = c.eval("locklab.select('check/redlock-crash-restart').then(function(){"
                   " var p = locklab.checkRaw();"
                   " return new Promise(function(done){ (function poll(){ if (locklab.busy()) { document.getElementById('stop').click(); done(p); }"
                   " else setTimeout(poll, 5); })(); }); })")
        check("Stop: the check reports it was stopped, with no verdict", r.get("stopped") is True and r["code"] == 130, r)
        check("Stop: the page says so", c.eval("document.getElementById('progress-note').textContent").startswith("stopped"))

        # --- compare, as locklab compare prints it
        c.eval("locklab.select('fairlock-lease-timeout')")
        check("Stop: a new worker answers after it", c.eval("locklab.command(['list']).then(function(r){ return r.code; })") == 0)
        r = c.eval("locklab.compare('scripts', 'redisson@3.31.0', 'HEAD')")
        o, e, rc, _ = native(["compare", "scenarios/fairlock-lease-timeout.lua", "--scripts", "redisson@3.31.0", "--scripts", "HEAD"])
        check("compare: exit %d as native" % rc, r["code"] == rc, r["stderr"])
        same("compare: locklab compare's text", r["stdout"], o)
        check("compare: the two players side by side",
              c.eval("!document.getElementById('player-a').hidden && !document.getElementById('player-b').hidden"))

        check("the page logged no error", not c.console_errors, c.console_errors)
except ChromiumError as e:
    check("headless Chromium", False, e)
finish()
