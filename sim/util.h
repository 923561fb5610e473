/* util.h — small shared helpers: always-on asserts, checked allocation, byte slices and a
 * growable string buffer. Everything else in locklab builds on these. */
#ifndef LOCKLAB_UTIL_H
#define LOCKLAB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* An assert that stays on in release builds: a broken invariant is a bug, reported with
 * file:line and exit code 3 (internal error). */
#define LL_ASSERT(c) ((c) ? (void)0 : ll_assert_fail(#c, __FILE__, __LINE__))
#define LL_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

_Noreturn void ll_assert_fail(const char *expr, const char *file, int line);

/* Allocation that never returns NULL: running out of memory is fatal (exit 3). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xmemdup(const void *p, size_t n); /* copies n bytes and adds a NUL */
/* n rounded up to the usable size of the malloc chunk it gets anyway (glibc: 16k + 8, at
 * least 24): allocating that much costs no memory, and blocks of one chunk size are
 * interchangeable, so a freed one can be kept and reused (dict entries, string values). */
static inline size_t ll_chunk_size(size_t n)
{
    return n <= 24 ? 24 : ((n + 8 + 15) & ~(size_t)15) - 8;
}

/* A block kept for reuse is poisoned for AddressSanitizer, so that a use of it while it is
 * a spare is still reported; no-ops without ASan. */
#if defined(__SANITIZE_ADDRESS__)
#define LL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LL_ASAN 1
#endif
#endif
#ifdef LL_ASAN
#include <sanitizer/asan_interface.h>
#define LL_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define LL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define LL_POISON(p, n) ((void)(p), (void)(n))
#define LL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* A borrowed byte string (binary safe). Never owns its bytes. */
typedef struct slice {
    const char *p;
    size_t len;
} slice;

#define SLICE_LIT(s) ((slice){ (s), sizeof(s) - 1 })
slice slice_cstr(const char *s);
int slice_eq(slice a, slice b);
int slice_eq_nocase(slice a, const char *lit);
/* a as C code sees it through its NUL terminator: the bytes before its first NUL. */
slice slice_cstr_prefix(slice a);
/* Whether argument a is the option lit (lower case), compared as Redis compares options:
 * strcasecmp on the NUL-terminated argument, so bytes from a first NUL on are not seen
 * ("nx\0junk" is NX). */
int slice_opt_is(slice a, const char *lit);
int slice_cmp(slice a, slice b); /* memcmp order, shorter first on a tie: Redis's order */

/* A growable, always NUL-terminated byte buffer. Embedded: buf_init / buf_release. */
typedef struct buf {
    char *p;
    size_t len;
    size_t cap;
} buf;

void buf_init(buf *b);
void buf_release(buf *b);
void buf_reset(buf *b);
void buf_append(buf *b, const void *p, size_t n);
/* Room for `extra` more bytes (and the NUL) in b, so that writes of up to that many can copy
 * into b->p + b->len without a check each. */
void buf_reserve(buf *b, size_t extra);
void buf_puts(buf *b, const char *s);
void buf_putc(buf *b, char c);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(buf *b, const char *fmt, va_list ap);
char *buf_steal(buf *b); /* returns the bytes (caller frees) and leaves b empty */
/* A new string, printf-style (caller frees). */
char *xformat(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvformat(const char *fmt, va_list ap);

/* Is p[0..n) well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or code points past
 * U+10FFFF)? 1 or 0. */
int ll_utf8_valid(const char *p, size_t n);
/* Control characters (C0 and DEL) of b from offset `from` on, except those in keep (NULL:
 * none), rewritten as \xHH: text from a model or a file printed on a terminal cannot move
 * the cursor, retitle the window or forge a line (ESC is \x1b, a newline \x0a). */
void ll_escape_controls(buf *b, size_t from, const char *keep);
/* Writes n bytes to path through a temporary file (ll_temp_beside), synced and then renamed
 * into place, so nothing half-written is ever left behind; a path that is there and is not a regular file (a
 * device, a FIFO, a symbolic link: /dev/null, /dev/stdout) is written to, never replaced.
 * 0, or -1 with "cannot write 'path': why" in err. */
int ll_write_file(const char *path, const void *p, size_t n, buf *err);
/* Creates a new file for writing in path's folder under a name no one can predict
 * (".BASE.<48 random bits>", O_CREAT|O_EXCL|O_NOFOLLOW, mode 0666 less the umask): a name
 * planted there beforehand, link or file, is never opened. Its name in name; the descriptor,
 * or -1 with errno set. */
int ll_temp_beside(const char *path, buf *name);
/* Puts the finished file tmp at path: renamed into place, or, where path is there and is not
 * a regular file (a device, a FIFO, a symbolic link), copied into it and tmp removed. 0, or
 * -1 with errno set. */
int ll_install_file(const char *tmp, const char *path);
/* Whether the paths a and b name the same file (both exist; same device and inode). */
int ll_same_file(const char *a, const char *b);
/* 1 if path names a regular file (through symbolic links). */
int ll_is_file(const char *path);
/* Display columns of UTF-8 text, one per code point (every glyph locklab prints is one wide). */
size_t ll_utf8_width(const char *s);
/* The nearest of names[0..n) to s if it is near enough to be a likely typo (an edit distance
 * that counts a swap of neighbours as one edit, within a bound that grows with s's length;
 * never for names of one or two characters), else NULL: for "did you mean". */
const char *ll_nearest(const char *s, const char *const *names, size_t n);

/* Appends the whole of path, a regular file, to out. LL_READ_OK, or what failed, with errno
 * set: LL_READ_OPEN (open's errno), LL_READ_ERROR (a read error; a directory gives EISDIR),
 * LL_READ_TOO_BIG (more than max bytes, EFBIG: a file whose size says so is not read at all;
 * else out holds the first max of them), LL_READ_NOT_FILE (EINVAL: a FIFO, a device, a
 * socket — /dev/zero, a pipe nobody writes to — refused at once, never waited on). The null
 * device, /dev/null, reads as an empty file. */
enum { LL_READ_OK = 0, LL_READ_OPEN = -1, LL_READ_ERROR = -2, LL_READ_TOO_BIG = -3, LL_READ_NOT_FILE = -4 };
int ll_read_file(const char *path, size_t max, buf *out);

/* Number parsing exactly as Redis parses arguments (string2ll / strtold rules). */
int ll_parse_int64(slice s, long long *out);      /* 0 ok, -1 not a canonical integer */
int ll_parse_double(slice s, double *out);        /* 0 ok, -1 not a valid float (nan refused) */
/* Writes v in decimal into dst (at least 21 bytes) and returns the length; no NUL. */
int ll_format_int64(char *dst, long long v);
/* Formats a double as Redis 7.0 replies it (%.17g, "inf", "-inf"). Returns the length. */
int ll_format_double(char *dst, size_t cap, double d);

#endif
