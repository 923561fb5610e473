/* parallel.c — a level's items over worker processes (--jobs), and shards over machines
 * (--shard I/N, --merge).
 *
 * Jobs. After the default path of a level, the search forks N workers; the parent hands out
 * items in the order one job takes them (deepest position first) and each worker explores
 * its item's subtree and answers with its totals, the hashes of its outcomes, the
 * alternatives its paths enabled on the default path (new items for the parent to hand out)
 * and the violation it found, if any. The explored set is the same fixpoint whatever the
 * order items finish in, so the totals of a complete search do not depend on N. A violation
 * is the one a single job would have found: once an item reports one, the parent hands out
 * only items that come before it in that order, waits for them, and keeps the first.
 *
 * Shards. A shard runs the whole search but takes only its share of the subtrees (parallel_shard_level,
 * below: the split is run by every shard alike, the shares below it by one each, by a hash the
 * same at every level), plus whatever its own paths enable. It writes its totals, hashes and
 * violation to a file, with what makes it a shard of this search (the build, the scenario
 * file's hash, the options); the merge refuses a file of another search, names a shard
 * missing, adds the totals, unites the hashes, and keeps the violation of the lowest level
 * and the earliest in the order one search runs its paths — what it would have found — which
 * it then minimises. */
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

/* Does item a come before item b in the order one job takes them? */
static int item_before(uint64_t pa, int64_t aa, uint64_t pb, int64_t ab)
{
    return pa != pb ? pa > pb : aa < ab;
}

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
    if (w.end == LEVEL_FOUND && (!*best || item_before(wk->pos, wk->alt, *bpos, *balt))) {
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
        S->o->progress(S->o->progress_ud, r->paths, r->transitions, S->level, search_now() - S->t0);
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
            while ((got = level_next_item(S, rp, bound, &pos, &alt, cut)) && best && !item_before(pos, alt, bpos, balt)) {
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
        end = explore_refind(S, best, nbest, err) == 0 ? LEVEL_FOUND : LEVEL_ERROR;
    }
    free(best);
    return end;
}

/* ---- shards ---- */

/* What makes shards of one search: the same build of locklab (a hash of the running
 * executable: a shard of another build may have searched otherwise), the same scenario file
 * (a hash of its bytes: edited between two tasks, it is another problem) and the same
 * options that bound the search. A merge refuses a file whose identity is not its own. */
static uint64_t hash_file(const char *path)
{
    buf b;
    buf_init(&b);
    uint64_t h = 0;
    if (path && ll_read_file(path, (size_t)1 << 30, &b) == LL_READ_OK) h = dict_hash(b.p ? b.p : "", b.len);
    else if (path) h = dict_hash(path, strlen(path)); /* not a file (a scenario from a string) */
    buf_release(&b);
    return h;
}

static uint64_t build_id(void)
{
    static uint64_t id;
    if (!id) id = hash_file("/proc/self/exe") | 1;
    return id;
}

static void shard_options(const explore_opts *o, buf *b)
{
    buf_printf(b, "max_deviations=%d delays=%s probes=%llu", o->max_deviations,
               o->delays_extremes == EXPLORE_DELAYS_ENDS ? "ends" : o->delays_extremes ? "extremes" : "orders", (unsigned long long)o->probes);
}

void parallel_shard_identity(const scenario *sc, const explore_opts *o, buf *b)
{
    buf_printf(b, "scenario %s\ntasks %d\nbuild %016llx\nsource %016llx\noptions ", sc->name, o->shard_count,
               (unsigned long long)build_id(), (unsigned long long)hash_file(sc->path));
    shard_options(o, b);
    buf_puts(b, "\n");
}

