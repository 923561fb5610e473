/* k8s.c — the fake Kubernetes API server (k8s.h): Lease objects.
 *
 * Requests (words): GET NAME; CREATE NAME HOLDER DURATION ACQUIRE RENEW TRANSITIONS;
 * UPDATE NAME RESOURCEVERSION HOLDER DURATION ACQUIRE RENEW TRANSITIONS; DELETE NAME. HOLDER
 * may be empty (a released lease); ACQUIRE and RENEW are the client's clock in ms, or -1 for
 * none. Replies follow the API server's (apimachinery's) errors: 404 NotFound 'leases.
 * coordination.k8s.io "NAME" not found', 409 AlreadyExists '... "NAME" already exists', 409
 * Conflict 'Operation cannot be fulfilled on leases.coordination.k8s.io "NAME": the object
 * has been modified; please apply your changes to the latest version and try again' (an
 * update whose resourceVersion is not the object's: optimistic concurrency, "Kubernetes API
 * Concepts", "Resource versions"), 400 BadRequest for a malformed request (locklab's own
 * text). A read-only server (a replica: an API server whose etcd member is not the leader)
 * refuses writes with 503 ServiceUnavailable (locklab's text; the real API server forwards
 * to etcd's leader, which the simulated world stands for by its failover). */
#include "k8s.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUP "leases.coordination.k8s.io"

struct k8s {
    k8s_lease *leases; /* by name */
    int n;
    int64_t rev;
    int readonly;
    k8s_changed_fn changed;
    void *ud;
};

k8s *k8s_new(k8s_changed_fn changed, void *ud)
{
    k8s *s = xcalloc(1, sizeof *s);
    s->changed = changed;
    s->ud = ud;
    s->rev = 1;
    return s;
}

void k8s_lease_free(k8s_lease *l)
{
    if (!l) return;
    free(l->name);
    free(l->holder);
    free(l);
}

static void lease_release(k8s_lease *l)
{
    free(l->name);
    free(l->holder);
}

static void lease_copy(k8s_lease *dst, const k8s_lease *src)
{
    *dst = *src;
    dst->name = xstrdup(src->name);
    dst->holder = src->holder ? xstrdup(src->holder) : NULL;
}

static void clear(k8s *s)
{
    for (int i = 0; i < s->n; i++) lease_release(&s->leases[i]);
    free(s->leases);
    s->leases = NULL;
    s->n = 0;
}

void k8s_free(k8s *s)
{
    if (!s) return;
    clear(s);
    free(s);
}

void k8s_set_readonly(k8s *s, int ro)
{
    s->readonly = ro;
}

static int find(const k8s *s, const char *name, size_t len, int *found)
{
    int i = 0;
    for (; i < s->n; i++) {
        int c = strncmp(s->leases[i].name, name, len);
        if (c == 0 && strlen(s->leases[i].name) == len) {
            *found = 1;
            return i;
        }
        if (c > 0) break;
    }
    *found = 0;
    return i;
}

static void report(k8s *s, const char *name, int deleted)
{
    if (!s->changed) return;
    char unit[300];
    int n = snprintf(unit, sizeof unit, "lease/%s", name);
    s->changed(s->ud, deleted, (slice){ unit, (size_t)(n < (int)sizeof unit ? n : (int)sizeof unit - 1) });
}

/* ---- replies ---- */

