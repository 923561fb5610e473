/* tracking_client.c — CLIENT TRACKING, CACHING, GETREDIR and TRACKINGINFO as Redis 7.0.15's
 * clientCommand answers them (networking.c: the options, their checks in Redis's order, the
 * errors word for word), BCAST's prefixes (enableBcastTrackingForPrefix,
 * checkPrefixCollisionsOrReply), a connection's tracking ended (disableTracking: OFF, RESET,
 * the connection closed), CLIENT LIST's flags and INFO's figures. The table and the messages
 * are tracking.c's. */
#include <stdlib.h>
#include <string.h>

#include "serverint.h"
#include "trackingint.h"

static int prefix_find(const tracking *t, slice p, size_t *at)
{
    size_t i = 0;
    while (i < t->nprefixes && trk_bytes_cmp(t->prefixes[i].p, t->prefixes[i].len, p.p, p.len) < 0) i++;
    *at = i;
    return i < t->nprefixes && trk_bytes_cmp(t->prefixes[i].p, t->prefixes[i].len, p.p, p.len) == 0;
}

/* Redis's disableTracking. */
static void tracking_off(tracking *t, tclient *k)
{
    for (size_t i = 0; i < k->nprefixes; i++) {
        size_t at;
        if (prefix_find(t, k->prefixes[i], &at)) {
            tprefix *p = &t->prefixes[at];
            for (size_t j = 0; j < p->nclients; j++)
                if (p->clients[j] == k->id) {
                    memmove(&p->clients[j], &p->clients[j + 1], (p->nclients - j - 1) * sizeof *p->clients);
                    p->nclients--;
                    break;
                }
            if (!p->nclients) { /* its last connection: the prefix goes */
                trk_prefix_release(p);
                memmove(p, p + 1, (t->nprefixes - at - 1) * sizeof *p);
                t->nprefixes--;
            }
        }
        free((char *)k->prefixes[i].p);
    }
    free(k->prefixes);
    k->prefixes = NULL;
    k->nprefixes = 0;
    if (k->flags & T_ON) t->ntracking--;
    k->flags = 0;
}

void tracking_conn_closed(tracking *t, int conn_id)
{
    tclient *k = t ? trk_client_find(t, conn_id) : NULL;
    if (k) tracking_off(t, k);
}

/* Redis's enableBcastTrackingForPrefix. */
static void bcast_prefix(tracking *t, tclient *k, slice p)
{
    size_t at;
    if (!prefix_find(t, p, &at)) {
        t->prefixes = xrealloc(t->prefixes, (t->nprefixes + 1) * sizeof *t->prefixes);
        memmove(&t->prefixes[at + 1], &t->prefixes[at], (t->nprefixes - at) * sizeof *t->prefixes);
        t->nprefixes++;
        t->prefixes[at] = (tprefix){ .p = xmemdup(p.p, p.len), .len = p.len };
    }
    tprefix *tp = &t->prefixes[at];
    size_t j = 0;
    while (j < tp->nclients && tp->clients[j] < k->id) j++;
    if (j < tp->nclients && tp->clients[j] == k->id) return;
    tp->clients = xrealloc(tp->clients, (tp->nclients + 1) * sizeof *tp->clients);
    memmove(&tp->clients[j + 1], &tp->clients[j], (tp->nclients - j) * sizeof *tp->clients);
    tp->clients[j] = k->id;
    tp->nclients++;
    size_t i = 0;
    while (i < k->nprefixes && trk_bytes_cmp(k->prefixes[i].p, k->prefixes[i].len, p.p, p.len) < 0) i++;
    k->prefixes = xrealloc(k->prefixes, (k->nprefixes + 1) * sizeof *k->prefixes);
    memmove(&k->prefixes[i + 1], &k->prefixes[i], (k->nprefixes - i) * sizeof *k->prefixes);
    k->prefixes[i] = (slice){ xmemdup(p.p, p.len), p.len };
    k->nprefixes++;
}

static int prefix_overlap(slice a, slice b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    return n == 0 || memcmp(a.p, b.p, n) == 0;
}

