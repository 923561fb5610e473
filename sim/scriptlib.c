/* scriptlib.c — see scriptlib.h.
 *
 * The index (lua/redis/index.lua) is Lua: a chunk that returns a list of tables. It is read
 * once, in a throwaway Lua state that has only the base, string and table libraries and that
 * accepts text chunks only; every entry is validated and copied into C strings, and the state
 * is closed before scriptlib_load returns. Nothing Lua outlives the load.
 *
 * Versions. An entry's `version` is the release its text was read at; the optional `since` is
 * the oldest release known to send the same bytes. So an entry covers the closed range
 * [since, version] (since defaults to version), and a lookup of name@V finds the entry whose
 * range holds V. Ranges of one name never overlap (checked at load).
 *
 * Version order: numeric parts compare as numbers ("3.4.4" < "3.11.1"; a missing part is 0);
 * any version that does not start with a digit ("HEAD", "redis-docs") is a label, and every
 * label compares equal to HEAD and newer than every number. */
#include "scriptlib.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#define SCRIPTLIB_INDEX "lua/redis/index.lua"
#define SCRIPTLIB_MARKER "-- locklab:body\n"
#define SCRIPTLIB_MAX_NEAREST 6

typedef struct script_entry {
    script_info info; /* every string owned by the entry */
    char *since;      /* oldest version with the same bytes (owned) */
} script_entry;

struct scriptlib {
    char *dir;          /* the data directory (owned) */
    script_entry *v;
    size_t n;
};

/* ---- the data directory ---- */

static int scriptlib_has_index(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, SCRIPTLIB_INDEX) >= (int)sizeof path) return 0;
    return ll_is_file(path);
}

/* The first of exe's directory and its three nearest ancestors that holds lua/redis/index.lua
 * (so build/san/locklab finds the tree too), or "" when none does. */
static void scriptlib_exe_dir(char *out, size_t cap)
{
    out[0] = '\0';
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    for (int up = 0; up < 4; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash) return;
        *slash = '\0';
        const char *dir = exe[0] ? exe : "/";
        if (scriptlib_has_index(dir)) {
            snprintf(out, cap, "%s", dir);
            return;
        }
    }
}

const char *ll_data_dir(void)
{
    /* Process-wide configuration, computed once: the one allowed mutable static. */
    static char cached[PATH_MAX];
    if (cached[0]) return cached;
    const char *home = getenv("LOCKLAB_HOME");
    if (home && home[0]) {
        snprintf(cached, sizeof cached, "%s", home);
        return cached;
    }
    scriptlib_exe_dir(cached, sizeof cached);
    if (!cached[0]) snprintf(cached, sizeof cached, ".");
    return cached;
}

/* ---- client models: beside the scenario first, then the library ---- */

/* A protocol that names a file rather than a library model: it holds a '/' or ends in ".lua". */
static int model_is_path(const char *protocol)
{
    size_t n = strlen(protocol);
    return strchr(protocol, '/') || (n > 4 && !strcmp(protocol + n - 4, ".lua"));
}

