/* reply.c — see reply.h. The redis-cli rendering follows cliFormatReplyTTY: an array prints
 * "i) " before each element, with the index right-aligned to the width of the largest index,
 * and nested arrays indented by that width plus two. */
#include "reply.h"

#include "object.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* reply_ok's text, shared by every OK reply and never freed (nothing writes into a status
 * reply's text; reply_copy duplicates it like any other). */
static char ok_text[] = "OK";

void reply_init(reply *r)
{
    *r = (reply){ .type = REPLY_NIL };
}

/* Whether r owns anything reply_release must free. Most replies a setter overwrites own
 * nothing (nil, integer, OK), so the setters test this inline and leave the freeing to an
 * out-of-line path: then their common case needs no stack frame. */
static inline int is_aggregate(reply_type t)
{
    return t >= REPLY_ARRAY && t <= REPLY_PUSH;
}

static inline int owns_memory(const reply *r)
{
    return is_aggregate(r->type) || (r->str && r->str != ok_text);
}

/* reply_release for the aggregates. */
static __attribute__((noinline)) void release_elems(reply *r)
{
    for (size_t i = 0; i < r->n; i++) reply_release(&r->elem[i]);
    free(r->elem);
    reply_init(r);
}

void reply_release(reply *r)
{
    if (is_aggregate(r->type)) {
        release_elems(r);
        return;
    }
    /* Clear first, free last: the common case is a few stores and a tail call. */
    char *str = r->str;
    reply_init(r);
    if (str && str != ok_text) free(str);
}

/* Makes r a reply of type t holding integer, or str (taken) and len; never an array. */
static inline void fill(reply *r, reply_type t, long long integer, char *str, size_t len)
{
    r->type = t;
    r->integer = integer;
    r->str = str;
    r->len = len;
    r->elem = NULL;
    r->n = 0;
}

/* The setters' slow path: release r, then fill it. */
static __attribute__((noinline)) void refill(reply *r, reply_type t, long long integer,
                                             char *str, size_t len)
{
    reply_release(r);
    fill(r, t, integer, str, len);
}

/* fill(), releasing what r held first; a tail call when r owns memory. */
static inline void set(reply *r, reply_type t, long long integer, char *str, size_t len)
{
    if (owns_memory(r)) refill(r, t, integer, str, len);
    else fill(r, t, integer, str, len);
}

void reply_nil(reply *r)
{
    reply_release(r);
}

void reply_nil_array(reply *r)
{
    set(r, REPLY_NIL_ARRAY, 0, NULL, 0);
}

void reply_int(reply *r, long long v)
{
    set(r, REPLY_INTEGER, v, NULL, 0);
}

void reply_bool(reply *r, int v)
{
    set(r, REPLY_BOOL, v != 0, NULL, 0);
}

static void reply_set_str(reply *r, reply_type t, const char *p, size_t len)
{
    set(r, t, 0, xmemdup(p, len), len);
}

void reply_raw(reply *r, const char *p, size_t len)
{
    reply_set_str(r, REPLY_RAW, p, len);
}

void reply_status_len(reply *r, const char *p, size_t len)
{
    reply_set_str(r, REPLY_STATUS, p, len);
}

void reply_status(reply *r, const char *s)
{
    reply_set_str(r, REPLY_STATUS, s, strlen(s));
}

void reply_ok(reply *r)
{
    set(r, REPLY_STATUS, 0, ok_text, 2);
}

void reply_error(reply *r, const char *s)
{
    reply_set_str(r, REPLY_ERROR, s, strlen(s));
}

void reply_errorf(reply *r, const char *fmt, ...)
{
    buf b;
    buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    /* As Redis's addReplyErrorFormat: the text may quote a client's argument, and an error
     * reply is one protocol line, so trailing CR/LF are trimmed and inner ones become
     * spaces ("Unsupported option a\nb" reads "... a b"). */
    while (b.len && (b.p[b.len - 1] == '\r' || b.p[b.len - 1] == '\n')) b.p[--b.len] = '\0';
    for (size_t i = 0; i < b.len; i++)
        if (b.p[i] == '\r' || b.p[i] == '\n') b.p[i] = ' ';
    reply_release(r);
    r->type = REPLY_ERROR;
    r->len = b.len;
    r->str = buf_steal(&b);
}

void reply_bulk(reply *r, const char *p, size_t len)
{
    reply_set_str(r, REPLY_BULK, p, len);
}

void reply_bulk_cstr(reply *r, const char *s)
{
    reply_bulk(r, s, strlen(s));
}

void reply_bulk_take(reply *r, char *p, size_t len)
{
    reply_release(r);
    r->type = REPLY_BULK;
    r->str = p;
    r->len = len;
}

void reply_double(reply *r, double d)
{
    char tmp[64];
    int n = ll_format_double(tmp, sizeof tmp, d);
    reply_bulk(r, tmp, (size_t)n);
    r->integer = R3_DOUBLE;
}

reply *reply_array(reply *r, size_t n)
{
    reply_release(r);
    r->type = REPLY_ARRAY;
    r->n = n;
    r->elem = n ? xcalloc(n, sizeof(reply)) : NULL;
    for (size_t i = 0; i < n; i++) r->elem[i].type = REPLY_NIL;
    return r->elem;
}

