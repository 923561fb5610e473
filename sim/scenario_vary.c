/* scenario_vary.c — set one named parameter of a loaded scenario (see scenario_vary.h).
 *
 * Resolution happens once and answers "does this scenario have that parameter?": gc_pause
 * needs a gc_pause fault, replication.lag needs replicas, restart_delay needs a node that
 * crashes, nodes needs a Redlock scenario whose masters are a count. Applying is a plain
 * assignment of the field(s), so applying value after value to the same struct is the same
 * as applying each to a fresh copy; only the node count, which rebuilds the node array, reads
 * the scenario as loaded (`base`).
 *
 * A value for all nodes never silently overrides what the scenario set per node: `drift` is
 * refused when the nodes' drifts differ (per_node clocks), since one value for every node
 * would erase the very difference the scenario is about; varying one node's is the way. */
#include "scenario_vary.h"
#include "kinds.h"
#include "scenario_int.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    K_FAULT_DURATION, K_FAULT_BY, K_DRIFT, K_RESTART_DELAY, K_REPL_LAG, K_NET_DELAY,
    K_LEASE, K_WAIT, K_TIMEOUT, K_WORK, K_NODES, K_SERVER_OPTION
};

const char vary_help[] =
    "  gc_pause            the duration of the first gc_pause fault (faults[N].duration: fault N)\n"
    "  clock_jump          `by` of the first clock_jump fault, signed (faults[N].by: fault N)\n"
    "  drift               the clock drift rate of every node (per_node.X.drift: node X);\n"
    "                      refused when the scenario gives its nodes different drifts\n"
    "  restart_delay       every node's restart delay after a crash (per_node.X.restart_delay)\n"
    "  replication.lag     a constant replication lag (needs replicas)\n"
    "  network.delay       a constant delay on every link that uses the network's delay\n"
    "  lease, wait, timeout  the scenario's lease, wait, and per-request timeout\n"
    "  work                every client's time in the critical section\n"
    "  nodes               the number of masters (Redlock, when the scenario gives a count)\n"
    "  server_options.X    the server kind's option X (server_options.ttl_monitor_first:\n"
    "                      where a MongoDB TTL monitor's passes fall)\n";

