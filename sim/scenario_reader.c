/* scenario_reader.c — reads the table a scenario file returns (see scenario_reader.h).
 *
 * How the loader's pieces fit: a scenario is read in three passes over one file.
 *   1. evaluate (here): the text runs as a Lua 5.4 chunk in a fresh state with no libraries
 *      and an empty _ENV, under an instruction budget (count hook) and a memory cap
 *      (allocator), and must return one table. Lua's own errors already carry FILE:LINE.
 *   2. map lines (scenario_lines.c): the line of every field of the returned constructor.
 *   3. validate (scenario.c, with scenario_faults.c for faults and the explore table): a C
 *      function run under lua_pcall (rd_validate) walks the table with raw accesses, checks
 *      every key, type and value with the readers below, and fills the scenario. A problem
 *      is reported with rd_fail, which names the field's line and unwinds with lua_error.
 *
 * This file knows no field of a scenario: the readers take a table, a key and the path it
 * is found at, and know only what a duration, a list or a name looks like. The loader reads
 * tables in a fixed order, never in lua_next order, which depends on a per-state hash seed;
 * where a check here must walk every key, it reports the one written first in the file, so
 * the first problem reported and the data built are deterministic. */
#include "scenario.h"
#include "scenario_reader.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

enum {
    EVAL_HOOK_EVERY = 1000,           /* VM instructions between budget checks */
    EVAL_STEP_BUDGET = 20000000,      /* VM instructions a scenario may take (~0.1 s) */
};

#define DURATION_MAX_US ((int64_t)1000000000000000) /* 10^15 µs, about 31 years */

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
/* Messages                                                                               */

/* Copies user text for a message: cut to SHOW_LEN, control bytes and quotes made '?'. */
const char *rd_show(char out[SHOW_LEN + 4], const char *s, size_t len)
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

/* The nearest of names[0..n) to s if it is near enough to be a likely typo, else NULL
 * (util.c's ll_nearest, which the command line's did-you-mean uses too). */
const char *rd_nearest(const char *s, const char *const *names, size_t n)
{
    return ll_nearest(s, names, n);
}

/* "a, b, c" (or, quoted, "\"a\", \"b\" or \"c\"") into out, cut to cap; returns out. Messages
 * are built in local arrays like this one because a failing check unwinds past the caller. */
const char *rd_join_names(char *out, size_t cap, const char *const *names, size_t n, int quoted)
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
/* ------------------------------------------------------------------------------------ */
/* Keys and lists                                                                         */

/* Reports a problem with the field at `path` and unwinds to the validator's pcall. */
_Noreturn void rd_fail(reader *rd, const char *path, const char *fmt, ...)
{
    va_list ap;
    buf_reset(&rd->err);
    buf_printf(&rd->err, "%s:%d: ", rd->file, linemap_line(&rd->map, path));
    va_start(ap, fmt);
    buf_vprintf(&rd->err, fmt, ap);
    va_end(ap);
    rd->failed = 1;
    lua_pushnil(rd->L);
    lua_error(rd->L);
    ll_assert_fail("lua_error returned", __FILE__, __LINE__);
}

/* "the scenario" or "clients[2]": where a key lives, for messages. */
const char *rd_where(const char *path)
{
    return *path ? path : "the scenario";
}

const char *rd_type_name(lua_State *L, int idx)
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
int rd_get(lua_State *L, int t, const char *key)
{
    lua_pushstring(L, key);
    return lua_rawget(L, t);
}

/* The key at the top of the stack, made printable ("leese", "[3]", "a boolean key"). */
const char *rd_key_text(lua_State *L, char out[SHOW_LEN + 4])
{
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t len;
        const char *k = lua_tolstring(L, -1, &len);
        return rd_show(out, k, len);
    }
    if (lua_isinteger(L, -1)) {
        snprintf(out, SHOW_LEN + 4, "[%lld]", (long long)lua_tointeger(L, -1));
        return out;
    }
    snprintf(out, SHOW_LEN + 4, "%s key", rd_type_name(L, -1));
    return out;
}

/* Checks that every key of the table at t is a string among valid[0..n); reports the
 * offender written first in the file. `noun` names what the keys are ("key", "property").
 * With always_list the message lists the valid names even when it suggests one. */
