/* export.c — a run's history in the formats of three tools that study histories (export.h,
 * docs/export.md). None of them knows Redis or leases; each sees the run the way it sees any
 * system:
 *
 * Knossos and Porcupine check linearizability: they read the lock as a sequential object
 * with two operations, acquire and release, each invoked by a client and completed with a
 * result. The operations come from the workload's milestones (docs/history.md): `acquire`
 * invokes an acquire, `acquired` completes it :ok, `acquire_failed` :fail; `release` invokes
 * a release, `released` completes it :ok when its outcome is "released" and :fail otherwise.
 * An outcome the client cannot know is :info (Knossos) or "unknown" (Porcupine), as Jepsen
 * records a timed-out operation: a completion while a request of the operation went
 * unanswered (it timed out, was lost, or is still in flight; its effect may have happened),
 * and an operation still open when its client crashed, failed or the run ended. Knossos
 * takes a process that saw :info as crashed for good (its README, "Concepts"), so the
 * client's later operations get a new process number, the old one plus the number of
 * clients, as Jepsen numbers a crashed worker's successor.
 *
 * ShiViz draws a space-time diagram from vector clocks. Each event of the history is an
 * event of its actor; a request is a message from its `request` event to the node's `exec`
 * (matched by client and request id), and the reply a message from that `exec` to the
 * client's `reply`. The clocks are Fidge/Mattern's: each event ticks its own entry, and a
 * receive takes the entrywise maximum with the sender's clock at the send. Pub/sub
 * deliveries and replication are not matched to a send (the history does not record when
 * they were sent), so they are local events. */
#include "export.h"

#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "trace.h"

static const char *const format_names[EXPORT_COUNT] = { "knossos", "porcupine", "shiviz" };

int export_format_parse(const char *name)
{
    for (int i = 0; i < EXPORT_COUNT; i++)
        if (!strcmp(name, format_names[i])) return i;
    return -1;
}

const char *export_format_names(void)
{
    return "knossos, porcupine or shiviz";
}

/* ---- the lock's operations ---- */

typedef enum op_f { OP_ACQUIRE, OP_RELEASE } op_f;
typedef enum op_type { OP_OPEN, OP_OK, OP_FAIL, OP_INFO } op_type;

typedef struct lock_op {
    int actor;          /* the client's actor index */
    int client;         /* its index among the clients: Porcupine's ClientId */
    int process;        /* Knossos's process */
    op_f f;
    op_type type;
    int64_t call, ret;  /* true µs */
    int64_t token;      /* an acquire's fencing token, -1 */
    const char *why;    /* the outcome the workload recorded (borrowed), NULL */
} lock_op;

/* One line of a Knossos history: the invocation or the completion of ops[op]. */
typedef struct op_step {
    size_t op;
    int completion;
} op_step;

typedef struct client_state {
    long open;          /* its open operation, -1 */
    int process;
    int64_t *asked;     /* request ids sent during the open operation, not yet answered */
    size_t nasked, capasked;
} client_state;

typedef struct lock_ops {
    lock_op *op;
    size_t n, cap;
    op_step *step;
    size_t nsteps, capsteps;
    int64_t end;        /* the last event's true µs */
} lock_ops;

static void add_step(lock_ops *o, size_t op, int completion)
{
    if (o->nsteps == o->capsteps) {
        o->capsteps = o->capsteps ? 2 * o->capsteps : 64;
        o->step = xrealloc(o->step, o->capsteps * sizeof *o->step);
    }
    o->step[o->nsteps++] = (op_step){ op, completion };
}

static void complete(lock_ops *o, client_state *c, op_type type, int64_t t, const char *why, int nclients)
{
    if (c->open < 0) return;
    lock_op *op = &o->op[c->open];
    /* an answer the client never got leaves the outcome open, whatever it concluded */
    op->type = type == OP_OPEN || (type != OP_OK && c->nasked) ? OP_INFO : type;
    op->ret = t;
    op->why = why;
    add_step(o, (size_t)c->open, 1);
    if (op->type == OP_INFO) c->process += nclients;
    c->open = -1;
    c->nasked = 0;
}

