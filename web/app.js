/* app.js — the playground's page: its state, the address (#scenario=NAME&text=..., a link
 * shares the scenario being edited; #run=NAME runs library scenario NAME at once), the
 * library and its picker, Run (the player page `locklab run --html` writes, with its
 * verdicts, and an edit told as exploration), Check (with progress and Stop), the wiring of
 * every control, and window.locklab, what the tests drive (tests/web/).
 *
 * The page's other files, each an IIFE sharing window.locklabPage (P): editor.js (the
 * editor), scenario_text.js (the text and its knobs), jobs.js (the engine in a worker),
 * tools.js (Compare, Matrix, Sweep), live.js (live faults), lessons.js (the course). This
 * one is loaded last, and starts the page. Everything is computed by the engine (engine.js
 * over web/main.c); the page only moves text between it and the page. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

  /* the page's state, which its files share */
  P.current = null;            /* { name, path, original } */
  P.editor = null;             /* { get(), set(text), mark(line, message), clear(), onChange(fn) } */
  P.library = null;            /* what the worker listed at the start */
  P.course = [];               /* the lessons (lessons.js) */
  P.lastRun = null;            /* { text, name, page }: the last run, for live faults and Present */
  P.noScroll = false;

  /* ---- the address ---- */
  function encodeText(t) {
    var bytes = new TextEncoder().encode(t), s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function decodeText(s) {
    var b = atob(s.replace(/-/g, "+").replace(/_/g, "/")), bytes = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) bytes[i] = b.charCodeAt(i);
    return new TextDecoder("utf-8").decode(bytes);
  }
  function parseHash() {
    var h = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      if (!kv) return;
      var i = kv.indexOf("=");
      h[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1));
    });
    return h;
  }
  function saveHash() {
    /* a lesson's address stays #lesson=N (its scenario is the lesson's) */
    if (!P.current || document.body.classList.contains("in-lesson")) return;
    var t = P.editor.get(), h = "#scenario=" + encodeURIComponent(P.current.name);
    if (t !== P.current.original) h += "&text=" + encodeText(t);
    if (location.hash !== h) history.replaceState(null, "", h);
  }
  /* ---- the library ---- */
  var entries = {};            /* name -> path */
  function fillPicker(lib) {
    var pick = $("pick"), groups = {}, order = [], files = {};
    lib.scenarios.forEach(function (f) { files[f] = 1; });
    lib.list.split("\n").forEach(function (line) {
      /* NAME  PROTOCOL[@VERSION] [(KIND)]  TITLE; the columns widen for a long protocol */
      var m = /^(\S+)\s+(\S+)(?: \(([^)]+)\))?\s+(.*)$/.exec(line);
      if (!m || !files[m[1] + ".lua"]) return;
      var group = m[2].replace(/@.*/, "") + (m[3] ? " (" + m[3] + ")" : "");
      if (!groups[group]) { groups[group] = []; order.push(group); }
      groups[group].push({ name: m[1], title: m[4] });
      entries[m[1]] = "scenarios/" + m[1] + ".lua";
    });
    order.sort();
    order.forEach(function (g) {
      var og = document.createElement("optgroup");
      og.label = g;
      groups[g].forEach(function (s) {
        var o = document.createElement("option");
        o.value = s.name; o.textContent = s.name + " — " + s.title;
        og.appendChild(o);
      });
      pick.appendChild(og);
    });
    Object.keys(lib.matrix).sort().forEach(function (design) {
      var og = document.createElement("optgroup");
      og.label = "matrix: " + design;
      lib.matrix[design].forEach(function (f) {
        if (!/\.lua$/.test(f)) return;
        var name = "matrix/" + design + "/" + f.replace(/\.lua$/, "");
        entries[name] = "scenarios/" + name + ".lua";
        var o = document.createElement("option");
        o.value = name; o.textContent = design + " / " + f.replace(/\.lua$/, "");
        og.appendChild(o);
      });
      pick.appendChild(og);
    });
    var og = document.createElement("optgroup");
    og.label = "model checker problems (tests/check)";
    lib.check.forEach(function (f) {
      if (!/\.lua$/.test(f)) return;
      var name = "check/" + f.replace(/\.lua$/, "");
      entries[name] = "tests/check/" + f;
      var o = document.createElement("option");
      o.value = name; o.textContent = f.replace(/\.lua$/, "");
      og.appendChild(o);
    });
    pick.appendChild(og);
    /* the knobs' choices: the protocol models and the script versions of the library */
    lib.clients.forEach(function (f) {
      if (!/\.lua$/.test(f)) return;
      var o = document.createElement("option");
      o.value = f.replace(/\.lua$/, "");
      $("protocols").appendChild(o);
    });
    var versions = { HEAD: 1 };
    lib.scripts.split("\n").forEach(function (line) {
      var m = /^([\w.-]+)\/[\w.-]+@(\S+)/.exec(line);
      if (m) { versions[m[1] + "@" + m[2]] = 1; versions[m[2]] = 1; }
    });
    Object.keys(versions).sort().forEach(function (v) {
      var o = document.createElement("option");
      o.value = v;
      $("versions").appendChild(o);
    });
  }

  /* the scenario picked: its library text (the worker's file), kept to compare an edit with */
  function select(name, text) {
    var path = entries[name];
    if (!path) return Promise.resolve(false);
    return P.job({ op: "read", path: path }, "reading " + name).then(function (r) {
      P.current = { name: name, path: path, original: r.text, baseline: null };
      $("pick").value = name;
      P.editor.clear();
      P.editor.set(text !== undefined ? text : r.text);
      $("lesson").textContent = P.lesson(P.editor.get());
      P.showKnobs(P.editor.get());
      saveHash();
      checkable();
      return true;
    });
  }

  /* Check searches a scenario's `explore` table: offered only when it has one */
  function checkable() {
    $("check").disabled = !!P.host.busy || !P.editor || !/\bexplore\s*=/.test(P.editor.get());
    $("check").title = $("check").disabled && !P.host.busy ? "this scenario has no explore table to search (scenarios/README.md, Checking)"
      : "locklab check: search the faults and schedules of its explore table";
  }

  /* ---- running ---- */
  /* Where the worker puts a text: the library's own file when it is the library's text, else
   * my-NAME.lua at the top of the data directory (web/worker.js), so that what a run prints
   * and the player's header name the user's scenario, not the library's, and a downloaded
   * my-NAME.lua replays with `locklab run my-NAME.lua`. */
  function mine(path) { return "my-" + path.replace(/.*\//, ""); }
  function pathOf(text) { return text === P.current.original ? P.current.path : mine(P.current.path); }
  /* a job on text: its path, and the scratch file the worker removes after it */
  function onText(msg, text) {
    msg.path = pathOf(text);
    if (msg.path !== P.current.path) msg.scratch = msg.path;
    return msg;
  }
  function markErrors(stderr, path) {
    P.editor.clear();
    var re = new RegExp((path || P.current.path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ":(\\d+):\\s*(.*)");
    stderr.split("\n").forEach(function (line) {
      var m = re.exec(line);
      if (m) P.editor.mark(parseInt(m[1], 10), m[2]);
    });
  }
  /* the player's page in a frame, in the frame's 'embedded' layout (the page above shows the
   * lesson and the verdicts), at the moment asked for */
  /* The player's page without its run's data (the frame is given them when it has loaded:
   * llData in reports/html_start.js), and the data: a long run's 7 MB in srcdoc would hold the
   * page's thread for a quarter of a second to copy and parse; the text passed to the frame
   * is not copied (the frame shares this page's heap). */
  var RUN_DATA = '<script type="application/json" id="run-data">\n';
  function splitPage(page) {
    var i = page.indexOf(RUN_DATA), j = i < 0 ? -1 : page.indexOf("</script>", i);
    if (j < 0) return { shell: page, data: null };
    return { shell: page.slice(0, i + RUN_DATA.length) + page.slice(j), data: page.slice(i + RUN_DATA.length, j) };
  }
  function showPlayer(frame, page, goto) {
    var cut = page ? splitPage(page) : null;
    frame.onload = page ? function () {
      if (cut.data !== null && frame.contentWindow.llData) frame.contentWindow.llData(cut.data);
      frame.contentWindow.postMessage({ locklab: "embed" }, "*");
      if (goto) frame.contentWindow.postMessage({ locklab: "goto", to: goto }, "*");
    } : null;
    frame.srcdoc = cut ? cut.shell : "";
    frame.hidden = !page;
  }
  /* runs text (the editor's) as the current scenario in the worker: `locklab run` with its
   * verdicts JSON, --json history and the player's page */
  function runText(text, extra, history) {
    return P.job(onText({ op: "run", text: text, extra: extra, noHistory: !history }, text), "run " + P.current.name);
  }
  function verdictsOf(json) {
    try { return JSON.parse(json || "{}").verdicts || []; } catch (e) { return []; }
  }
  /* what the edit changed, knob by knob ("lease 10s → 20s"), or "the text" */
  function changes(before, after) {
    var said = [];
    P.KNOBS.forEach(function (k) {
      var a = k.get(before), b = k.get(after);
      if (a !== b) said.push(k.label + " " + (a === null || a === undefined ? "(none)" : a) + " → " + (b === null || b === undefined ? "(none)" : b));
    });
    return said.length ? said.join(", ") : "the text";
  }
  /* The verdicts of the library's own run of the current scenario (once), to compare an
   * exploration with. */
  function baseline() {
    if (P.current.baseline) return Promise.resolve(P.current.baseline);
    var mine = P.current;
    return P.job({ op: "runs", path: P.current.path, texts: [P.current.original] }, "the lesson's run")
      .then(function (r) { mine.baseline = verdictsOf(r.results[0].verdicts); return mine.baseline; });
  }
  /* Exploring: an edited scenario's run is told against the lesson's own run, property by
   * property ("you changed the lease: here is what happens now"), not as a failed test; the
   * command's own output stays below, as `locklab run` prints it. */
  function explain(r) {
    var box = $("explore");
    box.innerHTML = "";
    box.hidden = true;
    var text = P.editor.get();
    if (!P.current || text === P.current.original || r.code > 1) return Promise.resolve();
    var now = verdictsOf(r.verdicts);
    return baseline().then(function (before) {
      var was = {};
      before.forEach(function (v) { was[v.property] = v.verdict; });
      var h = "<p><b>You changed " + P.esc(changes(P.current.original, text)) + ".</b> Here is what happens now, beside the lesson's run:</p><ul>";
      now.filter(function (v) { return v.verdict === "holds" || v.verdict === "violated"; }).forEach(function (v) {
        var w = was[v.property], moved = w && w !== v.verdict;
        h += "<li class=\"" + (v.verdict === "violated" ? "bad" : "good") + (moved ? " moved" : "") + "\"><code>" + P.esc(v.property) + "</code> " +
             (v.verdict === "violated" ? "VIOLATED" : P.esc(v.verdict)) + (w ? (moved ? " <b>(was " + P.esc(w) + ")</b>" : " (as before)") : "") + "</li>";
      });
      box.innerHTML = h + "</ul><p class=\"small\">(The scenario's <code>expect</code> still describes the lesson's run: " +
        "below, <code>locklab run</code> checks this run against it.)</p>";
      box.hidden = false;
    });
  }
  function run(goto, history) {
    var text = P.editor.get(), edited = text !== P.current.original;
    return runText(text, [], history).then(function (r) {
      if (r.stopped) { $("status").textContent = "run stopped: no result"; return r; }
      $("output").textContent = r.stdout + r.stderr;
      $("output-box").hidden = false;
      $("output-box").open = !edited || r.code > 1;
      $("output").className = edited && r.code <= 1 ? "explore" : r.code === 0 ? "ok" : r.code === 1 ? "violated" : "error";
      $("status").textContent = edited && r.code <= 1 ? "run of your edit: what happens now (the lesson's own expectations are below)"
        : "run: exit " + r.code + (r.code === 0 ? " (expectations met)" : r.code === 1 ? " (a property violated or an expectation not met)"
        : r.code === 2 ? " (bad input)" : " (internal error)");
      markErrors(r.stderr, pathOf(text));
      showPlayer($("player"), r.page, goto);
      if (r.page && !P.noScroll) (document.body.classList.contains("in-lesson") ? $("lesson-verdict") : $("player")).scrollIntoView({ block: "start" });
      P.lastRun = { text: text, name: P.current.name, page: r.page };
      $("present").disabled = !r.page;
      var verdictsBefore = P.current.lastVerdicts;
      P.current.lastVerdicts = verdictsOf(r.verdicts);
      P.current.verdictsBefore = verdictsBefore;
      return explain(r).then(function () { return r; });
    });
  }
  /* ---- checking ---- */
  function checkUi() {
    var text = P.editor.get(), limit = 60;
    $("output").textContent = "";
    return P.job(onText({ op: "check", text: text }, text), "check " + P.current.name, function (m) {
      var p = /(\d+) paths, (\d+) transitions.*?, ([\d.]+) s$/.exec(m.line || "");
      if (!p) return;
      $("progress").value = Math.min(1, parseFloat(p[3]) / limit);
      $("progress-note").dataset.live = 1;
      $("progress-note").textContent = p[1] + " paths, " + p[2] + " transitions, " + p[3] + " s";
    }).then(function (r) {
      if (r.stopped) { $("status").textContent = "check stopped"; return r; }
      $("output").textContent = r.stdout + r.stderr;
      $("output-box").hidden = false;
      $("output-box").open = true;
      $("output").className = r.code === 0 ? "ok" : r.code === 1 ? "violated" : "error";
      markErrors(r.stderr, pathOf(text));
      $("progress-note").textContent = "check: exit " + r.code;
      if (r.replay && r.replay.page) {
        $("status").textContent = "check: a counter-example, replayed in the player below (download it to replay with locklab run)";
        showPlayer($("player"), r.replay.page, "violation");
        offerDownloads([["counterexample.lua", r.cexLua], ["counterexample.choices", r.cexChoices]],
                       "locklab run counterexample.lua --choices counterexample.choices");
      } else $("status").textContent = "check: exit " + r.code;
      return r;
    });
  }
  /* files the page made, as downloads (a Blob each) */
  function offerDownloads(files, replay) {
    var box = $("downloads");
    box.innerHTML = "";
    files.forEach(function (f) {
      if (f[1] === null || f[1] === undefined) return;
      var a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([f[1]], { type: "text/plain" }));
      a.download = f[0];
      a.textContent = "⬇ " + f[0];
      box.appendChild(a);
    });
    if (replay) {
      var c = document.createElement("code");
      c.textContent = replay;
      box.appendChild(c);
    }
    box.hidden = false;
  }
  /* ---- wiring ---- */
  var ready = P.startWorker().then(function () {
    return P.job({ op: "boot" }, "starting");
  }).then(function (lib) {
    P.library = lib;
    P.host.bootMs = performance.now();
    P.editor = P.makeEditor();
    $("editor-kind").textContent = P.editor.kind;
    fillPicker(lib);
    /* global LOCKLAB_COURSE */
    P.course = P.parseCourse(typeof LOCKLAB_COURSE === "string" ? LOCKLAB_COURSE : "");
    $("course-index").innerHTML = P.course.map(function (c, i) {
      return "<li><a href=\"#lesson=" + (i + 1) + "\">" + P.esc(c.title) + "</a></li>"; }).join("");
    var h = parseHash(), first;
    if (h.lesson) first = P.showLesson(Number(h.lesson));
    else if (h.run && entries[h.run]) first = select(h.run).then(function () { return run(); });
    else if (h.scenario && entries[h.scenario]) first = select(h.scenario, h.text !== undefined ? decodeText(h.text) : undefined);
    else first = select("gc-pause-single");
    var asked = h.run || h.scenario;
    if (asked && !entries[asked]) {
      $("status").textContent = "no scenario named '" + asked + "' in the library (the list above has them all)";
      $("output").className = "error";
    }
    P.editor.onChange(function () {
      var t = P.editor.get();
      checkable();
      $("lesson").textContent = P.lesson(t);
      P.showKnobs(t);
      if (!document.body.classList.contains("in-lesson")) saveHash();
    });
    $("pick").addEventListener("change", function () { select($("pick").value); });
    P.KNOBS.forEach(function (k) {
      $(k.id).addEventListener("change", function () {
        var v = $(k.id).value.trim();
        if (v === "") return;
        P.editor.set(k.set(P.editor.get(), v));
      });
    });
    $("run").addEventListener("click", function () { run(); });
    $("check").addEventListener("click", function () { checkUi(); });
    $("stop").addEventListener("click", P.stop);
    $("compare").addEventListener("click", function () { P.compare(); });
    $("matrix-run").addEventListener("click", function () { P.matrix(); });
    $("sweep-run").addEventListener("click", function () { P.sweep(); });
    $("matrix-out").addEventListener("click", function (e) {
      var td = e.target.closest("td[data-cell]");
      if (td) select(td.dataset.cell).then(function () { return run(); });
    });
    $("reset").addEventListener("click", function () { P.editor.set(P.current.original); });
    /* the player alone in a new window, in the presenter's layout (a projector's 1280x800) */
    $("present").addEventListener("click", function () {
      if (!P.lastRun || !P.lastRun.page) return;
      window.open(URL.createObjectURL(new Blob([P.lastRun.page], { type: "text/html" })) + "#present&violation", "_blank");
    });
    $("download").addEventListener("click", function () {
      var file = pathOf(P.editor.get()).replace(/.*\//, "");
      offerDownloads([[file, P.editor.get()]], "locklab run " + file);
    });
    $("share").addEventListener("click", function () {
      saveHash();
      $("share-url").value = location.href;
      $("share-url").hidden = false;
      $("share-url").select();
    });
    $("ex-check").addEventListener("click", function () {
      var n = Number(parseHash().lesson);
      if (n) P.exercise(n, $("ex-value").value.trim());
    });
    $("show-answer").addEventListener("click", function () { $("lesson-answer").hidden = false; });
    Array.prototype.forEach.call(document.querySelectorAll("#live button[data-fault]"), function (b) {
      b.addEventListener("click", function () { P.liveFault(b.dataset.fault); });
    });
    window.addEventListener("message", function (e) {
      if (e.data && e.data.locklab === "pick" && e.source === $("player").contentWindow) P.onPick(e.data);
    });
    window.addEventListener("hashchange", function () {
      var n = Number(parseHash().lesson);
      if (n) P.showLesson(n); else P.showLesson(0);
    });
    $("loading").hidden = true;
    return first;
  });

  /* what tests/web/test_playground.py and tools/bench-web.sh drive */
  function shortRun(r) {
    return { code: r.code, stdout: r.stdout, stderr: r.stderr, verdicts: r.verdicts, history: r.history,
             page: r.page ? r.page.length : 0, stopped: !!r.stopped };
  }
  window.locklab = {
    ready: ready,
    host: P.host,
    select: function (name) { return select(name); },
    text: function () { return P.editor.get(); },
    setText: function (t) { P.editor.set(t); },
    setKnob: function (id, value) {
      var el = $(id);
      el.value = value;
      el.dispatchEvent(new Event("change"));
      return P.editor.get();
    },
    run: function () { return run(null, true).then(shortRun); },
    busy: function () { return !!P.host.busy; },
    idle: function () { return P.host.queue; },
    stop: P.stop,
    check: function (name) {
      return select(name).then(checkUi).then(function (r) {
        return { code: r.code, stdout: r.stdout, stderr: r.stderr, cexLua: r.cexLua, cexChoices: r.cexChoices,
                 replayCode: r.replay ? r.replay.code : null, replayVerdicts: r.replay ? r.replay.verdicts : null };
      });
    },
    checkRaw: function () {
      return checkUi().then(function (r) { return { code: r.code, stopped: !!r.stopped, stderr: r.stderr }; });
    },
    compare: function (mode, a, b) {
      $("cmp-mode").value = mode; $("cmp-a").value = a; $("cmp-b").value = b;
      return P.compare().then(function (r) { return { code: r.code, stdout: r.stdout, stderr: r.stderr }; });
    },
    matrix: function () { return P.matrix().then(function (r) { return { code: r.code, csv: r.csv, stderr: r.stderr, stopped: !!r.stopped }; }); },
    sweep: function (x, xr, y, yr, prop, runs) {
      $("sw-x").value = x; $("sw-xr").value = xr; $("sw-y").value = y; $("sw-yr").value = yr; $("sw-prop").value = prop;
      $("sw-runs").value = runs || "1";
      return P.sweep();
    },
    course: function () { return P.course; },
    /* the run's data the last player page holds (its JSON text) */
    pageData: function () { return P.lastRun && P.lastRun.page ? splitPage(P.lastRun.page).data : null; },
    page: function () { return P.lastRun ? P.lastRun.page : null; },
    /* the last run's player drawn again in the frame (tests/web/test_course.py) */
    redraw: function () { if (P.lastRun && P.lastRun.page) showPlayer($("player"), P.lastRun.page); },
    lesson: function (n) { return P.showLesson(n).then(function (L) { return !!L; }); },
    answer: function (n, i) { return P.answer(n, i); },
    exercise: function (n, v) { return P.exercise(n, v); },
    pick: function (actor, isNode, t, actors) { P.onPick({ actor: actor, node: isNode, t: t, actors: actors }); },
    liveFault: function (kind, size) {
      if (size !== undefined) $("lf-" + kind).value = size;
      return P.liveFault(kind).then(function (r) { return r ? shortRun(r) : null; });
    },
    command: function (words) { return P.job({ op: "command", words: words }, words[0]); },
    writeFile: function (path, text) { return P.job({ op: "write", path: path, text: text }, "writing " + path); },
    time: function (words, warm, runs) { return P.job({ op: "time", words: words, warm: warm, runs: runs }, "timing"); }
  };

  /* what the other files of the page use */
  Object.assign(P, { checkable: checkable, markErrors: markErrors, onText: onText, pathOf: pathOf, run: run, select: select, showPlayer: showPlayer, verdictsOf: verdictsOf });
})();