reply *reply_multi(reply *r, size_t n)
{
    reply *e = reply_array(r, n);
    r->type = REPLY_MULTI;
    return e;
}

void reply_move(reply *dst, reply *src)
{
    if (dst == src) return;
    reply_release(dst);
    *dst = *src;
    reply_init(src);
}

void reply_copy(reply *dst, const reply *src)
{
    reply_release(dst);
    switch (src->type) {
    case REPLY_ARRAY:
    case REPLY_MULTI:
    case REPLY_MAP:
    case REPLY_SET:
    case REPLY_PUSH: {
        reply *e = reply_array(dst, src->n);
        dst->type = src->type;
        dst->integer = src->integer;
        for (size_t i = 0; i < src->n; i++) reply_copy(&e[i], &src->elem[i]);
        break;
    }
    case REPLY_STATUS:
    case REPLY_ERROR:
    case REPLY_BULK:
    case REPLY_DOUBLE:
    case REPLY_RAW:
        reply_set_str(dst, src->type, src->str, src->len);
        dst->integer = src->integer;
        break;
    default:
        *dst = *src;
        break;
    }
}

int reply_equal(const reply *a, const reply *b)
{
    if (a->type != b->type) return 0;
    switch (a->type) {
    case REPLY_INTEGER:
    case REPLY_BOOL: return a->integer == b->integer;
    case REPLY_STATUS:
    case REPLY_ERROR:
    case REPLY_BULK:
    case REPLY_DOUBLE:
    case REPLY_RAW: return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
    case REPLY_ARRAY:
    case REPLY_MULTI:
    case REPLY_MAP:
    case REPLY_SET:
    case REPLY_PUSH:
        if (a->n != b->n) return 0;
        for (size_t i = 0; i < a->n; i++)
            if (!reply_equal(&a->elem[i], &b->elem[i])) return 0;
        return 1;
    default: return 1;
    }
}

int reply_is_error(const reply *r)
{
    return r->type == REPLY_ERROR;
}

/* ":<v>\r\n", "$<len>\r\n": the commonest headers, written without a printf (an APPEND's
 * reply spent more in vsnprintf than in the command). */
static void put_header(buf *out, char type, long long v)
{
    char tmp[32];
    tmp[0] = type;
    int n = 1 + ll_format_int64(tmp + 1, v);
    tmp[n++] = '\r', tmp[n++] = '\n';
    buf_append(out, tmp, (size_t)n);
}

void reply_to_resp(const reply *r, buf *out)
{
    switch (r->type) {
    case REPLY_NIL: buf_puts(out, "$-1\r\n"); break;
    case REPLY_NIL_ARRAY: buf_puts(out, "*-1\r\n"); break;
    case REPLY_STATUS: buf_printf(out, "+%s\r\n", r->str); break;
    case REPLY_ERROR: buf_printf(out, "-%s\r\n", r->str); break;
    case REPLY_INTEGER: put_header(out, ':', r->integer); break;
    case REPLY_BULK:
        put_header(out, '$', (long long)r->len);
        buf_append(out, r->str, r->len);
        buf_puts(out, "\r\n");
        break;
    case REPLY_ARRAY:
    case REPLY_SET:
    case REPLY_PUSH:
    case REPLY_MAP:
        if (r->type == REPLY_MAP) buf_printf(out, "%%%zu\r\n", r->n / 2);
        else buf_printf(out, "%c%zu\r\n", r->type == REPLY_ARRAY ? '*' : r->type == REPLY_SET ? '~' : '>', r->n);
        for (size_t i = 0; i < r->n; i++) reply_to_resp(&r->elem[i], out);
        break;
    case REPLY_MULTI:
        for (size_t i = 0; i < r->n; i++) reply_to_resp(&r->elem[i], out);
        break;
    case REPLY_DOUBLE: buf_printf(out, ",%s\r\n", r->str); break;
    case REPLY_NULL: buf_puts(out, "_\r\n"); break;
    case REPLY_BOOL: buf_puts(out, r->integer ? "#t\r\n" : "#f\r\n"); break;
    case REPLY_RAW: buf_append(out, r->str, r->len); break;
    }
}

void reply_resp3(reply *r)
{
    switch (r->type) {
    case REPLY_NIL:
    case REPLY_NIL_ARRAY: r->type = REPLY_NULL; return;
    case REPLY_BULK:
        if (r->integer == R3_DOUBLE) r->type = REPLY_DOUBLE;
        return;
    case REPLY_ARRAY:
        if (r->integer == R3_PAIRS && r->n % 2 == 0) {
            reply *pairs = r->n ? xcalloc(r->n / 2, sizeof *pairs) : NULL;
            for (size_t i = 0; i < r->n / 2; i++) {
                pairs[i].type = REPLY_ARRAY;
                pairs[i].n = 2;
                pairs[i].elem = xmalloc(2 * sizeof(reply));
                pairs[i].elem[0] = r->elem[2 * i];
                pairs[i].elem[1] = r->elem[2 * i + 1];
            }
            free(r->elem);
            r->elem = pairs;
            r->n /= 2;
        }
        if (r->integer == R3_MAP && r->n % 2 == 0) r->type = REPLY_MAP;
        else if (r->integer == R3_SET) r->type = REPLY_SET;
        else if (r->integer == R3_PUSH) r->type = REPLY_PUSH;
        r->integer = 0;
        for (size_t i = 0; i < r->n; i++) reply_resp3(&r->elem[i]);
        return;
    case REPLY_MULTI:
        for (size_t i = 0; i < r->n; i++) reply_resp3(&r->elem[i]);
        return;
    default: return;
    }
}

