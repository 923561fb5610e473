/* history.c — see history.h. */
#include "history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct actor {
    char *name;
    int is_node;
    int64_t offset_ms; /* its clock at the start */
    double drift;
} actor;

struct history {
    hist_event *ev;
    size_t n, cap;
    actor *actors;
    size_t nactors, capactors;
};

static const char *const kind_names[H_KIND_COUNT] = {
    [H_START] = "start", [H_REQUEST] = "request", [H_EXEC] = "exec", [H_CALL] = "call",
    [H_REPLY] = "reply", [H_TIMEOUT] = "timeout", [H_DROP] = "drop", [H_PUBLISH] = "publish",
    [H_ACQUIRE] = "acquire", [H_ACQUIRED] = "acquired", [H_ACQUIRE_FAILED] = "acquire_failed",
    [H_RELEASE] = "release", [H_RELEASED] = "released", [H_CS_ENTER] = "cs_enter",
    [H_CS_EXIT] = "cs_exit", [H_WRITE] = "write", [H_KEY_SET] = "key_set",
    [H_KEY_DELETED] = "key_deleted", [H_KEY_EXPIRED] = "key_expired", [H_FAULT] = "fault",
    [H_FAULT_END] = "fault_end", [H_NODE_DOWN] = "node_down", [H_NODE_UP] = "node_up",
    [H_PROMOTED] = "promoted", [H_LOG] = "log", [H_ERROR] = "error", [H_END] = "end", [H_DEMOTED] = "demoted",
    [H_KEYSPACE] = "keyspace", [H_LOCK_UNIT] = "lock_unit",
};

#define FAULT_NAME_(k, n, p, w, r) [FAULT_##k] = #n,
const char *const fault_kind_names[FAULT_KIND_COUNT] = { FAULT_KINDS(FAULT_NAME_) };
#undef FAULT_NAME_
/* The typed fields of a fault event, per kind (history.h's rows). */
#define FAULT_FIELDS_(k, n, p, w, r) [FAULT_##k] = { p, w, r },
static const struct { const char *param; int written; const char *rate; } fault_fields[FAULT_KIND_COUNT] = {
    FAULT_KINDS(FAULT_FIELDS_)
};
#undef FAULT_FIELDS_
const char *const property_names[PROP_COUNT] = {
    [PROP_MUTUAL_EXCLUSION] = "mutual_exclusion", [PROP_RESOURCE_SAFETY] = "resource_safety",
    [PROP_RELEASE_SAFETY] = "release_safety", [PROP_NO_DEADLOCK] = "no_deadlock", [PROP_FAIRNESS] = "fairness",
    [PROP_REENTRANCY] = "reentrancy",
};
static const char *const msg_names[HM_COUNT] = { "request", "reply", "message", "replication", "replication ack" };
static const char *const loss_names[HL_COUNT] = { "loss", "partition", "node down",
                                                  "its master crashed before sending it",
                                                  "TCP gave up retransmitting it: the connection is reset" };
static const char *const outcome_names[HO_COUNT] = { "released", "not_released", "gave_up", "reentry_failed" };
static const char *const unit_names[HU_COUNT] = { "key", "prefix", "reentered", "inner_released" };

const char *hist_unit_name(int u)
{
    return u >= 0 && u < HU_COUNT ? unit_names[u] : "?";
}

int hist_unit_find(const char *name)
{
    for (int u = 0; name && u < HU_COUNT; u++)
        if (!strcmp(name, unit_names[u])) return u;
    return -1;
}

const char *fault_kind_name(int k)
{
    return k >= 0 && k < FAULT_KIND_COUNT ? fault_kind_names[k] : "?";
}

const char *hist_msg_name(int m)
{
    return m >= 0 && m < HM_COUNT ? msg_names[m] : "?";
}

const char *hist_loss_name(int l)
{
    return l >= 0 && l < HL_COUNT ? loss_names[l] : "?";
}

const char *hist_outcome_name(int o)
{
    return o >= 0 && o < HO_COUNT ? outcome_names[o] : "?";
}

int hist_outcome_find(const char *name)
{
    for (int o = 0; name && o < HO_COUNT; o++)
        if (!strcmp(name, outcome_names[o])) return o;
    return -1;
}

