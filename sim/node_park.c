/* node_park.c — requests a server answers later (kind_host.park, unpark; server_kind.h).
 *
 * A server that waits inside itself before it answers (PostgreSQL's pg_advisory_lock until
 * the lock frees, bounded by lock_timeout) parks the request it is running: the node keeps
 * the request's return address (client, connection, coroutine, request id) as a wait in its
 * list, beside Redis's WAITs, and sends nothing. The answer comes when the server gives it:
 * during another request (an unlock), a client's disconnection (its session's end frees what
 * it held), or the wait's own timer (EV_WAIT_TIMEOUT, on the node's clock, as a WAIT's
 * timeout). The node then records an exec of its own for the parked request, with the answer,
 * and sends it over the net, once the call in progress is over (node_park_flush), so the
 * history reads: the unlock, then the waiter's grant (and, through server_kind.parked_answered,
 * the data that grant changed: the lock object, now the waiter's).
 *
 * For the model checker the answer is an ordinary reply message and the timer an ordinary
 * event: both are steps it orders like any other. A crash of the node drops its parked
 * requests with its other waits (their clients hear nothing and end with their timeouts); a
 * client's own crash ends its session, and its server drops the wait (unpark with NULL). */
#include "nodeint.h"

#include <stdlib.h>
#include <string.h>

uint64_t node_park(void *ud, int64_t timeout_ms)
{
    node *n = ud;
    cluster *cu = n->cu;
    LL_ASSERT(n->exec_msg && !n->parked_now); /* only inside exec, once */
    node_wait *w = node_wait_add(n, n->exec_msg, 0, 0);
    w->parked = 1;
    w->script = n->exec_msg->script ? xstrdup(n->exec_msg->script) : NULL;
    w->exec_at = n->exec_at;
    n->parked_now = 1;
    node_wait_arm(cu, n, w, timeout_ms);
    return w->id;
}

static void park_free(node_wait *w)
{
    msg_free(w->ready);
    free(w->script);
    free(w->label);
    free(w);
}

void node_unpark(void *ud, uint64_t ticket, void *reply)
{
    node *n = ud;
    cluster *cu = n->cu;
    for (node_wait **p = &n->waits; *p; p = &(*p)->next) {
        node_wait *w = *p;
        if (w->id != ticket || !w->parked || w->ready) continue;
        if (!reply) {
            *p = w->next;
            park_free(w);
            return;
        }
        w->ready = node_reply_new(cu, n, w->from);
        memcpy(w->ready->body, reply, cu->kind->reply_size);
        return;
    }
    if (reply) cu->kind->reply_release(reply); /* the node crashed since: nobody hears it */
}

void node_park_begun(cluster *cu, node *n, size_t at, msg *rep)
{
    hist_event *e = history_at_mut(cu->cx->hist, at);
    free(e->reply);
    e->reply = xstrdup("(waits in the server)");
    rep->body = NULL; /* left empty by the server */
    msg_free(rep);
    node_park_flush(cu, n);
}

void node_park_flush(cluster *cu, node *n)
{
    node_wait **p = &n->waits;
    while (*p) {
        node_wait *w = *p;
        if (!w->parked || !w->ready) {
            p = &w->next;
            continue;
        }
        *p = w->next;
        msg *rep = w->ready;
        w->ready = NULL;
        rep->async = w->async;
        size_t at = node_note_exec(cu, n, w->from, w->req_id, w->label, w->script);
        if (cu->kind->parked_answered) cu->kind->parked_answered(n->srv, w->id);
        node_send_reply(cu, at, rep, w->coro, w->req_id, w->label);
        park_free(w);
    }
}

void node_park_timeout(cluster *cu, node *n, node_wait *w)
{
    if (!cu->kind->parked_timeout || w->ready) return;
    msg *rep = node_reply_new(cu, n, w->from);
    int64_t again = 0;
    if (cu->kind->parked_timeout(n->srv, w->id, rep->body, &again)) {
        w->ready = rep;
        node_park_flush(cu, n);
        return;
    }
    rep->body = NULL;
    msg_free(rep);
    node_wait_arm(cu, n, w, again);
}
