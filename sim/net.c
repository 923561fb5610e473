/* net.c — links, partitions and messages in flight (see net.h).
 *
 * A link is a cell of an nactors × nactors table: its delay distribution, its loss (which a
 * lossy-link fault changes for a while: base_loss is the scenario's), and the time its last
 * message arrives, which no later message on it may precede.
 *
 * A partition loses what it cuts, or, under network.partitions = "tcp", holds a client's
 * segments (requests, replies, pushes; not replication) on their link, in order, until it
 * heals: they then go at TCP's first retransmission after the heal (Linux's backoff from
 * the first held segment's sending: 200 ms doubling, at most 120 s), or, when TCP gave up
 * before (tcp_retries2 retransmissions), are lost and the connection is reset (net_on_reset).
 * Simplification: the give-up is noticed when the cut heals, not at its own instant. */
#include "net.h"

#include <stdlib.h>
#include <string.h>

#include "server_kind.h"

typedef struct link_state {
    dist delay;
    double loss, base_loss;
    int64_t last_delivery;
    int last_dec;          /* exploring: the window decision the last delivery moves with, or -1 */
    /* network.partitions = "tcp": segments a cut holds, in order, the first sent at since */
    msg **held;
    int nheld, capheld;
    int64_t since;
} link_state;

typedef struct partition {
    int fault;
    int *group_of;         /* per actor: group index or -1 */
} partition;

struct net {
    core *cx;
    link_state *links;
    partition *partitions;
    int npartitions;
    void (*reset)(void *ud, int from, int to); /* TCP gave up on the link from → to */
    void *reset_ud;
    char *host_down;       /* per actor: its host vanished (net_set_host_down) */
    char *cuttable;        /* per pair of actors (from * nactors + to): a partition of the
                              scenario, or any when the search injects partitions, separates
                              them (net_partitioned marks a step that asks: core.cut_read) */
};

static link_state *link_of(net *n, int from, int to)
{
    return &n->links[from * n->cx->nactors + to];
}

msg *msg_new(msg_kind kind, int from, int to, size_t tail)
{
    msg *m = xcalloc(1, sizeof *m + tail);
    m->kind = kind;
    m->from = from;
    m->to = to;
    return m;
}

void msg_free(msg *m)
{
    if (!m) return;
    free(m->argv);
    free(m->bytes);
    free(m->label);
    free(m->script);
    if (m->body && m->kind == MSG_REPLY) m->sk->reply_release(m->body);
    if (m->body && m->kind == MSG_REPL) m->sk->change_free(m->body);
    free(m);
}

const char *msg_kind_name(msg_kind k)
{
    switch (k) {
    case MSG_REQUEST: return "request";
    case MSG_REPLY: return "reply";
    case MSG_PUBSUB: return "message";
    case MSG_REPL: return "replication";
    case MSG_REPL_ACK: return "replication ack";
    }
    return "?";
}

net *net_new(core *cx, int max_partitions)
{
    const scenario *sc = cx->sc;
    int na = cx->nactors;
    net *n = xcalloc(1, sizeof *n);
    n->cx = cx;
    n->partitions = xcalloc((size_t)max_partitions + 1, sizeof *n->partitions);
    n->links = xcalloc((size_t)na * (size_t)na, sizeof *n->links);
    n->host_down = xcalloc((size_t)na + 1, 1);
    n->cuttable = xcalloc((size_t)na * (size_t)na + 1, 1);
    int searched = 0;
    for (int i = 0; i < sc->explore.nfaults; i++) searched |= sc->explore.faults[i].kind == FAULT_PARTITION;
    if (searched) memset(n->cuttable, 1, (size_t)na * (size_t)na);
    for (int i = 0; i < sc->nfaults && !searched; i++) {
        const fault_cfg *f = &sc->faults[i];
        if (f->kind != FAULT_PARTITION) continue;
        for (int g = 0; g < f->ngroups; g++)
            for (char **x = f->groups[g]; *x; x++)
                for (int h = 0; h < f->ngroups; h++)
                    for (char **y = f->groups[h]; *y && h != g; y++) {
                        int a = core_actor(cx, *x), b = core_actor(cx, *y);
                        if (a >= 0 && b >= 0) n->cuttable[a * na + b] = 1;
                    }
    }
    for (int i = 0; i < na * na; i++) {
        n->links[i].delay = sc->delay;
        n->links[i].loss = n->links[i].base_loss = sc->loss;
        n->links[i].last_dec = -1;
    }
    for (int i = 0; i < sc->nlinks; i++) {
        const link_cfg *lc = &sc->links[i];
        int a = core_actor(cx, lc->from), b = core_actor(cx, lc->to);
        if (a < 0 || b < 0) continue;
        link_state *x = link_of(n, a, b), *y = link_of(n, b, a);
        x->delay = y->delay = lc->delay;
        x->loss = x->base_loss = y->loss = y->base_loss = lc->loss;
    }
    return n;
}

