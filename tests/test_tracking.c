/* test_tracking.c — CLIENT TRACKING through the server's door (server.h) with a small host of
 * three connections, as locklab serve hosts it: what each connection receives, as RESP bytes
 * (the command's reply, then what the server held for it; the pushes to the others through
 * the host's push callback). The byte-for-byte comparison with redis-server over TCP is
 * tests/cli/test_serve_tracking.sh; this checks what only the door shows: messages when no
 * command runs (active expiry, a keyspace replaced), a connection closed, the request no
 * longer pure, the order of BCAST's keys, a second run the same. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "reply.h"
#include "server.h"
#include "store.h"

#define NCONN 3

typedef struct host {
    int64_t now;
    server *srv;
    conn c[NCONN];  /* ids 1, 2, 3 */
    int open[NCONN];
    buf got[NCONN]; /* what each received, RESP bytes */
} host;

static int64_t h_clock(void *ud)
{
    return ((host *)ud)->now;
}

static void h_each(void *ud, void (*fn)(void *arg, const conn *c, const conn_peer *p), void *arg)
{
    host *h = ud;
    conn_peer p = { .addr = "127.0.0.1:1", .laddr = "127.0.0.1:6379", .fd = -1 };
    for (int i = 0; i < NCONN; i++)
        if (h->open[i]) fn(arg, &h->c[i], &p);
}

static void h_push(void *ud, int conn_id, const reply *msg)
{
    host *h = ud;
    reply_to_resp(msg, &h->got[conn_id - 1]);
}

static void h_deliver(void *ud, int conn_id, slice channel, slice message)
{
    host *h = ud;
    reply m;
    reply_init(&m);
    pubsub_message_reply(&m, channel, message);
    reply_to_resp(&m, &h->got[conn_id - 1]);
    reply_release(&m);
}

static const server_host h_host = { .each_conn = h_each };

static host *host_new(void)
{
    host *h = calloc(1, sizeof *h);
    h->now = 1700000000000;
    server_config cfg = { .clock = h_clock, .clock_ud = h, .deliver = h_deliver, .push = h_push, .deliver_ud = h,
                          .host = &h_host, .host_ud = h };
    h->srv = server_new(&cfg);
    for (int i = 0; i < NCONN; i++) {
        h->c[i].id = i + 1;
        h->open[i] = 1;
        buf_init(&h->got[i]);
    }
    return h;
}

static void host_free(host *h)
{
    server_free(h->srv);
    for (int i = 0; i < NCONN; i++) buf_release(&h->got[i]);
    free(h);
}

/* Runs a command on connection id; its reply's bytes go to what id received. */
static void run(host *h, int id, const char **words)
{
    int n = 0;
    while (words[n]) n++;
    reply r;
    reply_init(&r);
    server_execv(h->srv, &h->c[id - 1], &r, n, words);
    if (h->c[id - 1].subscriptions) pubsub_set_resp3(server_pubsub(h->srv), id, h->c[id - 1].resp == 3);
    reply_to_resp(&r, &h->got[id - 1]);
    reply_release(&r);
}
#define RUN(h, id, ...) run(h, id, (const char *[]){ __VA_ARGS__, NULL })

/* What id received since the last call, as a C string (then forgotten). */
static char *taken(host *h, int id)
{
    buf *b = &h->got[id - 1];
    char *s = xmemdup(b->p ? b->p : "", b->len);
    buf_reset(b);
    return s;
}

static void drop(host *h, int id)
{
    buf_reset(&h->got[id - 1]);
}

#define EXPECT(h, id, s)                          \
    do {                                          \
        char *got_ = taken(h, id);                \
        assert_string_equal(got_, s);             \
        free(got_);                               \
    } while (0)

/* A RESP3 connection's own invalidation follows its reply, in the same write; EXEC's too. */
static void test_tracking_own_push_after_reply(void **state)
{
    (void)state;
    host *h = host_new();
    RUN(h, 1, "hello", "3");
    drop(h, 1);
    RUN(h, 1, "client", "tracking", "on");
    RUN(h, 1, "get", "k");
    RUN(h, 1, "set", "k", "1");
    EXPECT(h, 1, "+OK\r\n_\r\n+OK\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n");
    RUN(h, 1, "get", "k");
    RUN(h, 1, "multi");
    RUN(h, 1, "incr", "k");
    RUN(h, 1, "get", "k");
    RUN(h, 1, "exec");
    EXPECT(h, 1, "$1\r\n1\r\n+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n:2\r\n$1\r\n2\r\n>2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n");
    /* another's write: at once, through the host */
    RUN(h, 2, "set", "k", "3");
    EXPECT(h, 1, ">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n");
    EXPECT(h, 2, "+OK\r\n");
    host_free(h);
}

/* REDIRECT to a RESP2 subscriber; a FLUSHALL's null is the tracker's ($-1 for RESP2); the
 * redirect's connection closed: broken_redirect (a RESP2 tracker hears nothing of it). */
