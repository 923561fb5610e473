/* serve_io.c — the sockets of `locklab serve` (serveint.h): accepting connections, reading
 * requests into each connection's query buffer, writing replies, holding and releasing a
 * connection (a partition, a pause), and ending connections; and, while a script runs past
 * busy-reply-threshold, the loop's work done by hand. serve.c runs the requests.
 *
 * A connection reads into its own query buffer, which the parser walks from a position, so
 * every byte is looked at about once however it arrives. Limits stand where Redis has them,
 * so no client can make the process grow without bound:
 *   - the query buffer (bytes read and not yet run, with the arguments of the request being
 *     read): client-query-buffer-limit, 1 GB as in Redis; past it the connection is closed
 *     without a reply, as Redis closes it;
 *   - a single bulk argument: 512 MB (proto-max-bulk-len), and 64 KiB for an inline line or
 *     a count line: Redis's protocol errors (resp.h), then the connection closes once the
 *     replies before the error are written;
 *   - the output buffer: Redis sets no limit for normal clients (client-output-buffer-limit
 *     normal 0 0 0) and lets a client that never reads grow it forever; here it is 256 MB
 *     (Redis's hard limit for replicas) by default, past which the connection is closed; a
 *     subscriber's is Redis's pubsub class, 32 MB, or 8 MB for 60 s;
 *   - maxclients, 10000 as in Redis: one more gets "-ERR max number of clients reached". */
#include "serveint.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* How much one read takes off a socket at least (Redis's PROTO_IOBUF_LEN); the query buffer
 * grows by half when a big argument fills it, so that it arrives in few reads. */
#define SERVE_READ_CHUNK ((size_t)16 << 10)
/* A subscriber's output limits, Redis 7.0's default client-output-buffer-limit pubsub. */
#define SERVE_PUBSUB_HARD ((size_t)32 << 20)
#define SERVE_PUBSUB_SOFT ((size_t)8 << 20)
#define SERVE_PUBSUB_SOFT_US ((int64_t)60 * 1000000)

/* ---- ending connections ---- */

/* Reads and drops what the peer sent and we will not read (up to 1 MiB): closing a socket
 * with unread bytes sends a reset, which could destroy the last reply in flight before the
 * peer reads it (a protocol error's). Redis has read them by then, 16 KiB at a time. */
static void serve_drain(evutil_socket_t fd)
{
    char tmp[64 << 10];
    for (int i = 0; i < 16 && recv(fd, tmp, sizeof tmp, MSG_DONTWAIT) > 0; i++) {
    }
}

/* Takes c off its node's queue and frees its command. */
void serve_block_end(sclient *c)
{
    for (sclient **p = &c->node->blocked; *p; p = &(*p)->bnext)
        if (*p == c) {
            *p = c->bnext;
            break;
        }
    if (c->btimer) event_free(c->btimer);
    c->btimer = NULL;
    for (int i = 0; i < c->bargc; i++) free((void *)c->bargv[i].p);
    free(c->bargv);
    c->bargv = NULL;
    c->bargc = 0;
    c->bnext = NULL;
    c->conn.blocked = 0;
    c->unblock_how = 0;
}

static void serve_client_free(sclient *c)
{
    snode *n = c->node;
    serve_drain(c->fd);
    if (c->pending)
        for (sclient **p = &c->sv->pending; *p; p = &(*p)->pend_next)
            if (*p == c) {
                *p = c->pend_next;
                break;
            }
    if (c->prev) c->prev->next = c->next;
    else n->clients = c->next;
    if (c->next) c->next->prev = c->prev;
    if (c->bargv) serve_block_end(c); /* its blocked command */
    if (n->srv) pubsub_drop_conn(server_pubsub(n->srv), c->conn.id);
    if (n->srv) server_conn_closed(n->srv, c->conn.id); /* its MULTI and WATCH */
    serve_record(c->sv, "disconnect", n, c, 0, NULL, c->addr, NULL, 0, 0);
    event_free(c->rev);
    event_free(c->wev);
    evutil_closesocket(c->fd);
    buf_release(&c->out);
    buf_release(&c->query);
    resp_parser_release(&c->parser);
    c->sv->nclients--;
    free(c);
}

static void serve_reap(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    serve *sv = ud;
    while (sv->reap) {
        sclient *c = sv->reap;
        sv->reap = c->reap_next;
        serve_client_free(c);
    }
}

