/* k8s.h — one fake Kubernetes API server, for coordination.k8s.io/v1 Lease objects: get,
 * create and update with optimistic concurrency on resourceVersion, as client-go's
 * leaderelection (resourcelock/leaselock.go) uses them. The API server keeps objects in etcd;
 * here they are its own data, copied for persistence and replication like any kind's, and
 * resourceVersion is one counter over all objects, as etcd's revision is.
 *
 * A Lease has no expiry in the server: nothing in the API server ever acts on renewTime or
 * leaseDurationSeconds. They are written by the clients, from their own clocks, and read back
 * by the clients, which decide by their own clocks whether a lease has run out
 * (leaderelection.go). The server only refuses a write whose resourceVersion is not the
 * object's current one (409 Conflict). */
#ifndef LOCKLAB_K8S_H
#define LOCKLAB_K8S_H

#include <stdint.h>

#include "util.h"

typedef struct k8s k8s;

typedef struct k8s_lease {
    char *name;
    char *holder;          /* holderIdentity; "" when none */
    int64_t duration;      /* leaseDurationSeconds */
    int64_t acquire_ms, renew_ms; /* acquireTime, renewTime: what the client wrote (its clock); -1: unset */
    int64_t transitions;   /* leaseTransitions */
    int64_t rv;            /* metadata.resourceVersion */
} k8s_lease;

/* A reply: the HTTP status, and for 200/201 the object, else the Status's reason and message. */
typedef struct k8s_reply {
    int code;
    char reason[24];
    char *msg;
    k8s_lease obj;
} k8s_reply;

typedef void (*k8s_changed_fn)(void *ud, int deleted, slice unit);

k8s *k8s_new(k8s_changed_fn changed, void *ud);
void k8s_free(k8s *s);
void k8s_set_readonly(k8s *s, int ro);
void k8s_exec(k8s *s, int argc, const slice *argv, k8s_reply *r);
void k8s_reply_release(k8s_reply *r);
void k8s_reply_brief(const k8s_reply *r, buf *out);

/* Data: a unit is "lease/NAME". A snapshot is a k8s of its own (no callbacks). */
k8s *k8s_clone(const k8s *s);
void k8s_copy_into(k8s *dst, const k8s *src);
int k8s_describe(k8s *s, slice unit, buf *out);
k8s_lease *k8s_capture(k8s *s, slice unit, int deleted); /* NULL holder: deleted */
void k8s_apply(k8s *s, const k8s_lease *c);
void k8s_lease_free(k8s_lease *l);
void k8s_dump(k8s *s, buf *out);

#endif
