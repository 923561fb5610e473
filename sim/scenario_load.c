/* scenario_load.c — loads a scenario file into plain data (see scenario.h): the schema.
 * (scenario.c holds what the engine asks of a loaded scenario.)
 *
 * The loader is five files. scenario_reader.c evaluates the file in a sandbox and holds the
 * typed readers that fail with "FILE:LINE: ..."; scenario_lines.c finds the line of every
 * field; this file reads the fields of the returned table in a fixed order — the top-level
 * keys, the protocol and script version, nodes and per-node settings, the network, clients,
 * links (scenario_nodes.c), expect and options — and scenario_faults.c reads the faults and
 * the explore table.
 * scenario_reader.c's essay tells how the three passes over one file fit together.
 *
 * Validation runs as loader_validate under the reader's pcall: a problem unwinds past every
 * C frame, so nothing malloc'd may live only in a C local across a check — everything is
 * attached to the scenario at once, and scenario_load_string frees a partial scenario. The
 * order of the reads is the order of the checks, so it decides which problem of a file with
 * several is reported (tests/test_scenario.c pins many of them). */
#include "kinds.h"
#include "scenario_int.h"
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

#include <lua.h>

/* ------------------------------------------------------------------------------------ */
/* expect and options                                                                     */

/* property_names: history.h, the one list of the properties' names */

