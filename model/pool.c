/* pool.c — shares handed out by claims in a folder the tasks share (--shard I/N --pool DIR).
 *
 * A static split of a search over N tasks is as slow as its largest share, and the space's
 * subtrees are uneven (one item of a window whose crossings follow one another can hold half
 * of it). Here the tasks split it among themselves as they go. A share is an item of the
 * search — a path's prefix of decisions, its last one changed (explore.c's items) — named by a
 * hash of its prefix and the level it belongs to, so every task that meets it knows it by the
 * same name. A task takes a share by creating its claim (a symbolic link: one task wins), runs it
 * and appends the shares its paths enabled to its own log ('pub-T.A', T the task, A its
 * attempt), then its end to 'done-T.A'. Every task reads every log: a task that finished its
 * share takes the next one nobody has claimed — work handed out by name, no server. A share
 * with fewer than POOL_EXPAND deviations is run as one path (its first) whose items are
 * shares in turn; a deeper one as the depth-first search of its subtree (explore_below). A
 * level ends for a task when every share of it is done; it was cut by the deviation bound if
 * any share was, so every task deepens alike.
 *
 * A task killed mid-share leaves a claim without an end. It is taken again by the task's next
 * attempt (Slurm's requeue: a claim of this task's earlier attempt), or by any task when the
 * claimer is gone: its 'alive-T.A' file, which a thread of the claimer touches every
 * POOL_BEAT_S seconds, is missing (it ended: stopped by --time) or older than POOL_STALE_S
 * seconds than the reader's own, or the driver wrote 'gone-T' (tools/slurm-check.sh, for a
 * task it gave up). A share's results (paths, outcomes, a violation) are in its task's
 * shard file, written when the task ends, which lists the shares it enabled ('pub') and ran
 * ('did'): the merge counts a share enabled and never run as not searched (exit 4), whatever
 * the logs said.
 *
 * This file runs the shares and simulates the balance (--pool-balance); pool_item.c names and
 * orders them, pool_folder.c keeps the folder (logs, claims, heartbeat). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dict.h"
#include "poolint.h"

/* ---- running a share ---- */

static int pf_get(const uint8_t *pf, uint32_t i)
{
    return pf[i / 8] >> (i % 8) & 1;
}

/* A share enabled by this task's path: alternative u at position j of a path whose values
 * are vals (nonzero listed) and placement flags pf, all of it up to j. Bounds as the search's:
 * a deviation past the level's bound is cut, past explore.max_depth left out. */
static void enable(search *S, pool *P, int bound, const int64_t *vals, const uint8_t *pf, const int64_t *nalt, uint32_t j,
                   int64_t u, int *cut)
{
    int max_depth = S->sc->explore.max_depth > 0 ? S->sc->explore.max_depth : INT32_MAX;
    int devs = 0;
    uint32_t nnz = 0;
    for (uint32_t i = 0; i < j; i++)
        if (vals[i] != 0) {
            nnz++;
            if (!pf_get(pf, i)) devs++;
        }
    int fault = pf_get(pf, j);
    if (!fault && (int)j >= max_depth) {
        S->r->depth_cut = 1;
        return;
    }
    if (!fault && bound >= 0 && devs + 1 > bound) {
        *cut = 1;
        return;
    }
    uint32_t *pos = xmalloc((nnz + 1) * sizeof *pos);
    int64_t *val = xmalloc((nnz + 1) * sizeof *val);
    uint32_t k = 0;
    for (uint32_t i = 0; i < j; i++)
        if (vals[i] != 0) pos[k] = i, val[k++] = vals[i];
    pos[k] = j;
    val[k++] = u;
    int fresh;
    pitem *it = pool_item_add(P, pool_item_phase(S), bound, j + 1, pos, val, k, pf, nalt, &fresh);
    if (fresh && P->dir) pool_folder_publish(P, it);
    it->pub = 1;
    free(pos);
    free(val);
}

