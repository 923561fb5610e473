/* node_disk.c — a node's disk stalling (the disk_stall fault, fault_disk_stall.c): a disk
 * that stops completing writes for a while, as a saturated or failing device does (an fsync
 * then blocks for seconds: the "Asynchronous AOF fsync is taking too long (disk is busy?)"
 * Redis logs, aof.c).
 *
 * With persistence `everysec` the background fsync does not complete until the stall ends: a
 * crash meanwhile loses every write since the last fsync before it; replies still leave (Redis
 * postpones its AOF write while the fsync is in progress, and writes anyway after 2 s,
 * without holding replies). With `always` a write is on disk before its reply leaves, and the
 * main thread blocks in that fsync: no reply leaves the node until the stall ends, then all of
 * them in order. Simplified: the node still runs the requests that arrive meanwhile (Redis's
 * blocked main thread would run them after the stall), and a crash during a stall restarts
 * from all that was applied (the writes whose fsync had not returned are not lost). */
#include "nodeint.h"

#include <stdlib.h>

struct disk_held {
    msg *rep;
    uint64_t epoch; /* the node's down_epoch when held: a crash since loses it */
};

void node_disk_stall(cluster *cu, node *n)
{
    (void)cu;
    n->disk_stalled++;
}

int node_disk_hold(cluster *cu, node *n, msg *rep)
{
    (void)cu;
    if (!n->disk_stalled || n->cfg->persist != PERSIST_ALWAYS) return 0;
    if (n->ndisk_held == n->capdisk_held) {
        n->capdisk_held = n->capdisk_held ? n->capdisk_held * 2 : 8;
        n->disk_held = xrealloc(n->disk_held, (size_t)n->capdisk_held * sizeof *n->disk_held);
    }
    n->disk_held[n->ndisk_held++] = (struct disk_held){ rep, n->down_epoch };
    return 1;
}

void node_disk_resume(cluster *cu, node *n)
{
    if (n->disk_stalled == 0 || --n->disk_stalled > 0) return;
    /* the fsync that was due completes now (the next one keeps its second) */
    if (n->up && n->dirty && n->cfg->persist == PERSIST_EVERYSEC) {
        cu->kind->data_free(n->durable);
        n->durable = cu->kind->snapshot(n->srv);
        org_copy(&n->durable_org, &n->org);
        n->dirty = 0;
    }
    for (int i = 0; i < n->ndisk_held; i++) {
        msg *rep = n->disk_held[i].rep;
        if (n->up && n->disk_held[i].epoch == n->down_epoch) net_send(cu->net, rep);
        else msg_free(rep); /* the process that held it died */
    }
    n->ndisk_held = 0;
}

void node_disk_release(node *n)
{
    for (int i = 0; i < n->ndisk_held; i++) msg_free(n->disk_held[i].rep);
    free(n->disk_held);
    n->disk_held = NULL;
    n->ndisk_held = n->capdisk_held = 0;
}
