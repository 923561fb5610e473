/* etcd_reply.c — a reply of the fake etcd: a small tree shaped like the v3 API's JSON (maps
 * with the gateway's field names, lists, integers, byte strings, booleans), and its one-line
 * form for the history. The line leaves out what proto3's JSON leaves out — zero numbers,
 * false, empty strings and lists — so that it reads as the gRPC gateway's answer does, and so
 * that the differential test (tests/diff/etcd/) can print the real server's JSON the same way
 * and compare the two lines. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "etcd.h"

enode *enode_new_map(void)
{
    enode *n = xcalloc(1, sizeof *n);
    n->type = EN_MAP;
    return n;
}

enode *enode_add(enode *parent, const char *name, enode_type t)
{
    if (parent->n == parent->cap) {
        size_t old = parent->cap;
        parent->cap = old ? old * 2 : 4;
        enode *k = xcalloc(parent->cap, sizeof *k);
        /* children own their own children: moving the structs keeps those pointers */
        if (old) memcpy(k, parent->kids, old * sizeof *k);
        free(parent->kids);
        parent->kids = k;
    }
    enode *c = &parent->kids[parent->n++];
    memset(c, 0, sizeof *c);
    c->name = name;
    c->type = t;
    return c;
}

void enode_int(enode *parent, const char *name, int64_t v)
{
    enode_add(parent, name, EN_INT)->i = v;
}

void enode_bool(enode *parent, const char *name, int v)
{
    enode_add(parent, name, EN_BOOL)->i = v != 0;
}

void enode_str(enode *parent, const char *name, const char *p, size_t len)
{
    enode *c = enode_add(parent, name, EN_STR);
    c->s = xmemdup(p ? p : "", len);
    c->len = len;
}

static void enode_clear(enode *n)
{
    free(n->s);
    for (size_t i = 0; i < n->n; i++) enode_clear(&n->kids[i]);
    free(n->kids);
}

void enode_free(enode *n)
{
    if (!n) return;
    enode_clear(n);
    free(n);
}

void etcd_repr(buf *out, const char *p, size_t len)
{
    buf_putc(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '"' || c == '\\') {
            buf_putc(out, '\\');
            buf_putc(out, (char)c);
        } else if (c < 0x80 && isprint(c)) {
            buf_putc(out, (char)c);
        } else {
            buf_printf(out, "\\x%02x", c);
        }
    }
    buf_putc(out, '"');
}

/* A string needs quotes unless it is plain printable words without the brief's own marks. */
static void put_str(buf *out, const char *p, size_t len)
{
    int plain = len > 0;
    for (size_t i = 0; i < len && plain; i++) {
        unsigned char c = (unsigned char)p[i];
        if (!(c < 0x80 && isgraph(c)) || strchr("\"\\{}[]=", c)) plain = 0;
    }
    if (plain) buf_append(out, p, len);
    else etcd_repr(out, p, len);
}

static int is_default(const enode *n)
{
    switch (n->type) {
    case EN_INT:
    case EN_BOOL: return n->i == 0;
    case EN_STR: return n->len == 0;
    case EN_LIST: return n->n == 0;
    case EN_MAP: return 0;
    }
    return 0;
}

static void put_node(buf *out, const enode *n)
{
    switch (n->type) {
    case EN_INT: buf_printf(out, "%lld", (long long)n->i); break;
    case EN_BOOL: buf_puts(out, n->i ? "true" : "false"); break;
    case EN_STR: put_str(out, n->s, n->len); break;
    case EN_MAP:
    case EN_LIST: {
        buf_putc(out, n->type == EN_MAP ? '{' : '[');
        int first = 1;
        for (size_t i = 0; i < n->n; i++) {
            const enode *k = &n->kids[i];
            if (n->type == EN_MAP && is_default(k)) continue;
            if (!first) buf_putc(out, ' ');
            first = 0;
            if (n->type == EN_MAP) buf_printf(out, "%s=", k->name);
            put_node(out, k);
        }
        buf_putc(out, n->type == EN_MAP ? '}' : ']');
        break;
    }
    }
}

void etcd_reply_brief(const etcd_reply *r, buf *out)
{
    if (r->err) {
        buf_printf(out, "(error) %s", r->err);
        return;
    }
    if (r->root) put_node(out, r->root);
}

void etcd_reply_release(etcd_reply *r)
{
    free(r->err);
    enode_free(r->root);
    r->err = NULL;
    r->root = NULL;
}
