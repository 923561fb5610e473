/* driver.c — a fuzz target run without libFuzzer, deterministically: `make test` links each
 * tests/fuzz/fuzz_*.c with this file under ASan + UBSan (build/san/fuzz/fuzz_*) and runs it
 * through tools/fuzz.sh. It replays the target's corpus (every file named, every file of every
 * folder named, in byte order of their names), then runs a fixed number of mutations of it made
 * by a generator with a fixed seed: libFuzzer's kinds of change (bits flipped, bytes set, runs
 * inserted, erased, copied, inputs crossed) and the numbers that break parsers, as text
 * ("-2147483648", "1e309", "nan") and in binary (INT32_MIN, 2^53, NaN, ±inf as little-endian
 * doubles). No coverage feedback, no clock: the same arguments run the same inputs, so a
 * failure found once is found again, and its number says which input it was.
 *
 * The target's answer is whatever it does; a crash, a trap (__builtin_trap: a property the
 * target asserts), a sanitizer report or a leak ends the process. --verbose names each input
 * before it runs ("fuzz: running mutation K of seed S (from FILE)"), and --save K FILE writes
 * the bytes of mutation K instead of running anything, so that `fuzz_X FILE` replays it alone
 * (tools/fuzz.sh does both when a target fails).
 *
 *     fuzz_X [--mutations N] [--seed S] [--max-len L] [--verbose] [--save K FILE] CORPUS...
 *
 * `make fuzz` is the long, coverage-guided run (libFuzzer, clang). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* A target may say what its inputs came to ("N requests cut"): the driver's last line ends
 * with it, and tools/fuzz.sh wants its first number above 0. */
const char *fuzz_target_stats(void) __attribute__((weak));

typedef struct input {
    uint8_t *p;
    size_t len;
    char *name;
} input;

static uint64_t rng_state;

/* xorshift64*: the mutations' one source of choice. */
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static size_t below(size_t n)
{
    return n ? (size_t)(rng() % n) : 0;
}

static void run_one(const uint8_t *p, size_t len)
{
    /* libFuzzer hands the target its own copy, of exactly len bytes: an overread is caught */
    uint8_t *copy = malloc(len ? len : 1);
    if (len) memcpy(copy, p, len);
    LLVMFuzzerTestOneInput(copy, len);
    free(copy);
}

static int read_file(const char *path, input *in)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 4096, len = 0;
    uint8_t *p = malloc(cap);
    size_t k;
    while ((k = fread(p + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) p = realloc(p, cap *= 2);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(p);
        return -1;
    }
    in->p = p;
    in->len = len;
    in->name = strdup(path);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const input *)a)->name, ((const input *)b)->name);
}

/* The corpus: each argument a file, or a folder whose files (not its dot files) are read. */
static input *load_corpus(char **paths, int n, size_t *count)
{
    input *v = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) < 0) {
            fprintf(stderr, "fuzz: %s: %s\n", paths[i], strerror(errno));
            exit(2);
        }
        char **names = NULL;
        size_t nn = 0;
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(paths[i]);
            struct dirent *de;
            while (d && (de = readdir(d))) {
                if (de->d_name[0] == '.') continue;
                names = realloc(names, (nn + 1) * sizeof *names);
                size_t l = strlen(paths[i]) + strlen(de->d_name) + 2;
                names[nn] = malloc(l);
                snprintf(names[nn++], l, "%s/%s", paths[i], de->d_name);
            }
            if (d) closedir(d);
        } else {
            names = malloc(sizeof *names);
            names[nn++] = strdup(paths[i]);
        }
        for (size_t j = 0; j < nn; j++) {
            if (len == cap) v = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
            if (read_file(names[j], &v[len]) < 0) {
                fprintf(stderr, "fuzz: cannot read %s: %s\n", names[j], strerror(errno));
                exit(2);
            }
            len++;
            free(names[j]);
        }
        free(names);
    }
    if (len > 1) qsort(v, len, sizeof *v, by_name);
    *count = len;
    return v;
}

/* ---- mutations ---- */

typedef struct mbuf {
    uint8_t *p;
    size_t len, max;
} mbuf;

static const char *const text_numbers[] = {
    "0", "-0", "1", "-1", "127", "128", "255", "256", "-129", "32767", "65535", "65536",
    "2147483647", "-2147483648", "2147483648", "4294967295", "4294967296", "-4294967296",
    "9007199254740992", "9007199254740993", "-9007199254740993", "9223372036854775807",
    "-9223372036854775808", "9223372036854775808", "18446744073709551615", "18446744073709551616",
    "536870912", "1073741824", "1e308", "1e309", "-1e309", "4.9e-324", "1e-400", "0.1", "nan",
    "-nan", "inf", "-inf", "0x7fffffff", "0x80000000", "1e10", "1.5", "-1.5", "99999999999999999999999",
};