int explore_write_shard(const scenario *sc, const explore_opts *o, const explore_result *r, const char *path, buf *err)
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "# locklab check shard %d of %d: merge with 'locklab check SCENARIO --merge FILE...'\n",
               o->shard_index, o->shard_count);
    buf_printf(&b, "scenario %s\nshard %d %d\n", sc->name, o->shard_index, o->shard_count);
    buf_printf(&b, "build %016llx\nsource %016llx\noptions ", (unsigned long long)build_id(),
               (unsigned long long)hash_file(sc->path));
    shard_options(o, &b);
    buf_puts(&b, "\n");
    buf_printf(&b, "paths %llu\ntransitions %llu\nlongest %d\nseconds %.3f\nprobes %llu\n", (unsigned long long)r->paths,
               (unsigned long long)r->transitions, r->max_depth_seen, r->seconds, (unsigned long long)r->probes);
    buf_printf(&b, "complete %d\nexhausted %d\nbound %d\ndepth_cut %d\nabstracted %d\nstopped %d\n",
               r->complete, r->deviations_exhausted, r->deviation_bound, r->depth_cut, r->abstracted,
               r->timed_out || r->interrupted || r->memory_stop);
    buf_puts(&b, "witnessed");
    for (int q = 0; q < PROP_COUNT; q++) buf_printf(&b, " %d", r->witnessed[q]);
    buf_puts(&b, "\n");
    if (r->nfound_path) {
        buf_printf(&b, "found %d %zu", r->found_level, r->nfound_path);
        for (size_t i = 0; i < r->nfound_path; i++) buf_printf(&b, " %lld", (long long)r->found_path[i]);
        buf_puts(&b, "\n");
    }
    for (size_t i = 0; i < r->nhashes; i++) buf_printf(&b, "h %016llx\n", (unsigned long long)r->hashes[i]);
    if (o->pool) pool_write(&b);
    buf_puts(&b, "end\n");
    int rc = ll_write_file(path, b.p, b.len, err);
    buf_release(&b);
    return rc;
}

typedef struct shardfile {
    int index, count, complete, exhausted, bound, depth_cut, delays, stopped, longest, level;
    unsigned long long build, source;
    char options[128];
    double seconds;
    unsigned long long paths, transitions, probes;
    int witnessed[PROP_COUNT];
    int64_t *found;
    size_t nfound;
    int pool; /* a task of a pool (its attempt), or -1 */
} shardfile;

/* A share of a pool named in a shard file, as one 64-bit key. */
static int pool_key(const char *line, const char *what, uint64_t *key)
{
    int pass, bound, n = 0;
    char ids[40];
    size_t wl = strlen(what);
    if (strncmp(line, what, wl) || line[wl] != ' ') return 0;
    if (sscanf(line + wl, " %d %d %39s%n", &pass, &bound, ids, &n) != 3 || line[wl + (size_t)n] || strlen(ids) != 32)
        return -1;
    char hi[17];
    memcpy(hi, ids, 16);
    hi[16] = 0;
    char *e;
    uint64_t x = strtoull(hi, &e, 16);
    if (*e || strspn(ids + 16, "0123456789abcdef") != 16) return -1;
    uint64_t s = ((uint64_t)(uint32_t)pass << 32) ^ (uint32_t)bound ^ strtoull(ids + 16, NULL, 16);
    *key = x ^ ll_splitmix64(&s);
    return 1;
}

static int hset_has(const hset *s, uint64_t h)
{
    if (h == 0) h = 1;
    if (!s->cap) return 0;
    for (size_t j = h & (s->cap - 1); s->v[j]; j = (j + 1) & (s->cap - 1))
        if (s->v[j] == h) return 1;
    return 0;
}

/* The value of a line "NAME VALUE" when it is one: a whole decimal number from lo to hi (or,
 * real, a finite number from 0 to 1e9), nothing after it; each name once (seen: bit i of names).
 * 1: it was, in *v; 0: not this name; -1: this name with a bad value (err says so). */
static int shard_number(const char *line, const char *name, int real, long long lo, long long hi, void *v,
                        unsigned *seen, int bit, const char *path, int lineno, buf *err)
{
    size_t nl = strlen(name);
    if (strncmp(line, name, nl) != 0 || line[nl] != ' ') return 0;
    const char *p = line + nl + 1;
    char *end;
    errno = 0;
    if (*seen >> bit & 1) {
        buf_printf(err, "%s:%d: '%s' given twice", path, lineno, name);
        return -1;
    }
    *seen |= 1u << bit;
    if (real) {
        double d = strtod(p, &end);
        if (end == p || *end || errno || !(d >= 0 && d <= 1e9)) goto bad;
        *(double *)v = d;
        return 1;
    }
    if (!((*p >= '0' && *p <= '9') || (*p == '-' && lo < 0))) goto bad;
    long long x = strtoll(p, &end, 10);
    if (end == p || *end || errno || x < lo || x > hi) goto bad;
    if (hi > INT32_MAX) *(unsigned long long *)v = (unsigned long long)x;
    else *(int *)v = (int)x;
    return 1;
bad:
    buf_printf(err, "%s:%d: '%s' is not a valid %s", path, lineno, line, name);
    return -1;
}

