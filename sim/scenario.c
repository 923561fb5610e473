/* scenario.c — loads a scenario file into plain data (see scenario.h).
 *
 * Three passes over one file:
 *   1. evaluate: the text runs as a Lua 5.4 chunk in a fresh state with no libraries and an
 *      empty _ENV, under an instruction budget (count hook) and a memory cap (allocator), and
 *      must return one table. Lua's own errors already carry FILE:LINE.
 *   2. map lines: Lua keeps no line information for table fields, so a small lexer walks the
 *      returned table constructor in the source and records, for every field, its path
 *      ("clients[2].work", "per_node.n3.clock.drift") and the line of its key (or of the
 *      value for a positional item).
 *   3. validate: a C function run under lua_pcall walks the table with raw accesses, checks
 *      every key, type and value, and fills the scenario. A problem is reported with
 *      lua_error, so nothing malloc'd may live only in a C local across a check: everything
 *      is attached to the scenario at once, and the caller frees a partial scenario.
 *
 * Tables are read in a fixed order (never in lua_next order, which depends on a per-state
 * hash seed), so the first problem reported and the data built are deterministic. */
#include "scenario.h"
#include "scriptlib.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

enum {
    EVAL_MEM_CAP = 16 << 20,          /* bytes of Lua heap a scenario may use */
    EVAL_HOOK_EVERY = 1000,           /* VM instructions between budget checks */
    EVAL_STEP_BUDGET = 20000000,      /* VM instructions a scenario may take (~0.1 s) */
    PATH_LEN = 192,
    SHOW_LEN = 48,                    /* user text quoted in messages is cut to this */
    NAME_MAX_LEN = 32,
    MAX_MASTERS = 64,
    MAX_REPLICAS = 8,
    MAX_NODES = MAX_MASTERS * (1 + MAX_REPLICAS),
    MAX_CLIENTS = 256,
    MAX_FAULTS = 10000,
    MAX_LINKS = 4096,
    MAX_ROUNDS = 1000000,
};

#define DURATION_MAX_US ((int64_t)1000000000000000) /* 10^15 µs, about 31 years */
#define DUR_NONE ((int64_t)-2)                       /* lease/restart_delay "none" */

/* ------------------------------------------------------------------------------------ */
/* Durations                                                                              */

/* Parses "250ms", "1.5s", "-20s", "500" (ms). 0 ok; -1 not a duration; -2 too large. */
static int duration_text(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (i < len && s[i] == '-') {
        neg = 1;
        i++;
    }
    double v = 0;
    int digits = 0;
    while (i < len && isdigit((unsigned char)s[i])) {
        v = v * 10 + (s[i++] - '0');
        digits++;
    }
    if (i < len && s[i] == '.') {
        double scale = 0.1;
        for (i++; i < len && isdigit((unsigned char)s[i]); i++, scale /= 10) {
            v += (s[i] - '0') * scale;
            digits++;
        }
    }
    if (!digits) return -1;
    while (i < len && s[i] == ' ') i++;
    static const struct { const char *unit; double us; } units[] = {
        { "", 1e3 }, { "us", 1 }, { "\xC2\xB5s", 1 }, { "ms", 1e3 }, { "s", 1e6 },
        { "m", 60e6 }, { "min", 60e6 }, { "h", 3600e6 },
    };
    for (size_t u = 0; u < LL_ARRAY_LEN(units); u++) {
        if (strlen(units[u].unit) != len - i || memcmp(s + i, units[u].unit, len - i) != 0)
            continue;
        double us = v * units[u].us;
        if (us > (double)DURATION_MAX_US) return -2;
        *out = (neg ? -1 : 1) * (int64_t)llround(us);
        return 0;
    }
    return -1;
}

int scenario_parse_signed_duration(const char *text, int64_t *us)
{
    return text ? duration_text(text, strlen(text), us) : -1;
}

int64_t scenario_parse_duration(const char *text)
{
    int64_t us;
    if (scenario_parse_signed_duration(text, &us) < 0 || us < 0) return -1;
    return us;
}

/* ------------------------------------------------------------------------------------ */
/* Small helpers                                                                          */

/* Copies user text for a message: cut to SHOW_LEN, control bytes and quotes made '?'. */
static const char *show(char out[SHOW_LEN + 4], const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n < SHOW_LEN; i++) {
        unsigned char c = (unsigned char)s[i];
        out[n++] = (c < 0x20 || c == 0x7f || c == '\'' || c == '"') ? '?' : (char)c;
    }
    if (len > SHOW_LEN) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

/* Edit distance counting a swap of two neighbours as one edit ("wrok" is 1 from "work"),
 * for "did you mean". Both strings are short (keys, names); longer ones never match. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return (size_t)-1;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The nearest of names[0..n) to s if it is near enough to be a likely typo, else NULL. */
static const char *nearest(const char *s, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t bestd = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(s, names[i]);
        if (d < bestd) {
            bestd = d;
            best = names[i];
        }
    }
    /* short names differ meaningfully ("n2" is not a typo of "n1") */
    size_t len = strlen(s);
    size_t limit = len <= 2 ? 0 : len <= 5 ? 1 : len <= 8 ? 2 : 3;
    return bestd <= limit ? best : NULL;
}

/* "a, b, c" (or, quoted, "\"a\", \"b\" or \"c\"") into out, cut to cap; returns out. Messages
 * are built in local arrays like this one because a failing check unwinds past the caller. */
static const char *join_names(char *out, size_t cap, const char *const *names, size_t n, int quoted)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++) {
        const char *sep = !i ? "" : quoted && i + 1 == n ? " or " : ", ";
        int w = snprintf(out + len, cap - len, quoted ? "%s\"%s\"" : "%s%s", sep, names[i]);
        len += w > 0 ? (size_t)w : 0;
    }
    return n ? out : "none";
}

static int is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

/* Paths name fields as a reader writes them: "clients[2].work", per_node["n-1"]. A path
 * too long for PATH_LEN is cut: it only serves line lookups and messages. */
static void path_key(char out[PATH_LEN], const char *parent, const char *key)
{
    if (is_ident(key)) snprintf(out, PATH_LEN, "%s%s%s", parent, *parent ? "." : "", key);
    else snprintf(out, PATH_LEN, "%s[\"%s\"]", parent, key);
}

static void path_index(char out[PATH_LEN], const char *parent, long long i)
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

typedef struct line_entry {
    char *path;
    int line;
} line_entry;

typedef struct linemap {
    line_entry *e;
    size_t n, cap;
    int return_line; /* the line of the final `return`, or the last line */
} linemap;

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
                path_key(path, prefix, key);
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
            path_key(path, prefix, key);
            i += 2;
        } else {
            path_index(path, prefix, pos++);
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
static void linemap_build(linemap *m, const char *text, size_t len)
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
static int linemap_line(const linemap *m, const char *path)
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

static void linemap_release(linemap *m)
{
    for (size_t i = 0; i < m->n; i++) free(m->e[i].path);
    free(m->e);
}

/* ------------------------------------------------------------------------------------ */
/* The loader                                                                             */

/* An actor by name, for lookups: a fault list may name hundreds of actors thousands of
 * times (10 000 partitions of 832 actors), which a linear search per name cannot afford. */
typedef struct actor_ref {
    const char *name; /* borrowed from the scenario */
    int node, client; /* its index, or -1 */
} actor_ref;

typedef struct loader {
    lua_State *L;
    const char *file;
    linemap map;
    scenario *s;
    buf err;
    int failed;       /* err holds a validation message */
    size_t mem_used;
    int mem_hit;
    long steps;
    int too_long;
    actor_ref *actors; /* every node and client, sorted by name; built at the first lookup,
                          once nodes and clients are loaded */
    int nactors;
    int *seen_stamp, *seen_group; /* per actor: the partition that named it last, and where */
    int stamp;
} loader;

static void *loader_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    loader *ld = ud;
    if (!ptr) osize = 0; /* osize then encodes the object's type, not a size */
    if (nsize == 0) {
        free(ptr);
        ld->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && ld->mem_used + (nsize - osize) > EVAL_MEM_CAP) {
        ld->mem_hit = 1;
        return NULL;
    }
    void *q = realloc(ptr, nsize);
    if (!q) return NULL;
    ld->mem_used = ld->mem_used - osize + nsize;
    return q;
}

static void loader_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    void *ud;
    lua_getallocf(L, &ud);
    loader *ld = ud;
    ld->steps += EVAL_HOOK_EVERY;
    if (ld->steps > EVAL_STEP_BUDGET) {
        ld->too_long = 1;
        /* fire again at once should anything catch this error */
        lua_sethook(L, loader_hook, LUA_MASKCOUNT, 1);
        lua_pushliteral(L, "scenario took too long to evaluate");
        lua_error(L);
    }
}

