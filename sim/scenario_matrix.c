/* scenario_matrix.c — reading a matrix table (see scenario_matrix.h).
 *
 *   return {
 *     title = "...", about = [[...]],
 *     properties = { "mutual_exclusion", "resource_safety", ... },
 *     columns = { { id = "gc-pause", title = "holder GC pause > lease", short = "GC pause" }, ... },
 *     rows = {
 *       { id = "distlock", title = "SET NX PX + compare-and-delete",
 *         source = "the comparison table", says = [[...]],
 *         claims = { all = { mutual_exclusion = "holds" }, reenter = { reentrancy = "violated" },
 *                    failover = { mutual_exclusion = "unsaid" } },
 *         notes = { ["gc-pause"] = "..." },
 *         not_applicable = { failover = "why" } },
 *     },
 *   }
 *
 * Claims: `all` applies to every column, a column's own table overrides it property by
 * property, and "unsaid" takes a claim of `all` back for that column. The checks run inside
 * the reader's pcall (rd_fail unwinds), so everything allocated goes straight into the table,
 * which the caller frees whatever happens. */
#include "scenario_matrix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lua.h>

#include "scenario_reader.h"

enum { MAX_PROPS = 16, MAX_COLS = 64, MAX_ROWS = 256, SHORT_MAX = 9 };

static const char *const root_keys[] = { "title", "about", "properties", "columns", "rows" };
static const char *const column_keys[] = { "id", "title", "short", "exercised" };
static const char *const row_keys[] = { "id", "title", "source", "says", "claims", "notes", "not_applicable",
                                        "untouched", "unobservable" };

/* The root's keys: as rd_check_fields, but naming the table rather than "the scenario". */
static void check_root(reader *rd, int root)
{
    lua_State *L = rd->L;
    lua_pushnil(L);
    while (lua_next(L, root)) {
        lua_pop(L, 1);
        char text[SHOW_LEN + 4];
        rd_key_text(L, text);
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            size_t i = 0;
            while (i < LL_ARRAY_LEN(root_keys) && strcmp(k, root_keys[i])) i++;
            if (i < LL_ARRAY_LEN(root_keys)) continue;
            const char *near = rd_nearest(k, root_keys, LL_ARRAY_LEN(root_keys));
            char path[PATH_LEN];
            rd_path_key(path, "", k);
            if (near) rd_fail(rd, path, "unknown key '%s' in the matrix table; did you mean '%s'?", text, near);
            rd_fail(rd, path, "unknown key '%s' in the matrix table; valid keys: title, about, properties, columns, rows",
                    text);
        }
        rd_fail(rd, "", "the matrix table has a positional value %s; write its fields as name = value", text);
    }
    for (size_t i = 0; i < LL_ARRAY_LEN(root_keys); i++) {
        if (rd_get(L, root, root_keys[i]) == LUA_TNIL)
            rd_fail(rd, "", "the matrix table has no '%s' (it is required)", root_keys[i]);
        lua_pop(L, 1);
    }
}

/* Pushes the list at root[key] and returns its length (1..max). */
static int open_list(reader *rd, int root, const char *key, const char *what, int max)
{
    if (rd_get(rd->L, root, key) != LUA_TTABLE)
        rd_fail(rd, key, "%s must be a list of %s, not %s", key, what, rd_type_name(rd->L, -1));
    return rd_check_list(rd, lua_gettop(rd->L), key, what, 1, max);
}

static int index_of(char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s)) return i;
    return -1;
}