static int set_error(buf *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int set_error(buf *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_reset(err);
    buf_vprintf(err, fmt, ap);
    va_end(ap);
    return -1;
}

static int first_fault(const scenario *sc, fault_kind k)
{
    for (int i = 0; i < sc->nfaults; i++)
        if (sc->faults[i].kind == k) return i;
    return -1;
}

/* "faults[N].FIELD" → the 0-based fault index; -1 when name is not of that form; INT_MAX
 * when N is not a number from 1 (faults[0], faults[-1], faults[99999999999]): a fault the
 * scenario cannot have, which the caller reports as such. (sscanf's %d would be undefined
 * past INT_MAX.) */
static int fault_ref(const char *name, const char *field)
{
    if (strncmp(name, "faults[", 7) != 0) return -1;
    const char *p = name + 7, *close = strchr(p, ']');
    if (!close || close[1] != '.' || strcmp(close + 2, field) != 0) return -1;
    char *end;
    errno = 0;
    long n = strtol(p, &end, 10);
    if (end != close || p == close || errno || n < 1 || n > INT_MAX) return INT_MAX;
    return (int)(n - 1);
}

static int has_node_crash(const scenario *sc)
{
    for (int i = 0; i < sc->nfaults; i++)
        if (sc->faults[i].kind == FAULT_CRASH && scenario_node_index(sc, sc->faults[i].target) >= 0) return 1;
    return 0;
}

/* The masters are n1..nN in order: the scenario gave a count (or the same names by hand). */
static int masters_are_count(const scenario *sc)
{
    char name[16];
    for (int i = 0; i < sc->nmasters; i++) {
        snprintf(name, sizeof name, "n%d", i + 1);
        if (strcmp(sc->nodes[i].name, name) != 0) return 0;
    }
    return 1;
}

static int resolve_fault(const scenario *sc, const char *name, vary_target *t, buf *err)
{
    int idx;
    if ((idx = fault_ref(name, "duration")) >= 0 || !strcmp(name, "gc_pause")) {
        if (!strcmp(name, "gc_pause")) {
            idx = first_fault(sc, FAULT_GC_PAUSE);
            if (idx < 0)
                return set_error(err, "the scenario has no gc_pause fault; add one ({ at = \"1s\", gc_pause = \"A\", "
                                      "duration = \"12s\" }) or vary another parameter");
        } else if (idx >= sc->nfaults) {
            return set_error(err, "%s: the scenario has %d fault%s; number them from 1", name, sc->nfaults,
                             sc->nfaults == 1 ? "" : "s");
        } else if (sc->faults[idx].kind != FAULT_GC_PAUSE && sc->faults[idx].kind != FAULT_PARTITION &&
                   sc->faults[idx].kind != FAULT_DROP) {
            return set_error(err, "%s: fault %d is a %s, which has no duration (gc_pause, partition and drop do)",
                             name, idx + 1, fault_kind_name(sc->faults[idx].kind));
        }
        t->kind = K_FAULT_DURATION;
        t->index = idx;
        t->unit = VARY_DURATION;
        return 0;
    }
    if ((idx = fault_ref(name, "by")) >= 0 || !strcmp(name, "clock_jump")) {
        if (!strcmp(name, "clock_jump")) {
            idx = first_fault(sc, FAULT_CLOCK_JUMP);
            if (idx < 0)
                return set_error(err, "the scenario has no clock_jump fault; add one ({ at = \"3s\", clock_jump = \"n1\", "
                                      "by = \"20s\" }) or vary another parameter");
        } else if (idx >= sc->nfaults) {
            return set_error(err, "%s: the scenario has %d fault%s; number them from 1", name, sc->nfaults,
                             sc->nfaults == 1 ? "" : "s");
        } else if (sc->faults[idx].kind != FAULT_CLOCK_JUMP) {
            return set_error(err, "%s: fault %d is not a clock_jump (only clock jumps have `by`)", name, idx + 1);
        }
        t->kind = K_FAULT_BY;
        t->index = idx;
        t->unit = VARY_SIGNED_DURATION;
        return 0;
    }
    return 1; /* not a fault parameter */
}

static int resolve_per_node(const scenario *sc, const char *name, vary_target *t, buf *err)
{
    const char *dot = strrchr(name, '.');
    if (strncmp(name, "per_node.", 9) != 0 || !dot || dot < name + 9) return 1;
    char node[80];
    snprintf(node, sizeof node, "%.*s", (int)(dot - (name + 9)), name + 9);
    int idx = scenario_node_index(sc, node);
    if (idx < 0) return set_error(err, "%s: the scenario has no node named '%s'", name, node);
    if (!strcmp(dot + 1, "drift")) {
        t->kind = K_DRIFT;
        t->unit = VARY_RATE;
    } else if (!strcmp(dot + 1, "restart_delay")) {
        t->kind = K_RESTART_DELAY;
        t->unit = VARY_DURATION;
    } else {
        return set_error(err, "%s: a sweep can vary per_node.%s.drift or per_node.%s.restart_delay", name, node, node);
    }
    t->index = idx;
    return 0;
}

int vary_resolve(const scenario *sc, const char *name, vary_target *t, buf *err)
{
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->index = -1;
    if (!strncmp(name, "server_options.", 15)) {
        const server_kind *k = server_kind_find(sc->server ? sc->server : "redis");
        int n = k ? server_kind_noptions(k) : 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(k->options[i].name, name + 15) != 0) continue;
            t->kind = K_SERVER_OPTION;
            t->index = i;
            t->unit = k->options[i].duration ? VARY_DURATION : VARY_COUNT;
            return 0;
        }
        buf names;
        buf_init(&names);
        for (int i = 0; i < n; i++) buf_printf(&names, "%s%s", i ? ", " : "", k->options[i].name);
        set_error(err, "%s: the %s server has %s%s", name, k ? k->name : "?", n ? "the options " : "no options",
                  n ? names.p : "");
        buf_release(&names);
        return -1;
    }
    int r = resolve_fault(sc, name, t, err);
    if (r <= 0) return r;
    if ((r = resolve_per_node(sc, name, t, err)) <= 0) return r;
    static const struct { const char *name; int kind; vary_unit unit; } simple[] = {
        { "drift", K_DRIFT, VARY_RATE },           { "restart_delay", K_RESTART_DELAY, VARY_DURATION },
        { "replication.lag", K_REPL_LAG, VARY_DURATION }, { "network.delay", K_NET_DELAY, VARY_DURATION },
        { "lease", K_LEASE, VARY_DURATION },       { "wait", K_WAIT, VARY_DURATION },
        { "timeout", K_TIMEOUT, VARY_DURATION },   { "work", K_WORK, VARY_DURATION },
        { "nodes", K_NODES, VARY_COUNT },
    };
    for (size_t i = 0; i < LL_ARRAY_LEN(simple); i++) {
        if (strcmp(name, simple[i].name) != 0) continue;
        t->kind = simple[i].kind;
        t->unit = simple[i].unit;
        if (t->kind == K_REPL_LAG && sc->nnodes == sc->nmasters)
            return set_error(err, "replication.lag: the scenario has no replicas (set replicas = 1 or more)");
        if (t->kind == K_RESTART_DELAY && !has_node_crash(sc))
            return set_error(err, "restart_delay: no node crashes in this scenario, so it would change nothing; "
                                  "add a crash fault ({ at = \"1s\", crash = \"n1\" })");
        if (t->kind == K_LEASE && sc->lease_us < 0)
            return set_error(err, "lease: the scenario has no lease (lease = false: the watchdog renews it); "
                                  "give it a lease to vary");
        /* A client's own lease or wait hides the scenario's: when every client has one, the
         * sweep would vary nothing and report a flat line as a finding. */
        if (t->kind == K_LEASE || t->kind == K_WAIT) {
            int follows = 0;
            for (int c = 0; c < sc->nclients; c++)
                follows |= (t->kind == K_LEASE ? sc->clients[c].lease_us : sc->clients[c].wait_us) == -1;
            if (!follows)
                return set_error(err, "%s: every client sets its own %s, so the scenario's changes nothing; "
                                      "remove it from a client to vary it", t->name, t->name);
        }
        if (t->kind == K_DRIFT) {
            for (int k = 1; k < sc->nnodes; k++)
                if (sc->nodes[k].clock.drift != sc->nodes[0].clock.drift)
                    return set_error(err, "drift: the scenario gives its nodes different clock drifts (%s %g, %s %g), "
                                          "which one value would override; vary per_node.%s.drift instead",
                                     sc->nodes[0].name, sc->nodes[0].clock.drift, sc->nodes[k].name,
                                     sc->nodes[k].clock.drift, sc->nodes[k].name);
        }
        if (t->kind == K_NODES && strcmp(sc->mode, "redlock") != 0)
            return set_error(err, "nodes: a \"%s\" scenario has exactly one master; vary nodes in a redlock scenario",
                             sc->mode);
        if (t->kind == K_NODES && !masters_are_count(sc))
            return set_error(err, "nodes: the scenario names its masters (%s, ...); nodes can vary only when it "
                                  "gives a count (nodes = 5)", sc->nodes[0].name);
        return 0;
    }
    return set_error(err, "unknown parameter '%s' (see 'locklab sweep --help' for the list)", name);
}