static void reply_error(k8s_reply *r, int code, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void reply_error(k8s_reply *r, int code, const char *reason, const char *fmt, ...)
{
    memset(r, 0, sizeof *r);
    r->code = code;
    snprintf(r->reason, sizeof r->reason, "%s", reason);
    va_list ap;
    va_start(ap, fmt);
    r->msg = xvformat(fmt, ap);
    va_end(ap);
}

static void reply_obj(k8s_reply *r, int code, const k8s_lease *l)
{
    memset(r, 0, sizeof *r);
    r->code = code;
    lease_copy(&r->obj, l);
}

void k8s_reply_release(k8s_reply *r)
{
    free(r->msg);
    if (r->obj.name) lease_release(&r->obj);
    memset(r, 0, sizeof *r);
}

static void print_time(int64_t t, buf *out)
{
    if (t < 0) buf_puts(out, "null");
    else buf_printf(out, "%lld", (long long)t);
}

static void print_lease(const k8s_lease *l, buf *out)
{
    buf_printf(out, "%s rv=%lld holder=%s duration=%llds acquire=", l->name, (long long)l->rv,
               l->holder && *l->holder ? l->holder : "\"\"", (long long)l->duration);
    print_time(l->acquire_ms, out);
    buf_puts(out, " renew=");
    print_time(l->renew_ms, out);
    buf_printf(out, " transitions=%lld", (long long)l->transitions);
}

void k8s_reply_brief(const k8s_reply *r, buf *out)
{
    if (r->code >= 300) {
        buf_printf(out, "%d %s: %s", r->code, r->reason, r->msg);
        return;
    }
    buf_printf(out, "%d ", r->code);
    print_lease(&r->obj, out);
}

/* ---- requests ---- */

static int parse_int(slice a, int64_t *v)
{
    long long x;
    if (ll_parse_int64(a, &x)) return -1;
    *v = x;
    return 0;
}

/* HOLDER DURATION ACQUIRE RENEW TRANSITIONS into l (name and rv left alone). */
static int parse_spec(const slice *argv, k8s_lease *l, k8s_reply *r)
{
    if (parse_int(argv[1], &l->duration) || l->duration < 0 || parse_int(argv[2], &l->acquire_ms) ||
        parse_int(argv[3], &l->renew_ms) || parse_int(argv[4], &l->transitions) || l->transitions < 0) {
        reply_error(r, 400, "BadRequest", "locklab: DURATION, ACQUIRE, RENEW and TRANSITIONS are integers");
        return -1;
    }
    l->holder = xmemdup(argv[0].p, argv[0].len);
    return 0;
}

void k8s_exec(k8s *s, int argc, const slice *argv, k8s_reply *r)
{
    memset(r, 0, sizeof *r);
    if (argc < 2) {
        reply_error(r, 400, "BadRequest", "locklab: GET NAME, CREATE NAME HOLDER DURATION ACQUIRE RENEW TRANSITIONS, "
                                          "UPDATE NAME RV HOLDER DURATION ACQUIRE RENEW TRANSITIONS, DELETE NAME");
        return;
    }
    slice name = argv[1];
    int found;
    int i = find(s, name.p, name.len, &found);
    int is_get = slice_eq_nocase(argv[0], "GET"), is_create = slice_eq_nocase(argv[0], "CREATE"),
        is_update = slice_eq_nocase(argv[0], "UPDATE"), is_delete = slice_eq_nocase(argv[0], "DELETE");
    if ((is_get && argc != 2) || (is_create && argc != 7) || (is_update && argc != 8) || (is_delete && argc != 2) ||
        !(is_get || is_create || is_update || is_delete) || name.len == 0 || name.len > 253) {
        reply_error(r, 400, "BadRequest", "locklab: GET NAME, CREATE NAME HOLDER DURATION ACQUIRE RENEW TRANSITIONS, "
                                          "UPDATE NAME RV HOLDER DURATION ACQUIRE RENEW TRANSITIONS, DELETE NAME");
        return;
    }
    if (is_get) {
        if (!found) reply_error(r, 404, "NotFound", GROUP " \"%.*s\" not found", (int)name.len, name.p);
        else reply_obj(r, 200, &s->leases[i]);
        return;
    }
    if (s->readonly) {
        reply_error(r, 503, "ServiceUnavailable", "locklab: this API server's etcd member is not the leader");
        return;
    }
    if (is_delete) {
        if (!found) {
            reply_error(r, 404, "NotFound", GROUP " \"%.*s\" not found", (int)name.len, name.p);
            return;
        }
        reply_obj(r, 200, &s->leases[i]);
        char *gone = xstrdup(s->leases[i].name);
        lease_release(&s->leases[i]);
        memmove(&s->leases[i], &s->leases[i + 1], (size_t)(s->n - i - 1) * sizeof *s->leases);
        s->n--;
        s->rev++;
        report(s, gone, 1);
        free(gone);
        return;
    }
    k8s_lease l = { 0 };
    if (is_create) {
        if (found) {
            reply_error(r, 409, "AlreadyExists", GROUP " \"%.*s\" already exists", (int)name.len, name.p);
            return;
        }
        if (parse_spec(argv + 2, &l, r)) return;
        l.name = xmemdup(name.p, name.len);
        l.rv = ++s->rev;
        s->leases = xrealloc(s->leases, (size_t)(s->n + 1) * sizeof *s->leases);
        memmove(&s->leases[i + 1], &s->leases[i], (size_t)(s->n - i) * sizeof *s->leases);
        s->leases[i] = l;
        s->n++;
        reply_obj(r, 201, &s->leases[i]);
        report(s, l.name, 0);
        return;
    }
    /* UPDATE */
    if (!found) {
        reply_error(r, 404, "NotFound", GROUP " \"%.*s\" not found", (int)name.len, name.p);
        return;
    }
    int64_t rv;
    if (parse_int(argv[2], &rv)) {
        reply_error(r, 400, "BadRequest", "locklab: RESOURCEVERSION is an integer");
        return;
    }
    if (rv != s->leases[i].rv) {
        reply_error(r, 409, "Conflict",
                    "Operation cannot be fulfilled on " GROUP " \"%.*s\": the object has been modified; please apply "
                    "your changes to the latest version and try again",
                    (int)name.len, name.p);
        return;
    }
    if (parse_spec(argv + 3, &l, r)) return;
    free(s->leases[i].holder);
    l.name = s->leases[i].name;
    l.rv = ++s->rev;
    s->leases[i] = l;
    reply_obj(r, 200, &s->leases[i]);
    report(s, l.name, 0);
}

/* ---- data ---- */

k8s *k8s_clone(const k8s *s)
{
    k8s *c = k8s_new(NULL, NULL);
    k8s_copy_into(c, s);
    return c;
}

void k8s_copy_into(k8s *dst, const k8s *src)
{
    clear(dst);
    dst->rev = src->rev;
    dst->n = src->n;
    dst->leases = xcalloc((size_t)src->n + 1, sizeof *dst->leases);
    for (int i = 0; i < src->n; i++) lease_copy(&dst->leases[i], &src->leases[i]);
}

static const char *lease_name_of(slice unit, size_t *len)
{
    if (unit.len > 6 && !memcmp(unit.p, "lease/", 6)) {
        *len = unit.len - 6;
        return unit.p + 6;
    }
    *len = 0;
    return NULL;
}

int k8s_describe(k8s *s, slice unit, buf *out)
{
    size_t len;
    const char *name = lease_name_of(unit, &len);
    int found = 0;
    int i = name ? find(s, name, len, &found) : 0;
    if (!found) return 0;
    print_lease(&s->leases[i], out);
    return 1;
}

k8s_lease *k8s_capture(k8s *s, slice unit, int deleted)
{
    size_t len;
    const char *name = lease_name_of(unit, &len);
    int found = 0;
    int i = name ? find(s, name, len, &found) : 0;
    k8s_lease *c = xcalloc(1, sizeof *c);
    if (!found || deleted) {
        c->name = name ? xmemdup(name, len) : xstrdup("");
        c->holder = NULL;
        c->rv = s->rev;
        return c;
    }
    lease_copy(c, &s->leases[i]);
    return c;
}

void k8s_apply(k8s *s, const k8s_lease *c)
{
    int found;
    int i = find(s, c->name, strlen(c->name), &found);
    if (c->rv > s->rev) s->rev = c->rv;
    if (!c->holder) {
        if (!found) return;
        lease_release(&s->leases[i]);
        memmove(&s->leases[i], &s->leases[i + 1], (size_t)(s->n - i - 1) * sizeof *s->leases);
        s->n--;
        report(s, c->name, 1);
        return;
    }
    if (found) {
        lease_release(&s->leases[i]);
    } else {
        s->leases = xrealloc(s->leases, (size_t)(s->n + 1) * sizeof *s->leases);
        memmove(&s->leases[i + 1], &s->leases[i], (size_t)(s->n - i) * sizeof *s->leases);
        s->n++;
    }
    lease_copy(&s->leases[i], c);
    report(s, c->name, 0);
}

void k8s_dump(k8s *s, buf *out)
{
    for (int i = 0; i < s->n; i++) {
        buf_puts(out, "lease ");
        print_lease(&s->leases[i], out);
        buf_putc(out, '\n');
    }
}