static void test_tracking_redirect_and_close(void **state)
{
    (void)state;
    host *h = host_new();
    RUN(h, 3, "subscribe", "__redis__:invalidate");
    drop(h, 3);
    RUN(h, 1, "client", "tracking", "on", "redirect", "3");
    RUN(h, 2, "set", "a", "1");
    RUN(h, 1, "mget", "a", "b");
    RUN(h, 2, "del", "a", "nothing"); /* a deletion of nothing changes nothing */
    EXPECT(h, 3, "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*1\r\n$1\r\na\r\n");
    RUN(h, 2, "flushall");
    EXPECT(h, 3, "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$-1\r\n");
    RUN(h, 1, "get", "b");
    h->open[2] = 0;
    server_drop_conn(h->srv, &h->c[2]);
    RUN(h, 2, "set", "b", "1");
    drop(h, 1);
    RUN(h, 1, "client", "list");
    char *list = taken(h, 1);
    assert_non_null(strstr(list, "id=1 ") );
    assert_non_null(strstr(list, "flags=tR "));
    assert_non_null(strstr(list, "redir=3 resp=2\n"));
    free(list);
    /* a closed tracker is forgotten: INFO counts none, nothing is sent for its keys */
    RUN(h, 1, "get", "b");
    drop(h, 1);
    h->open[0] = 0;
    server_conn_closed(h->srv, 1);
    RUN(h, 2, "info", "clients");
    char *info = taken(h, 2);
    assert_non_null(strstr(info, "tracking_clients:0\r\n"));
    free(info);
    RUN(h, 2, "set", "b", "2");
    EXPECT(h, 1, "");
    host_free(h);
}

/* Active expiry (no command running) sends at once; BCAST's keys go in byte order, one
 * message per prefix, after the command that changed them; a second run, the same bytes. */
static void bcast_run(host *h, buf *all)
{
    RUN(h, 1, "hello", "3");
    RUN(h, 1, "client", "tracking", "on");
    RUN(h, 1, "set", "e", "v", "px", "10");
    RUN(h, 1, "get", "e");
    drop(h, 1);
    h->now += 20;
    server_active_expire(h->srv);
    char *s = taken(h, 1);
    assert_string_equal(s, ">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\ne\r\n");
    buf_puts(all, s);
    free(s);
    RUN(h, 2, "hello", "3");
    RUN(h, 2, "client", "tracking", "on", "bcast", "prefix", "b", "prefix", "a");
    drop(h, 2);
    RUN(h, 3, "mset", "b2", "1", "a9", "1", "b10", "1", "c", "1", "a1", "1");
    s = taken(h, 2);
    assert_string_equal(s, ">2\r\n$10\r\ninvalidate\r\n*2\r\n$2\r\na1\r\n$2\r\na9\r\n"
                           ">2\r\n$10\r\ninvalidate\r\n*2\r\n$3\r\nb10\r\n$2\r\nb2\r\n");
    buf_puts(all, s);
    free(s);
    RUN(h, 2, "info", "stats");
    s = taken(h, 2);
    assert_non_null(strstr(s, "tracking_total_prefixes:2\r\n"));
    free(s);
}

static void test_tracking_expiry_bcast_deterministic(void **state)
{
    (void)state;
    buf one, two;
    buf_init(&one);
    buf_init(&two);
    host *h = host_new();
    bcast_run(h, &one);
    host_free(h);
    h = host_new();
    bcast_run(h, &two);
    host_free(h);
    assert_int_equal(one.len, two.len);
    assert_memory_equal(one.p, two.p, one.len);
    buf_release(&one);
    buf_release(&two);
}

/* While a connection tracks, no request is inert (a read is remembered, a write may send):
 * server_footprint says so after the request; a keyspace replaced sends every tracker a null. */
static void test_tracking_not_pure_and_swap(void **state)
{
    (void)state;
    host *h = host_new();
    RUN(h, 2, "get", "k");
    assert_int_equal(server_footprint(h->srv), 0);
    RUN(h, 1, "hello", "3");
    RUN(h, 1, "client", "tracking", "on");
    drop(h, 1);
    RUN(h, 2, "get", "k");
    assert_int_not_equal(server_footprint(h->srv), 0);
    store *old = server_swap_store(h->srv, store_new(h_clock, h));
    store_free(old);
    EXPECT(h, 1, ">2\r\n$10\r\ninvalidate\r\n_\r\n");
    RUN(h, 1, "client", "tracking", "off");
    RUN(h, 2, "get", "k");
    assert_int_equal(server_footprint(h->srv), 0);
    host_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracking_own_push_after_reply),
        cmocka_unit_test(test_tracking_redirect_and_close),
        cmocka_unit_test(test_tracking_expiry_bcast_deterministic),
        cmocka_unit_test(test_tracking_not_pure_and_swap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