/* ------------------------------------------------------------------------------------ */
/* Values                                                                                 */

int vary_parse_value(const vary_target *t, const char *text, double *out, buf *err)
{
    char *end;
    int64_t us;
    int rc;
    switch (t->unit) {
    case VARY_DURATION:
    case VARY_SIGNED_DURATION:
        rc = scenario_parse_signed_duration(text, &us);
        if (rc == -2) return set_error(err, "%s: \"%s\" is too large (at most about 31 years)", t->name, text);
        if (rc != 0)
            return set_error(err, "%s: bad duration \"%s\" (write ms or a number with a unit: \"250ms\", \"10s\")",
                             t->name, text);
        if (t->unit == VARY_DURATION && us < 0) return set_error(err, "%s: \"%s\" is negative", t->name, text);
        if (t->unit == VARY_SIGNED_DURATION && us % 1000 != 0)
            return set_error(err, "%s: \"%s\" is not a whole number of milliseconds (clock jumps are)", t->name, text);
        *out = (double)us;
        return 0;
    case VARY_RATE:
        *out = strtod(text, &end);
        if (end == text || *end || !isfinite(*out))
            return set_error(err, "%s: \"%s\" is not a number (write a rate such as 0.005)", t->name, text);
        return 0;
    case VARY_COUNT:
        *out = strtod(text, &end);
        if (end == text || *end || *out != floor(*out) || *out < 1 || *out > MAX_MASTERS)
            return set_error(err, "%s: \"%s\" is not a whole number from 1 to %d", t->name, text, MAX_MASTERS);
        return 0;
    }
    return set_error(err, "internal: unknown unit");
}

