/* sql.c — the lexer and the recursive-descent parser of the fake MySQL's SQL subset (sql.h).
 *
 * Tokens: identifiers (bare or `backquoted`), integers, strings ('single' or "double"
 * quoted: MariaDB's default sql_mode has no ANSI_QUOTES, so both are strings; a doubled
 * quote or a backslash escapes), and punctuation. Everything a statement allocates comes
 * from one arena, freed with the statement. A parse error reports MySQL's 1064 with the
 * text from the token where parsing stopped ("... near 'SELEC 1' at line 1"), which is how
 * MariaDB 10.11 words it. */
#include "sql.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the arena ---- */

typedef struct arena {
    void **blocks;
    int n, cap;
} arena;

static void *ar_alloc(arena *a, size_t n)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->blocks = xrealloc(a->blocks, (size_t)a->cap * sizeof *a->blocks);
    }
    return a->blocks[a->n++] = xcalloc(1, n ? n : 1);
}

static char *ar_strndup(arena *a, const char *p, size_t n)
{
    char *s = ar_alloc(a, n + 1);
    memcpy(s, p, n);
    return s;
}

/* Makes room for element n of an array of the arena that holds n: its capacity doubles (a
 * fresh block at n = 0, 4, 8, 16, ..., the old one left to the arena), so a statement of n
 * terms takes O(n) memory and time, not a block per element. */
static void *ar_grow(arena *a, void *old, int n, size_t size)
{
    if (old && n > 0 && (n < 4 || (n & (n - 1)) != 0)) return old; /* room left */
    size_t cap = n < 4 ? 4 : (size_t)n * 2;
    void *p = ar_alloc(a, cap * size);
    if (old && n) memcpy(p, old, (size_t)n * size);
    return p;
}

/* ---- the lexer ---- */

typedef enum tok_kind { T_END, T_IDENT, T_QIDENT, T_INT, T_STR, T_PUNCT } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *p;      /* where it starts in the text */
    size_t len;
    char *val;          /* identifier or string value (arena) */
    size_t vlen;
    int64_t i;
} tok;

typedef struct parser {
    const char *text;
    size_t len, pos;
    tok t;              /* the current token */
    arena *ar;
    msql_error *err;
    int failed;
} parser;

static void syntax_error(parser *ps)
{
    if (ps->failed) return;
    ps->failed = 1;
    ps->err->code = 1064;
    memcpy(ps->err->state, "42000", 6);
    size_t at = ps->t.kind == T_END ? ps->len : (size_t)(ps->t.p - ps->text);
    size_t n = ps->len - at;
    if (n > 80) n = 80;
    snprintf(ps->err->msg, sizeof ps->err->msg,
             "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server "
             "version for the right syntax to use near '%.*s' at line 1",
             (int)n, ps->text + at);
}

static void next(parser *ps)
{
    const char *s = ps->text;
    size_t n = ps->len, i = ps->pos;
    for (;;) {
        while (i < n && isspace((unsigned char)s[i])) i++;
        if (i + 1 < n && s[i] == '-' && s[i + 1] == '-') {
            while (i < n && s[i] != '\n') i++;
            continue;
        }
        break;
    }
    tok *t = &ps->t;
    memset(t, 0, sizeof *t);
    t->p = s + i;
    if (i >= n) {
        t->kind = T_END;
        ps->pos = i;
        return;
    }
    unsigned char c = (unsigned char)s[i];
    if (isalpha(c) || c == '_' || c == '$') {
        size_t b = i;
        while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '$')) i++;
        t->kind = T_IDENT;
        t->val = ar_strndup(ps->ar, s + b, i - b);
        t->vlen = i - b;
    } else if (isdigit(c)) {
        size_t b = i;
        int64_t v = 0;
        int over = 0;
        while (i < n && isdigit((unsigned char)s[i])) {
            if (v > (INT64_MAX - (s[i] - '0')) / 10) over = 1;
            else v = v * 10 + (s[i] - '0');
            i++;
        }
        if (over || (i < n && (isalpha((unsigned char)s[i]) || s[i] == '.'))) {
            t->p = s + b;
            t->kind = T_PUNCT;
            ps->pos = i;
            syntax_error(ps); /* beyond the subset: decimals, 1e5, huge numbers */
            return;
        }
        t->kind = T_INT;
        t->i = v;
    } else if (c == '\'' || c == '"' || c == '`') {
        char q = (char)c;
        buf b;
        buf_init(&b);
        i++;
        int closed = 0;
        while (i < n) {
            char ch = s[i++];
            if (ch == q) {
                if (i < n && s[i] == q) {
                    buf_putc(&b, q);
                    i++;
                    continue;
                }
                closed = 1;
                break;
            }
            if (ch == '\\' && q != '`' && i < n) {
                char e = s[i++];
                switch (e) {
                case 'n': ch = '\n'; break;
                case 't': ch = '\t'; break;
                case 'r': ch = '\r'; break;
                case '0': ch = 0; break;
                case 'Z': ch = 26; break;
                default: ch = e; break;
                }
            }
            buf_putc(&b, ch);
        }
        if (!closed) {
            buf_release(&b);
            t->kind = T_PUNCT; /* reported from its opening quote */
            ps->pos = i;
            syntax_error(ps);
            return;
        }
        t->kind = q == '`' ? T_QIDENT : T_STR;
        t->val = ar_strndup(ps->ar, b.p ? b.p : "", b.len);
        t->vlen = b.len;
        buf_release(&b);
    } else {
        t->kind = T_PUNCT;
        i++;
    }
    t->len = (size_t)(s + i - t->p);
    ps->pos = i;
}

