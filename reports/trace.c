/* trace.c — the narrated trace: one readable line per step of a run, in true-time order —
 * the output a teacher projects. Each line starts with the true time; where the actor's own
 * clock says something else (drift, jumps, offsets), its local time follows in brackets, so
 * the class sees both what happened and what each party believed. */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPOCH_MS HISTORY_EPOCH_MS

static void put_time(buf *out, int64_t us)
{
    buf_printf(out, "%8lld.%03llds", (long long)(us / 1000000), (long long)((us / 1000) % 1000));
}

static const char *name(const history *h, int a)
{
    return history_actor_name(h, a);
}

/* Local time as seconds since the scenario epoch, shown only when it differs from true time
 * by a millisecond or more. */
static void put_local(buf *out, const hist_event *e)
{
    if (e->actor < 0) return;
    int64_t local_rel = e->local_ms - EPOCH_MS;
    int64_t true_ms = e->t_us / 1000;
    if (local_rel == true_ms) return;
    int neg = local_rel < 0;
    int64_t v = neg ? -local_rel : local_rel;
    buf_printf(out, " [local %s%lld.%03llds]", neg ? "-" : "", (long long)(v / 1000), (long long)(v % 1000));
}

int trace_wanted(const hist_event *e, trace_level level)
{
    switch (e->kind) {
    case H_CALL:
    case H_KEY_SET:
    case H_KEY_DELETED: return level >= TRACE_VERBOSE;
    case H_KEYSPACE: return 0; /* data, for the HTML player */
    case H_LOCK_UNIT: return 0; /* data, for the checker */
    case H_REQUEST:
    case H_EXEC:
    case H_REPLY:
    case H_DROP:
    case H_PUBLISH:
    case H_ACQUIRE:
    case H_RELEASE:
    case H_LOG: return level >= TRACE_NORMAL;
    default: return 1;
    }
}

void trace_line(const history *h, const hist_event *e, buf *out)
{
    size_t start = out->len;
    put_time(out, e->t_us);
    buf_printf(out, "  %-5s ", name(h, e->actor));
    const char *text = e->text ? e->text : "";
    const char *rep = e->reply ? e->reply : "";
    switch (e->kind) {
    case H_START: buf_puts(out, "starts"); break;
    case H_REQUEST: buf_printf(out, "→ %s  %s", name(h, e->peer), text); break;
    case H_EXEC: buf_printf(out, "runs %s for %s → %s", text, name(h, e->peer), rep); break;
    case H_CALL: buf_printf(out, "  redis.call %s → %s", text, rep); break;
    case H_REPLY:
        buf_printf(out, "← %s  %s%s", name(h, e->peer), rep,
                   e->b == 0   ? "  (too late: already timed out)"
                   : e->b == 2 ? "  (no longer awaited)"
                               : "");
        break;
    case H_TIMEOUT: buf_puts(out, "gives up waiting for a reply (timeout)"); break;
    case H_DROP: buf_printf(out, "⨯ %s", text); break;
    case H_PUBLISH: buf_printf(out, "← %s  message on %s: %s", name(h, e->peer), text, rep); break;
    case H_ACQUIRE: buf_puts(out, "tries to acquire the lock"); break;
    case H_ACQUIRED:
        if (e->a >= 0) buf_printf(out, "ACQUIRED the lock (fencing token %lld)", (long long)e->a);
        else buf_puts(out, "ACQUIRED the lock");
        break;
    case H_ACQUIRE_FAILED: buf_printf(out, "gives up acquiring: %s", text); break;
    case H_RELEASE: buf_puts(out, "releases the lock"); break;
    case H_RELEASED: buf_printf(out, "release: %s", text); break;
    case H_CS_ENTER: buf_puts(out, "ENTERS the critical section"); break;
    case H_CS_EXIT: buf_puts(out, "LEAVES the critical section"); break;
    case H_WRITE:
        if (e->a >= 0) buf_printf(out, "writes to the resource with token %lld: %s", (long long)e->a, e->b ? "accepted" : "REJECTED");
        else buf_printf(out, "writes to the resource: %s", e->b ? "accepted" : "REJECTED");
        break;
    case H_KEY_SET: buf_printf(out, "key %s = %s", text, rep); break;
    case H_KEY_DELETED: buf_printf(out, "key %s deleted", text); break;
    case H_KEY_EXPIRED: buf_printf(out, "key %s EXPIRED", text); break;
    case H_FAULT: buf_printf(out, "⚡ %s", text); break;
    case H_FAULT_END: buf_printf(out, "⚡ ends: %s", text); break;
    case H_NODE_DOWN: buf_puts(out, "is DOWN"); break;
    case H_NODE_UP: buf_printf(out, "is up: %s", text); break;
    case H_PROMOTED: buf_printf(out, "%s", text); break;
    case H_DEMOTED: buf_printf(out, "%s", text); break;
    case H_LOG: buf_printf(out, "says: %s", text); break;
    case H_ERROR: buf_printf(out, "MODEL ERROR: %s", text); break;
    case H_END: buf_puts(out, "finished its workload"); break;
    default: buf_printf(out, "%s %s", hist_kind_name(e->kind), text); break;
    }
    put_local(out, e);
    /* a model's text: logs, values, errors (whose message sim/client_run.c made one line; the
     * traceback's lines stay) */
    ll_escape_controls(out, start, e->kind == H_ERROR ? "\n\t" : "\t");
    buf_putc(out, '\n');
}

