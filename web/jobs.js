/* jobs.js — the page's side of the engine: the WebAssembly module compiled once and handed to
 * a Web Worker (worker.js), every engine call a job of that worker in turn, with its progress
 * and the page's busy state (which buttons may be pressed), and Stop (the worker ended, a new
 * one started). */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

  /* ---- the engine, in a worker ---- */
  /* The page compiles the WebAssembly module once (from the module's own text: the build
   * inlines it, SINGLE_FILE) and hands it to a worker, which instantiates it; Stop ends the
   * worker and a new one instantiates the same compiled module (no second compilation). Every
   * engine call is a job of that worker; one runs at a time, the others wait their turn. */
  var host = { worker: null, ready: null, jobs: {}, next: 1, queue: Promise.resolve(), module: null, url: null,
               busy: null, startMs: null, bootMs: null };
  var WASM_RE = /data:application\/octet-stream;base64,([A-Za-z0-9+\/=]+)/;
  function compileOnce() {
    /* global locklabModuleSource, LocklabEngine, locklabWorkerMain */
    if (host.module) return host.module;
    var src = locklabModuleSource.toString(), m = WASM_RE.exec(src);
    var b = atob(m[1]), bytes = new Uint8Array(b.length);
    for (var i = 0; i < b.length; i++) bytes[i] = b.charCodeAt(i);
    /* the worker's script: the glue without the inlined module (it gets the compiled one) */
    var glue = src.slice(0, m.index) + "data:application/octet-stream;base64," + src.slice(m.index + m[0].length);
    host.url = URL.createObjectURL(new Blob(["\"use strict\";\nvar createLocklab = (" + glue + ")();\n" +
      "var LocklabEngine = " + LocklabEngine.toString() + ";\n" +
      "(" + locklabWorkerMain.toString() + ")(self, createLocklab, LocklabEngine);\n"], { type: "text/javascript" }));
    host.module = WebAssembly.compile(bytes);
    return host.module;
  }
  function startWorker() {
    var t0 = performance.now();
    host.ready = compileOnce().then(function (mod) {
      var w = host.worker = new Worker(host.url);
      w.onmessage = function (ev) {
        var m = ev.data, job = host.jobs[m.id];
        if (!job) return;
        if (m.type === "progress") { if (job.progress) job.progress(m); return; }
        host.doneAt = performance.now();   /* the result's arrival: the end of the engine's work */
        delete host.jobs[m.id];
        job.resolve(m);
      };
      w.onerror = function (e) {
        Object.keys(host.jobs).forEach(function (id) {
          host.jobs[id].resolve({ code: 3, stdout: "", stderr: "the engine's worker failed: " + e.message + "\n" });
        });
        host.jobs = {};
      };
      return send({ op: "init", module: mod }).then(function (r) {
        if (r.code !== 0) throw new Error(r.stderr);
        host.startMs = performance.now() - t0;
        return w;
      });
    });
    return host.ready;
  }
  function send(msg, progress) {
    return new Promise(function (resolve) {
      msg.id = host.next++;
      host.jobs[msg.id] = { resolve: resolve, progress: progress };
      host.worker.postMessage(msg);
    });
  }
  /* A job for the engine (in turn), with its progress; what: the words the page shows. */
  function job(msg, what, progress) {
    var p = host.queue.then(function () {
      return host.ready.then(function () {
        var t0 = performance.now(), ticker = null;
        host.busy = { what: what, t0: t0 };
        busyUi(true, what);
        /* once a second: while the engine works the page draws as little as it can */
        ticker = setInterval(function () {
          if (!progress || !$("progress-note").dataset.live)
            $("progress-note").textContent = what + " … " + Math.round((performance.now() - t0) / 1000) + " s";
        }, 1000);
        return send(msg, progress).then(function (r) {
          clearInterval(ticker);
          host.busy = null;
          busyUi(false);
          if (!$("progress-note").dataset.live) $("progress-note").textContent = "";
          if (r.restart) startWorker();
          /* what the page does with the result (a large player page to draw) comes in a task
           * of its own, after the one that received it */
          return new Promise(function (resolve) { setTimeout(function () { resolve(texts(r)); }, 0); })
            .then(function (x) { return x; });
        });
      });
    });
    host.queue = p.then(function () {}, function () {});
    return p;
  }
  /* the worker's files, sent as UTF-8 bytes (a large one in a Blob), as text again: a
   * promise of the reply */
  var utf8 = new TextDecoder("utf-8");
  function texts(o) {
    var waits = [];
    (function walk(x) {
      if (!x || typeof x !== "object") return;
      Object.keys(x).forEach(function (k) {
        if (x[k] instanceof Uint8Array) x[k] = utf8.decode(x[k]);
        else if (x[k] instanceof Blob) waits.push(x[k].text().then(function (t) { x[k] = t; }));
        else if (x[k] && typeof x[k] === "object") walk(x[k]);
      });
    })(o);
    return Promise.all(waits).then(function () { return o; });
  }
  /* Stop: the running job ends with no result (code 130), the worker with it; a new worker
   * instantiates the compiled module again, and the page writes the edited text into it before
   * its next job as always. */
  function stop() {
    if (!host.busy) return;
    var what = host.busy.what;
    host.worker.terminate();
    Object.keys(host.jobs).forEach(function (id) {
      host.jobs[id].resolve({ code: 130, stdout: "", stderr: "stopped before " + what + " finished: no result\n", stopped: true });
    });
    host.jobs = {};
    host.busy = null;
    busyUi(false);
    $("progress-note").dataset.live = 1;
    $("progress-note").textContent = "stopped: " + what;
    startWorker();
  }
  function busyUi(on, what) {
    ["run", "check", "compare", "matrix-run", "sweep-run", "ex-check"].forEach(function (id) { if ($(id)) $(id).disabled = on; });
    if (!on) checkable();
    $("stop").disabled = !on;
    $("progress").hidden = !on;
    /* a bar that moves with the progress told (a check's time, the matrix's designs, a sweep's
     * cells), not an animation (which would redraw the page 60 times a second) */
    if (on) { $("progress").value = 0; $("progress-note").textContent = what + " …"; delete $("progress-note").dataset.live; }
  }
  /* Check searches a scenario's `explore` table: offered only when it has one */
  function checkable() {
    $("check").disabled = !!host.busy || !P.editor || !/\bexplore\s*=/.test(P.editor.get());
    $("check").title = $("check").disabled && !host.busy ? "this scenario has no explore table to search (scenarios/README.md, Checking)"
      : "locklab check: search the faults and schedules of its explore table";
  }

  /* what the other files of the page use */
  Object.assign(P, { checkable: checkable, host: host, job: job, startWorker: startWorker, stop: stop });
})();
