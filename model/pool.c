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
 * POOL_BEAT seconds, is missing (it ended: stopped by --time) or older than POOL_STALE
 * seconds than the reader's own, or the driver wrote 'gone-T' (tools/slurm-check.sh, for a
 * task it gave up). A share's results (paths, outcomes, a violation) are in its task's
 * shard file, written when the task ends, which lists the shares it enabled ('pub') and ran
 * ('did'): the merge counts a share enabled and never run as not searched (exit 4), whatever
 * the logs said. */
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
#include "exploreint.h"

/* A share with fewer deviations (decisions off their default, faults' placements included) is
 * run as its first path, its items shares in turn; a deeper one as its subtree (a claim and
 * log lines for many paths). Measured with --pool-balance 64 on make bench's restarts problem
 * (the largest task over the mean): 3, 1.18x; every share expanded (a claim a path), 1.11x
 * with the fewest deviations first alone; when each task took its own newest share first, 3
 * gave 1.36x and 4 or more 1.23x. The Redisson problem's 1.71x is its chain's, whatever this. */
#define POOL_EXPAND 3
#define POOL_BEAT 5     /* s: how often a task touches its alive file */
#define POOL_STALE 60   /* s: an alive file this much older than the reader's: its task is gone */
#define POOL_LOOK 0.05  /* s: the most a task with shares of its own waits to read the others' logs */

typedef struct pitem {
    uint64_t id[2];
    int pass, bound;   /* pool_phase and the level's bound */
    uint32_t m, nnz;   /* the prefix's length; its decisions off the default */
    uint32_t *pos;     /* nnz positions, their values, m placement flags (bits) and the m */
    int64_t *val;      /* decisions' numbers of alternatives (for a share searched as a subtree) */
    uint8_t *pf;
    int64_t *nalt;
    int state;         /* POOL_KNOWN, ... */
    int flags;         /* its end: POOL_CUT, POOL_FOUND */
    int owner_t, owner_a;
    uint8_t pub, did;  /* enabled by this task's paths; run by this task */
} pitem;
enum { POOL_KNOWN, POOL_MINE, POOL_OTHERS, POOL_DONE };
#define POOL_CUT 1
#define POOL_FOUND 2

typedef struct plog {
    char *name;
    int fd, t, a, is_pub;
    off_t off;
} plog;

typedef struct pool {
    char *dir;
    int task, ntasks, attempt;
    FILE *pub, *done;
    char *alive;
    pitem *it;
    size_t n, cap;
    uint64_t *slot; /* open addressing: index + 1 by id[0] */
    size_t nslot;
    plog *logs;
    size_t nlogs;
    size_t *heap; /* the shares not taken, in the order next_share takes them */
    size_t nheap, capheap;
    xpath best;    /* the first violation this task's shares found (in one search's order) */
    int have_best;
    int beat_stop;
    pthread_t beat;
    int have_beat;
    /* --pool-balance N: no folder; N tasks simulated in this process (pool_sim_level) */
    int nsim;
    uint64_t *clock, *load, *finish, makespan;
    uint64_t *avail; /* per share: when it is there to take (the simulated time) */
    size_t capavail;
} pool;

static pool *P_; /* one pool a process (the check command runs one search) */

/* ---- names ---- */

/* What a share belongs to besides its level's bound: the first level's pass with a smaller
 * fault budget (explore_run), and a level's coarse pass (readings of TIME at their whole ms)
 * or the level itself — each a search of its own, its shares not the others'. */
static int pool_phase(const search *S)
{
    return S->pass * 2 + (S->coarse ? 1 : 0);
}