static int is_regular(const char *path, struct stat *st)
{
    return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

/* out = the file `name` (+ ext) in the folder of `file` ("." when file has no '/'); 0 if it
 * does not fit. A leading "./" of name is dropped. */
static int model_in_folder_of(const char *file, const char *name, const char *ext, char *out, size_t cap)
{
    const char *slash = file ? strrchr(file, '/') : NULL;
    int dirlen = !slash ? 1 : slash == file ? 1 : (int)(slash - file); /* "x" -> ".", "/x" -> "/" */
    while (name[0] == '.' && name[1] == '/') name += 2;
    int len = snprintf(out, cap, "%.*s/%s%s", dirlen, slash ? file : ".", name, ext);
    return len >= 0 && (size_t)len < cap;
}

int ll_model_beside(const char *scenario_file, const char *protocol, char *out, size_t cap)
{
    int path = model_is_path(protocol);
    int fits = path && protocol[0] == '/' ? snprintf(out, cap, "%s", protocol) < (int)cap
                                          : model_in_folder_of(scenario_file, protocol, path ? "" : ".lua", out, cap);
    struct stat st;
    int found = fits && is_regular(out, &st);
    if (path) return found ? 1 : -1;
    /* a scenario is never its own model (tests/check/setnx-expire.lua runs setnx-expire) */
    if (found && ll_same_file(scenario_file, out)) found = 0;
    /* nor is another scenario, or a counter-example written beside it, that happens to bear
     * the protocol's name: a model is written against ctx (every one is), a scenario never */
    if (found) {
        buf text;
        buf_init(&text);
        found = ll_read_file(out, 1 << 20, &text) == LL_READ_OK && text.p && strstr(text.p, "ctx") != NULL;
        buf_release(&text);
    }
    return found;
}

int ll_script_file(const char *scenario_file, const char *protocol, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    if (!(n > 4 && !strcmp(name + n - 4, ".lua"))) return 0;
    if (name[0] == '/') return snprintf(out, cap, "%s", name) < (int)cap ? 1 : -1;
    const char *base = protocol && model_is_path(protocol) ? protocol : scenario_file;
    return model_in_folder_of(base, name, "", out, cap) ? 1 : -1;
}

void ll_model_file(const char *data_dir, const char *protocol, const char *name, char *out, size_t cap)
{
    struct stat st;
    if (model_is_path(name)) {
        snprintf(out, cap, "%s", name);
        return;
    }
    if (protocol && model_is_path(protocol) && model_in_folder_of(protocol, name, ".lua", out, cap) && is_regular(out, &st))
        return;
    snprintf(out, cap, "%s/lua/clients/%s.lua", data_dir, name);
}

/* ---- versions ---- */

static int scriptlib_is_label(const char *v)
{
    return !isdigit((unsigned char)v[0]);
}

int scriptlib_version_cmp(const char *a, const char *b)
{
    int la = scriptlib_is_label(a), lb = scriptlib_is_label(b);
    if (la || lb) return la - lb;
    while (*a || *b) {
        if (isdigit((unsigned char)*a) || isdigit((unsigned char)*b) || !*a || !*b) {
            char *ea, *eb;
            unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
            if (x != y) return x < y ? -1 : 1;
            a = ea;
            b = eb;
            if (*a == '.') a++;
            if (*b == '.') b++;
            continue;
        }
        /* A non-numeric tail ("3.4.4-rc1"): byte order decides. */
        int c = strcmp(a, b);
        return (c > 0) - (c < 0);
    }
    return 0;
}

/* ---- loading the index ---- */

static const char *const scriptlib_fields[] = { "id", "name", "version", "protocol", "path",
                                                "source", "what", "keys", "argv", "returns" };

static const char **scriptlib_field_slot(script_info *s, size_t i)
{
    const char **slots[] = { &s->id, &s->name, &s->version, &s->protocol, &s->path,
                             &s->source, &s->what, &s->keys, &s->argv, &s->returns };
    LL_ASSERT(i < LL_ARRAY_LEN(slots));
    return slots[i];
}

static void scriptlib_entry_release(script_entry *e)
{
    for (size_t i = 0; i < LL_ARRAY_LEN(scriptlib_fields); i++) {
        const char **slot = scriptlib_field_slot(&e->info, i);
        free((char *)*slot);
        *slot = NULL;
    }
    free(e->since);
    e->since = NULL;
}

/* Pushes t[key] of the table on top of the stack without metamethods, so reading the
 * index cannot run code or raise outside a protected call. */
static int scriptlib_rawfield(lua_State *L, const char *key)
{
    lua_pushstring(L, key);
    return lua_rawget(L, -2);
}

/* Copies the string field `key` of the table on top of the stack; NULL if absent or not a
 * string. */
static char *scriptlib_get_string(lua_State *L, const char *key)
{
    char *s = NULL;
    scriptlib_rawfield(L, key);
    if (lua_type(L, -1) == LUA_TSTRING) {
        size_t len;
        const char *p = lua_tolstring(L, -1, &len);
        s = xmemdup(p, len);
    }
    lua_pop(L, 1);
    return s;
}

/* Fills e from the table on top of the stack. 0, or -1 with the reason in err. */
static int scriptlib_read_entry(lua_State *L, script_entry *e, buf *err)
{
    for (size_t i = 0; i < LL_ARRAY_LEN(scriptlib_fields); i++) {
        char *v = scriptlib_get_string(L, scriptlib_fields[i]);
        if (!v || !v[0]) {
            free(v);
            buf_printf(err, "missing string field '%s'", scriptlib_fields[i]);
            return -1;
        }
        *scriptlib_field_slot(&e->info, i) = v;
    }
    int since_type = scriptlib_rawfield(L, "since");
    lua_pop(L, 1);
    if (since_type != LUA_TNIL && since_type != LUA_TSTRING) {
        buf_puts(err, "field 'since' is not a string");
        return -1;
    }
    e->since = scriptlib_get_string(L, "since");
    if (!e->since) e->since = xstrdup(e->info.version);
    return 0;
}

/* The checks that need the whole list or the file system. */
static int scriptlib_check_entry(const scriptlib *lib, size_t i, buf *err)
{
    const script_entry *e = &lib->v[i];
    const script_info *s = &e->info;
    size_t nl = strlen(s->name);
    if (strchr(s->name, '@') || strncmp(s->id, s->name, nl) != 0 || s->id[nl] != '@' ||
        strcmp(s->id + nl + 1, s->version) != 0) {
        buf_printf(err, "id '%s' is not name@version ('%s@%s')", s->id, s->name, s->version);
        return -1;
    }
    if (scriptlib_version_cmp(e->since, s->version) > 0) {
        buf_printf(err, "'%s': since '%s' is newer than its version", s->id, e->since);
        return -1;
    }
    for (size_t j = 0; j < i; j++) {
        const script_entry *o = &lib->v[j];
        if (!strcmp(o->info.id, s->id)) {
            buf_printf(err, "duplicate id '%s'", s->id);
            return -1;
        }
        if (!strcmp(o->info.name, s->name) && scriptlib_version_cmp(e->since, o->info.version) <= 0 &&
            scriptlib_version_cmp(o->since, s->version) <= 0) {
            buf_printf(err, "'%s' and '%s' cover overlapping versions", o->info.id, s->id);
            return -1;
        }
    }
    char path[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", lib->dir, s->path);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        buf_printf(err, "'%s': file '%s' not found", s->id, s->path);
        return -1;
    }
    return 0;
}

/* Runs index.lua in a bare state and copies its entries into lib. */
static int scriptlib_read_index(scriptlib *lib, const char *path, buf *err)
{
    lua_State *L = luaL_newstate();
    if (!L) {
        buf_puts(err, "cannot create a Lua state");
        return -1;
    }
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    lua_settop(L, 0);
    int rc = -1;
    if (luaL_loadfilex(L, path, "t") != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
        buf_puts(err, lua_tostring(L, -1) ? lua_tostring(L, -1) : "cannot run the index");
        goto done;
    }
    if (!lua_istable(L, -1)) {
        buf_printf(err, "%s: does not return a table", path);
        goto done;
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    lib->v = xcalloc(n > 0 ? (size_t)n : 1, sizeof *lib->v);
    for (lua_Integer i = 1; i <= n; i++, lib->n++) {
        script_entry *e = &lib->v[lib->n];
        lua_rawgeti(L, -1, i);
        buf why;
        buf_init(&why);
        int bad = !lua_istable(L, -1) ? (buf_puts(&why, "not a table"), -1)
                                      : scriptlib_read_entry(L, e, &why);
        lua_pop(L, 1);
        if (bad) {
            buf_printf(err, "%s: entry %lld: %s", path, (long long)i, why.p);
            buf_release(&why);
            lib->n++; /* so the partly filled entry is released */
            goto done;
        }
        buf_release(&why);
    }
    rc = 0;
done:
    lua_close(L);
    return rc;
}

scriptlib *scriptlib_load(const char *dir, buf *err)
{
    scriptlib *lib = xcalloc(1, sizeof *lib);
    lib->dir = xstrdup(dir ? dir : ll_data_dir());
    buf path;
    buf_init(&path);
    buf_printf(&path, "%s/%s", lib->dir, SCRIPTLIB_INDEX);
    struct stat st;
    if (stat(path.p, &st) != 0) {
        buf_printf(err, "cannot open '%s': %s", path.p, strerror(errno));
        goto fail;
    }
    if (scriptlib_read_index(lib, path.p, err) < 0) goto fail;
    for (size_t i = 0; i < lib->n; i++) {
        buf why;
        buf_init(&why);
        int bad = scriptlib_check_entry(lib, i, &why);
        if (bad) buf_printf(err, "%s: %s", path.p, why.p);
        buf_release(&why);
        if (bad) goto fail;
    }
    buf_release(&path);
    return lib;
fail:
    buf_release(&path);
    scriptlib_free(lib);
    return NULL;
}

void scriptlib_free(scriptlib *lib)
{
    if (!lib) return;
    for (size_t i = 0; i < lib->n; i++) scriptlib_entry_release(&lib->v[i]);
    free(lib->v);
    free(lib->dir);
    free(lib);
}

size_t scriptlib_count(const scriptlib *lib)
{
    return lib->n;
}

const script_info *scriptlib_at(const scriptlib *lib, size_t i)
{
    LL_ASSERT(i < lib->n);
    return &lib->v[i].info;
}

/* ---- lookup ---- */

/* Levenshtein distance, two rows. */
static size_t scriptlib_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *prev = xcalloc(lb + 1, sizeof *prev), *cur = xcalloc(lb + 1, sizeof *cur);
    for (size_t j = 0; j <= lb; j++) prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            cur[j] = best;
        }
        size_t *t = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[lb];
    free(prev);
    free(cur);
    return d;
}