/* Reports a problem with the field at `path` and unwinds to the validator's pcall. */
static _Noreturn void fail(loader *ld, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void fail(loader *ld, const char *path, const char *fmt, ...)
{
    va_list ap;
    buf_reset(&ld->err);
    buf_printf(&ld->err, "%s:%d: ", ld->file, linemap_line(&ld->map, path));
    va_start(ap, fmt);
    buf_vprintf(&ld->err, fmt, ap);
    va_end(ap);
    ld->failed = 1;
    lua_pushnil(ld->L);
    lua_error(ld->L);
    ll_assert_fail("lua_error returned", __FILE__, __LINE__);
}

/* "the scenario" or "clients[2]": where a key lives, for messages. */
static const char *where(const char *path)
{
    return *path ? path : "the scenario";
}

static const char *type_name(lua_State *L, int idx)
{
    switch (lua_type(L, idx)) {
    case LUA_TNIL: return "nil";
    case LUA_TBOOLEAN: return "a boolean";
    case LUA_TNUMBER: return "a number";
    case LUA_TSTRING: return "a string";
    case LUA_TTABLE: return "a table";
    case LUA_TFUNCTION: return "a function";
    default: return "a userdata";
    }
}

/* Pushes t[key] without metamethods and returns its type. t is an absolute index. */
static int get(lua_State *L, int t, const char *key)
{
    lua_pushstring(L, key);
    return lua_rawget(L, t);
}

/* The key at the top of the stack, made printable ("leese", "[3]", "a boolean key"). */
static const char *key_text(lua_State *L, char out[SHOW_LEN + 4])
{
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t len;
        const char *k = lua_tolstring(L, -1, &len);
        return show(out, k, len);
    }
    if (lua_isinteger(L, -1)) {
        snprintf(out, SHOW_LEN + 4, "[%lld]", (long long)lua_tointeger(L, -1));
        return out;
    }
    snprintf(out, SHOW_LEN + 4, "%s key", type_name(L, -1));
    return out;
}

/* Checks that every key of the table at t is a string among valid[0..n); reports the
 * offender written first in the file. `noun` names what the keys are ("key", "property").
 * With always_list the message lists the valid names even when it suggests one. */
static void check_keys(loader *ld, int t, const char *path, const char *noun,
                       const char *plural, const char *const *valid, size_t n, int always_list)
{
    lua_State *L = ld->L;
    char bad[SHOW_LEN + 4] = "", bad_path[PATH_LEN] = "";
    int bad_line = INT_MAX, bad_string = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        char text[SHOW_LEN + 4], kp[PATH_LEN];
        int is_string = lua_type(L, -1) == LUA_TSTRING;
        if (is_string) {
            const char *k = lua_tostring(L, -1);
            size_t i = 0;
            while (i < n && strcmp(k, valid[i]) != 0) i++;
            if (i < n) continue;
            path_key(kp, path, k);
        } else if (lua_isinteger(L, -1)) {
            path_index(kp, path, (long long)lua_tointeger(L, -1));
        } else {
            snprintf(kp, sizeof kp, "%s", path);
        }
        key_text(L, text);
        int line = linemap_line(&ld->map, kp);
        if (line < bad_line || (line == bad_line && strcmp(text, bad) < 0)) {
            bad_line = line;
            bad_string = is_string;
            snprintf(bad, sizeof bad, "%s", text);
            snprintf(bad_path, sizeof bad_path, "%s", kp);
        }
    }
    if (bad_line == INT_MAX) return;
    if (!bad_string)
        fail(ld, bad_path, "%s has a positional value %s; write its fields as name = value",
             where(path), bad);
    const char *near = nearest(bad, valid, n);
    char list[1024];
    join_names(list, sizeof list, valid, n, 0);
    if (near && always_list)
        fail(ld, bad_path, "unknown %s '%s' in %s; did you mean '%s'? (valid %s: %s)", noun, bad,
             where(path), near, plural, list);
    if (near) fail(ld, bad_path, "unknown %s '%s' in %s; did you mean '%s'?", noun, bad, where(path), near);
    fail(ld, bad_path, "unknown %s '%s' in %s; valid %s: %s", noun, bad, where(path), plural, n ? list : "none");
}

static void check_fields(loader *ld, int t, const char *path, const char *const *valid, size_t n)
{
    check_keys(ld, t, path, "key", "keys", valid, n, 0);
}

/* Checks that the table at t is a list {v1, v2, ...} and returns its length. */
static int check_list(loader *ld, int t, const char *path, const char *what, int min, int max)
{
    lua_State *L = ld->L;
    lua_Unsigned n = lua_rawlen(L, t);
    lua_Unsigned count = 0;
    char bad_path[PATH_LEN] = "", bad[SHOW_LEN + 4] = "";
    int bad_line = INT_MAX;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        count++;
        if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 &&
            (lua_Unsigned)lua_tointeger(L, -1) <= n)
            continue;
        char kp[PATH_LEN], text[SHOW_LEN + 4];
        key_text(L, text);
        if (lua_type(L, -1) == LUA_TSTRING) path_key(kp, path, lua_tostring(L, -1));
        else snprintf(kp, sizeof kp, "%s", path);
        int line = linemap_line(&ld->map, kp);
        /* ties broken by name: lua_next's order changes from run to run */
        if (line < bad_line || (line == bad_line && strcmp(text, bad) < 0)) {
            bad_line = line;
            snprintf(bad_path, sizeof bad_path, "%s", kp);
            snprintf(bad, sizeof bad, "%s", text);
        }
    }
    if (bad_line != INT_MAX)
        fail(ld, bad_path, "%s must be a list of %s, but has the key '%s'", path, what, bad);
    if (count != n) fail(ld, path, "%s must be a list of %s without holes", path, what);
    if (n == 0 && min > 0) fail(ld, path, "%s must not be empty", path);
    if (n < (lua_Unsigned)min) fail(ld, path, "%s must have at least %d %s", path, min, what);
    if (n > (lua_Unsigned)max) fail(ld, path, "%s has more than %d %s", path, max, what);
    return (int)n;
}

/* ------------------------------------------------------------------------------------ */
/* Typed values. Each takes the value at idx and the path it was found at.               */

enum { D_SIGNED = 1, D_NONE = 2, D_POSITIVE = 4 };

static int64_t to_duration(loader *ld, int idx, const char *path, int flags)
{
    lua_State *L = ld->L;
    int64_t us = 0;
    char got[SHOW_LEN + 8];
    const int64_t max_ms = DURATION_MAX_US / 1000;
    int type = lua_type(L, idx);
    if (type == LUA_TBOOLEAN && (flags & D_NONE) && !lua_toboolean(L, idx)) return DUR_NONE;
    if (type == LUA_TNUMBER) {
        if (lua_isinteger(L, idx)) {
            lua_Integer v = lua_tointeger(L, idx);
            if (v > max_ms || v < -max_ms) fail(ld, path, "%s is too large", path);
            us = (int64_t)v * 1000;
        } else {
            double v = lua_tonumber(L, idx);
            if (!isfinite(v) || fabs(v) > (double)max_ms) fail(ld, path, "%s is too large", path);
            us = (int64_t)llround(v * 1000.0);
        }
        snprintf(got, sizeof got, "%.14g", (double)lua_tonumber(L, idx));
    } else if (type == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        char shown[SHOW_LEN + 4];
        if ((flags & D_NONE) && strcmp(s, "none") == 0) return DUR_NONE;
        int rc = duration_text(s, len, &us);
        if (rc == -1)
            fail(ld, path, "%s: bad duration \"%s\" (write a number of ms or a string like "
                 "\"250ms\" or \"10s\"; units: us, ms, s, m, h)", path, show(shown, s, len));
        if (rc == -2) fail(ld, path, "%s is too large", path);
        snprintf(got, sizeof got, "\"%s\"", show(shown, s, len));
    } else {
        fail(ld, path, "%s must be a duration%s (a number of ms or a string like \"10s\"), not %s",
             path, flags & D_NONE ? " or false" : "", type_name(L, idx));
    }
    if (us < 0 && !(flags & D_SIGNED)) fail(ld, path, "%s must not be negative (got %s)", path, got);
    if (us <= 0 && (flags & D_POSITIVE)) fail(ld, path, "%s must be more than 0 (got %s)", path, got);
    return us;
}

static double to_number(loader *ld, int idx, const char *path, double lo, double hi)
{
    if (lua_type(ld->L, idx) != LUA_TNUMBER)
        fail(ld, path, "%s must be a number, not %s", path, type_name(ld->L, idx));
    double v = lua_tonumber(ld->L, idx);
    if (!(v >= lo && v <= hi)) fail(ld, path, "%s must be between %g and %g (got %g)", path, lo, hi, v);
    return v;
}

static long long to_integer(loader *ld, int idx, const char *path, long long lo, long long hi)
{
    lua_State *L = ld->L;
    int ok = 0;
    lua_Integer v = 0;
    if (lua_type(L, idx) != LUA_TNUMBER)
        fail(ld, path, "%s must be a whole number, not %s", path, type_name(L, idx));
    v = lua_tointegerx(L, idx, &ok);
    if (!ok) fail(ld, path, "%s must be a whole number (got %.14g)", path, (double)lua_tonumber(L, idx));
    if (v < lo || v > hi) {
        if (hi == LLONG_MAX) fail(ld, path, "%s must be at least %lld (got %lld)", path, lo, (long long)v);
        fail(ld, path, "%s must be between %lld and %lld (got %lld)", path, lo, hi, (long long)v);
    }
    return v;
}

static const char *to_string(loader *ld, int idx, const char *path)
{
    size_t len;
    if (lua_type(ld->L, idx) != LUA_TSTRING)
        fail(ld, path, "%s must be a string, not %s", path, type_name(ld->L, idx));
    const char *s = lua_tolstring(ld->L, idx, &len);
    if (strlen(s) != len) fail(ld, path, "%s contains a NUL byte", path);
    return s;
}

