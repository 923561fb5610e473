/* benchkit.h — what the benchmarks under tests/bench_*.c share: a manual clock for the fake
 * server, a monotonic stopwatch, medians, the process's peak resident memory, and a tiny
 * pipelined RESP2 client for measuring a real redis-server beside the fake one (the anchor).
 *
 * Header-only (static inline) because the Makefile builds each tests/bench_X.c on its own
 * and links it with the library objects only. The client decodes replies into `reply`
 * values (reply.h), so a real server's answers compare with server_exec's directly.
 *
 * The benchmarks sit outside the simulation, so wall-clock time is the right measure here;
 * inside the fake server time is the manual clock and stands still unless moved. */
#ifndef LOCKLAB_BENCHKIT_H
#define LOCKLAB_BENCHKIT_H

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "reply.h"
#include "util.h"

/* ---- clocks and statistics ---- */

/* The fake server's clock: local ms that move only when the benchmark moves them. */
typedef struct bench_clock {
    int64_t now_ms;
} bench_clock;

static inline int64_t bench_clock_read(void *ud)
{
    return ((const bench_clock *)ud)->now_ms;
}

static inline double bench_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted in place; n > 0). */
static inline double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A "VmHWM:" style line of /proc/self/status, in kB; -1 if unavailable. */
static inline long bench_proc_status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    size_t n = strlen(field);
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':') {
            kb = strtol(line + n + 1, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

/* ---- RESP2 encoding and decoding ---- */

static inline void resp_encode(buf *out, int argc, const slice *argv)
{
    buf_printf(out, "*%d\r\n", argc);
    for (int i = 0; i < argc; i++) {
        buf_printf(out, "$%zu\r\n", argv[i].len);
        buf_append(out, argv[i].p, argv[i].len);
        buf_append(out, "\r\n", 2);
    }
}

/* The end of the CRLF-terminated line starting at p (pointing at '\r'), or NULL. */
static inline const char *resp_line_end(const char *p, const char *end)
{
    const char *cr = memchr(p, '\r', (size_t)(end - p));
    return cr && cr + 1 < end ? cr : NULL;
}

/* Decodes one reply from p[0..n) into *out (released first). Returns the bytes consumed,
 * 0 if the reply is not complete yet, -1 on a protocol error. */
static inline long resp_decode(const char *p, size_t n, reply *out)
{
    const char *end = p + n;
    if (n < 3) return 0;
    const char *cr = resp_line_end(p + 1, end);
    if (!cr) return 0;
    const char *next = cr + 2;
    long long v = 0;
    if (p[0] == ':' || p[0] == '$' || p[0] == '*') {
        if (ll_parse_int64((slice){ p + 1, (size_t)(cr - p - 1) }, &v) != 0) return -1;
    }
    switch (p[0]) {
    case '+': {
        char *s = xmemdup(p + 1, (size_t)(cr - p - 1));
        reply_status(out, s);
        free(s);
        return next - p;
    }
    case '-': {
        char *s = xmemdup(p + 1, (size_t)(cr - p - 1));
        reply_error(out, s);
        free(s);
        return next - p;
    }
    case ':':
        reply_int(out, v);
        return next - p;
    case '$':
        if (v < 0) {
            reply_nil(out);
            return next - p;
        }
        if ((size_t)(end - next) < (size_t)v + 2) return 0;
        reply_bulk(out, next, (size_t)v);
        return next + v + 2 - p;
    case '*': {
        if (v < 0) {
            reply_nil_array(out);
            return next - p;
        }
        reply tmp;
        reply_init(&tmp);
        reply *elem = reply_array(&tmp, (size_t)v);
        for (long long i = 0; i < v; i++) {
            long used = resp_decode(next, (size_t)(end - next), &elem[i]);
            if (used <= 0) {
                reply_release(&tmp);
                return used;
            }
            next += used;
        }
        reply_move(out, &tmp);
        return next - p;
    }
    default:
        return -1;
    }
}

/* ---- a connection to a real redis-server ---- */

typedef struct resp_conn {
    int fd;
    buf out;          /* encoded commands not yet written from out_off */
    size_t out_off;
    buf in;           /* bytes read and not yet decoded */
    size_t in_off;
    size_t queued;    /* commands encoded so far (the stream position) */
    size_t answered;  /* replies decoded so far */
} resp_conn;

/* Connects to 127.0.0.1:port. 0, or -1 with errno set. */
static inline int resp_connect(resp_conn *c, int port)
{
    memset(c, 0, sizeof *c);
    buf_init(&c->out);
    buf_init(&c->in);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0) return -1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(c->fd);
        c->fd = -1;
        errno = e;
        return -1;
    }
    return 0;
}

static inline void resp_close(resp_conn *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    buf_release(&c->out);
    buf_release(&c->in);
}

