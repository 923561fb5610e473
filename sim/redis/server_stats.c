/* server_stats.c — INFO's commandstats and errorstats counters (Redis 7.0's calls,
 * rejected_calls, failed_calls; an error's first word) and Stats' total_error_replies,
 * counted by the command path (server.c) and written out for INFO (connection.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "serverint.h"

/* Redis 7.0's container commands: their subcommands have their own commandstats lines. */
static int is_container(const char *name)
{
    static const char *const names[] = { "acl", "client", "cluster", "command", "config", "function", "latency",
                                         "memory", "module", "object", "pubsub", "script", "slowlog", "xgroup",
                                         "xinfo" };
    for (size_t i = 0; i < LL_ARRAY_LEN(names); i++)
        if (!strcmp(name, names[i])) return 1;
    return 0;
}

/* The counters of cmd as called with argv, or NULL (a container's unknown subcommand). */
static cmdstat *stat_of(server *srv, const command *cmd, int argc, const slice *argv)
{
    if (!srv->stats) srv->stats = xcalloc(commands_count(), sizeof *srv->stats);
    cmdstat *st = &srv->stats[cmd - commands_at(0)];
    if (!st->container) st->container = is_container(cmd->name) ? 1 : -1;
    if (st->container < 0 || argc < 2) return st;
    char key[96];
    size_t n = strlen(cmd->name);
    memcpy(key, cmd->name, n);
    key[n++] = '|';
    for (size_t i = 0; i < argv[1].len && n < sizeof key; i++) key[n++] = (char)tolower((unsigned char)argv[1].p[i]);
    if (!srv->substats) srv->substats = dict_new(sizeof(cmdstat));
    return dict_put(srv->substats, (slice){ key, n }, NULL);
}

/* errorstat_<err's first word>, and total_error_replies: Redis 7.0's afterErrorReply counts
 * both for every error reply it sends a client (one in an array, EXEC's or a script's,
 * included), but an error a script returns that redis.call already counted. */
void server_stats_error(server *srv, const char *err)
{
    size_t n = strcspn(err, " ");
    if (!err[n] || n > 30) err = "ERR", n = 3; /* Redis looks for the space in "-" and 31 more */
    srv->nerrors++;
    if (!srv->errstats) srv->errstats = dict_new(sizeof(long long));
    ++*(long long *)dict_put(srv->errstats, (slice){ err, n }, NULL);
}

void server_stats_count(server *srv, const command *cmd, int argc, const slice *argv, const reply *out, int how)
{
    if (out->type == REPLY_ERROR && out->str) server_stats_error(srv, out->str);
    if (!cmd) return;
    int unknown_sub = out->type == REPLY_ERROR && out->str && !strncmp(out->str, "ERR unknown subcommand", 22);
    if (unknown_sub && argc >= 2 && is_container(cmd->name)) return; /* Redis: no command, no stats */
    cmdstat *st = stat_of(srv, cmd, argc, argv);
    if (how == STAT_REJECTED) {
        st->rejected++;
        return;
    }
    if (how != STAT_RETRY) st->calls++;
    if (out->type == REPLY_ERROR || how == STAT_CALL_FAILED) st->failed++;
}

/* n more failures of a call already counted */
void server_stats_failed(server *srv, const command *cmd, int argc, const slice *argv, long long n)
{
    if (n) stat_of(srv, cmd, argc, argv)->failed += n;
}

void server_count_unblocked(server *srv, int argc, const slice *argv)
{
    const command *cmd = argc > 0 ? commands_lookup(argv[0]) : NULL;
    if (cmd) stat_of(srv, cmd, argc, argv)->failed++;
}

void server_reset_stats(server *srv)
{
    latency_reset_histograms(srv);
    if (srv->stats) memset(srv->stats, 0, commands_count() * sizeof *srv->stats);
    dict_free(srv->substats, NULL);
    dict_free(srv->errstats, NULL);
    srv->substats = srv->errstats = NULL;
    srv->nerrors = 0;
    const server_config *cfg = server_config_of(srv);
    if (cfg->host && cfg->host->reset_stats) cfg->host->reset_stats(cfg->host_ud);
}

long long server_total_error_replies(const server *srv)
{
    return srv->nerrors;
}

typedef struct stat_line {
    const char *name;
    size_t len;
    const cmdstat *st;
} stat_line;

static int stat_line_cmp(const void *a, const void *b)
{
    const stat_line *x = a, *y = b;
    return slice_cmp((slice){ x->name, x->len }, (slice){ y->name, y->len });
}

void server_error_stats(const server *srv, buf *out)
{
    size_t n = 0, it = 0;
    stat_line *v = xmalloc(((srv->errstats ? dict_size(srv->errstats) : 0) + 1) * sizeof *v);
    const long long *count;
    while (srv->errstats && (count = dict_next(srv->errstats, &it))) {
        slice k = dict_key_of(srv->errstats, count);
        v[n++] = (stat_line){ k.p, k.len, (const cmdstat *)(const void *)count };
    }
    qsort(v, n, sizeof *v, stat_line_cmp);
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "errorstat_%.*s:count=%lld\r\n", (int)v[i].len, v[i].name, *(const long long *)(const void *)v[i].st);
    free(v);
}

void server_command_stats(const server *srv, int latency, buf *out)
{
    size_t n = 0, cap = commands_count() + (srv->substats ? dict_size(srv->substats) : 0);
    stat_line *v = xmalloc((cap + 1) * sizeof *v);
    for (size_t i = 0; srv->stats && i < commands_count(); i++)
        if (srv->stats[i].calls || srv->stats[i].rejected)
            v[n++] = (stat_line){ commands_at(i)->name, commands_at(i)->namelen, &srv->stats[i] };
    size_t it = 0;
    const cmdstat *st;
    while (srv->substats && (st = dict_next(srv->substats, &it))) {
        slice k = dict_key_of(srv->substats, st);
        v[n++] = (stat_line){ k.p, k.len, st };
    }
    qsort(v, n, sizeof *v, stat_line_cmp);
    for (size_t i = 0; i < n; i++) {
        const cmdstat *s = v[i].st;
        if (!latency)
            /* usec: the simulated server spends no time on a command */
            buf_printf(out, "cmdstat_%.*s:calls=%lld,usec=0,usec_per_call=0.00,rejected_calls=%lld,failed_calls=%lld\r\n",
                       (int)v[i].len, v[i].name, s->calls, s->rejected, s->failed);
        else if (s->calls)
            /* Redis's histogram records at least 1 ns */
            buf_printf(out, "latency_percentiles_usec_%.*s:p50=0.001,p99=0.001,p99.9=0.001\r\n", (int)v[i].len,
                       v[i].name);
    }
    free(v);
}
