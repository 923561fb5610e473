/* parallel.c — a level's items over worker processes (--jobs), and a shard's share of a level
 * (--shard I/N).
 *
 * Jobs. After the default path of a level, the search forks N workers; the parent hands out
 * items in the order one job takes them (deepest position first) and each worker explores
 * its item's subtree and answers with its totals, the hashes of its outcomes, the
 * alternatives its paths enabled on the default path (new items for the parent to hand out)
 * and the violation it found, if any. The explored set is the same fixpoint whatever the
 * order items finish in, so the totals of a complete search do not depend on N. A violation
 * is the one a single job would have found: once an item reports one, the parent hands out
 * only items that come before it in that order (level_item_before), waits for them, and
 * keeps the first.
 *
 * Shards. A shard runs the whole search but takes only its share of the subtrees (parallel_shard_level,
 * below: the split is run by every shard alike, the shares below it by one each, by a hash the
 * same at every level), plus whatever its own paths enable; a pool's tasks take theirs from a
 * folder instead (pool.c). What the shards of one search agree on (its identity, the order of
 * its paths) is shard.c's; the file each writes and their merge, shard_file.c's. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dict.h"
#include "guard.h"
#include "exploreint.h"

/* ---- pipes ---- */

static int write_full(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_full(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

typedef struct wres {
    int32_t end, max_depth_seen, depth_cut, abstracted, memory_stop, timed_out, interrupted;
    int32_t witnessed[PROP_COUNT];
    uint64_t paths, transitions, nhash, nfound, errlen;
} wres;

/* ---- a worker ---- */

static void worker_main(search *S, rootpath *rp, int bound, int in, int out)
{
    S->wopts = *S->o;
    S->wopts.progress = NULL;
    S->o = &S->wopts;
    for (;;) {
        uint64_t pos;
        int64_t alt;
        uint64_t budget;
        if (read_full(in, &pos, sizeof pos) || read_full(in, &alt, sizeof alt) || read_full(in, &budget, sizeof budget) ||
            pos >= rp->n || alts_read(in, rp->avail, pos + 1, read_full))
            _exit(0);
        S->wopts.max_paths = budget; /* what --max-paths leaves (0: no limit) */
        explore_result *r = S->r;
        r->paths = r->transitions = 0;
        r->max_depth_seen = r->depth_cut = r->abstracted = 0;
        memset(r->witnessed, 0, sizeof r->witnessed);
        free(S->outcomes.v);
        memset(&S->outcomes, 0, sizeof S->outcomes);
        buf err;
        buf_init(&err);
        enum level_end end = level_run_item(S, rp, bound, pos, alt, &err);
        wres w = { .end = end, .max_depth_seen = r->max_depth_seen, .depth_cut = r->depth_cut,
                   .abstracted = r->abstracted, .memory_stop = r->memory_stop,
                   .timed_out = r->timed_out || (guard_cut() & GUARD_CUT_DEADLINE),
                   .interrupted = r->interrupted || (guard_cut() & GUARD_CUT_STOP), .paths = r->paths,
                   .transitions = r->transitions, .nhash = S->outcomes.n,
                   .nfound = S->have_found ? S->found.nrec : 0, .errlen = err.len };
        memcpy(w.witnessed, r->witnessed, sizeof w.witnessed);
        int bad = write_full(out, &w, sizeof w);
        for (size_t i = 0; !bad && i < S->outcomes.cap; i++)
            if (S->outcomes.v[i]) bad = write_full(out, &S->outcomes.v[i], sizeof S->outcomes.v[i]);
        if (!bad) {
            buf ab;
            buf_init(&ab);
            alts_write(&ab, rp->avail, pos + 1);
            bad = write_full(out, ab.p, ab.len);
            buf_release(&ab);
        }
        for (size_t i = 0; !bad && i < w.nfound; i++) bad = write_full(out, &S->found.rec[i].value, sizeof(int64_t));
        if (!bad && err.len) bad = write_full(out, err.p, err.len);
        buf_release(&err);
        if (S->have_found) path_free(&S->found);
        S->have_found = 0;
        if (bad) _exit(1);
    }
}

/* ---- the parent ---- */

typedef struct worker {
    pid_t pid;
    int to, from;
    int busy;
    uint64_t pos;
    int64_t alt;
    uint64_t budget; /* the paths --max-paths left it for this item */
} worker;

/* Reads one worker's answer and merges it. Returns the item's end, or LEVEL_ERROR. */
static enum level_end take_result(search *S, rootpath *rp, worker *wk, int64_t **best, size_t *nbest, uint64_t *bpos,
                                  int64_t *balt, buf *err)
{
    wres w;
    explore_result *r = S->r;
    if (read_full(wk->from, &w, sizeof w)) {
        buf_puts(err, "a search worker died");
        return LEVEL_ERROR;
    }
    /* a worker of ours answers with an item's end; anything else is our bug, not the user's */
    LL_ASSERT(w.end >= LEVEL_FOUND && w.end <= LEVEL_ERROR);
    LL_ASSERT(w.nhash <= w.paths); /* at most one outcome per path it ran */
    r->paths += w.paths;
    r->transitions += w.transitions;
    if (w.max_depth_seen > r->max_depth_seen) r->max_depth_seen = w.max_depth_seen;
    r->depth_cut |= w.depth_cut;
    r->abstracted |= w.abstracted;
    r->memory_stop |= w.memory_stop;
    r->timed_out |= w.timed_out;
    r->interrupted |= w.interrupted;
    for (int q = 0; q < PROP_COUNT; q++) r->witnessed[q] |= w.witnessed[q];
    for (uint64_t i = 0; i < w.nhash; i++) {
        uint64_t h;
        if (read_full(wk->from, &h, sizeof h)) return LEVEL_ERROR;
        hset_add(&S->outcomes, h);
    }
    alts *av = alts_array(wk->pos + 1);
    if (alts_read(wk->from, av, wk->pos + 1, read_full)) {
        alts_array_free(av, wk->pos + 1);
        return LEVEL_ERROR;
    }
    for (uint64_t j = 0; j <= wk->pos; j++) alts_union(&rp->avail[j], &av[j], NULL);
    alts_array_free(av, wk->pos + 1);
    int64_t *found = w.nfound ? xmalloc(w.nfound * sizeof *found) : NULL;
    if (w.nfound && read_full(wk->from, found, w.nfound * sizeof *found)) {
        free(found);
        return LEVEL_ERROR;
    }
    if (w.end == LEVEL_FOUND && (!*best || level_item_before(wk->pos, wk->alt, *bpos, *balt))) {
        free(*best);
        *best = found;
        *nbest = w.nfound;
        *bpos = wk->pos;
        *balt = wk->alt;
    } else {
        free(found);
    }
    if (w.errlen) {
        char *e = xmalloc(w.errlen + 1);
        if (read_full(wk->from, e, w.errlen) == 0) buf_append(err, e, w.errlen);
        free(e);
    }
    wk->busy = 0;
    if (S->o->progress)
        S->o->progress(S->o->progress_ud, r->paths, r->transitions, S->level, search_now() - S->t0_s);
    return (enum level_end)w.end;
}

enum level_end parallel_items(search *S, rootpath *rp, int bound, int *cut, buf *err)
{
    int n = S->o->jobs;
    worker *wk = xcalloc((size_t)n, sizeof *wk);
    fflush(NULL);
    for (int i = 0; i < n; i++) {
        int a[2], b[2];
        if (pipe(a) || pipe(b)) {
            buf_printf(err, "cannot make a pipe for the search workers: %s", strerror(errno));
            n = i;
            break;
        }
        pid_t pid = fork();
        if (pid == 0) {
            close(a[1]);
            close(b[0]);
            for (int j = 0; j < i; j++) close(wk[j].to), close(wk[j].from);
            worker_main(S, rp, bound, a[0], b[1]);
            _exit(0);
        }
        close(a[0]);
        close(b[1]);
        wk[i] = (worker){ .pid = pid, .to = a[1], .from = b[0] };
        if (pid < 0) {
            buf_printf(err, "cannot start a search worker: %s", strerror(errno));
            close(a[1]);
            close(b[0]);
            n = i;
            break;
        }
    }
    enum level_end end = n ? LEVEL_COMPLETE : LEVEL_ERROR;
    int64_t *best = NULL;
    size_t nbest = 0;
    uint64_t bpos = 0;
    int64_t balt = 0;
    int stopping = 0;
    for (;;) {
        /* hand out items while workers are idle, as long as --max-paths leaves some */
        if (S->o->max_paths && S->r->paths >= S->o->max_paths && !stopping) {
            stopping = 1;
            if (end == LEVEL_COMPLETE) end = LEVEL_STOPPED;
        }
        for (int i = 0; i < n && !stopping; i++) {
            if (wk[i].busy) continue;
            /* --max-paths: a share of what the busy workers have not been given, so that all
             * of them together stay within it (each used to get the whole rest: 130 for 100) */
            uint64_t budget = 0;
            if (S->o->max_paths) {
                uint64_t given = 0;
                int idle = 0;
                for (int j = 0; j < n; j++) given += wk[j].busy ? wk[j].budget : 0, idle += !wk[j].busy;
                uint64_t left = S->o->max_paths - S->r->paths;
                left = left > given ? left - given : 0;
                if (!left) break; /* the others may end their items within it: wait for them */
                budget = (left + (uint64_t)idle - 1) / (uint64_t)idle;
                wk[i].budget = budget;
            }
            size_t pos;
            int64_t alt;
            int got;
            while ((got = level_next_item(S, rp, bound, &pos, &alt, cut)) && best && !level_item_before(pos, alt, bpos, balt)) {
            }
            if (!got) break;
            wk[i].busy = 1;
            wk[i].pos = pos;
            wk[i].alt = alt;
            uint64_t p64 = pos;
            buf ab;
            buf_init(&ab);
            alts_write(&ab, rp->avail, pos + 1);
            int bad = write_full(wk[i].to, &p64, sizeof p64) || write_full(wk[i].to, &alt, sizeof alt) ||
                      write_full(wk[i].to, &budget, sizeof budget) || write_full(wk[i].to, ab.p, ab.len);
            buf_release(&ab);
            if (bad) {
                buf_puts(err, "a search worker died");
                end = LEVEL_ERROR;
                stopping = 1;
                wk[i].busy = 0;
            }
        }
        struct pollfd pf[64];
        int idx[64], np = 0;
        for (int i = 0; i < n && np < 64; i++)
            if (wk[i].busy) pf[np] = (struct pollfd){ .fd = wk[i].from, .events = POLLIN }, idx[np++] = i;
        if (np == 0) break;
        if (poll(pf, (nfds_t)np, -1) < 0) {
            /* a signal to us alone (kill PID, not the terminal's ^C to the group): the busy
             * workers hear it too, so a script a model runs there ends as well (guard.h) */
            if (errno == EINTR) {
                if (S->o->stop && *S->o->stop)
                    for (int i = 0; i < n; i++) if (wk[i].busy) kill(wk[i].pid, SIGINT);
                continue;
            }
            buf_printf(err, "poll: %s", strerror(errno));
            end = LEVEL_ERROR;
            break;
        }
        for (int k = 0; k < np; k++) {
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            enum level_end e = take_result(S, rp, &wk[idx[k]], &best, &nbest, &bpos, &balt, err);
            if (e == LEVEL_CUT) *cut = 1;
            else if (e == LEVEL_STOPPED || e == LEVEL_ERROR) {
                stopping = 1;
                if (end != LEVEL_ERROR) end = e;
                wk[idx[k]].busy = 0;
            }
        }
    }
    for (int i = 0; i < n; i++) close(wk[i].to);
    for (int i = 0; i < n; i++) {
        close(wk[i].from);
        waitpid(wk[i].pid, NULL, 0);
    }
    free(wk);
    if (best && end != LEVEL_ERROR) {
        end = shrink_refind(S, best, nbest, err) == 0 ? LEVEL_FOUND : LEVEL_ERROR;
    }
    free(best);
    return end;
}

/* ---- a shard's share ----
 *
 * A shard runs the search of a level as one search would, but takes only its share of the
 * subtrees. What every shard runs alike is the split: the default path, and below it, to
 * SHARD_SPLIT_DEPTH, the first path of every item the split itself enables (an item's first
 * path is the path at its prefix with every later decision at its default; the items it
 * enables are its sub-items, and the alternatives it enables off its prefix are items of the
 * node above). The items of the split's last depth are the shares: each is one shard's, by a
 * hash of its prefix's deviations (the same at every level, so a shard that ends its
 * deepening early has exhausted the same shares at every later level). An item that a
 * shard's own paths enable (not the split's) is that shard's. Every alternative any path
 * enables is so taken by some shard, and the merged set is one search's.
 *
 * Why deeper than the default path's items: those are few (twelve for Redlock N=5 with both
 * clients at once, at most 4 deviations), their subtrees uneven (the largest a quarter of the
 * space), and most are enabled by another item's paths, not by the default path, so a static
 * split of them cannot be balanced over 64 tasks (measured: the largest share 33x the mean).
 * One level further, the items are many and small, and the first path of each item — which
 * enables the next value of its own window — is run by every shard, so they are shares too. */
#define SHARD_SPLIT_DEPTH 2

static uint64_t shard_mix(uint64_t id, size_t pos, int64_t alt)
{
    uint64_t h = id ^ ((uint64_t)pos << 32) ^ (uint64_t)alt;
    return ll_splitmix64(&h);
}

/* Runs the first path of item (pos, alt) of node n into node c; the alternatives it enables
 * off its prefix are the split's at n. */
static enum level_end shard_child(search *S, int bound, rootpath *n, size_t pos, int64_t alt, rootpath *c, buf *err)
{
    memset(c, 0, sizeof *c);
    if (search_should_stop(S)) return LEVEL_STOPPED;
    choice *prefix = xmalloc((pos + 1) * sizeof *prefix);
    memcpy(prefix, n->rec, (pos + 1) * sizeof *prefix);
    prefix[pos].value = alt;
    chooser *ch = chooser_new(CHOOSER_EXPLORE, S->sc->seed);
    chooser_set_script(ch, prefix, pos + 1);
    free(prefix);
    xpath p;
    int rc = search_run_path(S->sc, ch, 1, S->r->searched, &S->shared, &p, err);
    chooser_free(ch);
    if (rc == RUN_STOPPED) return search_stopped_in_run(S, err);
    if (rc != 0) return LEVEL_ERROR;
    if (search_account(S, &p, bound)) return LEVEL_FOUND;
    LL_ASSERT(p.nrec > pos); /* a prefix replays */
    c->n = p.nrec;
    c->rec = p.rec;
    c->decs = p.decs;
    c->avail = alts_array(c->n);
    c->done = alts_array(c->n);
    c->initial = alts_array(c->n);
    for (size_t j = 0; j <= pos; j++) alts_copy(&c->avail[j], &n->initial[j]);
    for (size_t i = pos + 1; i < c->n; i++)
        if (reduce_initial_avail(&c->avail[i], &c->decs[i], &c->rec[i], S->o->delays_extremes))
            S->r->abstracted |= EXPLORE_SAMPLED_RANDOM;
    reduce_analyse(&S->red, &p, c->avail, S->observer);
    p.rec = NULL;
    p.decs = NULL;
    path_free(&p);
    for (size_t j = 0; j <= pos; j++) {
        alts_union(&n->initial[j], &c->avail[j], NULL);
        alts_union(&n->avail[j], &c->avail[j], NULL);
    }
    for (size_t i = pos + 1; i < c->n; i++) alts_copy(&c->initial[i], &c->avail[i]);
    return LEVEL_COMPLETE;
}

/* The items of node n below its prefix (positions from `from`): the split's, to their
 * depth, then this shard's shares and what its own paths enable. */
static enum level_end shard_node(search *S, int bound, rootpath *n, size_t from, int depth, uint64_t id, int *cut,
                                 buf *err)
{
    int max_depth = S->sc->explore.max_depth > 0 ? S->sc->explore.max_depth : INT32_MAX;
    int devs = 0; /* the prefix's deviations (every later decision is at its default) */
    for (size_t j = 0; j < from; j++)
        if (!search_is_placement(&n->decs[j]) && n->rec[j].value != 0) devs++;
    for (;;) {
        size_t pos = 0;
        int64_t alt = -1;
        for (size_t k = n->n; alt < 0 && k-- > from;) {
            for (int64_t u = alts_next(&n->avail[k], 0, n->rec[k].n); u > 0; u = alts_next(&n->avail[k], u, n->rec[k].n)) {
                if (alts_has(&n->done[k], u)) continue;
                alts_add(&n->done[k], u);
                int fault = search_is_placement(&n->decs[k]);
                if (!fault && (int)k >= max_depth) {
                    S->r->depth_cut = 1;
                    continue;
                }
                if (!fault && bound >= 0 && devs + 1 > bound) {
                    *cut = 1;
                    continue;
                }
                pos = k;
                alt = u;
                break;
            }
        }
        if (alt < 0) return LEVEL_COMPLETE;
        enum level_end end;
        uint64_t cid = shard_mix(id, pos, alt);
        if (!alts_has(&n->initial[pos], alt)) {
            end = level_run_item(S, n, bound, pos, alt, err); /* this shard's own paths enabled it */
        } else if (depth + 1 < SHARD_SPLIT_DEPTH) {
            rootpath c;
            end = shard_child(S, bound, n, pos, alt, &c, err);
            if (end == LEVEL_COMPLETE) {
                end = shard_node(S, bound, &c, pos + 1, depth + 1, cid, cut, err);
                for (size_t j = 0; j <= pos; j++) {
                    alts_union(&n->initial[j], &c.initial[j], NULL);
                    alts_union(&n->avail[j], &c.initial[j], NULL);
                    alts_union(&n->avail[j], &c.avail[j], NULL);
                }
            }
            rootpath_free(&c);
        } else if (cid % (uint64_t)S->o->shard_count == (uint64_t)(S->o->shard_index - 1)) {
            end = level_run_item(S, n, bound, pos, alt, err); /* a share, this shard's */
        } else {
            continue; /* another shard's */
        }
        if (end == LEVEL_CUT) *cut = 1;
        else if (end != LEVEL_COMPLETE) return end;
    }
}

enum level_end parallel_shard_level(search *S, int bound, buf *err)
{
    if (S->o->pool || S->o->pool_balance) return pool_level(S, bound, err); /* pool.c */
    rootpath rp;
    enum level_end end = level_run_root(S, bound, &rp, err);
    if (end != LEVEL_COMPLETE) return end;
    int cut = 0;
    end = shard_node(S, bound, &rp, 0, 0, 0x6c6f636b6c616221ULL, &cut, err);
    rootpath_free(&rp);
    if (end == LEVEL_CUT || end == LEVEL_COMPLETE) return cut ? LEVEL_CUT : LEVEL_COMPLETE;
    return end;
}