static void invoke(lock_ops *o, client_state *c, const hist_event *e, int client, op_f f, int nclients)
{
    complete(o, c, OP_OPEN, e->t_us, "a new operation began before this one ended", nclients);
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 32;
        o->op = xrealloc(o->op, o->cap * sizeof *o->op);
    }
    o->op[o->n] = (lock_op){ e->actor, client, c->process, f, OP_OPEN, e->t_us, -1, -1, NULL };
    c->open = (long)o->n++;
    add_step(o, (size_t)c->open, 0);
}

static void forget_request(client_state *c, int64_t id)
{
    for (size_t k = 0; k < c->nasked; k++)
        if (c->asked[k] == id) {
            c->asked[k] = c->asked[--c->nasked];
            return;
        }
}

static void lock_ops_build(const history *h, lock_ops *o)
{
    memset(o, 0, sizeof *o);
    int nact = (int)history_actors(h), nclients = 0;
    int *client_of = xmalloc((size_t)(nact > 0 ? nact : 1) * sizeof *client_of);
    for (int a = 0; a < nact; a++) client_of[a] = history_actor_is_node(h, a) ? -1 : nclients++;
    client_state *cs = xcalloc((size_t)(nclients > 0 ? nclients : 1), sizeof *cs);
    for (int c = 0; c < nclients; c++) cs[c] = (client_state){ .open = -1, .process = c };
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        o->end = e->t_us;
        int ci = e->actor >= 0 && e->actor < nact ? client_of[e->actor] : -1;
        if (ci < 0) continue;
        client_state *c = &cs[ci];
        switch (e->kind) {
        case H_ACQUIRE: invoke(o, c, e, ci, OP_ACQUIRE, nclients); break;
        case H_RELEASE: invoke(o, c, e, ci, OP_RELEASE, nclients); break;
        case H_ACQUIRED:
            if (c->open >= 0 && o->op[c->open].f == OP_ACQUIRE) {
                o->op[c->open].token = e->a;
                complete(o, c, OP_OK, e->t_us, NULL, nclients);
            }
            break;
        case H_ACQUIRE_FAILED:
            if (c->open >= 0 && o->op[c->open].f == OP_ACQUIRE) complete(o, c, OP_FAIL, e->t_us, e->text, nclients);
            break;
        case H_RELEASED:
            if (c->open >= 0 && o->op[c->open].f == OP_RELEASE)
                complete(o, c, e->code == HO_RELEASED ? OP_OK : OP_FAIL, e->t_us, e->text, nclients);
            break;
        case H_REQUEST:
            if (c->open < 0) break;
            if (c->nasked == c->capasked) {
                c->capasked = c->capasked ? 2 * c->capasked : 8;
                c->asked = xrealloc(c->asked, c->capasked * sizeof *c->asked);
            }
            c->asked[c->nasked++] = e->a;
            break;
        case H_REPLY:
            /* b = 0: too late, the client had given up; b = 2: it had stopped awaiting it
             * (ctx:abandon): either way the client never took that answer into account */
            if (e->b != 0 && e->b != 2) forget_request(c, e->a);
            break;
        case H_FAULT:
            if (e->fault == FAULT_CRASH) complete(o, c, OP_OPEN, e->t_us, "the client crashed", nclients);
            break;
        case H_ERROR: complete(o, c, OP_OPEN, e->t_us, "the client's model failed", nclients); break;
        case H_END: complete(o, c, OP_OPEN, e->t_us, "the client finished its workload", nclients); break;
        default: break;
        }
    }
    for (int c = 0; c < nclients; c++) {
        complete(o, &cs[c], OP_OPEN, o->end, "the run ended", nclients);
        free(cs[c].asked);
    }
    free(cs);
    free(client_of);
}

static void lock_ops_release(lock_ops *o)
{
    free(o->op);
    free(o->step);
}

/* ---- Knossos (EDN) ---- */

static const char *const type_kw[] = { ":info", ":ok", ":fail", ":info" };

/* EDN strings take JSON's escapes: \" \\ \n \r \t and \uXXXX (Clojure's EdnReader reads them
 * all); ill-formed UTF-8 comes out as U+FFFD. */
