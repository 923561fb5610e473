/* worker.js — every engine call of the page, off its thread (a Web Worker): Run, Compare,
 * Check, Matrix, a sweep, and the library's files. The page never runs the engine itself, so a
 * long run never blocks it (web/README.md).
 *
 * app.js makes the worker from this function's text, the engine's and the module's glue (a
 * page opened from file:// may not start a worker from a file), and gives it the WebAssembly
 * module the page compiled once: a new worker (after Stop) instantiates it again, it does not
 * compile it again. A command cannot be interrupted from inside (the engine does not return
 * to the worker's event loop while it runs); Stop ends the worker.
 *
 * Messages in: { id, op, ... }; out: { id, type: "progress", line | cell | row } while it runs,
 * then { id, type: "done", ... }.
 *
 * A scenario the page edited is written beside the library, at the top of the data
 * directory as my-NAME.lua (the path the page gives), never over the library's file: what a
 * run prints and the player's header then name the user's file, as `locklab run my-NAME.lua`
 * of the downloaded text does. It is removed when the job ends (`scratch`). */
"use strict";

function locklabWorkerMain(scope, createLocklab, LocklabEngine) {
  var engine = null, starting = null;

  function post(m) { scope.postMessage(m); }
  function run(e, job, path, text, extra) {
    if (text !== undefined) e.write(path, text);
    ["/w/verdicts.json", "/w/history.jsonl", "/w/player.html"].forEach(e.remove);
    var r = e.command(["run", path, "-q", "--verdicts", "/w/verdicts.json", "--json", "/w/history.jsonl",
                       "--html", "/w/player.html"].concat(extra || []));
    r.verdicts = e.read("/w/verdicts.json");
    r.history = job.noHistory ? null : e.readBytes("/w/history.jsonl");
    r.page = e.readBytes("/w/player.html");
    return r;
  }
  function listing(e) {
    var matrix = {};
    e.list("scenarios/matrix").forEach(function (d) {
      if (e.isDir("scenarios/matrix/" + d)) matrix[d] = e.list("scenarios/matrix/" + d);
    });
    return { list: e.command(["list"]).stdout, scripts: e.command(["scripts"]).stdout,
             scenarios: e.list("scenarios"), matrix: matrix, check: e.list("tests/check"),
             clients: e.list("lua/clients") };
  }

  var ops = {
    boot: function (e) { return listing(e); },
    read: function (e, j) { return { text: e.read(j.path) }; },
    write: function (e, j) { e.write(j.path, j.text); return {}; },
    command: function (e, j) {
      return e.command(j.words, j.progress ? function (line) { post({ id: j.id, type: "progress", line: line }); } : null);
    },
    run: function (e, j) { return run(e, j, j.path, j.text, j.extra); },
    /* each text run in turn (an exercise's tries, the lesson's own run): verdicts only */
    runs: function (e, j) {
      var out = [];
      j.texts.forEach(function (t, k) {
        e.write(j.path, t);
        e.remove("/w/v.json");
        var r = e.command(["run", j.path, "-q", "--verdicts", "/w/v.json"].concat(j.extra || []));
        var one = { code: r.code, stderr: r.stderr, verdicts: e.read("/w/v.json") };
        out.push(one);
        post({ id: j.id, type: "progress", cell: k, of: j.texts.length, result: one });
      });
      return { results: out };
    },
    /* `locklab sweep` (cli/sweep.c, the native command's code) once per row, each row a text
     * of its own (the page's second knob set in it): the table it prints and its CSV */
    sweep: function (e, j) {
      var out = [];
      for (var k = 0; k < j.rows.length; k++) {
        var row = j.rows[k];
        e.write(row.path, row.text);
        e.remove("/w/sweep.csv");
        var r = e.command(["sweep", row.path].concat(j.args, ["--csv", "/w/sweep.csv"]));
        var one = { code: r.code, stdout: r.stdout, stderr: r.stderr, csv: e.read("/w/sweep.csv") };
        if (row.path !== j.keep) e.remove(row.path);
        out.push(one);
        post({ id: j.id, type: "progress", row: k, of: j.rows.length, result: one });
        if (r.code !== 0) break;  /* bad input: the next rows would say the same */
      }
      return { rows: out };
    },
    check: function (e, j) {
      if (j.text !== undefined) e.write(j.path, j.text);
      var base = "counterexample";
      ["lua", "choices", "txt"].forEach(function (x) { e.remove(base + "." + x); });
      var words = ["check", j.path, "--jobs", "1", "--out", base].concat(j.args || []);
      var r = e.command(words, function (line) { post({ id: j.id, type: "progress", line: line }); });
      if (r.code === 1 && e.read(base + ".lua") !== null) {
        r.cexLua = e.read(base + ".lua");
        r.cexChoices = e.read(base + ".choices");
        var p = e.command(["run", base + ".lua", "--choices", base + ".choices", "-q",
                           "--verdicts", "/w/cex-verdicts.json", "--html", "/w/cex-player.html"]);
        r.replay = { code: p.code, stdout: p.stdout, stderr: p.stderr,
                     verdicts: e.read("/w/cex-verdicts.json"), page: e.readBytes("/w/cex-player.html") };
      }
      return r;
    },
    compare: function (e, j) {
      e.write(j.path, j.text);
      var r = e.command(["compare", j.path, j.flag, j.a, j.flag, j.b]);
      r.sides = r.code === 0 ? j.sides.map(function (t) { var s = run(e, { noHistory: true }, j.path, t); return { stdout: s.stdout, page: s.page }; }) : null;
      e.write(j.path, j.text);
      return r;
    },
    matrix: function (e, j) {
      e.remove("/w/matrix.csv");
      var r = e.command(["matrix", "-q", "--csv", "/w/matrix.csv"], function (line) {
        post({ id: j.id, type: "progress", line: line });
      });
      r.csv = e.read("/w/matrix.csv");
      return r;
    },
    /* the engine's own time for a command, repeated (tools/bench-web.sh): ms per call */
    time: function (e, j) {
      for (var w = 0; w < (j.warm || 0); w++) e.command(j.words);
      var t = performance.now();
      for (var i = 0; i < j.runs; i++) e.command(j.words);
      return { ms: (performance.now() - t) / j.runs };
    }
  };

  scope.onmessage = function (ev) {
    var job = ev.data;
    if (job.op === "init") {
      var t0 = performance.now();
      starting = LocklabEngine(createLocklab, job.module).then(function (e) {
        engine = e;
        post({ id: job.id, type: "done", code: 0, ms: performance.now() - t0 });
        return e;
      }, function (err) {
        post({ id: job.id, type: "done", code: 3, stderr: "the engine did not start: " + err + "\n" });
      });
      return;
    }
    starting.then(function (e) {
      var r;
      try {
        r = ops[job.op](e, job);
      } catch (err) {
        r = { code: 3, stdout: "", stderr: "the worker failed: " + (err && err.message ? err.message : err) + "\n" };
      }
      if (job.scratch) e.remove(job.scratch);
      r.id = job.id;
      r.type = "done";
      if (r.dead) r.restart = true;  /* the instance is finished (exit, trap): the page makes a new worker */
      /* a file (a player's page, a history) goes as its UTF-8 bytes: a large one in a Blob,
       * whose bytes the page's heap does not hold on receipt (7 MB of a transferred buffer
       * made the page's thread collect its garbage for 0.2 s as the result arrived), a small
       * one transferred */
      var moved = [];
      (function collect(o) {
        if (!o || typeof o !== "object" || o instanceof Blob) return;
        Object.keys(o).forEach(function (k) {
          if (o[k] instanceof Uint8Array) {
            if (o[k].length > 262144) o[k] = new Blob([o[k]], { type: "text/plain;charset=utf-8" });
            else moved.push(o[k].buffer);
          } else if (o[k] && typeof o[k] === "object") collect(o[k]);
        });
      })(r);
      scope.postMessage(r, moved);
    });
  };
}
