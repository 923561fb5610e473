/* util.c — see util.h. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

_Noreturn void ll_assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "locklab: internal error: assertion '%s' failed at %s:%d\n", expr, file, line);
    exit(3);
}

static _Noreturn void oom(size_t n)
{
    fprintf(stderr, "locklab: out of memory allocating %zu bytes\n", n);
    exit(3);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    return xmemdup(s, strlen(s));
}

char *xmemdup(const void *p, size_t n)
{
    char *q = xmalloc(n + 1);
    if (n) memcpy(q, p, n);
    q[n] = '\0';
    return q;
}

slice slice_cstr(const char *s)
{
    return (slice){ s, strlen(s) };
}

int slice_eq(slice a, slice b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

int slice_eq_nocase(slice a, const char *lit)
{
    size_t n = strlen(lit);
    if (a.len != n) return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a.p[i]) != tolower((unsigned char)lit[i])) return 0;
    return 1;
}

slice slice_cstr_prefix(slice a)
{
    const char *z = a.len ? memchr(a.p, '\0', a.len) : NULL;
    if (z) a.len = (size_t)(z - a.p);
    return a;
}

int slice_opt_is(slice a, const char *lit)
{
    return slice_eq_nocase(slice_cstr_prefix(a), lit);
}

int slice_cmp(slice a, slice b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.p, b.p, n) : 0;
    if (c) return c;
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

void buf_init(buf *b)
{
    b->p = NULL;
    b->len = b->cap = 0;
}

void buf_release(buf *b)
{
    free(b->p);
    buf_init(b);
}

void buf_reset(buf *b)
{
    b->len = 0;
    if (b->p) b->p[0] = '\0';
}

void buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    b->p = xrealloc(b->p, cap);
    b->cap = cap;
}

void buf_append(buf *b, const void *p, size_t n)
{
    buf_reserve(b, n);
    if (n) memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void buf_puts(buf *b, const char *s)
{
    buf_append(b, s, strlen(s));
}

void buf_putc(buf *b, char c)
{
    buf_append(b, &c, 1);
}

char *xvformat(const char *fmt, va_list ap)
{
    buf b;
    buf_init(&b);
    buf_vprintf(&b, fmt, ap);
    return buf_steal(&b);
}

char *xformat(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvformat(fmt, ap);
    va_end(ap);
    return s;
}

void buf_vprintf(buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    LL_ASSERT(n >= 0);
    buf_reserve(b, (size_t)n);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *buf_steal(buf *b)
{
    char *p = b->p ? b->p : xstrdup("");
    buf_init(b);
    return p;
}

int ll_utf8_valid(const char *p, size_t n)
{
    const unsigned char *s = (const unsigned char *)p;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (!len || i + len > n) return 0;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return 0;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        /* no overlong form, no surrogate, nothing past U+10FFFF (RFC 3629) */
        static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < least[len] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return 0;
        i += len;
    }
    return 1;
}

void ll_escape_controls(buf *b, size_t from, const char *keep)
{
    size_t n = 0;
    for (size_t i = from; i < b->len; i++) {
        unsigned char c = (unsigned char)b->p[i];
        n += (c < 0x20 || c == 0x7f) && !(c && keep && strchr(keep, c));
    }
    if (!n) return;
    buf t;
    buf_init(&t);
    for (size_t i = from; i < b->len; i++) {
        unsigned char c = (unsigned char)b->p[i];
        if ((c < 0x20 || c == 0x7f) && !(c && keep && strchr(keep, c))) buf_printf(&t, "\\x%02x", c);
        else buf_putc(&t, (char)c);
    }
    b->len = from;
    buf_append(b, t.p, t.len);
    buf_release(&t);
}

int ll_read_file(const char *path, size_t max, buf *out)
{
    /* O_NONBLOCK: a FIFO is refused below rather than waited on in open(2) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return LL_READ_OPEN;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int why = errno;
        close(fd);
        errno = why;
        return LL_READ_ERROR;
    }
    struct stat null_st; /* the null device reads as the empty file it is */
    if (S_ISCHR(st.st_mode) && stat("/dev/null", &null_st) == 0 && S_ISCHR(null_st.st_mode) &&
        st.st_rdev == null_st.st_rdev) {
        close(fd);
        return LL_READ_OK;
    }
    if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : S_ISREG(st.st_mode) ? EFBIG : EINVAL;
        return S_ISDIR(st.st_mode) ? LL_READ_ERROR : S_ISREG(st.st_mode) ? LL_READ_TOO_BIG : LL_READ_NOT_FILE;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return LL_READ_OPEN;
    }
    char chunk[8192];
    size_t n, start = out->len;
    int rc = LL_READ_OK;
    errno = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (out->len - start + n > max) {
            rc = LL_READ_TOO_BIG;
            break;
        }
        buf_append(out, chunk, n);
    }
    int why = rc == LL_READ_OK && ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (why) rc = LL_READ_ERROR;
    errno = rc == LL_READ_TOO_BIG ? EFBIG : why;
    return rc;
}

/* Writes straight into path: for what a rename would replace rather than write to (a
 * device such as /dev/null, a FIFO, a symbolic link such as /dev/stdout). */
