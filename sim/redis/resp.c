/* resp.c — reading requests off a connection (see resp.h): the inline tokenizer
 * (sdssplitargs, rule for rule) and the incremental RESP2 request parser.
 *
 * The parser is a small state machine over the caller's buffer, so that it can stop at any
 * byte and go on when more arrive: between requests (reqtype 0), inside an inline line, or
 * inside a multibulk request with `multibulklen` elements still to read and, when
 * `bulklen` >= 0, the length of the one being read. A bulk is copied only once it is
 * whole; a line is looked for with strchr, as Redis does, which is what makes a NUL byte
 * hide a newline (resp.h). Every limit is checked before anything is allocated for it: a
 * count line is at most 64 KiB, a bulk at most 512 MB, and elements are added one by one as
 * they arrive, never reserved from the count a client announced. */
#include "resp.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- argument vectors ---- */

static void resp_args_grow(resp_args *a)
{
    if (a->argc < a->cap) return;
    a->cap = a->cap ? a->cap * 2 : 8;
    a->argv = xrealloc(a->argv, (size_t)a->cap * sizeof *a->argv);
    a->len = xrealloc(a->len, (size_t)a->cap * sizeof *a->len);
}

/* Appends a word that is already a heap string of n bytes with its NUL (ownership taken). */
static void resp_args_take(resp_args *a, char *p, size_t n)
{
    resp_args_grow(a);
    a->argv[a->argc] = p;
    a->len[a->argc] = n;
    a->argc++;
}

void resp_args_push(resp_args *a, const char *p, size_t n)
{
    resp_args_take(a, xmemdup(p, n), n);
}

void resp_args_release(resp_args *a)
{
    for (int i = 0; i < a->argc; i++) free(a->argv[i]);
    free(a->argv);
    free(a->len);
    memset(a, 0, sizeof *a);
}

/* ---- the inline tokenizer: sdssplitargs ---- */

static int resp_hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A character inside quotes that is not an escape: the closing quote, which must be followed
 * by a blank or the end of the line (1, or -1 when it is not), the end of the line before
 * any (-1), or a character of the word (0, appended). */
static int resp_quoted(const char *p, char quote, buf *word)
{
    if (*p == quote) return p[1] && !isspace((unsigned char)p[1]) ? -1 : 1;
    if (!*p) return -1;
    buf_putc(word, *p);
    return 0;
}

/* Reads one word starting at *pp (not a blank) into word. Returns 0, or -1 on an unbalanced
 * or badly closed quote. As in sdssplitargs, a word ends at ' ', '\n', '\r', '\t' or the
 * end, while the blanks skipped *between* words are everything isspace() accepts. */
static int resp_split_word(const char **pp, buf *word)
{
    const char *p = *pp;
    int inq = 0, insq = 0, done = 0;
    while (!done) {
        if (inq) {
            if (p[0] == '\\' && p[1] == 'x' && resp_hexval(p[2]) >= 0 && resp_hexval(p[3]) >= 0) {
                buf_putc(word, (char)(resp_hexval(p[2]) * 16 + resp_hexval(p[3])));
                p += 3;
            } else if (p[0] == '\\' && p[1]) {
                p++;
                switch (*p) {
                case 'n': buf_putc(word, '\n'); break;
                case 'r': buf_putc(word, '\r'); break;
                case 't': buf_putc(word, '\t'); break;
                case 'b': buf_putc(word, '\b'); break;
                case 'a': buf_putc(word, '\a'); break;
                default: buf_putc(word, *p); break;
                }
            } else if ((done = resp_quoted(p, '"', word)) < 0) {
                return -1;
            }
        } else if (insq) {
            if (p[0] == '\\' && p[1] == '\'') {
                p++;
                buf_putc(word, '\'');
            } else if ((done = resp_quoted(p, '\'', word)) < 0) {
                return -1;
            }
        } else {
            switch (*p) {
            case ' ': case '\n': case '\r': case '\t': case '\0': done = 1; break;
            case '"': inq = 1; break;
            case '\'': insq = 1; break;
            default: buf_putc(word, *p); break;
            }
        }
        if (*p) p++;
    }
    *pp = p;
    return 0;
}

int resp_split(const char *line, resp_args *out)
{
    memset(out, 0, sizeof *out);
    const char *p = line;
    buf word;
    buf_init(&word);
    for (;;) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        buf_reset(&word);
        if (resp_split_word(&p, &word) < 0) {
            buf_release(&word);
            resp_args_release(out);
            return -1;
        }
        size_t n = word.len;
        resp_args_take(out, word.p ? buf_steal(&word) : xstrdup(""), n);
    }
    buf_release(&word);
    return 0;
}

/* ---- the request parser ---- */

void resp_parser_init(resp_parser *p)
{
    memset(p, 0, sizeof *p);
    p->bulklen = -1;
}

void resp_parser_release(resp_parser *p)
{
    resp_args_release(&p->args);
    resp_parser_init(p);
}

