/* serve_hist.c — the history of `locklab serve` (serveint.h). Each command run, connection,
 * protocol error, and each event of the world (sim/history.h: faults, key changes, nodes
 * going down and up, ...) is one record, kept in memory in a compact binary form — a
 * command's arguments as they came and its reply's RESP bytes as they were sent, a world
 * event's typed fields and strings — and rendered as one JSON line in the schema of
 * docs/history.md by the history's own writer (history_write_event, the one writer of that
 * schema) only when asked: LOCKLAB HISTORY, or --json, which writes every record as it is
 * made. The last --history-max records are kept, within 64 MiB (two generations of 32 MiB).
 *
 * A command's text is MONITOR's rendering ("SET" "k" "v"), each argument cut at 16 KiB (a
 * lock script fits whole) and the text at 64 KiB; a reply is reply_to_brief's form (nil, OK,
 * 3, "v", [..], (error) ...), cut at 4 KiB. Both quote bytes outside printable ASCII, so a
 * binary argument still makes valid JSON. */
#include "serveint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "object.h"

#define SERVE_ARG_MAX ((size_t)16 << 10)
#define SERVE_TEXT_MAX ((size_t)64 << 10)
#define SERVE_BRIEF_MAX ((size_t)4 << 10)
#define SERVE_RESP_KEEP ((size_t)16 << 10) /* a reply's RESP bytes kept: enough for its brief */
#define SERVE_GEN_BYTES ((size_t)32 << 20)

/* A record: this header, then its fields, each a u32 length (SR_NONE: absent) and its bytes. */
enum { SR_EXEC, SR_CONNECT, SR_DISCONNECT, SR_PROTOCOL_ERROR, SR_WORLD };
#define SR_NONE UINT32_MAX
typedef struct srec {
    int64_t t, local;
    int32_t actor;        /* the serve's node (its index), or for SR_WORLD the world's actor */
    int32_t conn;         /* the connection's id, or -1 */
    uint8_t ev;
    uint8_t pad[3];
    uint32_t argc;        /* SR_EXEC: the command's arguments (the stored ones follow, each
                             as two fields: its whole length in 4 bytes, its kept bytes) */
} srec;

/* A world event: its typed fields (strings as fields after it: text, reply, label). */
typedef struct sworld {
    int32_t kind, peer, fault, fault_id, msg, code;
    int64_t a, b, deadline, param;
    double rate;
} sworld;

static const char *const serve_ev_names[] = { "exec", "connect", "disconnect", "protocol_error" };

/* ---- the generations ---- */

void serve_history_init(serve_history *h, size_t max)
{
    memset(h, 0, sizeof *h);
    h->max = max;
}

void serve_history_clear(serve_history *h)
{
    for (int g = 0; g < 2; g++) {
        buf_reset(&h->gen[g].b);
        h->gen[g].n = 0;
    }
}

void serve_history_release(serve_history *h)
{
    for (int g = 0; g < 2; g++) {
        buf_release(&h->gen[g].b);
        free(h->gen[g].off);
    }
    buf_release(&h->line);
    memset(h, 0, sizeof *h);
}

size_t serve_history_count(const serve_history *h)
{
    size_t n = h->gen[0].n + h->gen[1].n;
    return n < h->max ? n : h->max;
}

/* Starts a record in the generation being filled: its offset there. */
static buf *rec_begin(serve_history *h)
{
    serve_hgen *g = &h->gen[h->cur];
    if (g->n >= h->max || g->b.len >= SERVE_GEN_BYTES) { /* full: the older one goes */
        h->cur ^= 1;
        g = &h->gen[h->cur];
        buf_reset(&g->b);
        g->n = 0;
    }
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 1024;
        g->off = xrealloc(g->off, g->cap * sizeof *g->off);
    }
    static const char zeros[8];
    buf_append(&g->b, zeros, (8 - g->b.len % 8) % 8); /* each record 8-aligned */
    g->off[g->n++] = g->b.len;
    return &g->b;
}

static void put_field(buf *b, const void *p, size_t n)
{
    uint32_t len = p ? (uint32_t)n : SR_NONE;
    buf_append(b, (const char *)&len, sizeof len);
    if (p) buf_append(b, p, n);
}

