/* latency.c — LATENCY (Redis 7.0.15's latency.c and its per-command histograms).
 *
 * The latency monitor: with latency-monitor-threshold N ms (0: off, the default), a command
 * that took N ms or more is an event "command" (or "fast-command" for the fast ones), an
 * active expiry pass that did is "expire-cycle"; each event keeps its last 160 samples (one
 * per second, the worst of that second: time, ms) and its worst ever. LATEST, HISTORY, RESET,
 * DOCTOR (Redis's opening lines and one line per event; not its advice paragraphs), GRAPH
 * (the samples as lines of "time latency", not Redis's ASCII art).
 * The per-command histograms (latency-tracking yes, the default): each command's (and
 * subcommand's) calls and durations, in power-of-two buckets from 1,024 ns, which LATENCY
 * HISTOGRAM answers as Redis's hdr_iter_log walk does (cumulative counts by upper bound in
 * µs); CONFIG RESETSTAT empties them. Durations are read on the server's elapsed clock
 * (server_config's elapsed_us: real time in locklab serve, none elsewhere). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands.h"
#include "server.h"
#include "serverint.h"

#define LATENCY_TS_LEN 160
#define HIST_BUCKETS 40

struct lat_event {
    char name[24];
    struct { long long time, latency; } samples[LATENCY_TS_LEN];
    int idx;
    long long max;
};

struct lat_hist {
    char *name; /* "set", "client|id" */
    long long calls;
    long long bucket[HIST_BUCKETS]; /* bucket k: up to 1024 << k ns */
};

struct latency {
    struct lat_event *events;
    size_t nevents;
    struct lat_hist *hist;
    size_t nhist, caphist;
};

static struct latency *lat_of(server *srv)
{
    if (!srv->lat) srv->lat = xcalloc(1, sizeof *srv->lat);
    return srv->lat;
}

void latency_free(server *srv)
{
    if (!srv->lat) return;
    for (size_t i = 0; i < srv->lat->nhist; i++) free(srv->lat->hist[i].name);
    free(srv->lat->hist);
    free(srv->lat->events);
    free(srv->lat);
    srv->lat = NULL;
}

void latency_reset_histograms(server *srv)
{
    if (!srv->lat) return;
    for (size_t i = 0; i < srv->lat->nhist; i++) free(srv->lat->hist[i].name);
    free(srv->lat->hist);
    srv->lat->hist = NULL;
    srv->lat->nhist = srv->lat->caphist = 0;
}

static long long unix_now(server *srv)
{
    return srv->cfg.clock ? srv->cfg.clock(srv->cfg.clock_ud) / 1000 : 0;
}

/* latencyAddSample */
void latency_add_sample(server *srv, const char *event, long long ms)
{
    struct latency *l = lat_of(srv);
    struct lat_event *ts = NULL;
    for (size_t i = 0; i < l->nevents; i++)
        if (!strcmp(l->events[i].name, event)) ts = &l->events[i];
    if (!ts) {
        l->events = xrealloc(l->events, (l->nevents + 1) * sizeof *l->events);
        ts = &l->events[l->nevents++];
        memset(ts, 0, sizeof *ts);
        snprintf(ts->name, sizeof ts->name, "%s", event);
    }
    long long now = unix_now(srv);
    if (ms > ts->max) ts->max = ms;
    int prev = (ts->idx + LATENCY_TS_LEN - 1) % LATENCY_TS_LEN;
    if (ts->samples[prev].time == now) {
        if (ms > ts->samples[prev].latency) ts->samples[prev].latency = ms;
        return;
    }
    ts->samples[ts->idx].time = now;
    ts->samples[ts->idx].latency = ms;
    ts->idx = (ts->idx + 1) % LATENCY_TS_LEN;
}

/* A command ran for `us` µs: its histogram, and the monitor's event if past the threshold. */
void latency_command(server *srv, const command *cmd, int argc, const slice *argv, long long us)
{
    if (srv->latency_threshold > 0 && us / 1000 >= srv->latency_threshold)
        latency_add_sample(srv, (cmd->flags & CMD_FAST) ? "fast-command" : "command", us / 1000);
    if (!srv->latency_tracking) return;
    char name[64];
    size_t n = strlen(cmd->name);
    memcpy(name, cmd->name, n + 1);
    if (argc >= 2 && command_is_container(cmd) && argv[1].len < sizeof name - n - 1) {
        name[n] = '|';
        for (size_t i = 0; i < argv[1].len; i++) name[n + 1 + i] = (char)tolower((unsigned char)argv[1].p[i]);
        name[n + 1 + argv[1].len] = '\0';
    }
    struct latency *l = lat_of(srv);
    struct lat_hist *h = NULL;
    for (size_t i = 0; i < l->nhist && !h; i++)
        if (!strcmp(l->hist[i].name, name)) h = &l->hist[i];
    if (!h) {
        if (l->nhist == l->caphist) {
            l->caphist = l->caphist ? 2 * l->caphist : 16;
            l->hist = xrealloc(l->hist, l->caphist * sizeof *l->hist);
        }
        h = &l->hist[l->nhist++];
        memset(h, 0, sizeof *h);
        h->name = xstrdup(name);
    }
    long long ns = us * 1000;
    int k = 0;
    while (k < HIST_BUCKETS - 1 && ns > (1024LL << k)) k++;
    h->calls++;
    h->bucket[k]++;
}

