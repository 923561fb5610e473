/* serve.h — the parts of `locklab serve` (cli/serve.c: the network side; cli/serve_ctl.c:
 * the nodes' lives, time and the LOCKLAB control commands; cli/serve_hist.c: the history).
 *
 * A serve is a set of nodes, each a fake Redis server (sim/redis/server.h) listening on its
 * own TCP port, and the clients connected to them. Everything runs on one libevent loop, one
 * callback at a time, so a command runs atomically as on Redis. Time has two modes: `wall`
 * (true time is the real elapsed time, and a node's clock reads the real date) and `manual`
 * (true time moves only on LOCKLAB ADVANCE, and clocks start at the scenario epoch,
 * 1700000000000 ms, so what a session prints is reproducible).
 *
 * Ownership: the serve owns its nodes, a node its server and its clients; a client that
 * goes away is unlinked and freed later, from the loop (serve_client_kill), never inside a
 * callback that may still be walking a list it is on (a PUBLISH delivering to it). */
#ifndef LOCKLAB_SERVE_H
#define LOCKLAB_SERVE_H

#include <stdint.h>
#include <stdio.h>

#include "resp.h"
#include "scenario.h"
#include "server.h"

struct event_base;
struct event;
struct bufferevent;
struct evconnlistener;

typedef struct serve serve;
typedef struct snode snode;
typedef struct sclient sclient;

struct sclient {
    serve *sv;
    snode *node;
    struct bufferevent *bev;
    conn conn;             /* the server's view of it: id (unique in the serve), subscriptions */
    buf query;             /* bytes read and not yet parsed, from qpos */
    size_t qpos;
    resp_parser parser;
    char addr[64];         /* the peer, "127.0.0.1:54321" */
    int closing;           /* close once the output is written (QUIT, a protocol error) */
    int dead;              /* killed: freed at the next reap */
    int64_t paused_until;  /* LOCKLAB PAUSE-CLIENT: true µs its requests wait for; 0: none */
    int wake;              /* has requests to run now that it is no longer held */
    int64_t since_us, last_us; /* true time it connected, it last sent a command */
    int64_t soft_since_us; /* a subscriber: since when its output is over 8 MB; -1 not */
    int authed;            /* AUTH done, or no --requirepass */
    double drop_p;         /* LOCKLAB DROP: each request, and each reply, lost with this probability */
    int64_t drop_until;    /* true µs the loss ends; 0: until DROP id 0 */
    /* A blocking command waiting (conn.blocked): a copy of it, run again as keys change. */
    int bargc;
    slice *bargv;          /* each p owned */
    int64_t bdeadline;     /* its deadline on the node's clock, ms; 0: none */
    struct event *btimer;  /* --clock wall: fires at that deadline */
    sclient *bnext;        /* in its node's queue of blocked connections, oldest first */
    sclient *prev, *next;  /* in its node's list */
    sclient *reap_next;
};

struct snode {
    serve *sv;
    int idx;
    char *name;
    int master;            /* index of its master for a replica, -1 for a master */
    int port;
    persistence persist;
    int64_t offset_ms;     /* clock offset at true time 0 */
    double drift;          /* clock rate error */
    int64_t jump_ms;       /* clock jumps so far */
    server *srv;           /* NULL while down */
    store *synced;         /* everysec: the keyspace as of its last fsync */
    int64_t synced_at;     /* true ms of that fsync */
    struct evconnlistener *listener; /* NULL while down */
    struct event *relisten; /* out of descriptors: accepting resumes at this timer */
    int accept_full;        /* an accept failed for want of descriptors (said once) */
    int partitioned;       /* LOCKLAB PARTITION: nothing read from or written to its clients */
    sclient *clients;
    sclient *blocked;      /* connections waiting in a blocking command, oldest first */
    long long connections, commands; /* received since the start (INFO stats) */
    /* A script running long (serve_script_tick): when it started (mono µs; 0 none running),
     * whether it is past busy-reply-threshold (its clients get -BUSY), whether it has
     * written (SCRIPT KILL: UNKILLABLE), is a function (FCALL: FUNCTION KILL ends it), and
     * a kill asked for. */
    int64_t script_start_us, script_poll_us;
    int busy, busy_wrote, busy_function, busy_kill;
    int64_t up_us;         /* true time it last started */
    char port_text[8];     /* CONFIG GET port */
};

typedef struct serve_options {
    const char *bind;
    int port;
    int nnodes;
    int replicas;          /* --replicas: each node's replicas, nNrK */
    const char *scenario;
    int manual;            /* --clock manual */
    const char *json;
    int persist;           /* a persistence, or -1: the scenario's (none without one) */
    long long maxclients;
    unsigned long long query_limit, output_limit;
    const char *requirepass; /* --requirepass, or NULL */
    int unprotected;       /* --protected-mode no */
    long long history_max;
} serve_options;

/* The in-memory tail of the history (LOCKLAB HISTORY): the last `max` records. */
typedef struct serve_history {
    char **line;
    size_t *len;
    size_t cap, head, n;   /* a ring of cap slots: n records ending before head */
    size_t bytes;          /* their total length */
    FILE *json;            /* --json: every record, as written */
    int json_error;        /* errno of the first failed write, 0 if none */
} serve_history;