static void to_cli(const reply *r, const char *prefix, buf *out)
{
    switch (r->type) {
    case REPLY_NIL:
    case REPLY_NULL:
    case REPLY_NIL_ARRAY: buf_puts(out, "(nil)\n"); break;
    case REPLY_DOUBLE: buf_printf(out, "(double) %s\n", r->str); break;
    case REPLY_BOOL: buf_puts(out, r->integer ? "(true)\n" : "(false)\n"); break;
    case REPLY_RAW: buf_append(out, r->str, r->len); break;
    case REPLY_MAP: {
        /* redis-cli: "1# key => value", the value indented past the arrow */
        if (r->n == 0) {
            buf_puts(out, "(empty hash)\n");
            break;
        }
        size_t n = r->n / 2;
        int width = 0;
        for (size_t i = n; ; i /= 10) {
            width++;
            if (i < 10) break;
        }
        for (size_t i = 0; i < n; i++) {
            buf_printf(out, "%s%*zu# ", i == 0 ? "" : prefix, width, i + 1);
            buf key;
            buf_init(&key);
            to_cli(&r->elem[2 * i], "", &key);
            if (key.len && key.p[key.len - 1] == '\n') key.len--;
            buf_append(out, key.p ? key.p : "", key.len);
            buf_puts(out, " => ");
            buf inner;
            buf_init(&inner);
            buf_puts(&inner, prefix);
            for (size_t k = 0; k < (size_t)width + 2 + key.len + 4; k++) buf_putc(&inner, ' ');
            to_cli(&r->elem[2 * i + 1], inner.p, out);
            buf_release(&inner);
            buf_release(&key);
        }
        break;
    }
    case REPLY_STATUS: buf_append(out, r->str, r->len); buf_putc(out, '\n'); break;
    case REPLY_ERROR: buf_puts(out, "(error) "); buf_append(out, r->str, r->len); buf_putc(out, '\n'); break;
    case REPLY_INTEGER: buf_printf(out, "(integer) %lld\n", r->integer); break;
    case REPLY_BULK: dump_repr(out, r->str, r->len); buf_putc(out, '\n'); break;
    case REPLY_SET:
    case REPLY_PUSH:
    case REPLY_ARRAY: {
        if (r->n == 0) {
            buf_puts(out, r->type == REPLY_SET ? "(empty set)\n" : "(empty array)\n");
            break;
        }
        int width = 0;
        for (size_t i = r->n; ; i /= 10) {
            width++;
            if (i < 10) break;
        }
        buf inner;
        buf_init(&inner);
        buf_puts(&inner, prefix);
        for (int i = 0; i < width + 2; i++) buf_putc(&inner, ' ');
        for (size_t i = 0; i < r->n; i++) {
            buf_printf(out, "%s%*zu%s ", i == 0 ? "" : prefix, width, i + 1, r->type == REPLY_SET ? "~" : ")");
            to_cli(&r->elem[i], inner.p, out);
        }
        buf_release(&inner);
        break;
    }
    case REPLY_MULTI:
        for (size_t i = 0; i < r->n; i++) to_cli(&r->elem[i], prefix, out);
        break;
    }
}

void reply_to_cli(const reply *r, buf *out)
{
    to_cli(r, "", out);
}

void reply_to_brief(const reply *r, buf *out)
{
    switch (r->type) {
    case REPLY_NULL:
    case REPLY_NIL: buf_puts(out, "nil"); break;
    case REPLY_DOUBLE:
    case REPLY_RAW: buf_append(out, r->str, r->len); break;
    case REPLY_NIL_ARRAY: buf_puts(out, "nil"); break;
    case REPLY_STATUS: buf_append(out, r->str, r->len); break;
    case REPLY_ERROR: buf_puts(out, "(error) "); buf_append(out, r->str, r->len); break;
    case REPLY_INTEGER: buf_printf(out, "%lld", r->integer); break;
    case REPLY_BOOL: buf_puts(out, r->integer ? "true" : "false"); break;
    case REPLY_BULK: dump_repr(out, r->str, r->len); break;
    case REPLY_MULTI:
    case REPLY_ARRAY:
    case REPLY_MAP:
    case REPLY_SET:
    case REPLY_PUSH:
        buf_putc(out, '[');
        for (size_t i = 0; i < r->n; i++) {
            if (i) buf_puts(out, ", ");
            reply_to_brief(&r->elem[i], out);
        }
        buf_putc(out, ']');
        break;
    }
}