static void load_expect(loader *ld, int root)
{
    static const char *const verdicts[] = { "holds", "violated" };
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    int t = rd_opt_table(&ld->rd, root, "", "expect");
    if (!t) return;
    rd_check_keys(&ld->rd, t, "expect", "property", "properties", property_names, LL_ARRAY_LEN(property_names), 1);
    s->expects = xcalloc(LL_ARRAY_LEN(property_names), sizeof *s->expects);
    for (size_t i = 0; i < LL_ARRAY_LEN(property_names); i++) {
        char path[PATH_LEN];
        rd_path_key(path, "expect", property_names[i]);
        if (rd_get(L, t, property_names[i]) != LUA_TNIL) {
            expect_cfg *e = &s->expects[s->nexpects++];
            e->property = xstrdup(property_names[i]);
            e->line = linemap_line(&ld->rd.map, path);
            e->violated = rd_to_choice(&ld->rd, -1, path, verdicts, 2);
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
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    int t = rd_opt_table(&ld->rd, root, "", "options");
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
            rd_key_text(L, text);
            if (lua_isinteger(L, -1)) rd_path_index(kp, "options", (long long)lua_tointeger(L, -1));
            else snprintf(kp, sizeof kp, "options");
            int line = linemap_line(&ld->rd.map, kp);
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
        rd_fail(&ld->rd, bad_path, "options has a positional value %s; write options as name = value", bad);
    if (s->noptions > 1) qsort(s->options, (size_t)s->noptions, sizeof *s->options, option_cmp);
    for (int i = 0; i < s->noptions; i++) {
        option_cfg *o = &s->options[i];
        char path[PATH_LEN];
        rd_path_key(path, "options", o->key);
        o->line = linemap_line(&ld->rd.map, path);
        switch (rd_get(L, t, o->key)) {
        case LUA_TSTRING:
            o->type = OPT_STRING;
            o->s = xstrdup(rd_to_string(&ld->rd, -1, path));
            break;
        case LUA_TNUMBER:
            o->type = OPT_NUMBER;
            o->num = lua_tonumber(L, -1);
            if (!isfinite(o->num)) rd_fail(&ld->rd, path, "%s must be a finite number", path);
            break;
        case LUA_TBOOLEAN:
            o->type = OPT_BOOL;
            o->b = lua_toboolean(L, -1);
            break;
        default:
            rd_fail(&ld->rd, path, "%s must be a string, a number or a boolean, not %s", path, rd_type_name(L, -1));
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
    s->protocol = rd_opt_string(&ld->rd, root, "", "protocol", 1);
    char beside[4096]; /* a model in the scenario's folder comes first (scriptlib.h) */
    int found = ll_model_beside(ld->rd.file, s->protocol, beside, sizeof beside);
    if (found < 0)
        rd_fail(&ld->rd, "protocol", "protocol: no client model file '%s' (a path is read from the scenario's folder)", beside);
    if (found > 0) {
        free(s->protocol);
        s->protocol = xstrdup(beside);
        return;
    }
    const char *p = s->protocol;
    for (size_t i = 0; p[i]; i++)
        if (!(isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '-'))
            rd_fail(&ld->rd, "protocol", "protocol: '%s' is not a protocol name (letters, digits, '_' and '-')", p);
    /* workload.lua sits beside the models but is the loop that drives one (acquire, work,
     * release); run as a protocol it fails only once the world is built, far from this line */
    if (!strcmp(p, "workload"))
        rd_fail(&ld->rd, "protocol", "protocol: 'workload' is the workload loop every model runs under, not a "
                "protocol; name a model such as distlock, redisson or redlock");
    char dir[4096], path[4200];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/lua/clients", ll_data_dir());
    /* without a lua/clients there is nothing to check against; running will say so */
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return;
    snprintf(path, sizeof path, "%s/%s.lua", dir, p);
    if (ll_is_file(path)) return;
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
    if (n > 1) qsort(names, n, sizeof *names, name_cmp);
    const char *near = rd_nearest(p, (const char *const *)names, n);
    char msg[1024], list[900];
    rd_join_names(list, sizeof list, (const char *const *)names, n, 0);
    if (near) snprintf(msg, sizeof msg, "; did you mean '%s'?", near);
    else snprintf(msg, sizeof msg, " (there are: %s)", list);
    for (size_t i = 0; i < n; i++) free(names[i]);
    rd_fail(&ld->rd, "protocol", "protocol: no client model lua/clients/%s.lua%s", p, msg);
}

/* The kind of server the nodes run (`server`, default "redis") and its settings
 * (`server_options`: each option the kind declares, a duration or a whole number). */
static void load_server(loader *ld, int root)
{
    lua_State *L = ld->rd.L;
    scenario *s = ld->s;
    s->server = rd_opt_string(&ld->rd, root, "", "server", 0);
    if (!s->server) s->server = xstrdup("redis");
    const server_kind *k = server_kind_find(s->server);
    if (!k) {
        char names[256] = "", shown[SHOW_LEN + 4];
        for (int i = 0; server_kind_at(i); i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     server_kind_at(i)->name);
        rd_fail(&ld->rd, "server", "server: no kind of server '%s' (known: %s)",
                rd_show(shown, s->server, strlen(s->server)), names);
    }
    int n = server_kind_noptions(k);
    s->server_options = xcalloc((size_t)n + 1, sizeof *s->server_options);
    const char *names[64];
    for (int i = 0; i < n && i < 64; i++) {
        names[i] = k->options[i].name;
        s->server_options[i] = k->options[i].dflt;
    }
    int t = rd_opt_table(&ld->rd, root, "", "server_options");
    if (!t) return;
    if (n == 0) rd_fail(&ld->rd, "server_options", "server_options: the %s server has no options", k->name);
    rd_check_fields(&ld->rd, t, "server_options", names, (size_t)(n < 64 ? n : 64));
    for (int i = 0; i < n && i < 64; i++) {
        const kind_option *o = &k->options[i];
        if (o->duration) {
            int64_t us = rd_opt_duration(&ld->rd, t, "server_options", o->name, INT64_MIN, 0);
            if (us == INT64_MIN) continue;
            if (us / 1000 < o->lo || us / 1000 > o->hi)
                rd_fail(&ld->rd, "server_options", "server_options.%s must be from %lld to %lld ms (%s)", o->name,
                        (long long)o->lo, (long long)o->hi, o->help);
            s->server_options[i] = us / 1000;
        } else {
            s->server_options[i] = rd_opt_integer(&ld->rd, t, "server_options", o->name, o->dflt, o->lo, o->hi);
        }
    }
    lua_pop(L, 1);
}

/* ------------------------------------------------------------------------------------ */
/* The whole table                                                                        */

static const char *const root_keys[] = {
    "name", "about", "protocol", "server", "server_options", "mode", "nodes", "replicas", "persistence", "restart_delay",
    "clock", "per_node", "lease", "wait", "timeout", "network", "links", "replication",
    "clients", "faults", "duration", "seed", "fencing", "down", "scripts", "lock", "expect", "options",
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
                   rd_show(shown, p, strlen(p)));
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
                   "the scripts were read at %s)", rd_show(shown, v, strlen(v)), lo ? lo : "?", hi ? hi : "?",
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
    s->scripts = rd_opt_string(&ld->rd, root, "", "scripts", 0);
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
    rd_fail(&ld->rd, "scripts", "scripts: %s", msg);
}

static int loader_validate(lua_State *L)
{
    loader *ld = lua_touserdata(L, 1);
    scenario *s = ld->s;
    const int root = 2;
    static const char *const modes[] = { "single", "redlock" };

    rd_check_fields(&ld->rd, root, "", root_keys, LL_ARRAY_LEN(root_keys));
    s->name = rd_opt_string(&ld->rd, root, "", "name", 1);
    /* the title heads traces, plots and reports, each on one line */
    for (const char *c = s->name; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            rd_fail(&ld->rd, "name", "name must be one line of text (it has a control character such as a newline)");
    /* and text: it goes into SVG and HTML, which must be well-formed (audit N8) */
    if (!ll_utf8_valid(s->name, strlen(s->name)))
        rd_fail(&ld->rd, "name", "name must be UTF-8 text (it has a byte sequence that is not UTF-8)");
    s->about = rd_opt_string(&ld->rd, root, "", "about", 1);
    if (!ll_utf8_valid(s->about, strlen(s->about)))
        rd_fail(&ld->rd, "about", "about must be UTF-8 text (it has a byte sequence that is not UTF-8)");
    load_protocol(ld, root);
    load_server(ld, root);
    int mode = rd_get(L, root, "mode") == LUA_TNIL ? 0 : rd_to_choice(&ld->rd, -1, "mode", modes, 2);
    lua_pop(L, 1);
    s->mode = xstrdup(modes[mode]);
    scenario_load_nodes(ld, root);
    if (!strcmp(s->mode, "single") && s->nmasters != 1)
        rd_fail(&ld->rd, "nodes", "nodes: mode \"single\" uses one master, but %d are given; use mode = \"redlock\"",
                s->nmasters);
    scenario_load_per_node(ld, root);
    s->lease_us = rd_opt_duration(&ld->rd, root, "", "lease", 10000000, D_NONE | D_POSITIVE);
    s->wait_us = rd_opt_duration(&ld->rd, root, "", "wait", 30000000, 0);
    s->timeout_us = rd_opt_duration(&ld->rd, root, "", "timeout", 3000000, D_POSITIVE);
    scenario_load_network(ld, root);
    scenario_load_clients(ld, root);
    scenario_load_links(ld, root);
    if (rd_get(L, root, "duration") == LUA_TNIL)
        rd_fail(&ld->rd, "", "the scenario has no 'duration' (it is required)");
    s->duration_us = rd_to_duration(&ld->rd, -1, "duration", D_POSITIVE);
    lua_pop(L, 1);
    scenario_load_faults(ld, root);
    s->seed = (uint64_t)rd_opt_integer(&ld->rd, root, "", "seed", 1, 0, LLONG_MAX);
    if (rd_get(L, root, "fencing") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            rd_fail(&ld->rd, "fencing", "fencing must be true or false, not %s", rd_type_name(L, -1));
        s->fencing = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    static const char *const downs[] = { "silent", "refuses" };
    if (rd_get(L, root, "down") != LUA_TNIL) s->down_refuses = rd_to_choice(&ld->rd, -1, "down", downs, 2);
    lua_pop(L, 1);
    load_scripts(ld, root);
    s->lock = rd_opt_string(&ld->rd, root, "", "lock", 0);
    if (!s->lock) s->lock = xstrdup("lock");
    else if (!*s->lock) rd_fail(&ld->rd, "lock", "lock must not be empty");
    load_expect(ld, root);
    load_options(ld, root);
    scenario_load_explore(ld, root);
    return 0;
}

scenario *scenario_load_string(const char *name, const char *text, buf *err)
{
    loader ld = { .s = NULL };
    if (rd_open(&ld.rd, name ? name : "?") == 0 && rd_evaluate(&ld.rd, text, strlen(text)) == 0) {
        ld.s = xcalloc(1, sizeof *ld.s);
        ld.s->path = xstrdup(ld.rd.file);
        ld.s->explore.line = 0;
        if (rd_validate(&ld.rd, loader_validate, &ld) != 0) {
            scenario_free(ld.s);
            ld.s = NULL;
        }
    }
    free(ld.actors);
    free(ld.seen_stamp);
    free(ld.seen_group);
    if (err && !ld.s) {
        buf_reset(err);
        buf_append(err, ld.rd.err.p ? ld.rd.err.p : "", ld.rd.err.len);
    }
    rd_close(&ld.rd);
    return ld.s;
}

scenario *scenario_load(const char *path, buf *err)
{
    buf text;
    buf_init(&text);
    int rc = ll_read_file(path, EVAL_MEM_CAP, &text);
    if (rc == LL_READ_OPEN || rc == LL_READ_ERROR || rc == LL_READ_NOT_FILE) { /* a directory: EISDIR */
        if (err) {
            buf_reset(err);
            if (rc == LL_READ_NOT_FILE) buf_printf(err, "cannot read '%s': not a regular file (a FIFO or a device)", path);
            else buf_printf(err, "cannot %s '%s': %s", rc == LL_READ_OPEN ? "open" : "read", path, strerror(errno));
        }
        buf_release(&text);
        return NULL;
    }
    scenario *s = NULL;
    if (rc == LL_READ_TOO_BIG || (text.len && strlen(text.p) != text.len)) {
        if (err) {
            buf_reset(err);
            if (rc == LL_READ_TOO_BIG) buf_printf(err, "%s: the file is too large for a scenario (over %d MiB)", path, EVAL_MEM_CAP >> 20);
            else buf_printf(err, "%s:%d: the file contains a NUL byte", path, rd_line_of(text.p, strlen(text.p)));
        }
    } else {
        s = scenario_load_string(path, text.p ? text.p : "", err);
    }
    buf_release(&text);
    return s;
}
