/* kind_fixture.h — a fake node for a server kind's unit tests (test_kind.c for Redis, test_zk.c,
 * test_etcd.c, test_mysql.c, test_mongo.c): the host a kind is given (server_kind.h's
 * kind_host) with a clock the test sets and a log of the effects the server reports ("written
 * k; ", "push 1 ch hello; "), requests written as one line and answered with the brief reply,
 * expectations on replies, logs and the canonical dump, and a master/replica pair with the
 * one-unit copy that replication sends.
 *
 * A test file includes it after cmocka.h and its kind's header, then defines KF, what its kind
 * needs (the header declares it, tentatively, so that these functions can read it):
 *
 *     static const kind_fixture KF = { .kind = &zk_kind, .sep = ' ', .nclients = 3, ... };
 *
 * K stands for KF.kind. A fake_host starts as { .now = T }: its log is then empty, and
 * stays the host's across the servers made on it (a restart on the same host keeps it). */
#ifndef LOCKLAB_TEST_KIND_FIXTURE_H
#define LOCKLAB_TEST_KIND_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "server_kind.h"

/* How the host logs a push: "push C TOPIC PAYLOAD; ", the topic in brackets (etcd's watch
 * topics hold spaces), or as a failure (a kind that pushes nothing). */
typedef enum kf_pushes { KF_PUSH, KF_PUSH_BRACKETED, KF_PUSHES_NOTHING } kf_pushes;

typedef struct kind_fixture {
    const server_kind *kind;
    char sep;                 /* what separates a request's words; '\0': one argument */
    int nclients, client_base;
    const int64_t *options;   /* kind_host.options for make(), or NULL */
    int primary;              /* make() sets the server a primary, as a node starting one does */
    kf_pushes pushes;
} kind_fixture;

static const kind_fixture KF; /* the test file's, defined after this header */
#define K (KF.kind)

typedef struct fake_host {
    int64_t now;    /* the server's clock, ms: the test moves it */
    int64_t jumped; /* how far it has jumped: its steady clock reads now - jumped */
    buf log;        /* the effects reported since the last expect_log */
} fake_host;

static inline int64_t fh_clock(void *ud)
{
    return ((fake_host *)ud)->now;
}

static inline int64_t fh_steady(void *ud)
{
    return ((fake_host *)ud)->now - ((fake_host *)ud)->jumped;
}

static inline void fh_changed(void *ud, kind_event ev, slice unit)
{
    static const char *const names[] = { "written", "deleted", "expired" };
    buf_printf(&((fake_host *)ud)->log, "%s %.*s; ", names[ev], (int)unit.len, unit.p);
}

static inline void fh_push(void *ud, int client, slice topic, slice payload)
{
    buf *log = &((fake_host *)ud)->log;
    if (KF.pushes == KF_PUSHES_NOTHING)
        fail_msg("the %s kind pushes nothing", K->name);
    else if (KF.pushes == KF_PUSH_BRACKETED)
        buf_printf(log, "push %d [%.*s] %.*s; ", client, (int)topic.len, topic.p, (int)payload.len, payload.p);
    else
        buf_printf(log, "push %d %.*s %.*s; ", client, (int)topic.len, topic.p, (int)payload.len, payload.p);
}

/* A fresh server of the kind on host h, as it is created, with these clients and options. */
static inline kserver *kf_create(fake_host *h, int nclients, int client_base, const int64_t *options)
{
    kind_host host = { .ud = h, .clock = fh_clock, .steady = fh_steady, .changed = fh_changed, .push = fh_push, .nclients = nclients,
                       .client_base = client_base, .options = options };
    return K->create(&host);
}

/* A server as the test file's KF describes it, with these options. */
static inline kserver *make_with(fake_host *h, const int64_t *options)
{
    kserver *s = kf_create(h, KF.nclients, KF.client_base, options);
    if (KF.primary) K->set_replica(s, 0);
    return s;
}

static inline kserver *make(fake_host *h)
{
    return make_with(h, KF.options);
}

static inline void done(kserver *s, fake_host *h)
{
    K->destroy(s);
    buf_release(&h->log);
}

