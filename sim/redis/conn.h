/* conn.h — a client connection as the fake Redis sees it: what a command's handler may read
 * and change of the client that sent it (its pub/sub subscriber id, RESP2 subscribe mode,
 * whether it may block). The caller of server_exec owns it (the REPL keeps one; a simulated
 * node one per client and channel; `locklab serve` one per TCP connection). Its own header,
 * below cmdctx.h and server.h, so that pub/sub's handlers see it without seeing the
 * server. What a connection is named (CLIENT SETNAME) is kept by the server, by id. */
#ifndef LOCKLAB_CONN_H
#define LOCKLAB_CONN_H

#include <stdint.h>

/* A client connection as the server sees it. */
typedef struct conn {
    int id;            /* unique within the server: the pub/sub subscriber id, CLIENT ID */
    int subscriptions; /* channels and patterns it is subscribed to */
    int shard_subscriptions; /* shard channels (SSUBSCRIBE); subscribe mode while either is > 0 */
    /* Blocking (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP, BZPOPMIN, BZPOPMAX, BZMPOP:
     * cmd_block_or_nil): a host that can park a connection (locklab serve) sets
     * may_block; a blocking command that finds nothing to pop then sets blocked and
     * block_deadline (the server's clock, ms; 0: wait forever) and leaves its reply NIL,
     * unsent: the host runs the same command again when a key may have changed, and sends
     * the null array itself once the deadline passes. Without may_block (the REPL, the
     * simulator, MULTI, scripts) the command answers the timeout's null array at once. */
    int may_block;
    int blocked;
    /* Set by the host while it runs a blocked command again: 1 as keys (or replicas)
     * changed: a key that now holds another type (or nothing) is passed over, not answered
     * WRONGTYPE (lookup_blocked), so the connection stays blocked as Redis keeps it when a
     * MULTI pushes and then replaces the key: Redis serves only the keys that hold a list
     * (zset) when it looks. 2 at its deadline: the command answers what it has now and
     * never blocks again (the null array; WAIT its count of replicas). */
    int block_retry;
    int64_t block_deadline;
    int db;            /* the database SELECTed (0 to 15) */
    int resp;          /* the protocol HELLO chose: 3 for RESP3, else (0, 2) RESP2 */
    /* CLIENT REPLY: OFF (reply_off), SKIP (reply_skip_next: the next command's reply is
     * not sent; reply_skip: this one's). server_exec then answers an empty REPLY_MULTI,
     * which sends nothing; pub/sub's confirmations and messages still go, as in Redis. */
    int reply_off, reply_skip_next, reply_skip;
    const char *last_cmd; /* the name of the last command it ran (CLIENT LIST's cmd=) */
    char last_full[40];   /* a container command's full name there, "client|info" */
} conn;

#endif
