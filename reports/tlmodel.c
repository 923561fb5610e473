/* tlmodel.c — the run as intervals: the tl_model every picture draws from (the gnuplot
 * timeline, the terminal one, the space-time diagram, the HTML report), and the one way they
 * all write a file.
 *
 * The model is one pass over the history. Client rows follow the workload's milestones
 * (acquire → acquired: waiting; cs_enter → cs_exit: holding) and the faults aimed at them
 * (GC pause → its end: paused; crash: crashed to the end). Node rows follow the scenario's lock
 * key: a key_set opens an "owned" interval whose owner is the client of the exec that set it
 * (an exec and the key changes it causes share the node and the µs); a key_set with no exec
 * (replication) takes the owner of the value it copies. key_deleted / key_expired / a crash
 * close it. Overlaps are computed afterwards from the holding intervals. Each row also
 * carries its clock's drift as the scenario configures it (the history records no rates). */
#include "timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the model ---- */

typedef struct open_fault {
    int actor;
    int64_t from;
    const char *text;
    int live;
    int kind, id;     /* the fault's kind and its id in the run (hist_event.fault, fault_id) */
} open_fault;

typedef struct owner_of {
    const char *value; /* borrowed from the history */
    int owner;
} owner_of;

typedef struct builder {
    tl_model *m;
    size_t cap_spans, cap_marks, cap_faults;
    int64_t *wait_from, *hold_from, *pause_from, *own_from, *down_from;
    int *owner, *crashed;
    int64_t *exec_t;  /* per row: the µs of its last exec, -1 */
    int *exec_peer;   /* ... and that exec's client row */
    open_fault *open; size_t nopen, cap_open;
    owner_of *values; size_t nvalues, cap_values;
    const char *lockkey;
} builder;

int tl_row_of(const tl_model *m, int actor)
{
    for (int r = 0; r < m->nrows; r++)
        if (m->rows[r].actor == actor) return r;
    return -1;
}

static void add_span(builder *b, int row, tl_span_kind k, int64_t from, int64_t to, int owner)
{
    tl_model *m = b->m;
    if (from < 0 || to < from) return;
    if (m->nspans == b->cap_spans) {
        b->cap_spans = b->cap_spans ? 2 * b->cap_spans : 64;
        m->spans = xrealloc(m->spans, b->cap_spans * sizeof *m->spans);
    }
    m->spans[m->nspans++] = (tl_span){ row, k, from, to, owner };
}

static void add_mark(builder *b, int row, tl_mark_kind k, int64_t t, int64_t value)
{
    tl_model *m = b->m;
    if (m->nmarks == b->cap_marks) {
        b->cap_marks = b->cap_marks ? 2 * b->cap_marks : 64;
        m->marks = xrealloc(m->marks, b->cap_marks * sizeof *m->marks);
    }
    m->marks[m->nmarks++] = (tl_mark){ row, k, t, value };
}

static void add_fault(builder *b, int row, int64_t from, int64_t to, const char *text)
{
    tl_model *m = b->m;
    if (m->nfaults == b->cap_faults) {
        b->cap_faults = b->cap_faults ? 2 * b->cap_faults : 16;
        m->faults = xrealloc(m->faults, b->cap_faults * sizeof *m->faults);
    }
    m->faults[m->nfaults++] = (tl_fault){ row, from, to, text ? text : "" };
}

/* Each client's symbol: its initial when no other client shares it, else its last
 * character when that is unique, else a letter by position. */
static void assign_symbols(tl_model *m)
{
    for (int pass = 0; pass < 3; pass++) {
        for (int r = 0; r < m->nclients; r++) {
            tl_row *row = &m->rows[r];
            if (pass > 0 && row->sym) continue;
            size_t len = strlen(row->name);
            char c = pass == 0 ? row->name[0] : pass == 1 ? row->name[len ? len - 1 : 0] : (char)('a' + r % 26);
            int clash = 0;
            for (int o = 0; o < m->nclients && pass < 2; o++) {
                if (o == r) continue;
                const char *on = m->rows[o].name;
                size_t ol = strlen(on);
                char oc = pass == 0 ? on[0] : m->rows[o].sym ? m->rows[o].sym : on[ol ? ol - 1 : 0];
                if (oc == c) clash = 1;
            }
            row->sym = clash || (unsigned char)c < 33 || (unsigned char)c > 126 ? 0 : c;
            if (pass == 2 && !row->sym) row->sym = '?';
        }
    }
}

