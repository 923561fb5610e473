/* html_world.js — the player's world at the cursor: a card per client (what it believes, its
 * clock), a card per node (its keys, their values and TTLs by its own clock), and the messages
 * in flight as wires between them. A part of the view (html_view.js's llView), given its state
 * and helpers. */

function llWorld(V) {
    const M = V.M, D = V.D, $ = V.$, cur = V.cur;
    const esc = V.esc, el = V.el, svgEl = V.svgEl, secs = V.secs, msecs = V.msecs, duration = V.duration;
    const name = V.name, named = V.named, plainNamed = V.plainNamed, colourOf = V.colourOf, steps = V.steps;

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

    return { drawWorld: drawWorld };
}