void rd_check_keys(reader *rd, int t, const char *path, const char *noun,
                   const char *plural, const char *const *valid, size_t n, int always_list)
{
    lua_State *L = rd->L;
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
            rd_path_key(kp, path, k);
        } else if (lua_isinteger(L, -1)) {
            rd_path_index(kp, path, (long long)lua_tointeger(L, -1));
        } else {
            snprintf(kp, sizeof kp, "%s", path);
        }
        rd_key_text(L, text);
        int line = linemap_line(&rd->map, kp);
        if (line < bad_line || (line == bad_line && strcmp(text, bad) < 0)) {
            bad_line = line;
            bad_string = is_string;
            snprintf(bad, sizeof bad, "%s", text);
            snprintf(bad_path, sizeof bad_path, "%s", kp);
        }
    }
    if (bad_line == INT_MAX) return;
    if (!bad_string)
        rd_fail(rd, bad_path, "%s has a positional value %s; write its fields as name = value",
                rd_where(path), bad);
    const char *near = rd_nearest(bad, valid, n);
    char list[1024];
    rd_join_names(list, sizeof list, valid, n, 0);
    if (near && always_list)
        rd_fail(rd, bad_path, "unknown %s '%s' in %s; did you mean '%s'? (valid %s: %s)", noun, bad,
                rd_where(path), near, plural, list);
    if (near) rd_fail(rd, bad_path, "unknown %s '%s' in %s; did you mean '%s'?", noun, bad, rd_where(path), near);
    rd_fail(rd, bad_path, "unknown %s '%s' in %s; valid %s: %s", noun, bad, rd_where(path), plural, n ? list : "none");
}

void rd_check_fields(reader *rd, int t, const char *path, const char *const *valid, size_t n)
{
    rd_check_keys(rd, t, path, "key", "keys", valid, n, 0);
}

/* Checks that the table at t is a list {v1, v2, ...} and returns its length. */
int rd_check_list(reader *rd, int t, const char *path, const char *what, int min, int max)
{
    lua_State *L = rd->L;
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
        rd_key_text(L, text);
        if (lua_type(L, -1) == LUA_TSTRING) rd_path_key(kp, path, lua_tostring(L, -1));
        else snprintf(kp, sizeof kp, "%s", path);
        int line = linemap_line(&rd->map, kp);
        /* ties broken by name: lua_next's order changes from run to run */
        if (line < bad_line || (line == bad_line && strcmp(text, bad) < 0)) {
            bad_line = line;
            snprintf(bad_path, sizeof bad_path, "%s", kp);
            snprintf(bad, sizeof bad, "%s", text);
        }
    }
    if (bad_line != INT_MAX)
        rd_fail(rd, bad_path, "%s must be a list of %s, but has the key '%s'", path, what, bad);
    if (count != n) rd_fail(rd, path, "%s must be a list of %s without holes", path, what);
    if (n == 0 && min > 0) rd_fail(rd, path, "%s must not be empty", path);
    if (n < (lua_Unsigned)min) rd_fail(rd, path, "%s must have at least %d %s", path, min, what);
    if (n > (lua_Unsigned)max) rd_fail(rd, path, "%s has more than %d %s", path, max, what);
    return (int)n;
}

/* ------------------------------------------------------------------------------------ */
/* Typed values. Each takes the value at idx and the path it was found at.               */

