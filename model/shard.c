/* shard.c — what the tasks of one search agree on, whether they split it (--shard I/N) or
 * share it through a folder (--pool): which search it is (its identity: the build, the
 * scenario file, N and the options that bound it), and the order one search runs its paths
 * in (which of two violations it would have met first). The shard files that carry these,
 * and their merge, are shard_file.c's; a pool's folder names its search by this identity
 * (pool_folder.c) and a pool task keeps the earliest violation by this order (pool.c). */
#include <string.h>

#include "dict.h"
#include "exploreint.h"

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

uint64_t shard_build_id(void)
{
    static uint64_t id;
    if (!id) id = hash_file("/proc/self/exe") | 1;
    return id;
}

uint64_t shard_source_hash(const scenario *sc)
{
    return hash_file(sc->path);
}

void shard_options(const explore_opts *o, buf *b)
{
    buf_printf(b, "max_deviations=%d delays=%s probes=%llu", o->max_deviations,
               o->delays_extremes == EXPLORE_DELAYS_ENDS ? "ends" : o->delays_extremes ? "extremes" : "orders", (unsigned long long)o->probes);
}

void shard_identity(const scenario *sc, const explore_opts *o, buf *b)
{
    buf_printf(b, "scenario %s\ntasks %d\nbuild %016llx\nsource %016llx\noptions ", sc->name, o->shard_count,
               (unsigned long long)shard_build_id(), (unsigned long long)shard_source_hash(sc));
    shard_options(o, b);
    buf_puts(b, "\n");
}

/* Does path a come before path b in the order one search runs them? Items deepest first,
 * lowest alternative first, and within an item its first path, then its own items in the
 * same order: their deviations (position, value) compared one by one. (Shards split below
 * the default path's items: two shards may find violations in one item.) */
int shard_path_before(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < na && a[i] == 0) i++;
        while (j < nb && b[j] == 0) j++;
        if (i >= na || j >= nb) return i >= na && j < nb; /* a is b's item's first path */
        if (i != j || a[i] != b[j]) {
            uint64_t pa = i, pb = j;
            return level_item_before(pa, a[i], pb, b[j]);
        }
        i++;
        j++;
    }
}
