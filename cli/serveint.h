/* serveint.h — what the parts of `locklab serve` share, and no other file (cli/serve.c:
 * running requests; cli/serve_io.c: the sockets; cli/serve_ctl.c: the simulated world it
 * serves, in real time, and the LOCKLAB control commands; cli/serve_conn.c: what the servers
 * ask of their host, blocking; cli/serve_hist.c: the history; cli/serve_time.c: its time).
 *
 * A serve is one simulated world (sim/world.h) — its nodes, their clocks, the network between
 * them, replication with its lag, persistence, failover, the faults — as `locklab run` runs
 * it, but moved by real time instead of by a workload: each node listens on its own TCP port,
 * and the connections to it are its clients, whose commands run on the node's own fake Redis
 * server (sim/redis/server.h) at the world's time. Everything runs on one libevent loop, one
 * callback at a time, so a command runs atomically as on Redis. Time has two modes: `wall`
 * (the world's true time is the real elapsed time, and a node's clock reads the real date
 * plus its offset and drift) and `manual` (true time moves only on LOCKLAB ADVANCE, and clocks
 * start at the scenario epoch, 1700000000000 ms, so what a session prints is reproducible).
 *
 * Ownership: the serve owns the world and its connections; a client that goes away is
 * unlinked and freed later, from the loop (serve_client_kill), never inside a callback that
 * may still be walking a list it is on (a PUBLISH delivering to it). */
#ifndef LOCKLAB_SERVEINT_H
#define LOCKLAB_SERVEINT_H

#include <stdint.h>
#include <stdio.h>

#include "chooser.h"
#include "resp.h"
#include "scenario.h"
#include "server.h"
#include "world.h"

struct event_base;
struct event;
struct evconnlistener;

typedef struct serve serve;
typedef struct snode snode;
typedef struct sclient sclient;

struct sclient {
    serve *sv;
    snode *node;
    int fd;                /* the socket, non-blocking */
    struct event *rev, *wev; /* readable (added while reading), writable (while output waits) */
    int reading, writing;  /* rev, wev added */
    int hold_write;        /* a partition holds its replies: nothing is written */
    buf out;               /* replies not yet written, from opos */
    size_t opos;
    int pending;           /* on the serve's list of connections with output to write */
    sclient *pend_next;
    conn conn;             /* the server's view of it: id (unique in the serve), subscriptions */
    buf query;             /* bytes read and not yet parsed, from qpos */
    size_t qpos;
    resp_parser parser;
    char addr[64];         /* the peer, "127.0.0.1:54321" */
    int closing;           /* close once the output is written (QUIT, a protocol error) */
    int postponed;         /* CLIENT PAUSE holds its next request (counted in blocked_clients) */
    int dead;              /* killed: freed at the next reap */
    int64_t paused_until_us; /* LOCKLAB PAUSE-CLIENT: the true time its requests wait for; 0: none */
    int wake;              /* has requests to run now that it is no longer held */
    int64_t since_us, last_us; /* true time it connected, it last sent a command */
    int64_t soft_since_us; /* a subscriber: since when its output is over 8 MB; -1 not */
    int authed;            /* AUTH done, or no --requirepass */
    double drop_p;         /* LOCKLAB DROP: each request, and each reply, lost with this probability */
    int64_t drop_until_us; /* the true time the loss ends; 0: until DROP id 0 */
    uint64_t repl_off;     /* its node's replication offset after its last command (WAIT) */
    /* A blocking command waiting (conn.blocked): a copy of it, run again as keys change. */
    int bargc;
    slice *bargv;          /* each p owned */
    int64_t bdeadline_ms;  /* its deadline on the node's clock; 0: none */
    struct event *btimer;  /* --clock wall: fires at that deadline */
    sclient *bnext;        /* in its node's queue of blocked connections, oldest first */
    int unblock_how;       /* CLIENT UNBLOCK asked: 1 TIMEOUT, 2 ERROR (serve_block_unblocked) */
    sclient *prev, *next;  /* in its node's list */
    sclient *reap_next;
};