/* The shares one path shows (avail: per position of it, the alternatives enabled). */
static void enable_all(search *S, pool *P, int bound, const choice *rec, const world_decision *decs,
                       const uint8_t *pf0, size_t n, const alts *avail, int *cut)
{
    int64_t *vals = xcalloc(n + 1, sizeof *vals), *nalt = xcalloc(n + 1, sizeof *nalt);
    uint8_t *pf = xcalloc(n / 8 + 1, 1);
    for (size_t i = 0; i < n; i++) {
        vals[i] = rec[i].value;
        nalt[i] = rec[i].n;
        if (decs ? search_is_placement(&decs[i]) : pf_get(pf0, (uint32_t)i)) pf[i / 8] |= (uint8_t)(1u << (i % 8));
    }
    for (size_t j = 0; j < n; j++)
        for (int64_t u = alts_next(&avail[j], 0, nalt[j]); u > 0; u = alts_next(&avail[j], u, nalt[j]))
            if (u != vals[j]) enable(S, P, bound, vals, pf, nalt, (uint32_t)j, u, cut);
    free(vals);
    free(nalt);
    free(pf);
}

static void keep_found(search *S, pool *P)
{
    if (!S->have_found) return;
    int64_t *a = xmalloc((S->found.nrec + 1) * sizeof *a), *b = NULL;
    for (size_t i = 0; i < S->found.nrec; i++) a[i] = S->found.rec[i].value;
    int earlier = !P->have_best;
    if (!earlier) {
        b = xmalloc((P->best.nrec + 1) * sizeof *b);
        for (size_t i = 0; i < P->best.nrec; i++) b[i] = P->best.rec[i].value;
        earlier = shard_path_before(a, S->found.nrec, b, P->best.nrec);
    }
    if (earlier) {
        if (P->have_best) path_free(&P->best);
        P->best = S->found;
        P->have_best = 1;
    } else {
        path_free(&S->found);
    }
    memset(&S->found, 0, sizeof S->found);
    S->have_found = 0;
    free(a);
    free(b);
}

static enum level_end run_share(search *S, pool *P, int bound, size_t k, int *cut, buf *err)
{
    const pitem *it = &P->it[k]; /* only until a share is enabled: the table may move */
    uint32_t m = it->m, nnz = it->nnz;
    choice *prefix = xcalloc(m + 1, sizeof *prefix);
    uint8_t *pf = xmalloc(m / 8 + 1);
    memcpy(pf, it->pf, m / 8 + 1);
    for (uint32_t i = 0; it->nalt && i < m; i++) prefix[i].n = it->nalt[i];
    for (uint32_t i = 0; i < it->nnz; i++) prefix[it->pos[i]].value = it->val[i];
    it = NULL;
    enum level_end end;
    if (nnz < POOL_EXPAND) { /* its first path; its items are shares */
        chooser *ch = chooser_new(CHOOSER_EXPLORE, S->sc->seed);
        chooser_set_script(ch, prefix, m);
        xpath p;
        int rc = search_run_path(S->sc, ch, 1, S->r->searched, &S->shared, &p, err);
        chooser_free(ch);
        if (rc == RUN_STOPPED) end = search_stopped_in_run(S, err);
        else if (rc != 0) end = LEVEL_ERROR;
        else if (search_account(S, &p, bound)) end = LEVEL_FOUND;
        else {
            LL_ASSERT(p.nrec >= m); /* a prefix replays */
            alts *avail = alts_array(p.nrec + 1);
            for (size_t i = m; i < p.nrec; i++)
                if (reduce_initial_avail(&avail[i], &p.decs[i], &p.rec[i], S->o->delays_extremes))
                    S->r->abstracted |= EXPLORE_SAMPLED_RANDOM;
            reduce_analyse(&S->red, &p, avail, S->observer);
            enable_all(S, P, bound, p.rec, p.decs, NULL, p.nrec, avail, cut);
            alts_array_free(avail, p.nrec + 1);
            path_free(&p);
            end = LEVEL_COMPLETE;
        }
    } else { /* the depth-first search of its subtree; what it enables above, shares */
        rootpath rp = { .rec = prefix, .n = m, .avail = alts_array(m) };
        end = level_run_item(S, &rp, bound, m - 1, prefix[m - 1].value, err);
        if (end == LEVEL_COMPLETE || end == LEVEL_CUT)
            enable_all(S, P, bound, prefix, NULL, pf, m, rp.avail, cut);
        alts_array_free(rp.avail, m);
    }
    free(prefix);
    free(pf);
    return end;
}

