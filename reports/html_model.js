/* html_model.js — the run at any instant, read from the history locklab recorded.
 *
 * Nothing is simulated here: the page is given the run's events (what happened, to whom, at
 * which true time, with the actor's own clock), and this file only replays them. The state
 * of the world after any event is the state before it, changed by that event:
 *
 *   - a node's keys: key_set (value, and its deadline on the node's clock), key_deleted,
 *     key_expired, and keyspace (the whole data replaced: a restart, a resynchronisation);
 *   - what a client believes: acquire, acquired, release, released, cs_enter, cs_exit, and
 *     the faults aimed at it (a GC pause, a crash);
 *   - the messages: a request travels from its request event to the node's exec (or a drop),
 *     its reply from the exec to the client's reply event (or a drop).
 *
 * Clocks between events come from the scenario, as the engine reads them (sim/clock.c).
 *
 * "Steps" are what the cursor moves through: each narrated event, with the events that are
 * its immediate effects (the redis.calls of a script, the keys it changed) folded into it. */
'use strict';

/* The model is built by a generator: every pass over the events yields after each SLICE
 * events it read (its `yield` gives how many), so that the page can build a long run's model
 * in slices, its event loop turning between them (llBuild, below); the generator's value is
 * the model. D.events may be given as rows (parsed) or, for a long run, D.eventRows(from, to),
 * the rows' JSON parsed a slice at a time. */
const LL_SLICE = 2000;