static int write_in_place(const char *path, const void *p, size_t n, buf *err)
{
    FILE *f = fopen(path, "wb");
    int ok = f && (n == 0 || fwrite(p, 1, n, f) == n);
    int saved = errno;
    if (f && fclose(f) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (!ok && err) buf_printf(err, "cannot write '%s': %s", path, strerror(saved));
    return ok ? 0 : -1;
}

int ll_same_file(const char *a, const char *b)
{
    struct stat x, y;
    return a && b && stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int ll_install_file(const char *tmp, const char *path)
{
    struct stat st;
    int in_place = lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    if (!in_place && rename(tmp, path) == 0) return 0;
    if (!in_place && errno != EXDEV) return -1;
    /* in place, or from another file system (a private folder in /tmp): copied, safely */
    buf b;
    buf_init(&b);
    int rc = ll_read_file(tmp, SIZE_MAX, &b) != LL_READ_OK ? -1
             : in_place ? write_in_place(path, b.p, b.len, NULL) : ll_write_file(path, b.p, b.len, NULL);
    int saved = errno;
    buf_release(&b);
    remove(tmp);
    errno = saved;
    return rc;
}

int ll_temp_beside(const char *path, buf *name)
{
    /* the folder of path, and a name in it no one can predict: ".BASE.XXXXXXXXXXXX" */
    const char *slash = strrchr(path, '/');
    static uint64_t counter;
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t r = 0;
        if (getentropy(&r, sizeof r) != 0) r = 0;
        r ^= ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL) ^ (++counter * 0x9E3779B97F4A7C15ull);
        buf_reset(name);
        if (slash) buf_append(name, path, (size_t)(slash - path) + 1);
        buf_printf(name, ".%s.%012llx", slash ? slash + 1 : path, (unsigned long long)(r & 0xffffffffffffull));
        /* O_EXCL: a name that is there (a planted link, a file) is refused, never opened;
         * O_NOFOLLOW as well, for file systems that would otherwise follow a final link */
        int fd = open(name->p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

int ll_write_file(const char *path, const void *p, size_t n, buf *err)
{
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return write_in_place(path, p, n, err);
    buf tmp;
    buf_init(&tmp);
    int fd = ll_temp_beside(path, &tmp);
    int ok = fd >= 0, saved = errno;
    for (size_t done = 0; ok && done < n;) {
        ssize_t w = write(fd, (const char *)p + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            ok = 0;
            saved = w < 0 ? errno : ENOSPC;
        } else {
            done += (size_t)w;
        }
    }
    /* on the disk before it has the name: a crash leaves the old file or the new one */
    if (ok && fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        ok = 0;
        saved = errno;
    }
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (ok && rename(tmp.p, path) != 0) {
        ok = 0;
        saved = errno;
    }
    if (!ok) {
        if (err) buf_printf(err, "cannot write '%s': %s", path, strerror(saved));
        if (fd >= 0) remove(tmp.p);
    }
    buf_release(&tmp);
    return ok ? 0 : -1;
}

/* Redis's string2ll: optional '-', no leading zeros, no '+', no spaces, fits in 64 bits.
 * At most 19 digits can be in range, and 19 digits cannot overflow the unsigned
 * accumulator, so the digit loop needs no overflow check; the range check comes after. */
int ll_parse_int64(slice s, long long *out)
{
    const char *p = s.p;
    size_t n = s.len;
    if (n == 0 || n > 20) return -1;
    size_t i = p[0] == '-';
    if (n - i > 19 || i == n) return -1;
    if (p[i] < '1' || p[i] > '9') {
        if (n != 1 || p[0] != '0') return -1;
        *out = 0;
        return 0;
    }
    unsigned long long v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)p[i] - '0';
        if (d > 9) return -1;
        v = v * 10 + d;
    }
    if (p[0] == '-') {
        if (v > (unsigned long long)LLONG_MAX + 1) return -1;
        *out = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
    } else {
        if (v > (unsigned long long)LLONG_MAX) return -1;
        *out = (long long)v;
    }
    return 0;
}

/* Redis's getDoubleFromObject (string2d): strtod over the whole string, no leading space,
 * no overflow or underflow to zero, no nan. Redis puts no bound on the length (a score
 * written with 600 leading zeros is a number), so a long argument gets a heap copy. */
int ll_parse_double(slice s, double *out)
{
    char small[128];
    if (s.len == 0 || isspace((unsigned char)s.p[0])) return -1;
    char *tmp = s.len < sizeof small ? small : xmalloc(s.len + 1);
    memcpy(tmp, s.p, s.len);
    tmp[s.len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(tmp, &end);
    int ok = (size_t)(end - tmp) == s.len && !isnan(v) &&
             !(errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL || fpclassify(v) == FP_ZERO));
    if (tmp != small) free(tmp);
    if (!ok) return -1;
    *out = v;
    return 0;
}

int ll_format_int64(char *dst, long long v)
{
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    int len = v < 0, digits = 1;
    for (unsigned long long t = u; t >= 10; t /= 10) digits++;
    if (v < 0) dst[0] = '-';
    len += digits;
    for (int i = len - 1; i >= len - digits; i--) {
        dst[i] = (char)('0' + u % 10);
        u /= 10;
    }
    return len;
}

int ll_format_double(char *dst, size_t cap, double d)
{
    if (isinf(d)) return snprintf(dst, cap, "%s", d > 0 ? "inf" : "-inf");
    return snprintf(dst, cap, "%.17g", d);
}

int ll_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

size_t ll_utf8_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* Edit distance counting a swap of two neighbours as one edit ("wrok" is 1 from "work"),
 * for "did you mean". Both strings are short (keys, names); longer ones never match. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return (size_t)-1;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The nearest of names[0..n) to s if it is near enough to be a likely typo, else NULL. */
const char *ll_nearest(const char *s, const char *const *names, size_t n)
{
    const char *best = NULL;
    size_t bestd = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(s, names[i]);
        if (d < bestd) {
            bestd = d;
            best = names[i];
        }
    }
    /* short names differ meaningfully ("n2" is not a typo of "n1") */
    size_t len = strlen(s);
    size_t limit = len <= 2 ? 0 : len <= 5 ? 1 : len <= 8 ? 2 : 3;
    return bestd <= limit ? best : NULL;
}