static void insert_at(mbuf *m, size_t at, const uint8_t *p, size_t n)
{
    if (m->len + n > m->max) n = m->max - m->len;
    if (!n) return;
    memmove(m->p + at + n, m->p + at, m->len - at);
    memcpy(m->p + at, p, n);
    m->len += n;
}

/* A number that breaks parsers, in binary: 1, 2, 4 or 8 bytes little-endian, or a double. */
static size_t binary_number(uint8_t out[8])
{
    static const uint64_t ints[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                     0xffffffff, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                     0xffffffffffffffffull, 0x20000000000000ull, 0x20000001ull };
    static const double dbls[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 2147483647.0, -2147483648.0, 2147483648.0,
                                   4294967296.0, 9007199254740992.0, 9007199254740993.0, -9007199254740992.0,
                                   1e300, -1e300, 5e-324, 1e308, 18446744073709551616.0 };
    uint64_t v;
    size_t n;
    switch (below(4)) {
    case 0: { /* a double: NaN and the infinities made from their bits */
        size_t k = below(sizeof dbls / sizeof *dbls + 3);
        if (k < sizeof dbls / sizeof *dbls) memcpy(&v, &dbls[k], 8);
        else v = k == sizeof dbls / sizeof *dbls ? 0x7ff8000000000000ull : k == sizeof dbls / sizeof *dbls + 1 ? 0x7ff0000000000000ull : 0xfff0000000000000ull;
        n = 8;
        break;
    }
    default:
        v = ints[below(sizeof ints / sizeof *ints)];
        if (rng() & 1) v = 0 - v;
        if (rng() & 1) v += (uint64_t)((int64_t)below(5) - 2);
        n = (size_t)1 << below(4);
    }
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(v >> (8 * i));
    return n;
}

/* One change to m, of a kind libFuzzer makes; `other` is another input to cross with. */
static void mutate_once(mbuf *m, const input *other)
{
    static const uint8_t bytes[] = { 0, 0xff, 0x7f, 0x80, '\n', '\r', ' ', '"', '\'', '\\', '-', '+', '.', '0',
                                     '9', '$', '*', ':', '{', '}', '[', ']', ',', 'e', 'x', '<', '>', '!', 0x01,
                                     0xc0, 0xdc, 0xdd, 0xde, 0xdf, 0xcb, 0xd3 };
    size_t at = below(m->len + 1);
    switch (below(12)) {
    case 0: /* a bit flipped */
        if (m->len) m->p[below(m->len)] ^= (uint8_t)(1u << below(8));
        break;
    case 1: /* a byte set at random */
        if (m->len) m->p[below(m->len)] = (uint8_t)rng();
        break;
    case 2: /* a byte set to one that means something to a parser */
        if (m->len) m->p[below(m->len)] = bytes[below(sizeof bytes)];
        break;
    case 3: { /* a few bytes inserted */
        uint8_t b[8];
        size_t n = 1 + below(8);
        for (size_t i = 0; i < n; i++) b[i] = rng() & 1 ? bytes[below(sizeof bytes)] : (uint8_t)rng();
        insert_at(m, at, b, n);
        break;
    }
    case 4: { /* a run erased */
        if (!m->len) break;
        size_t from = below(m->len), n = 1 + below(m->len - from < 16 ? m->len - from : 16);
        memmove(m->p + from, m->p + from + n, m->len - from - n);
        m->len -= n;
        break;
    }
    case 5: { /* a run copied elsewhere (inserted) */
        if (!m->len) break;
        size_t from = below(m->len), n = 1 + below(m->len - from < 64 ? m->len - from : 64);
        uint8_t tmp[64];
        memcpy(tmp, m->p + from, n);
        insert_at(m, at, tmp, n);
        break;
    }
    case 6: { /* a run copied over another */
        if (m->len < 2) break;
        size_t from = below(m->len), to = below(m->len), n = 1 + below(32);
        if (from + n > m->len) n = m->len - from;
        if (to + n > m->len) n = m->len - to;
        memmove(m->p + to, m->p + from, n);
        break;
    }
    case 7: { /* a number as text, inserted or over a run of digits */
        const char *t = text_numbers[below(sizeof text_numbers / sizeof *text_numbers)];
        size_t d = at;
        while (d < m->len && ((m->p[d] >= '0' && m->p[d] <= '9') || m->p[d] == '-' || m->p[d] == '.')) d++;
        if (d > at) { /* replace the number found at `at` */
            memmove(m->p + at, m->p + d, m->len - d);
            m->len -= d - at;
        }
        insert_at(m, at, (const uint8_t *)t, strlen(t));
        break;
    }
    case 8: { /* a number in binary, over the bytes there or inserted */
        uint8_t b[8];
        size_t n = binary_number(b);
        if (at + n <= m->len && (rng() & 1)) memcpy(m->p + at, b, n);
        else insert_at(m, at, b, n);
        break;
    }
    case 9: { /* crossed with another input: this one's start, the other's end */
        if (!other || !other->len) break;
        size_t from = below(other->len);
        m->len = at;
        insert_at(m, at, other->p + from, other->len - from);
        break;
    }
    case 10: /* cut short */
        if (m->len) m->len = below(m->len);
        break;
    default: { /* an ASCII digit changed: counts, lengths, offsets */
        for (size_t k = 0; k < m->len; k++) {
            size_t i = (at + k) % m->len;
            if (m->p[i] >= '0' && m->p[i] <= '9') {
                m->p[i] = (uint8_t)('0' + below(10));
                break;
            }
        }
    }
    }
}

