/* editor.js — the playground's editor: CodeMirror 5 (Debian's libjs-codemirror) when the site
 * has it, else the textarea itself; the text, and the marks of a line the engine refused. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

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

  /* what the other files of the page use */
  Object.assign(P, { makeEditor: makeEditor });
})();