struct snode {
    serve *sv;
    int idx;               /* in the serve's order: the port's */
    int widx;              /* the world's node */
    const char *name;      /* the scenario's */
    int port;
    server *srv;           /* the world's node's server while it is up (serve_sync), else NULL */
    struct evconnlistener *listener; /* NULL while down */
    struct event *relisten; /* out of descriptors: accepting resumes at this timer */
    int accept_full;        /* an accept failed for want of descriptors (said once) */
    int partitioned;       /* LOCKLAB PARTITION: nothing read from or written to its clients */
    int partition_id;      /* ... and the world's partition fault cutting it off, or -1 */
    sclient *clients;
    sclient *blocked;      /* connections waiting in a blocking command, oldest first */
    long long connections, commands; /* received since the start or CONFIG RESETSTAT (INFO stats) */
    /* A script running long (serve_script_tick): when it started (mono µs; 0 none running),
     * whether it is past busy-reply-threshold (its clients get -BUSY), whether it has
     * written (SCRIPT KILL: UNKILLABLE), is a function (FCALL: FUNCTION KILL ends it), and
     * a kill asked for. */
    int64_t script_start_us, script_poll_us;
    int busy, busy_wrote, busy_function, busy_kill, busy_shutdown;
    int64_t up_us;         /* true time it last started */
    /* CLIENT PAUSE: until when (true µs; 0 none) and what it holds (1 WRITE: the commands
     * that may write or replicate; 2 ALL) */
    int64_t pause_until_us;
    int pause_type;
    char port_text[8];     /* CONFIG GET port */
    unsigned long long query_limit; /* --query-buffer-limit, or CONFIG SET client-query-buffer-limit */
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
    const char *debug_command; /* --enable-debug-command: "no", "yes" or "local" */
    long long history_max;
} serve_options;

/* The in-memory tail of the history (LOCKLAB HISTORY): records in a compact binary form (a
 * command's arguments and its reply's RESP bytes as they were, a world event's typed fields,
 * numbers as varints, times from their chunk's first), rendered as JSON only when asked. They
 * are kept in chunks of at most SERVE_CHUNK_RECS records and 1 MiB, each trimmed to its size
 * when the next one starts; the oldest chunk is dropped once the others hold `max` records,
 * or once all of them pass 64 MiB; the last `max` are shown. */
typedef struct serve_hchunk {
    char *p;               /* the records, each at an offset of off[] */
    size_t len, cap;
    uint32_t *off;
    size_t n, ncap;
    int64_t t0, local0;    /* the first record's times: the others' are kept as differences */
} serve_hchunk;
typedef struct serve_history {
    serve_hchunk *chunk;   /* oldest first; the last is being filled */
    size_t nchunk, chunk_cap;
    size_t total, bytes;   /* records and bytes in every chunk */
    size_t max;            /* --history-max */
    buf line;              /* scratch: one rendered record */
    FILE *json;            /* --json: every record, rendered as it is made */
    int json_error;        /* errno of the first failed write, 0 if none */
    long json_good;        /* the file's length after its last complete, flushed record */
} serve_history;

/* serve_hist.c: --json before any reply is sent (serve_io.c's flusher): the records so far flushed to the
 * file, so that no answered command is missing from it (as Redis writes its AOF before it
 * replies). 0; or -1 when the file cannot be written, the incomplete tail cut back to the last
 * whole record: then nothing more is answered and serve stops with exit 3. */
int serve_history_sync(serve_history *h);

struct serve {
    serve_options opt;
    struct event_base *base;
    snode *nodes;
    int nnodes;
    scenario *sc;          /* the scenario (--scenario, or made from --nodes and --replicas) */
    scenario wsc;          /* what the world runs: sc without its clients and their faults */
    chooser *ch;           /* every decision: replication lags, LOCKLAB DROP's losses */
    world *w;
    int64_t start_mono_us; /* wall clock: the monotonic clock at the start */
    int64_t t0_us;         /* wall clock: true time at the start (the date's µs within its ms) */
    int nclients;
    int next_id;
    long long commands;
    sclient *reap;
    sclient *pending;      /* connections with output to write, written by `flusher` once the
                            * loop's ready events have run (Redis's beforeSleep) */
    struct event *flusher;
    sclient *current;      /* the connection whose command is running */
    int busy_polling;      /* inside serve_busy_poll (a script of another node may tick) */
    int sigpipe[2];        /* the signal handler's self-pipe, read by `sigev` */
    struct event *sigev;
    struct event *reaper, *waker, *tick, *wtimer;
    serve_history hist;
    buf scratch;
};

/* ---- serve_time.c ---- */

/* The machine's monotonic clock, µs (serve's one reading of real time). */
int64_t serve_mono_us(void);
/* True time in µs since the start: the world's (manual: as advanced; wall: real elapsed, as
 * far as serve_catch_up moved it). */
int64_t serve_true_us(const serve *sv);
/* A node's local clock in ms, and in µs (TIME). */
int64_t serve_node_clock(const snode *n);
int64_t serve_node_clock_us(const snode *n);
/* The bound of every clock, ms since 1970 (about the year 5138): LOCKLAB ADVANCE and JUMP
 * that would carry a clock past it, or before 0, are refused, so no sum overflows. */
#define SERVE_CLOCK_MAX_MS 100000000000000LL
/* The serve's node of world node widx. */
snode *serve_node_of(serve *sv, int widx);