struct serve {
    serve_options opt;
    struct event_base *base;
    snode *nodes;
    int nnodes;
    int64_t manual_us;     /* manual clock: true time, µs */
    int64_t start_mono_us; /* wall clock: the monotonic clock at the start */
    int64_t start_real_us; /* wall clock: the date at the start, µs */
    int nclients;
    int next_id;
    long long commands;
    uint64_t rng;          /* LOCKLAB DROP's draws: xorshift64*, fixed seed (a run repeats) */
    sclient *reap;
    sclient *current;      /* the connection whose command is running */
    int busy_polling;      /* inside serve_busy_poll (a script of another node may tick) */
    int sigpipe[2];        /* the signal handler's self-pipe, read by `sigev` */
    struct event *sigev;
    struct event *reaper, *waker, *tick;
    serve_history hist;
    buf scratch;
};

/* ---- serve_ctl.c ---- */

/* True time in µs since the start (manual: as advanced; wall: real elapsed). */
int64_t serve_true_us(const serve *sv);
/* A node's local clock in ms (store_clock_fn), and in µs (TIME). */
int64_t serve_node_clock(void *node);
int64_t serve_node_clock_us(void *node);
/* The bound of every clock, ms since 1970 (about the year 5138): LOCKLAB ADVANCE and JUMP
 * that would carry a clock past it, or before 0, are refused, so no sum overflows. */
#define SERVE_CLOCK_MAX_MS 100000000000000LL
/* Builds the nodes from the options (and the scenario): 0, or -1 after the one-line error. */
int serve_nodes_init(serve *sv);
void serve_nodes_free(serve *sv);
/* Starts a node's server (a restart keeps what its persistence keeps) / stops it, closing
 * its port and its connections; `sender`, if one of them, is closed only once the reply to
 * the command it is running has been written. */
void serve_node_start(snode *n);
void serve_node_stop(snode *n, sclient *sender);
/* The periodic work of Redis's serverCron: active expiry, everysec's fsync. */
void serve_cron(serve *sv);
/* LOCKLAB DROP: whether c's next request (or reply) is lost; records the loss. */
int serve_dropped(sclient *c, const char *what);
/* A running script's periodic call (script_tick_fn; ud the node): past the node's
 * busy-reply-threshold it serves other connections meanwhile (serve_busy_poll) and returns
 * 1 once SCRIPT KILL or FUNCTION KILL (or a stop) asks for the script's end. */
int serve_script_tick(void *ud, int wrote);
/* Runs LOCKLAB ... for client c (argv[0] is "LOCKLAB"). */
void serve_control(serve *sv, sclient *c, int argc, const slice *argv, reply *out);

/* ---- serve_hist.c ---- */

/* History: one record per command run, connection, fault. */
void serve_history_init(serve_history *h, size_t max);
void serve_history_release(serve_history *h);
void serve_history_clear(serve_history *h);                /* forgets every kept record */
size_t serve_history_slot(const serve_history *h, size_t i); /* the i-th kept, oldest first */
void serve_record(serve *sv, const char *ev, const snode *n, const sclient *c, int argc,
                  const slice *argv, const char *text, const reply *rep);

/* ---- serve_conn.c ---- */

/* The host's side of INFO, CLIENT LIST / KILL and CONFIG GET for node n's server. */
extern const server_host serve_host;
/* Node n's open connections, and in *blocked how many of them wait in a blocking command. */
int serve_conns(const snode *n, int *blocked);
/* After a command ran on n: runs each blocked connection's command again, oldest first,
 * and answers those it now serves. */
void serve_unblock(snode *n);
/* Answers the null array to blocked connections whose deadline passed on their node's clock. */
void serve_block_timeouts(serve *sv);
/* c ran a blocking command that found nothing (conn.blocked): queue it. */
void serve_block(sclient *c, int argc, const slice *argv);
/* Forgets c's blocked command (c is closing). */
void serve_block_forget(sclient *c);

/* ---- serve.c ---- */

/* Opens a node's listening socket: 0, or -1 with errno set. */
int serve_listen(snode *n);
void serve_unlisten(snode *n);
/* Accepts new connections, or leaves them waiting in the kernel's backlog (a partition). */
void serve_accepting(snode *n, int on);
/* Ends a connection: at once (its unsent output is lost) or, with after_reply, once what it
 * has been sent is written. */
void serve_client_kill(sclient *c, int after_reply);
/* Holds or releases c as its node's partition and its own pause say: held, its requests
 * wait (and, in a partition, its replies too, except for `sender`'s, the connection that
 * asked); released, what it sent meanwhile runs, from the loop. */
void serve_client_flow(sclient *c, const sclient *sender);
/* A pub/sub message for a connection of node ud (pubsub_deliver_fn, pubsub_push_fn). */
void serve_deliver(void *ud, int conn_id, slice channel, slice message);
void serve_push(void *ud, int conn_id, const reply *msg);
/* Appends a reply to c's output (closing c if it passes its output limit). */
void serve_write(sclient *c, const reply *rep);
/* Runs what c's query buffer holds (after it was held or blocked), from the loop. */
void serve_client_wake(sclient *c);

/* serve_opts.c: --help, and the options read into o (EXIT_OK, or the exit code after a
 * one-line error). */
void serve_usage(FILE *f);
int serve_parse(int argc, char **argv, serve_options *o);

#endif
