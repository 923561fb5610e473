/* run.js — the scenario being edited: the library's picker and the scenario picked, the
 * address that holds it (#scenario=NAME&text=...: a link shares it), Run (the player page
 * `locklab run --html` writes, in a frame, with its verdicts; an edit told as exploration
 * beside the lesson's own run), Check (with its progress, the counter-example replayed), and
 * the downloads. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

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
      P.checkable();
      return true;
    });
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

  /* what the other files of the page use */
  Object.assign(P, { checkUi: checkUi, decodeText: decodeText, entries: entries, fillPicker: fillPicker, markErrors: markErrors, offerDownloads: offerDownloads, onText: onText, parseHash: parseHash, pathOf: pathOf, run: run, saveHash: saveHash, select: select, showPlayer: showPlayer, splitPage: splitPage, verdictsOf: verdictsOf });
})();
