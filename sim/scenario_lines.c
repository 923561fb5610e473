/* scenario_lines.c — where each field of a scenario is written (see scenario_reader.h).
 *
 * Lua keeps no line information for table fields, so once the chunk has run, a small lexer
 * walks the returned table constructor in the source and records, for every field, its path
 * ("clients[2].work", "per_node.n3.clock.drift") and the line of its key (or of the value
 * for a positional item). A message about a field then names that line, or else the line of
 * its nearest mapped ancestor (a field the chunk builds in code rather than writes in the
 * constructor has none of its own), or else the line of the `return`.
 *
 * The lexer only ever sees text Lua has already compiled, so it may be lax about malformed
 * input; what it cannot follow (a computed key) is simply not mapped. */
#include "scenario_reader.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------ */
/* Field paths                                                                            */

static int is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

/* Paths name fields as a person writes them: "clients[2].work", per_node["n-1"]. A path
 * too long for PATH_LEN is cut: it only serves line lookups and messages. */
void rd_path_key(char out[PATH_LEN], const char *parent, const char *key)
{
    if (is_ident(key)) snprintf(out, PATH_LEN, "%s%s%s", parent, *parent ? "." : "", key);
    else snprintf(out, PATH_LEN, "%s[\"%s\"]", parent, key);
}

void rd_path_index(char out[PATH_LEN], const char *parent, long long i)
{
    char idx[32];
    size_t n = strnlen(parent, PATH_LEN - 1), m = (size_t)snprintf(idx, sizeof idx, "[%lld]", i);
    if (n + m > PATH_LEN - 1) m = PATH_LEN - 1 - n;
    memmove(out, parent, n);
    memcpy(out + n, idx, m);
    out[n + m] = '\0';
}

/* Strips the last component of a path in place; returns 0 when nothing is left. */
static int path_parent(char *p)
{
    size_t n = strlen(p);
    if (!n) return 0;
    if (p[n - 1] == ']') {
        char *open = strrchr(p, '[');
        if (open) *open = '\0';
        else p[0] = '\0';
    } else {
        char *dot = strrchr(p, '.');
        char *open = strrchr(p, '[');
        char *cut = dot > open ? dot : open;
        if (cut) *cut = '\0';
        else p[0] = '\0';
    }
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* The line map: a lexer just good enough to walk table constructors. It only ever sees
 * text Lua has already compiled, so it may be lax about malformed input.                */

typedef enum tok_kind { TK_EOF, TK_NAME, TK_STRING, TK_NUMBER, TK_OP } tok_kind;

typedef struct token {
    tok_kind kind;
    int line;
    const char *p; /* the text; for a string its contents without quotes */
    size_t len;
    int escaped;   /* a short string with a backslash: its value is not its text */
} token;

typedef struct tokens {
    token *t;
    size_t n, cap;
} tokens;

static void tokens_push(tokens *ts, token t)
{
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? ts->cap * 2 : 256;
        ts->t = xrealloc(ts->t, ts->cap * sizeof *ts->t);
    }
    ts->t[ts->n++] = t;
}

/* Skips one line break at s[i] ("\n", "\r", "\r\n" or "\n\r", as Lua counts them). */
static size_t skip_newline(const char *s, size_t i, size_t n)
{
    char c = s[i++];
    if (i < n && (s[i] == '\n' || s[i] == '\r') && s[i] != c) i++;
    return i;
}

/* At '[': the level+1 of a long bracket "[==[" , or 0 when it is not one. */
static size_t long_open(const char *s, size_t i, size_t n)
{
    size_t j = i + 1;
    while (j < n && s[j] == '=') j++;
    return j < n && s[j] == '[' ? j - i : 0;
}

/* Skips a long string/comment opened at s[i] with level+1 `lvl`; sets its contents. */
static size_t skip_long(const char *s, size_t i, size_t n, size_t lvl, int *line, token *t)
{
    i += lvl + 1;
    if (i < n && (s[i] == '\n' || s[i] == '\r')) {
        i = skip_newline(s, i, n);
        (*line)++;
    }
    size_t start = i;
    while (i < n) {
        if (s[i] == ']') {
            size_t j = i + 1;
            while (j < n && s[j] == '=') j++;
            if (j < n && s[j] == ']' && j - i == lvl) {
                if (t) {
                    t->p = s + start;
                    t->len = i - start;
                }
                return j + 1;
            }
            i++;
        } else if (s[i] == '\n' || s[i] == '\r') {
            i = skip_newline(s, i, n);
            (*line)++;
        } else {
            i++;
        }
    }
    return n;
}

