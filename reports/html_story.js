/* html_story.js — the player's words: the verdicts with their evidence (each true time a
 * link to that instant), the narration a line per step with the cursor's line marked, and the
 * script a node runs at the cursor with the redis.calls it made. A part of the view
 * (html_view.js's llView), given its state and helpers. */

function llStory(V) {
    const M = V.M, D = V.D, ev = V.ev, $ = V.$, cur = V.cur, violations = V.violations;
    const esc = V.esc, el = V.el, secs = V.secs, name = V.name, steps = V.steps;
    const setTime = V.setTime, toViolation = V.toViolation, play = V.play;

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

    return { drawVerdicts: drawVerdicts, drawStory: drawStory, markStory: markStory, drawScript: drawScript };
}