static void hist_reply(const struct lat_hist *h, reply *out)
{
    reply *m = reply_array(out, 4);
    reply_tag(out, R3_MAP);
    reply_bulk_cstr(&m[0], "calls");
    reply_int(&m[1], h->calls);
    reply_bulk_cstr(&m[2], "histogram_usec");
    size_t nb = 0;
    for (int k = 0; k < HIST_BUCKETS; k++) nb += h->bucket[k] > 0;
    reply *b = reply_array(&m[3], 2 * nb);
    reply_tag(&m[3], R3_MAP);
    long long cum = 0;
    size_t at = 0;
    for (int k = 0; k < HIST_BUCKETS; k++) {
        if (!h->bucket[k]) continue;
        cum += h->bucket[k];
        reply_int(&b[at++], (1024LL << k) / 1000);
        reply_int(&b[at++], cum);
    }
}

static void latency_histogram(cmdctx *c)
{
    struct latency *l = lat_of(c->srv);
    char *pick = xcalloc(l->nhist + 1, 1);
    size_t n = 0;
    for (size_t i = 0; i < l->nhist; i++) {
        int want = c->argc == 2;
        for (int j = 2; j < c->argc && !want; j++) {
            slice a = c->argv[j];
            const char *name = l->hist[i].name, *bar = strchr(name, '|');
            size_t base = bar ? (size_t)(bar - name) : strlen(name);
            /* a name, or a container's name (all its subcommands) */
            if ((a.len == strlen(name) && slice_opt_is(a, name)) ||
                (bar && a.len == base && !strncasecmp(a.p, name, base)))
                want = 1;
        }
        if (want) pick[i] = 1, n++;
    }
    reply *m = reply_array(c->out, 2 * n);
    reply_tag(c->out, R3_MAP);
    size_t at = 0;
    for (size_t i = 0; i < l->nhist; i++) {
        if (!pick[i]) continue;
        reply_bulk_cstr(&m[at++], l->hist[i].name);
        hist_reply(&l->hist[i], &m[at++]);
    }
    free(pick);
}

static const char *const latency_help[] = {
    "LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "DOCTOR",
    "    Return a human readable latency analysis report.",
    "GRAPH <event>",
    "    Return an ASCII latency graph for the <event> class.",
    "HISTORY <event>",
    "    Return time-latency samples for the <event> class.",
    "LATEST",
    "    Return the latest latency samples for all events.",
    "RESET [<event> ...]",
    "    Reset latency data of one or more <event> classes.",
    "    (default: reset all data for all event classes)",
    "HISTOGRAM [COMMAND ...]",
    "    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.",
    "    If no commands are specified then all histograms are replied.",
    "HELP",
    "    Prints this help.",
};

static struct lat_event *event_named(struct latency *l, slice name)
{
    for (size_t i = 0; i < l->nevents; i++)
        if (name.len == strlen(l->events[i].name) && !memcmp(name.p, l->events[i].name, name.len)) return &l->events[i];
    return NULL;
}

static void latency_doctor(cmdctx *c, buf *r)
{
    struct latency *l = lat_of(c->srv);
    if (c->srv->latency_threshold == 0 && l->nevents == 0) {
        buf_puts(r, "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis instance. You may "
                    "use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in order to enable it. If we weren't "
                    "in a deep space mission I'd suggest to take a look at https://redis.io/topics/latency-monitor.\n");
        return;
    }
    if (l->nevents == 0) {
        buf_puts(r, "Dave, no latency spike was observed during the lifetime of this Redis instance, not in the "
                    "slightest bit. I honestly think you ought to sit down calmly, take a stress pill, and think "
                    "things over.\n");
        return;
    }
    buf_puts(r, "Dave, I have observed latency spikes in this Redis instance. You don't mind talking about it, do you "
                "Dave?\n\n");
    for (size_t i = 0; i < l->nevents; i++) {
        const struct lat_event *ts = &l->events[i];
        long long sum = 0, samples = 0, min = 0, max = 0;
        for (int j = 0; j < LATENCY_TS_LEN; j++) {
            if (!ts->samples[j].time) continue;
            samples++;
            sum += ts->samples[j].latency;
            if (!min || ts->samples[j].time < min) min = ts->samples[j].time;
            if (ts->samples[j].time > max) max = ts->samples[j].time;
        }
        long long avg = samples ? sum / samples : 0, mad = 0;
        for (int j = 0; j < LATENCY_TS_LEN; j++)
            if (ts->samples[j].time) mad += llabs(ts->samples[j].latency - avg);
        if (samples) mad /= samples;
        buf_printf(r, "%zu. %s: %lld latency spikes (average %llums, mean deviation %llums, period %.2f sec). Worst all "
                      "time event %llums.\n",
                   i + 1, ts->name, samples, (unsigned long long)avg, (unsigned long long)mad,
                   samples ? (double)(max - min) / (double)samples : 0.0, (unsigned long long)ts->max);
    }
    buf_puts(r, "\nWhile there are latency events logged, I'm not able to suggest any easy fix. Please use the Redis "
                "community to get some help, providing this report in your help request.\n");
}

