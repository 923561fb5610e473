/* html_timeline.js — the player's two pictures over time: the timeline of the whole run
 * (each actor's row, its spans, the faults and the violations, the cursor; a click or a drag
 * moves the cursor) and the space-time window of the steps around the cursor. A part of the
 * view (html_view.js's llView), given its state and helpers. */

function llTimeline(V) {
    const M = V.M, D = V.D, ev = V.ev, $ = V.$, cur = V.cur, violations = V.violations, palette = V.palette;
    const svgEl = V.svgEl, secs = V.secs, name = V.name, bare = V.bare, steps = V.steps;
    const setTime = V.setTime, play = V.play;

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

    return { drawTimeline: drawTimeline, moveTimelineCursor: moveTimelineCursor, drawSpacetime: drawSpacetime };
}
