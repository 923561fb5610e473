/* touch.c — did a run's situation reach the lock (touch.h). One pass over the history,
 * keeping: the faults in force; per client, whether it acquires, holds or releases, and
 * when it last lost the lock; per node, the objects of the lock unit it stores and the client
 * whose command last set each; the requests in flight; the command running. */
#include "touch.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const touch_names[TOUCH_COUNT] = {
    "reentry", "holder_crashed", "lock_lost", "message_cut", "server_hit", "waiter_gave_up", "late_message",
};

static const char *const touch_phrases[TOUCH_COUNT] = {
    "re-entry (reentry)", "crash of a client holding or wanting the lock (holder_crashed)",
    "lock lost while the fault was in force (lock_lost)", "message of the lock lost or held by the fault (message_cut)",
    "crash, restart or failover of a node storing the lock (server_hit)",
    "waiter giving up while the lock was held (waiter_gave_up)",
    "request of the holder running after it had lost the lock (late_message)",
};

const char *touch_name(int k)
{
    return k >= 0 && k < TOUCH_COUNT ? touch_names[k] : "?";
}

int touch_find(const char *name)
{
    for (int k = 0; k < TOUCH_COUNT; k++)
        if (!strcmp(name, touch_names[k])) return k;
    return -1;
}

void touch_describe_mask(unsigned mask, buf *out)
{
    int n = 0, total = 0;
    for (int k = 0; k < TOUCH_COUNT; k++) total += (mask >> k) & 1;
    for (int k = 0; k < TOUCH_COUNT; k++) {
        if (!((mask >> k) & 1)) continue;
        if (n) buf_puts(out, "; ");
        buf_puts(out, touch_phrases[k]);
        n++;
    }
}

/* ---- state ---- */

typedef struct obj {
    int node;
    const char *name; /* borrowed from the history */
    int owner;        /* the client whose command last set it there; -1 none, -2 unknown */
    int present;
} obj;

typedef struct req {
    int client;
    int64_t id, sent;
    int cut;          /* sent while a partition was in force */
    int heals;        /* partitions healed before it was sent */
    int mine;         /* sent while its client held or released the lock */
    int releasing;    /* sent inside a release */
} req;

typedef struct active {
    int id, kind;
} active;

typedef struct tstate {
    const history *h;
    const scenario *sc;
    int nact;
    const char **unit; int *prefix; size_t nunit;
    int *acquiring, *holding, *releasing;
    int64_t *held_since, *lost_at;
    obj *o; size_t no, co;
    req *r; size_t nr, cr;
    active *f; size_t nf, cf;   /* faults in force */
    int partitions, drops, heals;
    int exec_node, exec_client, exec_release;
    int64_t exec_t;
    int unit_events, release_saw_lock;
    touch_result *out;
} tstate;

static void unit_add(tstate *s, const char *name, int prefix)
{
    for (size_t i = 0; i < s->nunit; i++)
        if (s->prefix[i] == prefix && !strcmp(s->unit[i], name)) return;
    s->unit = xrealloc(s->unit, (s->nunit + 1) * sizeof *s->unit);
    s->prefix = xrealloc(s->prefix, (s->nunit + 1) * sizeof *s->prefix);
    s->unit[s->nunit] = name;
    s->prefix[s->nunit++] = prefix;
}

static int in_unit(const tstate *s, const char *key)
{
    for (size_t i = 0; key && i < s->nunit; i++)
        if (s->prefix[i] ? !strncmp(key, s->unit[i], strlen(s->unit[i])) : !strcmp(key, s->unit[i])) return 1;
    return 0;
}

static obj *obj_at(tstate *s, int node, const char *name)
{
    for (size_t i = 0; i < s->no; i++)
        if (s->o[i].node == node && !strcmp(s->o[i].name, name)) return &s->o[i];
    if (s->no == s->co) s->o = xrealloc(s->o, (s->co = s->co ? 2 * s->co : 8) * sizeof *s->o);
    s->o[s->no] = (obj){ node, name, -1, 0 };
    return &s->o[s->no++];
}

static int node_stores_lock(const tstate *s, int node)
{
    for (size_t i = 0; i < s->no; i++)
        if (s->o[i].node == node && s->o[i].present) return 1;
    return 0;
}

static int someone_engaged(const tstate *s)
{
    for (int c = 0; c < s->nact; c++)
        if (s->acquiring[c] || s->holding[c] || s->releasing[c]) return 1;
    return 0;
}

static int in_force(const tstate *s)
{
    return s->nf > 0;
}

