/* html_start.js — the player's start: the run's data parsed (the events' rows a slice at a
 * time), the model built (html_model.js) in the script's own task or a slice per task, then
 * the view drawn (html_view.js); or, in a frame, the data awaited from the page holding it. */

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