function* llModel(D) {
    const kinds = D.kinds, lossNames = D.losses;
    let work = 0;
    const events = [];
    const nrows = D.events ? D.events.length : D.eventCount;
    for (let from = 0; from < nrows; from += LL_SLICE) {
        const rows = D.events ? D.events.slice(from, from + LL_SLICE) : D.eventRows(from, Math.min(nrows, from + LL_SLICE));
        rows.forEach(function (r, k) {
            const i = from + k;
            events.push({ i: i, t: r[0], kind: kinds[r[1]], actor: r[2], local: r[3], peer: r[4], a: r[5], b: r[6],
                          level: r[7], text: r[8], reply: r[9], line: r[10], deadline: r[11],
                          fault: r[12] || null, faultId: r.length > 13 ? r[13] : -1, lost: r[14] || null,
                          code: r.length > 15 ? r[15] : -1, label: r[16] || null,
                          published: kinds[r[1]] === 'call' && r.length > 16 ? r[16] : null,
                          script: r.length > 16 && ['request', 'exec', 'reply'].indexOf(kinds[r[1]]) >= 0 ? r[16] : null,
                          command: kinds[r[1]] === 'call' && r.length > 17 ? r[17] : null });
        });
        yield rows.length;
    }
    const actors = D.actors;
    const clients = [], nodes = [];
    actors.forEach(function (a, i) { (a.node ? nodes : clients).push(i); });
    const end = Math.max(D.timeline.end, events.length ? events[events.length - 1].t : 0, 1);

    /* ---- clocks ---- */

    /* The actor's local clock (ms) at true time t (µs), exactly as sim/clock.c reads it; at
     * the instant of a jump or a drift change, after it (or, with `before`, before it). */
    function localAt(actor, t, before) {
        const segs = D.clocks[actor];
        if (!segs) return Math.floor(t / 1000);
        let s = segs[0];
        for (let k = 1; k < segs.length && (segs[k][0] < t || (!before && segs[k][0] === t)); k++) s = segs[k];
        return Math.floor(s[1] + (t - s[0]) * (1 + s[2]) / 1000 + 1e-6);
    }

    /* Events whose recorded local time the clocks above do not give (0 when they agree; the
     * event of a clock jump is recorded with the time before it). */
    let clockMismatches = 0;
    for (const e of events) {
        if (e.actor >= 0 && localAt(e.actor, e.t) !== e.local && localAt(e.actor, e.t, true) !== e.local) clockMismatches++;
        if (++work === LL_SLICE) { yield work; work = 0; }
    }

    /* ---- steps ---- */

    function isKeyChange(e) {
        return e.kind === 'key_set' || e.kind === 'key_deleted' || e.kind === 'key_expired' || e.kind === 'keyspace';
    }

    /* The steps at a level of detail (0: the story, 1: every message): a step starts at an
     * event the narration at that level tells, or at a key change that is not the effect of
     * the step before it (same actor, same instant), such as a replica applying a write. */
    const stepsBy = [];
    for (let level = 0; level <= 1; level++) {
        const steps = [], of = new Int32Array(events.length).fill(-1);
        let cur = null;
        for (const e of events) {
            const told = e.level <= level;
            const effect = cur && events[cur.head].t === e.t && events[cur.head].actor === e.actor;
            if (told || (isKeyChange(e) && !effect)) {
                cur = { head: e.i, end: e.i, t: e.t };
                steps.push(cur);
            } else if (cur) {
                cur.end = e.i;
            }
            of[e.i] = steps.length - 1;
            if (++work === LL_SLICE) { yield work; work = 0; }
        }
        stepsBy.push({ list: steps, of: of });
    }

    /* ---- the state: nodes' keys, clients' beliefs ---- */

    function freshState() {
        const st = { nodes: {}, clients: {}, owners: new Map(), exec: null };
        nodes.forEach(function (n) {
            st.nodes[n] = { up: true, role: actors[n].role, master: actors[n].master, replacedBy: null,
                            keys: new Map(), changed: null };
        });
        clients.forEach(function (c) {
            st.clients[c] = { started: false, phase: 'idle', since: 0, token: -1, inCS: false, paused: false,
                              crashed: false, done: false, error: null, note: null };
        });
        return st;
    }

    function cloneState(s) {
        const st = { nodes: {}, clients: {}, owners: new Map(s.owners), exec: s.exec };
        Object.keys(s.nodes).forEach(function (n) {
            st.nodes[n] = Object.assign({}, s.nodes[n], { keys: new Map(s.nodes[n].keys) });
        });
        Object.keys(s.clients).forEach(function (c) { st.clients[c] = Object.assign({}, s.clients[c]); });
        return st;
    }

    function actorNamed(name) {
        for (let i = 0; i < actors.length; i++) if (actors[i].name === name) return i;
        return -1;
    }

    /* The clients' ids as their own requests carry them (Redisson's "UUID:thread"), so that a
     * value holding one is read as that client's: the first client whose request names an id
     * is its owner. */
    const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
    const idOwner = new Map();
    for (const e of events) {
        if (++work === LL_SLICE) { yield work; work = 0; }
        if (e.kind !== 'request' || !e.text || clients.indexOf(e.actor) < 0) continue;
        (e.text.match(UUID) || []).forEach(function (u) { if (!idOwner.has(u)) idOwner.set(u, e.actor); });
    }
    /* the clients whose ids a value holds, in order of appearance */
    function idsIn(value) {
        const who = [];
        (String(value || '').match(UUID) || []).forEach(function (u) {
            const a = idOwner.get(u);
            if (a !== undefined && who.indexOf(a) < 0) who.push(a);
        });
        return who;
    }

    /* Who a value of the lock belongs to: the client whose id it holds, when it holds one
     * client's (several: nobody's, such as a fair lock's queue of waiters); else the client
     * whose request wrote it (a write and the exec that made it share the node and the µs),
     * or, for a copy (replication, a restart), whoever wrote that value first. null: unknown. */
    function ownerOf(st, e, value) {
        const ids = idsIn(value);
        if (ids.length) {
            st.owners.set(value, ids.length === 1 ? ids[0] : null);
            return ids.length === 1 ? ids[0] : null;
        }
        if (st.exec && st.exec.node === e.actor && st.exec.t === e.t && st.exec.peer >= 0) {
            st.owners.set(value, st.exec.peer);
            return st.exec.peer;
        }
        return st.owners.has(value) ? st.owners.get(value) : null;
    }

    function apply(st, e) {
        const c = st.clients[e.actor], n = st.nodes[e.actor];
        switch (e.kind) {
        case 'start': c.started = true; break;
        case 'acquire': c.phase = 'waiting'; c.since = e.t; c.note = null; break;
        case 'acquired': c.phase = 'holds'; c.since = e.t; c.token = e.a; break;
        case 'acquire_failed': c.phase = 'idle'; c.since = e.t; c.note = 'gave up: ' + (e.text || ''); break;
        case 'release': c.phase = 'releasing'; break;
        case 'released': c.phase = 'idle'; c.since = e.t; c.token = -1; c.note = 'release: ' + (e.text || ''); break;
        case 'cs_enter': c.inCS = true; break;
        case 'cs_exit': c.inCS = false; break;
        case 'end': c.done = true; c.phase = 'idle'; c.inCS = false; break;
        case 'error': c.error = e.text; break;
        case 'fault':
        case 'fault_end': {
            if (c && e.fault === 'gc_pause') c.paused = e.kind === 'fault';
            if (c && e.fault === 'crash' && e.kind === 'fault') { c.crashed = true; c.inCS = false; }
            break;
        }
        case 'exec': st.exec = { node: e.actor, t: e.t, peer: e.peer }; break;
        case 'key_set': {
            const v = e.reply || '';
            n.keys.set(e.text, { value: v, deadline: e.deadline, owner: ownerOf(st, e, v), since: e.t });
            n.changed = { key: e.text, i: e.i };
            break;
        }
        case 'key_deleted':
        case 'key_expired':
            n.keys.delete(e.text);
            n.changed = { key: e.text, i: e.i, gone: e.kind === 'key_expired' ? 'expired' : 'deleted' };
            break;
        case 'keyspace':
            n.keys = new Map();
            (e.reply || []).forEach(function (k) {
                n.keys.set(k[0], { value: k[3], deadline: k[2], owner: st.owners.has(k[3]) ? st.owners.get(k[3]) : idsIn(k[3]).length === 1 ? idsIn(k[3])[0] : null,
                                   since: e.t, type: k[1] });
            });
            n.changed = { key: null, i: e.i };
            break;
        case 'node_down': n.up = false; break;
        case 'node_up': n.up = true; break;
        case 'promoted':
            n.role = 'master'; n.master = null;
            if (e.peer >= 0 && st.nodes[e.peer]) st.nodes[e.peer].replacedBy = e.actor;
            nodes.forEach(function (o) {
                if (st.nodes[o].master === actors[e.peer].name && o !== e.actor) st.nodes[o].master = actors[e.actor].name;
            });
            break;
        case 'demoted':
            n.role = 'replica'; n.replacedBy = null;
            n.master = e.peer >= 0 ? actors[e.peer].name : n.master;
            break;
        }
        if (e.kind !== 'exec' && e.kind !== 'call' && !isKeyChange(e)) st.exec = null;
    }

    /* Snapshots every CHECKPOINT events, so that any instant is a short replay away. */
    const CHECKPOINT = 256;
    const checkpoints = [freshState()];
    {
        const st = freshState();
        for (const e of events) {
            apply(st, e);
            if ((e.i + 1) % CHECKPOINT === 0) checkpoints.push(cloneState(st));
            if (++work === LL_SLICE) { yield work; work = 0; }
        }
    }
    let cache = { upto: -1, state: checkpoints[0], owned: false };

    /* The state after events 0..upto (upto -1: before anything happened). It is valid until the
     * next call; do not change it. */
    function stateThrough(upto) {
        if (upto === cache.upto) return cache.state;
        let st, from;
        if (upto > cache.upto && cache.owned && upto - cache.upto < CHECKPOINT) {
            st = cache.state; from = cache.upto + 1; /* forward from the last answer, in place */
        } else {
            const k = Math.floor((upto + 1) / CHECKPOINT);
            st = cloneState(checkpoints[k]); from = k * CHECKPOINT;
        }
        for (let i = from; i <= upto; i++) apply(st, events[i]);
        cache = { upto: upto, state: st, owned: true };
        return st;
    }

    /* ---- messages ---- */

    /* Every request and reply, with when it left and when it arrived (or was lost), and every
     * key change a master sends its replicas: it leaves with the change on the master and
     * arrives as the same key's change on the replica. A drop names the message by its label
     * ("request SET lock ... lost (partition)"): it ends the oldest message of that kind and
     * label still travelling between the two. A replication message a replica ignores (its
     * master changed meanwhile) stops at that change. */
    const messages = [];
    {
        const open = new Map(), masterOf = {};
        nodes.forEach(function (n) { masterOf[n] = actors[n].master === null ? -1 : actorNamed(actors[n].master); });
        let exec = null;
        const published = {}; /* per node: its PUBLISH calls, [t, channel, event] */
        function travelling(kind, from, to, label) {
            for (let k = 0; k < messages.length; k++) {
                const m = messages[k];
                if (m.t1 === Infinity && m.kind === kind && m.from === from && m.to === to &&
                    (label === null || m.label === label)) return m;
            }
            return null;
        }
        function stopReplication(n, t) {
            messages.forEach(function (m) {
                if (m.kind === 'replication' && m.t1 === Infinity && (m.to === n || m.from === n)) m.t1 = t;
            });
        }
        for (const e of events) {
            if (++work === LL_SLICE) { yield work; work = 0; }
            const key = e.kind === 'request' ? e.actor + ':' + e.a : e.peer + ':' + e.a;
            if (e.kind === 'exec') exec = e;
            if (e.kind === 'key_set' || e.kind === 'key_deleted' || e.kind === 'key_expired') {
                const byExec = exec && exec.actor === e.actor && exec.t === e.t;
                const q = byExec ? null : travelling('replication', masterOf[e.actor], e.actor, e.text);
                if (q) { q.t1 = e.t; q.arrive = e.i; }
                if (masterOf[e.actor] < 0)
                    nodes.forEach(function (r) {
                        if (masterOf[r] === e.actor)
                            messages.push({ kind: 'replication', from: e.actor, to: r, label: e.text || '', t0: e.t,
                                            t1: Infinity, send: e.i, arrive: -1, lost: null });
                    });
            } else if (e.kind === 'promoted') {
                stopReplication(e.actor, e.t);
                stopReplication(e.peer, e.t);
                nodes.forEach(function (o) { if (masterOf[o] === e.peer && o !== e.actor) masterOf[o] = e.actor; });
                masterOf[e.actor] = -1;
                masterOf[e.peer] = e.actor;
            } else if (e.kind === 'demoted') {
                stopReplication(e.actor, e.t);
                masterOf[e.actor] = e.peer;
            }
            if (e.kind === 'call') {
                if (e.published !== null) (published[e.actor] = published[e.actor] || []).push([e.t, e.published, e.i]);
            } else if (e.kind === 'publish') {
                /* a pub/sub message reaches a subscriber: it left with the last call on that
                 * node that published on its channel (the history's calls say which channel
                 * their messages went to; they are recorded for this page) */
                const from = (published[e.peer] || []).filter(function (p) { return p[1] === e.text && p[0] <= e.t; }).pop();
                if (from) messages.push({ kind: 'message', from: e.peer, to: e.actor, label: (e.text || '') + ' ' + (e.reply || ''),
                                          t0: from[0], t1: e.t, send: from[2], arrive: e.i, lost: null });
            }
            if (e.kind === 'request') {
                const m = { kind: 'request', from: e.actor, to: e.peer, label: e.text || '', t0: e.t, t1: Infinity,
                            send: e.i, arrive: -1, lost: null };
                messages.push(m);
                open.set('q' + key, m);
            } else if (e.kind === 'exec') {
                const q = open.get('q' + key);
                if (q) { q.t1 = e.t; q.arrive = e.i; open.delete('q' + key); }
                const r = { kind: 'reply', from: e.actor, to: e.peer, label: e.text || '', reply: e.reply || '', t0: e.t,
                            t1: Infinity, send: e.i, arrive: -1, lost: null };
                messages.push(r);
                open.set('r' + e.peer + ':' + e.a, r);
            } else if (e.kind === 'reply') {
                const r = open.get('r' + e.actor + ':' + e.a);
                if (r) { r.t1 = e.t; r.arrive = e.i; open.delete('r' + e.actor + ':' + e.a); }
            } else if (e.kind === 'drop') {
                const what = e.lost, label = e.label || '', why = lossNames[e.code] || '';
                if (['request', 'reply', 'replication', 'message'].indexOf(what) < 0) continue;
                if (what === 'message') { /* lost as it left */
                    messages.push({ kind: 'message', from: e.actor, to: e.peer, label: label, t0: e.t, t1: e.t, send: e.i,
                                    arrive: e.i, lost: why });
                    continue;
                }
                const q = travelling(what, e.actor, e.peer, label) || travelling(what, e.actor, e.peer, null);
                if (!q) continue;
                q.t1 = e.t; q.arrive = e.i; q.lost = why;
                open.forEach(function (v, k) { if (v === q) open.delete(k); });
            }
        }
    }

    /* The messages travelling at true time t: sent at or before t, not yet arrived. */
    function inFlight(t) {
        return messages.filter(function (m) { return m.t0 <= t && t < m.t1; });
    }

    /* ---- where the cursor can jump ---- */

    /* The step where a property breaks: the first step at its instant that tells what broke
     * it (a client entering the critical section, a write, an acquisition), else the last
     * step at or before it (a deadlock is judged at an instant where nothing happens). */
    const tells = { mutual_exclusion: ['cs_enter'], resource_safety: ['write'], fairness: ['acquired'],
                    release_safety: ['key_deleted', 'key_set', 'request', 'released'] };
    function violationStep(v, level) {
        const s = stepsBy[level].list;
        const want = tells[v.name] || [];
        for (let k = 0; k < s.length; k++) {
            if (s[k].t !== v.at) continue;
            for (let i = s[k].head; i <= s[k].end; i++) if (want.indexOf(events[i].kind) >= 0) return k;
        }
        return lastStepAt(v.at, level);
    }

    /* The last step at or before true time t (-1: none). */
    function lastStepAt(t, level) {
        const s = stepsBy[level].list;
        let lo = 0, hi = s.length - 1, ans = -1;
        while (lo <= hi) {
            const mid = (lo + hi) >> 1;
            if (s[mid].t <= t) { ans = mid; lo = mid + 1; } else hi = mid - 1;
        }
        return ans;
    }

    function isFault(e) {
        return e.kind === 'fault' || e.kind === 'node_down' || e.kind === 'promoted' || e.kind === 'demoted';
    }

    if (work) yield work;
    return {
        D: D, events: events, actors: actors, clients: clients, nodes: nodes, end: end,
        localAt: localAt, clockMismatches: clockMismatches, steps: stepsBy, stateThrough: stateThrough,
        messages: messages, inFlight: inFlight, violationStep: violationStep, lastStepAt: lastStepAt,
        isFault: isFault, actorNamed: actorNamed, idOwner: idOwner, idsIn: idsIn, UUID: UUID
    };
}