static int read_shard(const char *path, const scenario *sc, shardfile *f, hset *hashes, hset *pubs, hset *dids, buf *err)
{
    buf in;
    buf_init(&in);
    int got = ll_read_file(path, (size_t)1 << 30, &in);
    if (got != LL_READ_OK) {
        buf_printf(err, "cannot read '%s': %s", path, got == LL_READ_TOO_BIG ? "larger than 1 GiB" : strerror(errno));
        buf_release(&in);
        return -1;
    }
    buf_append(&in, "", 1);
    size_t len = in.len;
    char *text = buf_steal(&in);
    memset(f, 0, sizeof *f);
    f->level = -1;
    f->pool = -1;
    int lineno = 0, ended = 0, rc = 0, k;
    unsigned seen = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (line[0] == '#') continue;
        unsigned long long h;
        uint64_t key;
        int n = 0;
        if (!strncmp(line, "scenario ", 9)) {
            if (strcmp(line + 9, sc->name)) {
                buf_printf(err, "%s:%d: a shard of '%s', not of '%s'", path, lineno, line + 9, sc->name);
                rc = -1;
            }
        } else if (sscanf(line, "shard %d %d%n", &f->index, &f->count, &n) == 2 && !line[n]) {
        } else if (sscanf(line, "build %llx%n", &f->build, &n) == 1 && !line[n]) {
            if (f->build != build_id()) {
                buf_printf(err, "%s:%d: a shard of another build of locklab: merge with the locklab that searched it",
                           path, lineno);
                rc = -1;
            }
        } else if (sscanf(line, "source %llx%n", &f->source, &n) == 1 && !line[n]) {
            if (f->source != hash_file(sc->path)) {
                buf_printf(err, "%s:%d: a shard of another version of %s (the file changed since it was searched)", path,
                           lineno, sc->path);
                rc = -1;
            }
        } else if (!strncmp(line, "options ", 8) && strlen(line + 8) < sizeof f->options) {
            strcpy(f->options, line + 8);
        } else if ((k = shard_number(line, "paths", 0, 0, INT64_MAX, &f->paths, &seen, 0, path, lineno, err)) ||
                   (k = shard_number(line, "transitions", 0, 0, INT64_MAX, &f->transitions, &seen, 1, path, lineno, err)) ||
                   (k = shard_number(line, "longest", 0, 0, INT32_MAX, &f->longest, &seen, 2, path, lineno, err)) ||
                   (k = shard_number(line, "seconds", 1, 0, 0, &f->seconds, &seen, 3, path, lineno, err)) ||
                   (k = shard_number(line, "complete", 0, 0, 1, &f->complete, &seen, 4, path, lineno, err)) ||
                   (k = shard_number(line, "exhausted", 0, -1, INT32_MAX, &f->exhausted, &seen, 5, path, lineno, err)) ||
                   (k = shard_number(line, "bound", 0, -1, INT32_MAX, &f->bound, &seen, 6, path, lineno, err)) ||
                   (k = shard_number(line, "depth_cut", 0, 0, 1, &f->depth_cut, &seen, 7, path, lineno, err)) ||
                   (k = shard_number(line, "abstracted", 0, 0, 255, &f->delays, &seen, 8, path, lineno, err)) ||
                   (k = shard_number(line, "stopped", 0, 0, 1, &f->stopped, &seen, 9, path, lineno, err)) ||
                   (k = shard_number(line, "probes", 0, 0, INT64_MAX, &f->probes, &seen, 10, path, lineno, err))) {
            if (k < 0) rc = -1;
        } else if (!strncmp(line, "witnessed", 9)) {
            char *p = line + 9;
            for (int q = 0; q < PROP_COUNT && rc == 0; q++) {
                char *e;
                long w = strtol(p, &e, 10);
                if (e == p || (w != 0 && w != 1)) {
                    buf_printf(err, "%s:%d: a 'witnessed' line needs %d flags of 0 or 1", path, lineno, PROP_COUNT);
                    rc = -1;
                }
                f->witnessed[q] = (int)w;
                p = e;
            }
            if (rc == 0 && *p) {
                buf_printf(err, "%s:%d: a 'witnessed' line needs %d flags of 0 or 1", path, lineno, PROP_COUNT);
                rc = -1;
            }
        } else if (!strncmp(line, "found ", 6)) {
            char *p = line + 6;
            f->level = (int)strtol(p, &p, 10);
            size_t cnt = strtoull(p, &p, 10);
            if (cnt > len) {
                buf_printf(err, "%s:%d: a found path longer than the file", path, lineno);
                rc = -1;
                break;
            }
            f->found = xmalloc((cnt + 1) * sizeof *f->found);
            for (size_t i = 0; i < cnt; i++) f->found[i] = strtoll(p, &p, 10);
            f->nfound = cnt;
        } else if (sscanf(line, "h %llx%n", &h, &n) == 1 && !line[n]) {
            hset_add(hashes, h);
        } else if (sscanf(line, "pool %d%n", &f->pool, &n) == 1 && !line[n] && f->pool >= 0) {
        } else if ((k = pool_key(line, "pub", &key)) || (k = pool_key(line, "did", &key))) {
            if (k < 0 || f->pool < 0) {
                buf_printf(err, "%s:%d: not a line of a locklab check shard file", path, lineno);
                rc = -1;
            } else {
                hset_add(line[0] == 'p' ? pubs : dids, key);
            }
        } else if (!strcmp(line, "end")) {
            ended = 1;
        } else {
            buf_printf(err, "%s:%d: not a line of a locklab check shard file", path, lineno);
            rc = -1;
        }
    }
    free(text);
    if (rc == 0 && !ended) {
        buf_printf(err, "%s: cut short (no 'end' line): was its shard still running?", path);
        rc = -1;
    }
    if (rc == 0 && (seen & 0x7ff) != 0x7ff) {
        buf_printf(err, "%s: a line of the totals is missing (paths, transitions, longest, seconds, probes, complete, "
                   "exhausted, bound, depth_cut, abstracted, stopped)", path);
        rc = -1;
    }
    if (rc == 0 && (f->count < 1 || f->index < 1 || f->index > f->count)) {
        buf_printf(err, "%s: no valid 'shard I N' line", path);
        rc = -1;
    }
    if (rc == 0 && (!f->build || !f->source || !f->options[0])) {
        buf_printf(err, "%s: no 'build', 'source' or 'options' line: written by an older locklab; search its shard again",
                   path);
        rc = -1;
    }
    if (rc != 0) free(f->found);
    return rc;
}