/* Reading c's socket on or off (an epoll_ctl each: only when a hold or a close changes). */
static void serve_reading(sclient *c, int on)
{
    if (on == c->reading) return;
    c->reading = on;
    if (on) event_add(c->rev, NULL);
    else event_del(c->rev);
}

static void serve_writing(sclient *c, int on)
{
    if (on == c->writing) return;
    c->writing = on;
    if (on) event_add(c->wev, NULL);
    else event_del(c->wev);
}

void serve_client_kill(sclient *c, int after_reply)
{
    if (c->dead) return;
    if (after_reply && c->out.len > c->opos) {
        c->closing = 1;
        serve_reading(c, 0);
        return;
    }
    c->dead = 1;
    serve_reading(c, 0);
    serve_writing(c, 0);
    c->reap_next = c->sv->reap;
    c->sv->reap = c;
    event_active(c->sv->reaper, EV_TIMEOUT, 0);
}

/* ---- replies ----
 * A reply is appended to its connection's output buffer, and the connection put on the
 * serve's pending list; once the loop has run every event that was ready, `flusher` writes
 * each pending output with one write(2), as Redis does before it sleeps, and waits for the
 * socket to be writable only for what the kernel did not take. So a request costs a read
 * and a write, and no epoll_ctl. */

/* Writes what c's output holds, as far as the socket takes it. */
static void serve_flush(sclient *c)
{
    if (c->dead || c->hold_write) return;
    while (c->out.len > c->opos) {
        ssize_t w = send(c->fd, c->out.p + c->opos, c->out.len - c->opos, MSG_NOSIGNAL);
        if (w > 0) {
            c->opos += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (c->opos >= ((size_t)64 << 10) && c->opos >= c->out.len / 2) { /* keep the rest only */
                memmove(c->out.p, c->out.p + c->opos, c->out.len - c->opos);
                c->out.len -= c->opos;
                c->opos = 0;
            }
            serve_writing(c, 1);
            return;
        }
        serve_client_kill(c, 0); /* the peer is gone */
        return;
    }
    c->out.len = c->opos = 0;
    if (c->out.cap > SERVE_QUERY_KEEP) buf_release(&c->out);
    serve_writing(c, 0);
    if (c->closing) serve_client_kill(c, 0);
}

/* Writes every pending output (the loop's `flusher`, and a busy script's poll). */
static void serve_flush_pending(serve *sv)
{
    /* the history first: a reply never goes out for a command --json could not record */
    if (sv->pending && serve_history_sync(&sv->hist) != 0) {
        if (sv->base) event_base_loopbreak(sv->base);
        return;
    }
    while (sv->pending) {
        sclient *c = sv->pending;
        sv->pending = c->pend_next;
        c->pending = 0;
        serve_flush(c);
    }
}

static void serve_on_flush(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    serve_flush_pending(ud);
}

static void serve_pend(sclient *c)
{
    if (c->pending || c->writing) return; /* writing: the socket's own event writes it */
    c->pending = 1;
    c->pend_next = c->sv->pending;
    c->sv->pending = c;
    event_active(c->sv->flusher, EV_TIMEOUT, 0);
}

/* Appends a reply to c's output; a client whose output passes the limit is closed. */
void serve_write(sclient *c, const reply *rep)
{
    if (c->dead) return;
    serve *sv = c->sv;
    buf_reset(&sv->scratch);
    reply_to_resp(rep, &sv->scratch);
    serve_write_resp(c, sv->scratch.p, sv->scratch.len);
    if (sv->scratch.cap > SERVE_QUERY_KEEP) buf_release(&sv->scratch);
}

void serve_write_resp(sclient *c, const char *p, size_t n)
{
    if (c->dead) return;
    serve *sv = c->sv;
    buf_append(&c->out, p, n);
    serve_pend(c);
    size_t len = c->out.len - c->opos;
    if (len > sv->opt.output_limit) {
        fprintf(stderr, "locklab serve: %s: closing client %d (%s): output buffer over %llu bytes "
                        "(--output-buffer-limit)\n",
                c->node->name, c->conn.id, c->addr, sv->opt.output_limit);
        serve_client_kill(c, 0);
    } else if (c->conn.subscriptions + c->conn.shard_subscriptions > 0) {
        /* A subscriber: Redis's client-output-buffer-limit pubsub 32mb 8mb 60 (audit D06) */
        int64_t now = serve_true_us(sv);
        if (len <= SERVE_PUBSUB_SOFT) c->soft_since_us = -1;
        else if (c->soft_since_us < 0) c->soft_since_us = now;
        if (len > SERVE_PUBSUB_HARD || (len > SERVE_PUBSUB_SOFT && now - c->soft_since_us >= SERVE_PUBSUB_SOFT_US)) {
            fprintf(stderr, "locklab serve: %s: closing client %d (%s): a subscriber's output buffer over %s "
                            "(Redis's client-output-buffer-limit pubsub 32mb 8mb 60)\n",
                    c->node->name, c->conn.id, c->addr, len > SERVE_PUBSUB_HARD ? "32 MB" : "8 MB for 60 s");
            serve_client_kill(c, 0);
        }
    }
}