hist_event *history_at_mut(history *h, size_t i)
{
    LL_ASSERT(i < h->n);
    return &h->ev[i];
}

const char *hist_kind_name(hist_kind k)
{
    return k < H_KIND_COUNT && kind_names[k] ? kind_names[k] : "?";
}

history *history_new(void)
{
    return xcalloc(1, sizeof(history));
}

static void free_units(hist_event *e)
{
    for (size_t u = 0; u < e->nunits; u++) {
        free(e->units[u].name);
        free(e->units[u].type);
        free(e->units[u].value);
    }
    free(e->units);
    e->units = NULL;
    e->nunits = 0;
}

void history_clear(history *h)
{
    for (size_t i = 0; i < h->n; i++) {
        free(h->ev[i].text);
        free(h->ev[i].reply);
        free(h->ev[i].label);
        free(h->ev[i].cmd);
        free_units(&h->ev[i]);
    }
    h->n = 0;
}

void history_free(history *h)
{
    if (!h) return;
    history_clear(h);
    free(h->ev);
    for (size_t i = 0; i < h->nactors; i++) free(h->actors[i].name);
    free(h->actors);
    free(h);
}

int history_add_actor(history *h, const char *name, int is_node)
{
    if (h->nactors == h->capactors) {
        h->capactors = h->capactors ? h->capactors * 2 : 8;
        h->actors = xrealloc(h->actors, h->capactors * sizeof *h->actors);
    }
    h->actors[h->nactors] = (actor){ xstrdup(name), is_node, 0, 0 };
    return (int)h->nactors++;
}

void history_set_actor_clock(history *h, int a, int64_t offset_ms, double drift)
{
    LL_ASSERT(a >= 0 && (size_t)a < h->nactors);
    h->actors[a].offset_ms = offset_ms;
    h->actors[a].drift = drift;
}

void history_clock_walk(const history *h, int a, int64_t until, history_clock_fn fn, void *ud)
{
    int known = a >= 0 && (size_t)a < h->nactors;
    lclock c;
    lclock_init(&c, HISTORY_EPOCH_MS, known ? h->actors[a].offset_ms : 0, known ? h->actors[a].drift : 0);
    fn(ud, &c, 1);
    for (size_t i = 0; known && i < h->n && h->ev[i].t_us <= until;) {
        int64_t t = h->ev[i].t_us;
        int changed = 0;
        for (; i < h->n && h->ev[i].t_us == t; i++) { /* every change of this instant, then the clock */
            const hist_event *e = &h->ev[i];
            if (e->kind != H_FAULT || e->actor != a) continue;
            if (e->fault == FAULT_DRIFT) lclock_set_drift(&c, e->since_us >= 0 ? e->since_us : t, e->rate), changed = 1;
            else if (e->fault == FAULT_CLOCK_JUMP) lclock_jump(&c, t, e->param_ms), changed = 1;
        }
        if (changed) fn(ud, &c, 0);
    }
}

static void keep_clock(void *ud, const lclock *c, int first)
{
    (void)first;
    *(lclock *)ud = *c;
}

int64_t history_local_at(const history *h, int a, int64_t t)
{
    lclock c;
    history_clock_walk(h, a, t, keep_clock, &c);
    return lclock_read(&c, t);
}

const char *history_actor_name(const history *h, int a)
{
    return a >= 0 && (size_t)a < h->nactors ? h->actors[a].name : "world";
}

int history_actor_is_node(const history *h, int a)
{
    return a >= 0 && (size_t)a < h->nactors && h->actors[a].is_node;
}

size_t history_actors(const history *h)
{
    return h->nactors;
}

/* What an event's payload must be, given its kind (history.h), as every reader relies on:
 * typed fields present where the kind has them and in their ranges, absent where it has none.
 * An event's payload is filled in after history_add returns it, so each event is checked when
 * the next one is appended, and all of them by history_check. */
