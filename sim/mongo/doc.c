/* doc.c — documents and values of the fake MongoDB (doc.h): building, copying, comparing,
 * and the Extended JSON reader and writer that requests and replies travel in. */
#include "doc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- documents ---- */

ddoc *doc_new(void)
{
    return xcalloc(1, sizeof(ddoc));
}

void dval_release(dval *v)
{
    if (v->t == D_STR) free(v->s);
    if (v->t == D_DOC || v->t == D_ARRAY) doc_free(v->d);
    memset(v, 0, sizeof *v);
}

void doc_free(ddoc *d)
{
    if (!d) return;
    for (int i = 0; i < d->n; i++) {
        free(d->f[i].name);
        dval_release(&d->f[i].v);
    }
    free(d->f);
    free(d);
}

void dval_copy(dval *dst, const dval *src)
{
    *dst = *src;
    if (src->t == D_STR) dst->s = xmemdup(src->s, src->len);
    if (src->t == D_DOC || src->t == D_ARRAY) dst->d = doc_clone(src->d);
}

ddoc *doc_clone(const ddoc *d)
{
    ddoc *c = doc_new();
    for (int i = 0; d && i < d->n; i++) {
        dval v;
        dval_copy(&v, &d->f[i].v);
        doc_put(c, d->f[i].name, v);
    }
    return c;
}

const dval *doc_get(const ddoc *d, const char *name)
{
    for (int i = 0; d && i < d->n; i++)
        if (!strcmp(d->f[i].name, name)) return &d->f[i].v;
    return NULL;
}

void doc_put(ddoc *d, const char *name, dval v)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 4;
        d->f = xrealloc(d->f, (size_t)d->cap * sizeof *d->f);
    }
    d->f[d->n].name = xstrdup(name);
    d->f[d->n].v = v;
    d->n++;
}

void doc_set(ddoc *d, const char *name, const dval *v)
{
    dval c;
    dval_copy(&c, v);
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->f[i].name, name)) {
            dval_release(&d->f[i].v);
            d->f[i].v = c;
            return;
        }
    doc_put(d, name, c);
}

int doc_unset(ddoc *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->f[i].name, name)) {
            free(d->f[i].name);
            dval_release(&d->f[i].v);
            memmove(&d->f[i], &d->f[i + 1], (size_t)(d->n - i - 1) * sizeof *d->f);
            d->n--;
            return 1;
        }
    return 0;
}

dval dv_int(int64_t i)
{
    return (dval){ .t = D_INT, .i = i };
}

dval dv_bool(int b)
{
    return (dval){ .t = D_BOOL, .i = b != 0 };
}

dval dv_str(const char *s)
{
    return (dval){ .t = D_STR, .s = xstrdup(s), .len = strlen(s) };
}

dval dv_doc(ddoc *d)
{
    return (dval){ .t = D_DOC, .d = d };
}

dval dv_array(ddoc *d)
{
    return (dval){ .t = D_ARRAY, .d = d };
}

/* BSON's comparison order of types (MongoDB manual, "Comparison/Sort Order"). */
static int type_rank(dtype t)
{
    switch (t) {
    case D_NULL: return 1;
    case D_INT: return 2;
    case D_STR: return 3;
    case D_DOC: return 4;
    case D_ARRAY: return 5;
    case D_BOOL: return 6;
    case D_DATE: return 7;
    }
    return 0;
}

int dval_cmp(const dval *a, const dval *b)
{
    int ra = type_rank(a->t), rb = type_rank(b->t);
    if (ra != rb) return ra < rb ? -1 : 1;
    switch (a->t) {
    case D_NULL: return 0;
    case D_BOOL:
    case D_INT:
    case D_DATE: return a->i == b->i ? 0 : a->i < b->i ? -1 : 1;
    case D_STR: {
        size_t n = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->s, b->s, n);
        if (c) return c < 0 ? -1 : 1;
        return a->len == b->len ? 0 : a->len < b->len ? -1 : 1;
    }
    case D_DOC:
    case D_ARRAY:
        for (int i = 0; i < a->d->n && i < b->d->n; i++) {
            int c = strcmp(a->d->f[i].name, b->d->f[i].name);
            if (c) return c < 0 ? -1 : 1;
            c = dval_cmp(&a->d->f[i].v, &b->d->f[i].v);
            if (c) return c;
        }
        return a->d->n == b->d->n ? 0 : a->d->n < b->d->n ? -1 : 1;
    }
    return 0;
}