/* A pub/sub message for a subscribed connection of node n (pubsub_deliver_fn). It only
 * writes: a client it closes is freed later, not under PUBLISH's walk of its subscribers. */
void serve_deliver(void *ud, int conn_id, slice channel, slice message)
{
    snode *n = ud;
    for (sclient *c = n->clients; c; c = c->next) {
        if (c->conn.id != conn_id) continue;
        reply m;
        reply_init(&m);
        pubsub_message_reply(&m, channel, message);
        serve_write(c, &m);
        reply_release(&m);
        return;
    }
}

void serve_push(void *ud, int conn_id, const reply *msg)
{
    snode *n = ud;
    for (sclient *c = n->clients; c; c = c->next)
        if (c->conn.id == conn_id) {
            serve_write(c, msg);
            return;
        }
}

void serve_client_flow(sclient *c, const sclient *sender)
{
    if (c->dead || c->closing) return;
    if (c->node->partitioned || c->paused_until_us) {
        serve_reading(c, 0);
        if (c->node->partitioned && c != sender) {
            c->hold_write = 1;
            serve_writing(c, 0);
        }
        return;
    }
    serve_reading(c, 1);
    c->hold_write = 0;
    if (c->out.len > c->opos) serve_pend(c);
    c->wake = 1;
    event_active(c->sv->waker, EV_TIMEOUT, 0);
}

void serve_client_wake(sclient *c)
{
    c->wake = 1;
    event_active(c->sv->waker, EV_TIMEOUT, 0);
}

/* Runs what released clients sent while they were held. */
static void serve_wake(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    serve *sv = ud;
    for (int i = 0; i < sv->nnodes; i++)
        for (sclient *c = sv->nodes[i].clients; c; c = c->next)
            if (c->wake) {
                c->wake = 0;
                serve_process(c);
            }
}

/* c's socket is readable: one read(2) into its query buffer, then what it holds runs. */
static void serve_read_cb(evutil_socket_t fd, short what, void *ud)
{
    (void)what;
    sclient *c = ud;
    if (c->dead || c->closing) return;
    serve_catch_up(c->sv); /* the world at the real time now (--clock wall) */
    if (c->dead || c->closing) return;
    size_t len = c->query.len;
    if (c->query.cap < len + SERVE_READ_CHUNK + 1) { /* grows by half: a big argument is copied few times */
        c->query.cap = len + SERVE_READ_CHUNK + 1 + len / 2;
        c->query.p = xrealloc(c->query.p, c->query.cap);
    }
    ssize_t got = recv(fd, c->query.p + len, c->query.cap - len - 1, 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (got <= 0) { /* the peer closed, or the connection broke: what was not sent is lost */
        serve_client_kill(c, 0);
        return;
    }
    c->query.len = len + (size_t)got;
    c->query.p[c->query.len] = '\0';
    if (c->query.len - c->qpos + resp_parser_bytes(&c->parser) > c->node->query_limit) {
        fprintf(stderr, "locklab serve: %s: closing client %d (%s): query buffer over %llu bytes "
                        "(--query-buffer-limit)\n",
                c->node->name, c->conn.id, c->addr, c->node->query_limit);
        serve_client_kill(c, 0);
        return;
    }
    serve_process(c);
}

/* ---- a script running long ----
 * libevent's loop cannot be re-entered from inside a command, so while a script runs past
 * busy-reply-threshold its tick does the loop's work by hand, every 5 ms: poll(2) on the
 * listeners and the connections (the script's own excepted: what it sends waits, as on
 * Redis), accept, read, run what can run (BUSY for the busy node, anything for the others)
 * and write. A signal (SIGINT, SIGTERM) kills the script, then the loop stops as usual. */

static void serve_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen, void *ud);