static int is_kw(parser *ps, const char *kw)
{
    return ps->t.kind == T_IDENT && strlen(kw) == ps->t.vlen && !strncasecmp(ps->t.val, kw, ps->t.vlen);
}

static int is_punct(parser *ps, char c)
{
    return ps->t.kind == T_PUNCT && ps->t.p[0] == c;
}

static int accept_kw(parser *ps, const char *kw)
{
    if (ps->failed || !is_kw(ps, kw)) return 0;
    next(ps);
    return 1;
}

static int accept_punct(parser *ps, char c)
{
    if (ps->failed || !is_punct(ps, c)) return 0;
    next(ps);
    return 1;
}

static void expect_kw(parser *ps, const char *kw)
{
    if (!accept_kw(ps, kw)) syntax_error(ps);
}

static void expect_punct(parser *ps, char c)
{
    if (!accept_punct(ps, c)) syntax_error(ps);
}

/* Words that may not name a table or column unquoted (the ones this grammar uses). */
static int reserved(parser *ps)
{
    static const char *const words[] = { "SELECT", "FROM", "WHERE", "AND", "INSERT", "INTO", "VALUES", "DELETE",
                                         "UPDATE", "SET", "CREATE", "TABLE", "DROP", "PRIMARY", "KEY", "UNIQUE",
                                         "NOT", "NULL", "DEFAULT", "AS", "INDEX", "IF", "EXISTS" };
    for (size_t i = 0; i < LL_ARRAY_LEN(words); i++)
        if (is_kw(ps, words[i])) return 1;
    return 0;
}

static char *ident(parser *ps)
{
    if (ps->failed) return NULL;
    if ((ps->t.kind == T_IDENT && !reserved(ps)) || ps->t.kind == T_QIDENT) {
        char *v = ps->t.val;
        next(ps);
        return v;
    }
    syntax_error(ps);
    return NULL;
}

/* A literal: [-]integer, string, NULL. */
static int literal(parser *ps, mval *v)
{
    memset(v, 0, sizeof *v);
    if (ps->failed) return -1;
    int neg = 0;
    if (is_punct(ps, '-')) {
        neg = 1;
        next(ps);
    }
    if (ps->t.kind == T_INT) {
        v->t = MV_INT;
        v->i = neg ? -ps->t.i : ps->t.i;
    } else if (!neg && ps->t.kind == T_STR) {
        v->t = MV_STR;
        v->s = ps->t.val;
        v->len = ps->t.vlen;
    } else if (!neg && is_kw(ps, "NULL")) {
        v->t = MV_NULL;
    } else {
        syntax_error(ps);
        return -1;
    }
    next(ps);
    return 0;
}

static int starts_literal(parser *ps)
{
    return ps->t.kind == T_INT || ps->t.kind == T_STR || is_kw(ps, "NULL") || is_punct(ps, '-');
}

/* ---- statements ---- */