static void knossos(const history *h, buf *out)
{
    lock_ops o;
    lock_ops_build(h, &o);
    buf_puts(out, "; locklab run --export knossos: the lock as Jepsen/Knossos's mutex model sees it, one op per line,\n"
                  "; in true-time order (:time in ns). Check it: lein run --model mutex FILE (knossos.cli).\n");
    for (size_t i = 0; i < o.nsteps; i++) {
        const lock_op *op = &o.op[o.step[i].op];
        int done = o.step[i].completion;
        buf_printf(out, "{:process %d, :type %s, :f %s, :value nil, :time %lld, :index %zu, :client ", op->process,
                   done ? type_kw[op->type] : ":invoke", op->f == OP_ACQUIRE ? ":acquire" : ":release",
                   (long long)(done ? op->ret : op->call) * 1000, i);
        json_string(out, history_actor_name(h, op->actor));
        if (done && op->type == OP_OK && op->token >= 0) buf_printf(out, ", :token %lld", (long long)op->token);
        if (done && op->type != OP_OK && op->why) {
            buf_puts(out, ", :error ");
            json_string(out, op->why);
        }
        buf_puts(out, "}\n");
    }
    lock_ops_release(&o);
}

/* ---- Porcupine (JSON) ---- */

static void porcupine(const history *h, buf *out)
{
    lock_ops o;
    lock_ops_build(h, &o);
    static const char *const outcome[] = { "unknown", "ok", "fail", "unknown" };
    buf_puts(out, "[");
    for (size_t i = 0; i < o.n; i++) {
        const lock_op *op = &o.op[i];
        buf_printf(out, "%s\n{\"ClientId\":%d,\"Input\":{\"op\":\"%s\",", i ? "," : "", op->client,
                   op->f == OP_ACQUIRE ? "acquire" : "release");
        json_field(out, "client", history_actor_name(h, op->actor));
        /* an unknown outcome may take effect until the run's end: the closed interval says so */
        int64_t ret = op->type == OP_INFO ? o.end : op->ret;
        buf_printf(out, "},\"Call\":%lld,\"Output\":{\"outcome\":\"%s\"", (long long)op->call * 1000, outcome[op->type]);
        if (op->type == OP_OK && op->token >= 0) buf_printf(out, ",\"token\":%lld", (long long)op->token);
        if (op->type != OP_OK && op->why) {
            buf_putc(out, ',');
            json_field(out, "why", op->why);
        }
        buf_printf(out, "},\"Return\":%lld}", (long long)ret * 1000);
    }
    buf_puts(out, o.n ? "\n]\n" : "]\n");
    lock_ops_release(&o);
}

/* ---- ShiViz ---- */

/* A message in flight: its send's clock, until the receive takes it. */
typedef struct in_flight {
    int client;
    int64_t id;
    int reply;          /* 0 the request, 1 the reply */
    unsigned *vc;
} in_flight;

typedef struct flights {
    in_flight *v;
    size_t n, cap;
} flights;

static void fly(flights *f, int client, int64_t id, int reply, const unsigned *vc, size_t nh)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 32;
        f->v = xrealloc(f->v, f->cap * sizeof *f->v);
    }
    unsigned *copy = xmalloc(nh * sizeof *copy);
    memcpy(copy, vc, nh * sizeof *copy);
    f->v[f->n++] = (in_flight){ client, id, reply, copy };
}

/* Merges the clock of the matching send into vc, and forgets the send. */
static void land(flights *f, int client, int64_t id, int reply, unsigned *vc, size_t nh)
{
    for (size_t k = f->n; k-- > 0;) {
        in_flight *x = &f->v[k];
        if (x->client != client || x->id != id || x->reply != reply) continue;
        for (size_t j = 0; j < nh; j++)
            if (x->vc[j] > vc[j]) vc[j] = x->vc[j];
        free(x->vc);
        *x = f->v[--f->n];
        return;
    }
}

/* Plain text on one line: valid UTF-8 as it is, newlines as " | ", tabs as spaces, other
 * control characters and ill-formed bytes as \xNN. */
