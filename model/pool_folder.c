/* pool_folder.c — the folder a pool's tasks share (model/pool.c's header says how): each
 * task's logs (the shares its paths enabled, the shares it ended) read by all, the claims
 * (symbolic links: one task wins), a claim taken over from a task gone, and the heartbeat a
 * thread of each task keeps. */
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

static pool *P_; /* one pool a process (the check command runs one search) */

/* ---- the logs ---- */

static void hex_of(const uint8_t *p, size_t n, buf *b)
{
    for (size_t i = 0; i < n; i++) buf_printf(b, "%02x", p[i]);
}

void pool_folder_log_line(FILE *f, const char *line, size_t len)
{
    /* one write a line (the file is opened to append): a reader sees whole lines or a tail
     * without its newline, which it leaves for its next read */
    fwrite(line, 1, len, f);
    fflush(f);
}

void pool_folder_publish(pool *P, pitem *it)
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
    pool_folder_log_line(P->pub, b.p, b.len);
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
        pool_item_add(P, pass, bound, m, pos, val, nnz, pf, nalt, &fresh); /* named by what it is */
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
    pitem *it = pool_item_find(P, id);
    if (!it) return 0;
    if (t == P->task && a < P->attempt) return 1; /* an earlier attempt of this task: its results died with it */
    if (it->state != POOL_DONE) it->state = POOL_DONE, it->flags = flags;
    else it->flags |= flags;
    return 1;
}

/* Reads what every log gained since the last read. pub logs first: a done line names a
 * share its task read first. */
void pool_folder_read_logs(pool *P)
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
        pool_item_path(P, e->d_name, path, sizeof path);
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
int pool_folder_claim(pool *P, pitem *it, int retake)
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
    if (it->owner_t == P->task && it->owner_a >= 0 && it->owner_a < P->attempt) return pool_folder_claim(P, it, 1);
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
int pool_folder_claimer_gone(pool *P, pitem *it)
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
    return mine.tv_sec - theirs.tv_sec > POOL_STALE_S;
}

/* ---- the heartbeat ---- */

static void *beat_main(void *ud)
{
    pool *P = ud;
    while (!__atomic_load_n(&P->beat_stop, __ATOMIC_RELAXED)) {
        for (int i = 0; i < POOL_BEAT_S * 10 && !__atomic_load_n(&P->beat_stop, __ATOMIC_RELAXED); i++) {
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

pool *pool_folder_get(search *S, buf *err)
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
    shard_identity(S->sc, o, &id);
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

pool *pool_folder_current(void)
{
    return P_;
}