static const char *name_of(const tstate *s, int a)
{
    return a >= 0 ? history_actor_name(s->h, a) : "the world";
}

static void put_t(buf *b, int64_t us)
{
    buf_printf(b, "%lld.%03llds", (long long)(us / 1000000), (long long)((us / 1000) % 1000));
}

/* The first instance of way k, in a sentence (printf-like). */
static void happened(tstate *s, int k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void happened(tstate *s, int k, const char *fmt, ...)
{
    if (s->out->happened[k]) return;
    s->out->happened[k] = 1;
    buf b;
    buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    s->out->what[k] = buf_steal(&b);
}

/* Client x lost the lock at time t (how: a phrase). */
static void lost(tstate *s, int x, int64_t t, const char *how)
{
    if (x < 0 || x >= s->nact) return;
    s->lost_at[x] = t;
    if ((s->holding[x] || s->releasing[x]) && in_force(s)) {
        buf b;
        buf_init(&b);
        put_t(&b, t);
        happened(s, TOUCH_LOCK_LOST, "%s lost the lock at %s (%s) while a %s was in force", name_of(s, x), b.p, how,
                 fault_kind_name(s->f[s->nf - 1].kind));
        buf_release(&b);
    }
}

static void fault_start(tstate *s, const hist_event *e)
{
    int k = e->fault;
    if (k == FAULT_CRASH && e->actor >= 0 && !history_actor_is_node(s->h, e->actor)) {
        int c = e->actor;
        if (s->acquiring[c] || s->holding[c] || s->releasing[c]) {
            buf b;
            buf_init(&b);
            put_t(&b, e->t_us);
            happened(s, TOUCH_HOLDER_CRASHED, "%s crashed at %s while it %s the lock", name_of(s, c), b.p,
                     s->holding[c] ? "held" : s->releasing[c] ? "released" : "acquired");
            buf_release(&b);
        }
    }
    if ((k == FAULT_CRASH || k == FAULT_RESTART || k == FAULT_FAILOVER) && e->actor >= 0 &&
        history_actor_is_node(s->h, e->actor) && node_stores_lock(s, e->actor) && someone_engaged(s)) {
        buf b;
        buf_init(&b);
        put_t(&b, e->t_us);
        happened(s, TOUCH_SERVER_HIT, "%s, which stored the lock, had a %s at %s while the lock was held or wanted",
                 name_of(s, e->actor), fault_kind_name(k), b.p);
        buf_release(&b);
    }
    /* in force: what lasts (a pause, a cut, lost messages) until its end; a clock's change
     * to the end of the run; crashes, restarts and failovers are judged as server_hit and
     * holder_crashed */
    if (k == FAULT_CRASH || k == FAULT_RESTART || k == FAULT_FAILOVER) return;
    if (s->nf == s->cf) s->f = xrealloc(s->f, (s->cf = s->cf ? 2 * s->cf : 4) * sizeof *s->f);
    s->f[s->nf++] = (active){ e->fault_id, k };
    if (k == FAULT_PARTITION) s->partitions++;
    if (k == FAULT_DROP) s->drops++;
}

static void fault_end(tstate *s, const hist_event *e)
{
    for (size_t i = 0; i < s->nf; i++)
        if (s->f[i].id == e->fault_id) {
            if (s->f[i].kind == FAULT_PARTITION) s->partitions--, s->heals++;
            if (s->f[i].kind == FAULT_DROP) s->drops--;
            memmove(&s->f[i], &s->f[i + 1], (s->nf - i - 1) * sizeof *s->f);
            s->nf--;
            return;
        }
}

static void key_event(tstate *s, const hist_event *e)
{
    if (!in_unit(s, e->text) || e->actor < 0) return;
    s->unit_events++;
    int attributed = e->actor == s->exec_node && e->t_us == s->exec_t && e->kind != H_KEY_EXPIRED;
    obj *o = obj_at(s, e->actor, e->text);
    int before = o->owner;
    if (s->exec_release && attributed) s->release_saw_lock = 1;
    if (before >= 0 && !(attributed && s->exec_client == before))
        lost(s, before, e->t_us,
             e->kind == H_KEY_EXPIRED ? "its lock object expired"
             : attributed             ? "another client's command changed its lock object"
                                      : "the server removed or changed its lock object");
    o->present = e->kind == H_KEY_SET;
    if (e->kind != H_KEY_SET) o->owner = -1;
    else o->owner = attributed ? s->exec_client : -2;
}

static void keyspace(tstate *s, const hist_event *e)
{
    for (size_t i = 0; i < s->no; i++)
        if (s->o[i].node == e->actor) {
            if (s->o[i].owner >= 0) lost(s, s->o[i].owner, e->t_us, "the node's data was replaced");
            s->o[i].present = 0;
            s->o[i].owner = -1;
        }
    for (size_t u = 0; u < e->nunits; u++) {
        const char *nm = e->units[u].name;
        if (!nm || !in_unit(s, nm)) continue;
        obj *o = obj_at(s, e->actor, nm);
        o->present = 1;
        o->owner = -2;
    }
}

static void on_request(tstate *s, const hist_event *e)
{
    int c = e->actor;
    if (s->nr == s->cr) s->r = xrealloc(s->r, (s->cr = s->cr ? 2 * s->cr : 16) * sizeof *s->r);
    s->r[s->nr++] = (req){ c, e->a, e->t_us, s->partitions > 0, s->heals, s->holding[c] || s->releasing[c], s->releasing[c] };
}

static void on_exec(tstate *s, const hist_event *e)
{
    s->exec_node = e->actor;
    s->exec_client = e->peer;
    s->exec_t = e->t_us;
    s->exec_release = 0;
    for (size_t i = 0; i < s->nr; i++) {
        req *q = &s->r[i];
        if (q->client != e->peer || q->id != e->a) continue;
        int c = q->client;
        buf b;
        buf_init(&b);
        put_t(&b, e->t_us);
        if (q->cut && s->heals > q->heals && (s->acquiring[c] || s->holding[c] || s->releasing[c] || q->mine))
            happened(s, TOUCH_MESSAGE_CUT, "a request %s sent inside a cut ran on %s at %s, after the cut healed",
                     name_of(s, c), name_of(s, e->actor), b.p);
        if (q->mine && s->lost_at[c] >= 0 && s->lost_at[c] >= s->held_since[c])
            happened(s, TOUCH_LATE_MESSAGE, "a request %s sent while it held the lock ran on %s at %s, after %s had lost it",
                     name_of(s, c), name_of(s, e->actor), b.p, name_of(s, c));
        if (q->releasing) {
            s->exec_release = 1;
            if (node_stores_lock(s, e->actor)) s->release_saw_lock = 1;
        }
        buf_release(&b);
        s->r[i] = s->r[--s->nr];
        break;
    }
}

static void on_drop(tstate *s, const hist_event *e)
{
    if (!(s->partitions + s->drops) || e->code == HL_NODE_DOWN || e->code == HL_MASTER_CRASHED) return;
    int c = e->actor >= 0 && !history_actor_is_node(s->h, e->actor) ? e->actor
            : e->peer >= 0 && !history_actor_is_node(s->h, e->peer) ? e->peer : -1;
    if (c < 0 || !(s->acquiring[c] || s->holding[c] || s->releasing[c])) return;
    buf b;
    buf_init(&b);
    put_t(&b, e->t_us);
    happened(s, TOUCH_MESSAGE_CUT, "a %s between %s and %s was lost at %s (%s) while %s %s the lock", hist_msg_name(e->msg),
             name_of(s, e->actor), name_of(s, e->peer), b.p, hist_loss_name(e->code), name_of(s, c),
             s->holding[c] ? "held" : s->releasing[c] ? "released" : "wanted");
    buf_release(&b);
}

static void step(tstate *s, const hist_event *e)
{
    int a = e->actor;
    int client = a >= 0 && a < s->nact && !history_actor_is_node(s->h, a);
    switch (e->kind) {
    case H_LOCK_UNIT:
        if (e->code == HU_KEY || e->code == HU_PREFIX) {
            if (e->text) unit_add(s, e->text, e->code == HU_PREFIX);
        } else if (e->code == HU_REENTERED && client) {
            buf b;
            buf_init(&b);
            put_t(&b, e->t_us);
            happened(s, TOUCH_REENTRY, "%s took the lock again at %s while holding it", name_of(s, a), b.p);
            buf_release(&b);
        }
        break;
    case H_ACQUIRE:
        if (client) s->acquiring[a] = 1;
        break;
    case H_ACQUIRED:
        if (!client) break;
        for (int x = 0; x < s->nact; x++)
            if (x != a && s->holding[x]) lost(s, x, e->t_us, "another client acquired it");
        s->acquiring[a] = 0;
        s->holding[a] = 1;
        s->held_since[a] = e->t_us;
        break;
    case H_ACQUIRE_FAILED:
        if (!client) break;
        s->acquiring[a] = 0;
        if (e->code == HO_REENTRY_FAILED) {
            buf b;
            buf_init(&b);
            put_t(&b, e->t_us);
            happened(s, TOUCH_REENTRY, "%s's re-entrant acquire failed at %s", name_of(s, a), b.p);
            buf_release(&b);
        } else if (e->code == HO_GAVE_UP) {
            for (int x = 0; x < s->nact; x++)
                if (x != a && s->holding[x]) {
                    buf b;
                    buf_init(&b);
                    put_t(&b, e->t_us);
                    happened(s, TOUCH_WAITER_GAVE_UP, "%s gave up at %s while %s held the lock", name_of(s, a), b.p,
                             name_of(s, x));
                    buf_release(&b);
                    break;
                }
        }
        break;
    case H_RELEASE:
        if (client) s->releasing[a] = 1, s->holding[a] = 0;
        break;
    case H_RELEASED:
    case H_END:
    case H_ERROR:
        if (client) s->releasing[a] = s->holding[a] = s->acquiring[a] = 0;
        break;
    case H_FAULT:
        fault_start(s, e);
        if (e->fault == FAULT_CRASH && client) s->releasing[a] = s->holding[a] = s->acquiring[a] = 0;
        break;
    case H_FAULT_END: fault_end(s, e); break;
    case H_REQUEST:
        if (client) on_request(s, e);
        break;
    case H_EXEC: on_exec(s, e); break;
    case H_DROP: on_drop(s, e); break;
    case H_KEY_SET:
    case H_KEY_DELETED:
    case H_KEY_EXPIRED: key_event(s, e); break;
    case H_KEYSPACE: keyspace(s, e); break;
    default: break;
    }
    if (e->kind != H_EXEC && e->kind != H_CALL && e->kind != H_KEY_SET && e->kind != H_KEY_DELETED &&
        e->kind != H_KEY_EXPIRED)
        s->exec_node = -1;
}

static void unseen(touch_result *r, property p, const char *why)
{
    r->observed[p] = 0;
    r->unseen[p] = xstrdup(why);
}

void touch_run(const history *h, const scenario *sc, touch_result *out)
{
    memset(out, 0, sizeof *out);
    tstate s = { .h = h, .sc = sc, .nact = (int)history_actors(h), .exec_node = -1, .exec_client = -1, .exec_t = -1,
                 .out = out };
    size_t n = (size_t)(s.nact > 0 ? s.nact : 1);
    s.acquiring = xcalloc(n, sizeof(int));
    s.holding = xcalloc(n, sizeof(int));
    s.releasing = xcalloc(n, sizeof(int));
    s.held_since = xcalloc(n, sizeof(int64_t));
    s.lost_at = xmalloc(n * sizeof(int64_t));
    for (size_t i = 0; i < n; i++) s.lost_at[i] = -1;
    unit_add(&s, sc->lock ? sc->lock : "lock", 0);
    int acquires = 0, acquired = 0, writes = 0;
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        acquires += e->kind == H_ACQUIRE;
        acquired += e->kind == H_ACQUIRED;
        writes += e->kind == H_WRITE;
        step(&s, e);
    }
    for (int p = 0; p < PROP_COUNT; p++) out->observed[p] = 1;
    if (!acquired) unseen(out, PROP_MUTUAL_EXCLUSION, "no client ever held the lock");
    if (!writes) unseen(out, PROP_RESOURCE_SAFETY, "no client wrote to the resource");
    if (!s.release_saw_lock)
        unseen(out, PROP_RELEASE_SAFETY,
               s.unit_events ? "no release ran on a node that stored the lock, nor changed an object of the lock unit"
                             : "no event of the lock unit at all: the server kind names no object the models declared as "
                               "the lock (ctx:lock_unit)");
    if (!acquires) unseen(out, PROP_NO_DEADLOCK, "no client tried to acquire the lock");
    if (!acquires) unseen(out, PROP_FAIRNESS, "no client tried to acquire the lock");
    if (!out->happened[TOUCH_REENTRY]) unseen(out, PROP_REENTRANCY, "no client took the lock again while holding it");
    else if (!s.unit_events)
        unseen(out, PROP_REENTRANCY, "no event of the lock unit: a release's deletion under an open hold cannot be seen");
    free(s.acquiring);
    free(s.holding);
    free(s.releasing);
    free(s.held_since);
    free(s.lost_at);
    free(s.unit);
    free(s.prefix);
    free(s.o);
    free(s.r);
    free(s.f);
}

void touch_free(touch_result *r)
{
    for (int k = 0; k < TOUCH_COUNT; k++) free(r->what[k]);
    for (int p = 0; p < PROP_COUNT; p++) free(r->unseen[p]);
    memset(r, 0, sizeof *r);
}