/* ---- Extended JSON ---- */

typedef struct jp {
    const char *s;
    size_t n, i;
    buf *err;
    int failed;
} jp;

static void jfail(jp *p, const char *what)
{
    if (p->failed) return;
    p->failed = 1;
    buf_printf(p->err, "bad JSON at offset %zu: %s", p->i, what);
}

static void skip_ws(jp *p)
{
    while (p->i < p->n && isspace((unsigned char)p->s[p->i])) p->i++;
}

/* \uXXXX (the four hex digits after it) as UTF-8. */
static void jescape_u(jp *p, buf *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char h = p->i < p->n ? p->s[p->i++] : 0;
        v = v * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10) & 15);
    }
    if (v >= 0x800) {
        buf_putc(out, (char)(0xe0 | (v >> 12)));
        buf_putc(out, (char)(0x80 | ((v >> 6) & 0x3f)));
    } else if (v >= 0x80) {
        buf_putc(out, (char)(0xc0 | (v >> 6)));
    }
    buf_putc(out, (char)(v < 0x80 ? v : 0x80 | (v & 0x3f)));
}

static int jstring(jp *p, buf *out)
{
    if (p->i >= p->n || p->s[p->i] != '"') {
        jfail(p, "a string expected");
        return -1;
    }
    p->i++;
    while (p->i < p->n && p->s[p->i] != '"') {
        char c = p->s[p->i++];
        if (c == '\\' && p->i < p->n) {
            char e = p->s[p->i++];
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': jescape_u(p, out); continue;
            default: c = e; break;
            }
        }
        buf_putc(out, c);
    }
    if (p->i >= p->n) {
        jfail(p, "an unterminated string");
        return -1;
    }
    p->i++;
    return 0;
}

static int jvalue(jp *p, dval *out, int depth);

static int jcontainer(jp *p, dval *out, int depth, int array)
{
    char close = array ? ']' : '}';
    ddoc *d = doc_new();
    p->i++;
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
    } else {
        for (;;) {
            buf name;
            buf_init(&name);
            skip_ws(p);
            if (array) {
                buf_printf(&name, "%d", d->n);
            } else {
                if (jstring(p, &name) != 0) {
                    buf_release(&name);
                    break;
                }
                skip_ws(p);
                if (p->i >= p->n || p->s[p->i] != ':') {
                    jfail(p, "':' expected");
                    buf_release(&name);
                    break;
                }
                p->i++;
            }
            dval v;
            if (jvalue(p, &v, depth + 1) != 0) {
                buf_release(&name);
                break;
            }
            doc_put(d, name.p ? name.p : "", v);
            buf_release(&name);
            skip_ws(p);
            if (p->i < p->n && p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->i < p->n && p->s[p->i] == close) {
                p->i++;
                break;
            }
            jfail(p, array ? "',' or ']' expected" : "',' or '}' expected");
            break;
        }
    }
    if (p->failed) {
        doc_free(d);
        return -1;
    }
    /* {"$date": ms}: a date (canonical {"$date": {"$numberLong": "ms"}} too) */
    if (!array && d->n == 1 && !strcmp(d->f[0].name, "$date")) {
        const dval *v = &d->f[0].v;
        const dval *nl = v->t == D_DOC ? doc_get(v->d, "$numberLong") : NULL;
        if (v->t == D_INT || (nl && nl->t == D_STR)) {
            int64_t ms = v->t == D_INT ? v->i : strtoll(nl->s, NULL, 10);
            doc_free(d);
            *out = (dval){ .t = D_DATE, .i = ms };
            return 0;
        }
    }
    *out = array ? dv_array(d) : dv_doc(d);
    return 0;
}