int main(int argc, char **argv)
{
    long long mutations = 0;
    uint64_t seed = 1;
    size_t max_len = 0;
    long long save = 0;
    const char *save_path = NULL;
    int verbose = 0, first = 1;
    for (; first < argc && argv[first][0] == '-' && argv[first][1] == '-'; first++) {
        const char *a = argv[first];
        if (!strcmp(a, "--")) {
            first++;
            break;
        }
        if (!strcmp(a, "--verbose")) {
            verbose = 1;
            continue;
        }
        if (!strcmp(a, "--save") && first + 2 < argc) {
            save = atoll(argv[++first]);
            save_path = argv[++first];
            if (save < 1) {
                fprintf(stderr, "fuzz: --save wants a mutation's number (1 or more), not '%s'\n", argv[first - 1]);
                return 2;
            }
            continue;
        }
        if (first + 1 >= argc) {
            fprintf(stderr, "fuzz: %s needs a value (see the head of tests/fuzz/driver.c)\n", a);
            return 2;
        }
        char *end;
        errno = 0;
        unsigned long long v = strtoull(argv[++first], &end, 10);
        if (*end || errno || argv[first][0] == '-') {
            fprintf(stderr, "fuzz: %s wants a whole number, not '%s'\n", a, argv[first]);
            return 2;
        }
        if (!strcmp(a, "--mutations")) mutations = (long long)v;
        else if (!strcmp(a, "--seed")) seed = v;
        else if (!strcmp(a, "--max-len")) max_len = (size_t)v;
        else {
            fprintf(stderr, "fuzz: unknown option %s (--mutations N, --seed S, --max-len L, --verbose, --save K FILE)\n", a);
            return 2;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [--mutations N] [--seed S] [--max-len L] [--verbose] [--save K FILE] CORPUS...\n", argv[0]);
        return 2;
    }
    size_t n;
    input *corpus = load_corpus(argv + first, argc - first, &n);
    if (!n) {
        fprintf(stderr, "fuzz: the corpus is empty: nothing would be exercised\n");
        return 2;
    }
    size_t longest = 0;
    for (size_t i = 0; i < n; i++) {
        if (verbose) fprintf(stderr, "fuzz: running %s\n", corpus[i].name);
        if (!save) run_one(corpus[i].p, corpus[i].len);
        if (corpus[i].len > longest) longest = corpus[i].len;
    }
    if (!max_len) max_len = longest + 256;
    rng_state = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    if (!rng_state) rng_state = 1;
    mbuf m = { malloc(max_len + 1), 0, max_len };
    for (long long k = 1; k <= mutations; k++) {
        const input *base = &corpus[below(n)], *other = &corpus[below(n)];
        m.len = base->len < max_len ? base->len : max_len;
        memcpy(m.p, base->p, m.len);
        for (size_t s = 1 + below(4); s > 0; s--) mutate_once(&m, other);
        if (save == k) { /* the bytes of mutation k, written instead of run */
            FILE *f = fopen(save_path, "wb");
            int ok = f && fwrite(m.p, 1, m.len, f) == m.len;
            if (f && fclose(f) != 0) ok = 0;
            if (!ok) fprintf(stderr, "fuzz: cannot write %s: %s\n", save_path, strerror(errno));
            return ok ? 0 : 3;
        }
        if (verbose) fprintf(stderr, "fuzz: running mutation %lld of seed %llu (from %s)\n", k, (unsigned long long)seed, base->name);
        if (!save) run_one(m.p, m.len);
    }
    if (save) {
        fprintf(stderr, "fuzz: --save %lld: there are only %lld mutations (--mutations)\n", save, mutations);
        return 2;
    }
    free(m.p);
    const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    printf("%s: %zu corpus inputs and %lld mutations (seed %llu) ran", base, n, mutations, (unsigned long long)seed);
    if (fuzz_target_stats) printf(": %s", fuzz_target_stats());
    printf("\n");
    for (size_t i = 0; i < n; i++) {
        free(corpus[i].p);
        free(corpus[i].name);
    }
    free(corpus);
    return 0;
}