static void load_properties(reader *rd, matrix_table *t, int root)
{
    lua_State *L = rd->L;
    int n = open_list(rd, root, "properties", "property names", MAX_PROPS);
    int lt = lua_gettop(L);
    t->props = xcalloc((size_t)n, sizeof *t->props);
    t->prop_lines = xcalloc((size_t)n, sizeof *t->prop_lines);
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN];
        rd_path_index(path, "properties", i + 1);
        lua_rawgeti(L, lt, i + 1);
        const char *p = rd_to_string(rd, -1, path);
        if (index_of(t->props, t->nprops, p) >= 0) rd_fail(rd, path, "%s: '%s' is listed twice", path, p);
        t->props[t->nprops] = xstrdup(p);
        t->prop_lines[t->nprops++] = linemap_line(&rd->map, path);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static void load_columns(reader *rd, matrix_table *t, int root)
{
    lua_State *L = rd->L;
    int n = open_list(rd, root, "columns", "columns", MAX_COLS);
    int lt = lua_gettop(L);
    t->col_id = xcalloc((size_t)n, sizeof *t->col_id);
    t->col_title = xcalloc((size_t)n, sizeof *t->col_title);
    t->col_short = xcalloc((size_t)n, sizeof *t->col_short);
    t->col_exercised = xcalloc((size_t)n, sizeof *t->col_exercised);
    t->col_lines = xcalloc((size_t)n, sizeof *t->col_lines);
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN], idp[PATH_LEN];
        rd_path_index(path, "columns", i + 1);
        if (lua_rawgeti(L, lt, i + 1) != LUA_TTABLE)
            rd_fail(rd, path, "%s must be a table { id = ..., title = ..., short = ... }, not %s", path,
                    rd_type_name(L, -1));
        int ct = lua_gettop(L);
        rd_check_fields(rd, ct, path, column_keys, LL_ARRAY_LEN(column_keys));
        rd_path_key(idp, path, "id");
        if (rd_get(L, ct, "id") == LUA_TNIL) rd_fail(rd, path, "%s has no 'id' (it is required)", path);
        const char *id = rd_to_name(rd, -1, idp);
        if (index_of(t->col_id, t->ncols, id) >= 0) rd_fail(rd, idp, "%s: the column '%s' is given twice", idp, id);
        if (!strcmp(id, "all")) rd_fail(rd, idp, "%s: 'all' names every column in claims; call the column otherwise", idp);
        int c = t->ncols++; /* counted at once: the table frees what it holds if a check fails */
        t->col_id[c] = xstrdup(id);
        lua_pop(L, 1);
        t->col_title[c] = rd_opt_string(rd, ct, path, "title", 1);
        t->col_short[c] = rd_opt_string(rd, ct, path, "short", 0);
        if (!t->col_short[c]) t->col_short[c] = xstrdup(t->col_id[c]);
        if (ll_utf8_width(t->col_short[c]) > SHORT_MAX) {
            char sp[PATH_LEN];
            rd_path_key(sp, path, "short");
            rd_fail(rd, sp, "%s: at most %d characters (it heads a column of the terminal table)", sp, SHORT_MAX);
        }
        char ep[PATH_LEN];
        rd_path_key(ep, path, "exercised");
        t->col_lines[c] = linemap_line(&rd->map, path);
        if (rd_get(L, ct, "exercised") != LUA_TNIL) {
            if (lua_type(L, -1) != LUA_TTABLE)
                rd_fail(rd, ep, "%s must be a list of the ways the column's fault reaches the lock, such as "
                        "{ \"lock_lost\", \"message_cut\" }", ep);
            int el = lua_gettop(L);
            int k = rd_check_list(rd, el, ep, "names", 1, 16);
            t->col_exercised[c] = xcalloc((size_t)k + 1, sizeof **t->col_exercised);
            for (int j = 0; j < k; j++) {
                char jp[PATH_LEN];
                rd_path_index(jp, ep, j + 1);
                lua_rawgeti(L, el, j + 1);
                t->col_exercised[c][j] = xstrdup(rd_to_string(rd, -1, jp));
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* A table keyed by column ids (and `all` where allowed): checks the keys. */
static void check_column_keys(reader *rd, const matrix_table *t, int tt, const char *path, int allow_all)
{
    const char **valid = xcalloc((size_t)t->ncols + 1, sizeof *valid);
    int n = 0;
    if (allow_all) valid[n++] = "all";
    for (int c = 0; c < t->ncols; c++) valid[n++] = t->col_id[c];
    char names[1024];
    rd_join_names(names, sizeof names, valid, (size_t)n, 0);
    lua_State *L = rd->L;
    lua_pushnil(L);
    while (lua_next(L, tt)) {
        lua_pop(L, 1);
        char text[SHOW_LEN + 4], kp[PATH_LEN];
        rd_key_text(L, text);
        int ok = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -1);
            for (int i = 0; i < n && !ok; i++) ok = !strcmp(k, valid[i]);
            rd_path_key(kp, path, k);
        } else {
            snprintf(kp, sizeof kp, "%s", path);
        }
        if (ok) continue;
        free(valid); /* rd_fail unwinds */
        rd_fail(rd, kp, "%s: '%s' is not a column of the table (its columns: %s)", path, text, names);
    }
    free(valid);
}