static void remember_value(builder *b, const char *value, int owner)
{
    if (!value || owner < 0) return;
    for (size_t i = 0; i < b->nvalues; i++)
        if (!strcmp(b->values[i].value, value)) {
            b->values[i].owner = owner;
            return;
        }
    if (b->nvalues == b->cap_values) {
        b->cap_values = b->cap_values ? 2 * b->cap_values : 16;
        b->values = xrealloc(b->values, b->cap_values * sizeof *b->values);
    }
    b->values[b->nvalues++] = (owner_of){ value, owner };
}

static int owner_of_value(const builder *b, const char *value)
{
    for (size_t i = 0; value && i < b->nvalues; i++)
        if (!strcmp(b->values[i].value, value)) return b->values[i].owner;
    return -1;
}

static void close_owned(builder *b, int row, int64_t t)
{
    if (b->own_from[row] >= 0) add_span(b, row, TL_OWNED, b->own_from[row], t, b->owner[row]);
    b->own_from[row] = -1;
}

static void on_key(builder *b, const hist_event *e, int row)
{
    if (e->kind != H_KEY_SET) {
        close_owned(b, row, e->t_us);
        b->owner[row] = -1;
        return;
    }
    int owner;
    if (b->exec_t[row] == e->t_us) {
        owner = b->exec_peer[row];
        remember_value(b, e->reply, owner);
    } else {
        owner = owner_of_value(b, e->reply);
    }
    if (b->own_from[row] >= 0 && b->owner[row] == owner) return; /* same owner: renewal, re-entry */
    close_owned(b, row, e->t_us);
    b->own_from[row] = e->t_us;
    b->owner[row] = owner;
}

static void on_fault(builder *b, const hist_event *e, int row)
{
    const char *text = e->text ? e->text : "";
    if (e->kind == H_FAULT) {
        if (e->fault == FAULT_GC_PAUSE && row >= 0) b->pause_from[row] = e->t_us;
        if (e->fault == FAULT_CRASH && row >= 0 && !b->m->rows[row].is_node) {
            b->crashed[row] = 1;
            add_span(b, row, TL_CRASH, e->t_us, b->m->end_us, -1);
            if (b->wait_from[row] >= 0) add_span(b, row, TL_WAIT, b->wait_from[row], e->t_us, -1);
            if (b->hold_from[row] >= 0) add_span(b, row, TL_HOLD, b->hold_from[row], e->t_us, -1);
            b->wait_from[row] = b->hold_from[row] = -1;
        }
        if (e->fault == FAULT_CLOCK_JUMP && row >= 0) add_mark(b, row, TL_CLOCK_JUMP, e->t_us, e->param_ms);
        if (b->nopen == b->cap_open) {
            b->cap_open = b->cap_open ? 2 * b->cap_open : 8;
            b->open = xrealloc(b->open, b->cap_open * sizeof *b->open);
        }
        b->open[b->nopen++] = (open_fault){ e->actor, e->t_us, text, 1, e->fault, e->fault_id };
        return;
    }
    if (e->fault == FAULT_GC_PAUSE && row >= 0 && b->pause_from[row] >= 0) {
        add_span(b, row, TL_PAUSE, b->pause_from[row], e->t_us, -1);
        b->pause_from[row] = -1;
    }
    /* The end of a fault: the open one it ends (the same fault of the run); a pause that a
     * longer one outlasted ends with that one (the client runs again). */
    for (size_t i = 0; i < b->nopen; i++) {
        open_fault *f = &b->open[i];
        if (!f->live || f->actor != e->actor) continue;
        if (f->id != e->fault_id && !(f->kind == FAULT_GC_PAUSE && e->fault == FAULT_GC_PAUSE)) continue;
        f->live = 0;
        add_fault(b, tl_row_of(b->m, f->actor), f->from, e->t_us, f->text);
    }
}