static void check_event(const history *h, const hist_event *e)
{
    LL_ASSERT(e->kind >= 0 && e->kind < H_KIND_COUNT);
    LL_ASSERT(e->actor >= -1 && e->actor < (int)h->nactors);
    LL_ASSERT(e->peer >= -1 && e->peer < (int)h->nactors);
    int faulty = e->kind == H_FAULT || e->kind == H_FAULT_END;
    if (faulty) {
        LL_ASSERT(e->fault >= 0 && e->fault < FAULT_KIND_COUNT);
        LL_ASSERT(e->fault_id >= -1);
        LL_ASSERT(e->fault != FAULT_DRIFT || e->kind != H_FAULT || e->rate == e->rate); /* not NaN */
    } else {
        LL_ASSERT(e->fault == -1 && e->fault_id == -1);
    }
    LL_ASSERT(e->kind == H_DROP ? e->msg >= 0 && e->msg < HM_COUNT : e->msg == -1);
    switch (e->kind) {
    case H_DROP: LL_ASSERT(e->code >= 0 && e->code < HL_COUNT); break;
    case H_NODE_UP: LL_ASSERT(e->code >= -1 && e->code <= 1); break;
    case H_KEYSPACE: LL_ASSERT(e->code == HK_RESTART || e->code == HK_RESYNC); break;
    case H_ACQUIRE_FAILED:
    case H_RELEASED: LL_ASSERT(e->code >= -1 && e->code < HO_COUNT); break;
    case H_LOCK_UNIT:
        LL_ASSERT(e->code >= 0 && e->code < HU_COUNT);
        LL_ASSERT(e->actor >= 0 && !history_actor_is_node(h, e->actor));
        LL_ASSERT((e->code != HU_KEY && e->code != HU_PREFIX) || e->text);
        break;
    default: LL_ASSERT(e->code == -1);
    }
    LL_ASSERT(e->kind == H_DROP || e->kind == H_CALL || e->kind == H_REQUEST || e->kind == H_EXEC || e->kind == H_REPLY ||
              !e->label);
    LL_ASSERT(e->kind == H_KEY_SET || e->deadline_ms == -1);
    LL_ASSERT(e->kind == H_CALL || !e->cmd);
    LL_ASSERT(e->kind == H_KEYSPACE || e->nunits == 0);
    LL_ASSERT(!e->nunits || e->units);
    for (size_t u = 0; u < e->nunits; u++) LL_ASSERT(e->units[u].name && e->units[u].type && e->units[u].value);
}

void history_check(const history *h)
{
    for (size_t i = 0; i < h->n; i++) {
        check_event(h, &h->ev[i]);
        LL_ASSERT(i == 0 || h->ev[i].t_us >= h->ev[i - 1].t_us);
    }
}

void history_add_unit(hist_event *e, slice name, const char *type, int64_t deadline, slice value)
{
    LL_ASSERT(e->kind == H_KEYSPACE && type);
    if ((e->nunits & (e->nunits - 1)) == 0) /* 0, 1, 2, 4, ...: grown to the next power of two */
        e->units = xrealloc(e->units, (e->nunits ? e->nunits * 2 : 1) * sizeof *e->units);
    e->units[e->nunits++] = (hist_unitrec){ xmemdup(name.p ? name.p : "", name.len), name.len, xstrdup(type), deadline,
                                            xmemdup(value.p ? value.p : "", value.len), value.len };
}

hist_event *history_add(history *h, int64_t t, hist_kind kind, int actor_idx, int64_t local)
{
    if (h->n) check_event(h, &h->ev[h->n - 1]);
    /* what every reader of a history relies on: true time never goes back, every event has
     * a kind, and names an actor of this history or the world */
    LL_ASSERT(kind >= 0 && kind < H_KIND_COUNT);
    LL_ASSERT(actor_idx >= -1 && actor_idx < (int)h->nactors);
    LL_ASSERT(t >= 0 && (h->n == 0 || t >= h->ev[h->n - 1].t_us));
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 256;
        h->ev = xrealloc(h->ev, h->cap * sizeof *h->ev);
    }
    hist_event *e = &h->ev[h->n++];
    *e = (hist_event){ .t_us = t, .kind = kind, .actor = actor_idx, .local_ms = local, .peer = -1, .a = -1, .b = -1,
                       .deadline_ms = -1, .fault = -1, .fault_id = -1, .param_ms = -1, .since_us = -1, .msg = -1, .code = -1 };
    return e;
}

void history_set_text(hist_event *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvformat(fmt, ap);
    va_end(ap);
    free(e->text);
    e->text = text;
}

size_t history_len(const history *h)
{
    return h->n;
}