/* Redis's checkPrefixCollisionsOrReply (its messages print the prefixes as C strings). */
static int prefixes_ok(cmdctx *c, const tclient *k, const slice *pre, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; k && j < k->nprefixes; j++)
            if (prefix_overlap(k->prefixes[j], pre[i])) {
                reply_errorf(c->out,
                             "ERR Prefix '%.*s' overlaps with an existing prefix '%s'. Prefixes for a single client "
                             "must not overlap.",
                             (int)strnlen(pre[i].p, pre[i].len), pre[i].p, k->prefixes[j].p);
                return 0;
            }
        for (size_t j = i + 1; j < n; j++)
            if (prefix_overlap(pre[i], pre[j])) {
                reply_errorf(c->out,
                             "ERR Prefix '%.*s' overlaps with another provided prefix '%.*s'. Prefixes for a single "
                             "client must not overlap.",
                             (int)strnlen(pre[i].p, pre[i].len), pre[i].p, (int)strnlen(pre[j].p, pre[j].len),
                             pre[j].p);
                return 0;
            }
    }
    return 1;
}

tracking *tracking_of_server(server *srv)
{
    return srv->trk;
}

static tracking *tracking_of(cmdctx *c)
{
    return c->srv ? tracking_of_server(c->srv) : NULL;
}

/* CLIENT TRACKING ON|OFF [REDIRECT id] [BCAST] [PREFIX p ...] [OPTIN] [OPTOUT] [NOLOOP] */
void tracking_cmd_tracking(cmdctx *c)
{
    tracking *t = tracking_of(c);
    long long redir = 0;
    unsigned opts = 0;
    slice *pre = xmalloc((size_t)c->argc * sizeof *pre);
    size_t npre = 0;
    for (int j = 3; j < c->argc; j++) {
        int more = c->argc - 1 - j;
        slice a = c->argv[j];
        if (slice_opt_is(a, "redirect") && more) {
            j++;
            if (redir) {
                reply_error(c->out, "ERR A client can only redirect to a single other client");
                goto out;
            }
            if (ll_parse_int64(c->argv[j], &redir) < 0) {
                reply_error(c->out, ERR_NOT_INT);
                goto out;
            }
            struct trk_find f;
            if (!t || !trk_conn_lookup(t, redir, &f)) {
                reply_error(c->out, "ERR The client ID you want redirect to does not exist");
                goto out;
            }
        } else if (slice_opt_is(a, "bcast")) {
            opts |= T_BCAST;
        } else if (slice_opt_is(a, "optin")) {
            opts |= T_OPTIN;
        } else if (slice_opt_is(a, "optout")) {
            opts |= T_OPTOUT;
        } else if (slice_opt_is(a, "noloop")) {
            opts |= T_NOLOOP;
        } else if (slice_opt_is(a, "prefix") && more) {
            pre[npre++] = c->argv[++j];
        } else {
            reply_error(c->out, ERR_SYNTAX);
            goto out;
        }
    }
    tclient *k = t && c->conn ? trk_client_find(t, c->conn->id) : NULL;
    unsigned now = k ? k->flags : 0;
    if (slice_opt_is(c->argv[2], "on")) {
        const char *err = NULL;
        if (!(opts & T_BCAST) && npre)
            err = "ERR PREFIX option requires BCAST mode to be enabled";
        else if ((now & T_ON) && !!(now & T_BCAST) != !!(opts & T_BCAST))
            err = "ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then "
                  "re-enabling it with a different mode.";
        else if ((opts & T_BCAST) && (opts & (T_OPTIN | T_OPTOUT)))
            err = "ERR OPTIN and OPTOUT are not compatible with BCAST";
        else if ((opts & T_OPTIN) && (opts & T_OPTOUT))
            err = "ERR You can't specify both OPTIN mode and OPTOUT mode";
        else if (((opts & T_OPTIN) && (now & T_OPTOUT)) || ((opts & T_OPTOUT) && (now & T_OPTIN)))
            err = "ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then "
                  "re-enabling it with a different mode.";
        if (err) {
            reply_error(c->out, err);
            goto out;
        }
        if ((opts & T_BCAST) && !prefixes_ok(c, k, pre, npre)) goto out;
        if (!t || !c->conn) {
            reply_error(c->out, "ERR CLIENT TRACKING needs a connection"); /* a script's: never reached */
            goto out;
        }
        k = trk_client_get(t, c->conn->id);
        if (!(k->flags & T_ON)) t->ntracking++;
        k->flags = (k->flags & T_CACHING) | T_ON | (opts & (T_OPTIN | T_OPTOUT | T_NOLOOP));
        k->redir = redir;
        if (opts & T_BCAST) {
            k->flags |= T_BCAST;
            if (!npre) bcast_prefix(t, k, (slice){ "", 0 });
            for (size_t i = 0; i < npre; i++) bcast_prefix(t, k, pre[i]);
        }
        tx_watch_hook_update(c->srv);
    } else if (slice_opt_is(c->argv[2], "off")) {
        if (k) tracking_off(t, k);
    } else {
        reply_error(c->out, ERR_SYNTAX);
        goto out;
    }
    reply_ok(c->out);
out:
    free(pre);
}