static int col_index(mstmt *st, const char *name)
{
    for (int i = 0; i < st->ncols; i++)
        if (!strcasecmp(st->cols[i].name, name)) return i;
    return -1;
}

/* (c, ...) of a key, resolved against the columns defined so far; they are all defined
 * before the key clauses in this subset (MySQL allows either order). */
static void key_cols(parser *ps, mstmt *st, mkeydef *k)
{
    expect_punct(ps, '(');
    do {
        char *c = ident(ps);
        if (!c) return;
        int ci = col_index(st, c);
        if (ci < 0) {
            ps->failed = 1;
            ps->err->code = 1072;
            memcpy(ps->err->state, "42000", 6);
            snprintf(ps->err->msg, sizeof ps->err->msg, "Key column '%s' doesn't exist in table", c);
            return;
        }
        if (k->ncols == MKEY_MAXCOLS) {
            syntax_error(ps);
            return;
        }
        k->cols[k->ncols++] = ci;
    } while (accept_punct(ps, ','));
    expect_punct(ps, ')');
}

static mkeydef *add_key(parser *ps, mstmt *st, int primary)
{
    if (primary) {
        for (int i = 0; i < st->nkeys; i++)
            if (st->keys[i].primary) {
                ps->failed = 1;
                ps->err->code = 1068;
                memcpy(ps->err->state, "42000", 6);
                snprintf(ps->err->msg, sizeof ps->err->msg, "Multiple primary key defined");
                return NULL;
            }
    }
    st->keys = ar_grow(ps->ar, st->keys, st->nkeys, sizeof *st->keys);
    mkeydef *k = &st->keys[st->nkeys++];
    k->primary = primary;
    k->name = primary ? "PRIMARY" : NULL;
    return k;
}

/* A unique key without a name is named after its first column, as MySQL does ("owner",
 * then "owner_2", ...). */
static void name_keys(parser *ps, mstmt *st)
{
    for (int i = 0; i < st->nkeys; i++) {
        mkeydef *k = &st->keys[i];
        if (k->name) continue;
        const char *base = st->cols[k->cols[0]].name;
        for (int n = 1;; n++) {
            char name[128];
            if (n == 1) snprintf(name, sizeof name, "%s", base);
            else snprintf(name, sizeof name, "%s_%d", base, n);
            int taken = 0;
            for (int j = 0; j < st->nkeys; j++)
                if (st->keys[j].name && !strcasecmp(st->keys[j].name, name)) taken = 1;
            if (!taken) {
                k->name = ar_strndup(ps->ar, name, strlen(name));
                break;
            }
        }
    }
    /* the primary key first */
    for (int i = 1; i < st->nkeys; i++)
        if (st->keys[i].primary) {
            mkeydef p = st->keys[i];
            memmove(&st->keys[1], &st->keys[0], (size_t)i * sizeof p);
            st->keys[0] = p;
        }
}