static void on_event(builder *b, const hist_event *e)
{
    tl_model *m = b->m;
    int row = tl_row_of(m, e->actor);
    switch (e->kind) {
    case H_ACQUIRE:
        if (row >= 0 && b->wait_from[row] < 0 && !b->crashed[row]) b->wait_from[row] = e->t_us;
        break;
    case H_ACQUIRED:
        if (e->a >= 0) add_mark(b, row, TL_TOKEN, e->t_us, e->a);
        /* fall through */
    case H_ACQUIRE_FAILED:
        if (row >= 0 && b->wait_from[row] >= 0) add_span(b, row, TL_WAIT, b->wait_from[row], e->t_us, -1);
        if (row >= 0) b->wait_from[row] = -1;
        break;
    case H_CS_ENTER:
        if (row >= 0 && b->hold_from[row] < 0) b->hold_from[row] = e->t_us;
        break;
    case H_CS_EXIT:
        if (row >= 0 && b->hold_from[row] >= 0) add_span(b, row, TL_HOLD, b->hold_from[row], e->t_us, -1);
        if (row >= 0) b->hold_from[row] = -1;
        break;
    case H_WRITE: add_mark(b, row, e->b ? TL_WRITE_OK : TL_WRITE_REJECTED, e->t_us, e->a); break;
    case H_EXEC:
        if (row >= 0) {
            b->exec_t[row] = e->t_us;
            b->exec_peer[row] = tl_row_of(m, e->peer);
        }
        break;
    case H_KEY_SET:
    case H_KEY_DELETED:
    case H_KEY_EXPIRED:
        if (row >= 0 && m->rows[row].is_node && e->text && !strcmp(e->text, b->lockkey)) on_key(b, e, row);
        break;
    case H_NODE_DOWN:
        if (row < 0) break;
        if (b->down_from[row] < 0) b->down_from[row] = e->t_us;
        close_owned(b, row, e->t_us);
        break;
    case H_NODE_UP:
        if (row < 0) break;
        if (b->down_from[row] >= 0) add_span(b, row, TL_DOWN, b->down_from[row], e->t_us, -1);
        b->down_from[row] = -1;
        for (size_t i = 0; i < b->nopen; i++) /* the crash fault lasts until the restart */
            if (b->open[i].live && b->open[i].actor == e->actor && b->open[i].kind == FAULT_CRASH) {
                b->open[i].live = 0;
                add_fault(b, row, b->open[i].from, e->t_us, b->open[i].text);
            }
        /* Persistence kept the key, as far as the history tells: the owner is back. */
        if (b->owner[row] >= 0 && e->code != 0) b->own_from[row] = e->t_us;
        else b->owner[row] = -1;
        break;
    case H_PROMOTED: add_mark(b, row, TL_PROMOTED, e->t_us, tl_row_of(m, e->peer)); break;
    case H_FAULT:
    case H_FAULT_END: on_fault(b, e, row); break;
    default: break;
    }
}

/* Closes what is still open when the history ends. */
static void finish(builder *b)
{
    tl_model *m = b->m;
    for (int r = 0; r < m->nrows; r++) {
        if (b->wait_from[r] >= 0) add_span(b, r, TL_WAIT, b->wait_from[r], m->end_us, -1);
        if (b->hold_from[r] >= 0) add_span(b, r, TL_HOLD, b->hold_from[r], m->end_us, -1);
        if (b->pause_from[r] >= 0) add_span(b, r, TL_PAUSE, b->pause_from[r], m->end_us, -1);
        if (b->down_from[r] >= 0) add_span(b, r, TL_DOWN, b->down_from[r], m->end_us, -1);
        close_owned(b, r, m->end_us);
    }
    for (size_t i = 0; i < b->nopen; i++) {
        open_fault *f = &b->open[i];
        if (!f->live) continue;
        int lasting = f->kind == FAULT_CRASH || f->kind == FAULT_GC_PAUSE || f->kind == FAULT_PARTITION;
        add_fault(b, tl_row_of(m, f->actor), f->from, lasting ? m->end_us : f->from, f->text);
    }
}

