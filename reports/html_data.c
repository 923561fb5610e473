/* html_data.c — the run as JSON, for the player page: everything the page shows at any
 * instant is derived from this object by html_player.js, and nothing else is simulated
 * there. The object:
 *
 *   name, about, protocol, scripts_version, seed (a string: 64 bits), mode, file, lock,
 *   epoch (the local clocks' zero, ms)
 *   kinds     the event kinds' names, indexed by the events' kind numbers
 *   losses    why a message was lost (history.h's hist_loss), indexed by a drop's code
 *   actors    [{name, node: 0|1, role: "client"|"master"|"replica", master: name|null}]
 *   clocks    per actor, its clock as segments [base_true µs, base_ms, drift], rebuilt from
 *             the history (history_clock_walk: its clock at the start, its drift and
 *             clock_jump faults) exactly as the engine reads a clock:
 *             local = floor(base_ms + (t - base_true)(1 + drift)/1000)
 *   events    [t µs, kind, actor, local ms, peer, a, b, level, text, reply, line, deadline], where
 *             level is the least detailed trace that tells it (0 brief, 1 normal, 2 verbose,
 *             3 never) and line is its narrated line (trace.c); a keyspace event's reply is
 *             its keys as [key, type, deadline ms or -1, value] (the event's units, as the
 *             node's store listed them); deadline is a key_set's (-1);
 *             an event with a typed payload (history.h) goes on with [fault kind name, fault
 *             id, lost message kind name, code, label] (null or -1 where it has none): what
 *             the page reads of faults, lost messages, which call sent a pub/sub message (a
 *             call's label: the channel it published on) and which script a request ran (a
 *             request's, exec's or reply's label: its id), and a call's command name after
 *             them: never their text
 *   total     how many events the run had (events stops at HTML_MAX_EVENTS)
 *   verdicts  [{name, verdict, at µs|null, evidence, expect: "violated"|"holds"|null, met}]
 *   timeline  the tl_model: rows [{name, node, actor}], spans [row, kind, from, to, owner],
 *             marks [row, kind, t, value], faults [row, from, to, text], end
 *   scripts   {id: {source, what, keys, argv, returns, body}} for every library script a
 *             node ran (the text it ran, from lua/redis/)
 *
 * Strings are written by html_json_str: valid UTF-8 whatever the bytes, and safe inside a
 * <script> element. The same history gives the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "html.h"
#include "scriptlib.h"
#include "timeline.h"
#include "trace.h"

#define EPOCH_MS HISTORY_EPOCH_MS
#define HTML_MAX_EVENTS 50000

/* The length of the valid UTF-8 sequence at p (at most n bytes), 0 if none starts there. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!len || len > n) return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    unsigned cp = len == 1 ? p[0] : len == 2 ? p[0] & 0x1fu : len == 3 ? p[0] & 0x0fu : p[0] & 0x07u;
    for (size_t i = 1; i < len; i++) cp = (cp << 6) | (p[i] & 0x3fu);
    static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0; /* overlong, surrogate */
    return len;
}

void html_json_str(buf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    buf_putc(out, '"');
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t len = utf8_len(p + i, n - i);
        if (!len) {
            buf_printf(out, "\\\\x%02x", c);
            i++;
            continue;
        }
        if (len > 1) {
            buf_append(out, p + i, len);
            i += len;
            continue;
        }
        switch (c) {
        case '"': buf_puts(out, "\\\""); break;
        case '\\': buf_puts(out, "\\\\"); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\t': buf_puts(out, "\\t"); break;
        case '<': case '>': case '&': buf_printf(out, "\\u%04x", c); break;
        default:
            if (c < 0x20 || c == 0x7f) buf_printf(out, "\\u%04x", c);
            else buf_putc(out, (char)c);
        }
        i++;
    }
    buf_putc(out, '"');
}

static void jstr(buf *out, const char *s)
{
    if (s) html_json_str(out, s, strlen(s));
    else buf_puts(out, "null");
}

