/* mongoint.h — what the fake MongoDB's files share inside sim/mongo/: the data structures
 * and the collection helpers of mongo.c that cmd.c's commands use. */
#ifndef LOCKLAB_MONGOINT_H
#define LOCKLAB_MONGOINT_H

#include "mongo.h"

#define DB "locklab"

typedef struct mdoc {
    int64_t rid;
    ddoc *d;
} mdoc;

typedef struct mttl {
    char *field;
    char *name;
    int64_t after_ms;
} mttl;

typedef struct mcoll {
    char *name;
    int nttl;
    mttl *ttl;
    int n, cap;
    mdoc *docs;       /* by record id */
} mcoll;

struct mgdb {
    int n;
    mcoll **colls;    /* by name */
    int64_t next_rid, next_id;
};

struct mgserver {
    mgdb *db;
    int secondary;
    int64_t start, period;  /* the TTL monitor: passes at next_pass + k × period, steady clock */
    int64_t next_pass;
    int idle;               /* no pass was scheduled: those missed since found nothing to do */
    mg_changed_fn changed;
    void *ud;
};

struct mgchange {
    int deleted;
    mcoll *def;       /* the collection and its indexes, no documents */
    int64_t rid;      /* 0: the collection itself */
    ddoc *d;
};

mcoll *mg_coll_find(const mgdb *d, const char *name);
mcoll *mg_coll_create(mgserver *s, const char *name, int report); /* reported as written if asked */
void mg_coll_drop(mgserver *s, const char *name);     /* reported as deleted */
int mg_doc_pos(const mcoll *c, int64_t rid, int *found);
/* Inserts d (taken) as a new document with the next record id; reported as written. */
int64_t mg_coll_insert(mgserver *s, mcoll *c, ddoc *d);
void mg_coll_replace(mgserver *s, mcoll *c, int i, ddoc *d); /* d taken; reported as written */
void mg_coll_remove(mgserver *s, mcoll *c, int i, int how); /* reported: 1 deleted, 2 expired */
void mg_report_coll(mgserver *s, const mcoll *c, int64_t rid, int how);

#endif
