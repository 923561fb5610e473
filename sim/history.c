/* history.c — see history.h. */
#include "history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct actor {
    char *name;
    int is_node;
} actor;

struct history {
    hist_event *ev;
    size_t n, cap;
    actor *actors;
    size_t nactors, capactors;
};

static const char *const kind_names[H_KIND_COUNT] = {
    [H_START] = "start", [H_REQUEST] = "request", [H_EXEC] = "exec", [H_CALL] = "call",
    [H_REPLY] = "reply", [H_TIMEOUT] = "timeout", [H_DROP] = "drop", [H_PUBLISH] = "publish",
    [H_ACQUIRE] = "acquire", [H_ACQUIRED] = "acquired", [H_ACQUIRE_FAILED] = "acquire_failed",
    [H_RELEASE] = "release", [H_RELEASED] = "released", [H_CS_ENTER] = "cs_enter",
    [H_CS_EXIT] = "cs_exit", [H_WRITE] = "write", [H_KEY_SET] = "key_set",
    [H_KEY_DELETED] = "key_deleted", [H_KEY_EXPIRED] = "key_expired", [H_FAULT] = "fault",
    [H_FAULT_END] = "fault_end", [H_NODE_DOWN] = "node_down", [H_NODE_UP] = "node_up",
    [H_PROMOTED] = "promoted", [H_LOG] = "log", [H_ERROR] = "error", [H_END] = "end", [H_DEMOTED] = "demoted",
    [H_KEYSPACE] = "keyspace",
};

hist_event *history_at_mut(history *h, size_t i)
{
    LL_ASSERT(i < h->n);
    return &h->ev[i];
}

const char *hist_kind_name(hist_kind k)
{
    return k < H_KIND_COUNT && kind_names[k] ? kind_names[k] : "?";
}

history *history_new(void)
{
    return xcalloc(1, sizeof(history));
}

void history_clear(history *h)
{
    for (size_t i = 0; i < h->n; i++) {
        free(h->ev[i].text);
        free(h->ev[i].reply);
    }
    h->n = 0;
}

void history_free(history *h)
{
    if (!h) return;
    history_clear(h);
    free(h->ev);
    for (size_t i = 0; i < h->nactors; i++) free(h->actors[i].name);
    free(h->actors);
    free(h);
}

int history_add_actor(history *h, const char *name, int is_node)
{
    if (h->nactors == h->capactors) {
        h->capactors = h->capactors ? h->capactors * 2 : 8;
        h->actors = xrealloc(h->actors, h->capactors * sizeof *h->actors);
    }
    h->actors[h->nactors] = (actor){ xstrdup(name), is_node };
    return (int)h->nactors++;
}

const char *history_actor_name(const history *h, int a)
{
    return a >= 0 && (size_t)a < h->nactors ? h->actors[a].name : "world";
}

int history_actor_is_node(const history *h, int a)
{
    return a >= 0 && (size_t)a < h->nactors && h->actors[a].is_node;
}

size_t history_actors(const history *h)
{
    return h->nactors;
}

hist_event *history_add(history *h, int64_t t, hist_kind kind, int actor_idx, int64_t local)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 256;
        h->ev = xrealloc(h->ev, h->cap * sizeof *h->ev);
    }
    hist_event *e = &h->ev[h->n++];
    *e = (hist_event){ .t = t, .kind = kind, .actor = actor_idx, .local = local, .peer = -1, .a = -1, .b = -1,
                       .deadline = -1 };
    return e;
}

void history_set_text(hist_event *e, const char *fmt, ...)
{
    buf b;
    buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(e->text);
    e->text = buf_steal(&b);
}

size_t history_len(const history *h)
{
    return h->n;
}

const hist_event *history_at(const history *h, size_t i)
{
    return i < h->n ? &h->ev[i] : NULL;
}

static void json_str(buf *out, const char *s)
{
    buf_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': buf_puts(out, "\\\""); break;
        case '\\': buf_puts(out, "\\\\"); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\r': buf_puts(out, "\\r"); break;
        case '\t': buf_puts(out, "\\t"); break;
        default:
            if (*p < 0x20) buf_printf(out, "\\u%04x", *p);
            else buf_putc(out, (char)*p);
        }
    }
    buf_putc(out, '"');
}

void history_write_jsonl(const history *h, buf *out)
{
    for (size_t i = 0; i < h->n; i++) {
        const hist_event *e = &h->ev[i];
        buf_printf(out, "{\"t\":%lld.%03lld,\"ev\":\"%s\",\"actor\":", (long long)(e->t / 1000),
                   (long long)(e->t % 1000), hist_kind_name(e->kind));
        json_str(out, history_actor_name(h, e->actor));
        buf_printf(out, ",\"local\":%lld", (long long)e->local);
        if (e->peer >= 0) {
            buf_puts(out, ",\"peer\":");
            json_str(out, history_actor_name(h, e->peer));
        }
        if (e->a != -1) buf_printf(out, ",\"a\":%lld", (long long)e->a);
        if (e->b != -1) buf_printf(out, ",\"b\":%lld", (long long)e->b);
        if (e->deadline != -1) buf_printf(out, ",\"deadline\":%lld", (long long)e->deadline);
        if (e->text) {
            buf_puts(out, ",\"text\":");
            json_str(out, e->text);
        }
        if (e->reply) {
            buf_puts(out, ",\"reply\":");
            json_str(out, e->reply);
        }
        buf_puts(out, "}\n");
    }
}