/* One of choices[0..n): returns its index. */
static int to_choice(loader *ld, int idx, const char *path, const char *const *choices, size_t n)
{
    lua_State *L = ld->L;
    char msg[512], shown[SHOW_LEN + 4];
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *s = lua_tostring(L, idx);
        for (size_t i = 0; i < n; i++)
            if (strcmp(s, choices[i]) == 0) return (int)i;
    }
    join_names(msg, sizeof msg, choices, n, 1);
    if (lua_type(L, idx) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        fail(ld, path, "%s must be %s (got \"%s\")", path, msg, show(shown, s, len));
    }
    fail(ld, path, "%s must be %s, not %s", path, msg, type_name(L, idx));
}

/* An actor name: 1..32 letters, digits, '_' or '-'. */
static const char *to_name(loader *ld, int idx, const char *path)
{
    const char *s = to_string(ld, idx, path);
    size_t len = strlen(s);
    int ok = len >= 1 && len <= NAME_MAX_LEN;
    for (size_t i = 0; ok && i < len; i++)
        ok = isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-';
    char shown[SHOW_LEN + 4];
    if (!ok)
        fail(ld, path, "%s: '%s' is not a valid name (1 to %d letters, digits, '_' or '-')", path,
             show(shown, s, len), NAME_MAX_LEN);
    return s;
}

/* Optional fields: each pushes nothing and returns the default when the field is absent. */
static int64_t opt_duration(loader *ld, int t, const char *parent, const char *key, int64_t dflt, int flags)
{
    char path[PATH_LEN];
    path_key(path, parent, key);
    int64_t v = dflt;
    if (get(ld->L, t, key) != LUA_TNIL) v = to_duration(ld, -1, path, flags);
    lua_pop(ld->L, 1);
    return v;
}

static double opt_number(loader *ld, int t, const char *parent, const char *key, double dflt, double lo, double hi)
{
    char path[PATH_LEN];
    path_key(path, parent, key);
    double v = dflt;
    if (get(ld->L, t, key) != LUA_TNIL) v = to_number(ld, -1, path, lo, hi);
    lua_pop(ld->L, 1);
    return v;
}

static long long opt_integer(loader *ld, int t, const char *parent, const char *key, long long dflt,
                             long long lo, long long hi)
{
    char path[PATH_LEN];
    path_key(path, parent, key);
    long long v = dflt;
    if (get(ld->L, t, key) != LUA_TNIL) v = to_integer(ld, -1, path, lo, hi);
    lua_pop(ld->L, 1);
    return v;
}

/* A string field copied to the heap; NULL when absent and not required. */
static char *opt_string(loader *ld, int t, const char *parent, const char *key, int required)
{
    char path[PATH_LEN];
    path_key(path, parent, key);
    if (get(ld->L, t, key) == LUA_TNIL) {
        lua_pop(ld->L, 1);
        if (required) fail(ld, parent, "%s has no '%s' (it is required)", where(parent), key);
        return NULL;
    }
    const char *s = to_string(ld, -1, path);
    if (!*s && required) fail(ld, path, "%s must not be empty", path);
    char *copy = xstrdup(s);
    lua_pop(ld->L, 1);
    return copy;
}

/* Pushes the table field `key` (absolute index returned), or returns 0 with nothing pushed. */
static int opt_table(loader *ld, int t, const char *parent, const char *key)
{
    char path[PATH_LEN];
    path_key(path, parent, key);
    int type = get(ld->L, t, key);
    if (type == LUA_TNIL) {
        lua_pop(ld->L, 1);
        return 0;
    }
    if (type != LUA_TTABLE) fail(ld, path, "%s must be a table, not %s", path, type_name(ld->L, -1));
    return lua_gettop(ld->L);
}

/* { offset = signed duration, drift = rate }; fields not given keep the values in c. */
static void load_clock(loader *ld, int t, const char *parent, clock_cfg *c)
{
    static const char *const keys[] = { "offset", "drift" };
    char path[PATH_LEN];
    path_key(path, parent, "clock");
    int ct = opt_table(ld, t, parent, "clock");
    if (!ct) return;
    check_fields(ld, ct, path, keys, LL_ARRAY_LEN(keys));
    int64_t off = opt_duration(ld, ct, path, "offset", INT64_MIN, D_SIGNED);
    if (off != INT64_MIN) c->offset_ms = (off >= 0 ? off + 500 : off - 500) / 1000;
    c->drift = opt_number(ld, ct, path, "drift", c->drift, -0.5, 1.0);
    lua_pop(ld->L, 1);
}

/* A delay distribution: D, {lo, hi} or { exponential = mean }. */
static dist to_dist(loader *ld, int idx, const char *path)
{
    lua_State *L = ld->L;
    if (lua_type(L, idx) != LUA_TTABLE) {
        if (lua_type(L, idx) != LUA_TNUMBER && lua_type(L, idx) != LUA_TSTRING)
            fail(ld, path, "%s must be a duration, {lo, hi} or { exponential = mean }, not %s", path,
                 type_name(L, idx));
        return (dist){ DIST_CONST, to_duration(ld, idx, path, 0), 0 };
    }
    int t = lua_absindex(L, idx);
    char p[PATH_LEN];
    if (lua_rawlen(L, t) == 0) {
        static const char *const keys[] = { "exponential" };
        check_fields(ld, t, path, keys, 1);
        path_key(p, path, "exponential");
        if (get(L, t, "exponential") == LUA_TNIL)
            fail(ld, path, "%s must be a duration, {lo, hi} or { exponential = mean }", path);
        dist d = { DIST_EXP, to_duration(ld, -1, p, D_POSITIVE), 0 };
        lua_pop(L, 1);
        return d;
    }
    check_list(ld, t, path, "durations", 2, 2);
    dist d = { DIST_UNIFORM, 0, 0 };
    lua_rawgeti(L, t, 1);
    path_index(p, path, 1);
    d.a = to_duration(ld, -1, p, 0);
    lua_rawgeti(L, t, 2);
    path_index(p, path, 2);
    d.b = to_duration(ld, -1, p, 0);
    lua_pop(L, 2);
    if (d.a > d.b) fail(ld, path, "%s: the low end of {lo, hi} is above the high end", path);
    return d;
}

static dist opt_dist(loader *ld, int t, const char *parent, const char *key, dist dflt)
{
    char path[PATH_LEN];
    path_key(path, parent, key);
    dist d = dflt;
    if (get(ld->L, t, key) != LUA_TNIL) d = to_dist(ld, -1, path);
    lua_pop(ld->L, 1);
    return d;
}

/* ------------------------------------------------------------------------------------ */
/* Actors                                                                                 */

enum { ACT_NODE = 1, ACT_CLIENT = 2, ACT_MASTER = 4 /* a master node only */ };

static const char *actor_kinds(int kinds)
{
    return kinds & ACT_MASTER ? "master node" : kinds == ACT_NODE ? "node"
           : kinds == ACT_CLIENT ? "client" : "node or client";
}

static int actor_ref_cmp(const void *a, const void *b)
{
    return strcmp(((const actor_ref *)a)->name, ((const actor_ref *)b)->name);
}

/* The node or client called `name`, or NULL. Names are unique across both (load_clients
 * checks), so one sorted index answers for either kind. */
static const actor_ref *find_actor(loader *ld, const char *name)
{
    const scenario *s = ld->s;
    if (!ld->actors) {
        int n = s->nnodes + s->nclients;
        ld->actors = xcalloc((size_t)n + 1, sizeof *ld->actors);
        ld->seen_stamp = xcalloc((size_t)n + 1, sizeof *ld->seen_stamp);
        ld->seen_group = xcalloc((size_t)n + 1, sizeof *ld->seen_group);
        for (int i = 0; i < s->nnodes; i++)
            if (s->nodes[i].name) ld->actors[ld->nactors++] = (actor_ref){ s->nodes[i].name, i, -1 };
        for (int i = 0; i < s->nclients; i++)
            if (s->clients[i].name) ld->actors[ld->nactors++] = (actor_ref){ s->clients[i].name, -1, i };
        qsort(ld->actors, (size_t)ld->nactors, sizeof *ld->actors, actor_ref_cmp);
    }
    actor_ref key = { name, -1, -1 };
    return bsearch(&key, ld->actors, (size_t)ld->nactors, sizeof *ld->actors, actor_ref_cmp);
}

/* Checks that `name` is an actor of one of `kinds`; `user` names the fault for messages. */
static void check_actor(loader *ld, const char *path, const char *name, int kinds, const char *user)
{
    const scenario *s = ld->s;
    const actor_ref *ref = find_actor(ld, name);
    int ni = ref ? ref->node : -1, ci = ref ? ref->client : -1;
    char shown[SHOW_LEN + 4];
    show(shown, name, strlen(name));
    if (ni < 0 && ci < 0) {
        const char *names[MAX_NODES + MAX_CLIENTS];
        size_t n = 0;
        for (int i = 0; (kinds & (ACT_NODE | ACT_MASTER)) && i < s->nnodes; i++)
            if (!(kinds & ACT_MASTER) || s->nodes[i].master < 0) names[n++] = s->nodes[i].name;
        for (int i = 0; (kinds & ACT_CLIENT) && i < s->nclients; i++) names[n++] = s->clients[i].name;
        const char *near = nearest(name, names, n);
        if (near) fail(ld, path, "%s: no %s named '%s'; did you mean '%s'?", path, actor_kinds(kinds), shown, near);
        fail(ld, path, "%s: no %s named '%s'", path, actor_kinds(kinds), shown);
    }
    if (ci >= 0 && !(kinds & ACT_CLIENT))
        fail(ld, path, "%s: '%s' is a client, but %s needs a %s", path, shown, user, actor_kinds(kinds));
    if (ni >= 0 && !(kinds & (ACT_NODE | ACT_MASTER)))
        fail(ld, path, "%s: '%s' is a node, but %s needs a %s", path, shown, user, actor_kinds(kinds));
    if (ni >= 0 && (kinds & ACT_MASTER)) {
        if (s->nodes[ni].master >= 0)
            fail(ld, path, "%s: '%s' is a replica, but %s needs a master node", path, shown, user);
        int replicas = 0;
        for (int i = 0; i < s->nnodes; i++) replicas += s->nodes[i].master == ni;
        if (!replicas) fail(ld, path, "%s: '%s' has no replica to fail over to (set replicas)", path, shown);
    }
}