static int jvalue(jp *p, dval *out, int depth)
{
    memset(out, 0, sizeof *out);
    skip_ws(p);
    if (depth > 64) {
        jfail(p, "nested too deep");
        return -1;
    }
    if (p->i >= p->n) {
        jfail(p, "a value expected");
        return -1;
    }
    char c = p->s[p->i];
    if (c == '{' || c == '[') return jcontainer(p, out, depth, c == '[');
    if (c == '"') {
        buf b;
        buf_init(&b);
        if (jstring(p, &b) != 0) {
            buf_release(&b);
            return -1;
        }
        out->t = D_STR;
        out->s = xmemdup(b.p ? b.p : "", b.len);
        out->len = b.len;
        buf_release(&b);
        return 0;
    }
    static const char *const words[] = { "true", "false", "null" };
    for (int w = 0; w < 3; w++) {
        size_t l = strlen(words[w]);
        if (p->n - p->i >= l && !memcmp(p->s + p->i, words[w], l)) {
            p->i += l;
            *out = w == 2 ? (dval){ .t = D_NULL } : dv_bool(w == 0);
            return 0;
        }
    }
    if (c == '-' || isdigit((unsigned char)c)) {
        size_t b = p->i;
        if (c == '-') p->i++;
        int64_t v = 0;
        int digits = 0;
        while (p->i < p->n && isdigit((unsigned char)p->s[p->i])) {
            int dgt = p->s[p->i++] - '0';
            if (v > (INT64_MAX - dgt) / 10) {
                jfail(p, "an integer out of range");
                return -1;
            }
            v = v * 10 + dgt;
            digits++;
        }
        if (!digits || (p->i < p->n && strchr(".eE", p->s[p->i]))) {
            p->i = b;
            jfail(p, "only whole numbers are in the subset");
            return -1;
        }
        *out = dv_int(c == '-' ? -v : v);
        return 0;
    }
    jfail(p, "a value expected");
    return -1;
}

int doc_parse(const char *text, size_t len, dval *out, buf *err)
{
    jp p = { .s = text, .n = len, .err = err };
    if (jvalue(&p, out, 0) != 0) return -1;
    skip_ws(&p);
    if (p.i != p.n) {
        jfail(&p, "text after the document");
        dval_release(out);
        return -1;
    }
    if (out->t != D_DOC) {
        buf_printf(err, "a request is a document: {\"command\": ...}");
        dval_release(out);
        return -1;
    }
    return 0;
}

static void print_str(const char *s, size_t n, buf *out)
{
    buf_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') buf_printf(out, "\\%c", c);
        else if (c < 0x20) buf_printf(out, "\\u%04x", c);
        else buf_putc(out, (char)c);
    }
    buf_putc(out, '"');
}

void doc_print(const dval *v, buf *out)
{
    switch (v->t) {
    case D_NULL: buf_puts(out, "null"); break;
    case D_BOOL: buf_puts(out, v->i ? "true" : "false"); break;
    case D_INT: buf_printf(out, "%lld", (long long)v->i); break;
    case D_DATE: buf_printf(out, "{\"$date\": %lld}", (long long)v->i); break;
    case D_STR: print_str(v->s, v->len, out); break;
    case D_DOC:
    case D_ARRAY:
        buf_putc(out, v->t == D_DOC ? '{' : '[');
        for (int i = 0; i < v->d->n; i++) {
            if (i) buf_puts(out, ", ");
            if (v->t == D_DOC) {
                print_str(v->d->f[i].name, strlen(v->d->f[i].name), out);
                buf_puts(out, ": ");
            }
            doc_print(&v->d->f[i].v, out);
        }
        buf_putc(out, v->t == D_DOC ? '}' : ']');
        break;
    }
}