static void item_id(int pass, int bound, uint32_t m, const uint32_t *pos, const int64_t *val, uint32_t nnz,
                    uint64_t id[2])
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "%d:%d:%u", pass, bound, m);
    for (uint32_t i = 0; i < nnz; i++) buf_printf(&b, " %u=%lld", pos[i], (long long)val[i]);
    id[0] = dict_hash(b.p, b.len);
    uint64_t h = 1469598103934665603ULL; /* FNV-1a: a second, independent half of the name */
    for (size_t i = 0; i < b.len; i++) h = (h ^ (uint8_t)b.p[i]) * 1099511628211ULL;
    id[1] = h;
    buf_release(&b);
}

static void path_of(pool *P, const char *what, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", P->dir, what);
}

/* ---- the item table ---- */

static pitem *find_item(pool *P, const uint64_t id[2])
{
    if (!P->nslot) return NULL;
    for (size_t s = id[0] & (P->nslot - 1);; s = (s + 1) & (P->nslot - 1)) {
        if (!P->slot[s]) return NULL;
        pitem *it = &P->it[P->slot[s] - 1];
        if (it->id[0] == id[0] && it->id[1] == id[1]) return it;
    }
}

static void index_item(pool *P, size_t k)
{
    for (size_t s = P->it[k].id[0] & (P->nslot - 1);; s = (s + 1) & (P->nslot - 1))
        if (!P->slot[s]) {
            P->slot[s] = k + 1;
            return;
        }
}

/* The order shares are taken in: the fewest deviations first, then the earliest position
 * changed, then the first known. A share's items have one deviation more than it; the next
 * crossing of a window, as many and at the same position. So the shares that enable the most
 * go first, and a chain of crossings — each found by the path at the one before: the
 * longest wait of a search split so — goes on as fast as its paths run (measured with
 * --pool-balance 64 on the Redisson problem of make bench: three windows of 1,001 values at
 * the root, the last share ending at 1,001 paths' time, where it ends at 1,374 when the
 * shares of one deviation go first in the order they were found). */
static int share_before(const pitem *a, size_t ia, const pitem *b, size_t ib)
{
    if (a->nnz != b->nnz) return a->nnz < b->nnz;
    if (a->m != b->m) return a->m < b->m;
    return ia < ib;
}

static void heap_push(pool *P, size_t k)
{
    if (P->nheap == P->capheap) {
        P->capheap = P->capheap ? P->capheap * 2 : 1024;
        P->heap = xrealloc(P->heap, P->capheap * sizeof *P->heap);
    }
    size_t i = P->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!share_before(&P->it[k], k, &P->it[P->heap[up]], P->heap[up])) break;
        P->heap[i] = P->heap[up];
        i = up;
    }
    P->heap[i] = k;
}

static size_t heap_pop(pool *P)
{
    size_t top = P->heap[0], last = P->heap[--P->nheap], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= P->nheap) break;
        if (c + 1 < P->nheap && share_before(&P->it[P->heap[c + 1]], P->heap[c + 1], &P->it[P->heap[c]], P->heap[c])) c++;
        if (!share_before(&P->it[P->heap[c]], P->heap[c], &P->it[last], last)) break;
        P->heap[i] = P->heap[c];
        i = c;
    }
    if (P->nheap) P->heap[i] = last;
    return top;
}