void serve_busy_poll(serve *sv)
{
    size_t cap = 0, n = 0;
    for (int i = 0; i < sv->nnodes; i++) {
        cap++;
        for (sclient *c = sv->nodes[i].clients; c; c = c->next) cap++;
    }
    struct pollfd *fds = xcalloc(cap, sizeof *fds);
    void **who = xcalloc(cap, sizeof *who);
    int *is_listener = xcalloc(cap, sizeof *is_listener);
    for (int i = 0; i < sv->nnodes; i++) {
        snode *nd = &sv->nodes[i];
        if (nd->listener && !nd->partitioned) {
            fds[n] = (struct pollfd){ .fd = evconnlistener_get_fd(nd->listener), .events = POLLIN };
            who[n] = nd;
            is_listener[n++] = 1;
        }
        for (sclient *c = nd->clients; c; c = c->next) {
            if (c->dead || c->closing || c == sv->current || nd->partitioned || c->paused_until_us) continue;
            fds[n] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
            who[n++] = c;
        }
    }
    if (poll(fds, n, 0) > 0) {
        for (size_t k = 0; k < n; k++) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (is_listener[k]) {
                struct sockaddr_storage ss;
                socklen_t len = sizeof ss;
                int fd = accept(fds[k].fd, (struct sockaddr *)&ss, &len);
                if (fd >= 0) {
                    evutil_make_socket_nonblocking(fd);
                    evutil_make_socket_closeonexec(fd);
                    serve_accept(NULL, fd, (struct sockaddr *)&ss, (int)len, who[k]);
                }
                continue;
            }
            sclient *c = who[k];
            if (c->dead) continue;
            if (c->query.cap < c->query.len + SERVE_READ_CHUNK + 1) {
                c->query.cap = c->query.len + SERVE_READ_CHUNK + 1;
                c->query.p = xrealloc(c->query.p, c->query.cap);
            }
            ssize_t got = recv(fds[k].fd, c->query.p + c->query.len, SERVE_READ_CHUNK, MSG_DONTWAIT);
            if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                serve_client_kill(c, 0);
                continue;
            }
            if (got < 0) continue;
            c->query.len += (size_t)got;
            c->query.p[c->query.len] = '\0';
            serve_process(c);
        }
    }
    /* the loop is not running: write what the replies left in the output buffers */
    serve_flush_pending(sv);
    for (int i = 0; i < sv->nnodes; i++)
        for (sclient *c = sv->nodes[i].clients; c; c = c->next)
            if (c->writing) serve_flush(c);
    free(fds);
    free(who);
    free(is_listener);
}

/* c's socket takes more of an output the kernel did not take at once. */
static void serve_write_cb(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    serve_flush(ud);
}

/* ---- accepting ---- */

static void serve_peer_name(const struct sockaddr *sa, char *out, size_t cap)
{
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        port = ntohs(in->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
        inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
        port = ntohs(in6->sin6_port);
    }
    snprintf(out, cap, "%s:%d", host, port);
}

/* Whether a peer is on this host's loopback (Redis's islocalClient). */
static int serve_peer_local(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a)) return 1;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return 1; /* a Unix socket */
}