/* The next share to take (share_before), not yet taken by anyone this task knows of. */
static pitem *next_share(pool *P, int pass, int bound)
{
    size_t *later = NULL, nlater = 0;
    pitem *got = NULL;
    while (P->nheap && !got) {
        size_t k = pool_item_heap_pop(P);
        pitem *it = &P->it[k];
        if (it->state != POOL_KNOWN) continue; /* taken: out for good */
        if (it->pass == pass && it->bound == bound) got = it;
        else { /* a level another task has reached first: kept for when this one gets there */
            later = xrealloc(later, (nlater + 1) * sizeof *later);
            later[nlater++] = k;
        }
    }
    for (size_t i = 0; i < nlater; i++) pool_item_heap_push(P, later[i]);
    free(later);
    return got;
}

static void done_line(pool *P, pitem *it)
{
    char line[128];
    int n = snprintf(line, sizeof line, "%d %d %016llx%016llx %d\n", it->pass, it->bound, (unsigned long long)it->id[0],
                     (unsigned long long)it->id[1], it->flags);
    pool_folder_log_line(P->done, line, (size_t)n);
}

/* Runs a share this task holds and says so in its log. */
static enum level_end take_share(search *S, pool *P, int bound, size_t k, buf *err)
{
    P->it[k].state = POOL_MINE;
    int c = 0;
    enum level_end end = run_share(S, P, bound, k, &c, err);
    pitem *it = &P->it[k]; /* the table grows as the share enables others */
    if (end == LEVEL_STOPPED || end == LEVEL_ERROR) return end;
    if (end == LEVEL_FOUND) keep_found(S, P);
    it->flags = (c || end == LEVEL_CUT ? POOL_CUT : 0) | (end == LEVEL_FOUND ? POOL_FOUND : 0);
    it->state = POOL_DONE;
    it->did = 1;
    done_line(P, it);
    return LEVEL_COMPLETE;
}

/* The first violation this task's shares found, if any, handed to the search (S->found). */
static int hand_over_found(search *S, pool *P)
{
    if (!P->have_best) return 0;
    S->found = P->best;
    S->have_found = 1;
    memset(&P->best, 0, sizeof P->best);
    P->have_best = 0;
    return 1;
}

/* ---- the balance of N tasks, simulated ----
 *
 * --pool-balance N runs the search in this process, handing its shares out as N tasks of a
 * pool would if every path took one unit of time: the task whose clock is lowest takes the
 * next share there is for it (its own newest first, then the one there first), a share
 * being there when the share that enabled it ended; a task with nothing to take waits for the
 * next share to be there, or for the others. Every task runs the root of each level, and a
 * level ends for all when its last share does. Paths are exact, so the balance is: each
 * task's paths (its load) and when the last share ended (the wall time, in paths). */

static void sim_avail(pool *P, size_t upto, uint64_t t)
{
    if (upto > P->capavail) {
        size_t old = P->capavail;
        P->capavail = upto * 2;
        P->avail = xrealloc(P->avail, P->capavail * sizeof *P->avail);
        for (size_t k = old; k < P->capavail; k++) P->avail[k] = UINT64_MAX;
    }
    for (size_t k = 0; k < upto; k++)
        if (P->avail[k] == UINT64_MAX) P->avail[k] = t;
}