/* Where two clients hold at once, both get an overlap span. */
static void find_overlaps(builder *b)
{
    tl_model *m = b->m;
    size_t n = m->nspans;
    for (size_t i = 0; i < n; i++) {
        const tl_span *x = &m->spans[i];
        if (x->kind != TL_HOLD) continue;
        for (size_t j = 0; j < n; j++) {
            const tl_span y = m->spans[j];
            if (y.kind != TL_HOLD || y.row == x->row) continue;
            int64_t from = x->from_us > y.from_us ? x->from_us : y.from_us, to = x->to_us < y.to_us ? x->to_us : y.to_us;
            if (from < to) add_span(b, m->spans[i].row, TL_OVERLAP, from, to, y.row);
            x = &m->spans[i]; /* add_span may move the array */
        }
    }
}

void tl_build(const history *h, const scenario *sc, tl_model *m)
{
    memset(m, 0, sizeof *m);
    size_t na = history_actors(h);
    m->rows = xcalloc(na ? na : 1, sizeof *m->rows);
    for (int pass = 0; pass < 2; pass++)
        for (size_t a = 0; a < na; a++)
            if (history_actor_is_node(h, (int)a) == pass)
                m->rows[m->nrows++] = (tl_row){ (int)a, pass, history_actor_name(h, (int)a), 0, 0 };
    for (int r = 0; r < m->nrows; r++) {
        tl_row *row = &m->rows[r];
        m->nclients += !row->is_node;
        for (int i = 0; sc && row->is_node && i < sc->nnodes; i++)
            if (!strcmp(sc->nodes[i].name, row->name)) row->drift = sc->nodes[i].clock.drift;
        for (int i = 0; sc && !row->is_node && i < sc->nclients; i++)
            if (!strcmp(sc->clients[i].name, row->name)) row->drift = sc->clients[i].clock.drift;
    }
    assign_symbols(m);
    m->end_us = 1;
    for (size_t i = 0; i < history_len(h); i++)
        if (history_at(h, i)->t_us > m->end_us) m->end_us = history_at(h, i)->t_us;

    builder b = { .m = m, .lockkey = sc && sc->lock ? sc->lock : "lock" };
    size_t nr = (size_t)(m->nrows ? m->nrows : 1);
    int64_t **starts[] = { &b.wait_from, &b.hold_from, &b.pause_from, &b.own_from, &b.down_from, &b.exec_t };
    for (size_t i = 0; i < LL_ARRAY_LEN(starts); i++) {
        *starts[i] = xmalloc(nr * sizeof(int64_t));
        for (size_t r = 0; r < nr; r++) (*starts[i])[r] = -1;
    }
    b.owner = xmalloc(nr * sizeof(int));
    b.exec_peer = xmalloc(nr * sizeof(int));
    b.crashed = xcalloc(nr, sizeof(int));
    for (size_t r = 0; r < nr; r++) b.owner[r] = b.exec_peer[r] = -1;

    for (size_t i = 0; i < history_len(h); i++) on_event(&b, history_at(h, i));
    finish(&b);
    find_overlaps(&b);

    for (size_t i = 0; i < LL_ARRAY_LEN(starts); i++) free(*starts[i]);
    free(b.owner);
    free(b.exec_peer);
    free(b.crashed);
    free(b.open);
    free(b.values);
}

void tl_release(tl_model *m)
{
    free(m->rows);
    free(m->spans);
    free(m->marks);
    free(m->faults);
    memset(m, 0, sizeof *m);
}

/* ---- writing files ---- */

int tl_write_file(const char *path, const buf *content, buf *err, int *io)
{
    if (ll_write_file(path, content->p, content->len, err) == 0) return 0;
    *io = 1;
    return -1;
}