/* `key` as written (",\"what\":"), then the string value */
static void jfield(buf *out, const char *key, const char *s)
{
    buf_puts(out, key);
    jstr(out, s);
}

/* A keyspace event's units (the node's data as records, from its store), as an array of
 * [name, type, deadline ms or -1, value]. */
static void keyspace_json(buf *out, const hist_event *e)
{
    buf_putc(out, '[');
    for (size_t u = 0; u < e->nunits; u++) {
        const hist_unitrec *r = &e->units[u];
        buf_puts(out, u ? ",[" : "[");
        html_json_str(out, r->name, r->nlen);
        buf_putc(out, ',');
        jstr(out, r->type);
        buf_printf(out, ",%lld,", (long long)r->deadline_ms);
        html_json_str(out, r->value, r->vlen);
        buf_putc(out, ']');
    }
    buf_putc(out, ']');
}

static void events_json(const history *h, const char *lockkey, buf *out)
{
    unsigned char *levels = trace_levels(h, lockkey);
    size_t n = history_len(h);
    buf line;
    buf_init(&line);
    buf_puts(out, "\"events\":[");
    for (size_t i = 0; i < n && i < HTML_MAX_EVENTS; i++) {
        const hist_event *e = history_at(h, i);
        int level = levels[i];
        buf_printf(out, "%s\n[%lld,%d,%d,%lld,%d,%lld,%lld,%d,", i ? "," : "", (long long)e->t_us, (int)e->kind, e->actor,
                   (long long)e->local_ms, e->peer, (long long)e->a, (long long)e->b, level);
        jstr(out, e->text);
        buf_putc(out, ',');
        if (e->kind == H_KEYSPACE) keyspace_json(out, e);
        else jstr(out, e->reply);
        buf_putc(out, ',');
        if (level < 3 && e->kind != H_CALL) {
            buf_reset(&line);
            trace_line(h, e, &line);
            while (line.len && line.p[line.len - 1] == '\n') line.p[--line.len] = '\0';
            jstr(out, line.p);
        } else {
            buf_puts(out, "null");
        }
        buf_printf(out, ",%lld", (long long)e->deadline_ms);
        if (e->fault >= 0 || e->msg >= 0 || e->code >= 0 || e->label || e->cmd) {
            buf_putc(out, ',');
            jstr(out, e->fault >= 0 ? fault_kind_name(e->fault) : NULL);
            buf_printf(out, ",%d,", e->fault_id);
            jstr(out, e->msg >= 0 ? hist_msg_name(e->msg) : NULL);
            buf_printf(out, ",%d,", e->code);
            jstr(out, e->label);
            if (e->cmd) {
                buf_putc(out, ',');
                jstr(out, e->cmd);
            }
        }
        buf_putc(out, ']');
    }
    buf_printf(out, "],\n\"total\":%zu", n);
    buf_release(&line);
    free(levels);
}

/* An actor's role in the scenario: client, master or replica (and its master). */
static void role_of(const scenario *sc, const char *name, const char **role, const char **master)
{
    int ni = scenario_node_index(sc, name);
    *role = "client";
    *master = NULL;
    if (ni >= 0) {
        const node_cfg *nc = &sc->nodes[ni];
        *role = nc->master < 0 ? "master" : "replica";
        if (nc->master >= 0) *master = sc->nodes[nc->master].name;
    }
}

static void put_segment(buf *out, const lclock *c, int first)
{
    buf_printf(out, "%s[%lld,%.17g,%.17g]", first ? "" : ",", (long long)c->base_true_us, c->base_ms, c->drift);
}

static void clock_segment(void *ud, const lclock *c, int first)
{
    put_segment(ud, c, first);
}

/* Each actor, and its clock as the history tells it (history_clock_walk: its clock at the
 * start, then after each instant of drift changes and jumps, in the order they happened). */
