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
  var engine = null;
  var current = null;          /* { name, path, original } */
  var editor = null;           /* { get(), set(text), mark(line, message), clear(), onChange(fn) } */
  var checkWorker = null, checkDone = null;

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
    { id: "k-lease", get: function (t) { return unquote(getField(t, "lease")); },
      set: function (t, v) { return setField(t, "lease", v === "false" ? "false" : luaString(v)); } },
    { id: "k-work", get: function (t) { return unquote(getField(t, "work")); },
      set: function (t, v) { return getField(t, "work") === null ? t : setField(t, "work", luaString(v)); } },
    { id: "k-pause", get: function (t) { var m = PAUSE_RE.exec(t); return m ? unquote(m[2]) : null; },
      set: function (t, v) { return t.replace(PAUSE_RE, function (a, pre) { return pre + luaString(v); }); } },
    { id: "k-delay", get: function (t) {
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
    { id: "k-drift", get: function (t) { return getField(t, "drift"); },
      set: function (t, v) {
        if (getField(t, "drift") !== null) return setField(t, "drift", v);
        if (getField(t, "clock") !== null) return t.replace(fieldRe("clock"), function (a, pre, eq, val) {
          return pre + eq + val.replace(/\}\s*$/, ", drift = " + v + " }").replace("{ ,", "{");
        });
        return setField(t, "clock", "{ drift = " + v + " }");
      } },
    { id: "k-persistence", get: function (t) { return unquote(getField(t, "persistence")); },
      set: function (t, v) { return setField(t, "persistence", luaString(v)); } },
    { id: "k-protocol", get: function (t) { return unquote(getField(t, "protocol")); },
      set: function (t, v) { return setField(t, "protocol", luaString(v)); } },
    { id: "k-scripts", get: function (t) { return unquote(getField(t, "scripts")); },
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
    if (!current) return;
    var t = editor.get(), h = "#scenario=" + encodeURIComponent(current.name);
    if (t !== current.original) h += "&text=" + encodeText(t);
    if (location.hash !== h) history.replaceState(null, "", h);
  }

  /* ---- the library ---- */
  var entries = {};            /* name -> path */
  function fillPicker() {
    var pick = $("pick"), groups = {}, order = [];
    var listed = engine.command(["list"]).stdout.split("\n"), files = {};
    engine.list("scenarios").forEach(function (f) { files[f] = 1; });
    listed.forEach(function (line) {
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
    engine.list("scenarios/matrix").forEach(function (design) {
      if (!engine.isDir("scenarios/matrix/" + design)) return;
      var og = document.createElement("optgroup");
      og.label = "matrix: " + design;
      engine.list("scenarios/matrix/" + design).forEach(function (f) {
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
    engine.list("tests/check").forEach(function (f) {
      if (!/\.lua$/.test(f)) return;
      var name = "check/" + f.replace(/\.lua$/, "");
      entries[name] = "tests/check/" + f;
      var o = document.createElement("option");
      o.value = name; o.textContent = f.replace(/\.lua$/, "");
      og.appendChild(o);
    });
    pick.appendChild(og);
    /* the knobs' choices: the protocol models and the script versions of the library */
    var protos = $("protocols");
    engine.list("lua/clients").forEach(function (f) {
      if (!/\.lua$/.test(f)) return;
      var o = document.createElement("option");
      o.value = f.replace(/\.lua$/, "");
      protos.appendChild(o);
    });
    var versions = { HEAD: 1 };
    engine.command(["scripts"]).stdout.split("\n").forEach(function (line) {
      var m = /^([\w.-]+)\/[\w.-]+@(\S+)/.exec(line);
      if (m) { versions[m[1] + "@" + m[2]] = 1; versions[m[2]] = 1; }
    });
    var vl = $("versions");
    Object.keys(versions).sort().forEach(function (v) {
      var o = document.createElement("option");
      o.value = v;
      vl.appendChild(o);
    });
  }

  /* the library file of the scenario being edited gets its original text back */
  function restore() {
    if (current) engine.write(current.path, current.original);
  }
  function select(name, text) {
    var path = entries[name];
    if (!path) return false;
    restore();
    var original = engine.read(path);
    current = { name: name, path: path, original: original };
    $("pick").value = name;
    editor.clear();
    editor.set(text !== undefined ? text : original);
    $("lesson").textContent = lesson(editor.get());
    showKnobs(editor.get());
    saveHash();
    return true;
  }

  /* ---- running ---- */
  function markErrors(stderr) {
    editor.clear();
    var re = new RegExp(current.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ":(\\d+):\\s*(.*)");
    stderr.split("\n").forEach(function (line) {
      var m = re.exec(line);
      if (m) editor.mark(parseInt(m[1], 10), m[2]);
    });
  }
  function showPlayer(frame, page) {
    frame.srcdoc = page || "";
    frame.hidden = !page;
  }
  /* runs the editor's text (or text) as the current scenario: the result of `locklab run`
   * with its verdicts JSON, --json history and the player's page */
  function runText(text, extra) {
    engine.write(current.path, text);
    ["/w/verdicts.json", "/w/history.jsonl", "/w/player.html"].forEach(engine.remove);
    var r = engine.command(["run", current.path, "-q", "--verdicts", "/w/verdicts.json", "--json",
                            "/w/history.jsonl", "--html", "/w/player.html"].concat(extra || []));
    r.verdicts = engine.read("/w/verdicts.json");
    r.history = engine.read("/w/history.jsonl");
    r.page = engine.read("/w/player.html");
    if (r.dead) startEngine();
    return r;
  }
  function run() {
    var r = runText(editor.get());
    $("output").textContent = r.stdout + r.stderr;
    $("output").className = r.code === 0 ? "ok" : r.code === 1 ? "violated" : "error";
    $("status").textContent = "run: exit " + r.code + (r.code === 0 ? " (expectations met)"
      : r.code === 1 ? " (a property violated or an expectation not met)" : r.code === 2 ? " (bad input)" : " (internal error)");
    markErrors(r.stderr);
    showPlayer($("player"), r.page);
    return r;
  }

  /* ---- checking, in a worker ---- */
  function workerSource() {
    /* global locklabModuleSource, LocklabEngine, locklabWorkerMain */
    return "\"use strict\";\nvar createLocklab = (" + locklabModuleSource.toString() + ")();\n" +
           "var LocklabEngine = " + LocklabEngine.toString() + ";\n" +
           "(" + locklabWorkerMain.toString() + ")(self, createLocklab, LocklabEngine);\n";
  }
  var workerUrl = null;
  function check(path, text) {
    if (checkWorker) return Promise.reject(new Error("a check is running"));
    if (!workerUrl) workerUrl = URL.createObjectURL(new Blob([workerSource()], { type: "text/javascript" }));
    var w = checkWorker = new Worker(workerUrl);
    var bar = $("progress"), note = $("progress-note"), limit = 60, last = "";
    bar.hidden = false; bar.value = 0; note.textContent = "checking ...";
    $("stop").disabled = false; $("check").disabled = true;
    return new Promise(function (resolve) {
      checkDone = function (reply) {
        w.terminate();
        checkWorker = null; checkDone = null;
        $("stop").disabled = true; $("check").disabled = false;
        bar.hidden = true;
        note.textContent = reply.stopped ? "stopped" + (last ? " after " + last : "") : "check: exit " + reply.code;
        resolve(reply);
      };
      w.onmessage = function (ev) {
        var m = ev.data;
        if (m.type === "progress") {
          var p = /(\d+) paths, (\d+) transitions.*?, ([\d.]+) s$/.exec(m.line);
          if (p) {
            last = p[1] + " paths, " + p[2] + " transitions, " + p[3] + " s";
            bar.value = Math.min(1, parseFloat(p[3]) / limit);
            note.textContent = last;
          }
        } else if (m.type === "done" && checkDone) checkDone(m);
      };
      w.onerror = function (e) {
        if (checkDone) checkDone({ code: 3, stdout: "", stderr: "the check's worker failed: " + e.message + "\n" });
      };
      w.postMessage({ path: path, text: text });
    });
  }
  function stop() {
    if (checkDone) checkDone({ code: 130, stdout: "", stderr: "stopped before the search finished: no result\n", stopped: true });
  }
  function checkUi() {
    var text = editor.get();
    engine.write(current.path, text);
    $("output").textContent = "";
    return check(current.path, text).then(function (r) {
      $("output").textContent = r.stdout + r.stderr;
      $("output").className = r.code === 0 ? "ok" : r.code === 1 ? "violated" : "error";
      markErrors(r.stderr);
      if (r.replay && r.replay.page) {
        $("status").textContent = "check: a counter-example, replayed in the player below";
        showPlayer($("player"), r.replay.page);
      } else $("status").textContent = r.stopped ? "check stopped" : "check: exit " + r.code;
      return r;
    });
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
    var text = editor.get();
    engine.write(current.path, text);
    var flag = mode === "scripts" ? "--scripts" : "--options";
    var r = engine.command(["compare", current.path, flag, a, flag, b]);
    $("cmp-out").textContent = r.stdout + r.stderr;
    markErrors(r.stderr);
    var sides = [[a, $("player-a"), $("cmp-va"), "A"], [b, $("player-b"), $("cmp-vb"), "B"]];
    sides.forEach(function (s) {
      var t = mode === "scripts" ? setField(text, "scripts", luaString(s[0])) : optionsWith(text, s[0]);
      var one = r.code === 0 ? runText(t) : { stdout: "", page: null };
      s[2].textContent = s[3] + ": " + flag + " " + s[0] + "\n" + one.stdout;
      showPlayer(s[1], one.page);
    });
    engine.write(current.path, text);
    return r;
  }

  /* ---- wiring ---- */
  function startEngine() {
    /* global locklabModuleSource, LocklabEngine */
    return LocklabEngine(locklabModuleSource()).then(function (e) {
      engine = e;
      if (current) engine.write(current.path, editor.get());
      return e;
    });
  }
  var ready = startEngine().then(function () {
    editor = makeEditor();
    $("editor-kind").textContent = editor.kind;
    fillPicker();
    var h = parseHash(), auto = null;
    if (h.run && entries[h.run]) { select(h.run); auto = h.run; }
    else if (h.scenario && entries[h.scenario]) select(h.scenario, h.text !== undefined ? decodeText(h.text) : undefined);
    else select("gc-pause-single");
    var asked = h.run || h.scenario;
    if (asked && !entries[asked]) {
      $("status").textContent = "no scenario named '" + asked + "' in the library (the list above has them all)";
      $("output").className = "error";
    }
    editor.onChange(function () {
      var t = editor.get();
      $("lesson").textContent = lesson(t);
      showKnobs(t);
      saveHash();
    });
    $("pick").addEventListener("change", function () { select($("pick").value); });
    KNOBS.forEach(function (k) {
      $(k.id).addEventListener("change", function () {
        var v = $(k.id).value.trim();
        if (v === "") return;
        editor.set(k.set(editor.get(), v));
      });
    });
    $("run").addEventListener("click", run);
    $("check").addEventListener("click", function () { checkUi(); });
    $("stop").addEventListener("click", stop);
    $("compare").addEventListener("click", compare);
    $("reset").addEventListener("click", function () { editor.set(current.original); });
    $("share").addEventListener("click", function () {
      saveHash();
      $("share-url").value = location.href;
      $("share-url").hidden = false;
      $("share-url").select();
    });
    $("loading").hidden = true;
    if (auto) return run();
  });

  /* what tests/web/test_playground.py drives */
  window.locklab = {
    ready: ready,
    select: function (name) { return select(name); },
    text: function () { return editor.get(); },
    setText: function (t) { editor.set(t); },
    setKnob: function (id, value) {
      var el = $(id);
      el.value = value;
      el.dispatchEvent(new Event("change"));
      return editor.get();
    },
    run: function () {
      var r = run();
      return { code: r.code, stdout: r.stdout, stderr: r.stderr, verdicts: r.verdicts, history: r.history,
               page: r.page ? r.page.length : 0 };
    },
    check: function (name) {
      select(name);
      return checkUi().then(function (r) {
        return { code: r.code, stdout: r.stdout, stderr: r.stderr, cexLua: r.cexLua, cexChoices: r.cexChoices,
                 replayCode: r.replay ? r.replay.code : null, replayVerdicts: r.replay ? r.replay.verdicts : null };
      });
    },
    checkRaw: function () {
      return checkUi().then(function (r) { return { code: r.code, stopped: !!r.stopped, stderr: r.stderr }; });
    },
    compare: function (mode, a, b) {
      $("cmp-mode").value = mode; $("cmp-a").value = a; $("cmp-b").value = b;
      var r = compare();
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    },
    command: function (words) { return engine.command(words); }
  };
})();
