/* pg_sql.c — the fake PostgreSQL's statement subset (pgint.h; its semantics are in pg.c's
 * header): tokens, parsing SELECTs of the advisory lock functions, transaction blocks and SET
 * of the three timeouts, and checking a SELECT's items as PostgreSQL's analysis does. (Moved
 * from pg.c.) */
#include "pgint.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the statement subset: tokens ---- */

typedef enum tok_type { T_END, T_IDENT, T_INT, T_BIGNUM, T_STR, T_LP, T_RP, T_COMMA, T_SEMI, T_MINUS, T_OTHER } tok_type;

typedef struct tok {
    tok_type t;
    const char *p; /* as written */
    size_t len;
    int64_t i;
} tok;

typedef struct lexer {
    const char *p, *end;
} lexer;

static tok next_tok(lexer *lx)
{
    while (lx->p < lx->end && isspace((unsigned char)*lx->p)) lx->p++;
    tok t = { .t = T_END, .p = lx->p, .len = 0 };
    if (lx->p >= lx->end) return t;
    const char *q = lx->p;
    unsigned char c = (unsigned char)*q;
    if (isalpha(c) || c == '_') {
        while (q < lx->end && (isalnum((unsigned char)*q) || *q == '_' || *q == '$')) q++;
        t.t = T_IDENT;
    } else if (isdigit(c)) {
        while (q < lx->end && isdigit((unsigned char)*q)) q++;
        t.t = T_INT;
        long long v;
        if (ll_parse_int64((slice){ lx->p, (size_t)(q - lx->p) }, &v) == 0) t.i = v;
        else t.t = T_BIGNUM; /* beyond bigint (or leading zeros: numbers still) */
        if (t.t == T_BIGNUM) {
            /* leading zeros: a canonical parse fails though the value fits */
            const char *d = lx->p;
            while (d < q - 1 && *d == '0') d++;
            if (ll_parse_int64((slice){ d, (size_t)(q - d) }, &v) == 0) {
                t.t = T_INT;
                t.i = v;
            }
        }
    } else if (c == '\'') {
        q++;
        while (q < lx->end) {
            if (*q == '\'') {
                if (q + 1 < lx->end && q[1] == '\'') {
                    q += 2;
                    continue;
                }
                break;
            }
            q++;
        }
        if (q >= lx->end) {
            t.t = T_OTHER; /* unterminated */
            q = lx->end;
        } else {
            q++;
            t.t = T_STR;
        }
    } else {
        q++;
        t.t = c == '(' ? T_LP : c == ')' ? T_RP : c == ',' ? T_COMMA : c == ';' ? T_SEMI : c == '-' ? T_MINUS : T_OTHER;
    }
    t.len = (size_t)(q - lx->p);
    lx->p = q;
    return t;
}

static int tok_is(const tok *t, const char *word)
{
    return t->t == T_IDENT && t->len == strlen(word) && !strncasecmp(t->p, word, t->len);
}

/* ---- the statement subset: parsing ---- */


static const struct {
    const char *name;
    fn_id f;
    int nargs; /* -1: one bigint or two integers */
} fns[] = {
    { "pg_advisory_lock", F_LOCK, -1 },       { "pg_try_advisory_lock", F_TRY, -1 },
    { "pg_advisory_xact_lock", F_XLOCK, -1 }, { "pg_try_advisory_xact_lock", F_XTRY, -1 },
    { "pg_advisory_unlock", F_UNLOCK, -1 },   { "pg_advisory_unlock_all", F_UNLOCK_ALL, 0 },
    { "pg_backend_pid", F_PID, 0 },
};

static const char *const other_fns[] = {
    "pg_advisory_lock_shared", "pg_try_advisory_lock_shared", "pg_advisory_xact_lock_shared",
    "pg_try_advisory_xact_lock_shared", "pg_advisory_unlock_shared",
};

static void lower_copy(char *dst, size_t cap, const char *p, size_t n)
{
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) dst[i] = (char)tolower((unsigned char)p[i]);
    dst[n] = 0;
}

static int syntax_error(pgreply *r, const tok *t)
{
    if (t->t == T_END) pg_reply_error(r, "42601", "syntax error at end of input");
    else pg_reply_error(r, "42601", "syntax error at or near \"%.*s\"", (int)t->len, t->p);
    return -1;
}