static enum level_end pool_sim_level(search *S, pool *P, int bound, buf *err)
{
    uint64_t start = 0;
    for (int v = 0; v < P->nsim; v++)
        if (P->clock[v] > start) start = P->clock[v];
    rootpath rp;
    enum level_end end = level_run_root(S, bound, &rp, err);
    if (end != LEVEL_COMPLETE) return end;
    int cut = 0;
    size_t first = P->n; /* this level's shares are those from here on */
    enable_all(S, P, bound, rp.rec, rp.decs, NULL, rp.n, rp.initial, &cut);
    rootpath_free(&rp);
    for (int v = 0; v < P->nsim; v++) { /* each runs the root */
        P->clock[v] = P->finish[v] = start + 1;
        P->load[v]++;
    }
    sim_avail(P, P->n, start + 1);
    uint8_t *waiting = xcalloc((size_t)P->nsim, 1);
    size_t fifo = first;
    for (;;) {
        if (search_should_stop(S)) {
            free(waiting);
            return LEVEL_STOPPED;
        }
        int v = -1;
        for (int w = 0; w < P->nsim; w++)
            if (waiting[w] < 2 && (v < 0 || P->clock[w] < P->clock[v] || (P->clock[w] == P->clock[v] && waiting[w] < waiting[v])))
                v = w;
        if (v < 0) break; /* every task done */
        /* next_share's choice among those there by now (share_before; then the one there
         * first) */
        size_t k = SIZE_MAX;
        uint64_t next = UINT64_MAX;
        while (fifo < P->n && P->it[fifo].state != POOL_KNOWN) fifo++;
        for (size_t x = fifo; x < P->n; x++) {
            const pitem *it = &P->it[x];
            if (it->state != POOL_KNOWN) continue;
            if (P->avail[x] <= P->clock[v]) {
                if (k == SIZE_MAX || it->nnz < P->it[k].nnz || (it->nnz == P->it[k].nnz && it->m < P->it[k].m) ||
                    (it->nnz == P->it[k].nnz && it->m == P->it[k].m && P->avail[x] < P->avail[k]))
                    k = x;
            } else if (P->avail[x] < next) {
                next = P->avail[x];
            }
        }
        if (k == SIZE_MAX) {
            /* nothing there yet: wait for the next share, else for the others' clocks */
            uint64_t others = UINT64_MAX;
            for (int w = 0; w < P->nsim; w++)
                if (w != v && waiting[w] < 2 && P->clock[w] < others && P->clock[w] >= P->clock[v] && !waiting[w])
                    others = P->clock[w];
            if (next != UINT64_MAX && next <= others) P->clock[v] = next, waiting[v] = 0;
            else if (others != UINT64_MAX) P->clock[v] = others, waiting[v] = 1;
            else if (next != UINT64_MAX) P->clock[v] = next, waiting[v] = 0;
            else waiting[v] = 2; /* nothing left, nobody running: done */
            continue;
        }
        waiting[v] = 0;
        uint64_t paths = S->r->paths;
        P->it[k].state = POOL_MINE;
        int c = 0;
        end = run_share(S, P, bound, k, &c, err);
        if (end == LEVEL_STOPPED || end == LEVEL_ERROR) {
            free(waiting);
            return end;
        }
        if (end == LEVEL_FOUND) keep_found(S, P);
        pitem *it = &P->it[k];
        it->flags = (c || end == LEVEL_CUT ? POOL_CUT : 0) | (end == LEVEL_FOUND ? POOL_FOUND : 0);
        it->state = POOL_DONE;
        it->did = 1;
        uint64_t cost = S->r->paths - paths;
        P->clock[v] += cost;
        P->load[v] += cost;
        P->finish[v] = P->clock[v];
        sim_avail(P, P->n, P->clock[v]);
        for (int w = 0; w < P->nsim; w++)
            if (waiting[w] == 2) waiting[w] = 0; /* new shares: look again */
    }
    free(waiting);
    uint64_t last = start + 1;
    for (int v = 0; v < P->nsim; v++)
        if (P->finish[v] > last) last = P->finish[v];
    for (int v = 0; v < P->nsim; v++) P->clock[v] = last; /* the next level starts when this one ends */
    P->makespan = last;
    int found = 0;
    for (size_t x = first; x < P->n; x++) {
        cut |= P->it[x].flags & POOL_CUT;
        found |= P->it[x].flags & POOL_FOUND;
    }
    if (hand_over_found(S, P)) return LEVEL_FOUND;
    (void)found;
    return cut ? LEVEL_CUT : LEVEL_COMPLETE;
}

