/* html_view.js — the player's view: the cursor over the run (html_model.js gives the state)
 * and what moves it (buttons, keys, the page's address, a page holding it in a frame), and
 * the drawing of everything at the cursor by its parts: the words (html_story.js), the
 * pictures over time (html_timeline.js) and the world at the cursor (html_world.js).
 * html_start.js builds the model and calls llView.
 *
 * The cursor is a step (k, -1 before the first) and a true time T in µs. Stepping puts T on
 * the step's instant; playing moves T on at the chosen speed, and k follows it (the last step
 * at or before T). Everything is redrawn from (k, T) by render().
 *
 * The address can drive the page (a link to a moment, and the tests):
 *   #violation            the moment the first violated property breaks (#violation=NAME)
 *   #fault                the first fault;  #step=N  the N-th step;  #t=SECONDS  a true time
 *   #end                  the end;  &story  steps through the story only;  &play  plays
 * When it is drawn, <body> carries data-step, data-t (µs), data-clock-mismatches (events
 * whose local time the clocks do not give; 0) and data-ready. */
'use strict';

function llView(M, early, built) {
    const D = M.D, ev = M.events;
    const $ = function (id) { return document.getElementById(id); };
    const palette = ['#1f77b4', '#2ca02c', '#9467bd', '#8c564b', '#17becf', '#e377c2', '#bcbd22', '#3949ab'];
    const speeds = [[0.001, '1/1000 ×'], [0.01, '1/100 ×'], [0.1, '1/10 ×'], [1, '1 ×'], [10, '10 ×']];
    /* a long run opens on the story only (its every message is tens of thousands of lines to
     * lay out: seconds of the page's thread); "steps" gives them all */
    const cur = { level: ev.length > 5000 ? 0 : 1, k: -1, T: 0, playing: false, speed: 0.01, skip: true, last: 0, dragging: false };
    const violations = D.verdicts.filter(function (v) { return v.verdict === 'violated'; });

    /* ---- small helpers ---- */

    function esc(s) {
        return String(s).replace(/[&<>"]/g, function (c) {
            return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c];
        });
    }
    function el(tag, cls, html) {
        const e = document.createElement(tag);
        if (cls) e.className = cls;
        if (html !== undefined) e.innerHTML = html;
        return e;
    }
    function svgEl(tag, attrs, text) {
        const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
        Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
        if (text !== undefined) e.textContent = text;
        return e;
    }
    /* true µs as seconds: "10.106 s", with the µs small when there are any */
    function secs(us, html) {
        const neg = us < 0, a = Math.abs(us), ms = Math.floor(a / 1000), rest = a % 1000;
        const s = (neg ? '-' : '') + Math.floor(ms / 1000) + '.' + String(ms % 1000).padStart(3, '0');
        if (!html || !rest) return s + ' s';
        return s + '<small>' + String(rest).padStart(3, '0') + '</small> s';
    }
    function msecs(ms) { return secs(ms * 1000); }
    function duration(ms) {
        const a = Math.abs(ms);
        return a >= 1000 ? (a / 1000).toFixed(3) + ' s' : a + ' ms';
    }
    function name(a) { return a >= 0 && M.actors[a] ? M.actors[a].name : 'world'; }
    /* text, escaped, with each client id it holds (Redisson's UUIDs) shown as that client's
     * name, the id in its tooltip */
    function named(text) {
        return esc(text).replace(M.UUID, function (u) {
            const a = M.idOwner.get(u);
            return a === undefined ? u : '<b class="idname" style="color:' + colourOf(a) + '" title="' + u + '">' + esc(name(a)) + '</b>';
        });
    }
    function plainNamed(text) {
        return String(text).replace(M.UUID, function (u) { const a = M.idOwner.get(u); return a === undefined ? u : name(a); });
    }
    function colourOf(actor) {
        const k = M.clients.indexOf(actor);
        return k >= 0 ? palette[k % palette.length] : '#757575';
    }
    /* a narrated line without its time and actor columns */
    function bare(line) {
        const m = /^\s*-?\d+\.\d+s\s+\S+\s+(.*)$/.exec(line || '');
        return m ? m[1] : (line || '').trim();
    }
    function steps() { return M.steps[cur.level].list; }
    function stepOf(i) { return M.steps[cur.level].of[i]; }

    /* ---- the cursor ---- */

    function setStep(k) {
        const s = steps();
        cur.k = Math.max(-1, Math.min(s.length - 1, k));
        cur.T = cur.k >= 0 ? s[cur.k].t : 0;
        render();
    }
    function setTime(T) {
        cur.T = Math.max(0, Math.min(M.end, Math.round(T)));
        cur.k = M.lastStepAt(cur.T, cur.level);
        render();
    }
    /* The next step with an event that passes the test; after the last, the first again. */
    function nextWhere(test) {
        const s = steps();
        for (let n = 1; n <= s.length; n++) {
            const k = (cur.k + n) % s.length;
            for (let i = s[k].head; i <= s[k].end; i++) if (test(ev[i])) return setStep(k);
        }
    }
    function toViolation(name) {
        const v = violations.filter(function (x) { return !name || x.name === name; })[0];
        if (v) setStep(M.violationStep(v, cur.level));
    }
    function play(on) {
        cur.playing = on && cur.T < M.end;
        $('b-play').textContent = cur.playing ? '❚❚ pause' : '▶ play';
        if (cur.playing) {
            cur.last = performance.now();
            requestAnimationFrame(tick);
        }
    }
    /* One frame of playing: true time moves on by the wall time since the last frame, times
     * the speed; a quiet stretch (more than 1.2 s of wall time to the next step) is jumped
     * over to 0.3 s before that step. */
    function tick(now) {
        if (!cur.playing) return;
        const wall = Math.min(now - cur.last, 100), perWallMs = 1000 * cur.speed;
        cur.last = now;
        let T = cur.T + wall * perWallMs;
        const next = steps()[cur.k + 1];
        if (cur.skip && next && next.t - T > 1200 * perWallMs) T = next.t - 300 * perWallMs;
        setTime(T);
        if (cur.T >= M.end) play(false);
        else requestAnimationFrame(tick);
    }

    /* ---- the parts: the words (html_story.js), the pictures over time (html_timeline.js),
     * the world at the cursor (html_world.js) ---- */

    const V = { M: M, D: D, ev: ev, $: $, cur: cur, violations: violations, palette: palette,
                esc: esc, el: el, svgEl: svgEl, secs: secs, msecs: msecs, duration: duration, name: name,
                named: named, plainNamed: plainNamed, colourOf: colourOf, bare: bare, steps: steps,
                setStep: setStep, setTime: setTime, play: play, toViolation: toViolation };
    const words = llStory(V), pictures = llTimeline(V), world = llWorld(V);
    const drawVerdicts = words.drawVerdicts, drawStory = words.drawStory, markStory = words.markStory;
    const drawScript = words.drawScript, drawWorld = world.drawWorld;
    const drawTimeline = pictures.drawTimeline, moveTimelineCursor = pictures.moveTimelineCursor;
    const drawSpacetime = pictures.drawSpacetime;

    /* ---- drawing everything at the cursor ---- */

    function render() {
        const s = steps()[cur.k];
        $('line').textContent = s ? (ev[s.head].line || '').replace(/^\s+/, '') : 'the start: nothing has happened yet';
        $('now').innerHTML = 'true time <b>' + secs(cur.T, true) + '</b> · step ' + (cur.k + 1) + ' of ' + steps().length;
        const scrub = $('scrub');
        scrub.max = steps().length - 1;
        scrub.value = cur.k;
        moveTimelineCursor();
        drawWorld();
        markStory();
        drawScript();
        drawSpacetime();
        document.body.dataset.step = cur.k;
        document.body.dataset.t = cur.T;
    }

    function setLevel(level) {
        const T = cur.T, k = cur.k, head = k >= 0 ? steps()[k].head : -1;
        cur.level = level;
        $('detail').value = String(level);
        drawStory();
        if (head >= 0) { cur.k = stepOf(head); cur.T = T; render(); } else setTime(T);
    }

    function legend() {
        $('legend').innerHTML =
            '<b>Keys:</b> space plays or pauses · ← → step · Home, End · f the next fault · v the violation. ' +
            'Click the timeline, a line of the story, or a time in the evidence to go there. ' +
            '<b>Timeline:</b> grey thin bar waiting for the lock, a client’s colour holding it (in the critical ' +
            'section), red outline two at once, orange paused, black crashed or down; on a node, the colour of the ' +
            'client whose value the lock key holds. Shaded columns are faults. <b>Clocks:</b> “clock” is the actor’s ' +
            'own clock, in seconds since the run began, and how far it is from true time. <b>TTL</b> is counted on ' +
            'the node’s own clock, as Redis counts it.';
    }

    /* #violation, #violation=NAME, #fault, #step=N, #t=SECONDS, #end, with &story and &play */
    function fromAddress() {
        const parts = decodeURIComponent(location.hash.replace(/^#/, '')).split('&').filter(Boolean);
        let playIt = false;
        if (parts.indexOf('story') >= 0 && cur.level !== 0) setLevel(0);
        parts.forEach(function (p) {
            const kv = p.split('='), v = kv.slice(1).join('=');
            if (kv[0] === 'violation') toViolation(v);
            else if (kv[0] === 'fault') { setStep(-1); nextWhere(M.isFault); }
            else if (kv[0] === 'step') setStep(Number(v) - 1);
            else if (kv[0] === 't') { play(false); setTime(Math.round(Number(v) * 1e6)); }
            else if (kv[0] === 'end') setStep(steps().length - 1);
            else if (kv[0] === 'play') playIt = true;
            else if (kv[0] === 'present') present('present');
        });
        if (playIt) play(true);
        /* a link to a moment opens on the player, not on the lesson above it */
        const moment = parts.some(function (p) { return /^(violation|fault|step|t|end)(=|$)/.test(p); });
        if (moment && !document.body.classList.contains('embedded')) {
            const top = $('controls').getBoundingClientRect().top + window.scrollY;
            if (top > window.scrollY) window.scrollTo(0, top);
        }
    }

    /* The presenter's layout (#present: the timeline and the world at the cursor on one
     * screen, the lesson folded, the verdicts one line each) and the one a page that shows
     * the lesson and the verdicts itself asks for (a frame in the playground: 'embedded'). */
    function present(how) {
        if (document.body.classList.contains(how)) return;
        document.body.classList.add(how);
        $('lesson').open = false;
        drawTimeline();
        render();
    }
    /* What a page holding this one in a frame may ask (postMessage, any origin: the page is
     * static and answers nothing but where its cursor is): {locklab: 'embed' | 'present'},
     * {locklab: 'goto', to: 'violation' | 'fault' | 'end' | 'start' | SECONDS}. In a frame, a
     * click on a client's or a node's card tells the parent which, the cursor's instant and
     * every actor's name (the playground adds a fault there; a cut parts it from the others). */
    function onMessage(e) {
        const m = e.data || {};
        if (m.locklab === 'embed' || m.locklab === 'present') present(m.locklab === 'embed' ? 'embedded' : 'present');
        if (m.locklab === 'goto') {
            play(false);
            if (m.to === 'violation') toViolation();
            else if (m.to === 'fault') { setStep(-1); nextWhere(M.isFault); }
            else if (m.to === 'end') setStep(steps().length - 1);
            else if (m.to === 'start') setStep(-1);
            else if (typeof m.to === 'number') setTime(Math.round(m.to * 1e6));
        }
    }
    function messages() {
        window.addEventListener('message', onMessage);
        if (window.parent === window) return;
        $('world').addEventListener('click', function (e) {
            const card = e.target.closest('.card');
            if (!card) return;
            const node = card.id.indexOf('node-') === 0;
            window.parent.postMessage({ locklab: 'pick', actor: card.id.replace(/^(node|client)-/, ''), node: node,
                                        t: cur.T, actors: M.actors.map(function (a) { return a.name; }) }, '*');
        });
    }

    function controls() {
        const sp = $('speed');
        speeds.forEach(function (s) {
            const o = el('option', '', s[1]);
            o.value = s[0];
            if (s[0] === cur.speed) o.selected = true;
            sp.appendChild(o);
        });
        sp.addEventListener('change', function () { cur.speed = Number(sp.value); });
        $('detail').value = String(cur.level);
        $('skip').addEventListener('change', function () { cur.skip = $('skip').checked; });
        $('detail').addEventListener('change', function () { setLevel(Number($('detail').value)); });
        $('b-start').addEventListener('click', function () { play(false); setStep(-1); });
        $('b-prev').addEventListener('click', function () { play(false); setStep(cur.k - 1); });
        $('b-next').addEventListener('click', function () { play(false); setStep(cur.k + 1); });
        $('b-play').addEventListener('click', function () { play(!cur.playing); });
        $('b-fault').addEventListener('click', function () { play(false); nextWhere(M.isFault); });
        $('b-violation').addEventListener('click', function () { play(false); toViolation(); });
        $('b-violation').disabled = !violations.length;
        $('b-fault').disabled = !ev.some(M.isFault);
        $('scrub').addEventListener('input', function () { play(false); setStep(Number($('scrub').value)); });
        $('story').addEventListener('click', function (e) {
            const li = e.target.closest('li');
            if (li) { play(false); setStep(Number(li.dataset.k)); }
        });
        $('spacetime').addEventListener('click', function (e) {
            const g = e.target.closest('g.ev');
            if (g) { play(false); setStep(Number(g.dataset.k)); }
        });
        document.addEventListener('keydown', function (e) {
            if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.ctrlKey || e.metaKey || e.altKey) return;
            const act = { ' ': function () { play(!cur.playing); },
                          ArrowLeft: function () { play(false); setStep(cur.k - 1); },
                          ArrowRight: function () { play(false); setStep(cur.k + 1); },
                          Home: function () { play(false); setStep(-1); },
                          End: function () { play(false); setStep(steps().length - 1); },
                          f: function () { play(false); nextWhere(M.isFault); },
                          v: function () { play(false); toViolation(); } }[e.key];
            if (act) { e.preventDefault(); act(); }
        });
        window.addEventListener('hashchange', fromAddress);
        window.addEventListener('pointerup', function () { cur.dragging = false; });
        /* a clicked button gives the keyboard back to the page: space plays, not clicks again */
        Array.prototype.forEach.call(document.querySelectorAll('#controls button'), function (b) {
            b.addEventListener('click', function () { b.blur(); });
        });
        let resizing = 0;
        window.addEventListener('resize', function () {
            clearTimeout(resizing);
            resizing = setTimeout(function () { drawTimeline(); render(); }, 150);
        });
        $('controls').hidden = false;
    }

    /* The first drawing: in two tasks for a long run (the timeline, then the world at the
     * cursor), in the script's own task for a short one. The messages a page holding this one
     * sent while the model was built are answered once it is drawn. */
    drawVerdicts();
    controls();
    messages();
    legend();
    drawTimeline();
    built.then(function () {
        drawStory();
        const h = decodeURIComponent(location.hash.replace(/^#/, ''));
        if (!/(^|&)(violation|fault|step|t|end)(=|&|$)/.test(h)) setStep(-1);
        fromAddress();
        (early || []).forEach(onMessage);
        document.body.dataset.clockMismatches = M.clockMismatches;
        document.body.dataset.ready = '1';
    });
}