static int claim_word(reader *rd, int idx, const char *path)
{
    static const char *const words[] = { "holds", "violated", "unsaid" };
    int w = rd_to_choice(rd, idx, path, words, 3);
    return w == 2 ? CLAIM_NONE : w;
}

/* claims[key] (key "all" or a column id) into the row's claim grid. */
static void load_claim_set(reader *rd, const matrix_table *t, matrix_row *r, int ct, const char *path, int col)
{
    lua_State *L = rd->L;
    lua_pushnil(L);
    while (lua_next(L, ct)) {
        char kp[PATH_LEN], text[SHOW_LEN + 4];
        lua_pushvalue(L, -2);
        rd_key_text(L, text);
        if (lua_type(L, -1) != LUA_TSTRING) rd_fail(rd, path, "%s: write each claim as property = \"holds\" or \"violated\"", path);
        rd_path_key(kp, path, lua_tostring(L, -1));
        int p = index_of(t->props, t->nprops, lua_tostring(L, -1));
        if (p < 0) rd_fail(rd, kp, "%s: '%s' is not one of the table's properties", path, text);
        lua_pop(L, 1);
        int v = claim_word(rd, -1, kp);
        for (int c = 0; c < t->ncols; c++)
            if (col < 0 || c == col) r->claim[c * t->nprops + p] = (signed char)v;
        lua_pop(L, 1);
    }
}