int64_t rd_to_duration(reader *rd, int idx, const char *path, int flags)
{
    lua_State *L = rd->L;
    int64_t us = 0;
    char got[SHOW_LEN + 8];
    const int64_t max_ms = DURATION_MAX_US / 1000;
    int type = lua_type(L, idx);
    if (type == LUA_TBOOLEAN && (flags & D_NONE) && !lua_toboolean(L, idx)) return DUR_NONE;
    if (type == LUA_TNUMBER) {
        if (lua_isinteger(L, idx)) {
            lua_Integer v = lua_tointeger(L, idx);
            if (v > max_ms || v < -max_ms) rd_fail(rd, path, "%s is too large", path);
            us = (int64_t)v * 1000;
        } else {
            double v = lua_tonumber(L, idx);
            if (!isfinite(v) || fabs(v) > (double)max_ms) rd_fail(rd, path, "%s is too large", path);
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
            rd_fail(rd, path, "%s: bad duration \"%s\" (write a number of ms or a string like "
                    "\"250ms\" or \"10s\"; units: us, ms, s, m, h)", path, rd_show(shown, s, len));
        if (rc == -2) rd_fail(rd, path, "%s is too large", path);
        snprintf(got, sizeof got, "\"%s\"", rd_show(shown, s, len));
    } else {
        rd_fail(rd, path, "%s must be a duration%s (a number of ms or a string like \"10s\"), not %s",
                path, flags & D_NONE ? " or false" : "", rd_type_name(L, idx));
    }
    if (us < 0 && !(flags & D_SIGNED)) rd_fail(rd, path, "%s must not be negative (got %s)", path, got);
    if (us <= 0 && (flags & D_POSITIVE)) rd_fail(rd, path, "%s must be more than 0 (got %s)", path, got);
    return us;
}

double rd_to_number(reader *rd, int idx, const char *path, double lo, double hi)
{
    if (lua_type(rd->L, idx) != LUA_TNUMBER)
        rd_fail(rd, path, "%s must be a number, not %s", path, rd_type_name(rd->L, idx));
    double v = lua_tonumber(rd->L, idx);
    if (!(v >= lo && v <= hi)) rd_fail(rd, path, "%s must be between %g and %g (got %g)", path, lo, hi, v);
    return v;
}

long long rd_to_integer(reader *rd, int idx, const char *path, long long lo, long long hi)
{
    lua_State *L = rd->L;
    int ok = 0;
    lua_Integer v = 0;
    if (lua_type(L, idx) != LUA_TNUMBER)
        rd_fail(rd, path, "%s must be a whole number, not %s", path, rd_type_name(L, idx));
    v = lua_tointegerx(L, idx, &ok);
    if (!ok) rd_fail(rd, path, "%s must be a whole number (got %.14g)", path, (double)lua_tonumber(L, idx));
    if (v < lo || v > hi) {
        if (hi == LLONG_MAX) rd_fail(rd, path, "%s must be at least %lld (got %lld)", path, lo, (long long)v);
        rd_fail(rd, path, "%s must be between %lld and %lld (got %lld)", path, lo, hi, (long long)v);
    }
    return v;
}

const char *rd_to_string(reader *rd, int idx, const char *path)
{
    size_t len;
    if (lua_type(rd->L, idx) != LUA_TSTRING)
        rd_fail(rd, path, "%s must be a string, not %s", path, rd_type_name(rd->L, idx));
    const char *s = lua_tolstring(rd->L, idx, &len);
    if (strlen(s) != len) rd_fail(rd, path, "%s contains a NUL byte", path);
    return s;
}

/* One of choices[0..n): returns its index. */
int rd_to_choice(reader *rd, int idx, const char *path, const char *const *choices, size_t n)
{
    lua_State *L = rd->L;
    char msg[512], shown[SHOW_LEN + 4];
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *s = lua_tostring(L, idx);
        for (size_t i = 0; i < n; i++)
            if (strcmp(s, choices[i]) == 0) return (int)i;
    }
    rd_join_names(msg, sizeof msg, choices, n, 1);
    if (lua_type(L, idx) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        rd_fail(rd, path, "%s must be %s (got \"%s\")", path, msg, rd_show(shown, s, len));
    }
    rd_fail(rd, path, "%s must be %s, not %s", path, msg, rd_type_name(L, idx));
}

/* An actor name: 1..32 letters, digits, '_' or '-'. */
const char *rd_to_name(reader *rd, int idx, const char *path)
{
    const char *s = rd_to_string(rd, idx, path);
    size_t len = strlen(s);
    int ok = len >= 1 && len <= NAME_MAX_LEN;
    for (size_t i = 0; ok && i < len; i++)
        ok = isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-';
    char shown[SHOW_LEN + 4];
    if (!ok)
        rd_fail(rd, path, "%s: '%s' is not a valid name (1 to %d letters, digits, '_' or '-')", path,
                rd_show(shown, s, len), NAME_MAX_LEN);
    return s;
}