static void one_line(buf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        size_t bad, n = utf8_seq(s + i, &bad);
        unsigned char c = (unsigned char)s[i];
        if (!n) {
            for (size_t k = 0; k < bad; k++) buf_printf(out, "\\x%02x", (unsigned char)s[i + k]);
            i += bad;
            continue;
        }
        if (c == '\n') buf_puts(out, " | ");
        else if (c == '\t') buf_putc(out, ' ');
        else if (c < 0x20 || c == 0x7f) buf_printf(out, "\\x%02x", c);
        else buf_append(out, s + i, n);
        i += n;
    }
}

static void shiviz(const history *h, buf *out)
{
    size_t nh = history_actors(h) + 1; /* the actors, then the world (partitions) */
    unsigned *vc = xcalloc(nh * nh, sizeof *vc);
    flights f = { 0 };
    buf line;
    buf_init(&line);
    buf_puts(out, "(?<host>\\S+) (?<clock>\\{[^}]*\\}) (?<event>.*)\n\n");
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        if (e->kind == H_LOCK_UNIT) continue; /* a model's word to the checker, not a step of a process */
        size_t me = e->actor >= 0 && (size_t)e->actor < nh - 1 ? (size_t)e->actor : nh - 1;
        unsigned *c = vc + me * nh;
        c[me]++;
        if (e->kind == H_EXEC && e->peer >= 0) land(&f, e->peer, e->a, 0, c, nh);
        if (e->kind == H_REPLY && e->peer >= 0) land(&f, e->actor, e->a, 1, c, nh);
        if (e->kind == H_REQUEST && e->peer >= 0) fly(&f, e->actor, e->a, 0, c, nh);
        if (e->kind == H_EXEC && e->peer >= 0) fly(&f, e->peer, e->a, 1, c, nh);
        buf_puts(out, me == nh - 1 ? "(world)" : history_actor_name(h, e->actor));
        buf_puts(out, " {");
        int first = 1;
        for (size_t j = 0; j < nh; j++) {
            if (!c[j]) continue;
            buf_puts(out, first ? "\"" : ",\"");
            buf_puts(out, j == nh - 1 ? "(world)" : history_actor_name(h, (int)j));
            buf_printf(out, "\":%u", c[j]);
            first = 0;
        }
        buf_puts(out, "} ");
        /* the narrated line without its actor column (the host says it): "10.106s ACQUIRED ..." */
        buf_reset(&line);
        trace_line(h, e, &line);
        const char *p = line.p + strspn(line.p, " ");
        size_t tlen = strcspn(p, " ");
        buf_append(out, p, tlen);
        buf_putc(out, ' ');
        p += tlen;
        p += strspn(p, " ");
        p += strlen(history_actor_name(h, e->actor));
        p += strspn(p, " ");
        size_t len = line.len - (size_t)(p - line.p);
        while (len && (p[len - 1] == '\n' || p[len - 1] == ' ')) len--;
        one_line(out, p, len);
        buf_putc(out, '\n');
    }
    for (size_t k = 0; k < f.n; k++) free(f.v[k].vc);
    free(f.v);
    free(vc);
    buf_release(&line);
}

void export_render(const history *h, export_format fmt, buf *out)
{
    switch (fmt) {
    case EXPORT_KNOSSOS: knossos(h, out); break;
    case EXPORT_PORCUPINE: porcupine(h, out); break;
    case EXPORT_SHIVIZ: shiviz(h, out); break;
    case EXPORT_COUNT: break;
    }
}

/* ---- the verdicts (docs/verdicts.md) ---- */

/* true µs as ms with µs precision, as the history's "t" */
static void put_ms(buf *out, int64_t us)
{
    buf_printf(out, "%lld.%03lld", (long long)(us / 1000), (long long)(us % 1000));
}

/* The faults that started by `until`, each with its end when the history has one (the
 * fault_end of the same fault of the run). */