/* CLIENT CACHING YES|NO */
void tracking_cmd_caching(cmdctx *c)
{
    tracking *t = tracking_of(c);
    tclient *k = t && c->conn ? trk_client_find(t, c->conn->id) : NULL;
    if (!k || !(k->flags & T_ON)) {
        reply_error(c->out, "ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or "
                            "OPTOUT mode enabled");
    } else if (slice_opt_is(c->argv[2], "yes")) {
        if (k->flags & T_OPTIN) {
            k->flags |= T_CACHING;
            reply_ok(c->out);
        } else {
            reply_error(c->out, "ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
        }
    } else if (slice_opt_is(c->argv[2], "no")) {
        if (k->flags & T_OPTOUT) {
            k->flags |= T_CACHING;
            reply_ok(c->out);
        } else {
            reply_error(c->out, "ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
        }
    } else {
        reply_error(c->out, ERR_SYNTAX);
    }
}

void tracking_cmd_getredir(cmdctx *c)
{
    tracking *t = tracking_of(c);
    tclient *k = t && c->conn ? trk_client_find(t, c->conn->id) : NULL;
    reply_int(c->out, k && (k->flags & T_ON) ? k->redir : -1);
}

/* CLIENT TRACKINGINFO: a map of flags (a set), redirect, prefixes. */
void tracking_cmd_trackinginfo(cmdctx *c)
{
    tracking *t = tracking_of(c);
    tclient *k = t && c->conn ? trk_client_find(t, c->conn->id) : NULL;
    unsigned fl = k ? k->flags : 0;
    const char *names[8];
    size_t n = 0;
    names[n++] = fl & T_ON ? "on" : "off";
    if (fl & T_BCAST) names[n++] = "bcast";
    if (fl & T_OPTIN) {
        names[n++] = "optin";
        if (fl & T_CACHING) names[n++] = "caching-yes";
    }
    if (fl & T_OPTOUT) {
        names[n++] = "optout";
        if (fl & T_CACHING) names[n++] = "caching-no";
    }
    if (fl & T_NOLOOP) names[n++] = "noloop";
    if (fl & T_BROKEN) names[n++] = "broken_redirect";
    reply *m = reply_array(c->out, 6);
    c->out->integer = R3_MAP;
    reply_bulk_cstr(&m[0], "flags");
    reply *f = reply_array(&m[1], n);
    m[1].integer = R3_SET;
    for (size_t i = 0; i < n; i++) reply_bulk_cstr(&f[i], names[i]);
    reply_bulk_cstr(&m[2], "redirect");
    reply_int(&m[3], fl & T_ON ? k->redir : -1);
    reply_bulk_cstr(&m[4], "prefixes");
    size_t np = k ? k->nprefixes : 0;
    reply *p = reply_array(&m[5], np);
    for (size_t i = 0; i < np; i++) reply_bulk(&p[i], k->prefixes[i].p, k->prefixes[i].len);
}

long long tracking_client_flags(server *srv, int conn_id, char **p)
{
    tracking *t = tracking_of_server(srv);
    tclient *k = t ? trk_client_find(t, conn_id) : NULL;
    if (!k || !(k->flags & T_ON)) return -1;
    *(*p)++ = 't';
    if (k->flags & T_BROKEN) *(*p)++ = 'R';
    if (k->flags & T_BCAST) *(*p)++ = 'B';
    return k->redir;
}

void tracking_info_clients(server *srv, buf *out)
{
    tracking *t = tracking_of_server(srv);
    buf_printf(out, "tracking_clients:%d\r\n", t ? t->ntracking : 0);
}

void tracking_info_stats(server *srv, buf *out)
{
    tracking *t = tracking_of_server(srv);
    buf_printf(out, "tracking_total_keys:%zu\r\ntracking_total_items:%zu\r\ntracking_total_prefixes:%zu\r\n",
               t && t->table ? dict_size(t->table) : 0, t ? t->items : 0, t ? t->nprefixes : 0);
}