/* Drops the last few bits of floating-point noise (0.1 + 2*0.1): values print and compare
 * as the user wrote them. */
static double tidy(double v)
{
    char s[40];
    snprintf(s, sizeof s, "%.12g", v);
    return strtod(s, NULL);
}

int vary_parse_range(const vary_target *t, const char *range, int max_points, double **values, int *n, buf *err)
{
    char part[3][64];
    const char *p = range;
    int k = 0;
    for (; k < 3; k++) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len == 0 || len >= sizeof part[k] || (k < 2 && !colon) || (k == 2 && colon))
            return set_error(err, "%s: the range \"%s\" is not FROM:TO:STEP (e.g. %s)", t->name, range,
                             t->unit == VARY_RATE ? "0:0.02:0.001" : t->unit == VARY_COUNT ? "3:9:2" : "5s:15s:1s");
        memcpy(part[k], p, len);
        part[k][len] = 0;
        p = colon ? colon + 1 : p + len;
    }
    double from, to, step;
    if (vary_parse_value(t, part[0], &from, err) || vary_parse_value(t, part[1], &to, err)) return -1;
    vary_target st = *t;
    if (st.unit == VARY_SIGNED_DURATION) st.unit = VARY_DURATION;
    if (st.unit == VARY_COUNT) {
        char *end;
        step = strtod(part[2], &end);
        if (end == part[2] || *end || step != floor(step)) return set_error(err, "%s: the step \"%s\" is not a whole number", t->name, part[2]);
    } else if (part[2][0] == '-') {
        return set_error(err, "%s: the step %s is not positive; write FROM:TO:STEP with FROM ≤ TO and STEP > 0", t->name, part[2]);
    } else if (vary_parse_value(&st, part[2], &step, err)) {
        return -1;
    }
    if (!(step > 0))
        return set_error(err, "%s: the step %s is not positive; write FROM:TO:STEP with FROM ≤ TO and STEP > 0", t->name, part[2]);
    if (from > to)
        return set_error(err, "%s: FROM %s is greater than TO %s; write FROM:TO:STEP with FROM ≤ TO", t->name, part[0], part[1]);
    double count = floor((to - from) / step + 1e-9) + 1;
    if (count > max_points)
        return set_error(err, "%s: %s:%s:%s gives %.0f points, more than %d; use a larger step or a narrower range",
                         t->name, part[0], part[1], part[2], count, max_points);
    *n = (int)count;
    *values = xmalloc((size_t)*n * sizeof **values);
    for (int i = 0; i < *n; i++) {
        double v = from + i * step;
        (*values)[i] = t->unit == VARY_RATE ? tidy(v) : v; /* µs and counts are exact */
    }
    return 0;
}

void vary_format(const vary_target *t, double value, buf *out)
{
    if (t->unit == VARY_RATE || t->unit == VARY_COUNT) {
        buf_printf(out, "%.12g", value);
        return;
    }
    long long us = llround(value), mag = us < 0 ? -us : us;
    const char *sign = us < 0 ? "-" : "";
    if (mag == 0) buf_puts(out, "0");
    else if (mag % 1000 != 0) buf_printf(out, "%s%lldus", sign, mag);
    else if (mag < 1000000) buf_printf(out, "%s%lldms", sign, mag / 1000);
    else if (mag % 1000000 == 0) buf_printf(out, "%s%llds", sign, mag / 1000000);
    else {
        char s[32];
        int len = snprintf(s, sizeof s, "%lld.%03lld", mag / 1000000, mag / 1000 % 1000);
        while (s[len - 1] == '0') s[--len] = 0;
        buf_printf(out, "%s%ss", sign, s);
    }
}

