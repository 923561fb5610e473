/* app.js — the playground's page: pick a scenario (the library, grouped by protocol as
 * `locklab list` names it, the matrix's cells, the model checker's problems), read its lesson,
 * edit its Lua text (CodeMirror from Debian's libjs-codemirror when the site has it, else a
 * textarea), turn the common knobs (which edit the text), Run (the player page `locklab run
 * --html` writes, with its verdicts), Check (in a worker, with progress and Stop), Compare two
 * script versions or option presets (`locklab compare`, and the two players side by side).
 * The scenario being edited is kept in the address (#scenario=NAME&text=...), so a link
 * shares it; #run=NAME runs library scenario NAME at once.
 *
 * Everything is computed by the engine (engine.js over web/main.c); this file only moves text
 * between it and the page. window.locklab is what the tests drive (tests/web/). */
"use strict";

(function () {
  var $ = function (id) { return document.getElementById(id); };

  var current = null;          /* { name, path, original } */
  var editor = null;           /* { get(), set(text), mark(line, message), clear(), onChange(fn) } */


  /* ---- the editor: CodeMirror 5 if present, else the textarea itself ---- */
  function makeEditor() {
    var ta = $("editor");
    if (window.CodeMirror) {
      var cm = window.CodeMirror.fromTextArea(ta, { mode: "lua", lineNumbers: true, indentUnit: 2,
                                                     viewportMargin: Infinity });
      var widgets = [], marked = [];
      return {
        kind: "CodeMirror " + window.CodeMirror.version,
        get: function () { return cm.getValue(); },
        set: function (t) { cm.setValue(t); },
        clear: function () {
          widgets.forEach(function (w) { w.clear(); });
          marked.forEach(function (l) { cm.removeLineClass(l, "background", "bad-line"); });
          widgets = []; marked = [];
        },
        mark: function (line, message) {
          var h = cm.addLineClass(line - 1, "background", "bad-line");
          var div = document.createElement("div");
          div.className = "line-error";
          div.textContent = message;
          widgets.push(cm.addLineWidget(line - 1, div, { coverGutter: false }));
          marked.push(h);
          cm.scrollIntoView({ line: line - 1, ch: 0 }, 80);
        },
        onChange: function (fn) { cm.on("change", fn); }
      };
    }
    var note = $("line-errors");
    return {
      kind: "textarea",
      get: function () { return ta.value; },
      set: function (t) { ta.value = t; },
      clear: function () { note.textContent = ""; },
      mark: function (line, message) {
        note.textContent = "line " + line + ": " + message;
        var lines = ta.value.split("\n"), pos = 0;
        for (var i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
        ta.focus();
        ta.setSelectionRange(pos, pos + (lines[line - 1] || "").length);
      },
      onChange: function (fn) { ta.addEventListener("input", fn); }
    };
  }

  /* ---- the scenario's text: reading and setting its common fields ---- */
  var STRING = '"(?:[^"\\\\]|\\\\.)*"';
  var VALUE = "(" + STRING + "|\\{[^{}]*\\}|[-\\w.]+)";
  function fieldRe(key) { return new RegExp("(^|[\\s,{])(" + key + "\\s*=\\s*)" + VALUE, "m"); }
  function getField(text, key) {
    var m = fieldRe(key).exec(text);
    return m ? m[3] : null;
  }
  /* text with field key set to the Lua value, or added after the protocol line */
  function setField(text, key, value) {
    var re = fieldRe(key);
    if (re.test(text)) return text.replace(re, function (all, pre, eq) { return pre + eq + value; });
    var p = /^(\s*)protocol\s*=.*$/m.exec(text) || /^(\s*)return\s*\{.*$/m.exec(text);
    if (!p) return text;
    var indent = p[0].indexOf("return") >= 0 ? "  " : p[1];
    var at = p.index + p[0].length;
    return text.slice(0, at) + "\n" + indent + key + " = " + value + "," + text.slice(at);
  }
  /* the duration of the first GC pause (or other pause) fault, on its line */
  var PAUSE_RE = /((?:gc_pause|pause)\s*=\s*"[^"]*"\s*,\s*duration\s*=\s*)("[^"]*")/;
  function unquote(v) { return v && v[0] === '"' ? v.slice(1, -1) : v; }
  function luaString(s) { return '"' + String(s).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"'; }
  function lesson(text) {
    var m = /about\s*=\s*\[(=*)\[([\s\S]*?)\]\1\]/.exec(text) || new RegExp("about\\s*=\\s*(" + STRING + ")").exec(text);
    if (!m) return "";
    var t = m[2] !== undefined ? m[2].trim() : unquote(m[1]);
    return t.split(/\n\s*\n/).map(function (p) { return p.replace(/\s*\n\s*/g, " "); }).join("\n\n");
  }

  var KNOBS = [
    { id: "k-lease", label: "the lease", get: function (t) { return unquote(getField(t, "lease")); },
      set: function (t, v) { return setField(t, "lease", v === "false" ? "false" : luaString(v)); } },
    { id: "k-work", label: "the first client's work", get: function (t) { return unquote(getField(t, "work")); },
      set: function (t, v) { return getField(t, "work") === null ? t : setField(t, "work", luaString(v)); } },
    { id: "k-pause", label: "the pause", get: function (t) { var m = PAUSE_RE.exec(t); return m ? unquote(m[2]) : null; },
      set: function (t, v) { return t.replace(PAUSE_RE, function (a, pre) { return pre + luaString(v); }); } },
    { id: "k-delay", label: "the network delay", get: function (t) {
        var v = getField(t, "delay");
        if (!v) return null;
        var parts = v.match(/"[^"]*"/g);
        return parts ? parts.map(unquote).join(" to ") : v;
      },
      set: function (t, v) {
        var parts = v.split(/\s*(?:to|,|-)\s*/).filter(Boolean);
        var lua = parts.length > 1 ? "{ " + luaString(parts[0]) + ", " + luaString(parts[1]) + " }" : luaString(parts[0]);
        if (getField(t, "delay") !== null) return setField(t, "delay", lua);
        return setField(t, "network", "{ delay = " + lua + " }");
      } },
    { id: "k-drift", label: "the clock drift", get: function (t) { return getField(t, "drift"); },
      set: function (t, v) {
        if (getField(t, "drift") !== null) return setField(t, "drift", v);
        if (getField(t, "clock") !== null) return t.replace(fieldRe("clock"), function (a, pre, eq, val) {
          return pre + eq + val.replace(/\}\s*$/, ", drift = " + v + " }").replace("{ ,", "{");
        });
        return setField(t, "clock", "{ drift = " + v + " }");
      } },
    { id: "k-persistence", label: "persistence", get: function (t) { return unquote(getField(t, "persistence")); },
      set: function (t, v) { return setField(t, "persistence", luaString(v)); } },
    { id: "k-protocol", label: "the protocol", get: function (t) { return unquote(getField(t, "protocol")); },
      set: function (t, v) { return setField(t, "protocol", luaString(v)); } },
    { id: "k-scripts", label: "the script version", get: function (t) { return unquote(getField(t, "scripts")); },
      set: function (t, v) { return setField(t, "scripts", luaString(v)); } }
  ];
  function showKnobs(text) {
    KNOBS.forEach(function (k) {
      var el = $(k.id), v = k.get(text);
      if (document.activeElement !== el) el.value = v === null || v === undefined ? "" : v;
    });
  }

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
    if (!current || document.body.classList.contains("in-lesson")) return;
    var t = editor.get(), h = "#scenario=" + encodeURIComponent(current.name);
    if (t !== current.original) h += "&text=" + encodeText(t);
    if (location.hash !== h) history.replaceState(null, "", h);
  }

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

  /* ---- the library ---- */
  var entries = {};            /* name -> path */
  var library = null;          /* what the worker listed at the start */
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
    return job({ op: "read", path: path }, "reading " + name).then(function (r) {
      current = { name: name, path: path, original: r.text, baseline: null };
      $("pick").value = name;
      editor.clear();
      editor.set(text !== undefined ? text : r.text);
      $("lesson").textContent = lesson(editor.get());
      showKnobs(editor.get());
      saveHash();
      checkable();
      return true;
    });
  }

  /* Check searches a scenario's `explore` table: offered only when it has one */
  function checkable() {
    $("check").disabled = !!host.busy || !editor || !/\bexplore\s*=/.test(editor.get());
    $("check").title = $("check").disabled && !host.busy ? "this scenario has no explore table to search (scenarios/README.md, Checking)"
      : "locklab check: search the faults and schedules of its explore table";
  }

  /* ---- running ---- */
  /* Where the worker puts a text: the library's own file when it is the library's text, else
   * my-NAME.lua at the top of the data directory (web/worker.js), so that what a run prints
   * and the player's header name the user's scenario, not the library's, and a downloaded
   * my-NAME.lua replays with `locklab run my-NAME.lua`. */
  function mine(path) { return "my-" + path.replace(/.*\//, ""); }
  function pathOf(text) { return text === current.original ? current.path : mine(current.path); }
  /* a job on text: its path, and the scratch file the worker removes after it */
  function onText(msg, text) {
    msg.path = pathOf(text);
    if (msg.path !== current.path) msg.scratch = msg.path;
    return msg;
  }
  function markErrors(stderr, path) {
    editor.clear();
    var re = new RegExp((path || current.path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ":(\\d+):\\s*(.*)");
    stderr.split("\n").forEach(function (line) {
      var m = re.exec(line);
      if (m) editor.mark(parseInt(m[1], 10), m[2]);
    });
  }
  /* the player's page in a frame, in the frame's 'embedded' layout (the page above shows the
   * lesson and the verdicts), at the moment asked for */
  /* The player's page without its run's data (the frame is given them when it has loaded:
   * llData in reports/html_view.js), and the data: a long run's 7 MB in srcdoc would hold the
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
    return job(onText({ op: "run", text: text, extra: extra, noHistory: !history }, text), "run " + current.name);
  }
  function verdictsOf(json) {
    try { return JSON.parse(json || "{}").verdicts || []; } catch (e) { return []; }
  }
  /* what the edit changed, knob by knob ("lease 10s → 20s"), or "the text" */
  function changes(before, after) {
    var said = [];
    KNOBS.forEach(function (k) {
      var a = k.get(before), b = k.get(after);
      if (a !== b) said.push(k.label + " " + (a === null || a === undefined ? "(none)" : a) + " → " + (b === null || b === undefined ? "(none)" : b));
    });
    return said.length ? said.join(", ") : "the text";
  }
  /* The verdicts of the library's own run of the current scenario (once), to compare an
   * exploration with. */
  function baseline() {
    if (current.baseline) return Promise.resolve(current.baseline);
    var mine = current;
    return job({ op: "runs", path: current.path, texts: [current.original] }, "the lesson's run")
      .then(function (r) { mine.baseline = verdictsOf(r.results[0].verdicts); return mine.baseline; });
  }
  /* Exploring: an edited scenario's run is told against the lesson's own run, property by
   * property ("you changed the lease: here is what happens now"), not as a failed test; the
   * command's own output stays below, as `locklab run` prints it. */
  function explain(r) {
    var box = $("explore");
    box.innerHTML = "";
    box.hidden = true;
    var text = editor.get();
    if (!current || text === current.original || r.code > 1) return Promise.resolve();
    var now = verdictsOf(r.verdicts);
    return baseline().then(function (before) {
      var was = {};
      before.forEach(function (v) { was[v.property] = v.verdict; });
      var h = "<p><b>You changed " + esc(changes(current.original, text)) + ".</b> Here is what happens now, beside the lesson's run:</p><ul>";
      now.filter(function (v) { return v.verdict === "holds" || v.verdict === "violated"; }).forEach(function (v) {
        var w = was[v.property], moved = w && w !== v.verdict;
        h += "<li class=\"" + (v.verdict === "violated" ? "bad" : "good") + (moved ? " moved" : "") + "\"><code>" + esc(v.property) + "</code> " +
             (v.verdict === "violated" ? "VIOLATED" : esc(v.verdict)) + (w ? (moved ? " <b>(was " + esc(w) + ")</b>" : " (as before)") : "") + "</li>";
      });
      box.innerHTML = h + "</ul><p class=\"small\">(The scenario's <code>expect</code> still describes the lesson's run: " +
        "below, <code>locklab run</code> checks this run against it.)</p>";
      box.hidden = false;
    });
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[c]; }); }
  function run(goto, history) {
    var text = editor.get(), edited = text !== current.original;
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
      if (r.page && !noScroll) (document.body.classList.contains("in-lesson") ? $("lesson-verdict") : $("player")).scrollIntoView({ block: "start" });
      lastRun = { text: text, name: current.name, page: r.page };
      $("present").disabled = !r.page;
      var verdictsBefore = current.lastVerdicts;
      current.lastVerdicts = verdictsOf(r.verdicts);
      current.verdictsBefore = verdictsBefore;
      return explain(r).then(function () { return r; });
    });
  }
  var noScroll = false, lastRun = null;

  /* ---- checking ---- */
  function checkUi() {
    var text = editor.get(), limit = 60;
    $("output").textContent = "";
    return job(onText({ op: "check", text: text }, text), "check " + current.name, function (m) {
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

  /* ---- comparing two script versions or option presets ---- */
  function optionsWith(text, kv) {
    var cur = getField(text, "options"), pairs = [];
    if (cur && cur[0] === "{") pairs = cur.slice(1, -1).split(",").map(function (s) { return s.trim(); }).filter(Boolean);
    kv.split(",").forEach(function (one) {
      var i = one.indexOf("=");
      if (i < 0) return;
      var k = one.slice(0, i).trim(), v = one.slice(i + 1).trim();
      var lua = /^(-?\d+(\.\d+)?|true|false)$/.test(v) ? v : luaString(v);
      pairs = pairs.filter(function (p) { return p.split("=")[0].trim() !== k; });
      pairs.push(k + " = " + lua);
    });
    return setField(text, "options", "{ " + pairs.join(", ") + " }");
  }
  function compare() {
    var mode = $("cmp-mode").value, a = $("cmp-a").value.trim(), b = $("cmp-b").value.trim();
    var text = editor.get(), flag = mode === "scripts" ? "--scripts" : "--options";
    var sides = [a, b].map(function (v) { return mode === "scripts" ? setField(text, "scripts", luaString(v)) : optionsWith(text, v); });
    return job(onText({ op: "compare", text: text, flag: flag, a: a, b: b, sides: sides }, text),
               "compare " + current.name).then(function (r) {
      if (r.stopped) return r;
      $("cmp-out").textContent = r.stdout + r.stderr;
      markErrors(r.stderr, pathOf(text));
      [[a, $("player-a"), $("cmp-va"), "[1]"], [b, $("player-b"), $("cmp-vb"), "[2]"]].forEach(function (s, k) {
        var one = r.sides ? r.sides[k] : { stdout: "", page: null };
        s[2].textContent = s[3] + ": " + flag + " " + s[0] + "\n" + one.stdout;
        showPlayer(s[1], one.page);
      });
      return r;
    });
  }

  /* ---- the matrix: every design under every situation, in the page ---- */
  function matrix() {
    var n = 0;
    return job({ op: "matrix" }, "matrix", function (m) {
      var p = /\((\d+) of (\d+) designs\)/.exec(m.line || "");
      if (p) {
        $("progress").value = Number(p[1]) / Number(p[2]);
        $("progress-note").dataset.live = 1;
        $("progress-note").textContent = m.line.replace(/^matrix: /, "");
      }
      n++;
    }).then(function (r) {
      if (r.stopped) return r;
      drawMatrix(r.csv || "", r);
      $("matrix-box").open = true;
      $("progress-note").textContent = (r.stderr || "").split("\n").filter(Boolean).pop() || "matrix: exit " + r.code;
      return r;
    });
  }
  function csvRows(csv) {
    var rows = [];
    csv.split("\n").forEach(function (line) {
      if (!line) return;
      var out = [], cell = "", q = false;
      for (var i = 0; i < line.length; i++) {
        var ch = line[i];
        if (q) { if (ch === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (ch === '"') q = false; else cell += ch; }
        else if (ch === '"') q = true;
        else if (ch === ",") { out.push(cell); cell = ""; }
        else cell += ch;
      }
      out.push(cell);
      rows.push(out);
    });
    return rows;
  }
  /* designs down, situations across; a cell ✓ when every property holds, else the violated
   * properties' initials; a click runs that cell in the editor */
  function drawMatrix(csv, r) {
    var rows = csvRows(csv), head = rows.shift() || [], col = {};
    head.forEach(function (h, i) { col[h] = i; });
    var designs = [], situations = [], title = {}, cells = {};
    var sign = { contradicts: "!", unwarned: "?" };   /* "agrees": as the source claims, no mark */
    rows.forEach(function (row) {
      var d = row[col.row], s = row[col.column];
      if (designs.indexOf(d) < 0) { designs.push(d); title[d] = row[col.design]; }
      if (situations.indexOf(s) < 0) { situations.push(s); title["col:" + s] = row[col.situation]; }
      var c = cells[d + "/" + s] = cells[d + "/" + s] || { bad: [], marks: "" };
      if (row[col.verdict] === "violated") c.bad.push(row[col.property]);
      if (sign[row[col.mark]] && c.marks.indexOf(sign[row[col.mark]]) < 0) c.marks += sign[row[col.mark]];
    });
    var short = { mutual_exclusion: "ME", resource_safety: "RS", release_safety: "RL", no_deadlock: "DL", reentrancy: "RE", fairness: "FA" };
    var h = "<table class=\"matrix\"><thead><tr><th>design</th>" + situations.map(function (s) {
      return "<th title=\"" + esc(title["col:" + s]) + "\">" + esc(s) + "</th>"; }).join("") + "</tr></thead><tbody>";
    designs.forEach(function (d) {
      h += "<tr><th title=\"" + esc(d) + "\">" + esc(title[d]) + "</th>" + situations.map(function (s) {
        var c = cells[d + "/" + s];
        if (!c) return "<td class=\"none\">–</td>";
        var label = c.bad.length ? "✗ " + c.bad.map(function (p) { return short[p] || p; }).join(" ") : "✓";
        return "<td class=\"" + (c.bad.length ? "bad" : "good") + "\" data-cell=\"matrix/" + esc(d) + "/" + esc(s) +
          "\" title=\"" + esc(title[d] + " / " + title["col:" + s] + (c.bad.length ? ": " + c.bad.join(", ") + " violated" : ": every property holds") +
          (c.marks ? " (" + (c.marks.indexOf("!") >= 0 ? "the source claims otherwise" : "") + (c.marks.length > 1 ? "; " : "") +
           (c.marks.indexOf("?") >= 0 ? "a violation the source does not warn of" : "") + ")" : "")) + "\">" + label +
          (c.marks ? "<sup>" + esc(c.marks) + "</sup>" : "") + "</td>";
      }).join("") + "</tr>";
    });
    h += "</tbody></table><p class=\"small\">ME mutual exclusion, RS resource safety, RL release safety, DL no deadlock, RE re-entrancy; " +
      "! the source claims otherwise, ? a violation it does not warn of (as <code>locklab matrix</code> marks them). Click a cell to run it. (" +
      esc((r.stderr || "").split("\n").filter(Boolean).pop() || "") + ")</p>";
    $("matrix-out").innerHTML = h;
    $("matrix-out").dataset.cells = rows.length;
  }

  /* ---- a two-dimensional sweep: lease × pause, drift × lease, ... drawn as a heat map ----
   * Each row is one `locklab sweep` (cli/sweep.c, the native command's own code, in the
   * worker): across, its --vary parameter and range, N runs per point with its seeds; down, the
   * page's knob set in the text, one sweep per value. The cells are its CSV's counts of the
   * property (violated of judged); what each row printed is shown below the map, and is
   * byte for byte what `locklab sweep` prints for that text and those arguments. */
  function range(spec) {
    /* "FROM:TO:STEP" with units (2s:20s:2s) or a list "1s,5s,9s" */
    var p = spec.split(":");
    if (p.length !== 3) return spec.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
    var m = /^(-?[\d.]+)([a-z]*)$/, a = m.exec(p[0].trim()), b = m.exec(p[1].trim()), c = m.exec(p[2].trim());
    if (!a || !b || !c) return [];
    var unit = a[2] || b[2] || c[2], out = [], x0 = parseFloat(a[1]), x1 = parseFloat(b[1]), dx = parseFloat(c[1]);
    if (!(dx > 0)) return [];
    for (var x = x0, k = 0; x <= x1 + 1e-9 && k < 40; x += dx, k++) out.push(String(Number(x.toFixed(6))) + unit);
    return out;
  }
  function knob(id) { return KNOBS.filter(function (k) { return k.id === id; })[0]; }
  var VARY_LABEL = { lease: "the lease", gc_pause: "the pause", drift: "every node's clock drift", work: "every client's work",
                     "network.delay": "the network delay" };
  function sweep() {
    var vary = $("sw-x").value, xr = $("sw-xr").value.trim(), ky = knob($("sw-y").value), ys = range($("sw-yr").value);
    var runs = $("sw-runs").value.trim() || "1", prop = $("sw-prop").value, text = editor.get();
    if (!ys.length) { $("sweep-note").textContent = "write the rows' values as FROM:TO:STEP (4s:24s:4s) or a list (6s,20s)"; return Promise.resolve(null); }
    var rows = ys.map(function (y) { var t = ky.set(text, y); return { path: pathOf(t), text: t }; });
    var args = ["--vary", vary + "=" + xr, "--runs", runs];
    $("sweep-out").innerHTML = "";
    $("sweep-tables").textContent = "";
    $("sweep-note").textContent = "";
    var grid = null;
    var draw = function (k, one) {
      var cells = sweepCells(one.csv || "", prop);
      if (!grid && cells) grid = drawGrid(cells.map(function (c) { return c.label; }), ys, VARY_LABEL[vary] || vary, ky, prop);
      if (grid) paintRow(grid, k, cells, one);
      $("sweep-tables").textContent += "# " + ky.label + " " + ys[k] + ": locklab sweep " + rows[k].path + " " + args.join(" ") +
        "\n" + one.stdout + one.stderr + "\n";
    };
    var done = {};
    return job({ op: "sweep", rows: rows, args: args, keep: current.path }, "sweep " + ys.length + " rows", function (m) {
      if (m.row === undefined) return;
      $("progress").value = (m.row + 1) / m.of;
      $("progress-note").dataset.live = 1;
      $("progress-note").textContent = "sweep: " + (m.row + 1) + " of " + m.of + " rows (" + ky.label + " " + ys[m.row] + ")";
      done[m.row] = 1;
      draw(m.row, m.result);
    }).then(function (r) {
      if (r.stopped) return r;
      r.rows.forEach(function (one, k) { if (!done[k]) draw(k, one); });
      var last = r.rows[r.rows.length - 1];
      if (last && last.code !== 0) {
        $("sweep-note").textContent = last.stderr.split("\n")[0] || "locklab sweep: exit " + last.code;
        $("sweep-note").className = "small bad";
      } else if (grid) {
        var safe = grid.querySelectorAll("td.safe").length, all = grid.querySelectorAll("td[data-k]").length;
        $("sweep-note").className = "small";
        $("sweep-note").textContent = safe + " of " + all + " settings never violated " + prop + " in " + runs +
          " run" + (runs === "1" ? "" : "s") + " each (green, the safe region); red: violated in every run, orange: in some";
      }
      return { code: last ? last.code : 3, rows: r.rows, ys: ys, args: args, paths: rows.map(function (x) { return x.path; }),
               cells: Array.prototype.map.call(grid ? grid.querySelectorAll("td[data-k]") : [], function (td) { return td.className; }) };
    });
  }
  /* the property's counts per point, from `locklab sweep --csv` (its header names the
   * columns: label, PROPERTY_violated, PROPERTY_judged) */
  function sweepCells(csv, prop) {
    var rows = csvRows(csv), head = rows.shift();
    if (!head) return null;
    var col = {};
    head.forEach(function (h, i) { col[h] = i; });
    return rows.map(function (r) {
      return { label: r[col.label], violated: col[prop + "_violated"] === undefined ? null : Number(r[col[prop + "_violated"]]),
               judged: col[prop + "_judged"] === undefined ? null : Number(r[col[prop + "_judged"]]), errors: Number(r[col.errors] || 0) };
    });
  }
  function drawGrid(xs, ys, xlabel, ky, prop) {
    var t = document.createElement("table");
    t.className = "heat";
    var h = "<caption>" + esc(prop) + ": violated in how many runs, by " + esc(xlabel) + " (across) and " + esc(ky.label) + " (down)</caption><tr><th></th>" +
      xs.map(function (x) { return "<th>" + esc(x) + "</th>"; }).join("") + "</tr>";
    ys.forEach(function (y, j) {
      h += "<tr><th>" + esc(y) + "</th>" + xs.map(function (x, i) { return "<td data-k=\"" + (j * xs.length + i) + "\"></td>"; }).join("") + "</tr>";
    });
    t.innerHTML = h;
    $("sweep-out").innerHTML = "";
    $("sweep-out").appendChild(t);
    return t;
  }
  function paintRow(grid, j, cells, one) {
    var tds = grid.querySelectorAll("tr:nth-child(" + (j + 2) + ") td[data-k]");
    Array.prototype.forEach.call(tds, function (td, i) {
      var c = cells && cells[i];
      if (!c || c.judged === null) {
        td.className = "err"; td.textContent = "!"; td.title = (one.stderr || "no result").split("\n")[0];
        return;
      }
      td.className = !c.judged ? "nj" : c.violated === 0 ? "safe" : c.violated === c.judged ? "unsafe" : "some";
      td.textContent = c.judged ? c.violated + "/" + c.judged : "–";
      td.title = c.judged ? c.violated + " of " + c.judged + " runs violated it" + (c.errors ? "; " + c.errors + " ended in an error" : "") : "not judged";
    });
  }

  /* ---- live faults: a click on a client or a node in the player adds a fault there ----
   * Its size is the student's: a pause's and a cut's length, a clock jump (signed), a drift
   * rate, each written into the scenario as the scenario format writes it (the engine reads
   * it, and says in one line what is wrong with it). */
  var pick = null;
  var SIZE = { gc_pause: "duration", partition: "duration", clock_jump: "by", drift: "rate" };
  function onPick(m) {
    pick = m;
    var box = $("live");
    $("live-who").textContent = m.actor + " at " + (m.t / 1e6).toFixed(3) + " s";
    Array.prototype.forEach.call(box.querySelectorAll("button[data-fault]"), function (b) {
      /* a GC pause freezes a client's process; a node is crashed, cut off or its clock moved */
      b.parentNode.hidden = b.dataset.fault === "gc_pause" && !!m.node;
    });
    /* a crashed node may restart (a client that crashes stops for good) */
    Array.prototype.forEach.call(box.querySelectorAll(".node-only"), function (e) { e.hidden = !m.node; });
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }
  /* the scenario's text with one more fault: at the instant picked, on whom was clicked, of
   * the size given (null: the text is left as it is, and why) */
  function withFault(text, kind, who, tUs, size, actors) {
    var at = luaString((tUs / 1000).toFixed(3).replace(/\.?0+$/, "") + "ms"), f;
    if (SIZE[kind] && !size) return { why: "give the " + (kind === "drift" ? "rate" : kind === "clock_jump" ? "jump" : "length") + " first" };
    if (kind === "drift" && !/^-?(\d+\.?\d*|\.\d+)$/.test(size)) return { why: "a drift rate is a number, such as 0.05 (5% fast) or -0.01" };
    if (kind === "crash") {
      f = "{ at = " + at + ", crash = " + luaString(who) + " }";
      /* a node's restart, that long after: the instant written in ms, as the crash's */
      if (size) {
        var d = /^(\d+(?:\.\d+)?)(us|ms|s|m|h)?$/.exec(size);
        if (!d) return { why: "write the restart's delay as a duration: 500ms, 5s, 1m" };
        var ms = parseFloat(d[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000, h: 3600000 }[d[2] || "ms"];
        f += ", { at = " + luaString(((tUs / 1000) + ms).toFixed(3).replace(/\.?0+$/, "") + "ms") + ", restart = " + luaString(who) + " }";
      }
    }
    else if (kind === "gc_pause") f = "{ at = " + at + ", gc_pause = " + luaString(who) + ", duration = " + luaString(size) + " }";
    else if (kind === "clock_jump") f = "{ at = " + at + ", clock_jump = " + luaString(who) + ", by = " + luaString(size) + " }";
    else if (kind === "drift") f = "{ at = " + at + ", drift = " + luaString(who) + ", rate = " + size + " }";
    else {
      /* cut off from everyone else: a partition of two groups, it and the others */
      var others = (actors || []).filter(function (a) { return a !== who; });
      if (!others.length) return { why: "the player did not say who else is in the run" };
      f = "{ at = " + at + ", partition = { { " + luaString(who) + " }, { " + others.map(luaString).join(", ") + " } }, duration = " + luaString(size) + " }";
    }
    var m = /(^|[\s,{])faults\s*=\s*\{/m.exec(text);
    if (m) {
      var at0 = m.index + m[0].length;
      return { text: text.slice(0, at0) + "\n    " + f + "," + text.slice(at0) };
    }
    return { text: setField(text, "faults", "{ " + f + " }") };
  }
  function liveFault(kind) {
    if (!pick || !lastRun) return Promise.resolve(null);
    var size = $("lf-" + kind) && !(kind === "crash" && !pick.node) ? $("lf-" + kind).value.trim() : "";
    var before = lastRun.text, made = withFault(before, kind, pick.actor, pick.t, size, pick.actors);
    if (!made.text) { $("live-note").textContent = made.why + "."; return Promise.resolve(null); }
    editor.set(made.text);
    var what = { crash: "a crash" + (size ? " (restart " + size + " later)" : ""), gc_pause: "a " + size + " pause", partition: "a " + size + " cut", clock_jump: "a clock jump of " + size,
                 drift: "a clock drift of rate " + size }[kind];
    return run().then(function (r) {
      if (r.code > 1) {
        $("live-note").textContent = "The engine refused " + what + ": " + (r.stderr.split("\n")[0] || "exit " + r.code) +
          " (the editor has the text; Reset goes back).";
        return r;
      }
      var was = current.verdictsBefore || [];
      var now = verdictsOf(r.verdicts), w = {};
      was.forEach(function (v) { w[v.property] = v.verdict; });
      var moved = now.filter(function (v) { return w[v.property] && w[v.property] !== v.verdict; });
      $("live-note").textContent = "Added " + what + " of " + pick.actor + " at " + (pick.t / 1e6).toFixed(3) +
        " s (the editor has the new scenario). " + (moved.length ? "What changed: " + moved.map(function (v) {
          return v.property + " " + w[v.property] + " → " + v.verdict; }).join(", ") : "No verdict changed.");
      return r;
    });
  }

  /* ---- the course: lessons from scenarios/course/lessons.txt ---- */
  /* The lesson file: "key: value" lines, a value continued on lines indented by two spaces
   * (an indented blank line: a new paragraph); "lesson:" starts a lesson; "option: TEXT |
   * VERDICT" an answer to predict. Its header says how (the file is the teacher's). */
  function parseCourse(text) {
    var lessons = [], cur = null, key = null;
    (text || "").split("\n").forEach(function (line, n) {
      if (/^#/.test(line)) return;
      if (/^  /.test(line) && cur && key) {
        var more = line.trim();
        cur[key] += more ? (/\n$/.test(cur[key]) || !cur[key] ? "" : " ") + more : "\n";
        return;
      }
      var m = /^([a-z-]+):\s*(.*)$/.exec(line);
      if (!m) { key = null; return; }
      if (m[1] === "lesson") { cur = { title: m[2], options: [], sources: [], line: n + 1 }; lessons.push(cur); key = "title"; return; }
      if (!cur) return;
      if (m[1] === "option") { var o = m[2].split("|"); cur.options.push({ text: o[0].trim(), verdict: (o[1] || "").trim() }); key = null; return; }
      if (m[1] === "source") { cur.sources.push(m[2]); key = null; return; }
      key = m[1];
      cur[key] = m[2];
    });
    return lessons;
  }
  function paragraphs(t) {
    return (t || "").split(/\n/).map(function (p) { return p.trim(); }).filter(Boolean).map(function (p) {
      return "<p>" + esc(p).replace(/`([^`]+)`/g, "<code>$1</code>") + "</p>"; }).join("");
  }
  var course = [];
  function showLesson(n) {
    var L = course[n - 1];
    document.body.classList.toggle("in-lesson", !!L);
    if (!L) $("explore").after($("player"));
    document.body.classList.remove("answered");
    $("course").hidden = !L;
    if (!L) return Promise.resolve(null);
    var goal = (L.goal || "").split(/\s+/), kb = knob("k-" + L.knob);
    $("course-nav").innerHTML = course.map(function (c, i) {
      return "<a href=\"#lesson=" + (i + 1) + "\"" + (i + 1 === n ? " class=\"here\"" : "") + ">" + (i + 1) + "</a>"; }).join("");
    $("lesson-title").textContent = "Lesson " + n + " of " + course.length + ": " + L.title;
    $("lesson-question").innerHTML = paragraphs(L.question);
    $("lesson-predict").innerHTML = "<p><b>Predict first:</b> " + esc(L.predict || "") + "</p>" + L.options.map(function (o, i) {
      return "<button class=\"choice\" data-i=\"" + i + "\">" + esc(o.text) + "</button>"; }).join(" ");
    $("lesson-after").hidden = true;
    $("lesson-verdict").textContent = "";
    $("lesson-look").innerHTML = paragraphs(L.look);
    $("lesson-exercise").innerHTML = paragraphs(L.exercise);
    $("ex-label").textContent = kb ? kb.label : L.knob;
    $("ex-value").value = "";
    $("ex-result").textContent = "";
    $("ex-result").className = "";
    $("lesson-sources").innerHTML = L.sources.map(function (s) {
      var m = /^(.*?)\s*(https?:\/\/\S+)\s*$/.exec(s);
      return "<li>" + (m ? esc(m[1]) + " <a href=\"" + esc(m[2]) + "\">" + esc(m[2]) + "</a>" : esc(s)) + "</li>"; }).join("");
    $("lesson-answer").textContent = L.answer || "";
    $("player").hidden = true;
    $("lesson-stage").appendChild($("player"));
    $("output-box").hidden = true;
    $("explore").hidden = true;
    return select(L.scenario).then(function () {
      Array.prototype.forEach.call($("lesson-predict").querySelectorAll("button.choice"), function (b) {
        b.addEventListener("click", function () { answer(n, Number(b.dataset.i)); });
      });
      return L;
    });
  }
  /* the student's prediction, then the run: the verdicts (hidden until now) and the moment
   * the property breaks */
  function answer(n, i) {
    var L = course[n - 1], o = L.options[i], prop = (L.property || "mutual_exclusion");
    Array.prototype.forEach.call($("lesson-predict").querySelectorAll("button.choice"), function (b, k) {
      b.disabled = true;
      if (k === i) b.classList.add("picked");
    });
    noScroll = false;
    document.body.classList.add("answered");
    return run(L.goto || "violation").then(function (r) {
      var v = verdictsOf(r.verdicts).filter(function (x) { return x.property === prop; })[0];
      var got = v ? v.verdict : "not judged", right = o && o.verdict === got;
      $("lesson-verdict").innerHTML = (right ? "<b class=\"good\">Your prediction was right.</b> " : "<b class=\"bad\">Not what you predicted.</b> ") +
        "<code>" + esc(prop) + "</code> " + (got === "violated" ? "is VIOLATED" : esc(got)) + " in this run.";
      $("lesson-after").hidden = false;
      return { right: right, verdict: got, code: r.code };
    });
  }
  /* the exercise: the student's value set by its knob into the lesson's scenario, run by the
   * engine, and its goal ("mutual_exclusion holds") judged on the run's verdicts */
  function exercise(n, value) {
    var L = course[n - 1], kb = knob("k-" + L.knob), goal = (L.goal || "").split(/\s+/);
    if (!kb || goal.length !== 2) return Promise.resolve({ ok: false, why: "the lesson's exercise is not well formed (lessons.txt line " + L.line + ")" });
    var text = kb.set(current.original, value);
    return job(onText({ op: "runs", texts: [text] }, text), "your answer").then(function (r) {
      if (r.stopped) return { ok: false, why: "stopped" };
      var one = r.results[0], v = verdictsOf(one.verdicts).filter(function (x) { return x.property === goal[0]; })[0];
      var ok = !!v && v.verdict === goal[1];
      var why = one.code > 1 ? one.stderr.split("\n")[0] : !v ? goal[0] + " is not judged" :
        goal[0] + " " + (v.verdict === "violated" ? "is VIOLATED" : v.verdict) + " with " + kb.label + " " + value;
      $("ex-result").textContent = (ok ? "✓ Yes: " : "✗ Not yet: ") + why + (ok ? "." : " (the goal: " + L.goal + ").");
      $("ex-result").className = ok ? "good" : "bad";
      return { ok: ok, why: why, verdict: v ? v.verdict : null };
    });
  }

  /* ---- wiring ---- */
  var ready = startWorker().then(function () {
    return job({ op: "boot" }, "starting");
  }).then(function (lib) {
    library = lib;
    host.bootMs = performance.now();
    editor = makeEditor();
    $("editor-kind").textContent = editor.kind;
    fillPicker(lib);
    /* global LOCKLAB_COURSE */
    course = parseCourse(typeof LOCKLAB_COURSE === "string" ? LOCKLAB_COURSE : "");
    $("course-index").innerHTML = course.map(function (c, i) {
      return "<li><a href=\"#lesson=" + (i + 1) + "\">" + esc(c.title) + "</a></li>"; }).join("");
    var h = parseHash(), first;
    if (h.lesson) first = showLesson(Number(h.lesson));
    else if (h.run && entries[h.run]) first = select(h.run).then(function () { return run(); });
    else if (h.scenario && entries[h.scenario]) first = select(h.scenario, h.text !== undefined ? decodeText(h.text) : undefined);
    else first = select("gc-pause-single");
    var asked = h.run || h.scenario;
    if (asked && !entries[asked]) {
      $("status").textContent = "no scenario named '" + asked + "' in the library (the list above has them all)";
      $("output").className = "error";
    }
    editor.onChange(function () {
      var t = editor.get();
      checkable();
      $("lesson").textContent = lesson(t);
      showKnobs(t);
      if (!document.body.classList.contains("in-lesson")) saveHash();
    });
    $("pick").addEventListener("change", function () { select($("pick").value); });
    KNOBS.forEach(function (k) {
      $(k.id).addEventListener("change", function () {
        var v = $(k.id).value.trim();
        if (v === "") return;
        editor.set(k.set(editor.get(), v));
      });
    });
    $("run").addEventListener("click", function () { run(); });
    $("check").addEventListener("click", function () { checkUi(); });
    $("stop").addEventListener("click", stop);
    $("compare").addEventListener("click", function () { compare(); });
    $("matrix-run").addEventListener("click", function () { matrix(); });
    $("sweep-run").addEventListener("click", function () { sweep(); });
    $("matrix-out").addEventListener("click", function (e) {
      var td = e.target.closest("td[data-cell]");
      if (td) select(td.dataset.cell).then(function () { return run(); });
    });
    $("reset").addEventListener("click", function () { editor.set(current.original); });
    /* the player alone in a new window, in the presenter's layout (a projector's 1280x800) */
    $("present").addEventListener("click", function () {
      if (!lastRun || !lastRun.page) return;
      window.open(URL.createObjectURL(new Blob([lastRun.page], { type: "text/html" })) + "#present&violation", "_blank");
    });
    $("download").addEventListener("click", function () {
      var file = pathOf(editor.get()).replace(/.*\//, "");
      offerDownloads([[file, editor.get()]], "locklab run " + file);
    });
    $("share").addEventListener("click", function () {
      saveHash();
      $("share-url").value = location.href;
      $("share-url").hidden = false;
      $("share-url").select();
    });
    $("ex-check").addEventListener("click", function () {
      var n = Number(parseHash().lesson);
      if (n) exercise(n, $("ex-value").value.trim());
    });
    $("show-answer").addEventListener("click", function () { $("lesson-answer").hidden = false; });
    Array.prototype.forEach.call(document.querySelectorAll("#live button[data-fault]"), function (b) {
      b.addEventListener("click", function () { liveFault(b.dataset.fault); });
    });
    window.addEventListener("message", function (e) {
      if (e.data && e.data.locklab === "pick" && e.source === $("player").contentWindow) onPick(e.data);
    });
    window.addEventListener("hashchange", function () {
      var n = Number(parseHash().lesson);
      if (n) showLesson(n); else showLesson(0);
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
    host: host,
    select: function (name) { return select(name); },
    text: function () { return editor.get(); },
    setText: function (t) { editor.set(t); },
    setKnob: function (id, value) {
      var el = $(id);
      el.value = value;
      el.dispatchEvent(new Event("change"));
      return editor.get();
    },
    run: function () { return run(null, true).then(shortRun); },
    busy: function () { return !!host.busy; },
    idle: function () { return host.queue; },
    stop: stop,
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
      return compare().then(function (r) { return { code: r.code, stdout: r.stdout, stderr: r.stderr }; });
    },
    matrix: function () { return matrix().then(function (r) { return { code: r.code, csv: r.csv, stderr: r.stderr, stopped: !!r.stopped }; }); },
    sweep: function (x, xr, y, yr, prop, runs) {
      $("sw-x").value = x; $("sw-xr").value = xr; $("sw-y").value = y; $("sw-yr").value = yr; $("sw-prop").value = prop;
      $("sw-runs").value = runs || "1";
      return sweep();
    },
    course: function () { return course; },
    /* the run's data the last player page holds (its JSON text) */
    pageData: function () { return lastRun && lastRun.page ? splitPage(lastRun.page).data : null; },
    page: function () { return lastRun ? lastRun.page : null; },
    /* the last run's player drawn again in the frame (tests/web/test_course.py) */
    redraw: function () { if (lastRun && lastRun.page) showPlayer($("player"), lastRun.page); },
    lesson: function (n) { return showLesson(n).then(function (L) { return !!L; }); },
    answer: function (n, i) { return answer(n, i); },
    exercise: function (n, v) { return exercise(n, v); },
    pick: function (actor, isNode, t, actors) { onPick({ actor: actor, node: isNode, t: t, actors: actors }); },
    liveFault: function (kind, size) {
      if (size !== undefined) $("lf-" + kind).value = size;
      return liveFault(kind).then(function (r) { return r ? shortRun(r) : null; });
    },
    command: function (words) { return job({ op: "command", words: words }, words[0]); },
    writeFile: function (path, text) { return job({ op: "write", path: path, text: text }, "writing " + path); },
    time: function (words, warm, runs) { return job({ op: "time", words: words, warm: warm, runs: runs }, "timing"); }
  };
})();