static void actors_json(const history *h, const scenario *sc, buf *out)
{
    size_t na = history_actors(h);
    buf clocks;
    buf_init(&clocks);
    buf_puts(out, "\"actors\":[");
    buf_puts(&clocks, "\"clocks\":[");
    for (size_t a = 0; a < na; a++) {
        const char *name = history_actor_name(h, (int)a), *role, *master;
        role_of(sc, name, &role, &master);
        buf_printf(out, "%s\n{\"name\":", a ? "," : "");
        jstr(out, name);
        buf_printf(out, ",\"node\":%d,\"role\":\"%s\",\"master\":", history_actor_is_node(h, (int)a), role);
        jstr(out, master);
        buf_putc(out, '}');
        buf_puts(&clocks, a ? ",\n[" : "\n[");
        history_clock_walk(h, (int)a, INT64_MAX, clock_segment, &clocks);
        buf_putc(&clocks, ']');
    }
    buf_puts(out, "],\n");
    buf_append(out, clocks.p, clocks.len);
    buf_puts(out, "]");
    buf_release(&clocks);
}

static void verdicts_json(const scenario *sc, const check_result *cr, buf *out)
{
    buf_puts(out, "\"verdicts\":[");
    int first = 1;
    for (int p = 0; p < PROP_COUNT; p++) {
        const prop_result *r = &cr->p[p];
        const expect_cfg *ex = check_expectation(sc, (property)p);
        if (r->v == VERDICT_NOT_JUDGED && !ex) continue;
        buf_printf(out, "%s\n{\"name\":\"%s\",\"verdict\":\"%s\",\"at\":", first ? "" : ",", property_name((property)p),
                   r->v == VERDICT_HOLDS ? "holds" : r->v == VERDICT_VIOLATED ? "violated" : "not judged");
        first = 0;
        if (r->v == VERDICT_VIOLATED) buf_printf(out, "%lld", (long long)r->at_us);
        else buf_puts(out, "null");
        jfield(out, ",\"evidence\":", r->evidence);
        jfield(out, ",\"expect\":", ex ? (ex->violated ? "violated" : "holds") : NULL);
        int met = ex && (r->v == VERDICT_VIOLATED) == ex->violated && r->v != VERDICT_NOT_JUDGED;
        buf_printf(out, ",\"met\":%s}", met ? "true" : "false");
    }
    buf_puts(out, "]");
}

static void timeline_json(const history *h, const scenario *sc, buf *out)
{
    tl_model m;
    tl_build(h, sc, &m);
    buf_puts(out, "\"timeline\":{\"rows\":[");
    for (int r = 0; r < m.nrows; r++) {
        buf_puts(out, r ? ",{\"name\":" : "{\"name\":");
        jstr(out, m.rows[r].name);
        buf_printf(out, ",\"node\":%d,\"actor\":%d}", m.rows[r].is_node, m.rows[r].actor);
    }
    buf_puts(out, "],\n\"spans\":[");
    for (size_t i = 0; i < m.nspans; i++) {
        const tl_span *s = &m.spans[i];
        buf_printf(out, "%s[%d,%d,%lld,%lld,%d]", i ? "," : "", s->row, (int)s->kind, (long long)s->from_us, (long long)s->to_us,
                   s->owner);
    }
    buf_puts(out, "],\n\"marks\":[");
    for (size_t i = 0; i < m.nmarks; i++) {
        const tl_mark *k = &m.marks[i];
        buf_printf(out, "%s[%d,%d,%lld,%lld]", i ? "," : "", k->row, (int)k->kind, (long long)k->t_us, (long long)k->value);
    }
    buf_puts(out, "],\n\"faults\":[");
    for (size_t i = 0; i < m.nfaults; i++) {
        const tl_fault *f = &m.faults[i];
        buf_printf(out, "%s[%d,%lld,%lld,", i ? "," : "", f->row, (long long)f->from_us, (long long)f->to_us);
        jstr(out, f->text);
        buf_putc(out, ']');
    }
    buf_printf(out, "],\"end\":%lld}", (long long)m.end_us);
    tl_release(&m);
}

