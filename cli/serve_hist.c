/* serve_hist.c — the history of `locklab serve` (serveint.h). Each command run, connection,
 * protocol error, and each event of the world (sim/history.h: faults, key changes, nodes
 * going down and up, ...) is one record, kept in memory in a compact binary form — a
 * command's arguments as they came and its reply's RESP bytes as they were sent, a world
 * event's typed fields and strings — and rendered as one JSON line in the schema of
 * docs/history.md by the history's own writer (history_write_event, the one writer of that
 * schema) only when asked: LOCKLAB HISTORY, or --json, which writes every record as it is
 * made. The last --history-max records are kept, within 64 MiB, in chunks (serve.h).
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
#define SERVE_HIST_BYTES ((size_t)64 << 20)
#define SERVE_CHUNK_BYTES ((size_t)1 << 20)
#define SERVE_CHUNK_RECS 4096

/* A record, byte by byte (a varint: 7 bits a byte, low first; signed ones zigzagged):
 *   its kind (SR_*), then varints: t and local less its chunk's t0 and local0, actor, conn;
 *   SR_EXEC: argc, the arguments stored, and each stored one: its whole length, then its
 *     first min(length, SERVE_ARG_MAX) bytes;
 *   SR_WORLD: the event's typed fields (varints; rate as its 8 bytes), then text, reply and
 *     label as strings;
 *   the others: the text as a string;
 *   then, but for SR_WORLD, the reply: RK_NONE, RK_OK (+OK), or RK_ONE / RK_MULTI (several
 *     replies to one command: REPLY_MULTI) and its kept RESP bytes, a varint length first.
 * A string: a varint, 0 for absent, else its length + 1, then its bytes. */
enum { SR_EXEC, SR_CONNECT, SR_DISCONNECT, SR_PROTOCOL_ERROR, SR_WORLD };
enum { RK_NONE, RK_ONE, RK_MULTI, RK_OK };

static const char *const serve_ev_names[] = { "exec", "connect", "disconnect", "protocol_error" };

/* ---- the chunks ---- */

void serve_history_init(serve_history *h, size_t max)
{
    memset(h, 0, sizeof *h);
    h->max = max;
}

static void chunk_release(serve_hchunk *k)
{
    free(k->p);
    free(k->off);
}

static void drop_oldest(serve_history *h)
{
    serve_hchunk *k = &h->chunk[0];
    h->total -= k->n;
    h->bytes -= k->len;
    chunk_release(k);
    memmove(h->chunk, h->chunk + 1, --h->nchunk * sizeof *h->chunk);
}

void serve_history_clear(serve_history *h)
{
    while (h->nchunk > 1) drop_oldest(h);
    if (h->nchunk) { /* the newest kept, emptied: --json alone makes and forgets one record at a time */
        h->chunk[0].len = h->chunk[0].n = 0;
        h->total = h->bytes = 0;
    }
}

void serve_history_release(serve_history *h)
{
    for (size_t i = 0; i < h->nchunk; i++) chunk_release(&h->chunk[i]);
    free(h->chunk);
    buf_release(&h->line);
    memset(h, 0, sizeof *h);
}

size_t serve_history_count(const serve_history *h)
{
    return h->total < h->max ? h->total : h->max;
}

/* Room for a record of at most `need` bytes at the end of the chunk being filled (a new one
 * when it is full: the one before trimmed to its size, and the oldest dropped once the rest
 * hold `max` records, or once all pass SERVE_HIST_BYTES); its offset noted. Returns where
 * to write it. */
static char *rec_begin(serve_history *h, size_t need, int64_t t, int64_t local)
{
    serve_hchunk *k = h->nchunk ? &h->chunk[h->nchunk - 1] : NULL;
    size_t per = h->max / 16 < 64 ? 64 : h->max / 16 > SERVE_CHUNK_RECS ? SERVE_CHUNK_RECS : h->max / 16;
    if (!k || (k->n && (k->n >= per || k->len + need > SERVE_CHUNK_BYTES))) {
        if (k) { /* trimmed: no room left unused in a chunk kept */
            k->p = xrealloc(k->p, k->len ? k->len : 1);
            k->cap = k->len;
            k->off = xrealloc(k->off, (k->n ? k->n : 1) * sizeof *k->off);
            k->ncap = k->n;
        }
        if (h->nchunk == h->chunk_cap) {
            h->chunk_cap = h->chunk_cap ? h->chunk_cap * 2 : 8;
            h->chunk = xrealloc(h->chunk, h->chunk_cap * sizeof *h->chunk);
        }
        k = &h->chunk[h->nchunk++];
        memset(k, 0, sizeof *k);
    }
    if (!k->n) k->t0 = t, k->local0 = local;
    if (k->len + need > k->cap) {
        size_t cap = k->cap ? k->cap : 4096;
        while (cap < k->len + need) cap *= 2;
        k->p = xrealloc(k->p, cap);
        k->cap = cap;
    }
    if (k->n == k->ncap) {
        k->ncap = k->ncap ? k->ncap * 2 : 64;
        k->off = xrealloc(k->off, k->ncap * sizeof *k->off);
    }
    LL_ASSERT(k->len <= UINT32_MAX);
    k->off[k->n++] = (uint32_t)k->len;
    h->total++;
    while (h->nchunk > 1 && (h->total - h->chunk[0].n >= h->max || h->bytes > SERVE_HIST_BYTES)) {
        drop_oldest(h);
        k = &h->chunk[h->nchunk - 1];
    }
    return k->p + k->len;
}

