/* html_view.js — draws the run at the cursor (html_model.js gives the state) and moves the
 * cursor: buttons, keys, the timeline, the narration, and the page's address.
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

    /* ---- the verdicts ---- */

    /* Evidence, with each true time a link to that instant; the clause that gives times by
     * the clients' own clocks is left as text. */
    function linkTimes(text) {
        return text.split(/(by their own clocks, .*?\.(?= |$))/).map(function (part, i) {
            if (i % 2) return '<span title="local clocks">' + esc(part) + '</span>';
            return esc(part).replace(/(\d+)\.(\d{3})s\b/g, function (all, s, ms) {
                return '<a href="#t=' + s + '.' + ms + '" data-t="' + (Number(s) * 1e6 + Number(ms) * 1e3) +
                    '" title="go to true time ' + all + '">' + all + '</a>';
            });
        }).join('');
    }
    function drawVerdicts() {
        const box = $('verdicts');
        D.verdicts.forEach(function (v) {
            const d = el('div', 'verdict ' + v.verdict.replace(' ', '-'));
            let h = '<b class="prop">' + esc(v.name) + '</b> <span class="word">' +
                (v.verdict === 'violated' ? 'VIOLATED' : v.verdict) + '</span>';
            if (v.expect) h += ' <span class="' + (v.met ? 'met' : 'unmet') + '">' +
                (v.met ? '✓ as expected' : '✗ expected ' + v.expect) + '</span>';
            if (v.at !== null) h += ' <button class="goto" data-prop="' + esc(v.name) + '">go to ' + secs(v.at) + ' ▶</button>';
            if (v.evidence) h += '<p class="evidence">' + linkTimes(v.evidence) + '</p>';
            d.innerHTML = h;
            box.appendChild(d);
        });
        /* going to an instant from here brings the player into view, under the controls */
        const show = function () {
            const top = $('timeline').getBoundingClientRect().top + window.scrollY - $('controls').offsetHeight - 8;
            if (top > window.scrollY) window.scrollTo(0, top);
        };
        box.addEventListener('click', function (e) {
            const a = e.target.closest('a[data-t]'), b = e.target.closest('button.goto');
            if (a) { e.preventDefault(); play(false); setTime(Number(a.dataset.t)); show(); }
            if (b) { play(false); toViolation(b.dataset.prop); show(); }
        });
        if (D.total > ev.length)
            box.appendChild(el('p', 'warn', 'The run had ' + D.total + ' events; this page steps through the first ' +
                               ev.length + '. The verdicts are of the whole run.'));
    }

    /* ---- the timeline ---- */

    const TL = { left: 64, right: 14, top: 64, row: 30 };
    function tlX(t, W) { return TL.left + (W - TL.left - TL.right) * t / M.end; }
    function drawTimeline() {
        const box = $('timeline'), tm = D.timeline;
        box.innerHTML = '';
        const W = Math.max(box.clientWidth - 4, 280);
        /* the labels above the rows: the world's faults under their bar, then the violations'
         * names, each on the first line where it meets no other label (widths estimated on the
         * generous side: 7.6 px a character at 12 px, 9.6 at 14 px bold) */
        const wf = tm.faults.filter(function (f) { return f[0] < 0; }).map(function (f) {
            const txt = '⚡ ' + f[3], w = txt.length * 7.6 + 6, x0 = Math.max(0, Math.min(tlX(f[1], W) + 2, W - w));
            return { txt: txt, x0: x0, x1: x0 + w };
        });
        const vs = violations.slice().sort(function (a, b) { return a.at - b.at; }).map(function (v) {
            const x = tlX(v.at, W), txt = '✗ ' + v.name, w = txt.length * 9.6 + 6, left = x + 4 + w > W - 2;
            return { v: v, x: x, txt: txt, left: left, x0: left ? x - 4 - w : x + 4, x1: left ? x - 4 : x + 4 + w };
        });
        const allocate = function (items) {
            const lines = [];
            return items.map(function (it) {
                let l = 0;
                while ((lines[l] || []).some(function (r) { return it.x0 < r[1] + 6 && r[0] < it.x1 + 6; })) l++;
                (lines[l] = lines[l] || []).push([it.x0, it.x1]);
                return l;
            });
        };
        const wfLine = allocate(wf), vLine = allocate(vs);
        const nWf = wf.length ? Math.max.apply(null, wfLine) + 1 : 0, nV = vs.length ? Math.max.apply(null, vLine) + 1 : 0;
        const labelsEnd = nWf ? 41 + 14 * (nWf - 1) : 28;
        TL.top = Math.max(64, labelsEnd + 16 * nV + 4);
        const H = TL.top + tm.rows.length * TL.row + 8;
        const svg = svgEl('svg', { width: W, height: H, 'class': 'tl' });
        const y = function (r) { return TL.top + r * TL.row; };
        const rowColour = function (r) { return r >= 0 && r < tm.rows.length && !tm.rows[r].node ? palette[r % palette.length] : '#9e9e9e'; };
        /* the axis: a tick every 1, 2 or 5 × 10^n seconds, some eight of them */
        const raw = M.end / Math.max(2, Math.min(8, Math.floor((W - TL.left) / 90)));
        let step = Math.pow(10, Math.floor(Math.log10(raw)));
        step *= raw / step > 5 ? 10 : raw / step > 2 ? 5 : raw / step > 1 ? 2 : 1;
        for (let t = 0; t <= M.end; t += step) {
            svg.appendChild(svgEl('line', { x1: tlX(t, W), x2: tlX(t, W), y1: TL.top - 4, y2: H - 8, 'class': 'grid' }));
            svg.appendChild(svgEl('text', { x: Math.max(18, Math.min(tlX(t, W), W - 20)), y: 14, 'class': 'tick' },
                                  String(Number((t / 1e6).toFixed(3))) + ' s'));
        }
        /* a fault shades its target's row; one of the whole world (a partition, a link's
         * loss) is a bar above the rows, labelled, so that a long one hides nothing */
        tm.faults.forEach(function (f) {
            const x0 = tlX(f[1], W), x1 = Math.max(tlX(f[2], W), x0 + 3), world = f[0] < 0;
            const g = svgEl('rect', { x: x0, y: world ? 19 : y(f[0]), width: x1 - x0, height: world ? 9 : TL.row,
                                      'class': world ? 'worldfault' : 'fault' });
            g.appendChild(svgEl('title', {}, '⚡ ' + f[3]));
            svg.appendChild(g);
        });
        wf.forEach(function (w, i) { svg.appendChild(svgEl('text', { x: w.x0, y: 41 + 14 * wfLine[i], 'class': 'wftext' }, w.txt)); });
        tm.rows.forEach(function (row, r) {
            svg.appendChild(svgEl('text', { x: 8, y: y(r) + TL.row / 2 + 6, 'class': 'rowname' }, row.name));
            svg.appendChild(svgEl('line', { x1: TL.left, x2: W - TL.right, y1: y(r) + TL.row / 2, y2: y(r) + TL.row / 2, 'class': 'life' }));
        });
        /* spans: 0 waiting, 1 holding, 2 paused, 3 crashed, 4 overlap, 5 owned, 6 down; drawn
         * bottom up: owned, waiting, holding, then pauses, crashes and overlaps over them */
        const cls = ['wait', 'hold', 'pause', 'crash', 'overlap', 'owned', 'down'], under = [1, 2, 3, 4, 6, 0, 5];
        const defs = svgEl('defs', {});
        [['pause', '#ef6c00'], ['dark', '#212121']].forEach(function (p) {
            const pat = svgEl('pattern', { id: 'tl-' + p[0], patternUnits: 'userSpaceOnUse', width: 8, height: 8,
                                           patternTransform: 'rotate(45)' });
            pat.appendChild(svgEl('rect', { width: 4, height: 8, fill: p[1] }));
            defs.appendChild(pat);
        });
        svg.appendChild(defs);
        tm.spans.slice().sort(function (a, b) { return under[a[1]] - under[b[1]]; }).forEach(function (s) {
            const x0 = tlX(s[2], W), x1 = Math.max(tlX(s[3], W), x0 + 2), kind = cls[s[1]];
            const thin = kind === 'wait' ? 8 : 4;
            const a = { x: x0, y: y(s[0]) + thin, width: x1 - x0, height: TL.row - 2 * thin, 'class': 'sp ' + kind };
            if (kind === 'hold') a.fill = rowColour(s[0]);
            if (kind === 'owned') a.fill = s[4] >= 0 ? rowColour(s[4]) : '#bdbdbd';
            if (kind === 'pause') a.fill = 'url(#tl-pause)';
            if (kind === 'crash' || kind === 'down') a.fill = 'url(#tl-dark)';
            const r = svgEl('rect', a);
            const who = kind === 'owned' ? (s[4] >= 0 ? 'the lock key holds ' + tm.rows[s[4]].name + "'s value" : 'owner unknown') : kind;
            r.appendChild(svgEl('title', {}, who + ': ' + secs(s[2]) + ' – ' + secs(s[3])));
            svg.appendChild(r);
        });
        /* marks: 0 write accepted, 1 write rejected, 2 token, 3 clock jump, 4 promoted */
        tm.marks.forEach(function (m) {
            const x = tlX(m[2], W), yc = y(m[0]) + TL.row / 2;
            if (m[1] === 0) svg.appendChild(svgEl('circle', { cx: x, cy: yc, r: 4, 'class': 'write' }));
            if (m[1] === 1) svg.appendChild(svgEl('text', { x: x, y: yc + 7, 'class': 'rejected' }, '✗'));
            if (m[1] === 3) svg.appendChild(svgEl('text', { x: x, y: yc + 6, 'class': 'jump' }, '▲'));
            if (m[1] === 4) svg.appendChild(svgEl('text', { x: x, y: yc + 6, 'class': 'jump' }, '★'));
        });
        /* each violation: a dashed line and its name; a name near the right edge goes to the
         * left of its line, and one that would meet another goes a line higher */
        vs.forEach(function (it, i) {
            const yl = TL.top - 4 - 16 * vLine[i];
            svg.appendChild(svgEl('line', { x1: it.x, x2: it.x, y1: yl, y2: H - 8, 'class': 'violation' }));
            svg.appendChild(svgEl('text', { x: it.left ? it.x - 4 : it.x + 4, y: yl, 'class': 'vtext',
                                            style: it.left ? 'text-anchor:end' : '' }, it.txt));
        });
        const cursor = svgEl('g', { id: 'tl-cursor' });
        cursor.appendChild(svgEl('line', { x1: 0, x2: 0, y1: TL.top - 10, y2: H - 4 }));
        cursor.appendChild(svgEl('path', { d: 'M-7 ' + (TL.top - 14) + 'h14l-7 9z' }));
        svg.appendChild(cursor);
        box.appendChild(svg);
        const seek = function (e) {
            const rect = svg.getBoundingClientRect();
            const t = (e.clientX - rect.left - TL.left) / (W - TL.left - TL.right) * M.end;
            setTime(Math.round(t));
        };
        svg.addEventListener('pointerdown', function (e) { cur.dragging = true; play(false); seek(e); });
        svg.addEventListener('pointermove', function (e) { if (cur.dragging) seek(e); });
        box.dataset.width = W;
    }
    function moveTimelineCursor() {
        const c = $('tl-cursor');
        if (c) c.setAttribute('transform', 'translate(' + tlX(cur.T, Number($('timeline').dataset.width)) + ',0)');
    }

    /* ---- the world at the cursor ---- */

    function clientCard(a, c) {
        const d = el('div', 'card client');
        d.id = 'client-' + M.actors[a].name;
        d.style.borderColor = colourOf(a);
        let belief, cls = c.phase;
        if (!c.started) { belief = 'has not started yet'; cls = 'idle'; }
        else if (c.crashed) { belief = 'CRASHED'; cls = 'crashed'; }
        else if (c.phase === 'holds') belief = 'believes it <b>HOLDS</b> the lock (since ' + secs(c.since) + (c.token >= 0 ? ', token ' + c.token : '') + ')';
        else if (c.phase === 'waiting') belief = 'is trying to acquire the lock (since ' + secs(c.since) + ')';
        else if (c.phase === 'releasing') belief = 'is releasing the lock';
        else if (c.done) belief = 'has finished its work';
        else belief = 'does not hold the lock' + (c.note ? ' <span class="note">(' + esc(c.note) + ')</span>' : '');
        d.classList.add(cls);
        const flags = [];
        if (c.inCS) flags.push('<span class="cs">in the critical section</span>');
        if (c.paused) flags.push('<span class="paused">❚❚ frozen by a GC pause</span>');
        if (c.error) flags.push('<span class="bad">model error</span>');
        d.innerHTML = '<div class="head"><b class="name" style="color:' + colourOf(a) + '">' + esc(M.actors[a].name) +
            '</b>' + clock(a) + '</div><div class="belief">' + belief + '</div>' +
            (flags.length ? '<div class="flags">' + flags.join(' · ') + '</div>' : '');
        return d;
    }
    function clock(a) {
        const local = M.localAt(a, cur.T) - D.epoch, diff = local - Math.floor(cur.T / 1000);
        const off = Math.abs(diff) >= 1 ? ' <em class="' + (diff > 0 ? 'ahead' : 'behind') + '">' + (diff > 0 ? '+' : '−') +
            duration(diff) + '</em>' : '';
        return '<span class="clock" title="' + esc(M.actors[a].name) + "'s own clock, beside true time\">clock " +
            msecs(local) + off + '</span>';
    }
    function ttl(a, k, node) {
        if (k.deadline < 0) return '<span class="dim">no TTL</span>';
        const left = k.deadline - M.localAt(a, cur.T);
        const at = ' <small>(at ' + msecs(k.deadline - D.epoch) + ')</small>';
        if (left > 0) return '<b>' + duration(left) + '</b> left' + at;
        return '<span class="bad">expired</span>' + at + (node.role === 'replica' ? '<br><small>a replica waits for its master’s DEL</small>' : '');
    }
    function nodeCard(a, n, s) {
        const d = el('div', 'card node' + (n.up ? '' : ' down'));
        d.id = 'node-' + M.actors[a].name;
        let role = n.role === 'replica' ? 'replica of ' + esc(n.master || '?') : 'master';
        if (n.replacedBy !== null) role += ', <span class="bad">replaced by ' + esc(name(n.replacedBy)) + '</span>';
        let h = '<div class="head"><b class="name">' + esc(M.actors[a].name) + '</b> <span class="role">' + role + '</span>' +
            clock(a) + '</div>';
        if (!n.up) h += '<p class="downnote">DOWN: the process is gone; it answers nothing</p>';
        const here = n.changed && s && n.changed.i >= s.head && n.changed.i <= s.end;
        const rows = [];
        n.keys.forEach(function (k, key) {
            const owner = k.owner !== null && k.owner !== undefined ? ' <span class="owner" style="color:' + colourOf(k.owner) +
                '">(' + esc(name(k.owner)) + '’s)</span>' : '';
            const cls = (key === D.lock ? 'lockkey' : '') + (here && (n.changed.key === key || n.changed.key === null) ? ' changed' : '');
            const many = k.owner === null || k.owner === undefined ? M.idsIn(k.value) : [];
            const whose = many.length > 1 ? ' <span class="owner">(' + many.map(name).map(esc).join(', ') + ')</span>' : '';
            rows.push('<tr class="' + cls + '"><td class="key">' + esc(key) + '</td><td class="value">' + named(k.value) + owner + whose +
                      '</td><td class="ttl">' + ttl(a, k, n) + '</td></tr>');
        });
        if (here && n.changed.gone)
            rows.push('<tr class="gone changed"><td class="key">' + esc(n.changed.key) + '</td><td colspan="2">' +
                      (n.changed.gone === 'expired' ? 'EXPIRED just now' : 'deleted just now') + '</td></tr>');
        if (rows.length)
            h += '<table class="keys"><colgroup><col class="key"><col class="value"><col class="ttl"></colgroup><tr><th>key</th><th>value</th><th>TTL by ' + esc(M.actors[a].name) + '’s clock</th></tr>' +
                rows.join('') + '</table>';
        else h += '<p class="empty">no keys</p>';
        d.innerHTML = h;
        return d;
    }
    function drawWorld() {
        const box = $('world'), st = M.stateThrough(cur.k >= 0 ? steps()[cur.k].end : -1), s = steps()[cur.k];
        box.innerHTML = '';
        const believers = M.clients.filter(function (c) { return st.clients[c].phase === 'holds' && !st.clients[c].crashed; });
        const keyOwners = [];
        M.nodes.forEach(function (n) {
            const k = st.nodes[n].keys.get(D.lock);
            if (k && st.nodes[n].up) keyOwners.push(esc(name(n)) + ': ' + (k.owner !== null ? esc(name(k.owner)) + '’s' : 'a value'));
        });
        const banner = el('p', 'banner' + (believers.length > 1 ? ' two' : ''));
        banner.id = 'holders';
        banner.innerHTML = 'Believe they hold the lock: <b>' + (believers.length ? believers.map(name).map(esc).join(', ') : 'nobody') +
            '</b>' + (believers.length > 1 ? ' — <b>' + believers.length + ' clients at once</b>' : '') +
            ' · the lock key ' + (keyOwners.length ? 'on ' + keyOwners.join(', ') : 'is on no node');
        box.appendChild(banner);
        const grid = el('div', 'worldgrid'), left = el('div', 'col'), right = el('div', 'col');
        M.clients.forEach(function (c) { left.appendChild(clientCard(c, st.clients[c])); });
        M.nodes.forEach(function (n) { right.appendChild(nodeCard(n, st.nodes[n], s)); });
        const wires = el('div', 'wires');
        grid.appendChild(left); grid.appendChild(wires); grid.appendChild(right);
        box.appendChild(grid);
        drawWires(wires, left, right, s);
    }
    /* The messages in flight, as arrows between the cards, each with a dot where it is now. */
    function drawWires(box, left, right, s) {
        const top = box.getBoundingClientRect().top, W = box.clientWidth, H = Math.max(left.offsetHeight, right.offsetHeight);
        const svg = svgEl('svg', { width: W, height: H });
        const yOf = function (a) {
            const card = document.getElementById((M.actors[a].node ? 'node-' : 'client-') + M.actors[a].name);
            if (!card) return 0;
            const r = card.getBoundingClientRect();
            return r.top - top + Math.min(r.height / 2, 40);
        };
        const flying = M.inFlight(cur.T);
        const lost = M.messages.filter(function (m) { return m.lost && s && m.arrive >= s.head && m.arrive <= s.end; });
        const seen = {};
        /* a message is drawn lost only at the step that lost it; until then it travels */
        flying.concat(lost).forEach(function (m) {
            const gone = lost.indexOf(m) >= 0;
            if (m.kind === 'replication') return replication(m, gone);
            const client = m.kind === 'request' ? m.from : m.to, node = m.kind === 'request' ? m.to : m.from;
            const lane = (seen[client + ':' + node] = (seen[client + ':' + node] || 0) + 1) - 1;
            const yc = yOf(client) + lane * 17, yn = yOf(node) + lane * 17;
            const x0 = m.kind === 'request' ? 6 : W - 6, y0 = m.kind === 'request' ? yc : yn;
            const x1 = m.kind === 'request' ? W - 6 : 6, y1 = m.kind === 'request' ? yn : yc;
            const p = gone ? 0.5 : m.t1 === Infinity ? 0.5 : Math.max(0, Math.min(1, (cur.T - m.t0) / Math.max(1, m.t1 - m.t0)));
            const x = x0 + (x1 - x0) * p, y = y0 + (y1 - y0) * p, cls = m.kind + (gone ? ' lost' : '');
            svg.appendChild(svgEl('line', { x1: x0, y1: y0, x2: x1, y2: y1, 'class': 'wire ' + cls }));
            const text = plainNamed(gone ? '✗ lost (' + m.lost + ')' : m.kind === 'reply' ? '← ' + m.reply :
                m.kind === 'message' ? '✉ ' + m.label : m.label);
            if (gone) svg.appendChild(svgEl('text', { x: x, y: y + 8, 'class': 'cross' }, '✗'));
            else svg.appendChild(svgEl('circle', { cx: x, cy: y, r: 8, 'class': 'dot ' + cls }));
            /* the label stays inside the wires' column (8 px a character of 13 px mono) */
            const fit = Math.max(4, Math.min(30, Math.floor((W - 4) / 8))), shown = text.length > fit ? text.slice(0, fit - 1) + '…' : text;
            const half = shown.length * 4 + 2;
            const label = svgEl('text', { x: Math.min(Math.max(x, half), W - half), y: y - 12, 'class': 'wlabel ' + cls }, shown);
            label.appendChild(svgEl('title', {}, text));
            svg.appendChild(label);
        });
        /* master → replica: an arc beside the nodes' cards */
        function replication(m, gone) {
            const y0 = yOf(m.from), y1 = yOf(m.to), bend = W - 70;
            const p = gone ? 0.5 : Math.max(0, Math.min(1, (cur.T - m.t0) / Math.max(1, m.t1 - m.t0)));
            const bez = function (a, b, c, d) { const u = 1 - p; return u * u * u * a + 3 * u * u * p * b + 3 * u * p * p * c + p * p * p * d; };
            const x = bez(W - 6, bend, bend, W - 6), y = bez(y0, y0, y1, y1);
            svg.appendChild(svgEl('path', { d: 'M' + (W - 6) + ' ' + y0 + 'C' + bend + ' ' + y0 + ' ' + bend + ' ' + y1 + ' ' +
                                            (W - 6) + ' ' + y1, 'class': 'wire replication' }));
            const text = gone ? '✗ lost (' + m.lost + ')' : 'replicate ' + m.label;
            if (gone) svg.appendChild(svgEl('text', { x: x, y: y + 8, 'class': 'cross' }, '✗'));
            else svg.appendChild(svgEl('circle', { cx: x, cy: y, r: 8, 'class': 'dot replication' }));
            const fit = Math.max(4, Math.min(24, Math.floor((x - 14) / 8)));
            const label = svgEl('text', { x: x - 12, y: y + 5, 'class': 'wlabel end replication' + (gone ? ' lost' : '') }, text.length > fit ? text.slice(0, fit - 1) + '…' : text);
            label.appendChild(svgEl('title', {}, text));
            svg.appendChild(label);
        }
        box.appendChild(svg);
        box.dataset.inFlight = flying.length;
    }

    /* ---- the narration, and the script a node runs ---- */

    /* The story: a line per step (and a mark where a property breaks); story.items[k] are
     * step k's lines. Marking moves only the lines between the old cursor and the new. */
    const story = { items: [], marked: -1 };
    function drawStory() {
        const ol = $('story'), s = steps(), breaks = {};
        violations.forEach(function (v) {
            const k = M.violationStep(v, cur.level);
            (breaks[k] = breaks[k] || []).push(v.name);
        });
        ol.innerHTML = '';
        story.items = [];
        const frag = document.createDocumentFragment();
        s.forEach(function (st, k) {
            const e = ev[st.head], li = el('li', 'future k-' + e.kind);
            li.dataset.k = k;
            li.textContent = (e.line || '').replace(/^\s+/, '');
            frag.appendChild(li);
            story.items.push([li]);
            (breaks[k] || []).forEach(function (name) {
                const w = el('li', 'future breaks', '✗ ' + esc(name) + ' breaks here');
                w.dataset.k = k;
                frag.appendChild(w);
                story.items[k].push(w);
            });
        });
        ol.appendChild(frag);
        story.marked = -1;
    }
    function markStory() {
        const ol = $('story'), from = Math.min(story.marked, cur.k), to = Math.max(story.marked, cur.k);
        for (let k = Math.max(from, 0); k <= to && k < story.items.length; k++)
            story.items[k].forEach(function (li) {
                li.classList.toggle('future', k > cur.k);
                li.classList.toggle('now', k === cur.k);
            });
        story.marked = cur.k;
        const now = story.items[cur.k];
        if (now) ol.scrollTop = now[0].offsetTop - ol.clientHeight / 2 + now[0].offsetHeight / 2;
        else ol.scrollTop = 0;
    }
    /* A script's text in lines. A script written on several lines is shown as it is; one
     * sent as a single long line (Redisson builds its scripts from Java string pieces) gets a
     * break after each statement and around its blocks, indented by depth. Quoted strings
     * are left whole. */
    function layout(body) {
        const given = body.split('\n');
        if (given.length > 1 && given.every(function (l) { return l.length < 160; })) return given;
        const out = [];
        let depth = 0, line = '';
        const flush = function () { if (line.trim()) out.push('  '.repeat(Math.max(depth, 0)) + line.trim()); line = ''; };
        (body.match(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^'"]+|['"]/g) || []).forEach(function (piece) {
            if (/^['"]/.test(piece)) { line += piece; return; }
            piece.split(/(\bthen\b|\bdo\b|\belse\b|\belseif\b|\bend\b|;)/).forEach(function (w) {
                if (w === 'then' || w === 'do') { line += w; flush(); depth++; }
                else if (w === 'else') { flush(); depth--; line = w; flush(); depth++; }
                else if (w === 'elseif') { flush(); depth--; line = w; }
                else if (w === 'end') { flush(); depth--; line = w; }
                else if (w === ';') { line += w; flush(); }
                else if (/\S/.test(w) && /^\s*(local|return|redis|if|for|while)\b/.test(w) && line.trim() === 'end') { flush(); line = w; }
                else line += w;
            });
        });
        flush();
        return out;
    }

    /* The script behind the current step, if it is a library script's request, run or reply:
     * its text, with the lines whose redis.call ran marked, and the calls as the node ran them. */
    function drawScript() {
        const box = $('script'), s = steps()[cur.k];
        box.innerHTML = '';
        if (!s) return;
        const e = ev[s.head];
        let exec = null;
        if (e.kind === 'exec') exec = e;
        M.messages.forEach(function (m) {
            if (e.kind === 'request' && m.send === e.i && m.arrive >= 0 && ev[m.arrive].kind === 'exec') exec = ev[m.arrive];
            if (e.kind === 'reply' && m.arrive === e.i && ev[m.send].kind === 'exec') exec = ev[m.send];
        });
        const label = (exec || e).text || '', id = (exec || e).script || '', sc = D.scripts[id];
        if (!exec && !sc) return;
        if (!sc && !(e.kind === 'exec' || e.kind === 'request' || e.kind === 'reply')) return;
        const calls = [];
        for (let i = exec ? exec.i + 1 : ev.length; i < ev.length && ev[i].t === exec.t && ev[i].actor === exec.actor; i++)
            if (ev[i].kind === 'call') calls.push(ev[i]);
        if (!sc && !calls.length) return;
        let h = '<h3>' + (sc ? 'Script <code>' + esc(id) + '</code>' : 'Command') + '</h3>';
        if (sc) h += '<p class="what">' + esc(sc.what || '') + (sc.source ? ' <small>(' + esc(sc.source) + ')</small>' : '') +
            '</p><p class="kv"><b>KEYS</b> ' + esc(sc.keys || '') + '<br><b>ARGV</b> ' + esc(sc.argv || '') + '</p>';
        if (exec) {
            h += '<p class="ran">' + esc(name(exec.actor)) + ' ran it for ' + esc(name(exec.peer)) + ' at ' + secs(exec.t) +
                ': <code>' + esc(label) + '</code> → <b>' + esc(exec.reply || '') + '</b></p>';
            if (calls.length)
                h += '<ol class="calls">' + calls.map(function (c) {
                    return '<li><code>redis.call ' + esc(c.text || '') + '</code> → <b>' + esc(c.reply || '') + '</b></li>';
                }).join('') + '</ol>';
        }
        if (sc) {
            const ran = {}, lines = layout(sc.body);
            calls.forEach(function (c) { ran[(c.command || '').toLowerCase()] = 1; });
            if (lines.length > sc.body.split('\n').length)
                h += '<p class="dim">(the script as sent is one line; line breaks added here)</p>';
            h += '<pre class="body">' + lines.map(function (line, n) {
                const m = /redis\.call\(\s*['"]([A-Za-z]+)['"]/i.exec(line);
                const hit = m && ran[m[1].toLowerCase()];
                return '<span class="' + (hit ? 'hit' : '') + '"><i>' + String(n + 1).padStart(3, ' ') + '</i> ' + esc(line) + '</span>';
            }).join('\n') + '</pre>';
        }
        box.innerHTML = h;
    }

    /* ---- the space-time window: the steps around the cursor, one row each ---- */

    /* A lifeline per actor, a row per step, the step's narration in a column on the right
     * (so that no label crosses an arrow); requests and replies as arrows between rows. */
    const ST = { rows: 8, row: 30, top: 44, left: 92, col: 110, text: 620 };
    function drawSpacetime() {
        const box = $('spacetime'), s = steps();
        const lo = Math.max(0, cur.k - ST.rows), hi = Math.min(s.length - 1, Math.max(cur.k, 0) + ST.rows);
        const order = M.clients.concat(M.nodes), colOf = {};
        order.forEach(function (a, i) { colOf[a] = ST.left + ST.col / 2 + i * ST.col; });
        const textX = ST.left + order.length * ST.col + 12, W = textX + ST.text;
        const H = ST.top + (2 * ST.rows + 1) * ST.row + 10;
        const y = function (k) { return ST.top + (k - lo + 0.5) * ST.row; };
        const svg = svgEl('svg', { width: W, height: H, 'class': 'st' });
        const defs = svgEl('defs', {}), mk = svgEl('marker', { id: 'st-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5,
                                                             markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
        mk.appendChild(svgEl('path', { d: 'M0 0L10 5L0 10z' }));
        defs.appendChild(mk);
        svg.appendChild(defs);
        if (cur.k >= 0) svg.appendChild(svgEl('rect', { x: 0, y: y(cur.k) - ST.row / 2, width: W, height: ST.row, 'class': 'nowband' }));
        order.forEach(function (a) {
            svg.appendChild(svgEl('text', { x: colOf[a], y: 24, 'class': 'who' }, name(a)));
            svg.appendChild(svgEl('line', { x1: colOf[a], x2: colOf[a], y1: 32, y2: H - 6, 'class': 'life' }));
        });
        const of = M.steps[cur.level].of;
        M.messages.forEach(function (m) {
            const k0 = of[m.send], k1 = m.arrive >= 0 ? of[m.arrive] : s.length;
            if (k1 < lo || k0 > hi || k0 === k1 || k0 < 0) return;
            const ya = k0 < lo ? ST.top : y(k0), yb = k1 > hi ? H - 6 : y(k1);
            const cls = m.kind + (m.lost ? ' lost' : '') + (k0 > cur.k ? ' future' : '');
            const x0 = colOf[m.from], x1 = m.lost ? colOf[m.from] + (colOf[m.to] - colOf[m.from]) * 0.35 : colOf[m.to];
            const yl = m.lost ? ya + (yb - ya) * 0.35 : yb;
            const line = svgEl('line', { x1: x0, y1: ya, x2: x1, y2: yl, 'class': 'msg ' + cls });
            if (!m.lost) line.setAttribute('marker-end', 'url(#st-arrow)');
            svg.appendChild(line);
            if (m.lost) svg.appendChild(svgEl('text', { x: x1, y: yl + 7, 'class': 'cross' }, '✗'));
        });
        for (let k = lo; k <= hi; k++) {
            const e = ev[s[k].head], x = colOf[e.actor];
            const row = svgEl('g', { 'class': 'ev' + (k > cur.k ? ' future' : '') + (k === cur.k ? ' now' : ''), 'data-k': k });
            row.appendChild(svgEl('text', { x: 6, y: y(k) + 5, 'class': 'time' }, secs(s[k].t)));
            if (x !== undefined) row.appendChild(svgEl('circle', { cx: x, cy: y(k), r: 5 }));
            const txt = name(e.actor) + ': ' + bare(e.line), max = Math.floor(ST.text / 8.4);
            const label = svgEl('text', { x: textX, y: y(k) + 5, 'class': 'say k-' + e.kind },
                                txt.length > max ? txt.slice(0, max - 1) + '…' : txt);
            label.appendChild(svgEl('title', {}, txt));
            row.appendChild(label);
            svg.appendChild(row);
        }
        box.innerHTML = '';
        box.appendChild(svg);
    }

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

/* The run's data, parsed: the events' rows (html_data.c writes one a line, between
 * '"events":[' and '],\n"total":', a JSON text holding no raw newline) are left as text and
 * parsed a slice at a time (D.eventRows), the rest at once. */
function llParse(text) {
    const open = '"events":[', close = '],\n"total":';
    const i0 = text.indexOf(open), i1 = i0 < 0 ? -1 : text.indexOf(close, i0);
    if (i1 < 0) return JSON.parse(text);
    const D = JSON.parse(text.slice(0, i0 + open.length) + text.slice(i1));
    const starts = [];
    for (let p = text.indexOf('\n', i0); p >= 0 && p < i1; p = text.indexOf('\n', p + 1)) starts.push(p);
    D.events = null;
    D.eventCount = starts.length;
    D.eventRows = function (from, to) {
        return JSON.parse('[' + text.slice(starts[from], to < starts.length ? starts[to] - 1 : i1) + ']');
    };
    return D;
}

/* Builds the model (llModel's generator) and draws the page. A run of up to LL_ONE_TASK
 * events is built in the script's own task; a longer one a slice at a time (at most LL_SLICE
 * events read per task), the page's event loop turning between slices, so that a 50,000-event
 * run never holds the page's thread for more than a slice. <body> then carries data-slices
 * (the tasks the model took) and data-slice-most (the most events read in one). */
const LL_ONE_TASK = 4000;
function llStart(text) {
    const D = llParse(text);
    const n = D.events ? D.events.length : D.eventCount, chunked = n > LL_ONE_TASK;
    const gen = llModel(D), early = [], hold = function (e) { early.push(e); };
    const next = chunked && typeof MessageChannel === 'function' ? (function () {
        const ch = new MessageChannel(), q = [];
        ch.port1.onmessage = function () { q.shift()(); };
        return function (fn) { q.push(fn); ch.port2.postMessage(0); };
    })() : function (fn) { setTimeout(fn, 0); };
    let slices = 0, most = 0, read = 0;  /* read: events read by the passes (7 over each event) */
    window.addEventListener('message', hold);
    const note = function () {
        const tl = document.getElementById('timeline');
        if (tl) tl.textContent = 'drawing the run (' + n + ' events): ' + Math.min(99, Math.floor(100 * read / (7 * n))) + '% …';
    };
    (function slice() {
        let r, here = 0;
        do {
            r = gen.next();
            if (!r.done) here += r.value;
        } while (!r.done && !chunked);
        slices++;
        read += here;
        most = Math.max(most, chunked ? here : 0);
        if (!r.done) {
            if (slices % 16 === 1) note();
            next(slice);
            return;
        }
        window.removeEventListener('message', hold);
        document.body.dataset.slices = slices;
        document.body.dataset.sliceMost = most;
        const drawn = chunked ? new Promise(function (resolve) { next(resolve); }) : { then: function (f) { f(); } };
        llView(r.value, early, drawn);
    })();
}

/* A page holding this one in a frame may hand the run's data over itself: the playground
 * writes this page into its frame without them (a 7 MB text in a frame's srcdoc holds the
 * page's thread a quarter of a second to copy and parse) and calls llData(text) when the
 * frame has loaded, the text passed, not copied. */
const llText = document.getElementById('run-data').textContent;
if (llText.trim()) llStart(llText);
else window.llData = function (text) { window.llData = null; llStart(text); };