/* ------------------------------------------------------------------------------------ */
/* Applying                                                                               */

static int actor_known(const scenario *sc, const char *name)
{
    return !name || scenario_node_index(sc, name) >= 0 || scenario_client_index(sc, name) >= 0;
}

/* After the node set changed: every actor a fault or link names still exists. */
static int check_references(const scenario *sc, const char *what, buf *err)
{
    for (int i = 0; i < sc->nfaults; i++) {
        const fault_cfg *f = &sc->faults[i];
        const char *missing = !actor_known(sc, f->target) ? f->target : !actor_known(sc, f->from) ? f->from
                            : !actor_known(sc, f->to) ? f->to : NULL;
        for (int g = 0; !missing && f->groups && g < f->ngroups; g++)
            for (int j = 0; !missing && f->groups[g][j]; j++)
                if (!actor_known(sc, f->groups[g][j])) missing = f->groups[g][j];
        if (missing)
            return set_error(err, "%s: fault %d (%s) names '%s', which does not exist then", what, i + 1,
                             fault_kind_name(f->kind), missing);
    }
    for (int i = 0; i < sc->nlinks; i++)
        if (!actor_known(sc, sc->links[i].from) || !actor_known(sc, sc->links[i].to))
            return set_error(err, "%s: the link %s-%s names a node that does not exist then", what, sc->links[i].from,
                             sc->links[i].to);
    return 0;
}

static void copy_node(node_cfg *dst, const node_cfg *src, const char *name, int master)
{
    *dst = *src;
    dst->name = xstrdup(name);
    dst->master = master;
}

/* Rebuilds the node array with `masters` masters n1..nN and the base's replicas per master.
 * A node the base has keeps its settings; a new one takes those of n1 (or n1's replica). */
static int set_masters(scenario *sc, const scenario *base, int masters, const char *what, buf *err)
{
    int replicas = (base->nnodes - base->nmasters) / base->nmasters;
    int nnodes = masters * (1 + replicas);
    node_cfg *nodes = xcalloc((size_t)nnodes, sizeof *nodes);
    char name[48];
    for (int i = 0; i < masters; i++) {
        snprintf(name, sizeof name, "n%d", i + 1);
        copy_node(&nodes[i], &base->nodes[i < base->nmasters ? i : 0], name, -1);
        for (int r = 0; r < replicas; r++) {
            int from = base->nmasters + (i < base->nmasters ? i : 0) * replicas + r;
            snprintf(name, sizeof name, "n%dr%d", i + 1, r + 1);
            copy_node(&nodes[masters + i * replicas + r], &base->nodes[from], name, i);
        }
    }
    for (int i = 0; i < sc->nnodes; i++) free(sc->nodes[i].name);
    free(sc->nodes);
    sc->nodes = nodes;
    sc->nnodes = nnodes;
    sc->nmasters = masters;
    for (int i = 0; i < nnodes; i++)
        if (scenario_client_index(sc, nodes[i].name) >= 0)
            return set_error(err, "%s: the node name '%s' is a client's name", what, nodes[i].name);
    return check_references(sc, what, err);
}

static int dist_eq(dist a, dist b)
{
    return a.kind == b.kind && a.a_us == b.a_us && a.b_us == b.b_us;
}