const hist_event *history_at(const history *h, size_t i)
{
    return i < h->n ? &h->ev[i] : NULL;
}

/* ---- JSON strings, binary-safe ----
 *
 * A history's strings are bytes: keys and values a script wrote, a model's log lines. JSON
 * needs Unicode. Valid UTF-8 passes through; '"', '\\' and control characters (and DEL) are
 * escaped; each maximal ill-formed subpart becomes one U+FFFD (The Unicode Standard §3.9,
 * "U+FFFD Substitution of Maximal Subparts"; Python's decode(errors='replace') does the
 * same). No byte is lost: a string that is not valid UTF-8 is followed by a sibling field
 * NAME_b64 with its exact bytes in base64 (RFC 4648). See docs/history.md. */

/* The NUL that ends a string is never a continuation byte, so nothing past it is read. */
size_t utf8_seq(const char *s, size_t *bad)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned c = p[0], lo = 0x80, hi = 0xBF;
    size_t need;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) need = 1;
    else if (c >= 0xE0 && c <= 0xEF) need = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else {
        *bad = 1;
        return 0;
    }
    for (size_t i = 1; i <= need; i++) {
        if (p[i] < lo || p[i] > hi) {
            *bad = i;
            return 0;
        }
        lo = 0x80, hi = 0xBF;
    }
    return need + 1;
}

/* The bytes p[0..n) (p[n] is a NUL, which ends any sequence: nothing past it is read). */
static int utf8_valid_n(const char *p, size_t n)
{
    size_t bad;
    for (const char *end = p + n; p < end;) {
        size_t k = utf8_seq(p, &bad);
        if (!k) return 0;
        p += k;
    }
    return 1;
}

int json_utf8_valid(const char *s)
{
    return utf8_valid_n(s, strlen(s));
}

/* json_string of the bytes p[0..n), NULs included (p[n] is a NUL). */
static void json_bytes(buf *out, const char *p, size_t n)
{
    buf_putc(out, '"');
    for (const char *end = p + n; p < end;) {
        size_t bad, k = utf8_seq(p, &bad);
        if (!k) {
            buf_puts(out, "\\ufffd");
            p += bad;
            continue;
        }
        unsigned char c = (unsigned char)*p;
        switch (c) {
        case '"': buf_puts(out, "\\\""); break;
        case '\\': buf_puts(out, "\\\\"); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\r': buf_puts(out, "\\r"); break;
        case '\t': buf_puts(out, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7f) buf_printf(out, "\\u%04x", c);
            else buf_append(out, p, k);
        }
        p += k;
    }
    buf_putc(out, '"');
}

void json_string(buf *out, const char *s)
{
    json_bytes(out, s, strlen(s));
}

static void base64(buf *out, const unsigned char *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        char q[4] = { abc[v >> 18], abc[(v >> 12) & 63], i + 1 < n ? abc[(v >> 6) & 63] : '=', i + 2 < n ? abc[v & 63] : '=' };
        buf_append(out, q, 4);
    }
}

/* json_field of the bytes p[0..n) (p[n] is a NUL): a key or a value may hold any byte. */
static void json_bytes_field(buf *out, const char *name, const char *p, size_t n)
{
    buf_printf(out, "\"%s\":", name);
    json_bytes(out, p, n);
    if (utf8_valid_n(p, n)) return;
    buf_printf(out, ",\"%s_b64\":\"", name);
    base64(out, (const unsigned char *)p, n);
    buf_putc(out, '"');
}

void json_field(buf *out, const char *name, const char *s)
{
    buf_printf(out, "\"%s\":", name);
    json_string(out, s);
    if (json_utf8_valid(s)) return;
    buf_printf(out, ",\"%s_b64\":\"", name);
    base64(out, (const unsigned char *)s, strlen(s));
    buf_putc(out, '"');
}

