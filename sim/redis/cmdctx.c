/* cmdctx.c — the argument parsers and reply helpers every command file shares (cmdctx.h):
 * integers, floats and long doubles as Redis reads them, a key of an expected type, the
 * server's random draws, the MPOP family's arguments, SSCAN/HSCAN/ZSCAN's cursor and
 * options, a blocking command's timeout and its wait, a database index. */
#include "cmdctx.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbset.h"

int arg_int64(cmdctx *c, int i, long long *out)
{
    if (ll_parse_int64(c->argv[i], out) == 0) return 0;
    reply_error(c->out, ERR_NOT_INT);
    return -1;
}

int arg_double(cmdctx *c, int i, double *out)
{
    if (ll_parse_double(c->argv[i], out) == 0) return 0;
    reply_error(c->out, ERR_NOT_FLOAT);
    return -1;
}

int lookup_typed(cmdctx *c, slice key, obj_type t, kv **e)
{
    *e = store_lookup(c->db, key);
    if (*e && (*e)->type != t) {
        reply_error(c->out, ERR_WRONGTYPE);
        return -1;
    }
    return 0;
}

int lookup_blocked(cmdctx *c, slice key, obj_type t, kv **e)
{
    if (!c->conn || !c->conn->block_retry) return lookup_typed(c, key, t, e);
    *e = store_lookup(c->db, key);
    if (*e && (*e)->type != t) *e = NULL;
    return 0;
}

void reply_wrong_args(cmdctx *c)
{
    reply_errorf(c->out, "ERR wrong number of arguments for '%s' command", c->name ? c->name : "?");
}