/* Optional fields: each pushes nothing and returns the default when the field is absent. */
int64_t rd_opt_duration(reader *rd, int t, const char *parent, const char *key, int64_t dflt, int flags)
{
    char path[PATH_LEN];
    rd_path_key(path, parent, key);
    int64_t v = dflt;
    if (rd_get(rd->L, t, key) != LUA_TNIL) v = rd_to_duration(rd, -1, path, flags);
    lua_pop(rd->L, 1);
    return v;
}

double rd_opt_number(reader *rd, int t, const char *parent, const char *key, double dflt, double lo, double hi)
{
    char path[PATH_LEN];
    rd_path_key(path, parent, key);
    double v = dflt;
    if (rd_get(rd->L, t, key) != LUA_TNIL) v = rd_to_number(rd, -1, path, lo, hi);
    lua_pop(rd->L, 1);
    return v;
}

long long rd_opt_integer(reader *rd, int t, const char *parent, const char *key, long long dflt,
                         long long lo, long long hi)
{
    char path[PATH_LEN];
    rd_path_key(path, parent, key);
    long long v = dflt;
    if (rd_get(rd->L, t, key) != LUA_TNIL) v = rd_to_integer(rd, -1, path, lo, hi);
    lua_pop(rd->L, 1);
    return v;
}

/* A string field copied to the heap; NULL when absent and not required. */
char *rd_opt_string(reader *rd, int t, const char *parent, const char *key, int required)
{
    char path[PATH_LEN];
    rd_path_key(path, parent, key);
    if (rd_get(rd->L, t, key) == LUA_TNIL) {
        lua_pop(rd->L, 1);
        if (required) rd_fail(rd, parent, "%s has no '%s' (it is required)", rd_where(parent), key);
        return NULL;
    }
    const char *s = rd_to_string(rd, -1, path);
    if (!*s && required) rd_fail(rd, path, "%s must not be empty", path);
    char *copy = xstrdup(s);
    lua_pop(rd->L, 1);
    return copy;
}

/* Pushes the table field `key` (absolute index returned), or returns 0 with nothing pushed. */
int rd_opt_table(reader *rd, int t, const char *parent, const char *key)
{
    char path[PATH_LEN];
    rd_path_key(path, parent, key);
    int type = rd_get(rd->L, t, key);
    if (type == LUA_TNIL) {
        lua_pop(rd->L, 1);
        return 0;
    }
    if (type != LUA_TTABLE) rd_fail(rd, path, "%s must be a table, not %s", path, rd_type_name(rd->L, -1));
    return lua_gettop(rd->L);
}

/* ------------------------------------------------------------------------------------ */
/* The sandbox                                                                            */

static void *reader_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    reader *rd = ud;
    if (!ptr) osize = 0; /* osize then encodes the object's type, not a size */
    if (nsize == 0) {
        free(ptr);
        rd->mem_used -= osize;
        return NULL;
    }
    if (nsize > osize && rd->mem_used + (nsize - osize) > EVAL_MEM_CAP) {
        rd->mem_hit = 1;
        return NULL;
    }
    void *q = realloc(ptr, nsize);
    if (!q) return NULL;
    rd->mem_used = rd->mem_used - osize + nsize;
    return q;
}

static void reader_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    void *ud;
    lua_getallocf(L, &ud);
    reader *rd = ud;
    rd->steps += EVAL_HOOK_EVERY;
    if (rd->steps > EVAL_STEP_BUDGET) {
        rd->too_long = 1;
        /* fire again at once should anything catch this error */
        lua_sethook(L, reader_hook, LUA_MASKCOUNT, 1);
        lua_pushliteral(L, "scenario took too long to evaluate");
        lua_error(L);
    }
}

/* Rewrites a Lua error ("FILE:LINE: msg", possibly with FILE shortened to "...tail") into
 * "FILE:LINE: msg" with the full name. */