static void put_faults(buf *out, const history *h, int64_t until)
{
    size_t n = history_len(h);
    char *used = xcalloc(n ? n : 1, 1);
    int first = 1;
    buf_puts(out, "\"faults\":[");
    for (size_t i = 0; i < n; i++) {
        const hist_event *e = history_at(h, i);
        if (e->t_us > until) break;
        if (e->kind != H_FAULT) continue;
        const char *text = e->text ? e->text : "";
        long end = -1;
        for (size_t k = i + 1; k < n && end < 0; k++) {
            const hist_event *x = history_at(h, k);
            if (x->kind != H_FAULT_END || x->actor != e->actor || used[k]) continue;
            if (x->fault_id == e->fault_id) end = (long)k;
        }
        if (end >= 0) used[end] = 1;
        buf_puts(out, first ? "{" : ",{");
        first = 0;
        json_field(out, "target", history_actor_name(h, e->actor));
        buf_putc(out, ',');
        json_field(out, "text", text);
        buf_puts(out, ",\"from\":");
        put_ms(out, e->t_us);
        buf_printf(out, ",\"from_event\":%zu,\"to\":", i);
        if (end >= 0) {
            put_ms(out, history_at(h, (size_t)end)->t_us);
            buf_printf(out, ",\"to_event\":%ld}", end);
        } else {
            buf_puts(out, "null,\"to_event\":null}");
        }
    }
    buf_puts(out, "]");
    free(used);
}

void verdicts_render(const history *h, const scenario *sc, const check_result *cr, uint64_t seed, const char *error,
                     buf *out)
{
    static const char *const words[] = { "holds", "violated", "not_judged" };
    buf_puts(out, "{\"format\":\"locklab-verdicts\",\"version\":1,\n ");
    json_field(out, "scenario", sc->name ? sc->name : "");
    buf_puts(out, ",\n ");
    json_field(out, "file", sc->path ? sc->path : "");
    buf_printf(out, ",\n \"seed\":%llu,\n ", (unsigned long long)seed);
    json_field(out, "protocol", sc->protocol ? sc->protocol : "");
    buf_puts(out, ",\n ");
    json_field(out, "scripts", sc->scripts ? sc->scripts : "HEAD");
    buf_printf(out, ",\n \"events\":%zu,\n \"end\":", history_len(h));
    put_ms(out, history_len(h) ? history_at(h, history_len(h) - 1)->t_us : 0);
    if (error) {
        buf_puts(out, ",\n ");
        json_field(out, "error", error);
    }
    buf_puts(out, ",\n \"verdicts\":[");
    int stated = 0, unmet = 0, first = 1;
    for (int p = 0; p < PROP_COUNT; p++) {
        const expect_cfg *ex = check_expectation(sc, (property)p);
        verdict v = cr ? cr->p[p].v : VERDICT_NOT_JUDGED;
        if (!cr && !ex) continue;
        buf_printf(out, "%s\n  {\"property\":\"%s\",\"verdict\":\"%s\"", first ? "" : ",", property_name((property)p),
                   words[v]);
        first = 0;
        if (ex) {
            int met = cr && (v == VERDICT_VIOLATED) == ex->violated && v != VERDICT_NOT_JUDGED;
            stated++;
            unmet += !met;
            buf_printf(out, ",\"expected\":\"%s\",\"met\":%s", ex->violated ? "violated" : "holds", met ? "true" : "false");
        }
        if (v == VERDICT_VIOLATED) {
            const prop_result *r = &cr->p[p];
            buf_puts(out, ",\n   \"at\":");
            put_ms(out, r->at_us);
            buf_puts(out, ",\"events_at\":[");
            int any = 0;
            for (size_t i = 0; i < history_len(h); i++) {
                int64_t t = history_at(h, i)->t_us;
                if (t > r->at_us) break;
                if (t == r->at_us) buf_printf(out, "%s%zu", any++ ? "," : "", i);
            }
            buf_puts(out, "],\n   ");
            json_field(out, "evidence", r->evidence ? r->evidence : "");
            buf_puts(out, ",\n   ");
            put_faults(out, h, r->at_us);
        }
        buf_puts(out, "}");
    }
    buf_printf(out, "\n ],\n \"expectations\":{\"stated\":%d,\"met\":%d,\"unmet\":%d}\n}\n", stated, stated - unmet,
               unmet);
}
