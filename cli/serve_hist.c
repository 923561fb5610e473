/* serve_hist.c — the history of `locklab serve` (serve.h). Each command run, connection,
 * protocol error and fault is one JSON line in the schema of docs/history.md ("t" true ms
 * with µs, "ev", "actor" the node, "local" its clock, "peer" the connection as "c<id>",
 * "text", "reply"), written by the history's own writer (history_write_event, the one
 * writer of that schema) to --json as it happens and kept in memory, the last
 * --history-max of them within 64 MiB, for LOCKLAB HISTORY. A command's text is MONITOR's
 * rendering ("SET" "k" "v"), each argument cut at 16 KiB (a lock script fits whole) and the
 * text at 64 KiB; a reply is reply_to_brief's form, cut at 4 KiB. Both quote bytes outside
 * printable ASCII, so a binary argument still makes valid JSON. */
#include "serve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object.h"

#define SERVE_ARG_MAX ((size_t)16 << 10)
#define SERVE_TEXT_MAX ((size_t)64 << 10)
#define SERVE_BRIEF_MAX ((size_t)4 << 10)
#define SERVE_HISTORY_BYTES ((size_t)64 << 20)

void serve_history_init(serve_history *h, size_t max)
{
    memset(h, 0, sizeof *h);
    h->cap = max;
    if (max) {
        h->line = xcalloc(max, sizeof *h->line);
        h->len = xcalloc(max, sizeof *h->len);
    }
}

void serve_history_clear(serve_history *h)
{
    for (size_t i = 0; i < h->cap; i++) {
        free(h->line[i]);
        h->line[i] = NULL;
    }
    h->n = h->head = h->bytes = 0;
}

void serve_history_release(serve_history *h)
{
    if (h->cap) serve_history_clear(h);
    free(h->line);
    free(h->len);
    memset(h, 0, sizeof *h);
}

size_t serve_history_slot(const serve_history *h, size_t i)
{
    return (h->head + h->cap - h->n + i) % h->cap;
}

static void serve_history_push(serve_history *h, const char *p, size_t n)
{
    if (!h->cap) return;
    while (h->n && (h->n == h->cap || h->bytes + n > SERVE_HISTORY_BYTES)) {
        size_t old = serve_history_slot(h, 0);
        h->bytes -= h->len[old];
        free(h->line[old]);
        h->line[old] = NULL;
        h->n--;
    }
    h->line[h->head] = xmemdup(p, n);
    h->len[h->head] = n;
    h->bytes += n;
    h->head = (h->head + 1) % h->cap;
    h->n++;
}

/* MONITOR's rendering of a command, within SERVE_ARG_MAX and SERVE_TEXT_MAX. */
static void serve_command_text(buf *out, int argc, const slice *argv)
{
    for (int i = 0; i < argc; i++) {
        if (out->len > SERVE_TEXT_MAX) {
            buf_printf(out, " ... (%d more arguments)", argc - i);
            return;
        }
        if (i) buf_putc(out, ' ');
        size_t n = argv[i].len < SERVE_ARG_MAX ? argv[i].len : SERVE_ARG_MAX;
        dump_repr(out, argv[i].p, n);
        if (n < argv[i].len) buf_printf(out, "... (%zu bytes)", argv[i].len);
    }
}

/* A reply as the history shows it (reply_to_brief's form), cut once out passes `end`
 * bytes: a long bulk keeps its first SERVE_BRIEF_MAX bytes, an array its first elements. */
static void serve_brief(buf *out, const reply *r, size_t end)
{
    if (r->type == REPLY_ARRAY || r->type == REPLY_MULTI) {
        buf_putc(out, '[');
        for (size_t i = 0; i < r->n; i++) {
            if (i) buf_puts(out, ", ");
            if (out->len > end) {
                buf_printf(out, "... (%zu more)", r->n - i);
                break;
            }
            serve_brief(out, &r->elem[i], end);
        }
        buf_putc(out, ']');
    } else if (r->type == REPLY_BULK && r->len > SERVE_BRIEF_MAX) {
        dump_repr(out, r->str, SERVE_BRIEF_MAX);
        buf_printf(out, "... (%zu bytes)", r->len);
    } else {
        reply_to_brief(r, out);
    }
}

void serve_record(serve *sv, const char *ev, const snode *n, const sclient *c, int argc,
                  const slice *argv, const char *text, const reply *rep)
{
    serve_history *h = &sv->hist;
    if (!h->cap && !h->json) return;
    buf line, tmp, brief;
    buf_init(&line);
    buf_init(&tmp);
    buf_init(&brief);
    if (argc) serve_command_text(&tmp, argc, argv);
    else if (text) buf_puts(&tmp, text);
    if (rep) serve_brief(&brief, rep, SERVE_BRIEF_MAX);
    char peer[32];
    if (c) snprintf(peer, sizeof peer, "c%d", c->conn.id);
    hist_event e = { .t = serve_true_us(sv), .actor = -1, .local = serve_node_clock(n), .peer = -1, .a = -1,
                     .b = -1, .deadline = -1, .fault = -1, .fault_id = -1, .param = -1, .msg = -1, .code = -1,
                     .text = tmp.len ? tmp.p : NULL, .reply = rep ? (brief.p ? brief.p : "") : NULL };
    history_write_event(&line, &e, ev, n->name, c ? peer : NULL);
    serve_history_push(h, line.p, line.len);
    if (h->json) {
        buf_putc(&line, '\n');
        if (fwrite(line.p, 1, line.len, h->json) != line.len && !h->json_error) h->json_error = errno ? errno : EIO;
    }
    buf_release(&line);
    buf_release(&tmp);
    buf_release(&brief);
}

void serve_history_drain(serve *sv)
{
    const history *wh = world_history(sv->w);
    size_t n = history_len(wh);
    if (!n) return;
    serve_history *h = &sv->hist;
    if (h->cap || h->json) {
        buf line;
        buf_init(&line);
        for (size_t i = 0; i < n; i++) {
            const hist_event *e = history_at(wh, i);
            buf_reset(&line);
            history_write_event(&line, e, hist_kind_name(e->kind), history_actor_name(wh, e->actor),
                                e->peer >= 0 ? history_actor_name(wh, e->peer) : NULL);
            serve_history_push(h, line.p, line.len);
            if (h->json) {
                buf_putc(&line, '\n');
                if (fwrite(line.p, 1, line.len, h->json) != line.len && !h->json_error) h->json_error = errno ? errno : EIO;
            }
        }
        buf_release(&line);
    }
    world_forget(sv->w);
}