/* The record begun at its chunk's end is `len` bytes. */
static void rec_end(serve_history *h, size_t len)
{
    h->chunk[h->nchunk - 1].len += len;
    h->bytes += len;
}

static inline char *put_var(char *w, uint64_t v)
{
    while (v >= 0x80) {
        *w++ = (char)(v | 0x80);
        v >>= 7;
    }
    *w++ = (char)v;
    return w;
}

static inline char *put_svar(char *w, int64_t v)
{
    return put_var(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline char *put_bytes(char *w, const void *p, size_t n)
{
    if (n) memcpy(w, p, n);
    return w + n;
}

/* A string (NULL: absent). */
static inline char *put_str(char *w, const char *p, size_t n)
{
    w = put_var(w, p ? n + 1 : 0);
    return p ? put_bytes(w, p, n) : w;
}

static inline uint64_t get_var(const char **r)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        unsigned char c = (unsigned char)*(*r)++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) return v;
    }
}

static inline int64_t get_svar(const char **r)
{
    uint64_t v = get_var(r);
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* A string: its bytes (NULL: absent) and length. */
static const char *get_str(const char **r, size_t *len)
{
    uint64_t n = get_var(r);
    *len = n ? (size_t)n - 1 : 0;
    if (!n) return NULL;
    const char *p = *r;
    *r += *len;
    return p;
}

/* ---- rendering ---- */

/* MONITOR's rendering of the stored arguments of an exec record, within SERVE_ARG_MAX and
 * SERVE_TEXT_MAX (arguments past the text's limit were not stored). */
static void render_command(buf *out, const char **r, uint64_t argc, uint64_t stored)
{
    for (uint64_t i = 0; i < argc; i++) {
        if (out->len > SERVE_TEXT_MAX || i >= stored) {
            buf_printf(out, " ... (%llu more arguments)", (unsigned long long)(argc - i));
            return;
        }
        uint64_t len = get_var(r);
        size_t keep = len < SERVE_ARG_MAX ? (size_t)len : SERVE_ARG_MAX;
        if (i) buf_putc(out, ' ');
        dump_repr(out, *r, keep);
        *r += keep;
        if (keep < len) buf_printf(out, "... (%llu bytes)", (unsigned long long)len);
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
    size_t skip = h->total - serve_history_count(h) + i, c = 0;
    while (skip >= h->chunk[c].n) skip -= h->chunk[c++].n;
    const serve_hchunk *k = &h->chunk[c];
    const char *r = k->p + k->off[skip];
    int ev = (unsigned char)*r++;
    int64_t t = k->t0 + get_svar(&r), local = k->local0 + get_svar(&r);
    int actor = (int)get_svar(&r), conn_id = (int)get_svar(&r);
    buf text, brief;
    buf_init(&text);
    buf_init(&brief);
    hist_event e = { .t_us = t, .actor = -1, .local_ms = local, .peer = -1, .a = -1, .b = -1, .deadline_ms = -1,
                     .fault = -1, .fault_id = -1, .param_ms = -1, .msg = -1, .code = -1 };
    if (ev == SR_WORLD) {
        const history *wh = world_history(sv->w);
        e.kind = (hist_kind)get_svar(&r), e.peer = (int)get_svar(&r), e.fault = (int)get_svar(&r);
        e.fault_id = (int)get_svar(&r), e.msg = (int)get_svar(&r), e.code = (int)get_svar(&r);
        e.a = get_svar(&r), e.b = get_svar(&r), e.deadline_ms = get_svar(&r), e.param_ms = get_svar(&r);
        memcpy(&e.rate, r, sizeof e.rate);
        r += sizeof e.rate;
        char **strs[3] = { &e.text, &e.reply, &e.label };
        buf parts[3];
        for (int j = 0; j < 3; j++) {
            size_t len;
            const char *p = get_str(&r, &len);
            buf_init(&parts[j]);
            if (p) {
                buf_append(&parts[j], p, len);
                buf_putc(&parts[j], '\0');
                *strs[j] = parts[j].p;
            }
        }
        history_write_event(out, &e, hist_kind_name(e.kind), history_actor_name(wh, actor),
                            e.peer >= 0 ? history_actor_name(wh, e.peer) : NULL);
        for (int j = 0; j < 3; j++) buf_release(&parts[j]);
        return;
    }
    if (ev == SR_EXEC) {
        uint64_t argc = get_var(&r), stored = get_var(&r);
        render_command(&text, &r, argc, stored);
    } else {
        size_t len;
        const char *p = get_str(&r, &len);
        if (p) buf_append(&text, p, len);
    }
    int rk = (unsigned char)*r++;
    size_t rlen = 0;
    const char *resp = rk == RK_OK ? "+OK\r\n" : NULL;
    if (rk == RK_OK) rlen = 5;
    if (rk == RK_ONE || rk == RK_MULTI) {
        rlen = (size_t)get_var(&r);
        resp = r;
    }
    if (rk == RK_MULTI) {
        const char *q = resp, *end = resp + rlen;
        buf_putc(&brief, '[');
        for (int j = 0; q < end; j++) {
            if (j) buf_puts(&brief, ", ");
            if (brief.len > SERVE_BRIEF_MAX) {
                buf_puts(&brief, "...");
                break;
            }
            if (!render_resp(&brief, &q, end, SERVE_BRIEF_MAX)) break;
        }
        buf_putc(&brief, ']');
    } else if (rlen) {
        const char *q = resp;
        if (!render_resp(&brief, &q, resp + rlen, SERVE_BRIEF_MAX)) buf_puts(&brief, "...");
    }
    e.text = text.len ? text.p : NULL;
    e.reply = rk != RK_NONE ? (brief.p ? brief.p : "") : NULL;
    char peer[32];
    if (conn_id >= 0) snprintf(peer, sizeof peer, "c%d", conn_id);
    history_write_event(out, &e, serve_ev_names[ev], sv->nodes[actor].name, conn_id >= 0 ? peer : NULL);
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
    /* the record's size at most first, then its bytes written without a check each */
    size_t keep_resp = resp ? (resp_len < SERVE_RESP_KEEP ? resp_len : SERVE_RESP_KEEP) : 0;
    size_t need = 1 + 4 * 10 + 1 + 10 + keep_resp, text_len = 0;
    int nstored = 0;
    if (kind == SR_EXEC) {
        /* the arguments, until their bytes pass the text's limit (the rest are counted) */
        need += 20;
        for (size_t bytes = 0; nstored < argc && bytes <= SERVE_TEXT_MAX; nstored++) {
            size_t keep = argv[nstored].len < SERVE_ARG_MAX ? argv[nstored].len : SERVE_ARG_MAX;
            need += 10 + keep;
            bytes += keep + 2;
        }
    } else if (text) {
        text_len = strlen(text);
        need += 10 + text_len;
    } else {
        need += 1;
    }
    int64_t t = serve_true_us(sv), local = serve_node_clock(n);
    char *w0 = rec_begin(h, need, t, local), *w = w0;
    const serve_hchunk *k = &h->chunk[h->nchunk - 1];
    *w++ = (char)kind;
    w = put_svar(w, t - k->t0);
    w = put_svar(w, local - k->local0);
    w = put_svar(w, n->idx);
    w = put_svar(w, c ? c->conn.id : -1);
    if (kind == SR_EXEC) {
        w = put_var(w, (uint64_t)(argc > 0 ? argc : 0));
        w = put_var(w, (uint64_t)nstored);
        for (int i = 0; i < nstored; i++) {
            size_t keep = argv[i].len < SERVE_ARG_MAX ? argv[i].len : SERVE_ARG_MAX;
            w = put_var(w, argv[i].len);
            w = put_bytes(w, argv[i].p, keep);
        }
    } else {
        w = put_str(w, text, text_len);
    }
    if (!resp) {
        *w++ = RK_NONE;
    } else if (!multi && resp_len == 5 && !memcmp(resp, "+OK\r\n", 5)) {
        *w++ = RK_OK;
    } else {
        *w++ = multi ? RK_MULTI : RK_ONE;
        w = put_var(w, keep_resp);
        w = put_bytes(w, resp, keep_resp);
    }
    LL_ASSERT((size_t)(w - w0) <= need);
    rec_end(h, (size_t)(w - w0));
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
            size_t lens[3] = { e->text ? strlen(e->text) : 0, e->reply ? strlen(e->reply) : 0,
                               e->label ? strlen(e->label) : 0 };
            size_t need = 1 + 14 * 10 + sizeof e->rate + 30 + lens[0] + lens[1] + lens[2];
            char *w0 = rec_begin(h, need, e->t_us, e->local_ms), *w = w0;
            const serve_hchunk *k = &h->chunk[h->nchunk - 1];
            *w++ = SR_WORLD;
            w = put_svar(w, e->t_us - k->t0);
            w = put_svar(w, e->local_ms - k->local0);
            w = put_svar(w, e->actor);
            w = put_svar(w, -1);
            const int64_t fields[] = { e->kind, e->peer, e->fault, e->fault_id, e->msg, e->code, e->a, e->b,
                                       e->deadline_ms, e->param_ms };
            for (size_t f = 0; f < LL_ARRAY_LEN(fields); f++) w = put_svar(w, fields[f]);
            w = put_bytes(w, &e->rate, sizeof e->rate);
            w = put_str(w, e->text, lens[0]);
            w = put_str(w, e->reply, lens[1]);
            w = put_str(w, e->label, lens[2]);
            LL_ASSERT((size_t)(w - w0) <= need);
            rec_end(h, (size_t)(w - w0));
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