int vary_apply(scenario *sc, const scenario *base, const vary_target *t, double value, buf *err)
{
    buf shown;
    buf_init(&shown);
    vary_format(t, value, &shown);
    char what[160];
    snprintf(what, sizeof what, "%s=%s", t->name, shown.p);
    buf_release(&shown);
    int64_t us = (int64_t)llround(value);
    dist constant = { DIST_CONST, us, us };
    switch (t->kind) {
    case K_FAULT_DURATION:
        if (sc->faults[t->index].kind == FAULT_PARTITION && us <= 0)
            return set_error(err, "%s: a partition lasts longer than 0", what);
        sc->faults[t->index].duration_us = us;
        return 0;
    case K_FAULT_BY:
        sc->faults[t->index].jump_ms = us / 1000;
        return 0;
    case K_DRIFT:
        if (value < -0.5 || value > 1) return set_error(err, "%s: a drift rate is between -0.5 and 1", what);
        for (int i = 0; i < sc->nnodes; i++)
            if (t->index < 0 || t->index == i) sc->nodes[i].clock.drift = value;
        return 0;
    case K_RESTART_DELAY:
        for (int i = 0; i < sc->nnodes; i++)
            if (t->index < 0 || t->index == i) sc->nodes[i].restart_delay_us = us;
        return 0;
    case K_REPL_LAG:
        sc->repl_lag = constant;
        return 0;
    case K_NET_DELAY:
        /* links that took the network's delay follow it; those with their own keep it. The
         * replication stream is such a link: its lag defaults to the network's delay. */
        for (int i = 0; i < sc->nlinks && i < base->nlinks; i++)
            if (dist_eq(base->links[i].delay, base->delay)) sc->links[i].delay = constant;
        if (dist_eq(base->repl_lag, base->delay)) sc->repl_lag = constant;
        sc->delay = constant;
        return 0;
    case K_LEASE:
    case K_WAIT:
    case K_TIMEOUT:
        if (us <= 0 && t->kind != K_WAIT) return set_error(err, "%s: the %s must be longer than 0", what, t->name);
        *(t->kind == K_LEASE ? &sc->lease_us : t->kind == K_WAIT ? &sc->wait_us : &sc->timeout_us) = us;
        return 0;
    case K_WORK:
        for (int i = 0; i < sc->nclients; i++) sc->clients[i].work_us = us;
        return 0;
    case K_NODES:
        return set_masters(sc, base, (int)value, what, err);
    case K_SERVER_OPTION: {
        const kind_option *o = &server_kind_find(sc->server ? sc->server : "redis")->options[t->index];
        int64_t v = o->duration ? us / 1000 : (int64_t)llround(value);
        if (v < o->lo || v > o->hi)
            return set_error(err, "%s: %s is from %lld to %lld%s", what, t->name, (long long)o->lo, (long long)o->hi,
                             o->duration ? " ms" : "");
        sc->server_options[t->index] = v;
        return 0;
    }
    }
    return set_error(err, "internal: unknown parameter kind");
}

double vary_get(const scenario *sc, const vary_target *t)
{
    const node_cfg *n = &sc->nodes[t->index >= 0 ? t->index : 0];
    switch (t->kind) {
    case K_FAULT_DURATION: return sc->faults[t->index].duration_us < 0 ? NAN : (double)sc->faults[t->index].duration_us;
    case K_FAULT_BY: return (double)sc->faults[t->index].jump_ms * 1000.0;
    case K_DRIFT:
    case K_RESTART_DELAY:
        for (int i = 0; t->index < 0 && i < sc->nnodes; i++)
            if (t->kind == K_DRIFT ? sc->nodes[i].clock.drift != n->clock.drift
                                   : sc->nodes[i].restart_delay_us != n->restart_delay_us)
                return NAN;
        if (t->kind == K_DRIFT) return n->clock.drift;
        return n->restart_delay_us < 0 ? NAN : (double)n->restart_delay_us;
    case K_REPL_LAG: return sc->repl_lag.kind == DIST_CONST ? (double)sc->repl_lag.a_us : NAN;
    case K_NET_DELAY: return sc->delay.kind == DIST_CONST ? (double)sc->delay.a_us : NAN;
    case K_LEASE: return (double)sc->lease_us;
    case K_WAIT: return (double)sc->wait_us;
    case K_TIMEOUT: return (double)sc->timeout_us;
    case K_WORK:
        for (int i = 1; i < sc->nclients; i++)
            if (sc->clients[i].work_us != sc->clients[0].work_us) return NAN;
        return (double)sc->clients[0].work_us;
    case K_NODES: return sc->nmasters;
    case K_SERVER_OPTION: {
        const kind_option *o = &server_kind_find(sc->server ? sc->server : "redis")->options[t->index];
        return o->duration ? (double)sc->server_options[t->index] * 1000.0 : (double)sc->server_options[t->index];
    }
    }
    return NAN;
}