static void serve_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int salen,
                         void *ud)
{
    (void)l, (void)salen;
    snode *n = ud;
    serve *sv = n->sv;
    if (sv->nclients >= sv->opt.maxclients) {
        static const char full[] = "-ERR max number of clients reached\r\n";
        ssize_t w = send(fd, full, sizeof full - 1, MSG_NOSIGNAL);
        (void)w;
        evutil_closesocket(fd);
        return;
    }
    n->accept_full = 0; /* an accept worked: the next failure is a new episode */
    if (!sv->opt.requirepass && !sv->opt.unprotected && !serve_peer_local(sa)) {
        static const char denied[] =
            "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for "
            "the default user. In this mode connections are only accepted from the loopback interface. If you want "
            "to connect from external computers to Redis you may adopt one of the following solutions: 1) Just "
            "disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback interface "
            "by connecting to Redis from the same host the server is running, however MAKE SURE Redis is not "
            "publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. 2) "
            "Alternatively you can just disable the protected mode by editing the Redis configuration file, and "
            "setting the protected mode option to 'no', and then restarting the server. 3) If you started the "
            "server manually just for testing, restart it with the '--protected-mode no' option. 4) Setup a an "
            "authentication password for the default user. NOTE: You only need to do one of the above things in "
            "order for the server to start accepting connections from the outside.\r\n";
        ssize_t w = send(fd, denied, sizeof denied - 1, MSG_NOSIGNAL);
        (void)w;
        evutil_closesocket(fd);
        return;
    }
    sclient *c = xcalloc(1, sizeof *c);
    c->sv = sv;
    c->node = n;
    c->conn.id = ++sv->next_id;
    c->since_us = c->last_us = serve_true_us(sv);
    c->soft_since_us = -1;
    c->authed = sv->opt.requirepass == NULL;
    n->connections++;
    buf_init(&c->query);
    resp_parser_init(&c->parser);
    serve_peer_name(sa, c->addr, sizeof c->addr);
    c->fd = fd;
    if (sa->sa_family == AF_INET || sa->sa_family == AF_INET6) { /* as Redis: replies leave at once */
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    buf_init(&c->out);
    c->rev = event_new(sv->base, fd, EV_READ | EV_PERSIST, serve_read_cb, c);
    c->wev = event_new(sv->base, fd, EV_WRITE | EV_PERSIST, serve_write_cb, c);
    LL_ASSERT(c->rev != NULL && c->wev != NULL);
    serve_reading(c, 1);
    c->next = n->clients;
    if (n->clients) n->clients->prev = c;
    n->clients = c;
    sv->nclients++;
    serve_record(sv, "connect", n, c, 0, NULL, c->addr, NULL, 0, 0);
    if (n->partitioned) serve_client_flow(c, NULL);
}

/* accept(2) failed (the listener's error callback). Out of descriptors (EMFILE, ENFILE) the
 * listening socket stays readable, and libevent would retry at once and forever, logging
 * each failure (audit D07: 100% CPU, 190,000 lines a second): stop accepting for 100 ms,
 * say so once per episode, and try again. Others: said once, accepting goes on. */
static void serve_relisten(evutil_socket_t fd, short what, void *ud)
{
    (void)fd, (void)what;
    snode *n = ud;
    if (n->listener && !n->partitioned) evconnlistener_enable(n->listener);
}

static void serve_accept_error(struct evconnlistener *l, void *ud)
{
    snode *n = ud;
    int err = EVUTIL_SOCKET_ERROR();
    if (err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM) {
        if (!n->accept_full)
            fprintf(stderr, "locklab serve: %s: cannot accept a connection: %s (pausing accept; once per episode)\n",
                    n->name, strerror(err));
        n->accept_full = 1;
        evconnlistener_disable(l);
        if (!n->relisten) n->relisten = evtimer_new(n->sv->base, serve_relisten, n);
        struct timeval tv = { 0, 100000 };
        evtimer_add(n->relisten, &tv);
        return;
    }
    fprintf(stderr, "locklab serve: %s: accept: %s\n", n->name, strerror(err));
}

int serve_listen(snode *n)
{
    serve *sv = n->sv;
    if (!n->port) return 0; /* CONFIG SET port 0: no TCP port, as Redis */
    struct sockaddr_storage ss;
    int sslen = sizeof ss;
    char addr[128];
    snprintf(addr, sizeof addr, strchr(sv->opt.bind, ':') ? "[%s]:%d" : "%s:%d", sv->opt.bind, n->port);
    if (evutil_parse_sockaddr_port(addr, (struct sockaddr *)&ss, &sslen) < 0) {
        errno = EINVAL;
        return -1;
    }
    n->listener = evconnlistener_new_bind(sv->base, serve_accept, n,
                                          LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
                                          511, (struct sockaddr *)&ss, sslen);
    if (n->listener) evconnlistener_set_error_cb(n->listener, serve_accept_error);
    if (n->listener && n->partitioned) evconnlistener_disable(n->listener);
    return n->listener ? 0 : -1;
}

void serve_accepting(snode *n, int on)
{
    if (!n->listener) return;
    if (on) evconnlistener_enable(n->listener);
    else evconnlistener_disable(n->listener);
}

void serve_unlisten(snode *n)
{
    if (n->listener) evconnlistener_free(n->listener);
    n->listener = NULL;
    if (n->relisten) event_free(n->relisten);
    n->relisten = NULL;
}

/* Ends every connection (the process is stopping). */
void serve_close(serve *sv)
{
    for (int i = 0; i < sv->nnodes; i++)
        for (sclient *c = sv->nodes[i].clients; c; c = c->next)
            if (!c->dead) {
                c->dead = 1;
                c->reap_next = sv->reap;
                sv->reap = c;
            }
    serve_reap(-1, 0, sv);
}

/* The loop's own events: the reaper, the waker and the flusher. */
void serve_io_events(serve *sv)
{
    sv->reaper = event_new(sv->base, -1, 0, serve_reap, sv);
    sv->waker = event_new(sv->base, -1, 0, serve_wake, sv);
    sv->flusher = event_new(sv->base, -1, 0, serve_on_flush, sv);
}