static int subset_error(pgreply *r, const tok *t)
{
    if (t->t == T_END)
        pg_reply_error(r, "0A000", "locklab: not in the fake PostgreSQL's subset: the statement ends too early");
    else
        pg_reply_error(r, "0A000", "locklab: not in the fake PostgreSQL's subset at \"%.*s\"", (int)t->len, t->p);
    return -1;
}

/* A literal: an integer (with a sign), a quoted string, NULL. */
static int parse_literal(lexer *lx, tok *t, arg *a, pgreply *r)
{
    int neg = 0;
    if (t->t == T_MINUS) {
        neg = 1;
        *t = next_tok(lx);
    }
    if (t->t == T_INT) {
        int64_t v = t->i;
        if (neg) v = -v;
        a->t = v >= INT32_MIN && v <= INT32_MAX ? A_INTEGER : A_BIGINT;
        a->i = v;
    } else if (t->t == T_BIGNUM) {
        /* -9223372036854775808 is a bigint: the grammar negates the constant's text */
        if (neg && t->len == 19 && !strncmp(t->p, "9223372036854775808", 19)) {
            a->t = A_BIGINT;
            a->i = INT64_MIN;
        } else {
            a->t = A_NUMERIC;
        }
    } else if (!neg && t->t == T_STR) {
        a->t = A_STR;
        a->p = t->p;
        a->len = t->len;
    } else if (!neg && tok_is(t, "null")) {
        a->t = A_NULL;
    } else {
        return subset_error(r, t);
    }
    *t = next_tok(lx);
    return 0;
}

static int parse_select(lexer *lx, stmt *st, pgreply *r)
{
    tok t = next_tok(lx);
    st->k = S_SELECT;
    st->nitems = 0;
    for (;;) {
        if (st->nitems == MAX_ITEMS) return subset_error(r, &t);
        item *it = &st->items[st->nitems++];
        memset(it, 0, sizeof *it);
        if (t.t == T_IDENT && !tok_is(&t, "null")) {
            lower_copy(it->name, sizeof it->name, t.p, t.len);
            tok name = t;
            t = next_tok(lx);
            if (t.t != T_LP) return subset_error(r, &name);
            it->f = F_UNKNOWN;
            for (size_t i = 0; i < LL_ARRAY_LEN(fns); i++)
                if (!strcmp(it->name, fns[i].name)) it->f = fns[i].f;
            for (size_t i = 0; i < LL_ARRAY_LEN(other_fns); i++)
                if (!strcmp(it->name, other_fns[i])) return subset_error(r, &name);
            t = next_tok(lx);
            if (t.t != T_RP)
                for (;;) {
                    if (it->nargs == MAX_ARGS) return subset_error(r, &t);
                    if (parse_literal(lx, &t, &it->args[it->nargs++], r)) return -1;
                    if (t.t == T_RP) break;
                    if (t.t != T_COMMA) return t.t == T_END ? syntax_error(r, &t) : subset_error(r, &t);
                    t = next_tok(lx);
                }
            t = next_tok(lx);
            memcpy(it->label, it->name, sizeof it->label);
        } else {
            it->f = F_LITERAL;
            it->nargs = 1;
            if (parse_literal(lx, &t, &it->args[0], r)) return -1;
            if (it->args[0].t == A_STR || it->args[0].t == A_NUMERIC) return subset_error(r, &t);
            strcpy(it->label, "?column?");
        }
        if (tok_is(&t, "as")) {
            t = next_tok(lx);
            if (t.t != T_IDENT) return syntax_error(r, &t);
        }
        if (t.t == T_IDENT && !tok_is(&t, "from")) {
            lower_copy(it->label, sizeof it->label, t.p, t.len);
            t = next_tok(lx);
        }
        if (t.t == T_COMMA) {
            t = next_tok(lx);
            continue;
        }
        break;
    }
    if (t.t == T_SEMI) t = next_tok(lx);
    if (t.t != T_END) return subset_error(r, &t);
    return 0;
}

static const char *const set_names[] = { "lock_timeout", "statement_timeout", "deadlock_timeout" };

/* A timeout's value as PostgreSQL reads it: an integer of ms, or a quoted integer with an
 * optional unit (ms, s, min, h, d); 0, or -1 with the error in r. */