uint64_t cmd_rand(cmdctx *c, uint64_t n)
{
    cmd_footprint(c, FP_RNG); /* the next draw depends on this one */
    uint64_t z = (*c->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z % n;
}

int random_count_ok(cmdctx *c, unsigned long long draws)
{
    if (draws <= RANDOM_REPLY_MAX) return 0;
    reply_errorf(c->out, "ERR locklab builds at most %d random draws in one reply", RANDOM_REPLY_MAX);
    return -1;
}

int arg_random_count(cmdctx *c, const char *with, long long *count, int *withflag)
{
    if (arg_int64(c, 2, count) < 0) return -1;
    if (*count == LLONG_MIN) {
        reply_error(c->out, "ERR value is out of range, value must between -9223372036854775807 and "
                            "9223372036854775807");
        return -1;
    }
    if (!with) return 0;
    if (c->argc > 4 || (c->argc == 4 && !slice_opt_is(c->argv[3], with))) {
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    *withflag = c->argc == 4;
    if (*withflag && (*count < -LLONG_MAX / 2 || *count > LLONG_MAX / 2)) {
        reply_error(c->out, "ERR value is out of range");
        return -1;
    }
    return 0;
}

int arg_mpop(cmdctx *c, int nk, const char *end0, const char *end1, int *first, int *nkeys, int *end,
             long long *count)
{
    long long numkeys;
    if (ll_parse_int64(c->argv[nk], &numkeys) < 0 || numkeys < 1) {
        reply_error(c->out, "ERR numkeys should be greater than 0");
        return -1;
    }
    if (numkeys >= c->argc - nk - 1) { /* no room for the keys and the end's word */
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    int wi = nk + 1 + (int)numkeys;
    if (slice_opt_is(c->argv[wi], end0)) *end = 0;
    else if (slice_opt_is(c->argv[wi], end1)) *end = 1;
    else {
        reply_error(c->out, ERR_SYNTAX);
        return -1;
    }
    *count = -1;
    for (int j = wi + 1; j < c->argc; j++) {
        if (*count == -1 && slice_opt_is(c->argv[j], "count") && j + 1 < c->argc) {
            if (ll_parse_int64(c->argv[++j], count) < 0 || *count < 1) {
                reply_error(c->out, "ERR count should be greater than 0");
                return -1;
            }
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return -1;
        }
    }
    if (*count == -1) *count = 1;
    *first = nk + 1;
    *nkeys = (int)numkeys;
    return 0;
}

size_t *cmd_rand_distinct(cmdctx *c, size_t size, size_t n)
{
    size_t *ix = xmalloc((size ? size : 1) * sizeof *ix);
    for (size_t i = 0; i < size; i++) ix[i] = i;
    for (size_t i = 0; i < n; i++) {
        size_t j = i + (size_t)cmd_rand(c, size - i), t = ix[i];
        ix[i] = ix[j];
        ix[j] = t;
    }
    return ix;
}

/* Redis's string2ld: strtold over the whole argument (a NUL inside makes it no number), no
 * leading blank, no overflow, no underflow to zero, no nan; "inf" is a number. */
int string2ld(slice s, long double *out)
{
    char tmp[LD_STRING_MAX];
    if (s.len == 0 || s.len >= sizeof tmp) return -1;
    memcpy(tmp, s.p, s.len);
    tmp[s.len] = '\0';
    char *end;
    errno = 0;
    long double v = strtold(tmp, &end);
    if (isspace((unsigned char)tmp[0]) || *end != '\0' || (size_t)(end - tmp) != s.len ||
        (errno == ERANGE && (v == HUGE_VALL || v == -HUGE_VALL || fpclassify(v) == FP_ZERO)) || isnan(v))
        return -1;
    *out = v;
    return 0;
}

int ld2string(char *tmp, size_t cap, long double value)
{
    int n = snprintf(tmp, cap, "%.17Lf", value);
    if (n < 0 || (size_t)n + 1 > cap) {
        n = 0;
    } else if (strchr(tmp, '.')) {
        while (tmp[n - 1] == '0') n--;
        if (tmp[n - 1] == '.') n--;
    }
    if (n == 2 && tmp[0] == '-' && tmp[1] == '0') {
        tmp[0] = '0';
        n = 1;
    }
    tmp[n] = '\0';
    return n;
}

/* The timeout in seconds as Redis 7.0's getTimeoutFromObjectOrReply reads it: a long double
 * (string2ld: strtold over the whole argument, at most 5119 bytes, no leading space, no
 * overflow, no underflow to zero, no nan), times 1000, rounded up to whole milliseconds
 * (ceill: 0.0005 and 0.001 wait 1 ms, never 0, which is forever). So -0.0009 is 0 (not
 * negative), 1e-4000 is a number (1 ms), and a product outside the long long
 * range (inf, 1e20, 1e400) converts as x86-64 converts it there, to LLONG_MIN: negative.
 * Returns 0, or -1 after replying the error. */
int arg_timeout(cmdctx *c, slice arg, long long *ms)
{
    char tmp[5 * 1024];
    if (arg.len == 0 || arg.len >= sizeof tmp) goto not_float;
    memcpy(tmp, arg.p, arg.len);
    tmp[arg.len] = '\0';
    if (isspace((unsigned char)tmp[0])) goto not_float;
    char *end;
    errno = 0;
    long double v = strtold(tmp, &end);
    if ((size_t)(end - tmp) != arg.len || isnan(v) ||
        (errno == ERANGE && (isinf(v) || fpclassify(v) == FP_ZERO)))
        goto not_float;
    v = ceill(v * 1000.0);
    *ms = v > -9223372036854775808.0L && v < 9223372036854775808.0L ? (long long)v : LLONG_MIN;
    if (*ms < 0) {
        reply_error(c->out, "ERR timeout is negative");
        return -1;
    }
    return 0;
not_float:
    reply_error(c->out, "ERR timeout is not a float or out of range");
    return -1;
}

void cmd_block_or_nil(cmdctx *c, long long timeout)
{
    if (c->conn && c->conn->may_block && c->conn->block_retry != 2) {
        c->conn->blocked = 1;
        c->conn->block_deadline = timeout ? store_now(c->db) + timeout : 0;
        return;
    }
    reply_nil_array(c->out);
}

/* ---- SSCAN, HSCAN, ZSCAN ---- */

static int scan_parse_cursor(slice arg, uint64_t *cursor)
{
    char tmp[64];
    slice s = slice_cstr_prefix(arg);
    if (s.len >= sizeof tmp) return -1;
    memcpy(tmp, s.p, s.len);
    tmp[s.len] = '\0';
    char *end;
    errno = 0;
    unsigned long v = strtoul(tmp, &end, 10);
    if (isspace((unsigned char)tmp[0]) || *end != '\0' || errno == ERANGE) return -1;
    *cursor = v;
    return 0;
}

int arg_scan_cursor(cmdctx *c, int i, uint64_t *cursor)
{
    if (scan_parse_cursor(c->argv[i], cursor) == 0) return 0;
    reply_error(c->out, "ERR invalid cursor");
    return -1;
}

int scan_options(cmdctx *c, int from, slice *pat)
{
    *pat = SLICE_LIT("*");
    for (int i = from; i < c->argc; i += 2) {
        int has_value = i + 1 < c->argc;
        long long count;
        if (slice_opt_is(c->argv[i], "count") && has_value) {
            if (arg_int64(c, i + 1, &count) < 0) return -1;
            if (count < 1) {
                reply_error(c->out, ERR_SYNTAX);
                return -1;
            }
        } else if (slice_opt_is(c->argv[i], "match") && has_value) {
            *pat = c->argv[i + 1];
        } else {
            reply_error(c->out, ERR_SYNTAX);
            return -1;
        }
    }
    return 0;
}

int scan_match(slice pat, slice member)
{
    return (pat.len == 1 && pat.p[0] == '*') || glob_match(pat.p, pat.len, member.p, member.len);
}

void reply_empty_scan(reply *r)
{
    reply *out = reply_array(r, 2);
    reply_bulk_cstr(&out[0], "0");
    reply_array(&out[1], 0);
}

/* ---- SELECT, MOVE, COPY ... DB, SWAPDB ---- */

int arg_db_index(cmdctx *c, int i, int *id, const char *msg)
{
    long long v;
    int isint = ll_parse_int64(c->argv[i], &v) == 0;
    if (!isint || v < INT_MIN || v > INT_MAX) {
        if (msg) reply_errorf(c->out, "ERR %s", msg);
        else if (isint)
            reply_error(c->out, "ERR value is out of range, value must between -2147483648 and 2147483647");
        else reply_error(c->out, ERR_NOT_INT);
        return -1;
    }
    if (v < 0 || v >= DB_COUNT) {
        reply_error(c->out, "ERR DB index is out of range");
        return -1;
    }
    *id = (int)v;
    return 0;
}

/* ---- container commands (CLIENT, CONFIG, DEBUG, SLOWLOG, LATENCY ...) ---- */

void reply_unknown_sub(cmdctx *c, const char *cmd)
{
    slice s = slice_cstr_prefix(c->argv[1]);
    reply_errorf(c->out, "ERR unknown subcommand '%.*s'. Try %s HELP.", (int)(s.len < 128 ? s.len : 128), s.p, cmd);
    for (size_t i = 0; i < c->out->len; i++)
        if (c->out->str[i] == '\r' || c->out->str[i] == '\n') c->out->str[i] = ' ';
}

void reply_sub_args(cmdctx *c, const char *cmd, const char *sub)
{
    reply_errorf(c->out, "ERR wrong number of arguments for '%s|%s' command", cmd, sub);
}

void reply_lines(cmdctx *c, const char *const *lines, size_t n)
{
    reply *e = reply_array(c->out, n);
    for (size_t i = 0; i < n; i++) reply_status(&e[i], lines[i]);
}

/* Redis's memtoull: a memory value ("64", "1k", "2mb") in bytes; -1 if it is not one. */
int config_parse_memory(slice s, long long *v)
{
    static const struct { const char *unit; unsigned long long mul; } units[] = {
        { "", 1 }, { "b", 1 }, { "k", 1000 }, { "kb", 1024 }, { "m", 1000000 }, { "mb", 1048576 },
        { "g", 1000000000 }, { "gb", 1073741824 },
    };
    size_t d = 0;
    while (d < s.len && s.p[d] >= '0' && s.p[d] <= '9') d++;
    if (d >= 128) return -1;
    slice u = { s.p + d, s.len - d };
    for (size_t i = 0; i < LL_ARRAY_LEN(units); i++)
        if (u.len == strlen(units[i].unit) && slice_opt_is(u, units[i].unit)) {
            unsigned long long n = 0;
            for (size_t k = 0; k < d; k++) n = n * 10 + (unsigned long long)(s.p[k] - '0');
            *v = (long long)(n * units[i].mul);
            return 0;
        }
    return -1;
}