int explore_pool_balance(const uint64_t **load, uint64_t *makespan)
{
    const pool *P = pool_folder_current();
    if (!P || !P->nsim) return 0;
    *load = P->load;
    *makespan = P->makespan;
    return P->nsim;
}

enum level_end pool_level(search *S, int bound, buf *err)
{
    pool *P = pool_folder_get(S, err);
    if (!P) return LEVEL_ERROR;
    if (P->nsim) return pool_sim_level(S, P, bound, err);
    rootpath rp;
    enum level_end end = level_run_root(S, bound, &rp, err); /* every task: the shares at its root */
    if (end != LEVEL_COMPLETE) return end;
    int cut = 0;
    enable_all(S, P, bound, rp.rec, rp.decs, NULL, rp.n, rp.initial, &cut);
    rootpath_free(&rp);
    long idle_ms = 5;
    double last_read = -1;
    for (;;) {
        if (search_should_stop(S)) return LEVEL_STOPPED;
        /* the others' logs: at least every POOL_LOOK_S while this task has shares of its own
         * to take (a look costs a stat of every log), and whenever it has none */
        pitem *it = NULL;
        if (search_now() - last_read < POOL_LOOK_S) it = next_share(P, pool_item_phase(S), bound);
        if (!it) {
            pool_folder_read_logs(P);
            last_read = search_now();
            it = next_share(P, pool_item_phase(S), bound);
        }
        if (it) {
            idle_ms = 5;
            if (!pool_folder_claim(P, it, 0)) it->state = POOL_OTHERS;
            else if ((end = take_share(S, P, bound, (size_t)(it - P->it), err)) != LEVEL_COMPLETE) return end;
            continue;
        }
        /* nothing to take: the level ends when every share of it is done; a share whose
         * claimer is gone is taken over */
        int open = 0;
        pitem *over = NULL;
        for (size_t k = 0; k < P->n && !over; k++) {
            pitem *x = &P->it[k];
            if (x->pass != pool_item_phase(S) || x->bound != bound || x->state == POOL_DONE) continue;
            open++;
            if (x->state == POOL_OTHERS && pool_folder_claimer_gone(P, x) && pool_folder_claim(P, x, 1)) over = x;
        }
        if (over) {
            if ((end = take_share(S, P, bound, (size_t)(over - P->it), err)) != LEVEL_COMPLETE) return end;
            continue;
        }
        if (!open) break;
        /* the others' shares still running: look again soon, less often the longer it lasts */
        struct timespec ts = { 0, idle_ms * 1000 * 1000 };
        nanosleep(&ts, NULL);
        if (idle_ms < 200) idle_ms *= 2;
    }
    int found = 0;
    for (size_t k = 0; k < P->n; k++) {
        pitem *x = &P->it[k];
        if (x->pass != pool_item_phase(S) || x->bound != bound) continue;
        cut |= x->flags & POOL_CUT;
        found |= x->flags & POOL_FOUND;
    }
    if (hand_over_found(S, P)) return LEVEL_FOUND;
    if (found) return LEVEL_COMPLETE; /* another task's share violates: the search ends at this level */
    return cut ? LEVEL_CUT : LEVEL_COMPLETE;
}

/* The shares this task enabled and ran, for its shard file; and its pool's end. */
void pool_write(buf *b)
{
    pool *P = pool_folder_current();
    if (!P) return;
    buf_printf(b, "pool %d\n", P->attempt);
    for (size_t k = 0; k < P->n; k++) {
        pitem *x = &P->it[k];
        if (x->pub)
            buf_printf(b, "pub %d %d %016llx%016llx\n", x->pass, x->bound, (unsigned long long)x->id[0],
                       (unsigned long long)x->id[1]);
        if (x->did)
            buf_printf(b, "did %d %d %016llx%016llx\n", x->pass, x->bound, (unsigned long long)x->id[0],
                       (unsigned long long)x->id[1]);
    }
}