size_t resp_parser_bytes(const resp_parser *p)
{
    return p->bytes + (size_t)p->args.cap * (sizeof *p->args.argv + sizeof *p->args.len);
}

/* Frees the words of the last request, keeping the slots for the next one. */
static void resp_parser_clear(resp_parser *p)
{
    for (int i = 0; i < p->args.argc; i++) free(p->args.argv[i]);
    p->args.argc = 0;
    p->bytes = 0;
}

static resp_status resp_fail(buf *err, const char *what)
{
    buf_reset(err);
    buf_printf(err, "Protocol error: %s", what);
    return RESP_ERROR;
}

/* One inline request: RESP_COMMAND (possibly with no words), RESP_MORE or RESP_ERROR. */
static resp_status resp_inline(resp_parser *p, const char *data, size_t len, size_t *pos, buf *err)
{
    const char *start = data + *pos;
    const char *nl = strchr(start, '\n');
    if (!nl) return len - *pos > RESP_INLINE_MAX ? resp_fail(err, "too big inline request") : RESP_MORE;
    size_t n = (size_t)(nl - start);
    if (n && nl[-1] == '\r') n--;
    char *line = xmemdup(start, n);
    resp_args_release(&p->args);
    int rc = resp_split(line, &p->args);
    free(line);
    p->bytes = n + (size_t)p->args.argc;
    *pos = (size_t)(nl - data) + 1;
    p->reqtype = 0;
    return rc < 0 ? resp_fail(err, "unbalanced quotes in request") : RESP_COMMAND;
}

/* A "<c><number>\r" count line at data[*pos]: 1 with the number in *ll and *pos after the
 * "\r" and the byte after it, 0 when the line is not all there yet, -1 when it is too long
 * to be one (RESP_INLINE_MAX). The number is not validated here; *ok says whether it
 * parsed. */
static int resp_count_line(const char *data, size_t len, size_t *pos, long long *ll, int *ok)
{
    const char *start = data + *pos;
    const char *cr = strchr(start, '\r');
    if (!cr) return len - *pos > RESP_INLINE_MAX ? -1 : 0;
    if ((size_t)(cr - start) + 2 > len - *pos) return 0; /* the '\n' is still to come */
    *ok = ll_parse_int64((slice){ start + 1, (size_t)(cr - start) - 1 }, ll) == 0;
    *pos = (size_t)(cr - data) + 2;
    return 1;
}

/* The rest of a multibulk request. */
static resp_status resp_multibulk(resp_parser *p, const char *data, size_t len, size_t *pos, buf *err)
{
    long long ll = 0;
    int ok = 0;
    if (p->multibulklen == 0) {
        int got = resp_count_line(data, len, pos, &ll, &ok);
        if (got <= 0) return got < 0 ? resp_fail(err, "too big mbulk count string") : RESP_MORE;
        if (!ok || ll > INT_MAX) return resp_fail(err, "invalid multibulk length");
        if (ll <= 0) {
            p->reqtype = 0;
            return RESP_COMMAND; /* no words: skipped by the caller */
        }
        p->multibulklen = ll;
    }
    while (p->multibulklen > 0) {
        if (p->bulklen < 0) {
            char first = data[*pos];
            size_t at = *pos;
            int got = resp_count_line(data, len, pos, &ll, &ok);
            if (got <= 0) return got < 0 ? resp_fail(err, "too big bulk count string") : RESP_MORE;
            if (first != '$') {
                *pos = at;
                buf_reset(err);
                buf_printf(err, "Protocol error: expected '$', got '%c'",
                           first == '\r' || first == '\n' ? ' ' : first);
                return RESP_ERROR;
            }
            if (!ok || ll < 0 || ll > RESP_BULK_MAX) return resp_fail(err, "invalid bulk length");
            p->bulklen = ll;
        }
        if (len - *pos < (size_t)p->bulklen + 2) return RESP_MORE;
        resp_args_push(&p->args, data + *pos, (size_t)p->bulklen);
        p->bytes += (size_t)p->bulklen + 1;
        *pos += (size_t)p->bulklen + 2; /* the two bytes after a bulk are not checked */
        p->bulklen = -1;
        p->multibulklen--;
    }
    p->reqtype = 0;
    return RESP_COMMAND;
}

resp_status resp_parse(resp_parser *p, const char *data, size_t len, size_t *pos, buf *err)
{
    if (p->reqtype == 0) resp_parser_clear(p);
    while (*pos < len) {
        if (p->reqtype == 0) p->reqtype = data[*pos] == '*' ? 2 : 1;
        resp_status st = p->reqtype == 1 ? resp_inline(p, data, len, pos, err)
                                         : resp_multibulk(p, data, len, pos, err);
        if (st != RESP_COMMAND) return st;
        if (p->args.argc > 0) return RESP_COMMAND;
    }
    return RESP_MORE;
}