/* Every library script a node ran, with its header's description and its text. A script
 * the library does not hold (a user's own file) is left out: the page shows its calls. */
static void scripts_json(const history *h, buf *out)
{
    buf_puts(out, "\"scripts\":{");
    buf err, body;
    buf_init(&err);
    buf_init(&body);
    scriptlib *lib = scriptlib_load(NULL, &err);
    char **seen = NULL;
    size_t nseen = 0, nout = 0;
    for (size_t i = 0; lib && i < history_len(h) && i < HTML_MAX_EVENTS; i++) {
        const hist_event *e = history_at(h, i);
        if (e->kind != H_EXEC || !e->label) continue; /* the script it ran, a typed field */
        size_t len = strlen(e->label);
        if (!memchr(e->label, '@', len) || len > 200) continue; /* a library script's id */
        char id[256];
        memcpy(id, e->label, len + 1);
        int dup = 0;
        for (size_t k = 0; k < nseen && !dup; k++) dup = !strcmp(seen[k], id);
        if (dup) continue;
        seen = xrealloc(seen, (nseen + 1) * sizeof *seen);
        seen[nseen++] = xstrdup(id);
        buf_reset(&err);
        buf_reset(&body);
        const script_info *si = scriptlib_find(lib, id, &err);
        if (!si || scriptlib_body(lib, si, &body, &err) != 0) continue;
        buf_puts(out, nout++ ? ",\n" : "\n");
        jstr(out, id);
        jfield(out, ":{\"source\":", si->source);
        jfield(out, ",\"what\":", si->what);
        jfield(out, ",\"keys\":", si->keys);
        jfield(out, ",\"argv\":", si->argv);
        jfield(out, ",\"returns\":", si->returns);
        buf_puts(out, ",\"body\":");
        html_json_str(out, body.p ? body.p : "", body.len);
        buf_putc(out, '}');
    }
    buf_puts(out, "}");
    for (size_t k = 0; k < nseen; k++) free(seen[k]);
    free(seen);
    scriptlib_free(lib);
    buf_release(&err);
    buf_release(&body);
}

void html_run_json(const history *h, const scenario *sc, const check_result *cr, uint64_t seed, buf *out)
{
    const char *base = sc->path ? strrchr(sc->path, '/') : NULL;
    jfield(out, "{\"name\":", sc->name);
    jfield(out, ",\n\"about\":", sc->about);
    jfield(out, ",\n\"protocol\":", sc->protocol);
    jfield(out, ",\"scripts_version\":", sc->scripts ? sc->scripts : "HEAD");
    buf_printf(out, ",\"seed\":\"%llu\"", (unsigned long long)seed);
    jfield(out, ",\"mode\":", sc->mode ? sc->mode : "single");
    jfield(out, ",\"file\":", base ? base + 1 : sc->path ? sc->path : "");
    jfield(out, ",\"lock\":", sc->lock ? sc->lock : "lock");
    buf_printf(out, ",\"epoch\":%lld,\n\"kinds\":[", EPOCH_MS);
    for (int k = 0; k < H_KIND_COUNT; k++) {
        if (k) buf_putc(out, ',');
        jstr(out, hist_kind_name((hist_kind)k));
    }
    buf_puts(out, "],\n\"losses\":[");
    for (int l = 0; l < HL_COUNT; l++) {
        if (l) buf_putc(out, ',');
        jstr(out, hist_loss_name(l));
    }
    buf_puts(out, "],\n");
    actors_json(h, sc, out);
    buf_puts(out, ",\n");
    events_json(h, sc->lock ? sc->lock : "lock", out);
    buf_puts(out, ",\n");
    verdicts_json(sc, cr, out);
    buf_puts(out, ",\n");
    timeline_json(h, sc, out);
    buf_puts(out, ",\n");
    scripts_json(h, out);
    buf_puts(out, "}\n");
}