/* The typed payload, after the fields every event has (docs/history.md). */
static void write_typed(buf *out, const hist_event *e)
{
    switch (e->kind) {
    case H_FAULT:
    case H_FAULT_END:
        if (e->fault < 0) break;
        buf_printf(out, ",\"fault\":\"%s\"", fault_kind_name(e->fault));
        if (e->fault_id >= 0) buf_printf(out, ",\"fault_id\":%d", e->fault_id);
        if (e->kind == H_FAULT_END) break;
        const char *pn = fault_fields[e->fault].param, *rn = fault_fields[e->fault].rate;
        int w = fault_fields[e->fault].written;
        if (rn) buf_printf(out, ",\"%s\":%.17g", rn, e->rate);
        if (pn && (w == FJ_ALWAYS || (w == FJ_NONNEG && e->param_ms >= 0) || (w == FJ_POSITIVE && e->param_ms > 0)))
            buf_printf(out, ",\"%s\":%lld", pn, (long long)e->param_ms);
        break;
    case H_DROP:
        if (e->msg >= 0) buf_printf(out, ",\"lost\":\"%s\"", hist_msg_name(e->msg));
        if (e->code >= 0) buf_printf(out, ",\"why\":\"%s\"", hist_loss_name(e->code));
        if (e->label) {
            buf_putc(out, ',');
            json_field(out, "label", e->label);
        }
        break;
    case H_NODE_UP:
        if (e->code >= 0) buf_printf(out, ",\"kept\":%s", e->code ? "true" : "false");
        break;
    case H_KEYSPACE:
        if (e->code >= 0) buf_printf(out, ",\"why\":\"%s\"", e->code == HK_RESYNC ? "resync" : "restart");
        if (!e->units) break;
        buf_puts(out, ",\"keys\":[");
        for (size_t u = 0; u < e->nunits; u++) {
            const hist_unitrec *r = &e->units[u];
            buf_puts(out, u ? ",{" : "{");
            json_bytes_field(out, "name", r->name, r->nlen);
            buf_putc(out, ',');
            json_field(out, "type", r->type);
            if (r->deadline_ms != -1) buf_printf(out, ",\"deadline\":%lld", (long long)r->deadline_ms);
            buf_putc(out, ',');
            json_bytes_field(out, "value", r->value, r->vlen);
            buf_putc(out, '}');
        }
        buf_putc(out, ']');
        break;
    case H_CALL:
        if (e->cmd) {
            buf_putc(out, ',');
            json_field(out, "command", e->cmd);
        }
        if (e->label) {
            buf_putc(out, ',');
            json_field(out, "published", e->label);
        }
        break;
    case H_REQUEST:
    case H_EXEC:
    case H_REPLY:
        if (e->label) {
            buf_putc(out, ',');
            json_field(out, "script", e->label);
        }
        break;
    case H_ACQUIRE_FAILED:
    case H_RELEASED:
        if (e->code >= 0) buf_printf(out, ",\"outcome\":\"%s\"", hist_outcome_name(e->code));
        break;
    case H_LOCK_UNIT:
        if (e->code >= 0) buf_printf(out, ",\"op\":\"%s\"", hist_unit_name(e->code));
        break;
    default: break;
    }
}

void history_write_event(buf *out, const hist_event *e, const char *ev, const char *actor_name, const char *peer_name)
{
    buf_printf(out, "{\"t\":%lld.%03lld,\"ev\":\"%s\",", (long long)(e->t_us / 1000), (long long)(e->t_us % 1000), ev);
    json_field(out, "actor", actor_name);
    buf_printf(out, ",\"local\":%lld", (long long)e->local_ms);
    if (peer_name) {
        buf_putc(out, ',');
        json_field(out, "peer", peer_name);
    }
    if (e->a != -1) buf_printf(out, ",\"a\":%lld", (long long)e->a);
    if (e->b != -1) buf_printf(out, ",\"b\":%lld", (long long)e->b);
    if (e->deadline_ms != -1) buf_printf(out, ",\"deadline\":%lld", (long long)e->deadline_ms);
    if (e->text) {
        buf_putc(out, ',');
        json_field(out, "text", e->text);
    }
    if (e->reply) {
        buf_putc(out, ',');
        json_field(out, "reply", e->reply);
    }
    write_typed(out, e);
    buf_putc(out, '}');
}

void history_write_jsonl(const history *h, buf *out)
{
    for (size_t i = 0; i < h->n; i++) {
        const hist_event *e = &h->ev[i];
        history_write_event(out, e, hist_kind_name(e->kind), history_actor_name(h, e->actor),
                            e->peer >= 0 ? history_actor_name(h, e->peer) : NULL);
        buf_putc(out, '\n');
    }
}
