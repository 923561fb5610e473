/* conn.h — a client connection as the fake Redis sees it: what a command's handler may read
 * and change of the client that sent it (its pub/sub subscriber id, RESP2 subscribe mode).
 * The caller of server_exec owns it (the REPL keeps one; a simulated node one per client
 * and channel). Its own header, below commands.h and server.h, so that pub/sub's handlers
 * see it without seeing the server. */
#ifndef LOCKLAB_CONN_H
#define LOCKLAB_CONN_H

/* A client connection as the server sees it. */
typedef struct conn {
    int id;            /* unique within the server: the pub/sub subscriber id */
    int subscriptions; /* channels it is subscribed to: RESP2 subscribe mode while > 0 */
    int db;            /* the database SELECTed (0 to 15) */
} conn;

#endif