/* "unknown script 'spec'; nearest: a, b": every id of the name(s) nearest to spec's name. */
static void scriptlib_nearest(const scriptlib *lib, const char *spec, const char *name, buf *err)
{
    buf_printf(err, "unknown script '%s'", spec);
    if (!lib->n) return;
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < lib->n; i++) {
        size_t d = scriptlib_distance(name, lib->v[i].info.name);
        if (d < best) best = d;
    }
    buf_puts(err, "; nearest: ");
    int shown = 0;
    for (size_t i = 0; i < lib->n && shown < SCRIPTLIB_MAX_NEAREST; i++) {
        if (scriptlib_distance(name, lib->v[i].info.name) != best) continue;
        buf_printf(err, "%s%s", shown++ ? ", " : "", lib->v[i].info.id);
    }
}

/* The entry of `name` whose range [since, version] holds `version`; NULL if none. */
static const script_entry *scriptlib_covering(const scriptlib *lib, const char *name, const char *version)
{
    for (size_t i = 0; i < lib->n; i++) {
        const script_entry *e = &lib->v[i];
        if (!strcmp(e->info.name, name) && scriptlib_version_cmp(e->since, version) <= 0 &&
            scriptlib_version_cmp(version, e->info.version) <= 0)
            return e;
    }
    return NULL;
}