/* Adds the share (a copy of its prefix) unless known; returns it, *fresh when new. */
static pitem *add_item(pool *P, int pass, int bound, uint32_t m, const uint32_t *pos, const int64_t *val,
                       uint32_t nnz, const uint8_t *pf, const int64_t *nalt, int *fresh)
{
    uint64_t id[2];
    item_id(pass, bound, m, pos, val, nnz, id);
    pitem *old = find_item(P, id);
    *fresh = !old;
    if (old) return old;
    if (P->n == P->cap) {
        P->cap = P->cap ? P->cap * 2 : 1024;
        P->it = xrealloc(P->it, P->cap * sizeof *P->it);
    }
    if ((P->n + 1) * 2 > P->nslot) {
        free(P->slot);
        P->nslot = P->nslot ? P->nslot * 2 : 4096;
        while ((P->n + 1) * 2 > P->nslot) P->nslot *= 2;
        P->slot = xcalloc(P->nslot, sizeof *P->slot);
        for (size_t k = 0; k < P->n; k++) index_item(P, k);
    }
    pitem *it = &P->it[P->n];
    memset(it, 0, sizeof *it);
    it->id[0] = id[0];
    it->id[1] = id[1];
    it->pass = pass;
    it->bound = bound;
    it->m = m;
    it->nnz = nnz;
    it->pos = xmalloc((nnz + 1) * sizeof *it->pos);
    it->val = xmalloc((nnz + 1) * sizeof *it->val);
    it->pf = xcalloc(m / 8 + 1, 1);
    if (nnz) memcpy(it->pos, pos, nnz * sizeof *pos);
    if (nnz) memcpy(it->val, val, nnz * sizeof *val);
    memcpy(it->pf, pf, m / 8 + 1);
    if (nnz >= POOL_EXPAND) { /* a subtree's share: publish, run_share */
        it->nalt = xmalloc((m + 1) * sizeof *it->nalt);
        memcpy(it->nalt, nalt, m * sizeof *nalt);
    }
    it->owner_t = it->owner_a = -1;
    index_item(P, P->n);
    P->n++;
    heap_push(P, P->n - 1);
    return it;
}

/* ---- the logs ---- */

static void hex_of(const uint8_t *p, size_t n, buf *b)
{
    for (size_t i = 0; i < n; i++) buf_printf(b, "%02x", p[i]);
}

static void log_line(FILE *f, const char *line, size_t len)
{
    /* one write a line (the file is opened to append): a reader sees whole lines or a tail
     * without its newline, which it leaves for its next read */
    fwrite(line, 1, len, f);
    fflush(f);
}

static void publish(pool *P, pitem *it)
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "%d %d %016llx%016llx %u %u", it->pass, it->bound, (unsigned long long)it->id[0],
               (unsigned long long)it->id[1], it->m, it->nnz);
    for (uint32_t i = 0; i < it->nnz; i++) buf_printf(&b, " %u=%lld", it->pos[i], (long long)it->val[i]);
    buf_puts(&b, " ");
    hex_of(it->pf, it->m / 8 + 1, &b);
    /* the numbers of alternatives along the prefix: only a share searched as a subtree needs
     * them (what its paths enable above it); one run as its first path has them from it */
    if (it->nnz >= POOL_EXPAND)
        for (uint32_t i = 0; i < it->m; i++) buf_printf(&b, "%s%lld", i ? "," : " ", (long long)it->nalt[i]);
    else
        buf_puts(&b, " -");
    buf_puts(&b, "\n");
    log_line(P->pub, b.p, b.len);
    buf_release(&b);
}

static int parse_id(const char *s, uint64_t id[2])
{
    char a[17], c[17];
    if (strlen(s) != 32) return -1;
    memcpy(a, s, 16);
    a[16] = 0;
    memcpy(c, s + 16, 16);
    c[16] = 0;
    char *e1, *e2;
    id[0] = strtoull(a, &e1, 16);
    id[1] = strtoull(c, &e2, 16);
    return *e1 || *e2 ? -1 : 0;
}

/* A line of a pub log: a share to know. Lines that do not parse are skipped (a log of
 * another version): what they held is, for the merge, a share never run. */
