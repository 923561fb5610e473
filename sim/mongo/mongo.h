/* mongo.h — one fake MongoDB server (a mongod): collections of documents keyed by a unique
 * _id, the commands a lock needs (insert, find, findAndModify, delete, createIndexes, drop),
 * and TTL indexes swept by a TTL monitor that wakes up every ttl_monitor ms. The semantics
 * and the manual's pages they follow are in mongo.c's header.
 *
 * A document is a unit of data named "<collection>/<record id>" (the record id is the
 * storage engine's, in insertion order); "<collection>" is the collection itself with its
 * indexes. Every change is reported through `changed` after it happened: written, deleted,
 * or expired (a TTL deletion). */
#ifndef LOCKLAB_MONGO_H
#define LOCKLAB_MONGO_H

#include "doc.h"

typedef struct mgdb mgdb;
typedef struct mgserver mgserver;
typedef struct mgchange mgchange;

/* A reply: the command's response document; error when its ok is 0 or it has writeErrors. */
typedef struct mgreply {
    dval doc;
    int error;
    int majority;  /* a write with writeConcern w: "majority" (explicit or the default) */
} mgreply;

typedef void (*mg_changed_fn)(void *ud, int how /* 0 written, 1 deleted, 2 expired */, slice unit);

/* start: the server's steady (monotonic) clock at its start; ttl_monitor_ms: the TTL
 * monitor's period; first_ms: when its first pass comes after the start (0: a period). */
mgserver *mg_new(mg_changed_fn changed, void *ud, int64_t start, int64_t ttl_monitor_ms, int64_t first_ms);
void mg_free(mgserver *s);
void mg_set_secondary(mgserver *s, int secondary);
void mg_exec(mgserver *s, const char *json, size_t len, mgreply *r);
void mg_reply_release(mgreply *r);
void mg_reply_error(mgreply *r, int code, const char *code_name, const char *msg);

/* The TTL monitor, which sleeps on the steady clock and judges dates by the wall clock: its
 * next pass on the steady clock (INT64_MAX while no TTL index has a date to judge; a pass
 * that found nothing to judge is skipped, keeping the monitor's rhythm), and a pass if one
 * is due at steady time `steady`, deleting what expired at wall time `now`. */
int64_t mg_next_pass(mgserver *s, int64_t steady);
void mg_ttl_pass(mgserver *s, int64_t now, int64_t steady);

mgdb *mg_db_clone(const mgdb *d);
void mg_db_free(mgdb *d);
const mgdb *mg_db(const mgserver *s);
void mg_set_db(mgserver *s, mgdb *d);
/* A unit's state as one line into out (NULL: only whether it exists and its deadline). */
int mg_describe(mgserver *s, slice unit, buf *out, int64_t *deadline);
mgchange *mg_capture(mgserver *s, slice unit, int deleted);
void mg_apply(mgserver *s, const mgchange *c);
void mg_change_free(mgchange *c);
void mg_dump(mgserver *s, buf *out);

#endif