/* Splits a request into its words at KF.sep (n separators make n + 1 words, empty ones
 * included; an empty request has none); at most max. */
static inline int kf_words(const char *request, slice *argv, int max)
{
    if (!KF.sep) {
        argv[0] = slice_cstr(request);
        return 1;
    }
    int argc = 0;
    for (const char *p = request; *p && argc < max;) {
        const char *e = strchr(p, KF.sep);
        size_t n = e ? (size_t)(e - p) : strlen(p);
        argv[argc++] = (slice){ p, n };
        if (!e) break;
        p = e + 1;
        if (!*p && argc < max) argv[argc++] = (slice){ p, 0 };
    }
    return argc;
}

/* Runs a request for client over conn; returns the brief reply (a heap string). */
static inline char *run(kserver *s, int client, int conn, const char *request)
{
    slice argv[64];
    int argc = kf_words(request, argv, 64);
    void *reply = malloc(K->reply_size);
    K->exec(s, client, conn, argc, argv, reply);
    buf b;
    buf_init(&b);
    K->reply_brief(reply, &b);
    K->reply_release(reply);
    free(reply);
    return buf_steal(&b);
}

/* Runs a request for client 0 over connection 0 and pushes its reply on L as the kind's
 * client library returns it; the number of values, and in *is_error (unless NULL) whether the
 * reply is an error. */
static inline int run_push(kserver *s, struct lua_State *L, const char *request, int *is_error)
{
    slice argv[64];
    int argc = kf_words(request, argv, 64);
    void *reply = malloc(K->reply_size);
    K->exec(s, 0, 0, argc, argv, reply);
    if (is_error) *is_error = K->reply_is_error(reply);
    int n = K->reply_push(L, reply);
    K->reply_release(reply);
    free(reply);
    return n;
}

/* Runs a request as run_push does and shows the values its reply becomes in one line (a heap
 * string), separated by spaces, each as show writes the value at idx (NULL: as tostring does);
 * they are popped again. */
static inline char *run_values(kserver *s, struct lua_State *L, const char *request, int *is_error,
                               void (*show)(struct lua_State *L, int idx, buf *out))
{
    int n = run_push(s, L, request, is_error);
    buf b;
    buf_init(&b);
    int top = lua_gettop(L);
    for (int v = top - n + 1; v <= top; v++) {
        if (v > top - n + 1) buf_putc(&b, ' ');
        if (show) {
            show(L, v, &b);
        } else {
            buf_puts(&b, luaL_tolstring(L, v, NULL));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, n);
    return buf_steal(&b);
}

static inline void expect_as(kserver *s, int client, const char *request, const char *want)
{
    char *got = run(s, client, 0, request);
    assert_string_equal(got, want);
    free(got);
}

static inline void expect(kserver *s, const char *request, const char *want)
{
    expect_as(s, 0, request, want);
}

static inline void expect_log(fake_host *h, const char *want)
{
    assert_string_equal(h->log.p ? h->log.p : "", want);
    buf_reset(&h->log);
}

/* The canonical dump (a heap string). */
static inline char *dump(kserver *s)
{
    buf b;
    buf_init(&b);
    K->dump(s, &b);
    return buf_steal(&b);
}

static inline void expect_dump(kserver *s, const char *want)
{
    char *got = dump(s);
    assert_string_equal(got, want);
    free(got);
}

/* A master and its replica, each with a fake host of its own (the pair must not move). */
typedef struct pair {
    fake_host hm, hr;
    kserver *m, *r;
} pair;

static inline void pair_open(pair *p, int64_t now_m, int64_t now_r)
{
    p->hm = (fake_host){ .now = now_m };
    p->hr = (fake_host){ .now = now_r };
    p->m = make(&p->hm);
    p->r = make(&p->hr);
    K->set_replica(p->r, 1);
}

static inline void pair_close(pair *p)
{
    done(p->m, &p->hm);
    done(p->r, &p->hr);
}

/* One unit's change (or deletion) captured on m and applied on r, as replication sends it. */
static inline void replicate(kserver *m, kserver *r, const char *unit, int deleted)
{
    kchange *c = K->capture(m, slice_cstr(unit), deleted);
    K->apply(r, c);
    K->change_free(c);
}

#endif