void net_free(net *n)
{
    if (!n) return;
    for (int i = 0; i < n->cx->nactors * n->cx->nactors; i++) {
        for (int k = 0; k < n->links[i].nheld; k++) msg_free(n->links[i].held[k]);
        free(n->links[i].held);
    }
    for (int i = 0; i < n->npartitions; i++) free(n->partitions[i].group_of);
    free(n->partitions);
    free(n->links);
    free(n->host_down);
    free(n->cuttable);
    free(n);
}

/* An actor named in no group of a partition keeps talking to everyone. */
int net_partitioned(const net *n, int a, int b)
{
    if (n->cx->explore && n->cuttable[a * n->cx->nactors + b]) n->cx->cut_read = 1;
    for (int i = 0; i < n->npartitions; i++) {
        const int *g = n->partitions[i].group_of;
        if (g[a] >= 0 && g[b] >= 0 && g[a] != g[b]) return 1;
    }
    return 0;
}

void net_set_host_down(net *n, int actor, int down)
{
    if (actor >= 0 && actor < n->cx->nactors) n->host_down[actor] = (char)down;
}

int net_reachable(const net *n, int a, int b)
{
    if (n->host_down[a] || n->host_down[b] || net_partitioned(n, a, b)) return 0;
    const link_state *x = &n->links[a * n->cx->nactors + b], *y = &n->links[b * n->cx->nactors + a];
    return x->loss < 1 && y->loss < 1;
}

void net_partition(net *n, int fault, int *group_of)
{
    partition *p = &n->partitions[n->npartitions++];
    p->fault = fault;
    p->group_of = group_of;
}

static void deliver(net *n, link_state *l, msg *m, int64_t from_time);

/* TCP's retransmission timer (Linux): the first retransmission one RTO after the segment was
 * sent (at least TCP_RTO_MIN, 200 ms), each next one twice as late, at most TCP_RTO_MAX (120
 * s) apart; after tcp_retries2 retransmissions the next timeout gives up ("a hypothetical
 * timeout of 924.6 seconds" for 15: ip-sysctl.rst). The k-th retransmission comes
 * rto_sum(k) µs after the first sending; rto_sum(retries2 + 1) is when TCP gives up. */
static int64_t rto_sum(int k)
{
    int64_t s = 0, rto = 200000;
    for (int i = 0; i < k; i++) {
        s += rto;
        rto = rto * 2 > 120000000 ? 120000000 : rto * 2;
    }
    return s;
}

int net_tcp(const net *n, const msg *m)
{
    return n->cx->sc->tcp_partitions && (m->kind == MSG_REQUEST || m->kind == MSG_REPLY || m->kind == MSG_PUBSUB);
}

void net_hold(net *n, msg *m)
{
    link_state *l = link_of(n, m->from, m->to);
    if (!l->nheld) l->since = n->cx->now_us;
    if (l->nheld == l->capheld) l->held = xrealloc(l->held, (size_t)(l->capheld = l->capheld ? l->capheld * 2 : 4) * sizeof *l->held);
    l->held[l->nheld++] = m;
}

void net_on_reset(net *n, void (*fn)(void *ud, int from, int to), void *ud)
{
    n->reset = fn;
    n->reset_ud = ud;
}

/* A cut that held segments on link a → b is gone: they go at TCP's next retransmission, in
 * order, or, when TCP gave up before, the connection is reset and they are lost. */
