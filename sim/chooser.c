/* chooser.c — see chooser.h. */
#include "chooser.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct chooser {
    chooser_mode mode;
    uint64_t seed;
    uint64_t s[4];        /* xoshiro256** state */
    choice *rec;
    size_t nrec, caprec;
    choice *script;
    size_t nscript;
    int exhausted;
    uint64_t unique_state; /* splitmix64 state of chooser_unique */
};

uint64_t ll_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next_u64(chooser *c)
{
    uint64_t *s = c->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) without modulo bias (Lemire's method would do; rejection is simpler). */
static uint64_t uniform(chooser *c, uint64_t n)
{
    if (n <= 1) return 0;
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = next_u64(c);
    while (x >= limit);
    return x % n;
}

chooser *chooser_new(chooser_mode mode, uint64_t seed)
{
    chooser *c = xcalloc(1, sizeof *c);
    c->mode = mode;
    c->seed = seed;
    chooser_reset(c);
    return c;
}

void chooser_free(chooser *c)
{
    if (!c) return;
    free(c->rec);
    free(c->script);
    free(c);
}

void chooser_reset(chooser *c)
{
    uint64_t st = c->seed;
    for (int i = 0; i < 4; i++) c->s[i] = ll_splitmix64(&st);
    c->nrec = 0;
    c->exhausted = 0;
    c->unique_state = 0x756e69717565ULL; /* "unique": a stream of its own, the same for every seed */
}

void chooser_set_script(chooser *c, const choice *v, size_t n)
{
    free(c->script);
    c->script = n ? xmalloc(n * sizeof *v) : NULL;
    if (n) memcpy(c->script, v, n * sizeof *v);
    c->nscript = n;
}

static void record_real(chooser *c, int64_t value, int64_t n, int kind, const char *what, int64_t real)
{
    if (c->nrec == c->caprec) {
        c->caprec = c->caprec ? c->caprec * 2 : 64;
        c->rec = xrealloc(c->rec, c->caprec * sizeof *c->rec);
    }
    c->rec[c->nrec++] = (choice){ value, n, (uint8_t)kind, what, real };
}

static void record(chooser *c, int64_t value, int64_t n, int kind, const char *what)
{
    record_real(c, value, n, kind, what, value);
}

/* The scripted decision at the current position, if any. */
static const choice *scripted(chooser *c)
{
    if (c->mode == CHOOSER_RUN) return NULL;
    if (c->nrec < c->nscript) return &c->script[c->nrec];
    if (c->mode == CHOOSER_REPLAY) c->exhausted = 1;
    return NULL;
}

int64_t chooser_pick(chooser *c, int64_t n, const char *what)
{
    LL_ASSERT(n >= 1);
    if (n == 1) return 0;
    int64_t v;
    const choice *s = scripted(c);
    if (s) v = s->value >= 0 && s->value < n ? s->value : 0;
    else if (c->mode == CHOOSER_EXPLORE) v = 0;
    else v = (int64_t)uniform(c, (uint64_t)n);
    record(c, v, n, 0, what);
    return v;
}

/* hi - lo + 1 without overflow, saturated below INT64_MAX (which marks an unbounded
 * exponential draw in a choice file). */
static int64_t span_of(int64_t lo, int64_t hi)
{
    uint64_t w = (uint64_t)hi - (uint64_t)lo;
    return w >= (uint64_t)INT64_MAX - 1 ? INT64_MAX - 1 : (int64_t)w + 1;
}

int64_t chooser_range(chooser *c, int64_t lo, int64_t hi, const char *what)
{
    LL_ASSERT(lo <= hi);
    if (lo == hi) return lo;
    int64_t n = span_of(lo, hi);
    const choice *s = scripted(c);
    if (c->mode == CHOOSER_EXPLORE) {
        /* every value is an alternative, by its offset from lo; the first is lo */
        int64_t off = s && s->value > 0 && s->value < n ? s->value : 0;
        record_real(c, off, n, 1, what, (int64_t)((uint64_t)lo + (uint64_t)off));
        return (int64_t)((uint64_t)lo + (uint64_t)off);
    }
    int64_t v;
    if (s) v = s->value < lo ? lo : s->value > hi ? hi : s->value;
    else v = (int64_t)((uint64_t)lo + uniform(c, (uint64_t)hi - (uint64_t)lo + 1));
    record(c, v, n, 1, what);
    return v;
}

int chooser_chance(chooser *c, double p, const char *what)
{
    if (p <= 0) return 0;
    if (p >= 1) return 1;
    if (c->mode == CHOOSER_EXPLORE) return (int)chooser_pick(c, 2, what);
    const choice *s = scripted(c);
    int v;
    if (s) v = s->value != 0;
    else v = (double)(next_u64(c) >> 11) * 0x1.0p-53 < p;
    record(c, v, 2, 0, what);
    return v;
}

int64_t chooser_exponential(chooser *c, int64_t mean, const char *what)
{
    if (mean <= 0) return 0;
    /* the tail is capped at 50 means (no runaway delays): EXPLORE offers the whole window */
    int64_t cap = mean > INT64_MAX / 50 ? INT64_MAX - 2 : mean * 50;
    if (c->mode == CHOOSER_EXPLORE) return chooser_range(c, 0, cap, what);
    const choice *s = scripted(c);
    int64_t v;
    if (s) v = s->value < 0 ? 0 : s->value > cap ? cap : s->value;
    else {
        double u = ((double)(next_u64(c) >> 11) + 0.5) * 0x1.0p-53;
        double x = -log(u) * (double)mean;
        v = x >= (double)cap ? cap : (int64_t)x;
    }
    record(c, v, INT64_MAX, 1, what);
    return v;
}

int64_t chooser_unique(chooser *c, int64_t lo, int64_t hi)
{
    LL_ASSERT(lo <= hi);
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1, x;
    if (span == 0) return (int64_t)ll_splitmix64(&c->unique_state); /* the whole int64 range */
    uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    do x = ll_splitmix64(&c->unique_state);
    while (x >= limit);
    return lo + (int64_t)(x % span);
}

const choice *chooser_record(const chooser *c, size_t *n)
{
    *n = c->nrec;
    return c->rec;
}

int chooser_exhausted(const chooser *c)
{
    return c->exhausted;
}

chooser_mode chooser_mode_of(const chooser *c)
{
    return c->mode;
}

void chooser_write_list(const choice *v, size_t n, buf *out)
{
    for (size_t i = 0; i < n; i++) {
        const choice *ch = &v[i];
        const char *what = ch->what ? ch->what : "";
        if (ch->n == INT64_MAX) buf_printf(out, "%lld/* %s\n", (long long)ch->real, what);
        else buf_printf(out, "%lld/%lld %s\n", (long long)ch->real, (long long)ch->n, what);
    }
}

void chooser_write(const chooser *c, buf *out)
{
    buf_printf(out, "# locklab choices: value/alternatives label (%zu decisions)\n", c->nrec);
    chooser_write_list(c->rec, c->nrec, out);
}

int chooser_parse(const char *text, choice **v, size_t *n, buf *err)
{
    return chooser_parse_where(text, v, NULL, n, err);
}

int chooser_parse_where(const char *text, choice **v, choice_where **where, size_t *n, buf *err)
{
    size_t cap = 0, cnt = 0, line = 0;
    choice *out = NULL;
    choice_where *at = NULL;
    const char *p = text;
    while (*p) {
        line++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        while (len && (p[0] == ' ' || p[0] == '\t')) p++, len--;
        if (len && p[0] != '#') {
            char *end;
            errno = 0;
            long long val = strtoll(p, &end, 10);
            long long alts = 0;
            if (end == p || errno) goto bad;
            if (*end == '/') {
                if (end[1] == '*') end += 2, alts = INT64_MAX;
                else {
                    char *e2;
                    alts = strtoll(end + 1, &e2, 10);
                    if (e2 == end + 1) goto bad;
                    end = e2;
                }
            }
            if (cnt == cap) {
                cap = cap ? cap * 2 : 64;
                out = xrealloc(out, cap * sizeof *out);
                if (where) at = xrealloc(at, cap * sizeof *at);
            }
            if (where) { /* the label: the rest of the line after blanks, trailing blanks off */
                const char *l = end, *le = p + len;
                while (l < le && (*l == ' ' || *l == '\t')) l++;
                while (le > l && (le[-1] == ' ' || le[-1] == '\t' || le[-1] == '\r')) le--;
                at[cnt] = (choice_where){ (int)line, l, (size_t)(le - l) };
            }
            out[cnt++] = (choice){ val, alts, 0, NULL, val };
        }
        p = eol ? eol + 1 : p + len;
        continue;
    bad:
        buf_printf(err, "line %zu: expected 'value/alternatives label'", line);
        free(out);
        free(at);
        return -1;
    }
    *v = out;
    if (where) *where = at;
    *n = cnt;
    return 0;
}

void chooser_forget(chooser *c)
{
    c->nrec = 0;
}
