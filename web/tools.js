/* tools.js — the page's other commands on the scenario: Compare two script versions or option
 * presets (`locklab compare`, two players side by side), the Matrix (`locklab matrix --csv`)
 * drawn as a table, and a two-knob Sweep (`locklab sweep`, a row at a time) drawn as a heat
 * map. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

  /* ---- comparing two script versions or option presets ---- */
  function optionsWith(text, kv) {
    var cur = P.getField(text, "options"), pairs = [];
    if (cur && cur[0] === "{") pairs = cur.slice(1, -1).split(",").map(function (s) { return s.trim(); }).filter(Boolean);
    kv.split(",").forEach(function (one) {
      var i = one.indexOf("=");
      if (i < 0) return;
      var k = one.slice(0, i).trim(), v = one.slice(i + 1).trim();
      var lua = /^(-?\d+(\.\d+)?|true|false)$/.test(v) ? v : P.luaString(v);
      pairs = pairs.filter(function (p) { return p.split("=")[0].trim() !== k; });
      pairs.push(k + " = " + lua);
    });
    return P.setField(text, "options", "{ " + pairs.join(", ") + " }");
  }
  function compare() {
    var mode = $("cmp-mode").value, a = $("cmp-a").value.trim(), b = $("cmp-b").value.trim();
    var text = P.editor.get(), flag = mode === "scripts" ? "--scripts" : "--options";
    var sides = [a, b].map(function (v) { return mode === "scripts" ? P.setField(text, "scripts", P.luaString(v)) : optionsWith(text, v); });
    return P.job(P.onText({ op: "compare", text: text, flag: flag, a: a, b: b, sides: sides }, text),
               "compare " + P.current.name).then(function (r) {
      if (r.stopped) return r;
      $("cmp-out").textContent = r.stdout + r.stderr;
      P.markErrors(r.stderr, P.pathOf(text));
      [[a, $("player-a"), $("cmp-va"), "[1]"], [b, $("player-b"), $("cmp-vb"), "[2]"]].forEach(function (s, k) {
        var one = r.sides ? r.sides[k] : { stdout: "", page: null };
        s[2].textContent = s[3] + ": " + flag + " " + s[0] + "\n" + one.stdout;
        P.showPlayer(s[1], one.page);
      });
      return r;
    });
  }

  /* ---- the matrix: every design under every situation, in the page ---- */
  function matrix() {
    var n = 0;
    return P.job({ op: "matrix" }, "matrix", function (m) {
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
  /* designs down, situations across; a cell ✓ when every property holds, else the violated
   * properties' initials; a click runs that cell in the editor */
  function drawMatrix(csv, r) {
    var rows = P.csvRows(csv), head = rows.shift() || [], col = {};
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
      return "<th title=\"" + P.esc(title["col:" + s]) + "\">" + P.esc(s) + "</th>"; }).join("") + "</tr></thead><tbody>";
    designs.forEach(function (d) {
      h += "<tr><th title=\"" + P.esc(d) + "\">" + P.esc(title[d]) + "</th>" + situations.map(function (s) {
        var c = cells[d + "/" + s];
        if (!c) return "<td class=\"none\">–</td>";
        var label = c.bad.length ? "✗ " + c.bad.map(function (p) { return short[p] || p; }).join(" ") : "✓";
        return "<td class=\"" + (c.bad.length ? "bad" : "good") + "\" data-cell=\"matrix/" + P.esc(d) + "/" + P.esc(s) +
          "\" title=\"" + P.esc(title[d] + " / " + title["col:" + s] + (c.bad.length ? ": " + c.bad.join(", ") + " violated" : ": every property holds") +
          (c.marks ? " (" + (c.marks.indexOf("!") >= 0 ? "the source claims otherwise" : "") + (c.marks.length > 1 ? "; " : "") +
           (c.marks.indexOf("?") >= 0 ? "a violation the source does not warn of" : "") + ")" : "")) + "\">" + label +
          (c.marks ? "<sup>" + P.esc(c.marks) + "</sup>" : "") + "</td>";
      }).join("") + "</tr>";
    });
    h += "</tbody></table><p class=\"small\">ME mutual exclusion, RS resource safety, RL release safety, DL no deadlock, RE re-entrancy; " +
      "! the source claims otherwise, ? a violation it does not warn of (as <code>locklab matrix</code> marks them). Click a cell to run it. (" +
      P.esc((r.stderr || "").split("\n").filter(Boolean).pop() || "") + ")</p>";
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
  var VARY_LABEL = { lease: "the lease", gc_pause: "the pause", drift: "every node's clock drift", work: "every client's work",
                     "network.delay": "the network delay" };
  function sweep() {
    var vary = $("sw-x").value, xr = $("sw-xr").value.trim(), ky = P.knob($("sw-y").value), ys = range($("sw-yr").value);
    var runs = $("sw-runs").value.trim() || "1", prop = $("sw-prop").value, text = P.editor.get();
    if (!ys.length) { $("sweep-note").textContent = "write the rows' values as FROM:TO:STEP (4s:24s:4s) or a list (6s,20s)"; return Promise.resolve(null); }
    var rows = ys.map(function (y) { var t = ky.set(text, y); return { path: P.pathOf(t), text: t }; });
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
    return P.job({ op: "sweep", rows: rows, args: args, keep: P.current.path }, "sweep " + ys.length + " rows", function (m) {
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
    var rows = P.csvRows(csv), head = rows.shift();
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
    var h = "<caption>" + P.esc(prop) + ": violated in how many runs, by " + P.esc(xlabel) + " (across) and " + P.esc(ky.label) + " (down)</caption><tr><th></th>" +
      xs.map(function (x) { return "<th>" + P.esc(x) + "</th>"; }).join("") + "</tr>";
    ys.forEach(function (y, j) {
      h += "<tr><th>" + P.esc(y) + "</th>" + xs.map(function (x, i) { return "<td data-k=\"" + (j * xs.length + i) + "\"></td>"; }).join("") + "</tr>";
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

  /* what the other files of the page use */
  Object.assign(P, { compare: compare, matrix: matrix, sweep: sweep });
})();