const script_info *scriptlib_find(const scriptlib *lib, const char *spec, buf *err)
{
    const char *at = strchr(spec, '@');
    char *name = at ? xmemdup(spec, (size_t)(at - spec)) : xstrdup(spec);
    const char *version = at ? at + 1 : "HEAD";
    const script_info *found = NULL;
    for (size_t i = 0; i < lib->n && !found; i++)
        if (!strcmp(lib->v[i].info.name, name) && !strcmp(lib->v[i].info.version, version))
            found = &lib->v[i].info;
    if (!found && version[0]) {
        const script_entry *e = scriptlib_covering(lib, name, version);
        if (e) found = &e->info;
    }
    if (!found && err) scriptlib_nearest(lib, spec, name, err);
    free(name);
    return found;
}

const script_info *scriptlib_resolve(const scriptlib *lib, const char *name, const char *version, buf *err)
{
    const script_entry *best = NULL;
    int known = 0;
    for (size_t i = 0; i < lib->n; i++) {
        const script_entry *e = &lib->v[i];
        if (strcmp(e->info.name, name)) continue;
        known = 1;
        if (scriptlib_version_cmp(e->since, version) > 0) continue;
        if (!best || scriptlib_version_cmp(e->info.version, best->info.version) > 0) best = e;
    }
    if (best) return &best->info;
    if (!err) return NULL;
    if (!known) {
        scriptlib_nearest(lib, name, name, err);
        return NULL;
    }
    buf_printf(err, "no version of script '%s' at or before %s; versions:", name, version);
    for (size_t i = 0; i < lib->n; i++)
        if (!strcmp(lib->v[i].info.name, name)) buf_printf(err, " %s", lib->v[i].info.version);
    return NULL;
}

/* ---- bodies ---- */

/* The body inside a library file's bytes: after the marker line (or the whole text when
 * there is none), minus one final newline. */
static void scriptlib_split_body(const char *p, size_t len, buf *body)
{
    size_t ml = strlen(SCRIPTLIB_MARKER);
    size_t start = 0;
    for (size_t i = 0; i + ml <= len; i++) {
        if ((i == 0 || p[i - 1] == '\n') && memcmp(p + i, SCRIPTLIB_MARKER, ml) == 0) {
            start = i + ml;
            break;
        }
        const char *nl = memchr(p + i, '\n', len - i);
        if (!nl) break;
        i = (size_t)(nl - p); /* the loop's i++ steps past the newline */
    }
    size_t end = len;
    if (start > 0 && end > start && p[end - 1] == '\n') end--;
    buf_reset(body);
    buf_append(body, p + start, end - start);
}

int script_file_body(const char *path, buf *body, buf *err)
{
    buf text;
    buf_init(&text);
    int rd = ll_read_file(path, 64u << 20, &text);
    if (rd != LL_READ_OK) {
        buf_printf(err, "cannot %s '%s': %s", rd == LL_READ_OPEN ? "open" : "read", path,
                   rd == LL_READ_NOT_FILE ? "not a regular file (a FIFO or a device)" : strerror(errno));
        buf_release(&text);
        return -1;
    }
    scriptlib_split_body(text.p ? text.p : "", text.len, body);
    buf_release(&text);
    return 0;
}

int scriptlib_body(const scriptlib *lib, const script_info *s, buf *body, buf *err)
{
    buf path;
    buf_init(&path);
    buf_printf(&path, "%s/%s", lib->dir, s->path);
    int rc = script_file_body(path.p, body, err);
    buf_release(&path);
    return rc;
}