static void reader_lua_error(reader *rd, const char *msg)
{
    size_t fl = strlen(rd->file);
    const char *rest = NULL;
    if (!strncmp(msg, rd->file, fl) && msg[fl] == ':') {
        rest = msg + fl;
    } else if (!strncmp(msg, "...", 3)) {
        for (const char *c = strchr(msg + 3, ':'); c; c = strchr(c + 1, ':')) {
            size_t tl = (size_t)(c - (msg + 3));
            if (tl <= fl && !strncmp(rd->file + fl - tl, msg + 3, tl) && isdigit((unsigned char)c[1])) {
                rest = c;
                break;
            }
        }
    }
    size_t start = rd->err.len;
    if (rest) buf_printf(&rd->err, "%s%s", rd->file, rest);
    else buf_printf(&rd->err, "%s: %s", rd->file, msg);
    /* Lua quotes the offending token, which may be a long string: keep the message one line */
    for (size_t i = start; i < rd->err.len; i++)
        if ((unsigned char)rd->err.p[i] < 0x20) rd->err.p[i] = ' ';
}

int rd_open(reader *rd, const char *file)
{
    *rd = (reader){ .file = file };
    buf_init(&rd->err);
    rd->L = lua_newstate(reader_alloc, rd);
    if (rd->L) return 0;
    buf_printf(&rd->err, "%s: scenario uses too much memory", rd->file);
    return -1;
}

int rd_evaluate(reader *rd, const char *text, size_t len)
{
    lua_State *L = rd->L;
    /* As the lua command does: skip a UTF-8 byte order mark (some editors write one) and a
     * first line starting with '#' (#!/usr/bin/env lua), keeping its line break so that
     * line numbers still match the file. */
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) text += 3, len -= 3;
    if (len && text[0] == '#')
        while (len && *text != '\n' && *text != '\r') text++, len--;
    buf chunk;
    buf_init(&chunk);
    buf_printf(&chunk, "@%s", rd->file);
    int rc = luaL_loadbufferx(L, text, len, chunk.p, "t");
    buf_release(&chunk);
    if (rc == LUA_OK) {
        /* the chunk's only upvalue is _ENV: an empty table, so nothing is reachable */
        lua_newtable(L);
        lua_setupvalue(L, -2, 1);
        lua_sethook(L, reader_hook, LUA_MASKCOUNT, EVAL_HOOK_EVERY);
        rc = lua_pcall(L, 0, LUA_MULTRET, 0);
        lua_sethook(L, NULL, 0, 0);
    }
    if (rc != LUA_OK) {
        if (rd->too_long) buf_printf(&rd->err, "%s: scenario took too long to evaluate", rd->file);
        else if (rc == LUA_ERRMEM || rd->mem_hit) buf_printf(&rd->err, "%s: scenario uses too much memory", rd->file);
        else if (lua_type(L, -1) == LUA_TSTRING) reader_lua_error(rd, lua_tostring(L, -1));
        else buf_printf(&rd->err, "%s: the scenario raised an error (%s)", rd->file, rd_type_name(L, -1));
        return -1;
    }
    linemap_build(&rd->map, text, len);
    int nret = lua_gettop(L);
    if (nret != 1 || lua_type(L, 1) != LUA_TTABLE) {
        buf_printf(&rd->err, "%s:%d: ", rd->file, rd->map.return_line);
        if (nret == 0) buf_puts(&rd->err, "the scenario returns nothing; it must end with return { ... }");
        else if (nret > 1) buf_printf(&rd->err, "the scenario must return one table, not %d values", nret);
        else buf_printf(&rd->err, "the scenario must return a table, not %s", rd_type_name(L, 1));
        return -1;
    }
    return 0;
}

int rd_validate(reader *rd, lua_CFunction validate, void *ud)
{
    lua_State *L = rd->L;
    lua_pushcfunction(L, validate);
    lua_pushlightuserdata(L, ud);
    lua_pushvalue(L, 1);
    int rc = lua_pcall(L, 2, 0, 0);
    if (rc == LUA_OK) return 0;
    if (!rd->failed) {
        buf_reset(&rd->err);
        if (rc == LUA_ERRMEM || rd->mem_hit) buf_printf(&rd->err, "%s: scenario uses too much memory", rd->file);
        else buf_printf(&rd->err, "%s: %s", rd->file, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error");
    }
    return -1;
}

void rd_close(reader *rd)
{
    if (rd->L) lua_close(rd->L);
    linemap_release(&rd->map);
    buf_release(&rd->err);
}
