/* tracking.h — client-side caching's server half (Redis 7.0's tracking.c): CLIENT TRACKING,
 * CACHING, GETREDIR, TRACKINGINFO; the keys a tracking connection read, and the invalidation
 * messages their changes send (a RESP3 push on the connection itself, or a message on
 * `__redis__:invalidate` to the connection it redirects to); BCAST's prefixes; INFO's
 * tracking figures; CLIENT LIST's t, R, B flags and redir=.
 *
 * The server calls these at a few points of its command path (server.c, server_tx.c): a
 * command starts and ends (server_exec), a read-only command ran (its keys are remembered),
 * a key changed, expired or was deleted (the store's watch hook), a database was flushed, a
 * connection closed. A message for the connection whose command is running is held and
 * added to that command's reply (after it, as Redis sends it), one for another connection
 * goes out at once through server_config's push callback. Not part of the door (server.h). */
#ifndef LOCKLAB_REDIS_TRACKING_H
#define LOCKLAB_REDIS_TRACKING_H

#include "commands.h"
#include "conn.h"
#include "reply.h"

typedef struct tracking tracking;

tracking *tracking_new(server *srv);
tracking *tracking_of_server(server *srv);
void tracking_free(tracking *t);

/* server_exec's bracket: the messages for c held while its command runs (f saves an outer
 * command's, for a command run while a script is busy); leave adds them to out (already in
 * c's protocol) and sends BCAST's gathered keys. */
typedef struct tracking_frame {
    conn *current;
    reply *before, *after;
    void *pending;
    size_t npending, cappending;
    reply mine_before, mine_after;
} tracking_frame;
void tracking_enter(tracking *t, conn *c, tracking_frame *f);
void tracking_leave(tracking *t, conn *c, int argc, const slice *argv, reply *out, tracking_frame *f);

/* Whether any connection tracks keys (the watch hook stays on, writes are not pure). */
int tracking_active(const tracking *t);
/* server_run_command's: a command of c is about to run, and has run (read-only: its keys are
 * remembered); argv is kept for a script's reads in between. */
void tracking_command_begin(tracking *t, const command *cmd, int argc, const slice *argv, const slice **save_argv,
                            int *save_argc);
void tracking_command_end(tracking *t, conn *c, const command *cmd, int argc, const slice *argv, const reply *out,
                          const slice *save_argv, int save_argc);
/* A script's redis.call ran (the trace) and answered r: a read-only command remembers the
 * script's keys; a FLUSHALL or FLUSHDB invalidates everything. */
void tracking_script_call(tracking *t, int argc, const slice *argv, const reply *r);
/* Every key is invalid (FLUSHALL, FLUSHDB: server_run_command; a keyspace replaced). */
void tracking_flushed(tracking *t);
/* tracking-table-max-keys (CONFIG SET): past it keys leave the table, each invalidated. */
void tracking_set_max_keys(tracking *t, size_t n);
/* A key was written or deleted (expired: 1 when by expiry, no connection's doing). */
void tracking_key_changed(tracking *t, slice key, int expired);
/* BCAST's keys gathered since the last call go to their prefixes' connections (Redis's
 * beforeSleep): after a command, an expiry pass. */
void tracking_broadcast(tracking *t);
/* A connection closed (or RESET): it tracks nothing any more. */
void tracking_conn_closed(tracking *t, int conn_id);

/* CLIENT TRACKING, CACHING, GETREDIR, TRACKINGINFO (connection_client.c dispatches). */
void tracking_cmd_tracking(cmdctx *c);
void tracking_cmd_caching(cmdctx *c);
void tracking_cmd_getredir(cmdctx *c);
void tracking_cmd_trackinginfo(cmdctx *c);
/* CLIENT LIST's flags of connection id ("t", "R", "B" in Redis's order, appended at *p) and
 * its redir= (-1 when it does not track). */
long long tracking_client_flags(server *srv, int conn_id, char **p);
/* INFO: tracking_clients, and tracking_total_keys / _items / _prefixes. */
void tracking_info_clients(server *srv, buf *out);
void tracking_info_stats(server *srv, buf *out);

#endif