static char *to_actor(loader *ld, int idx, const char *path, int kinds, const char *user)
{
    const char *name = to_string(ld, idx, path);
    check_actor(ld, path, name, kinds, user);
    return xstrdup(name);
}

/* ------------------------------------------------------------------------------------ */
/* Sections                                                                               */

static const char *const persist_names[] = { "none", "everysec", "always" };

static void load_nodes(loader *ld, int root)
{
    lua_State *L = ld->L;
    scenario *s = ld->s;
    persistence persist = PERSIST_NONE;
    if (get(L, root, "persistence") != LUA_TNIL)
        persist = (persistence)to_choice(ld, -1, "persistence", persist_names, 3);
    lua_pop(L, 1);
    int64_t restart = opt_duration(ld, root, "", "restart_delay", -1, D_NONE);
    if (restart == DUR_NONE) restart = -1;
    clock_cfg clock = { 0, 0 };
    load_clock(ld, root, "", &clock);
    int replicas = (int)opt_integer(ld, root, "", "replicas", 0, 0, MAX_REPLICAS);

    int type = get(L, root, "nodes"), masters = 1;
    int names = 0;
    if (type == LUA_TTABLE) {
        names = lua_gettop(L);
        masters = check_list(ld, names, "nodes", "node names", 1, MAX_MASTERS);
    } else if (type != LUA_TNIL) {
        if (type != LUA_TNUMBER)
            fail(ld, "nodes", "nodes must be a count or a list of names, not %s", type_name(L, -1));
        masters = (int)to_integer(ld, -1, "nodes", 1, MAX_MASTERS);
    }
    s->nmasters = masters;
    s->nnodes = masters * (1 + replicas);
    s->nodes = xcalloc((size_t)s->nnodes, sizeof *s->nodes);
    int nodes_line = linemap_line(&ld->map, "nodes");
    for (int i = 0; i < s->nnodes; i++) {
        node_cfg *n = &s->nodes[i];
        n->master = -1;
        n->persist = persist;
        n->restart_delay = restart;
        n->clock = clock;
        n->line = nodes_line;
    }
    char path[PATH_LEN], name[NAME_MAX_LEN + 16];
    for (int i = 0; i < masters; i++) {
        path_index(path, "nodes", i + 1);
        if (names) {
            lua_rawgeti(L, names, i + 1);
            s->nodes[i].name = xstrdup(to_name(ld, -1, path));
            lua_pop(L, 1);
            s->nodes[i].line = linemap_line(&ld->map, path);
        } else {
            snprintf(name, sizeof name, "n%d", i + 1);
            s->nodes[i].name = xstrdup(name);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(s->nodes[j].name, s->nodes[i].name) == 0)
                fail(ld, path, "%s: the name '%s' is used twice", path, s->nodes[i].name);
    }
    lua_pop(L, 1);
    int replicas_line = linemap_line(&ld->map, "replicas");
    for (int i = 0; i < masters; i++)
        for (int r = 0; r < replicas; r++) {
            node_cfg *n = &s->nodes[masters + i * replicas + r];
            snprintf(name, sizeof name, "%sr%d", s->nodes[i].name, r + 1);
            n->name = xstrdup(name);
            n->master = i;
            n->line = replicas_line;
            for (int j = 0; j < masters; j++)
                if (strcmp(s->nodes[j].name, name) == 0)
                    fail(ld, "replicas", "replicas: the replica name '%s' is already a node's name", name);
        }
}