static void release_link(net *n, int a, int b)
{
    link_state *l = link_of(n, a, b);
    if (!l->nheld || net_partitioned(n, a, b)) return;
    core *cx = n->cx;
    int retries = cx->sc->tcp_retries2;
    int64_t at = -1;
    for (int k = 1; k <= retries && at < 0; k++)
        if (l->since + rto_sum(k) >= cx->now_us) at = l->since + rto_sum(k);
    msg **held = l->held;
    int nheld = l->nheld;
    l->held = NULL;
    l->nheld = l->capheld = 0;
    if (at < 0) {
        for (int i = 0; i < nheld; i++) {
            net_note_drop(n, held[i], HL_TCP_RESET);
            msg_free(held[i]);
        }
        if (n->reset) n->reset(n->reset_ud, a, b);
    } else {
        for (int i = 0; i < nheld; i++) deliver(n, l, held[i], at);
    }
    free(held);
}

void net_heal(net *n, int fault)
{
    for (int i = 0; i < n->npartitions; i++) {
        if (n->partitions[i].fault != fault) continue;
        free(n->partitions[i].group_of);
        n->partitions[i] = n->partitions[--n->npartitions];
        break;
    }
    for (int a = 0; a < n->cx->nactors; a++)
        for (int b = 0; b < n->cx->nactors; b++) release_link(n, a, b);
}

void net_set_loss(net *n, int a, int b, double probability)
{
    link_state *x = link_of(n, a, b), *y = link_of(n, b, a);
    x->loss = probability < 0 ? x->base_loss : probability;
    y->loss = probability < 0 ? y->base_loss : probability;
}

/* A message's delay. While exploring, a delay that is a decision is described to the
 * explorer, and the delivery it times is tagged with it. */
static int64_t draw_delay(core *cx, const dist *d)
{
    size_t before = core_decisions_made(cx);
    int64_t v = d->a_us;
    switch (d->kind) {
    case DIST_CONST: return d->a_us;
    case DIST_UNIFORM: v = chooser_range(cx->ch, d->a_us, d->b_us, "delay"); break;
    case DIST_EXP: v = chooser_exponential(cx->ch, d->a_us, "delay"); break;
    }
    core_window_decision(cx, before, 1);
    return v;
}

/* m leaves at from_time and arrives a link delay later, after what went before it. */
static void deliver(net *n, link_state *l, msg *m, int64_t from_time)
{
    core *cx = n->cx;
    size_t dec = core_decisions_made(cx);
    int64_t d = draw_delay(cx, m->kind == MSG_REPL ? &cx->sc->repl_lag : &l->delay);
    int64_t at = from_time + (d < 0 ? 0 : d);
    int own = core_decisions_made(cx) == dec + 1 && cx->explore ? (int)dec : -1;
    m->held_dec = -1;
    if (at < l->last_delivery) { /* FIFO per link, like TCP: held behind the one before */
        core_window_held(cx, dec, l->last_delivery - at);
        at = l->last_delivery;
        m->held_dec = l->last_dec; /* and it moves when that one does */
    }
    l->last_dec = own >= 0 ? own : m->held_dec;
    l->last_delivery = at;
    sched_push(cx->q, at, EV_DELIVER, m->to, 0, m);
}

void net_send(net *n, msg *m)
{
    core *cx = n->cx;
    link_state *l = link_of(n, m->from, m->to);
    if (net_tcp(n, m) && (l->nheld || net_partitioned(n, m->from, m->to))) {
        net_hold(n, m); /* behind the segments TCP retransmits: in order */
        return;
    }
    if (net_partitioned(n, m->from, m->to)) {
        net_note_drop(n, m, HL_PARTITION);
        msg_free(m);
        return;
    }
    double loss = l->loss;
    if (loss > 0 && chooser_chance(cx->ch, loss, "loss")) {
        net_note_drop(n, m, HL_LOSS);
        msg_free(m);
        return;
    }
    deliver(n, l, m, cx->now_us);
}

void net_note_drop(net *n, const msg *m, hist_loss why)
{
    static const hist_msg lost[] = { [MSG_REQUEST] = HM_REQUEST, [MSG_REPLY] = HM_REPLY, [MSG_PUBSUB] = HM_MESSAGE,
                                     [MSG_REPL] = HM_REPLICATION, [MSG_REPL_ACK] = HM_REPLICATION_ACK };
    core *cx = n->cx;
    hist_event *e = history_add(cx->hist, cx->now_us, H_DROP, m->from, core_local(cx, m->from));
    e->peer = m->to;
    e->msg = (int)lost[m->kind];
    e->code = (int)why;
    e->label = m->label ? xstrdup(m->label) : NULL;
    history_set_text(e, "%s %s lost (%s)", msg_kind_name(m->kind), m->label ? m->label : "", hist_loss_name(why));
}