static void lex(const char *s, size_t n, tokens *ts, int *last_line)
{
    int line = 1;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n' || c == '\r') {
            i = skip_newline(s, i, n);
            line++;
            continue;
        }
        if (isspace(c)) {
            i++;
            continue;
        }
        if (c == '-' && i + 1 < n && s[i + 1] == '-') {
            i += 2;
            size_t lvl = i < n && s[i] == '[' ? long_open(s, i, n) : 0;
            if (lvl) i = skip_long(s, i, n, lvl, &line, NULL);
            else
                while (i < n && s[i] != '\n' && s[i] != '\r') i++;
            continue;
        }
        token t = { .line = line, .p = s + i };
        size_t lvl;
        if (isalpha(c) || c == '_') {
            t.kind = TK_NAME;
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_')) i++;
            t.len = (size_t)(s + i - t.p);
        } else if (isdigit(c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            t.kind = TK_NUMBER;
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '.' ||
                             ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))))
                i++;
            t.len = (size_t)(s + i - t.p);
        } else if (c == '"' || c == '\'') {
            t.kind = TK_STRING;
            size_t j = i + 1;
            while (j < n && s[j] != (char)c) {
                if (s[j] == '\\' && j + 1 < n) {
                    t.escaped = 1;
                    j++;
                }
                if (s[j] == '\n' || s[j] == '\r') {
                    j = skip_newline(s, j, n);
                    line++;
                } else {
                    j++;
                }
            }
            t.p = s + i + 1;
            t.len = j - i - 1;
            i = j < n ? j + 1 : n;
        } else if (c == '[' && (lvl = long_open(s, i, n)) != 0) {
            t.kind = TK_STRING;
            i = skip_long(s, i, n, lvl, &line, &t);
        } else {
            static const char *const ops[] = { "...", "==", "~=", "<=", ">=", "//", "::",
                                               "<<", ">>", ".." };
            t.kind = TK_OP;
            t.len = 1;
            for (size_t k = 0; k < LL_ARRAY_LEN(ops); k++) {
                size_t l = strlen(ops[k]);
                if (i + l <= n && memcmp(s + i, ops[k], l) == 0) {
                    t.len = l;
                    break;
                }
            }
            i += t.len;
        }
        tokens_push(ts, t);
    }
    *last_line = ts->n ? ts->t[ts->n - 1].line : 1;
    tokens_push(ts, (token){ .kind = TK_EOF, .line = line, .p = s + n });
}

static int tok_is(const token *t, const char *text)
{
    return (t->kind == TK_OP || t->kind == TK_NAME) && t->len == strlen(text) &&
           memcmp(t->p, text, t->len) == 0;
}

static void linemap_add(linemap *m, const char *path, int line)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->e = xrealloc(m->e, m->cap * sizeof *m->e);
    }
    m->e[m->n++] = (line_entry){ xstrdup(path), line };
}

/* The index of the '}' closing the '{' at i (or of EOF). */
static size_t match_brace(const tokens *ts, size_t i)
{
    int depth = 0;
    for (; ts->t[i].kind != TK_EOF; i++) {
        if (tok_is(&ts->t[i], "{")) depth++;
        else if (tok_is(&ts->t[i], "}") && --depth == 0) return i;
    }
    return i;
}

/* Skips an expression inside a constructor: stops at ',' ';' or '}' outside any bracket
 * and outside any function body. */
static size_t skip_expr(const tokens *ts, size_t i)
{
    int brackets = 0, blocks = 0;
    for (; ts->t[i].kind != TK_EOF; i++) {
        const token *t = &ts->t[i];
        if (t->kind == TK_NAME) {
            if (tok_is(t, "function") || tok_is(t, "if") || tok_is(t, "do") || tok_is(t, "repeat"))
                blocks++;
            else if (tok_is(t, "end") || tok_is(t, "until"))
                blocks--;
        } else if (t->kind == TK_OP && t->len == 1) {
            char c = *t->p;
            if (c == '(' || c == '[' || c == '{') brackets++;
            else if ((c == ')' || c == ']' || c == '}') && brackets > 0) brackets--;
            else if (!brackets && !blocks && (c == ',' || c == ';' || c == '}')) return i;
        }
    }
    return i;
}