static void column_def(parser *ps, mstmt *st)
{
    char *name = ident(ps);
    if (!name) return;
    if (col_index(st, name) >= 0) {
        ps->failed = 1;
        ps->err->code = 1060;
        memcpy(ps->err->state, "42S21", 6);
        snprintf(ps->err->msg, sizeof ps->err->msg, "Duplicate column name '%s'", name);
        return;
    }
    if (st->ncols == 4096) { /* MariaDB's limit of columns in a table (its .frm size limit,
                                * "Table definition is too large", which strikes earlier, is
                                * not modelled: tests/diff/mysql/cases/limits.txt) */
        ps->failed = 1;
        ps->err->code = 1117;
        memcpy(ps->err->state, "HY000", 6);
        snprintf(ps->err->msg, sizeof ps->err->msg, "Too many columns");
        return;
    }
    st->cols = ar_grow(ps->ar, st->cols, st->ncols, sizeof *st->cols);
    mcoldef *c = &st->cols[st->ncols++];
    c->name = name;
    if (accept_kw(ps, "INT") || accept_kw(ps, "INTEGER")) c->type = COL_INT;
    else if (accept_kw(ps, "BIGINT")) c->type = COL_BIGINT;
    else if (is_kw(ps, "VARCHAR") || is_kw(ps, "CHAR")) {
        c->type = is_kw(ps, "CHAR") ? COL_CHAR : COL_VARCHAR;
        next(ps);
        if (c->type == COL_VARCHAR || is_punct(ps, '(')) {
            expect_punct(ps, '(');
            if (ps->t.kind != T_INT || ps->t.i > 65535) syntax_error(ps);
            c->len = (int)ps->t.i;
            if (!ps->failed) next(ps);
            expect_punct(ps, ')');
        } else {
            c->len = 1;
        }
    } else {
        syntax_error(ps);
        return;
    }
    if ((c->type == COL_INT || c->type == COL_BIGINT) && accept_punct(ps, '(')) { /* INT(11): a display width */
        if (ps->t.kind != T_INT) syntax_error(ps);
        else next(ps);
        expect_punct(ps, ')');
    }
    for (;;) {
        if (ps->failed) return;
        if (accept_kw(ps, "NOT")) {
            expect_kw(ps, "NULL");
            c->notnull = 1;
        } else if (accept_kw(ps, "NULL")) {
            c->notnull = 0;
        } else if (accept_kw(ps, "DEFAULT")) {
            c->has_default = 1;
            literal(ps, &c->dflt);
        } else if (accept_kw(ps, "PRIMARY")) {
            expect_kw(ps, "KEY");
            mkeydef *k = add_key(ps, st, 1);
            if (k) k->cols[k->ncols++] = st->ncols - 1;
            c->notnull = 1;
        } else if (accept_kw(ps, "UNIQUE")) {
            accept_kw(ps, "KEY");
            mkeydef *k = add_key(ps, st, 0);
            if (k) k->cols[k->ncols++] = st->ncols - 1;
        } else {
            return;
        }
    }
}

static void parse_create(parser *ps, mstmt *st)
{
    st->kind = ST_CREATE;
    expect_kw(ps, "TABLE");
    if (accept_kw(ps, "IF")) {
        expect_kw(ps, "NOT");
        expect_kw(ps, "EXISTS");
        st->if_flag = 1;
    }
    st->table = ident(ps);
    expect_punct(ps, '(');
    do {
        if (ps->failed) return;
        if (accept_kw(ps, "PRIMARY")) {
            expect_kw(ps, "KEY");
            mkeydef *k = add_key(ps, st, 1);
            if (k) key_cols(ps, st, k);
            if (k) for (int i = 0; i < k->ncols; i++) st->cols[k->cols[i]].notnull = 1;
        } else if (accept_kw(ps, "UNIQUE")) {
            if (!accept_kw(ps, "KEY")) accept_kw(ps, "INDEX");
            mkeydef *k = add_key(ps, st, 0);
            if (k && !is_punct(ps, '(')) k->name = ident(ps);
            if (k) key_cols(ps, st, k);
        } else {
            column_def(ps, st);
        }
    } while (accept_punct(ps, ','));
    expect_punct(ps, ')');
    if (!ps->failed) name_keys(ps, st);
}

static void parse_where(parser *ps, mstmt *st)
{
    if (!accept_kw(ps, "WHERE")) return;
    do {
        st->conds = ar_grow(ps->ar, st->conds, st->nconds, sizeof *st->conds);
        mcond *c = &st->conds[st->nconds++];
        c->col = ident(ps);
        expect_punct(ps, '=');
        literal(ps, &c->v);
    } while (accept_kw(ps, "AND"));
}

static void parse_insert(parser *ps, mstmt *st)
{
    st->kind = ST_INSERT;
    expect_kw(ps, "INTO");
    st->table = ident(ps);
    if (accept_punct(ps, '(')) {
        do {
            st->names = ar_grow(ps->ar, st->names, st->nnames, sizeof *st->names);
            st->names[st->nnames++] = ident(ps);
        } while (accept_punct(ps, ','));
        expect_punct(ps, ')');
    }
    if (!accept_kw(ps, "VALUES")) expect_kw(ps, "VALUE");
    int cap = 0;
    do {
        expect_punct(ps, '(');
        int n = 0;
        do {
            if (ps->failed) return;
            if (st->nrows * st->rowlen + n >= cap) {
                int ncap = cap ? cap * 2 : 8;
                mval *nv = ar_alloc(ps->ar, (size_t)ncap * sizeof *nv);
                if (st->vals) memcpy(nv, st->vals, (size_t)cap * sizeof *nv);
                st->vals = nv;
                cap = ncap;
            }
            /* rows of unequal length: MySQL reports 1136 at the row; kept as a length check
             * below with the first row's length */
            literal(ps, &st->vals[st->nrows * (st->rowlen ? st->rowlen : 0) + n]);
            n++;
        } while (accept_punct(ps, ','));
        expect_punct(ps, ')');
        if (ps->failed) return;
        if (st->nrows == 0) st->rowlen = n;
        else if (n != st->rowlen) {
            ps->failed = 1;
            ps->err->code = 1136;
            memcpy(ps->err->state, "21S01", 6);
            snprintf(ps->err->msg, sizeof ps->err->msg, "Column count doesn't match value count at row %d",
                     st->nrows + 1);
            return;
        }
        st->nrows++;
    } while (accept_punct(ps, ','));
}

