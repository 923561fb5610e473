/* lessons.js — the course: the lessons of scenarios/course/lessons.txt parsed, a lesson shown
 * (its question, a prediction asked first), the student's answer and the run, and the
 * exercise judged by the engine on the run's verdicts. */
"use strict";

(function () {
  var P = window.locklabPage || (window.locklabPage = {});
  var $ = function (id) { return document.getElementById(id); };

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
      return "<p>" + P.esc(p).replace(/`([^`]+)`/g, "<code>$1</code>") + "</p>"; }).join("");
  }
  function showLesson(n) {
    var L = P.course[n - 1];
    document.body.classList.toggle("in-lesson", !!L);
    if (!L) $("explore").after($("player"));
    document.body.classList.remove("answered");
    $("course").hidden = !L;
    if (!L) return Promise.resolve(null);
    var goal = (L.goal || "").split(/\s+/), kb = P.knob("k-" + L.knob);
    $("course-nav").innerHTML = P.course.map(function (c, i) {
      return "<a href=\"#lesson=" + (i + 1) + "\"" + (i + 1 === n ? " class=\"here\"" : "") + ">" + (i + 1) + "</a>"; }).join("");
    $("lesson-title").textContent = "Lesson " + n + " of " + P.course.length + ": " + L.title;
    $("lesson-question").innerHTML = paragraphs(L.question);
    $("lesson-predict").innerHTML = "<p><b>Predict first:</b> " + P.esc(L.predict || "") + "</p>" + L.options.map(function (o, i) {
      return "<button class=\"choice\" data-i=\"" + i + "\">" + P.esc(o.text) + "</button>"; }).join(" ");
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
      return "<li>" + (m ? P.esc(m[1]) + " <a href=\"" + P.esc(m[2]) + "\">" + P.esc(m[2]) + "</a>" : P.esc(s)) + "</li>"; }).join("");
    $("lesson-answer").textContent = L.answer || "";
    $("player").hidden = true;
    $("lesson-stage").appendChild($("player"));
    $("output-box").hidden = true;
    $("explore").hidden = true;
    return P.select(L.scenario).then(function () {
      Array.prototype.forEach.call($("lesson-predict").querySelectorAll("button.choice"), function (b) {
        b.addEventListener("click", function () { answer(n, Number(b.dataset.i)); });
      });
      return L;
    });
  }
  /* the student's prediction, then the run: the verdicts (hidden until now) and the moment
   * the property breaks */
  function answer(n, i) {
    var L = P.course[n - 1], o = L.options[i], prop = (L.property || "mutual_exclusion");
    Array.prototype.forEach.call($("lesson-predict").querySelectorAll("button.choice"), function (b, k) {
      b.disabled = true;
      if (k === i) b.classList.add("picked");
    });
    P.noScroll = false;
    document.body.classList.add("answered");
    return P.run(L.goto || "violation").then(function (r) {
      var v = P.verdictsOf(r.verdicts).filter(function (x) { return x.property === prop; })[0];
      var got = v ? v.verdict : "not judged", right = o && o.verdict === got;
      $("lesson-verdict").innerHTML = (right ? "<b class=\"good\">Your prediction was right.</b> " : "<b class=\"bad\">Not what you predicted.</b> ") +
        "<code>" + P.esc(prop) + "</code> " + (got === "violated" ? "is VIOLATED" : P.esc(got)) + " in this run.";
      $("lesson-after").hidden = false;
      return { right: right, verdict: got, code: r.code };
    });
  }
  /* the exercise: the student's value set by its knob into the lesson's scenario, run by the
   * engine, and its goal ("mutual_exclusion holds") judged on the run's verdicts */
  function exercise(n, value) {
    var L = P.course[n - 1], kb = P.knob("k-" + L.knob), goal = (L.goal || "").split(/\s+/);
    if (!kb || goal.length !== 2) return Promise.resolve({ ok: false, why: "the lesson's exercise is not well formed (lessons.txt line " + L.line + ")" });
    var text = kb.set(P.current.original, value);
    return P.job(P.onText({ op: "runs", texts: [text] }, text), "your answer").then(function (r) {
      if (r.stopped) return { ok: false, why: "stopped" };
      var one = r.results[0], v = P.verdictsOf(one.verdicts).filter(function (x) { return x.property === goal[0]; })[0];
      var ok = !!v && v.verdict === goal[1];
      var why = one.code > 1 ? one.stderr.split("\n")[0] : !v ? goal[0] + " is not judged" :
        goal[0] + " " + (v.verdict === "violated" ? "is VIOLATED" : v.verdict) + " with " + kb.label + " " + value;
      $("ex-result").textContent = (ok ? "✓ Yes: " : "✗ Not yet: ") + why + (ok ? "." : " (the goal: " + L.goal + ").");
      $("ex-result").className = ok ? "good" : "bad";
      return { ok: ok, why: why, verdict: v ? v.verdict : null };
    });
  }

  /* what the other files of the page use */
  Object.assign(P, { answer: answer, exercise: exercise, parseCourse: parseCourse, showLesson: showLesson });
})();