void cmd_latency(cmdctx *c)
{
    slice sub = c->argv[1];
    if (!c->srv) {
        reply_error(c->out, "ERR LATENCY needs a server");
        return;
    }
    struct latency *l = lat_of(c->srv);
    if (slice_opt_is(sub, "help")) {
        if (c->argc != 2) reply_sub_args(c, "latency", "help");
        else reply_lines(c, latency_help, LL_ARRAY_LEN(latency_help));
    } else if (slice_opt_is(sub, "histogram")) {
        latency_histogram(c);
    } else if (slice_opt_is(sub, "latest")) {
        if (c->argc != 2) {
            reply_sub_args(c, "latency", "latest");
            return;
        }
        reply *r = reply_array(c->out, l->nevents);
        for (size_t i = 0; i < l->nevents; i++) {
            const struct lat_event *ts = &l->events[i];
            int last = (ts->idx + LATENCY_TS_LEN - 1) % LATENCY_TS_LEN;
            reply *e = reply_array(&r[i], 4);
            reply_bulk_cstr(&e[0], ts->name);
            reply_int(&e[1], ts->samples[last].time);
            reply_int(&e[2], ts->samples[last].latency);
            reply_int(&e[3], ts->max);
        }
    } else if (slice_opt_is(sub, "history") || slice_opt_is(sub, "graph")) {
        int graph = slice_opt_is(sub, "graph");
        if (c->argc != 3) {
            reply_sub_args(c, "latency", graph ? "graph" : "history");
            return;
        }
        const struct lat_event *ts = event_named(l, c->argv[2]);
        size_t n = 0;
        for (int j = 0; ts && j < LATENCY_TS_LEN; j++) n += ts->samples[j].time != 0;
        if (graph) {
            if (!n) {
                reply_errorf(c->out, "ERR No samples available for event '%.*s'", (int)c->argv[2].len, c->argv[2].p);
                return;
            }
            buf g;
            buf_init(&g);
            buf_printf(&g, "%s - high %lld ms\n", ts->name, ts->max);
            for (int j = 0; j < LATENCY_TS_LEN; j++) {
                int k = (ts->idx + j) % LATENCY_TS_LEN;
                if (ts->samples[k].time) buf_printf(&g, "%lld %lld\n", ts->samples[k].time, ts->samples[k].latency);
            }
            reply_bulk(c->out, g.p, g.len);
            buf_release(&g);
            return;
        }
        reply *r = reply_array(c->out, n);
        size_t at = 0;
        for (int j = 0; ts && j < LATENCY_TS_LEN; j++) {
            int k = (ts->idx + j) % LATENCY_TS_LEN;
            if (!ts->samples[k].time) continue;
            reply *e = reply_array(&r[at++], 2);
            reply_int(&e[0], ts->samples[k].time);
            reply_int(&e[1], ts->samples[k].latency);
        }
    } else if (slice_opt_is(sub, "reset")) {
        long long resets = 0;
        if (c->argc == 2) {
            resets = (long long)l->nevents;
            l->nevents = 0;
        } else {
            for (int j = 2; j < c->argc; j++) {
                struct lat_event *ts = event_named(l, c->argv[j]);
                if (!ts) continue;
                *ts = l->events[--l->nevents];
                resets++;
            }
        }
        reply_int(c->out, resets);
    } else if (slice_opt_is(sub, "doctor")) {
        if (c->argc != 2) {
            reply_sub_args(c, "latency", "doctor");
            return;
        }
        buf r;
        buf_init(&r);
        latency_doctor(c, &r);
        reply_bulk(c->out, r.p, r.len);
        buf_release(&r);
    } else {
        reply_unknown_sub(c, "LATENCY");
    }
}