/* Writes what it can of the pending output. 0, or -1 on an I/O error. */
static inline int resp_flush_some(resp_conn *c)
{
    while (c->out_off < c->out.len) {
        ssize_t w = write(c->fd, c->out.p + c->out_off, c->out.len - c->out_off);
        if (w < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
        c->out_off += (size_t)w;
    }
    buf_reset(&c->out);
    c->out_off = 0;
    return 0;
}

/* Reads what is available into c->in. 0, or -1 on an I/O error or EOF. */
static inline int resp_read_some(resp_conn *c)
{
    if (c->in_off > 0 && c->in_off == c->in.len) {
        buf_reset(&c->in);
        c->in_off = 0;
    } else if (c->in_off > (1u << 20)) {
        memmove(c->in.p, c->in.p + c->in_off, c->in.len - c->in_off);
        c->in.len -= c->in_off;
        c->in_off = 0;
    }
    char chunk[65536];
    ssize_t r = read(c->fd, chunk, sizeof chunk);
    if (r < 0) return errno == EAGAIN || errno == EINTR ? 0 : -1;
    if (r == 0) return -1;
    buf_append(&c->in, chunk, (size_t)r);
    return 0;
}

/* Decodes the next buffered reply. 1 decoded, 0 need more bytes, -1 protocol error. */
static inline int resp_next_reply(resp_conn *c, reply *out)
{
    long used = resp_decode(c->in.p + c->in_off, c->in.len - c->in_off, out);
    if (used < 0) return -1;
    if (used == 0) return 0;
    c->in_off += (size_t)used;
    c->answered++;
    return 1;
}

/* One command, blocking, on a connection with nothing in flight. 0, or -1 on I/O error. */
static inline int resp_call(resp_conn *c, int argc, const slice *argv, reply *out)
{
    resp_encode(&c->out, argc, argv);
    c->queued++;
    int fl = fcntl(c->fd, F_GETFL);
    fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK);
    int rc = resp_flush_some(c);
    int got = 0;
    while (rc == 0 && (got = resp_next_reply(c, out)) == 0) rc = resp_read_some(c);
    fcntl(c->fd, F_SETFL, fl);
    return rc == 0 && got == 1 ? 0 : -1;
}

/* A command stream for resp_pipeline: encode(ud, conn, j, out) appends the j-th command of
 * connection `conn`; check(ud, conn, j, r) judges its reply (0 good, -1 wrong). */
typedef void (*resp_encode_fn)(void *ud, int conn, size_t j, buf *out);
typedef int (*resp_check_fn)(void *ud, int conn, size_t j, const reply *r);

/* Sends count[i] commands on each connection i with at most `window` unanswered on each,
 * refilling at half a window so the server always has work queued. Returns 0, -1 on an I/O
 * or protocol error or a timeout (10 s without progress), or -2 if a check failed (it then
 * stops early). */
static inline int resp_pipeline(resp_conn *cs, int n, const size_t *count, size_t window,
                                resp_encode_fn encode, resp_check_fn check, void *ud)
{
    struct pollfd pf[64];
    LL_ASSERT(n > 0 && n <= (int)LL_ARRAY_LEN(pf));
    size_t base_q[64], base_a[64];
    for (int i = 0; i < n; i++) {
        base_q[i] = cs[i].queued;
        base_a[i] = cs[i].answered;
        fcntl(cs[i].fd, F_SETFL, fcntl(cs[i].fd, F_GETFL) | O_NONBLOCK);
    }
    reply r;
    reply_init(&r);
    int rc = 0;
    for (;;) {
        int busy = 0;
        for (int i = 0; i < n; i++) {
            resp_conn *c = &cs[i];
            size_t q = c->queued - base_q[i], a = c->answered - base_a[i];
            if (c->out_off == c->out.len && q < count[i] && q - a <= window / 2) {
                size_t stop = a + window < count[i] ? a + window : count[i];
                for (; q < stop; q++) encode(ud, i, q, &c->out);
                c->queued = base_q[i] + q;
            }
            pf[i].fd = c->fd;
            pf[i].events = (short)((a < q ? POLLIN : 0) | (c->out_off < c->out.len ? POLLOUT : 0));
            pf[i].revents = 0;
            busy |= a < count[i];
        }
        if (!busy) break;
        int ready = poll(pf, (nfds_t)n, 10000);
        if (ready <= 0) {
            rc = -1;
            break;
        }
        for (int i = 0; i < n && rc == 0; i++) {
            resp_conn *c = &cs[i];
            if ((pf[i].revents & POLLOUT) && resp_flush_some(c) != 0) rc = -1;
            if (rc || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (resp_read_some(c) != 0) rc = -1;
            int got;
            while (rc == 0 && (got = resp_next_reply(c, &r)) != 0) {
                if (got < 0) rc = -1;
                else if (check(ud, i, c->answered - 1 - base_a[i], &r) != 0) rc = -2;
            }
        }
        if (rc) break;
    }
    reply_release(&r);
    return rc;
}

#endif