static void parse_update(parser *ps, mstmt *st)
{
    st->kind = ST_UPDATE;
    st->table = ident(ps);
    expect_kw(ps, "SET");
    do {
        if (ps->failed) return;
        st->names = ar_grow(ps->ar, st->names, st->nnames, sizeof *st->names);
        st->vals = ar_grow(ps->ar, st->vals, st->nnames, sizeof *st->vals);
        st->names[st->nnames] = ident(ps);
        expect_punct(ps, '=');
        literal(ps, &st->vals[st->nnames]);
        st->nnames++;
    } while (accept_punct(ps, ','));
    st->nrows = 1;
    st->rowlen = st->nnames;
    parse_where(ps, st);
}

static void parse_select_expr(parser *ps, mstmt *st)
{
    st->exprs = ar_grow(ps->ar, st->exprs, st->nexprs, sizeof *st->exprs);
    mexpr *e = &st->exprs[st->nexprs++];
    const char *from = ps->t.p;
    if (accept_punct(ps, '*')) {
        e->kind = EX_STAR;
        return;
    }
    if (starts_literal(ps)) {
        e->kind = EX_LIT;
        literal(ps, &e->lit);
    } else if (ps->t.kind == T_IDENT && !reserved(ps) && ps->pos < ps->len) {
        /* a function call: NAME( directly after the name, as MySQL requires for built-ins */
        size_t p = ps->pos;
        if (ps->text[p] == '(') {
            e->kind = EX_FUNC;
            e->name = ps->t.val;
            for (char *c = e->name; *c; c++) *c = (char)toupper((unsigned char)*c);
            next(ps);
            expect_punct(ps, '(');
            if (!is_punct(ps, ')')) {
                do {
                    if (e->nargs == 2) {
                        syntax_error(ps);
                        return;
                    }
                    literal(ps, &e->args[e->nargs++]);
                } while (accept_punct(ps, ','));
            }
            expect_punct(ps, ')');
        } else {
            e->kind = EX_COL;
            e->name = ident(ps);
        }
    } else {
        e->kind = EX_COL;
        e->name = ident(ps);
    }
    if (ps->failed) return;
    const char *to = ps->t.kind == T_END ? ps->text + ps->len : ps->t.p;
    while (to > from && isspace((unsigned char)to[-1])) to--;
    e->label = e->kind == EX_COL ? e->name : ar_strndup(ps->ar, from, (size_t)(to - from));
    if (accept_kw(ps, "AS")) e->label = ident(ps);
    else if (ps->t.kind == T_QIDENT || (ps->t.kind == T_IDENT && !reserved(ps))) e->label = ident(ps);
    else if (ps->t.kind == T_STR) {
        e->label = ps->t.val;
        next(ps);
    }
}

static void parse_select(parser *ps, mstmt *st)
{
    st->kind = ST_SELECT;
    do parse_select_expr(ps, st);
    while (accept_punct(ps, ','));
    if (accept_kw(ps, "FROM")) {
        st->table = ident(ps);
        parse_where(ps, st);
    }
}