static void read_pub_line(pool *P, char *line)
{
    int pass, bound, used = 0;
    char ids[40];
    unsigned m, nnz;
    if (sscanf(line, "%d %d %39s %u %u%n", &pass, &bound, ids, &m, &nnz, &used) != 5 || m > (1u << 24) || nnz > m)
        return;
    uint32_t *pos = xmalloc((nnz + 1) * sizeof *pos);
    int64_t *val = xmalloc((nnz + 1) * sizeof *val);
    uint8_t *pf = xcalloc(m / 8 + 1, 1);
    int64_t *nalt = xcalloc(m + 1, sizeof *nalt);
    char *p = line + used;
    int ok = 1;
    for (unsigned i = 0; i < nnz && ok; i++) {
        unsigned long long ps;
        long long v;
        int k = 0;
        if (sscanf(p, " %llu=%lld%n", &ps, &v, &k) != 2 || ps >= m) ok = 0;
        pos[i] = (uint32_t)ps;
        val[i] = v;
        p += k;
    }
    while (ok && *p == ' ') p++;
    for (unsigned i = 0; ok && i < m / 8 + 1; i++) {
        unsigned x;
        if (sscanf(p, "%2x", &x) != 1) ok = 0;
        else pf[i] = (uint8_t)x;
        p += 2;
    }
    if (ok && nnz < POOL_EXPAND) {
        if (strcmp(p, " -") != 0) ok = 0;
        else p += 2;
    }
    for (unsigned i = 0; ok && nnz >= POOL_EXPAND && i < m; i++) {
        char *e;
        nalt[i] = strtoll(p + 1, &e, 10);
        if (e == p + 1 || *p != (i ? ',' : ' ')) ok = 0;
        p = e;
    }
    if (ok && !*p) {
        int fresh;
        add_item(P, pass, bound, m, pos, val, nnz, pf, nalt, &fresh); /* named by what it is */
    }
    free(pos);
    free(val);
    free(pf);
    free(nalt);
}

/* 0 when the share is not known yet: its pub line, in another log, was written before it but
 * read after (this line is read again next time). */
static int read_done_line(pool *P, char *line, int t, int a)
{
    int pass, bound, flags;
    char ids[40];
    uint64_t id[2];
    if (sscanf(line, "%d %d %39s %d", &pass, &bound, ids, &flags) != 4 || parse_id(ids, id)) return 1;
    pitem *it = find_item(P, id);
    if (!it) return 0;
    if (t == P->task && a < P->attempt) return 1; /* an earlier attempt of this task: its results died with it */
    if (it->state != POOL_DONE) it->state = POOL_DONE, it->flags = flags;
    else it->flags |= flags;
    return 1;
}

/* Reads what every log gained since the last read. pub logs first: a done line names a
 * share its task read first. */
static void read_logs(pool *P)
{
    DIR *d = opendir(P->dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        int t, a, k = 0, is_pub = 0;
        if (sscanf(e->d_name, "pub-%d.%d%n", &t, &a, &k) == 2 && !e->d_name[k]) is_pub = 1;
        else if (!(sscanf(e->d_name, "done-%d.%d%n", &t, &a, &k) == 2 && !e->d_name[k])) continue;
        size_t i;
        for (i = 0; i < P->nlogs; i++)
            if (!strcmp(P->logs[i].name, e->d_name)) break;
        if (i < P->nlogs) continue;
        char path[4096];
        path_of(P, e->d_name, path, sizeof path);
        int fd = open(path, O_RDONLY);
        if (fd < 0) continue;
        P->logs = xrealloc(P->logs, (P->nlogs + 1) * sizeof *P->logs);
        P->logs[P->nlogs++] = (plog){ .name = xstrdup(e->d_name), .fd = fd, .t = t, .a = a, .is_pub = is_pub };
    }
    closedir(d);
    buf b;
    buf_init(&b);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < P->nlogs; i++) {
            plog *l = &P->logs[i];
            struct stat st;
            if (l->is_pub != (pass == 0) || fstat(l->fd, &st) != 0 || st.st_size <= l->off) continue;
            size_t want = (size_t)(st.st_size - l->off);
            buf_reset(&b);
            buf_reserve(&b, want + 1);
            ssize_t got = pread(l->fd, b.p, want, l->off);
            if (got <= 0) continue;
            b.p[got] = 0;
            char *line = b.p;
            for (char *nl; (nl = memchr(line, '\n', (size_t)(b.p + got - line)));) { /* a tail being written: next time */
                *nl = 0;
                if (l->is_pub) read_pub_line(P, line);
                else if (!read_done_line(P, line, l->t, l->a)) break;
                l->off += nl + 1 - line;
                line = nl + 1;
            }
        }
    buf_release(&b);
}