static int parse_timeout(lexer *lx, tok *t, stmt *st, pgreply *r)
{
    const char *name = set_names[st->set];
    if (tok_is(t, "default")) {
        st->set_ms = st->set == SET_DEADLOCK_TIMEOUT ? DEADLOCK_TIMEOUT_MS : 0;
        *t = next_tok(lx);
        return 0;
    }
    int neg = 0;
    if (t->t == T_MINUS) {
        neg = 1;
        *t = next_tok(lx);
    }
    if (t->t == T_INT || t->t == T_BIGNUM) {
        if (t->t == T_BIGNUM || t->i > TIMEOUT_MAX_MS) {
            pg_reply_error(r, "22023", "invalid value for parameter \"%s\": \"%s%.*s\"", name, neg ? "-" : "",
                           (int)t->len, t->p);
            return -1;
        }
        if (neg && t->i) {
            pg_reply_error(r, "22023", "-%lld ms is outside the valid range for parameter \"%s\" (0 .. %d)",
                           (long long)t->i, name, TIMEOUT_MAX_MS);
            return -1;
        }
        st->set_ms = t->i;
        *t = next_tok(lx);
        return 0;
    }
    if (neg || t->t != T_STR) return subset_error(r, t);
    /* 'N', 'Nms', 'N s', 'Nmin', 'Nh', 'Nd' */
    const char *p = t->p + 1, *e = t->p + t->len - 1;
    int64_t v = 0;
    const char *d = p;
    while (p < e && isdigit((unsigned char)*p) && v <= TIMEOUT_MAX_MS) v = v * 10 + (*p++ - '0');
    if (p == d) {
        pg_reply_error(r, "22023", "invalid value for parameter \"%s\": \"%.*s\"", name, (int)(e - d), d);
        return -1;
    }
    while (p < e && *p == ' ') p++;
    static const struct {
        const char *unit;
        int64_t ms;
    } units[] = { { "", 1 }, { "ms", 1 }, { "s", 1000 }, { "min", 60000 }, { "h", 3600000 }, { "d", 86400000 } };
    int64_t mul = -1;
    for (size_t i = 0; i < LL_ARRAY_LEN(units); i++)
        if ((size_t)(e - p) == strlen(units[i].unit) && !strncmp(p, units[i].unit, (size_t)(e - p))) mul = units[i].ms;
    if (mul < 0 || v > TIMEOUT_MAX_MS / mul) return subset_error(r, t); /* fractions, us, out of range */
    st->set_ms = v * mul;
    *t = next_tok(lx);
    return 0;
}

/* SET [SESSION] lock_timeout | statement_timeout | deadlock_timeout { = | TO } value */
static int parse_set(lexer *lx, stmt *st, pgreply *r)
{
    st->k = S_SET;
    tok t = next_tok(lx);
    if (tok_is(&t, "session")) t = next_tok(lx);
    int found = -1;
    for (size_t i = 0; i < LL_ARRAY_LEN(set_names); i++)
        if (tok_is(&t, set_names[i])) found = (int)i;
    if (found < 0) return subset_error(r, &t);
    st->set = (setting)found;
    t = next_tok(lx);
    if (tok_is(&t, "to") || (t.t == T_OTHER && t.len == 1 && *t.p == '=')) t = next_tok(lx);
    else return syntax_error(r, &t);
    if (parse_timeout(lx, &t, st, r)) return -1;
    if (t.t == T_SEMI) t = next_tok(lx);
    if (t.t != T_END) return subset_error(r, &t);
    return 0;
}