static inline void put_raw(buf *b, const void *p, size_t n)
{
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static inline void put_u32(buf *b, uint32_t v)
{
    put_raw(b, &v, sizeof v);
}

/* Reads a field at *at: its bytes (NULL: absent) and length. */
static const char *get_field(const char *base, size_t *at, size_t *len)
{
    uint32_t n;
    memcpy(&n, base + *at, sizeof n);
    *at += sizeof n;
    if (n == SR_NONE) {
        *len = 0;
        return NULL;
    }
    const char *p = base + *at;
    *at += n;
    *len = n;
    return p;
}

/* ---- rendering ---- */

/* MONITOR's rendering of the stored arguments of an exec record, within SERVE_ARG_MAX and
 * SERVE_TEXT_MAX (arguments past the text's limit were not stored). */
static void render_command(buf *out, const char *base, size_t *at, uint32_t argc, uint32_t stored)
{
    for (uint32_t i = 0; i < argc; i++) {
        if (out->len > SERVE_TEXT_MAX || i >= stored) {
            buf_printf(out, " ... (%d more arguments)", (int)(argc - i));
            return;
        }
        size_t wlen, klen;
        const char *whole = get_field(base, at, &wlen);
        uint32_t len;
        memcpy(&len, whole, sizeof len);
        const char *kept = get_field(base, at, &klen);
        if (i) buf_putc(out, ' ');
        dump_repr(out, kept, klen);
        if (klen < len) buf_printf(out, "... (%u bytes)", len);
    }
}

/* One RESP2 value at *p (before end) as reply_to_brief shows it, cut once out passes `cut`:
 * a long bulk keeps its first SERVE_BRIEF_MAX bytes, an array its first elements. Returns 0
 * when the kept bytes end inside it. */
static int render_resp(buf *out, const char **p, const char *end, size_t cut)
{
    const char *nl = *p < end ? memchr(*p, '\n', (size_t)(end - *p)) : NULL;
    if (!nl) return 0;
    char type = **p;
    const char *body = *p + 1;
    size_t blen = (size_t)(nl - body) - (nl > body && nl[-1] == '\r');
    *p = nl + 1;
    long long n = 0;
    if (type == ':' || type == '$' || type == '*') {
        char tmp[32];
        size_t k = blen < sizeof tmp - 1 ? blen : sizeof tmp - 1;
        memcpy(tmp, body, k);
        tmp[k] = '\0';
        n = strtoll(tmp, NULL, 10);
    }
    switch (type) {
    case '+': buf_append(out, body, blen); return 1;
    case '-': buf_puts(out, "(error) "); buf_append(out, body, blen); return 1;
    case ':': buf_append(out, body, blen); return 1;
    case '$': {
        if (n < 0) {
            buf_puts(out, "nil");
            return 1;
        }
        size_t have = (size_t)(end - *p), len = (size_t)n;
        if (len > SERVE_BRIEF_MAX) {
            size_t k = have < SERVE_BRIEF_MAX ? have : SERVE_BRIEF_MAX;
            dump_repr(out, *p, k);
            buf_printf(out, "... (%zu bytes)", len);
            *p = have >= len + 2 ? *p + len + 2 : end;
            return have >= len + 2;
        }
        if (have < len + 2) return 0;
        dump_repr(out, *p, len);
        *p += len + 2;
        return 1;
    }
    case '*': {
        if (n < 0) {
            buf_puts(out, "nil");
            return 1;
        }
        buf_putc(out, '[');
        for (long long i = 0; i < n; i++) {
            if (i) buf_puts(out, ", ");
            if (out->len > cut || *p >= end) {
                buf_printf(out, "... (%zu more)", (size_t)(n - i));
                break;
            }
            if (!render_resp(out, p, end, cut)) {
                buf_printf(out, "... (%zu more)", (size_t)(n - i - 1));
                break;
            }
        }
        buf_putc(out, ']');
        return 1;
    }
    default: return 0;
    }
}

void serve_history_render(serve *sv, size_t i, buf *out)
{
    const serve_history *h = &sv->hist;
    size_t total = h->gen[0].n + h->gen[1].n, skip = total - serve_history_count(h) + i;
    const serve_hgen *older = &h->gen[h->cur ^ 1], *g = skip < older->n ? older : &h->gen[h->cur];
    size_t idx = g == older ? skip : skip - older->n;
    const char *base = g->b.p;
    size_t at = g->off[idx];
    srec r;
    memcpy(&r, base + at, sizeof r);
    at += sizeof r;
    buf text, brief;
    buf_init(&text);
    buf_init(&brief);
    hist_event e = { .t = r.t, .actor = -1, .local = r.local, .peer = -1, .a = -1, .b = -1, .deadline = -1,
                     .fault = -1, .fault_id = -1, .param = -1, .msg = -1, .code = -1 };
    if (r.ev == SR_WORLD) {
        const history *wh = world_history(sv->w);
        sworld x;
        memcpy(&x, base + at, sizeof x);
        at += sizeof x;
        e.kind = (hist_kind)x.kind, e.peer = x.peer, e.fault = x.fault, e.fault_id = x.fault_id, e.msg = x.msg;
        e.code = x.code, e.a = x.a, e.b = x.b, e.deadline = x.deadline, e.param = x.param, e.rate = x.rate;
        char **strs[3] = { &e.text, &e.reply, &e.label };
        buf parts[3];
        for (int k = 0; k < 3; k++) {
            size_t len;
            const char *p = get_field(base, &at, &len);
            buf_init(&parts[k]);
            if (p) {
                buf_append(&parts[k], p, len);
                buf_putc(&parts[k], '\0');
                *strs[k] = parts[k].p;
            }
        }
        history_write_event(out, &e, hist_kind_name(e.kind), history_actor_name(wh, r.actor),
                            e.peer >= 0 ? history_actor_name(wh, e.peer) : NULL);
        for (int k = 0; k < 3; k++) buf_release(&parts[k]);
        return;
    }
    if (r.ev == SR_EXEC) {
        uint32_t stored;
        memcpy(&stored, base + at, sizeof stored);
        at += sizeof stored;
        render_command(&text, base, &at, r.argc, stored);
    } else {
        size_t len;
        const char *p = get_field(base, &at, &len);
        if (p) buf_append(&text, p, len);
    }
    size_t rlen;
    const char *resp = get_field(base, &at, &rlen);
    if (resp && rlen && resp[0] == 'M') { /* several replies to one command (REPLY_MULTI) */
        const char *q = resp + 1, *end = resp + rlen;
        buf_putc(&brief, '[');
        for (int k = 0; q < end; k++) {
            if (k) buf_puts(&brief, ", ");
            if (brief.len > SERVE_BRIEF_MAX) {
                buf_puts(&brief, "...");
                break;
            }
            if (!render_resp(&brief, &q, end, SERVE_BRIEF_MAX)) break;
        }
        buf_putc(&brief, ']');
    } else if (resp && rlen) {
        const char *q = resp + 1;
        if (!render_resp(&brief, &q, resp + rlen, SERVE_BRIEF_MAX)) buf_puts(&brief, "...");
    }
    e.text = text.len ? text.p : NULL;
    e.reply = resp ? (brief.p ? brief.p : "") : NULL;
    char peer[32];
    if (r.conn >= 0) snprintf(peer, sizeof peer, "c%d", r.conn);
    history_write_event(out, &e, serve_ev_names[r.ev], sv->nodes[r.actor].name, r.conn >= 0 ? peer : NULL);
    buf_release(&text);
    buf_release(&brief);
}

/* --json: the record just made, rendered and written. */
static void serve_json_last(serve *sv)
{
    serve_history *h = &sv->hist;
    buf_reset(&h->line);
    serve_history_render(sv, serve_history_count(h) - 1, &h->line);
    buf_putc(&h->line, '\n');
    if (fwrite(h->line.p, 1, h->line.len, h->json) != h->line.len && !h->json_error) h->json_error = errno ? errno : EIO;
    if (h->line.cap > ((size_t)1 << 20)) buf_release(&h->line);
}

/* ---- recording ---- */

void serve_record(serve *sv, const char *ev, const snode *n, const sclient *c, int argc, const slice *argv,
                  const char *text, const char *resp, size_t resp_len, int multi)
{
    serve_history *h = &sv->hist;
    if (!h->max && !h->json) return;
    size_t max = h->max;
    if (!max) h->max = 1; /* --json alone: the one record it renders */
    int kind = SR_EXEC;
    for (int k = 0; k < 4; k++)
        if (!strcmp(ev, serve_ev_names[k])) kind = k;
    buf *b = rec_begin(h);
    srec r = { .t = serve_true_us(sv), .local = serve_node_clock(n), .actor = n->idx, .conn = c ? c->conn.id : -1,
               .ev = (uint8_t)kind, .argc = (uint32_t)(argc > 0 ? argc : 0) };
    /* the record's size first, then its bytes copied without a check each */
    size_t keep_resp = resp ? (resp_len < SERVE_RESP_KEEP ? resp_len : SERVE_RESP_KEEP) : 0;
    size_t need = sizeof r + 4 + 5 + keep_resp, text_len = 0;
    int nstored = 0;
    if (kind == SR_EXEC) {
        /* the arguments, until their bytes pass the text's limit (the rest are counted) */
        for (size_t bytes = 0; nstored < argc && bytes <= SERVE_TEXT_MAX; nstored++) {
            size_t keep = argv[nstored].len < SERVE_ARG_MAX ? argv[nstored].len : SERVE_ARG_MAX;
            need += 12 + keep;
            bytes += keep + 2;
        }
    } else if (text) {
        text_len = strlen(text);
        need += text_len;
    }
    buf_reserve(b, need); /* the writes below then copy without checking */
    put_raw(b, &r, sizeof r);
    if (kind == SR_EXEC) {
        put_u32(b, (uint32_t)nstored);
        for (int i = 0; i < nstored; i++) { /* each: its whole length (a field of 4 bytes), its kept bytes */
            size_t keep = argv[i].len < SERVE_ARG_MAX ? argv[i].len : SERVE_ARG_MAX;
            put_u32(b, (uint32_t)sizeof(uint32_t));
            put_u32(b, (uint32_t)(argv[i].len < UINT32_MAX ? argv[i].len : UINT32_MAX - 1));
            put_u32(b, (uint32_t)keep);
            if (keep) put_raw(b, argv[i].p, keep);
        }
    } else {
        put_u32(b, text ? (uint32_t)text_len : SR_NONE);
        if (text) put_raw(b, text, text_len);
    }
    if (resp) { /* its kind ('M': several replies, REPLY_MULTI; '1': one), then its bytes */
        put_u32(b, (uint32_t)keep_resp + 1);
        put_raw(b, multi ? "M" : "1", 1);
        if (keep_resp) put_raw(b, resp, keep_resp);
    } else {
        put_u32(b, SR_NONE);
    }
    b->p[b->len] = '\0';
    if (h->json) serve_json_last(sv);
    if (!max) {
        h->max = 0;
        serve_history_clear(h);
    }
}

void serve_history_drain(serve *sv)
{
    const history *wh = world_history(sv->w);
    size_t n = history_len(wh);
    if (!n) return;
    serve_history *h = &sv->hist;
    size_t max = h->max;
    if (h->max || h->json) {
        if (!max) h->max = 1;
        for (size_t i = 0; i < n; i++) {
            const hist_event *e = history_at(wh, i);
            buf *b = rec_begin(h);
            srec r = { .t = e->t, .local = e->local, .actor = e->actor, .conn = -1, .ev = SR_WORLD };
            sworld x = { .kind = e->kind, .peer = e->peer, .fault = e->fault, .fault_id = e->fault_id, .msg = e->msg,
                         .code = e->code, .a = e->a, .b = e->b, .deadline = e->deadline, .param = e->param,
                         .rate = e->rate };
            buf_append(b, (const char *)&r, sizeof r);
            buf_append(b, (const char *)&x, sizeof x);
            put_field(b, e->text, e->text ? strlen(e->text) : 0);
            put_field(b, e->reply, e->reply ? strlen(e->reply) : 0);
            put_field(b, e->label, e->label ? strlen(e->label) : 0);
            if (h->json) serve_json_last(sv);
            if (!max) serve_history_clear(h);
        }
        h->max = max;
    }
    world_forget(sv->w);
}

/* --json before a reply is sent: serveint.h. */
int serve_history_sync(serve_history *h)
{
    if (!h->json) return h->json_error ? -1 : 0; /* (closed after a failure: still nothing answered) */
    if (!h->json_error && fflush(h->json) == 0) {
        long at = ftell(h->json);
        if (at >= 0) h->json_good = at;
        return 0;
    }
    if (!h->json_error) h->json_error = errno ? errno : EIO;
    /* no more records; what reached the file past the last whole one is cut off (after
     * fclose, whose last try at the buffered tail may write part of it) */
    int fd = dup(fileno(h->json));
    fclose(h->json);
    h->json = NULL;
    if (fd >= 0) {
        if (ftruncate(fd, (off_t)h->json_good) != 0) { /* nothing more to do: the error is said */ }
        close(fd);
    }
    return -1;
}
