/* server_limits.c — what a server refuses or does past its limits, as Redis 7.0's
 * processCommand: maxmemory (the memory in use, the policy's evictions: Redis's evict.c, and
 * OOM for a command that may grow it) and min-replicas-to-write (NOREPLICAS for a write with
 * fewer good replicas). */
#include "server.h"

#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "script.h"
#include "serverint.h"

size_t server_used_memory(server *srv)
{
    size_t n = 0;
    for (int i = 0; i < DB_COUNT; i++)
        if (srv->dbs.db[i]) n += store_bytes(srv->dbs.db[i]);
    return n;
}

/* Redis's performEvictions: while the memory in use is past maxmemory, the policy's victim
 * goes (allkeys-*: any key; volatile-*: a key with a TTL; by idle time for LRU and LFU, the
 * nearest deadline for volatile-ttl, the first found for random), announced as `evicted`.
 * 1 if the memory is still past it (nothing left to evict, or noeviction). */
static int evict(server *srv, long long maxmem)
{
    const char *policy = server_config_get(srv, "maxmemory-policy");
    if (!policy) policy = "noeviction";
    int all = !strncmp(policy, "allkeys", 7), volatile_ = !strncmp(policy, "volatile", 8);
    int ttl = !strcmp(policy, "volatile-ttl"), random_ = strstr(policy, "random") != NULL;
    while (server_used_memory(srv) > (size_t)maxmem) {
        if (!all && !volatile_) return 1;
        store *best = NULL;
        int bestdb = 0;
        kv *victim = NULL;
        long long score = 0;
        for (int i = 0; i < DB_COUNT && !(random_ && victim); i++) {
            store *db = srv->dbs.db[i];
            if (!db) continue;
            size_t it = 0;
            kv *e;
            while ((e = store_next(db, &it))) {
                if (volatile_ && store_expire(db, e) < 0) continue;
                long long sc = ttl ? -store_expire(db, e) : store_idle_s(db, e);
                if (!victim || sc > score) {
                    victim = e, best = db, bestdb = i, score = sc;
                    if (random_) break;
                }
            }
        }
        if (!victim) return 1;
        slice k = store_key_of(best, victim);
        char *key = xmemdup(k.p, k.len);
        size_t len = k.len;
        store_delete(best, (slice){ key, len });
        srv->evicted++;
        notify_publish(srv, bestdb, NOTIFY_EVICTED, "evicted", (slice){ key, len });
        free(key);
    }
    return 0;
}

/* evict, its deletions left out of the command's own keyspace events */
static int evict_now(server *srv, long long maxmem)
{
    size_t before = srv->npending;
    int oom = evict(srv, maxmem);
    for (size_t i = before; i < srv->npending; i++) free(srv->pending[i].key);
    srv->npending = before;
    return oom;
}

void server_evict(server *srv)
{
    if (srv->maxmemory > 0) evict_now(srv, srv->maxmemory);
}

/* FUNCTION LOAD and RESTORE are write denyoom, DELETE and FLUSH write, in Redis 7.0's table */
int server_function_writes(const command *cmd, int argc, const slice *argv)
{
    return cmd->fn == cmd_function && argc >= 2 && (slice_eq_nocase(argv[1], "load") || slice_eq_nocase(argv[1], "restore"));
}

/* The refusals of processCommand this server has: OOM past maxmemory for a command that may
 * grow the memory (denyoom, or any queued in a MULTI but EXEC and DISCARD), NOREPLICAS for
 * a write with fewer good replicas than min-replicas-to-write. 1 if refused (in *out). */
int server_limits_refuse(server *srv, conn *c, const command *cmd, int argc, const slice *argv, txstate *t, reply *out)
{
    if (srv->maxmemory > 0) scripting_set_oom(srv->lua, server_used_memory(srv) > (size_t)srv->maxmemory);
    else if (srv->lua) scripting_set_oom(srv->lua, 0);
    if (!srv->min_replicas && srv->lua) scripting_set_noreplicas(srv->lua, 0);
    if (!srv->maxmemory && !srv->min_replicas) return 0;
    int in_multi = t && t->in_multi;
    /* EXEC is what it runs: denyoom or a write if one of its queued commands is */
    int queued_denyoom = 0, queued_write = 0;
    if (in_multi && cmd->fn == cmd_exec)
        for (size_t i = 0; i < t->nqueue; i++) {
            const command *q = commands_lookup(t->queue[i].argv[0]);
            if (!q) continue;
            queued_denyoom |= command_denyoom(q);
            queued_write |= (q->flags & CMD_WRITE) != 0;
        }
    long long maxmem = srv->maxmemory;
    if (maxmem > 0) {
        int oom = server_used_memory(srv) > (size_t)maxmem; /* server_exec evicted first */
        int deny = command_denyoom(cmd) || queued_denyoom || server_function_writes(cmd, argc, argv) ||
                   ((cmd->fn == cmd_eval || cmd->fn == cmd_evalsha || cmd->fn == cmd_fcall) &&
                    scripting_denies_oom(srv->lua, argc, argv)) ||
                   (in_multi && cmd->fn != cmd_exec && cmd->fn != cmd_discard && cmd->fn != cmd_reset);
        if (oom && deny) {
            reply_error(out, "OOM command not allowed when used memory > 'maxmemory'.");
            return 1;
        }
    }
    long long minrep = srv->min_replicas;
    long long good = minrep > 0 && srv->cfg.host && srv->cfg.host->replicas ? srv->cfg.host->replicas(srv->cfg.host_ud) : 0;
    scripting_set_noreplicas(srv->lua, minrep > 0 && good < minrep);
    int script_write = (cmd->fn == cmd_eval || cmd->fn == cmd_evalsha || cmd->fn == cmd_fcall) &&
                       minrep > 0 && scripting_declares_write(srv->lua, argc, argv);
    if (minrep > 0 && ((cmd->flags & CMD_WRITE) || queued_write || script_write)) {
        if (good < minrep) {
            reply_error(out, "NOREPLICAS Not enough good replicas to write.");
            return 1;
        }
    }
    (void)c;
    return 0;
}
