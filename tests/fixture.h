/* fixture.h — a fake Redis server for unit tests: a manual clock, one connection, a counter
 * of keyspace events, and RUN(f, "cmd", "arg"...) returning the reply exactly as redis-cli
 * prints it (without the final newline). Include after cmocka.h. */
#ifndef LOCKLAB_TEST_FIXTURE_H
#define LOCKLAB_TEST_FIXTURE_H

#include <stdlib.h>

#include "reply.h"
#include "server.h"
#include "store.h"

typedef struct fixture {
    int64_t now;       /* the server's clock, ms: move it by hand */
    server *srv;
    conn c;
    reply r;
    buf out;
    int events[3];     /* STORE_WRITTEN, STORE_DELETED, STORE_EXPIRED seen */
} fixture;

static int64_t fixture_clock(void *ud)
{
    return ((fixture *)ud)->now;
}

static void fixture_observe(void *ud, store_event ev, slice key)
{
    (void)key;
    ((fixture *)ud)->events[ev]++;
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->now = 1700000000000;
    server_config cfg = { .clock = fixture_clock, .clock_ud = f };
    f->srv = server_new(&cfg);
    f->c.id = 1;
    reply_init(&f->r);
    buf_init(&f->out);
    store_set_observer(server_store(f->srv), fixture_observe, f);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    reply_release(&f->r);
    buf_release(&f->out);
    server_free(f->srv);
    free(f);
    return 0;
}

/* The reply in f->r as redis-cli prints it, without the final newline (in f->out). */
static const char *fixture_printed(fixture *f)
{
    buf_reset(&f->out);
    reply_to_cli(&f->r, &f->out);
    if (f->out.len && f->out.p[f->out.len - 1] == '\n') f->out.p[--f->out.len] = '\0';
    return f->out.p;
}

static const char *run(fixture *f, const char **words)
{
    int n = 0;
    while (words[n]) n++;
    server_execv(f->srv, &f->c, &f->r, n, words);
    return fixture_printed(f);
}

/* Arguments that may hold NUL bytes, each a slice: RUN_BIN(f, SL("set"), SL("k\0"), ...). */
static inline const char *run_bin(fixture *f, const slice *argv, int argc)
{
    server_exec(f->srv, &f->c, argc, argv, &f->r);
    return fixture_printed(f);
}

#define RUN(f, ...) run(f, (const char *[]){ __VA_ARGS__, NULL })
#define SL(lit) ((slice){ (lit), sizeof(lit) - 1 })
#define RUN_BIN(f, ...) run_bin(f, (const slice[]){ __VA_ARGS__ }, \
                                (int)(sizeof((const slice[]){ __VA_ARGS__ }) / sizeof(slice)))

#endif