static void load_per_node(loader *ld, int root)
{
    static const char *const keys[] = { "persistence", "restart_delay", "clock" };
    lua_State *L = ld->L;
    scenario *s = ld->s;
    int t = opt_table(ld, root, "", "per_node");
    if (!t) return;
    const char *names[MAX_NODES];
    for (int i = 0; i < s->nnodes; i++) names[i] = s->nodes[i].name;
    check_keys(ld, t, "per_node", "node", "nodes", names, (size_t)s->nnodes, 0);
    for (int i = 0; i < s->nnodes; i++) {
        node_cfg *n = &s->nodes[i];
        char path[PATH_LEN];
        path_key(path, "per_node", n->name);
        int type = get(L, t, n->name);
        if (type == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (type != LUA_TTABLE) fail(ld, path, "%s must be a table, not %s", path, type_name(L, -1));
        int nt = lua_gettop(L);
        check_fields(ld, nt, path, keys, LL_ARRAY_LEN(keys));
        char p[PATH_LEN];
        path_key(p, path, "persistence");
        if (get(L, nt, "persistence") != LUA_TNIL)
            n->persist = (persistence)to_choice(ld, -1, p, persist_names, 3);
        lua_pop(L, 1);
        int64_t restart = opt_duration(ld, nt, path, "restart_delay", INT64_MIN, D_NONE);
        if (restart != INT64_MIN) n->restart_delay = restart == DUR_NONE ? -1 : restart;
        load_clock(ld, nt, path, &n->clock);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static void load_client(loader *ld, int t, const char *path, client_cfg *c)
{
    static const char *const keys[] = { "name", "start", "work", "rounds", "wait", "lease",
                                        "think", "clock" };
    lua_State *L = ld->L;
    check_fields(ld, t, path, keys, LL_ARRAY_LEN(keys));
    char p[PATH_LEN];
    path_key(p, path, "name");
    if (get(L, t, "name") == LUA_TNIL) fail(ld, path, "%s has no 'name' (it is required)", path);
    c->name = xstrdup(to_name(ld, -1, p));
    lua_pop(L, 1);
    c->start = opt_duration(ld, t, path, "start", 0, 0);
    c->work = opt_duration(ld, t, path, "work", 1000000, 0);
    c->rounds = (int)opt_integer(ld, t, path, "rounds", 1, 1, MAX_ROUNDS);
    c->wait = opt_duration(ld, t, path, "wait", -1, 0);
    c->lease = opt_duration(ld, t, path, "lease", -1, D_NONE | D_POSITIVE);
    c->think = opt_duration(ld, t, path, "think", 0, 0);
    load_clock(ld, t, path, &c->clock);
}

static void load_clients(loader *ld, int root)
{
    lua_State *L = ld->L;
    scenario *s = ld->s;
    int t = opt_table(ld, root, "", "clients");
    if (!t) fail(ld, "", "the scenario has no 'clients' (it is required)");
    int n = check_list(ld, t, "clients", "clients", 1, MAX_CLIENTS);
    s->clients = xcalloc((size_t)n, sizeof *s->clients);
    s->nclients = n;
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN];
        path_index(path, "clients", i + 1);
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
            fail(ld, path, "%s must be a table { name = ..., ... }, not %s", path, type_name(L, -1));
        client_cfg *c = &s->clients[i];
        c->line = linemap_line(&ld->map, path);
        load_client(ld, lua_gettop(L), path, c);
        lua_pop(L, 1);
        char np[PATH_LEN];
        path_key(np, path, "name");
        for (int j = 0; j < i; j++)
            if (strcmp(s->clients[j].name, c->name) == 0)
                fail(ld, np, "%s: the name '%s' is used twice", np, c->name);
        if (scenario_node_index(s, c->name) >= 0)
            fail(ld, np, "%s: '%s' is already the name of a node", np, c->name);
    }
    lua_pop(L, 1);
}

static void load_network(loader *ld, int root)
{
    static const char *const keys[] = { "delay", "loss" };
    static const char *const repl_keys[] = { "lag", "down_after", "detection" };
    scenario *s = ld->s;
    s->delay = (dist){ DIST_UNIFORM, 1000, 5000 };
    int t = opt_table(ld, root, "", "network");
    if (t) {
        check_fields(ld, t, "network", keys, LL_ARRAY_LEN(keys));
        s->delay = opt_dist(ld, t, "network", "delay", s->delay);
        s->loss = opt_number(ld, t, "network", "loss", 0, 0, 1);
        lua_pop(ld->L, 1);
    }
    s->repl_lag = s->delay;
    s->down_after = 5000000;
    s->detection = 1000000;
    t = opt_table(ld, root, "", "replication");
    if (t) {
        check_fields(ld, t, "replication", repl_keys, LL_ARRAY_LEN(repl_keys));
        s->repl_lag = opt_dist(ld, t, "replication", "lag", s->repl_lag);
        s->down_after = opt_duration(ld, t, "replication", "down_after", s->down_after, D_POSITIVE);
        s->detection = opt_duration(ld, t, "replication", "detection", s->detection, 0);
        lua_pop(ld->L, 1);
    }
}

static void load_links(loader *ld, int root)
{
    static const char *const keys[] = { "from", "to", "delay", "loss" };
    lua_State *L = ld->L;
    scenario *s = ld->s;
    int t = opt_table(ld, root, "", "links");
    if (!t) return;
    int n = check_list(ld, t, "links", "links", 0, MAX_LINKS);
    s->links = xcalloc((size_t)(n ? n : 1), sizeof *s->links);
    s->nlinks = n;
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN], p[PATH_LEN];
        path_index(path, "links", i + 1);
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
            fail(ld, path, "%s must be a table { from = ..., to = ... }, not %s", path, type_name(L, -1));
        int lt = lua_gettop(L);
        link_cfg *l = &s->links[i];
        l->line = linemap_line(&ld->map, path);
        check_fields(ld, lt, path, keys, LL_ARRAY_LEN(keys));
        for (int end = 0; end < 2; end++) {
            const char *key = end ? "to" : "from";
            path_key(p, path, key);
            if (get(L, lt, key) == LUA_TNIL) fail(ld, path, "%s has no '%s' (it is required)", path, key);
            char *name = to_actor(ld, -1, p, ACT_NODE | ACT_CLIENT, "a link");
            if (end) l->to = name;
            else l->from = name;
            lua_pop(L, 1);
        }
        if (strcmp(l->from, l->to) == 0) fail(ld, path, "%s: a link joins two different actors", path);
        for (int j = 0; j < i; j++) {
            const link_cfg *o = &s->links[j];
            if ((!strcmp(o->from, l->from) && !strcmp(o->to, l->to)) ||
                (!strcmp(o->from, l->to) && !strcmp(o->to, l->from)))
                fail(ld, path, "%s: the link %s-%s is given twice (links work both ways)", path, l->from, l->to);
        }
        l->delay = opt_dist(ld, lt, path, "delay", s->delay);
        l->loss = opt_number(ld, lt, path, "loss", s->loss, 0, 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ------------------------------------------------------------------------------------ */
/* Faults                                                                                 */

static const char *const fault_names[] = { "gc_pause", "crash", "restart", "clock_jump", "drift",
                                           "partition", "failover", "drop" };

/* What each kind accepts besides `at` and its own key; the first `nrequired` are required. */
static const struct fault_spec {
    int targets;               /* ACT_* for a single-name target; 0 for partition and drop */
    const char *keys[2];
    int nkeys, nrequired;
} fault_specs[] = {
    [FAULT_GC_PAUSE] = { ACT_CLIENT, { "duration" }, 1, 1 },
    [FAULT_CRASH] = { ACT_NODE | ACT_CLIENT, { 0 }, 0, 0 },
    [FAULT_RESTART] = { ACT_NODE, { 0 }, 0, 0 },
    [FAULT_CLOCK_JUMP] = { ACT_NODE | ACT_CLIENT, { "by" }, 1, 1 },
    [FAULT_DRIFT] = { ACT_NODE | ACT_CLIENT, { "rate" }, 1, 1 },
    [FAULT_PARTITION] = { 0, { "duration" }, 1, 1 },
    [FAULT_FAILOVER] = { ACT_MASTER, { 0 }, 0, 0 },
    [FAULT_DROP] = { 0, { "probability", "duration" }, 2, 1 },
};

const char *fault_kind_name(fault_kind k)
{
    return (size_t)k < LL_ARRAY_LEN(fault_names) ? fault_names[k] : "?";
}

/* Finds the fault's kind: exactly one kind key. */
static fault_kind fault_kind_of(loader *ld, int t, const char *path)
{
    int found = -1;
    for (int k = 0; k < (int)LL_ARRAY_LEN(fault_names); k++) {
        int present = get(ld->L, t, fault_names[k]) != LUA_TNIL;
        lua_pop(ld->L, 1);
        if (!present) continue;
        if (found >= 0)
            fail(ld, path, "%s has two kinds, '%s' and '%s'; a fault has exactly one", path,
                 fault_names[found], fault_names[k]);
        found = k;
    }
    if (found < 0) {
        char list[256];
        fail(ld, path, "%s has no kind; give one of %s", path,
             join_names(list, sizeof list, fault_names, LL_ARRAY_LEN(fault_names), 0));
    }
    return (fault_kind)found;
}

/* Keys of a fault: every key must belong to its kind; a key of another kind is named so. */
static void check_fault_keys(loader *ld, int t, const char *path, fault_kind kind)
{
    const struct fault_spec *fs = &fault_specs[kind];
    const char *valid[4] = { "at", fault_names[kind] };
    size_t n = 2;
    for (int i = 0; i < fs->nkeys; i++) valid[n++] = fs->keys[i];
    static const char *const any[] = { "at", "duration", "by", "rate", "probability" };
    for (size_t i = 0; i < LL_ARRAY_LEN(any); i++) {
        size_t j = 0;
        while (j < n && strcmp(valid[j], any[i]) != 0) j++;
        if (j < n) continue;
        int present = get(ld->L, t, any[i]) != LUA_TNIL;
        lua_pop(ld->L, 1);
        if (!present) continue;
        char p[PATH_LEN], list[256];
        path_key(p, path, any[i]);
        fail(ld, p, "%s: '%s' does not apply to a %s fault (its keys: %s)", path, any[i],
             fault_names[kind], join_names(list, sizeof list, valid, n, 0));
    }
    check_fields(ld, t, path, valid, n);
}

/* partition = { {"A", "n1"}, {"B", "n2", "n3"} }: actors in different groups cannot talk;
 * an actor named in no group keeps talking to everyone (as sim/world.c applies it), so a
 * partition needs two groups to cut anything. */
static void load_partition(loader *ld, int idx, const char *path, fault_cfg *f)
{
    lua_State *L = ld->L;
    const scenario *s = ld->s;
    if (lua_type(L, idx) != LUA_TTABLE)
        fail(ld, path, "%s must be a list of groups, like { {\"A\", \"n1\"}, {\"B\", \"n2\"} }, not %s",
             path, type_name(L, idx));
    int t = lua_absindex(L, idx);
    int ngroups = check_list(ld, t, path, "groups", 2, MAX_NODES + MAX_CLIENTS);
    int nactors = s->nnodes + s->nclients;
    f->groups = xcalloc((size_t)ngroups + 1, sizeof *f->groups); /* NULL-terminated too */
    f->ngroups = ngroups;
    int stamp = ++ld->stamp; /* marks the actors this partition names, in O(1) per name */
    for (int g = 0; g < ngroups; g++) {
        char gp[PATH_LEN];
        path_index(gp, path, g + 1);
        if (lua_rawgeti(L, t, g + 1) != LUA_TTABLE)
            fail(ld, gp, "%s must be a list of names, not %s", gp, type_name(L, -1));
        int gt = lua_gettop(L);
        int n = check_list(ld, gt, gp, "names", 1, nactors);
        f->groups[g] = xcalloc((size_t)n + 1, sizeof **f->groups);
        for (int i = 0; i < n; i++) {
            char np[PATH_LEN];
            path_index(np, gp, i + 1);
            lua_rawgeti(L, gt, i + 1);
            f->groups[g][i] = to_actor(ld, -1, np, ACT_NODE | ACT_CLIENT, "a partition");
            lua_pop(L, 1);
            int id = (int)(find_actor(ld, f->groups[g][i]) - ld->actors);
            if (ld->seen_stamp[id] == stamp)
                fail(ld, np, "%s: '%s' is in two groups%s", np, f->groups[g][i],
                     ld->seen_group[id] == g ? " (named twice in one)" : "");
            ld->seen_stamp[id] = stamp;
            ld->seen_group[id] = g;
        }
        lua_pop(L, 1);
    }
}

/* drop = {"A", "n1"}: a link, both directions. */
static void load_drop_link(loader *ld, int idx, const char *path, fault_cfg *f)
{
    lua_State *L = ld->L;
    if (lua_type(L, idx) != LUA_TTABLE)
        fail(ld, path, "%s must be a link {from, to}, like {\"A\", \"n1\"}, not %s", path, type_name(L, idx));
    int t = lua_absindex(L, idx);
    check_list(ld, t, path, "names", 2, 2); /* "must have at least 2 names" */
    char p[PATH_LEN];
    path_index(p, path, 1);
    lua_rawgeti(L, t, 1);
    f->from = to_actor(ld, -1, p, ACT_NODE | ACT_CLIENT, "drop");
    path_index(p, path, 2);
    lua_rawgeti(L, t, 2);
    f->to = to_actor(ld, -1, p, ACT_NODE | ACT_CLIENT, "drop");
    lua_pop(L, 2);
    if (strcmp(f->from, f->to) == 0) fail(ld, path, "%s: a link joins two different actors", path);
}

static void load_fault(loader *ld, int t, const char *path, fault_cfg *f)
{
    lua_State *L = ld->L;
    const scenario *s = ld->s;
    fault_kind kind = fault_kind_of(ld, t, path);
    const char *kn = fault_names[kind];
    f->kind = kind;
    f->duration = -1;
    check_fault_keys(ld, t, path, kind);
    for (int i = 0; i < fault_specs[kind].nrequired; i++) {
        int present = get(L, t, fault_specs[kind].keys[i]) != LUA_TNIL;
        lua_pop(L, 1);
        if (!present)
            fail(ld, path, "%s: a %s fault needs '%s'", path, kn, fault_specs[kind].keys[i]);
    }
    char p[PATH_LEN];
    path_key(p, path, "at");
    if (get(L, t, "at") == LUA_TNIL) fail(ld, path, "%s has no 'at' (when the fault happens)", path);
    f->at = to_duration(ld, -1, p, 0);
    lua_pop(L, 1);
    if (f->at > s->duration)
        fail(ld, p, "%s: the fault comes after the end of the scenario (duration %.14gs)", p,
             (double)s->duration / 1e6);

    path_key(p, path, kn);
    get(L, t, kn);
    if (kind == FAULT_PARTITION) load_partition(ld, -1, p, f);
    else if (kind == FAULT_DROP) load_drop_link(ld, -1, p, f);
    else f->target = to_actor(ld, -1, p, fault_specs[kind].targets, kn);
    lua_pop(L, 1);

    f->duration = opt_duration(ld, t, path, "duration", -1, D_POSITIVE);
    if (kind == FAULT_CLOCK_JUMP) {
        int64_t by = opt_duration(ld, t, path, "by", 0, D_SIGNED);
        f->by_ms = (by >= 0 ? by + 500 : by - 500) / 1000;
    }
    f->rate = opt_number(ld, t, path, "rate", 0, -0.5, 1.0);
    f->probability = opt_number(ld, t, path, "probability", 0, 0, 1);
}

static void load_faults(loader *ld, int root)
{
    lua_State *L = ld->L;
    scenario *s = ld->s;
    int t = opt_table(ld, root, "", "faults");
    if (!t) return;
    int n = check_list(ld, t, "faults", "faults", 0, MAX_FAULTS);
    s->faults = xcalloc((size_t)(n ? n : 1), sizeof *s->faults);
    s->nfaults = n;
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN];
        path_index(path, "faults", i + 1);
        fault_cfg *f = &s->faults[i];
        f->line = linemap_line(&ld->map, path);
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
            fail(ld, path, "%s must be a table { at = ..., <kind> = ... }, not %s", path, type_name(L, -1));
        load_fault(ld, lua_gettop(L), path, f);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ------------------------------------------------------------------------------------ */
/* expect, options, explore                                                               */

static const char *const property_names[] = { "mutual_exclusion", "resource_safety", "release_safety",
                                              "no_deadlock", "fairness", "reentrancy" };

static void load_expect(loader *ld, int root)
{
    static const char *const verdicts[] = { "holds", "violated" };
    lua_State *L = ld->L;
    scenario *s = ld->s;
    int t = opt_table(ld, root, "", "expect");
    if (!t) return;
    check_keys(ld, t, "expect", "property", "properties", property_names, LL_ARRAY_LEN(property_names), 1);
    s->expects = xcalloc(LL_ARRAY_LEN(property_names), sizeof *s->expects);
    for (size_t i = 0; i < LL_ARRAY_LEN(property_names); i++) {
        char path[PATH_LEN];
        path_key(path, "expect", property_names[i]);
        if (get(L, t, property_names[i]) != LUA_TNIL) {
            expect_cfg *e = &s->expects[s->nexpects++];
            e->property = xstrdup(property_names[i]);
            e->line = linemap_line(&ld->map, path);
            e->violated = to_choice(ld, -1, path, verdicts, 2);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static int option_cmp(const void *a, const void *b)
{
    return strcmp(((const option_cfg *)a)->key, ((const option_cfg *)b)->key);
}

static void load_options(loader *ld, int root)
{
    lua_State *L = ld->L;
    scenario *s = ld->s;
    int t = opt_table(ld, root, "", "options");
    if (!t) return;
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        n++;
    }
    s->options = xcalloc((size_t)(n ? n : 1), sizeof *s->options);
    /* pass 1: the keys, sorted, so that pass 2 checks values in a stable order; of several
     * keys that are not names, the one written first (lua_next's order changes per run) */
    char bad[SHOW_LEN + 4] = "", bad_path[PATH_LEN] = "";
    int bad_line = INT_MAX;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        char kp[PATH_LEN], text[SHOW_LEN + 4];
        if (lua_type(L, -1) != LUA_TSTRING) {
            key_text(L, text);
            if (lua_isinteger(L, -1)) path_index(kp, "options", (long long)lua_tointeger(L, -1));
            else snprintf(kp, sizeof kp, "options");
            int line = linemap_line(&ld->map, kp);
            if (line < bad_line || (line == bad_line && strcmp(text, bad) < 0)) {
                bad_line = line;
                snprintf(bad, sizeof bad, "%s", text);
                snprintf(bad_path, sizeof bad_path, "%s", kp);
            }
            continue;
        }
        s->options[s->noptions++].key = xstrdup(lua_tostring(L, -1));
    }
    if (bad_line != INT_MAX)
        fail(ld, bad_path, "options has a positional value %s; write options as name = value", bad);
    qsort(s->options, (size_t)s->noptions, sizeof *s->options, option_cmp);
    for (int i = 0; i < s->noptions; i++) {
        option_cfg *o = &s->options[i];
        char path[PATH_LEN];
        path_key(path, "options", o->key);
        o->line = linemap_line(&ld->map, path);
        switch (get(L, t, o->key)) {
        case LUA_TSTRING:
            o->type = OPT_STRING;
            o->s = xstrdup(to_string(ld, -1, path));
            break;
        case LUA_TNUMBER:
            o->type = OPT_NUMBER;
            o->num = lua_tonumber(L, -1);
            if (!isfinite(o->num)) fail(ld, path, "%s must be a finite number", path);
            break;
        case LUA_TBOOLEAN:
            o->type = OPT_BOOL;
            o->b = lua_toboolean(L, -1);
            break;
        default:
            fail(ld, path, "%s must be a string, a number or a boolean, not %s", path, type_name(L, -1));
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* explore.faults.<kind> = { targets... } or { targets = {...}, params = {...} }. */
static void load_explore_fault(loader *ld, int t, const char *path, fault_kind kind, explore_fault *ef)
{
    static const char *const keys[] = { "targets", "params" };
    lua_State *L = ld->L;
    const char *kn = fault_names[kind];
    int top = lua_gettop(L);
    ef->kind = kind;
    ef->line = linemap_line(&ld->map, path);
    int targets = t, params = 0;
    char tp[PATH_LEN], pp[PATH_LEN];
    snprintf(tp, sizeof tp, "%s", path);
    if (lua_rawlen(L, t) == 0) {
        check_fields(ld, t, path, keys, LL_ARRAY_LEN(keys));
        path_key(tp, path, "targets");
        targets = opt_table(ld, t, path, "targets");
        if (!targets) fail(ld, path, "%s has no 'targets' (it is required)", path);
        path_key(pp, path, "params");
        params = opt_table(ld, t, path, "params");
    }
    int n = check_list(ld, targets, tp, "actor names", 1, MAX_NODES + MAX_CLIENTS);
    ef->targets = xcalloc((size_t)n, sizeof *ef->targets);
    ef->ntargets = n;
    int actors = kind == FAULT_PARTITION || kind == FAULT_DROP ? ACT_NODE | ACT_CLIENT : fault_specs[kind].targets;
    int stamp = ++ld->stamp;
    for (int i = 0; i < n; i++) {
        char p[PATH_LEN];
        path_index(p, tp, i + 1);
        lua_rawgeti(L, targets, i + 1);
        ef->targets[i] = to_actor(ld, -1, p, actors, kn);
        lua_pop(L, 1);
        /* a target named twice would double that part of the search and change nothing */
        int id = (int)(find_actor(ld, ef->targets[i]) - ld->actors);
        if (ld->seen_stamp[id] == stamp) fail(ld, p, "%s: '%s' is named twice", p, ef->targets[i]);
        ld->seen_stamp[id] = stamp;
    }
    if (!params) {
        lua_settop(L, top);
        return;
    }
    if (kind == FAULT_RESTART || kind == FAULT_FAILOVER)
        fail(ld, pp, "%s: a %s takes no params", pp, kn);
    int np = check_list(ld, params, pp, "values", 1, 1000);
    int real = kind == FAULT_DRIFT || kind == FAULT_DROP;
    if (real) ef->values = xcalloc((size_t)np, sizeof *ef->values);
    else ef->params = xcalloc((size_t)np, sizeof *ef->params);
    for (int i = 0; i < np; i++) {
        char p[PATH_LEN];
        path_index(p, pp, i + 1);
        lua_rawgeti(L, params, i + 1);
        if (kind == FAULT_DRIFT) {
            ef->values[ef->nvalues++] = to_number(ld, -1, p, -0.5, 1.0);
        } else if (kind == FAULT_DROP) {
            ef->values[ef->nvalues++] = to_number(ld, -1, p, 0, 1);
        } else {
            /* as in faults: a pause or a partition lasts longer than 0 */
            int flags = kind == FAULT_CLOCK_JUMP ? D_SIGNED
                        : kind == FAULT_GC_PAUSE || kind == FAULT_PARTITION ? D_POSITIVE : 0;
            ef->params[ef->nparams++] = to_duration(ld, -1, p, flags);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, top);
}

static void load_explore(loader *ld, int root)
{
    static const char *const keys[] = { "faults", "max_faults", "horizon", "max_deviations", "max_depth" };
    lua_State *L = ld->L;
    scenario *s = ld->s;
    explore_cfg *x = &s->explore;
    int t = opt_table(ld, root, "", "explore");
    if (!t) return;
    x->present = 1;
    x->line = linemap_line(&ld->map, "explore");
    check_fields(ld, t, "explore", keys, LL_ARRAY_LEN(keys));
    if (get(L, t, "max_faults") == LUA_TNIL)
        fail(ld, "explore", "explore has no 'max_faults' (it is required)");
    x->max_faults = (int)to_integer(ld, -1, "explore.max_faults", 0, 1000);
    lua_pop(L, 1);
    x->horizon = opt_duration(ld, t, "explore", "horizon", 0, D_POSITIVE);
    if (x->horizon > s->duration)
        fail(ld, "explore.horizon", "explore.horizon is after the end of the scenario");
    x->max_depth = (int)opt_integer(ld, t, "explore", "max_depth", 0, 0, INT_MAX);
    x->max_deviations = (int)opt_integer(ld, t, "explore", "max_deviations", -1, 0, 1000000);
    int ft = opt_table(ld, t, "explore", "faults");
    if (ft) {
        check_keys(ld, ft, "explore.faults", "fault kind", "fault kinds", fault_names,
                   LL_ARRAY_LEN(fault_names), 1);
        x->faults = xcalloc(LL_ARRAY_LEN(fault_names), sizeof *x->faults);
        for (int k = 0; k < (int)LL_ARRAY_LEN(fault_names); k++) {
            char path[PATH_LEN];
            path_key(path, "explore.faults", fault_names[k]);
            int type = get(L, ft, fault_names[k]);
            if (type == LUA_TNIL) {
                lua_pop(L, 1);
                continue;
            }
            if (type != LUA_TTABLE)
                fail(ld, path, "%s must be a list of targets or { targets = {...}, params = {...} }, not %s",
                     path, type_name(L, -1));
            load_explore_fault(ld, lua_gettop(L), path, (fault_kind)k, &x->faults[x->nfaults++]);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ------------------------------------------------------------------------------------ */
/* The protocol: a model file beside the scenario, else lua/clients/<protocol>.lua, which
 * must exist under the data directory, the same place the engine will load it from
 * (ll_data_dir()).                                                                       */

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_protocol(loader *ld, int root)
{
    scenario *s = ld->s;
    s->protocol = opt_string(ld, root, "", "protocol", 1);
    char beside[4096]; /* a model in the scenario's folder comes first (scriptlib.h) */
    int found = ll_model_beside(ld->file, s->protocol, beside, sizeof beside);
    if (found < 0) fail(ld, "protocol", "protocol: no client model file '%s' (a path is read from the scenario's folder)", beside);
    if (found > 0) {
        free(s->protocol);
        s->protocol = xstrdup(beside);
        return;
    }
    const char *p = s->protocol;
    for (size_t i = 0; p[i]; i++)
        if (!(isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '-'))
            fail(ld, "protocol", "protocol: '%s' is not a protocol name (letters, digits, '_' and '-')", p);
    /* workload.lua sits beside the models but is the loop that drives one (acquire, work,
     * release); run as a protocol it fails only once the world is built, far from this line */
    if (!strcmp(p, "workload"))
        fail(ld, "protocol", "protocol: 'workload' is the workload loop every model runs under, not a "
             "protocol; name a model such as distlock, redisson or redlock");
    char dir[4096], path[4200];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/lua/clients", ll_data_dir());
    /* without a lua/clients there is nothing to check against; running will say so */
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return;
    snprintf(path, sizeof path, "%s/%s.lua", dir, p);
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return;
    /* the message lists what there is; the names are freed before failing */
    char *names[128];
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && n < LL_ARRAY_LEN(names) && (de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len > 4 && !strcmp(de->d_name + len - 4, ".lua") && strcmp(de->d_name, "workload.lua"))
            names[n++] = xmemdup(de->d_name, len - 4);
    }
    if (d) closedir(d);
    qsort(names, n, sizeof *names, name_cmp);
    const char *near = nearest(p, (const char *const *)names, n);
    char msg[1024], list[900];
    join_names(list, sizeof list, (const char *const *)names, n, 0);
    if (near) snprintf(msg, sizeof msg, "; did you mean '%s'?", near);
    else snprintf(msg, sizeof msg, " (there are: %s)", list);
    for (size_t i = 0; i < n; i++) free(names[i]);
    fail(ld, "protocol", "protocol: no client model lua/clients/%s.lua%s", p, msg);
}

/* ------------------------------------------------------------------------------------ */
/* The whole table                                                                        */

static const char *const root_keys[] = {
    "name", "about", "protocol", "mode", "nodes", "replicas", "persistence", "restart_delay",
    "clock", "per_node", "lease", "wait", "timeout", "network", "links", "replication",
    "clients", "faults", "duration", "seed", "fencing", "scripts", "lock", "expect", "options",
    "explore",
};

int scenario_check_scripts(const char *spec, buf *err)
{
    const char *p = spec, *at = strchr(p, '@');
    int ok = *p && (!at || (at > p && at[1] && !strchr(at + 1, '@')));
    for (size_t i = 0; ok && p[i]; i++)
        ok = isalnum((unsigned char)p[i]) || strchr("_-./@", p[i]);
    char shown[SHOW_LEN + 4];
    if (!ok) {
        buf_printf(err, "'%s' is not a script version (write \"HEAD\", \"3.11.1\" or \"redisson@3.11.1\")",
                   show(shown, p, strlen(p)));
        return -1;
    }
    /* The version must be one the library can answer for: HEAD, a label or version the index
     * names, or a numbered release between the oldest and newest numbered ones it holds. */
    const char *v = at ? at + 1 : p;
    if (!strcmp(v, "HEAD") && !at) return 0;
    buf lerr, known;
    buf_init(&lerr);
    buf_init(&known);
    scriptlib *lib = scriptlib_load(NULL, &lerr);
    buf_release(&lerr);
    if (!lib) { /* no library here (tests with their own data dir): nothing to check against */
        buf_release(&known);
        return 0;
    }
    const char *lo = NULL, *hi = NULL;
    int named = 0, family = !at;
    size_t plen = at ? (size_t)(at - p) : 0;
    for (size_t i = 0; i < scriptlib_count(lib); i++) {
        const script_info *si = scriptlib_at(lib, i);
        const char *sv = si->version;
        /* "redisson@" names the library whose release it is: the family of some script
         * ("redisson/lock"), or its stem ("redisson" of "redisson-fair/acquire"). The engine
         * reads only the version, so a misspelt library would otherwise pass unnoticed. */
        if (at && !strncmp(si->name, p, plen) && (si->name[plen] == '/' || si->name[plen] == '-')) family = 1;
        if (!strcmp(sv, v)) named = 1;
        if (!isdigit((unsigned char)sv[0])) continue;
        if (!lo || scriptlib_version_cmp(sv, lo) < 0) lo = sv;
        if (!hi || scriptlib_version_cmp(sv, hi) > 0) hi = sv;
        if (!strstr(known.p ? known.p : "", sv)) buf_printf(&known, "%s%s", known.len ? ", " : "", sv);
    }
    int in_range = isdigit((unsigned char)v[0]) && lo && scriptlib_version_cmp(v, lo) >= 0 && scriptlib_version_cmp(v, hi) <= 0;
    int rc = 0;
    if (!family) {
        buf_printf(err, "no scripts of a library '%.*s' (write \"redisson@3.11.1\", or the version alone)",
                   (int)(plen < SHOW_LEN ? plen : SHOW_LEN), p);
        rc = -1;
    } else if (!named && !in_range && strcmp(v, "HEAD") != 0) {
        buf_printf(err, "no script version '%s' in the library (HEAD, or a release from %s to %s; "
                   "the scripts were read at %s)", show(shown, v, strlen(v)), lo ? lo : "?", hi ? hi : "?",
                   known.p ? known.p : "");
        rc = -1;
    }
    scriptlib_free(lib);
    buf_release(&known);
    return rc;
}

static void load_scripts(loader *ld, int root)
{
    scenario *s = ld->s;
    s->scripts = opt_string(ld, root, "", "scripts", 0);
    if (!s->scripts) return;
    buf why;
    buf_init(&why);
    if (scenario_check_scripts(s->scripts, &why) == 0) {
        buf_release(&why);
        return;
    }
    /* the message is copied to the stack: a failing check unwinds past this frame */
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", why.p);
    buf_release(&why);
    fail(ld, "scripts", "scripts: %s", msg);
}

static int loader_validate(lua_State *L)
{
    loader *ld = lua_touserdata(L, 1);
    scenario *s = ld->s;
    const int root = 2;
    static const char *const modes[] = { "single", "redlock" };

    check_fields(ld, root, "", root_keys, LL_ARRAY_LEN(root_keys));
    s->name = opt_string(ld, root, "", "name", 1);
    /* the title heads traces, plots and reports, each on one line */
    for (const char *c = s->name; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            fail(ld, "name", "name must be one line of text (it has a control character such as a newline)");
    s->about = opt_string(ld, root, "", "about", 1);
    load_protocol(ld, root);
    int mode = get(L, root, "mode") == LUA_TNIL ? 0 : to_choice(ld, -1, "mode", modes, 2);
    lua_pop(L, 1);
    s->mode = xstrdup(modes[mode]);
    load_nodes(ld, root);
    if (!strcmp(s->mode, "single") && s->nmasters != 1)
        fail(ld, "nodes", "nodes: mode \"single\" uses one master, but %d are given; use mode = \"redlock\"",
             s->nmasters);
    load_per_node(ld, root);
    s->lease = opt_duration(ld, root, "", "lease", 10000000, D_NONE | D_POSITIVE);
    s->wait = opt_duration(ld, root, "", "wait", 30000000, 0);
    s->timeout = opt_duration(ld, root, "", "timeout", 3000000, D_POSITIVE);
    load_network(ld, root);
    load_clients(ld, root);
    load_links(ld, root);
    if (get(L, root, "duration") == LUA_TNIL)
        fail(ld, "", "the scenario has no 'duration' (it is required)");
    s->duration = to_duration(ld, -1, "duration", D_POSITIVE);
    lua_pop(L, 1);
    load_faults(ld, root);
    s->seed = (uint64_t)opt_integer(ld, root, "", "seed", 1, 0, LLONG_MAX);
    if (get(L, root, "fencing") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            fail(ld, "fencing", "fencing must be true or false, not %s", type_name(L, -1));
        s->fencing = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    load_scripts(ld, root);
    s->lock = opt_string(ld, root, "", "lock", 0);
    if (!s->lock) s->lock = xstrdup("lock");
    else if (!*s->lock) fail(ld, "lock", "lock must not be empty");
    load_expect(ld, root);
    load_options(ld, root);
    load_explore(ld, root);
    return 0;
}

/* Rewrites a Lua error ("FILE:LINE: msg", possibly with FILE shortened to "...tail") into
 * "FILE:LINE: msg" with the full name. */
static void loader_lua_error(loader *ld, const char *msg)
{
    size_t fl = strlen(ld->file);
    const char *rest = NULL;
    if (!strncmp(msg, ld->file, fl) && msg[fl] == ':') {
        rest = msg + fl;
    } else if (!strncmp(msg, "...", 3)) {
        for (const char *c = strchr(msg + 3, ':'); c; c = strchr(c + 1, ':')) {
            size_t tl = (size_t)(c - (msg + 3));
            if (tl <= fl && !strncmp(ld->file + fl - tl, msg + 3, tl) && isdigit((unsigned char)c[1])) {
                rest = c;
                break;
            }
        }
    }
    size_t start = ld->err.len;
    if (rest) buf_printf(&ld->err, "%s%s", ld->file, rest);
    else buf_printf(&ld->err, "%s: %s", ld->file, msg);
    /* Lua quotes the offending token, which may be a long string: keep the message one line */
    for (size_t i = start; i < ld->err.len; i++)
        if ((unsigned char)ld->err.p[i] < 0x20) ld->err.p[i] = ' ';
}

static scenario *loader_run(loader *ld, const char *text, size_t len)
{
    lua_State *L = ld->L;
    /* As the lua command does: skip a UTF-8 byte order mark (some editors write one) and a
     * first line starting with '#' (#!/usr/bin/env lua), keeping its line break so that
     * line numbers still match the file. */
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) text += 3, len -= 3;
    if (len && text[0] == '#')
        while (len && *text != '\n' && *text != '\r') text++, len--;
    buf chunk;
    buf_init(&chunk);
    buf_printf(&chunk, "@%s", ld->file);
    int rc = luaL_loadbufferx(L, text, len, chunk.p, "t");
    buf_release(&chunk);
    if (rc == LUA_OK) {
        /* the chunk's only upvalue is _ENV: an empty table, so nothing is reachable */
        lua_newtable(L);
        lua_setupvalue(L, -2, 1);
        lua_sethook(L, loader_hook, LUA_MASKCOUNT, EVAL_HOOK_EVERY);
        rc = lua_pcall(L, 0, LUA_MULTRET, 0);
        lua_sethook(L, NULL, 0, 0);
    }
    if (rc != LUA_OK) {
        if (ld->too_long) buf_printf(&ld->err, "%s: scenario took too long to evaluate", ld->file);
        else if (rc == LUA_ERRMEM || ld->mem_hit) buf_printf(&ld->err, "%s: scenario uses too much memory", ld->file);
        else if (lua_type(L, -1) == LUA_TSTRING) loader_lua_error(ld, lua_tostring(L, -1));
        else buf_printf(&ld->err, "%s: the scenario raised an error (%s)", ld->file, type_name(L, -1));
        return NULL;
    }
    linemap_build(&ld->map, text, len);
    int nret = lua_gettop(L);
    if (nret != 1 || lua_type(L, 1) != LUA_TTABLE) {
        buf_printf(&ld->err, "%s:%d: ", ld->file, ld->map.return_line);
        if (nret == 0) buf_puts(&ld->err, "the scenario returns nothing; it must end with return { ... }");
        else if (nret > 1) buf_printf(&ld->err, "the scenario must return one table, not %d values", nret);
        else buf_printf(&ld->err, "the scenario must return a table, not %s", type_name(L, 1));
        return NULL;
    }
    ld->s = xcalloc(1, sizeof *ld->s);
    ld->s->path = xstrdup(ld->file);
    ld->s->explore.line = 0;
    lua_pushcfunction(L, loader_validate);
    lua_pushlightuserdata(L, ld);
    lua_pushvalue(L, 1);
    rc = lua_pcall(L, 2, 0, 0);
    if (rc != LUA_OK) {
        if (!ld->failed) {
            buf_reset(&ld->err);
            if (rc == LUA_ERRMEM || ld->mem_hit) buf_printf(&ld->err, "%s: scenario uses too much memory", ld->file);
            else buf_printf(&ld->err, "%s: %s", ld->file, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error");
        }
        scenario_free(ld->s);
        ld->s = NULL;
    }
    return ld->s;
}

scenario *scenario_load_string(const char *name, const char *text, buf *err)
{
    loader ld = { .file = name ? name : "?" };
    buf_init(&ld.err);
    scenario *s = NULL;
    ld.L = lua_newstate(loader_alloc, &ld);
    if (!ld.L) buf_printf(&ld.err, "%s: scenario uses too much memory", ld.file);
    else s = loader_run(&ld, text, strlen(text));
    if (ld.L) lua_close(ld.L);
    linemap_release(&ld.map);
    free(ld.actors);
    free(ld.seen_stamp);
    free(ld.seen_group);
    if (err && !s) {
        buf_reset(err);
        buf_append(err, ld.err.p ? ld.err.p : "", ld.err.len);
    }
    buf_release(&ld.err);
    return s;
}

/* The line (from 1) of byte offset `off` in text, counting line breaks as Lua does. */
static int line_of(const char *text, size_t off)
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

scenario *scenario_load(const char *path, buf *err)
{
    buf text;
    buf_init(&text);
    int rc = ll_read_file(path, EVAL_MEM_CAP, &text);
    if (rc == LL_READ_OPEN || rc == LL_READ_ERROR) { /* a directory: EISDIR */
        if (err) {
            buf_reset(err);
            buf_printf(err, "cannot %s '%s': %s", rc == LL_READ_OPEN ? "open" : "read", path, strerror(errno));
        }
        buf_release(&text);
        return NULL;
    }
    scenario *s = NULL;
    if (rc == LL_READ_TOO_BIG || (text.len && strlen(text.p) != text.len)) {
        if (err) {
            buf_reset(err);
            if (rc == LL_READ_TOO_BIG) buf_printf(err, "%s: the file is too large for a scenario (over %d MiB)", path, EVAL_MEM_CAP >> 20);
            else buf_printf(err, "%s:%d: the file contains a NUL byte", path, line_of(text.p, strlen(text.p)));
        }
    } else {
        s = scenario_load_string(path, text.p ? text.p : "", err);
    }
    buf_release(&text);
    return s;
}

void scenario_free(scenario *s)
{
    if (!s) return;
    free(s->path);
    free(s->name);
    free(s->about);
    free(s->protocol);
    free(s->mode);
    free(s->scripts);
    free(s->lock);
    for (int i = 0; i < s->nnodes; i++) free(s->nodes[i].name);
    free(s->nodes);
    for (int i = 0; i < s->nlinks; i++) {
        free(s->links[i].from);
        free(s->links[i].to);
    }
    free(s->links);
    for (int i = 0; i < s->nclients; i++) free(s->clients[i].name);
    free(s->clients);
    for (int i = 0; i < s->nfaults; i++) {
        fault_cfg *f = &s->faults[i];
        free(f->target);
        free(f->from);
        free(f->to);
        for (int g = 0; f->groups && f->groups[g]; g++) {
            for (int j = 0; f->groups[g][j]; j++) free(f->groups[g][j]);
            free(f->groups[g]);
        }
        free(f->groups);
    }
    free(s->faults);
    for (int i = 0; i < s->nexpects; i++) free(s->expects[i].property);
    free(s->expects);
    for (int i = 0; i < s->noptions; i++) {
        free(s->options[i].key);
        free(s->options[i].s);
    }
    free(s->options);
    for (int i = 0; i < s->explore.nfaults; i++) {
        explore_fault *ef = &s->explore.faults[i];
        for (int j = 0; j < ef->ntargets; j++) free(ef->targets[j]);
        free(ef->targets);
        free(ef->params);
        free(ef->values);
    }
    free(s->explore.faults);
    free(s);
}

int scenario_node_index(const scenario *s, const char *name)
{
    for (int i = 0; s && name && i < s->nnodes; i++)
        if (s->nodes[i].name && !strcmp(s->nodes[i].name, name)) return i;
    return -1;
}

int scenario_client_index(const scenario *s, const char *name)
{
    for (int i = 0; s && name && i < s->nclients; i++)
        if (s->clients[i].name && !strcmp(s->clients[i].name, name)) return i;
    return -1;
}

char ***scenario_isolate_groups(const scenario *sc, const char *name)
{
    char ***g = xcalloc(2, sizeof *g);
    g[0] = xcalloc(2, sizeof **g);
    g[0][0] = (char *)name;
    g[1] = xcalloc((size_t)(sc->nnodes + sc->nclients) + 1, sizeof **g);
    int n = 0;
    for (int i = 0; i < sc->nnodes; i++)
        if (strcmp(sc->nodes[i].name, name)) g[1][n++] = sc->nodes[i].name;
    for (int i = 0; i < sc->nclients; i++)
        if (strcmp(sc->clients[i].name, name)) g[1][n++] = sc->clients[i].name;
    return g;
}

void scenario_free_groups(char ***groups)
{
    if (!groups) return;
    free(groups[0]);
    free(groups[1]);
    free(groups);
}
