/* app.js — the playground's page started: its state, the engine's worker and the library
 * (#lesson=N opens a lesson, #run=NAME runs library scenario NAME at once,
 * #scenario=NAME&text=... opens an edited scenario), every control wired, and window.locklab,
 * what the tests drive (tests/web/).
 *
 * The page's scripts, each an IIFE sharing window.locklabPage (P: what each gives the others,
 * and the page's state), in index.html's order, each using only those before it:
 * editor.js (the editor), scenario_text.js (the text and its knobs), jobs.js (the engine in a
 * worker), run.js (the scenario picked, its address, Run, Check), tools.js (Compare, Matrix,
 * Sweep), live.js (live faults), lessons.js (the course), and this one, last. Everything is
 * computed by the engine (engine.js over web/main.c); the page only moves text between it
 * and the page. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

  /* the page's state, which its files share */
  P.current = null;            /* { name, path, original }: the scenario picked */
  P.editor = null;             /* { get(), set(text), mark(line, message), clear(), onChange(fn) } */
  P.library = null;            /* what the worker listed at the start */
  P.course = [];               /* the lessons (lessons.js) */
  P.lastRun = null;            /* { text, name, page }: the last run, for live faults and Present */
  P.noScroll = false;

  /* ---- wiring ---- */
  var ready = P.startWorker().then(function () {
    return P.job({ op: "boot" }, "starting");
  }).then(function (lib) {
    P.library = lib;
    P.host.bootMs = performance.now();
    P.editor = P.makeEditor();
    $("editor-kind").textContent = P.editor.kind;
    P.fillPicker(lib);
    /* global LOCKLAB_COURSE */
    P.course = P.parseCourse(typeof LOCKLAB_COURSE === "string" ? LOCKLAB_COURSE : "");
    $("course-index").innerHTML = P.course.map(function (c, i) {
      return "<li><a href=\"#lesson=" + (i + 1) + "\">" + P.esc(c.title) + "</a></li>"; }).join("");
    var h = P.parseHash(), first;
    if (h.lesson) first = P.showLesson(Number(h.lesson));
    else if (h.run && P.entries[h.run]) first = P.select(h.run).then(function () { return P.run(); });
    else if (h.scenario && P.entries[h.scenario]) first = P.select(h.scenario, h.text !== undefined ? P.decodeText(h.text) : undefined);
    else first = P.select("gc-pause-single");
    var asked = h.run || h.scenario;
    if (asked && !P.entries[asked]) {
      $("status").textContent = "no scenario named '" + asked + "' in the library (the list above has them all)";
      $("output").className = "error";
    }
    P.editor.onChange(function () {
      var t = P.editor.get();
      P.checkable();
      $("lesson").textContent = P.lesson(t);
      P.showKnobs(t);
      if (!document.body.classList.contains("in-lesson")) P.saveHash();
    });
    $("pick").addEventListener("change", function () { P.select($("pick").value); });
    P.KNOBS.forEach(function (k) {
      $(k.id).addEventListener("change", function () {
        var v = $(k.id).value.trim();
        if (v === "") return;
        P.editor.set(k.set(P.editor.get(), v));
      });
    });
    $("run").addEventListener("click", function () { P.run(); });
    $("check").addEventListener("click", function () { P.checkUi(); });
    $("stop").addEventListener("click", P.stop);
    $("compare").addEventListener("click", function () { P.compare(); });
    $("matrix-run").addEventListener("click", function () { P.matrix(); });
    $("sweep-run").addEventListener("click", function () { P.sweep(); });
    $("matrix-out").addEventListener("click", function (e) {
      var td = e.target.closest("td[data-cell]");
      if (td) P.select(td.dataset.cell).then(function () { return P.run(); });
    });
    $("reset").addEventListener("click", function () { P.editor.set(P.current.original); });
    /* the player alone in a new window, in the presenter's layout (a projector's 1280x800) */
    $("present").addEventListener("click", function () {
      if (!P.lastRun || !P.lastRun.page) return;
      window.open(URL.createObjectURL(new Blob([P.lastRun.page], { type: "text/html" })) + "#present&violation", "_blank");
    });
    $("download").addEventListener("click", function () {
      var file = P.pathOf(P.editor.get()).replace(/.*\//, "");
      P.offerDownloads([[file, P.editor.get()]], "locklab run " + file);
    });
    $("share").addEventListener("click", function () {
      P.saveHash();
      $("share-url").value = location.href;
      $("share-url").hidden = false;
      $("share-url").select();
    });
    $("ex-check").addEventListener("click", function () {
      var n = Number(P.parseHash().lesson);
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
      var n = Number(P.parseHash().lesson);
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
    select: function (name) { return P.select(name); },
    text: function () { return P.editor.get(); },
    setText: function (t) { P.editor.set(t); },
    setKnob: function (id, value) {
      var el = $(id);
      el.value = value;
      el.dispatchEvent(new Event("change"));
      return P.editor.get();
    },
    run: function () { return P.run(null, true).then(shortRun); },
    busy: function () { return !!P.host.busy; },
    idle: function () { return P.host.queue; },
    stop: P.stop,
    check: function (name) {
      return P.select(name).then(P.checkUi).then(function (r) {
        return { code: r.code, stdout: r.stdout, stderr: r.stderr, cexLua: r.cexLua, cexChoices: r.cexChoices,
                 replayCode: r.replay ? r.replay.code : null, replayVerdicts: r.replay ? r.replay.verdicts : null };
      });
    },
    checkRaw: function () {
      return P.checkUi().then(function (r) { return { code: r.code, stopped: !!r.stopped, stderr: r.stderr }; });
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
    pageData: function () { return P.lastRun && P.lastRun.page ? P.splitPage(P.lastRun.page).data : null; },
    page: function () { return P.lastRun ? P.lastRun.page : null; },
    /* the last run's player drawn again in the frame (tests/web/test_course.py) */
    redraw: function () { if (P.lastRun && P.lastRun.page) P.showPlayer($("player"), P.lastRun.page); },
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
})();