static void load_claims(reader *rd, const matrix_table *t, matrix_row *r, int rt, const char *rpath)
{
    lua_State *L = rd->L;
    char path[PATH_LEN];
    rd_path_key(path, rpath, "claims");
    int ct = rd_opt_table(rd, rt, rpath, "claims");
    if (!ct) return;
    check_column_keys(rd, t, ct, path, 1);
    for (int c = -1; c < t->ncols; c++) { /* `all` first, then each column over it */
        const char *key = c < 0 ? "all" : t->col_id[c];
        char kp[PATH_LEN];
        rd_path_key(kp, path, key);
        int type = rd_get(L, ct, key);
        if (type != LUA_TNIL) {
            if (type != LUA_TTABLE) rd_fail(rd, kp, "%s must be a table { property = \"holds\" | \"violated\" }", kp);
            load_claim_set(rd, t, r, lua_gettop(L), kp, c);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* notes / not_applicable: column id -> text, into per-column strings. */
static void load_texts(reader *rd, const matrix_table *t, int rt, const char *rpath, const char *key, char **out)
{
    lua_State *L = rd->L;
    char path[PATH_LEN];
    rd_path_key(path, rpath, key);
    int nt = rd_opt_table(rd, rt, rpath, key);
    if (!nt) return;
    check_column_keys(rd, t, nt, path, 0);
    for (int c = 0; c < t->ncols; c++) out[c] = rd_opt_string(rd, nt, path, t->col_id[c], 0);
    lua_pop(L, 1);
}

/* unobservable: property name -> why, into per-property strings. */
static void load_unobservable(reader *rd, const matrix_table *t, matrix_row *r, int rt, const char *rpath)
{
    lua_State *L = rd->L;
    char path[PATH_LEN];
    rd_path_key(path, rpath, "unobservable");
    int nt = rd_opt_table(rd, rt, rpath, "unobservable");
    if (!nt) return;
    lua_pushnil(L);
    while (lua_next(L, nt)) {
        lua_pop(L, 1);
        char text[SHOW_LEN + 4];
        rd_key_text(L, text);
        if (lua_type(L, -1) != LUA_TSTRING || index_of(t->props, t->nprops, lua_tostring(L, -1)) < 0)
            rd_fail(rd, path, "%s: '%s' is not one of the table's properties", path, text);
    }
    for (int p = 0; p < t->nprops; p++) r->unobservable[p] = rd_opt_string(rd, nt, path, t->props[p], 0);
    lua_pop(L, 1);
}

static void load_rows(reader *rd, matrix_table *t, int root)
{
    lua_State *L = rd->L;
    int n = open_list(rd, root, "rows", "rows", MAX_ROWS);
    int lt = lua_gettop(L);
    t->rows = xcalloc((size_t)n, sizeof *t->rows);
    for (int i = 0; i < n; i++) {
        char path[PATH_LEN], idp[PATH_LEN];
        rd_path_index(path, "rows", i + 1);
        if (lua_rawgeti(L, lt, i + 1) != LUA_TTABLE)
            rd_fail(rd, path, "%s must be a table { id = ..., title = ..., ... }, not %s", path, rd_type_name(L, -1));
        int rt = lua_gettop(L);
        matrix_row *r = &t->rows[t->nrows++];
        r->cell = xcalloc((size_t)t->ncols, sizeof *r->cell);
        r->na = xcalloc((size_t)t->ncols, sizeof *r->na);
        r->note = xcalloc((size_t)t->ncols, sizeof *r->note);
        r->untouched = xcalloc((size_t)t->ncols, sizeof *r->untouched);
        r->unobservable = xcalloc((size_t)t->nprops, sizeof *r->unobservable);
        r->claim = xmalloc((size_t)(t->ncols * t->nprops));
        memset(r->claim, CLAIM_NONE, (size_t)(t->ncols * t->nprops));
        r->line = linemap_line(&rd->map, path);
        rd_check_fields(rd, rt, path, row_keys, LL_ARRAY_LEN(row_keys));
        rd_path_key(idp, path, "id");
        if (rd_get(L, rt, "id") == LUA_TNIL) rd_fail(rd, path, "%s has no 'id' (it is required)", path);
        r->id = xstrdup(rd_to_name(rd, -1, idp));
        lua_pop(L, 1);
        for (int j = 0; j < t->nrows - 1; j++)
            if (!strcmp(t->rows[j].id, r->id)) rd_fail(rd, idp, "%s: the row '%s' is given twice", idp, r->id);
        r->title = rd_opt_string(rd, rt, path, "title", 1);
        r->source = rd_opt_string(rd, rt, path, "source", 0);
        r->says = rd_opt_string(rd, rt, path, "says", 0);
        load_claims(rd, t, r, rt, path);
        load_texts(rd, t, rt, path, "notes", r->note);
        load_texts(rd, t, rt, path, "not_applicable", r->na);
        load_texts(rd, t, rt, path, "untouched", r->untouched);
        load_unobservable(rd, t, r, rt, path);
        for (int c = 0; c < t->ncols; c++)
            if (r->na[c] && r->untouched[c]) {
                char up[PATH_LEN];
                rd_path_key(up, path, "untouched");
                rd_fail(rd, up, "%s: '%s' is not applicable to the row, so it runs nothing its fault could touch "
                        "(give it in one of the two)", up, t->col_id[c]);
            }
        int claimed = 0;
        for (int k = 0; k < t->ncols * t->nprops; k++) claimed |= r->claim[k] != CLAIM_NONE;
        if ((claimed || r->says) && !r->source)
            rd_fail(rd, path, "%s: claims and says need a source (whose words they are)", path);
        for (int c = 0; c < t->ncols; c++) {
            if (r->na[c]) continue;
            buf p;
            buf_init(&p);
            buf_printf(&p, "%s/%s/%s.lua", t->dir, r->id, t->col_id[c]);
            r->cell[c] = buf_steal(&p);
            if (!ll_is_file(r->cell[c]))
                rd_fail(rd, idp, "%s: no scenario '%s' for the column '%s' (write it, or give the column in the row's "
                        "not_applicable with the reason)", path, r->cell[c], t->col_id[c]);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* rd_validate hands the validator one userdata: the reader and the table go together. */
typedef struct matrix_loader {
    reader rd;
    matrix_table *t;
} matrix_loader;

static int table_validate(lua_State *L)
{
    matrix_loader *ld = lua_touserdata(L, 1);
    reader *rd = &ld->rd;
    matrix_table *t = ld->t;
    const int root = 2;
    check_root(rd, root);
    t->title = rd_opt_string(rd, root, "", "title", 1);
    t->about = rd_opt_string(rd, root, "", "about", 1);
    load_properties(rd, t, root);
    load_columns(rd, t, root);
    load_rows(rd, t, root);
    return 0;
}

matrix_table *matrix_table_load(const char *path, buf *err)
{
    buf text;
    buf_init(&text);
    int rc = ll_read_file(path, EVAL_MEM_CAP, &text);
    if (rc != LL_READ_OK || (text.len && strlen(text.p) != text.len)) {
        buf_reset(err);
        if (rc == LL_READ_NOT_FILE) buf_printf(err, "cannot read '%s': not a regular file (a FIFO or a device)", path);
        else if (rc == LL_READ_OPEN || rc == LL_READ_ERROR)
            buf_printf(err, "cannot %s '%s': %s", rc == LL_READ_OPEN ? "open" : "read", path, strerror(errno));
        else if (rc == LL_READ_TOO_BIG) buf_printf(err, "%s: the file is too large for a matrix table", path);
        else buf_printf(err, "%s:%d: the file contains a NUL byte", path, rd_line_of(text.p, strlen(text.p)));
        buf_release(&text);
        return NULL;
    }
    matrix_loader ld;
    ld.t = xcalloc(1, sizeof *ld.t);
    ld.t->path = xstrdup(path);
    const char *slash = strrchr(path, '/');
    ld.t->dir = slash ? xmemdup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
    ld.t->shown_path = xstrdup(path);
    ld.t->shown_dir = xstrdup(ld.t->dir);
    int ok = rd_open(&ld.rd, path) == 0 && rd_evaluate(&ld.rd, text.p ? text.p : "", text.len) == 0 &&
             rd_validate(&ld.rd, table_validate, &ld) == 0;
    if (!ok) {
        buf_reset(err);
        buf_append(err, ld.rd.err.p ? ld.rd.err.p : "", ld.rd.err.len);
        matrix_table_free(ld.t);
        ld.t = NULL;
    }
    rd_close(&ld.rd);
    buf_release(&text);
    return ld.t;
}

void matrix_table_free(matrix_table *t)
{
    if (!t) return;
    for (int i = 0; i < t->nprops; i++) free(t->props[i]);
    free(t->props);
    free(t->prop_lines);
    for (int c = 0; c < t->ncols; c++) {
        free(t->col_id[c]);
        free(t->col_title[c]);
        free(t->col_short[c]);
    }
    free(t->col_id);
    free(t->col_title);
    free(t->col_short);
    for (int c = 0; c < t->ncols && t->col_exercised; c++) {
        for (char **e = t->col_exercised[c]; e && *e; e++) free(*e);
        free(t->col_exercised[c]);
    }
    free(t->col_exercised);
    free(t->col_lines);
    for (int i = 0; i < t->nrows; i++) {
        matrix_row *r = &t->rows[i];
        for (int c = 0; c < t->ncols; c++) {
            if (r->cell) free(r->cell[c]);
            if (r->na) free(r->na[c]);
            if (r->note) free(r->note[c]);
            if (r->untouched) free(r->untouched[c]);
        }
        for (int p = 0; p < t->nprops && r->unobservable; p++) free(r->unobservable[p]);
        free(r->untouched);
        free(r->unobservable);
        free(r->cell);
        free(r->na);
        free(r->note);
        free(r->claim);
        free(r->id);
        free(r->title);
        free(r->source);
        free(r->says);
    }
    free(t->rows);
    free(t->path);
    free(t->dir);
    free(t->shown_path);
    free(t->shown_dir);
    free(t->title);
    free(t->about);
    free(t);
}

int matrix_claim(const matrix_table *t, const matrix_row *r, int c, int p)
{
    return r->claim[c * t->nprops + p];
}
