/* worker.js — `locklab check` off the page's thread (a Web Worker): the search, its progress
 * lines as they are printed, and its counter-example replayed into the player's page.
 * app.js makes the worker from this function's text, the engine's and the module's (a page
 * opened from file:// may not start a worker from a file). A check cannot be interrupted
 * from inside (the search does not return to the event loop); Stop ends the worker. */
"use strict";

function locklabWorkerMain(scope, createLocklab, LocklabEngine) {
  var engine = null;
  scope.onmessage = function (ev) {
    var job = ev.data;
    var start = engine ? Promise.resolve(engine) : LocklabEngine(createLocklab);
    start.then(function (e) {
      engine = e;
      if (job.text !== undefined) e.write(job.path, job.text);
      var base = "counterexample";
      ["lua", "choices", "txt"].forEach(function (x) { e.remove(base + "." + x); });
      var words = ["check", job.path, "--jobs", "1", "--out", base].concat(job.args || []);
      var r = e.command(words, function (line) { scope.postMessage({ type: "progress", line: line }); });
      var reply = { type: "done", code: r.code, stdout: r.stdout, stderr: r.stderr };
      if (r.code === 1 && e.read(base + ".lua") !== null) {
        reply.cexLua = e.read(base + ".lua");
        reply.cexChoices = e.read(base + ".choices");
        var p = e.command(["run", base + ".lua", "--choices", base + ".choices", "-q",
                           "--verdicts", "/w/cex-verdicts.json", "--html", "/w/cex-player.html"]);
        reply.replay = { code: p.code, stdout: p.stdout, stderr: p.stderr,
                         verdicts: e.read("/w/cex-verdicts.json"), page: e.read("/w/cex-player.html") };
      }
      if (r.dead) engine = null;
      scope.postMessage(reply);
    }).catch(function (err) {
      scope.postMessage({ type: "done", code: 3, stdout: "", stderr: "the check's worker failed: " + err + "\n" });
    });
  };
}