int pg_parse(const char *sql, size_t len, stmt *st, pgreply *r)
{
    lexer lx = { sql, sql + len };
    tok t = next_tok(&lx);
    if (t.t == T_END || t.t == T_SEMI) return subset_error(r, &t);
    if (tok_is(&t, "select")) return parse_select(&lx, st, r);
    if (tok_is(&t, "set")) return parse_set(&lx, st, r);
    if (tok_is(&t, "begin") || tok_is(&t, "commit") || tok_is(&t, "end") || tok_is(&t, "rollback") ||
        tok_is(&t, "abort")) {
        st->k = tok_is(&t, "begin") ? S_BEGIN : tok_is(&t, "commit") || tok_is(&t, "end") ? S_COMMIT : S_ROLLBACK;
        t = next_tok(&lx);
        if (tok_is(&t, "work") || tok_is(&t, "transaction")) t = next_tok(&lx);
    } else if (tok_is(&t, "start")) {
        st->k = S_START;
        t = next_tok(&lx);
        if (!tok_is(&t, "transaction")) return syntax_error(r, &t);
        t = next_tok(&lx);
    } else {
        static const char *const known[] = { "insert", "update", "delete", "create", "drop", "alter", "set",
                                             "show", "values", "with", "lock", "table", "savepoint", "release",
                                             "prepare", "execute", "discard", "reset", "listen", "notify" };
        for (size_t i = 0; i < LL_ARRAY_LEN(known); i++)
            if (tok_is(&t, known[i])) return subset_error(r, &t);
        return syntax_error(r, &t);
    }
    if (t.t == T_SEMI) t = next_tok(&lx);
    if (t.t != T_END) return t.t == T_IDENT ? subset_error(r, &t) : syntax_error(r, &t);
    return 0;
}

/* ---- the statement subset: checking (PostgreSQL's analysis, before anything runs) ---- */

static const char *type_name(arg_type t)
{
    switch (t) {
    case A_NULL:
    case A_STR: return "unknown";
    case A_INTEGER: return "integer";
    case A_BIGINT: return "bigint";
    case A_NUMERIC: return "numeric";
    }
    return "?";
}

/* A quoted key coerced to bigint (bits 64) or integer (32): 0, or -1 with the error. */
static int coerce_str(arg *a, int bits, pgreply *r)
{
    const char *p = a->p + 1;
    size_t n = a->len - 2;
    char *text = xmemdup(p, n);
    /* '' inside the literal stands for one quote */
    char *w = text;
    for (char *q = text; *q; q++) {
        *w++ = *q;
        if (*q == '\'' && q[1] == '\'') q++;
    }
    *w = 0;
    const char *b = text, *e = text + strlen(text);
    while (b < e && isspace((unsigned char)*b)) b++;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    const char *d = b;
    if (d < e && (*d == '-' || *d == '+')) d++;
    int ok = d < e;
    for (const char *q = d; q < e; q++)
        if (!isdigit((unsigned char)*q)) ok = 0;
    const char *tn = bits == 64 ? "bigint" : "integer";
    if (!ok) {
        pg_reply_error(r, "22P02", "invalid input syntax for type %s: \"%s\"", tn, text);
        free(text);
        return -1;
    }
    char *num = xmemdup(b, (size_t)(e - b));
    errno = 0;
    long long v = strtoll(num, NULL, 10);
    int range = errno == ERANGE;
    if (!range && bits == 32 && (v < INT32_MIN || v > INT32_MAX)) range = 1;
    free(num);
    if (range) {
        pg_reply_error(r, "22003", "value \"%s\" is out of range for type %s", text, tn);
        free(text);
        return -1;
    }
    free(text);
    a->t = bits == 64 ? A_BIGINT : A_INTEGER;
    a->i = v;
    return 0;
}

int pg_check_item(item *it, pgreply *r)
{
    if (it->f == F_LITERAL) return 0;
    int want = -2;
    for (size_t i = 0; i < LL_ARRAY_LEN(fns); i++)
        if (fns[i].f == it->f) want = fns[i].nargs;
    int match = 0;
    if (want == 0) {
        match = it->nargs == 0;
    } else if (want == -1 && it->nargs == 1) {
        match = it->args[0].t != A_NUMERIC;
    } else if (want == -1 && it->nargs == 2) {
        match = 1;
        for (int i = 0; i < 2; i++)
            if (it->args[i].t == A_BIGINT || it->args[i].t == A_NUMERIC) match = 0;
    }
    if (it->f == F_UNKNOWN || !match) {
        buf b;
        buf_init(&b);
        for (int i = 0; i < it->nargs; i++) buf_printf(&b, "%s%s", i ? ", " : "", type_name(it->args[i].t));
        pg_reply_error(r, "42883", "function %s(%s) does not exist", it->name, b.p ? b.p : "");
        buf_release(&b);
        return -1;
    }
    for (int i = 0; i < it->nargs; i++)
        if (it->args[i].t == A_STR && coerce_str(&it->args[i], it->nargs == 1 ? 64 : 32, r)) return -1;
    return 0;
}
