/* shard_file.c — a shard's file and the merge of a search's files (--shard I/N --save FILE,
 * --merge FILE...).
 *
 * A shard (parallel.c: its share of each level) or a task of a pool (pool.c) writes its
 * totals, the hashes of its outcomes, its violation and, in a pool, the shares it enabled and
 * ran (pool_write) to a file, with what makes it a task of this search (shard.c's identity:
 * the build, the scenario file's hash, the options). The merge refuses a file of another
 * search, names a shard missing (or, in a pool, the shares enabled and never run), adds the
 * totals, unites the hashes, and keeps the violation of the lowest level and the earliest in
 * the order one search runs its paths (shard_path_before) — what it would have found — which
 * it then minimises (shrink.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exploreint.h"

int shard_file_write(const scenario *sc, const explore_opts *o, const explore_result *r, const char *path, buf *err)
{
    buf b;
    buf_init(&b);
    buf_printf(&b, "# locklab check shard %d of %d: merge with 'locklab check SCENARIO --merge FILE...'\n",
               o->shard_index, o->shard_count);
    buf_printf(&b, "scenario %s\nshard %d %d\n", sc->name, o->shard_index, o->shard_count);
    buf_printf(&b, "build %016llx\nsource %016llx\noptions ", (unsigned long long)shard_build_id(),
               (unsigned long long)shard_source_hash(sc));
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
            if (f->build != shard_build_id()) {
                buf_printf(err, "%s:%d: a shard of another build of locklab: merge with the locklab that searched it",
                           path, lineno);
                rc = -1;
            }
        } else if (sscanf(line, "source %llx%n", &f->source, &n) == 1 && !line[n]) {
            if (f->source != shard_source_hash(sc)) {
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

int shard_file_merge(const scenario *sc, const char *const *files, int nfiles, explore_result *r, buf *err)
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
                         (f.level == best_level && shard_path_before(f.found, f.nfound, best, nbest)))) {
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
    if (best) rc = shrink_path(sc, best, nbest, best_level, r, err);
    free(best);
    return rc;
}