/* Does path a come before path b in the order one search runs them? Items deepest first,
 * lowest alternative first, and within an item its first path, then its own items in the
 * same order: their deviations (position, value) compared one by one. (Shards split below
 * the default path's items: two shards may find violations in one item.) */
int parallel_path_before(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < na && a[i] == 0) i++;
        while (j < nb && b[j] == 0) j++;
        if (i >= na || j >= nb) return i >= na && j < nb; /* a is b's item's first path */
        if (i != j || a[i] != b[j]) {
            uint64_t pa = i, pb = j;
            return item_before(pa, a[i], pb, b[j]);
        }
        i++;
        j++;
    }
}

int explore_merge(const scenario *sc, const char *const *files, int nfiles, explore_result *r, buf *err)
{
    memset(r, 0, sizeof *r);
    r->deviations_exhausted = r->deviation_bound = -1;
    search_choose_properties(sc, r->searched);
    hset hashes = { 0 }, pubs = { 0 }, dids = { 0 };
    int count = 0, rc = 0, have = 0, all_complete = 1, min_exhausted = INT32_MAX, max_bound = -1, pooled = -1;
    int64_t *best = NULL;
    size_t nbest = 0;
    int best_level = 0;
    unsigned char *seen = NULL;
    char options[128] = "";
    for (int i = 0; i < nfiles && rc == 0; i++) {
        shardfile f;
        if (read_shard(files[i], sc, &f, &hashes, &pubs, &dids, err) != 0) {
            rc = -1;
            break;
        }
        if (!count) {
            count = f.count;
            seen = xcalloc((size_t)count + 1, 1);
            strcpy(options, f.options);
            int md = -1; /* shard_options: the shards' --max-deviations */
            r->bound_by_option = sscanf(f.options, "max_deviations=%d", &md) == 1 && md >= 0;
        }
        if (f.count != count) {
            buf_printf(err, "%s: shard %d of %d, where the others are of %d", files[i], f.index, f.count, count);
            rc = -1;
        } else if (seen[f.index]++) {
            buf_printf(err, "%s: shard %d of %d given twice", files[i], f.index, f.count);
            rc = -1;
        } else if (strcmp(f.options, options)) {
            buf_printf(err, "%s: searched with %s, where the others were with %s", files[i], f.options, options);
            rc = -1;
        } else if (pooled >= 0 && pooled != (f.pool >= 0)) {
            buf_printf(err, "%s: %s, where the others %s", files[i],
                       f.pool >= 0 ? "a task of a pool (--pool)" : "a shard of a fixed split (no --pool)",
                       pooled ? "are tasks of a pool" : "are shards of a fixed split");
            rc = -1;
        }
        pooled = f.pool >= 0;
        if (rc != 0) {
            free(f.found);
            break;
        }
        have++;
        r->paths += f.paths;
        r->transitions += f.transitions;
        if (f.probes > r->probes) r->probes = f.probes; /* every shard runs the same ones */
        r->seconds += f.seconds; /* the shards' time added up */
        if (f.longest > r->max_depth_seen) r->max_depth_seen = f.longest;
        r->depth_cut |= f.depth_cut;
        r->abstracted |= f.delays;
        for (int q = 0; q < PROP_COUNT; q++) r->witnessed[q] |= f.witnessed[q];
        all_complete &= f.complete;
        if (f.exhausted < min_exhausted) min_exhausted = f.exhausted;
        if (f.bound > max_bound) max_bound = f.bound;
        if (f.stopped) r->timed_out = 1;
        /* Shards order their items the way one search does; the lowest level first, then
         * (within a level) the one whose path comes first. */
        if (f.nfound && (!best || f.level < best_level ||
                         (f.level == best_level && parallel_path_before(f.found, f.nfound, best, nbest)))) {
            free(best);
            best = f.found;
            nbest = f.nfound;
            best_level = f.level;
        } else {
            free(f.found);
        }
    }
    if (rc == 0 && pooled == 1) {
        /* a pool: what counts is every share some task's paths enabled being run by a task
         * whose file is here (a task that left none may have had its shares taken over) */
        uint64_t holes = 0;
        for (size_t i = 0; i < pubs.cap; i++)
            if (pubs.v[i] && !hset_has(&dids, pubs.v[i])) holes++;
        if (holes) {
            int listed = 0;
            for (int k = 1; k <= count && listed < 8; k++)
                if (!seen[k]) buf_printf(err, "%s%d", listed++ ? ", " : "shard ", k);
            if (listed) buf_printf(err, "%s of %d missing, and ", count - have > listed ? ", ..." : "", count);
            buf_printf(err, "%llu of the %zu shares the tasks enabled %s not searched (nor what %s enable): "
                       "not finished; search %s again "
                       "with the same --pool folder (a task run again searches again what its earlier run did) "
                       "and merge again",
                       (unsigned long long)holes, pubs.n, holes == 1 ? "was" : "were", holes == 1 ? "it would" : "they would",
                       listed ? (count - have == 1 ? "it" : "them") : "the tasks that stopped");
            rc = -2;
        }
    } else if (rc == 0 && have != count) {
        /* a shard not given is a part of the space not searched: never "holds" (explore.h) */
        int listed = 0;
        for (int k = 1; k <= count && listed < 8; k++)
            if (!seen[k]) buf_printf(err, "%s%d", listed++ ? ", " : "shard ", k);
        buf_printf(err, "%s of %d missing (%d of %d shard files given): not finished; search %s and merge again",
                   count - have > listed ? ", ..." : "", count, have, count, count - have == 1 ? "it" : "them");
        rc = -2;
    }
    free(seen);
    free(pubs.v);
    free(dids.v);
    if (rc != 0) {
        free(best);
        free(hashes.v);
        return rc;
    }
    r->outcomes = hashes.n;
    free(hashes.v);
    r->complete = all_complete && !best;
    r->deviations_exhausted = min_exhausted == INT32_MAX ? -1 : min_exhausted;
    r->deviation_bound = all_complete ? max_bound : -1;
    if (best) rc = explore_shrink_path(sc, best, nbest, best_level, r, err);
    free(best);
    return rc;
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