int sql_parse(const char *text, size_t len, mstmt *st, msql_error *err)
{
    memset(st, 0, sizeof *st);
    memset(err, 0, sizeof *err);
    arena *ar = xcalloc(1, sizeof *ar);
    st->arena = ar;
    parser ps = { .text = text, .len = len, .ar = ar, .err = err };
    next(&ps);
    int blank_after = 1; /* only spaces after the current token */
    for (size_t i = ps.pos; i < len; i++) blank_after &= isspace((unsigned char)text[i]) != 0;
    if (ps.t.kind == T_END) {
        int comment = 0;
        for (size_t i = 0; i < len; i++) comment |= !isspace((unsigned char)text[i]);
        if (comment) {
            st->kind = ST_EMPTY; /* the server answers a comment alone with OK */
            return 0;
        }
    }
    if (ps.t.kind == T_END || (is_punct(&ps, ';') && blank_after)) {
        err->code = 1065;
        memcpy(err->state, "42000", 6);
        snprintf(err->msg, sizeof err->msg, "Query was empty");
        sql_free(st);
        return -1;
    }
    if (accept_kw(&ps, "CREATE")) parse_create(&ps, st);
    else if (accept_kw(&ps, "DROP")) {
        st->kind = ST_DROP;
        expect_kw(&ps, "TABLE");
        if (accept_kw(&ps, "IF")) {
            expect_kw(&ps, "EXISTS");
            st->if_flag = 1;
        }
        st->table = ident(&ps);
    } else if (accept_kw(&ps, "INSERT")) parse_insert(&ps, st);
    else if (accept_kw(&ps, "DELETE")) {
        st->kind = ST_DELETE;
        expect_kw(&ps, "FROM");
        st->table = ident(&ps);
        parse_where(&ps, st);
    } else if (accept_kw(&ps, "UPDATE")) parse_update(&ps, st);
    else if (accept_kw(&ps, "SELECT")) parse_select(&ps, st);
    else syntax_error(&ps);
    accept_punct(&ps, ';');
    if (!ps.failed && ps.t.kind != T_END) syntax_error(&ps);
    if (ps.failed) {
        sql_free(st);
        return -1;
    }
    return 0;
}

void sql_free(mstmt *st)
{
    arena *a = st->arena;
    if (a) {
        for (int i = 0; i < a->n; i++) free(a->blocks[i]);
        free(a->blocks);
        free(a);
    }
    memset(st, 0, sizeof *st);
}

/* ---- values ---- */

static int str_cmp_ci(const char *a, size_t al, const char *b, size_t bl)
{
    while (al && a[al - 1] == ' ') al--;
    while (bl && b[bl - 1] == ' ') bl--;
    size_t n = al < bl ? al : bl;
    for (size_t i = 0; i < n; i++) {
        int x = tolower((unsigned char)a[i]), y = tolower((unsigned char)b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return al == bl ? 0 : al < bl ? -1 : 1;
}

int mval_cmp(const mval *a, const mval *b)
{
    if (a->t == MV_NULL || b->t == MV_NULL) return 2;
    if (a->t == MV_INT && b->t == MV_INT) return a->i == b->i ? 0 : a->i < b->i ? -1 : 1;
    if (a->t == MV_STR && b->t == MV_STR) return str_cmp_ci(a->s, a->len, b->s, b->len);
    /* an integer against a string: the string read as a number (its leading digits) */
    const mval *s = a->t == MV_STR ? a : b;
    int64_t x = strtoll(s->s ? s->s : "", NULL, 10);
    int64_t ai = a->t == MV_INT ? a->i : x, bi = b->t == MV_INT ? b->i : x;
    return ai == bi ? 0 : ai < bi ? -1 : 1;
}

void mval_print(const mval *v, buf *out, int quote)
{
    switch (v->t) {
    case MV_NULL: buf_puts(out, "NULL"); break;
    case MV_INT: buf_printf(out, "%lld", (long long)v->i); break;
    case MV_STR:
        if (quote) buf_putc(out, '\'');
        for (size_t i = 0; i < v->len; i++) {
            if (quote && (v->s[i] == '\'' || v->s[i] == '\\')) buf_putc(out, '\\');
            buf_putc(out, v->s[i]);
        }
        if (quote) buf_putc(out, '\'');
        break;
    }
}

void mval_copy(mval *dst, const mval *src)
{
    *dst = *src;
    if (src->t == MV_STR) dst->s = xmemdup(src->s ? src->s : "", src->len);
    else dst->s = NULL;
}

void mval_release(mval *v)
{
    if (v->t == MV_STR) free(v->s);
    v->s = NULL;
    v->t = MV_NULL;
}