/* ---- claims ---- */

static void claim_path(pool *P, const pitem *it, char *out, size_t n)
{
    snprintf(out, n, "%s/claims/%016llx%016llx", P->dir, (unsigned long long)it->id[0], (unsigned long long)it->id[1]);
}

/* A claim is a symbolic link whose target names its task and attempt ("T.A"): made in one
 * step, refused when it exists (symlink(2), EEXIST, as O_EXCL for a file, NFS included), and
 * its name is all it holds — no data block for each share of a search of many. */
static void read_owner(pool *P, pitem *it)
{
    char path[4096], text[64];
    claim_path(P, it, path, sizeof path);
    it->owner_t = it->owner_a = -1;
    ssize_t n = readlink(path, text, sizeof text - 1);
    if (n <= 0) return;
    text[n] = 0;
    if (sscanf(text, "%d.%d", &it->owner_t, &it->owner_a) != 2) it->owner_t = it->owner_a = -1;
}

/* 1 when this task now holds the share; 0 when another does. */
static int claim(pool *P, pitem *it, int retake)
{
    char path[4096], tmp[4200], text[64];
    claim_path(P, it, path, sizeof path);
    snprintf(text, sizeof text, "%d.%d", P->task, P->attempt);
    if (retake) { /* over a gone claimer's: the new claim replaces it whole */
        snprintf(tmp, sizeof tmp, "%s.%d.%d", path, P->task, P->attempt);
        unlink(tmp);
        if (symlink(text, tmp) != 0 || rename(tmp, path) != 0) {
            unlink(tmp);
            return 0;
        }
        return 1;
    }
    if (symlink(text, path) == 0) return 1;
    if (errno != EEXIST) return 0;
    read_owner(P, it);
    /* this very task: a retransmitted request's answer over NFS (the link made, EEXIST said) */
    if (it->owner_t == P->task && it->owner_a == P->attempt) return 1;
    /* this task's earlier attempt (killed; Slurm requeued it): take it again */
    if (it->owner_t == P->task && it->owner_a >= 0 && it->owner_a < P->attempt) return claim(P, it, 1);
    return 0;
}

static int mtime_of(const char *path, struct timespec *t)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    *t = st.st_mtim;
    return 0;
}

/* Is the claimer of a share not done gone: ended, given up, or silent too long? */
static int claimer_gone(pool *P, pitem *it)
{
    read_owner(P, it); /* again: another task may have taken it over since */
    if (it->owner_t < 0) return 0;
    if (it->owner_t == P->task && it->owner_a < P->attempt) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/gone-%d", P->dir, it->owner_t);
    if (access(path, F_OK) == 0) return 1;
    snprintf(path, sizeof path, "%s/alive-%d.%d", P->dir, it->owner_t, it->owner_a);
    struct timespec theirs, mine;
    if (mtime_of(path, &theirs) != 0) return 1; /* it ended (a stopped search) without running it */
    if (mtime_of(P->alive, &mine) != 0) return 0;
    /* both times from the file system's clock: no two machines' clocks compared */
    return mine.tv_sec - theirs.tv_sec > POOL_STALE;
}

/* ---- the heartbeat ---- */

