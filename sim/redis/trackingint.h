/* trackingint.h — what tracking.c (the table, the messages, a command's bracket) and
 * tracking_client.c (CLIENT TRACKING and its kin, a connection's end, INFO) share: the
 * state of client tracking and the few functions one calls in the other. Not part of the
 * door (server.h), nor of tracking.h (the server's calls). */
#ifndef LOCKLAB_REDIS_TRACKINGINT_H
#define LOCKLAB_REDIS_TRACKINGINT_H

#include "dict.h"
#include "tracking.h"

enum {
    T_ON = 1 << 0, T_BCAST = 1 << 1, T_OPTIN = 1 << 2, T_OPTOUT = 1 << 3, T_NOLOOP = 1 << 4,
    T_CACHING = 1 << 5, T_BROKEN = 1 << 6,
};

/* One connection that tracks (or did): by id. */
typedef struct tclient {
    int id;
    unsigned flags;
    long long redir;      /* 0: none */
    slice *prefixes;      /* BCAST's, owned, in byte order */
    size_t nprefixes;
} tclient;

/* The ids that read a key (the table's value). */
typedef struct idset {
    int *ids;
    size_t n, cap;
} idset;

/* A BCAST prefix: its connections (by id) and the keys changed since the last broadcast. */
typedef struct tprefix {
    char *p;
    size_t len;
    int *clients;
    size_t nclients;
    dict *changed;        /* key -> int: the connection that changed it last (0: an expiry) */
} tprefix;

struct tracking {
    server *srv;
    tclient *clients;     /* by id, ascending (Redis's client list order) */
    size_t nclients, capclients;
    int ntracking;        /* of them, those with T_ON: INFO's tracking_clients */
    dict *table;          /* key -> idset */
    size_t items;         /* ids in the table: tracking_total_items */
    tprefix *prefixes;    /* in byte order */
    size_t nprefixes;
    /* the command running: its connection, where its messages wait, the keys invalidated
     * for it (Redis's tracking_pending_keys; a NULL pointer: a flush) */
    conn *current;
    reply *before, *after;
    struct pending { char *key; size_t len; } *pending;
    size_t npending, cappending;
    const slice *argv;    /* the command server_run_command runs (a script's caller) */
    int argc;
    int in_script;        /* that command runs a script: its writes are the script's own
                             client's, not the caller's (BCAST's NOLOOP hears of them) */
    conn *late;           /* the table's eviction after a command: c's messages after its reply */
    size_t max_keys;      /* tracking-table-max-keys (0: no limit) */
    unsigned evict_rounds; /* Redis's timeout_counter: the effort grows while over the limit */
};


/* A connection found by id (trk_conn_lookup): its protocol and pub/sub mode. */
struct trk_find {
    int id;
    const conn *found;
    int resp, pubsub;
};

/* Byte order, a shorter string first when one is the other's prefix (Redis's rax). */
int trk_bytes_cmp(const char *a, size_t alen, const char *b, size_t blen);
void trk_prefix_release(tprefix *p);
/* The connection's tracking state, or NULL; made (with no flags) by trk_client_get. */
tclient *trk_client_find(const tracking *t, int id);
tclient *trk_client_get(tracking *t, int id);
/* Whether connection id is open (*f then says how it speaks). */
int trk_conn_lookup(tracking *t, long long id, struct trk_find *f);

#endif