/* ---- serve_ctl.c ---- */

/* Builds the world and the nodes from the options (and the scenario): 0, or -1 after the
 * one-line error (-2 when it is the --json file that cannot be written: exit 3). */
int serve_nodes_init(serve *sv);
void serve_nodes_free(serve *sv);
/* --clock wall: moves the world to the real time now; then, either mode, serve_sync. */
void serve_catch_up(serve *sv);
/* After the world moved: a node that went down closes its port and its connections (`sender`,
 * if one of them, only once the reply to the command it runs is written), a node that came
 * up opens its port; the world's new history is written; blocked connections whose wait may
 * be over are tried again. */
void serve_sync(serve *sv, sclient *sender);
/* LOCKLAB DROP: whether c's next request (or reply) is lost; records the loss. */
int serve_dropped(sclient *c, const char *what);
/* A running script's periodic call (script_tick_fn; ud the node): past the node's
 * busy-reply-threshold it serves other connections meanwhile (serve_busy_poll) and returns
 * 1 once SCRIPT KILL or FUNCTION KILL (or a stop) asks for the script's end. */
int serve_script_tick(void *ud, int wrote);
/* Runs LOCKLAB ... for client c (argv[0] is "LOCKLAB"). */
void serve_control(serve *sv, sclient *c, int argc, const slice *argv, reply *out);
/* Ends the pauses and losses whose time is over. */
void serve_cron(serve *sv);
/* CLIENT PAUSE's end (timed out or UNPAUSE): the held connections run their requests */
void serve_pause_end(snode *n);

/* ---- serve_hist.c ---- */

/* History: one record per command run, connection, protocol error, and the world's events. */
void serve_history_init(serve_history *h, size_t max);
void serve_history_release(serve_history *h);
void serve_history_clear(serve_history *h);                /* forgets every kept record */
size_t serve_history_count(const serve_history *h);        /* the records kept */
/* The i-th kept record (oldest first) as its JSON line (no newline), into out. */
void serve_history_render(serve *sv, size_t i, buf *out);
/* A record of the serve's own (ev "exec", "connect", "disconnect", "protocol_error") at node
 * n: of connection c (or none), with a command (argc > 0), or a text, and a reply's RESP
 * bytes (resp NULL: none; multi: several replies, a REPLY_MULTI's). */
void serve_record(serve *sv, const char *ev, const snode *n, const sclient *c, int argc, const slice *argv,
                  const char *text, const char *resp, size_t resp_len, int multi);
/* Records the world's history since the last call (its faults, key changes, nodes going down
 * and up, promotions, replication lost) and lets the world forget it. */
void serve_history_drain(serve *sv);

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
/* Answers the connections of n that CLIENT UNBLOCK released (after the command that asked). */
void serve_block_unblocked(snode *n);
/* c ran a blocking command that found nothing (conn.blocked): queue it. */
void serve_block(sclient *c, int argc, const slice *argv);

/* ---- serve.c ---- */

/* Runs what c's query buffer holds, request by request, until it ends inside one, a
 * request closes the connection, or the node goes down under it. */
void serve_process(sclient *c);

/* ---- serve_io.c ---- */

/* An emptied query or output buffer larger than this is given back (after a big argument). */
#define SERVE_QUERY_KEEP ((size_t)1 << 20)

/* Makes the loop's own events (reaper, waker, flusher); ends every connection (stopping). */
void serve_io_events(serve *sv);
void serve_close(serve *sv);
/* While a script runs long: accepts, reads, runs and writes what can be, by hand. */
/* SHUTDOWN NOSAVE: node n crashes (the world's crash fault), every connection to it closed. */
void serve_node_shutdown(serve *sv, snode *n);
void serve_busy_poll(serve *sv);
/* Opens a node's listening socket: 0, or -1 with errno set. */
int serve_listen(snode *n);
void serve_unlisten(snode *n);
/* Accepts new connections, or leaves them waiting in the kernel's backlog (a partition). */
void serve_accepting(snode *n, int on);
/* Takes c off its node's queue of blocked connections and frees its blocked command (the
 * command answered, or the connection ending). */
void serve_block_end(sclient *c);
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
/* Appends a reply to c's output (closing c if it passes its output limit); the same with the
 * reply's RESP bytes. */
void serve_write(sclient *c, const reply *rep);
void serve_write_resp(sclient *c, const char *p, size_t n);
/* Runs what c's query buffer holds (after it was held or blocked), from the loop. */
void serve_client_wake(sclient *c);

/* serve_opts.c: --help, and the options read into o (EXIT_OK, or the exit code after a
 * one-line error). */
void serve_usage(FILE *f);
int serve_parse(int argc, char **argv, serve_options *o);

#endif