static void *beat_main(void *ud)
{
    pool *P = ud;
    while (!__atomic_load_n(&P->beat_stop, __ATOMIC_RELAXED)) {
        for (int i = 0; i < POOL_BEAT * 10 && !__atomic_load_n(&P->beat_stop, __ATOMIC_RELAXED); i++) {
            struct timespec ts = { 0, 100 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
        utimensat(AT_FDCWD, P->alive, NULL, 0);
    }
    return NULL;
}

static void pool_end(void)
{
    pool *P = P_;
    if (!P) return;
    if (P->have_beat) {
        __atomic_store_n(&P->beat_stop, 1, __ATOMIC_RELAXED);
        pthread_join(P->beat, NULL);
        P->have_beat = 0;
    }
    if (P->alive) unlink(P->alive); /* ended: what it claimed and did not run is anyone's */
}

static pool *pool_get(search *S, buf *err)
{
    if (P_) return P_;
    const explore_opts *o = S->o;
    pool *P = xcalloc(1, sizeof *P);
    if (o->pool_balance > 0) {
        P->nsim = o->pool_balance;
        P->clock = xcalloc((size_t)P->nsim, sizeof *P->clock);
        P->load = xcalloc((size_t)P->nsim, sizeof *P->load);
        P->finish = xcalloc((size_t)P->nsim, sizeof *P->finish);
        P_ = P;
        return P;
    }
    P->dir = xstrdup(o->pool);
    P->task = o->shard_index;
    P->ntasks = o->shard_count;
    const char *rc = getenv("SLURM_RESTART_COUNT"); /* Slurm's requeue: the attempt */
    P->attempt = rc && *rc >= '0' && *rc <= '9' ? atoi(rc) : 0;
    if (mkdir(P->dir, 0755) != 0 && errno != EEXIST) {
        buf_printf(err, "--pool %s: cannot make the folder: %s", P->dir, strerror(errno));
        free(P->dir);
        free(P);
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/claims", P->dir); /* apart: the logs are listed at every look */
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        buf_printf(err, "--pool %s: cannot make %s: %s", P->dir, path, strerror(errno));
        free(P->dir);
        free(P);
        return NULL;
    }
    /* the search whose shares these are: a folder of another search's (or another N's) would
     * hand out shares of that one */
    buf id;
    buf_init(&id);
    parallel_shard_identity(S->sc, o, &id);
    snprintf(path, sizeof path, "%s/search", P->dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    int bad = 0;
    if (fd >= 0) {
        bad = write(fd, id.p, id.len) != (ssize_t)id.len;
        close(fd);
    } else {
        buf was;
        buf_init(&was);
        for (int i = 0; i < 100 && ll_read_file(path, 1 << 16, &was) == LL_READ_OK && was.len < id.len; i++) {
            struct timespec ts = { 0, 10 * 1000 * 1000 }; /* another task writing it now */
            nanosleep(&ts, NULL);
            buf_reset(&was);
        }
        bad = was.len != id.len || memcmp(was.p, id.p, id.len) != 0;
        buf_release(&was);
    }
    buf_release(&id);
    if (bad) {
        buf_printf(err, "--pool %s holds the shares of another search (%s differs: another scenario, version of it, "
                   "build, N or options): give each search an empty folder", P->dir, path);
        free(P->dir);
        free(P);
        return NULL;
    }
    for (;;) { /* an attempt of this task that left its logs here, unknown to Slurm: the next number */
        snprintf(path, sizeof path, "%s/pub-%d.%d", P->dir, P->task, P->attempt);
        if (access(path, F_OK) != 0) break;
        P->attempt++;
    }
    P->pub = fopen(path, "a");
    snprintf(path, sizeof path, "%s/done-%d.%d", P->dir, P->task, P->attempt);
    P->done = P->pub ? fopen(path, "a") : NULL;
    snprintf(path, sizeof path, "%s/alive-%d.%d", P->dir, P->task, P->attempt);
    P->alive = xstrdup(path);
    FILE *f = P->done ? fopen(P->alive, "w") : NULL;
    if (!f) {
        buf_printf(err, "--pool %s: cannot write there: %s", P->dir, strerror(errno));
        if (P->pub) fclose(P->pub);
        if (P->done) fclose(P->done);
        free(P->alive);
        free(P->dir);
        free(P);
        return NULL;
    }
    fclose(f);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* signals stay the search's */
    P->have_beat = pthread_create(&P->beat, NULL, beat_main, P) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    P_ = P;
    atexit(pool_end);
    return P;
}

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
    pitem *it = add_item(P, pool_phase(S), bound, j + 1, pos, val, k, pf, nalt, &fresh);
    if (fresh && P->dir) publish(P, it);
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
        earlier = parallel_path_before(a, S->found.nrec, b, P->best.nrec);
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
        size_t k = heap_pop(P);
        pitem *it = &P->it[k];
        if (it->state != POOL_KNOWN) continue; /* taken: out for good */
        if (it->pass == pass && it->bound == bound) got = it;
        else { /* a level another task has reached first: kept for when this one gets there */
            later = xrealloc(later, (nlater + 1) * sizeof *later);
            later[nlater++] = k;
        }
    }
    for (size_t i = 0; i < nlater; i++) heap_push(P, later[i]);
    free(later);
    return got;
}

static void done_line(pool *P, pitem *it)
{
    char line[128];
    int n = snprintf(line, sizeof line, "%d %d %016llx%016llx %d\n", it->pass, it->bound, (unsigned long long)it->id[0],
                     (unsigned long long)it->id[1], it->flags);
    log_line(P->done, line, (size_t)n);
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
    if (P->have_best) {
        S->found = P->best;
        S->have_found = 1;
        memset(&P->best, 0, sizeof P->best);
        P->have_best = 0;
        return LEVEL_FOUND;
    }
    (void)found;
    return cut ? LEVEL_CUT : LEVEL_COMPLETE;
}

int explore_pool_balance(const uint64_t **load, uint64_t *makespan)
{
    if (!P_ || !P_->nsim) return 0;
    *load = P_->load;
    *makespan = P_->makespan;
    return P_->nsim;
}

enum level_end pool_level(search *S, int bound, buf *err)
{
    pool *P = pool_get(S, err);
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
        /* the others' logs: at least every POOL_LOOK s while this task has shares of its own
         * to take (a look costs a stat of every log), and whenever it has none */
        pitem *it = NULL;
        if (search_now() - last_read < POOL_LOOK) it = next_share(P, pool_phase(S), bound);
        if (!it) {
            read_logs(P);
            last_read = search_now();
            it = next_share(P, pool_phase(S), bound);
        }
        if (it) {
            idle_ms = 5;
            if (!claim(P, it, 0)) it->state = POOL_OTHERS;
            else if ((end = take_share(S, P, bound, (size_t)(it - P->it), err)) != LEVEL_COMPLETE) return end;
            continue;
        }
        /* nothing to take: the level ends when every share of it is done; a share whose
         * claimer is gone is taken over */
        int open = 0;
        pitem *over = NULL;
        for (size_t k = 0; k < P->n && !over; k++) {
            pitem *x = &P->it[k];
            if (x->pass != pool_phase(S) || x->bound != bound || x->state == POOL_DONE) continue;
            open++;
            if (x->state == POOL_OTHERS && claimer_gone(P, x) && claim(P, x, 1)) over = x;
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
        if (x->pass != pool_phase(S) || x->bound != bound) continue;
        cut |= x->flags & POOL_CUT;
        found |= x->flags & POOL_FOUND;
    }
    if (P->have_best) {
        S->found = P->best;
        S->have_found = 1;
        memset(&P->best, 0, sizeof P->best);
        P->have_best = 0;
        return LEVEL_FOUND;
    }
    if (found) return LEVEL_COMPLETE; /* another task's share violates: the search ends at this level */
    return cut ? LEVEL_CUT : LEVEL_COMPLETE;
}

/* The shares this task enabled and ran, for its shard file; and its pool's end. */
void pool_write(buf *b)
{
    pool *P = P_;
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
