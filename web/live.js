/* live.js — live faults: a click on a client or a node in the player adds a fault there, at
 * the cursor's instant, of the size the student gives, and runs the new scenario, saying
 * which verdicts changed. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

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
    var at = P.luaString((tUs / 1000).toFixed(3).replace(/\.?0+$/, "") + "ms"), f;
    if (SIZE[kind] && !size) return { why: "give the " + (kind === "drift" ? "rate" : kind === "clock_jump" ? "jump" : "length") + " first" };
    if (kind === "drift" && !/^-?(\d+\.?\d*|\.\d+)$/.test(size)) return { why: "a drift rate is a number, such as 0.05 (5% fast) or -0.01" };
    if (kind === "crash") {
      f = "{ at = " + at + ", crash = " + P.luaString(who) + " }";
      /* a node's restart, that long after: the instant written in ms, as the crash's */
      if (size) {
        var d = /^(\d+(?:\.\d+)?)(us|ms|s|m|h)?$/.exec(size);
        if (!d) return { why: "write the restart's delay as a duration: 500ms, 5s, 1m" };
        var ms = parseFloat(d[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000, h: 3600000 }[d[2] || "ms"];
        f += ", { at = " + P.luaString(((tUs / 1000) + ms).toFixed(3).replace(/\.?0+$/, "") + "ms") + ", restart = " + P.luaString(who) + " }";
      }
    }
    else if (kind === "gc_pause") f = "{ at = " + at + ", gc_pause = " + P.luaString(who) + ", duration = " + P.luaString(size) + " }";
    else if (kind === "clock_jump") f = "{ at = " + at + ", clock_jump = " + P.luaString(who) + ", by = " + P.luaString(size) + " }";
    else if (kind === "drift") f = "{ at = " + at + ", drift = " + P.luaString(who) + ", rate = " + size + " }";
    else {
      /* cut off from everyone else: a partition of two groups, it and the others */
      var others = (actors || []).filter(function (a) { return a !== who; });
      if (!others.length) return { why: "the player did not say who else is in the run" };
      f = "{ at = " + at + ", partition = { { " + P.luaString(who) + " }, { " + others.map(P.luaString).join(", ") + " } }, duration = " + P.luaString(size) + " }";
    }
    var m = /(^|[\s,{])faults\s*=\s*\{/m.exec(text);
    if (m) {
      var at0 = m.index + m[0].length;
      return { text: text.slice(0, at0) + "\n    " + f + "," + text.slice(at0) };
    }
    return { text: P.setField(text, "faults", "{ " + f + " }") };
  }
  function liveFault(kind) {
    if (!pick || !P.lastRun) return Promise.resolve(null);
    var size = $("lf-" + kind) && !(kind === "crash" && !pick.node) ? $("lf-" + kind).value.trim() : "";
    var before = P.lastRun.text, made = withFault(before, kind, pick.actor, pick.t, size, pick.actors);
    if (!made.text) { $("live-note").textContent = made.why + "."; return Promise.resolve(null); }
    P.editor.set(made.text);
    var what = { crash: "a crash" + (size ? " (restart " + size + " later)" : ""), gc_pause: "a " + size + " pause", partition: "a " + size + " cut", clock_jump: "a clock jump of " + size,
                 drift: "a clock drift of rate " + size }[kind];
    return P.run().then(function (r) {
      if (r.code > 1) {
        $("live-note").textContent = "The engine refused " + what + ": " + (r.stderr.split("\n")[0] || "exit " + r.code) +
          " (the editor has the text; Reset goes back).";
        return r;
      }
      var was = P.current.verdictsBefore || [];
      var now = P.verdictsOf(r.verdicts), w = {};
      was.forEach(function (v) { w[v.property] = v.verdict; });
      var moved = now.filter(function (v) { return w[v.property] && w[v.property] !== v.verdict; });
      $("live-note").textContent = "Added " + what + " of " + pick.actor + " at " + (pick.t / 1e6).toFixed(3) +
        " s (the editor has the new scenario). " + (moved.length ? "What changed: " + moved.map(function (v) {
          return v.property + " " + w[v.property] + " → " + v.verdict; }).join(", ") : "No verdict changed.");
      return r;
    });
  }

  /* what the other files of the page use */
  Object.assign(P, { liveFault: liveFault, onPick: onPick });
})();