/* key names the lock key: "lock" itself, or a store's path to it ("kv/lock") */
static int is_lock_key(const char *key, const char *lockkey)
{
    if (!key) return 0;
    size_t k = strlen(key), l = strlen(lockkey);
    return !strcmp(key, lockkey) || (k > l && key[k - l - 1] == '/' && !strcmp(key + k - l, lockkey));
}

/* The lock key's value on actor (a node) after event i changed it, compared with what it was:
 * 1 when an execution at i changed the lock key's value or removed it (not a TTL's renewal). */
static int exec_changes_lock(const history *h, size_t i, const char *lockkey, char **last, size_t nlast)
{
    const hist_event *x = history_at(h, i);
    int changed = 0;
    for (size_t j = i + 1; j < history_len(h); j++) {
        const hist_event *e = history_at(h, j);
        if (e->t_us != x->t_us || e->actor != x->actor ||
            (e->kind != H_CALL && e->kind != H_KEY_SET && e->kind != H_KEY_DELETED))
            break;
        if (e->kind == H_CALL || !is_lock_key(e->text, lockkey)) continue;
        const char *now = e->kind == H_KEY_SET ? (e->reply ? e->reply : "") : NULL;
        char **was = x->actor >= 0 && (size_t)x->actor < nlast ? &last[x->actor] : NULL;
        if (!was) return 1;
        if (!now ? *was != NULL : !*was || strcmp(*was, now)) changed = 1;
        free(*was);
        *was = now ? xstrdup(now) : NULL;
    }
    return changed;
}

unsigned char *trace_levels(const history *h, const char *lockkey)
{
    size_t n = history_len(h), na = history_actors(h);
    unsigned char *lv = xmalloc(n ? n : 1);
    char **last = xcalloc(na ? na : 1, sizeof *last);  /* each node's lock value, for the story */
    unsigned char *timed_out = xcalloc(na ? na : 1, 1); /* a client's last story line was a timeout */
    if (!lockkey) lockkey = "lock";
    for (size_t i = 0; i < n; i++) {
        const hist_event *e = history_at(h, i);
        int l = 3;
        for (int k = TRACE_BRIEF; k <= TRACE_VERBOSE; k++)
            if (trace_wanted(e, (trace_level)k)) { l = k; break; }
        int a = e->actor >= 0 && (size_t)e->actor < na ? e->actor : -1;
        if (a >= 0 && (e->kind == H_KEYSPACE || (e->kind == H_KEY_EXPIRED && is_lock_key(e->text, lockkey)))) {
            free(last[a]);
            last[a] = NULL;
        }
        if (e->kind == H_EXEC && exec_changes_lock(h, i, lockkey, last, na)) l = TRACE_BRIEF;
        /* a lost replication: why a promoted replica lacks the lock */
        if (e->kind == H_DROP && (e->msg == HM_REPLICATION || e->msg == HM_REPLICATION_ACK)) l = TRACE_BRIEF;
        /* a client that keeps timing out (a partition): its first timeout tells it */
        if (e->kind == H_TIMEOUT && a >= 0 && timed_out[a]) l = TRACE_NORMAL;
        if (l == TRACE_BRIEF && a >= 0) timed_out[a] = e->kind == H_TIMEOUT;
        lv[i] = (unsigned char)l;
    }
    for (size_t a = 0; a < na; a++) free(last[a]);
    free(last);
    free(timed_out);
    return lv;
}

void trace_render_story(const history *h, trace_level level, const char *lockkey, buf *out)
{
    unsigned char *lv = trace_levels(h, lockkey);
    for (size_t i = 0; i < history_len(h); i++)
        if (lv[i] <= level) trace_line(h, history_at(h, i), out);
    free(lv);
}

void trace_render(const history *h, trace_level level, buf *out)
{
    trace_render_story(h, level, "lock", out);
}