/* Records every field of the constructor whose '{' is at i, under `prefix`. */
static void walk_constructor(const tokens *ts, size_t i, const char *prefix, linemap *m)
{
    size_t end = match_brace(ts, i);
    long long pos = 1;
    i++;
    while (i < end) {
        const token *t = &ts->t[i];
        char path[PATH_LEN];
        int known = 1;
        if (tok_is(t, "[")) {
            size_t close = i + 1;
            int depth = 1;
            for (; close < end; close++) {
                if (tok_is(&ts->t[close], "[")) depth++;
                else if (tok_is(&ts->t[close], "]") && --depth == 0) break;
            }
            const token *k = &ts->t[i + 1];
            if (close == i + 2 && k->kind == TK_STRING && !k->escaped && !memchr(k->p, 0, k->len)) {
                char key[PATH_LEN];
                snprintf(key, sizeof key, "%.*s", (int)k->len, k->p);
                rd_path_key(path, prefix, key);
            } else if (close == i + 2 && k->kind == TK_NUMBER) {
                snprintf(path, sizeof path, "%s[%.*s]", prefix, (int)k->len, k->p);
            } else {
                known = 0;
            }
            i = close + 1;
            if (i < end && tok_is(&ts->t[i], "=")) i++;
        } else if (t->kind == TK_NAME && tok_is(&ts->t[i + 1], "=")) {
            char key[PATH_LEN];
            snprintf(key, sizeof key, "%.*s", (int)t->len, t->p);
            rd_path_key(path, prefix, key);
            i += 2;
        } else {
            rd_path_index(path, prefix, pos++);
        }
        if (known) linemap_add(m, path, t->line);
        if (i < end && tok_is(&ts->t[i], "{")) {
            size_t close = match_brace(ts, i);
            const token *after = &ts->t[close < end ? close + 1 : end];
            if (known && (tok_is(after, ",") || tok_is(after, ";") || close + 1 == end))
                walk_constructor(ts, i, path, m);
        }
        i = skip_expr(ts, i);
        if (i < end && (tok_is(&ts->t[i], ",") || tok_is(&ts->t[i], ";"))) i++;
        else if (i < end) i++; /* not a field boundary: a lax lexer must still move on */
    }
}

static int entry_cmp(const void *a, const void *b)
{
    const line_entry *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Finds the table the chunk returns — `return { ... }`, or `return t` for a `t = { ... }`
 * written at the top level — and maps its fields. */
void linemap_build(linemap *m, const char *text, size_t len)
{
    tokens ts = { 0 };
    int last_line;
    lex(text, len, &ts, &last_line);
    m->return_line = last_line;
    size_t ret = (size_t)-1;
    int blocks = 0;
    for (size_t i = 0; i < ts.n; i++) {
        const token *t = &ts.t[i];
        if (t->kind != TK_NAME) continue;
        if (tok_is(t, "function") || tok_is(t, "if") || tok_is(t, "do") || tok_is(t, "repeat"))
            blocks++;
        else if (tok_is(t, "end") || tok_is(t, "until"))
            blocks--;
        else if (blocks == 0 && tok_is(t, "return"))
            ret = i;
    }
    if (ret != (size_t)-1) {
        m->return_line = ts.t[ret].line;
        const token *v = &ts.t[ret + 1];
        size_t table = (size_t)-1;
        if (tok_is(v, "{")) {
            table = ret + 1;
        } else if (v->kind == TK_NAME) {
            /* the last top-level "v = {" before the return */
            blocks = 0;
            for (size_t i = 0; i + 2 < ret; i++) {
                const token *t = &ts.t[i];
                if (tok_is(t, "function") || tok_is(t, "if") || tok_is(t, "do") || tok_is(t, "repeat"))
                    blocks++;
                else if (tok_is(t, "end") || tok_is(t, "until"))
                    blocks--;
                else if (blocks == 0 && t->kind == TK_NAME && t->len == v->len &&
                         memcmp(t->p, v->p, t->len) == 0 && tok_is(&ts.t[i + 1], "=") &&
                         tok_is(&ts.t[i + 2], "{") && (i == 0 || !tok_is(&ts.t[i - 1], ".")))
                    table = i + 2;
            }
        }
        if (table != (size_t)-1) walk_constructor(&ts, table, "", m);
    }
    free(ts.t);
    if (m->n) qsort(m->e, m->n, sizeof *m->e, entry_cmp);
}

/* The line of `path`, else of its nearest mapped ancestor, else of the return. */
int linemap_line(const linemap *m, const char *path)
{
    char p[PATH_LEN];
    snprintf(p, sizeof p, "%s", path);
    do {
        size_t lo = 0, hi = m->n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (strcmp(m->e[mid].path, p) < 0) lo = mid + 1;
            else hi = mid;
        }
        if (lo < m->n && strcmp(m->e[lo].path, p) == 0) return m->e[lo].line;
    } while (path_parent(p));
    return m->return_line;
}

void linemap_release(linemap *m)
{
    for (size_t i = 0; i < m->n; i++) free(m->e[i].path);
    free(m->e);
}
/* The line (from 1) of byte offset `off` in text, counting line breaks as Lua does. */
int rd_line_of(const char *text, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off;) {
        if (text[i] == '\n' || text[i] == '\r') {
            i = skip_newline(text, i, off);
            line++;
        } else {
            i++;
        }
    }
    return line;
}
