/* consul.h — one fake Consul server, for its sessions and the KV store's locks: sessions
 * with a TTL, a lock-delay and a behavior (release or delete), created, renewed and
 * destroyed; KV keys read, and acquired and released with a session. What it follows is
 * cited in consul.c's header (Consul's documentation, "Sessions and distributed locks",
 * and its HTTP API for /v1/session and /v1/kv). It runs on a kind_host (server_kind.h): the
 * host's clock (monotonic: Consul's timers are Go timers) and where its changes go. */
#ifndef LOCKLAB_CONSUL_H
#define LOCKLAB_CONSUL_H

#include <stdint.h>

#include "server_kind.h"

typedef struct consul consul;
typedef struct consul_data consul_data;
typedef struct consul_change consul_change;

typedef enum consul_rtype { CR_ERR, CR_BOOL, CR_ID, CR_KEY, CR_NONE, CR_SESSION } consul_rtype;

/* A reply: an error (HTTP status and text), true/false, a session id, a key's entry, 404
 * for a key (nil), a session's entry. */
typedef struct consul_reply {
    consul_rtype type;
    int code;
    char *text;        /* error text, session id, key, value */
    char *value;
    char *session;     /* a key's Session ("" when none) */
    int64_t lock_index, modify_index, create_index;
    int64_t b;         /* CR_BOOL */
    int64_t ttl, lock_delay;
    char behavior[8];
} consul_reply;

consul *consul_new(const kind_host *host);
void consul_free(consul *s);
void consul_set_replica(consul *s, int replica);
void consul_exec(consul *s, int argc, const slice *argv, consul_reply *r);
/* The same, from client (its node is the one a serfHealth check names; -1: none). */
void consul_exec_from(consul *s, int client, int argc, const slice *argv, consul_reply *r);
void consul_reply_release(consul_reply *r);
void consul_reply_brief(const consul_reply *r, buf *out);

int64_t consul_next_deadline(consul *s);
void consul_expire(consul *s);

/* Data: units are "session/ID" and "kv/KEY". */
consul_data *consul_snapshot(consul *s);
void consul_load(consul *s, const consul_data *d);
void consul_data_free(consul_data *d);
int consul_describe(consul *s, slice unit, buf *out, int64_t *deadline);
consul_change *consul_capture(consul *s, slice unit, int deleted);
void consul_apply(consul *s, const consul_change *c);
void consul_change_free(consul_change *c);
void consul_dump(consul *s, buf *out);

#endif
