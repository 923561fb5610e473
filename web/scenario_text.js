/* scenario_text.js — the scenario's text as the page reads and edits it: its common fields
 * (the knobs: the lease, the work, the pause, the delay, the drift, ...), its lesson, and the
 * page's small text helpers (HTML escaping, CSV rows). Functions of text, the knobs' inputs
 * aside. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

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
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[c]; }); }
  function knob(id) { return KNOBS.filter(function (k) { return k.id === id; })[0]; }
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

  /* what the other files of the page use */
  Object.assign(P, { KNOBS: KNOBS, csvRows: csvRows, esc: esc, getField: getField, knob: knob, lesson: lesson, luaString: luaString, setField: setField, showKnobs: showKnobs });
})();
