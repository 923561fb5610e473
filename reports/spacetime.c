/* spacetime.c — the space-time (Lamport) diagram, as SVG written directly: a vertical line
 * per client and node, time flowing downward, each request an arrow to the node that runs it
 * and each reply an arrow back, labelled with the command (or script id) and the reply. A lost
 * message ends in a ✗ just past its sender's line (where it was lost), or just short of the
 * target's when it reached a node that was down; never halfway, on some other actor's line.
 *
 * The vertical axis is the order of events, not true time: every drawn event gets its own
 * slot, and a long quiet stretch gets a break marked with how long it was. So a 2 ms exchange
 * stays readable beside a 12 s GC pause. Long retry stretches are elided: when a client sends
 * the same thing to the same node and gets the same answer many times in a row, the first two
 * and the last exchanges are drawn, with a note saying how many were left out between. After
 * MAX_SLOTS slots the diagram stops with a note.
 *
 * Labels in the diagram never sit on one another: each is measured (an estimate from its
 * length, the font's average advance), and one that would cover a label already drawn is
 * moved a line up or down, or, when neither is free, left out; every label and every arrow
 * carries an SVG <title> with the full text, so a shortened or left-out label is a tooltip
 * away. Only glyphs DejaVu Sans has are used (the fonts the pictures are drawn with).
 *
 * Output is a pure function of the history (integers only), so it is byte-identical between
 * runs. Every id is prefixed "st-" so that the SVG can be inlined beside gnuplot's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

enum { SLOT = 26, GAP = 34, TOP = 96, LEFT = 120, COLW = 210, MAX_SLOTS = 500, KEEP_HEAD = 2, ELIDE_MIN = 5,
       DROP_OFF = 30 /* a lost message's ✗: this far from the sender's line */ };
#define GAP_US 200000 /* a quiet stretch longer than this gets a break */

typedef struct exchange {
    int client, node;      /* actors */
    int64_t id;            /* the request id */
    long req, exec, reply, drop_req, drop_reply; /* event indexes, -1 */
    int hidden;            /* elided */
    int seen;              /* already part of an elided run */
    int note;              /* > 0: the first hidden one of a run, this many hidden */
} exchange;

typedef struct box { int x0, y0, x1, y1; } box;

typedef struct st {
    const history *h;
    tl_model m;
    exchange *x; size_t nx;
    long *xof;             /* per event: its exchange, -1 */
    int *y;                /* per event: its slot's y, -1 when not drawn */
    int *col;              /* per actor: its column x */
    int height;
    long stopped_at;       /* the first event not drawn for lack of room, -1 */
    const char *lockkey;
    box *boxes; size_t nboxes, capboxes; /* the labels drawn so far in the diagram's body */
} st;

static void xml_text(buf *out, const char *s, size_t max)
{
    size_t n = 0;
    for (; *s && n < max; s++, n++) {
        switch (*s) {
        case '&': buf_puts(out, "&amp;"); break;
        case '<': buf_puts(out, "&lt;"); break;
        case '>': buf_puts(out, "&gt;"); break;
        case '"': buf_puts(out, "&quot;"); break;
        case '\n': buf_putc(out, ' '); break;
        default: buf_putc(out, *s);
        }
    }
    if (*s) buf_puts(out, "…");
}

static int drawn_kind(const st *s, const hist_event *e)
{
    switch (e->kind) {
    case H_REQUEST: case H_EXEC: case H_REPLY: case H_DROP: case H_TIMEOUT: case H_PUBLISH:
    case H_ACQUIRED: case H_ACQUIRE_FAILED: case H_CS_ENTER: case H_CS_EXIT: case H_WRITE: case H_RELEASED:
    case H_FAULT: case H_FAULT_END: case H_NODE_DOWN: case H_NODE_UP: case H_PROMOTED: case H_DEMOTED: case H_ERROR:
        return 1;
    case H_KEY_EXPIRED: return 1;
    default: (void)s; return 0;
    }
}

static exchange *find_exchange(st *s, int client, int64_t id)
{
    for (size_t i = s->nx; i-- > 0;)
        if (s->x[i].client == client && s->x[i].id == id) return &s->x[i];
    return NULL;
}

/* Pairs every request with its exec, reply and drops. */
static void collect(st *s)
{
    size_t n = history_len(s->h), cap = 0;
    for (size_t i = 0; i < n; i++) {
        const hist_event *e = history_at(s->h, i);
        exchange *x = NULL;
        if (e->kind == H_REQUEST) {
            if (s->nx == cap) {
                cap = cap ? 2 * cap : 64;
                s->x = xrealloc(s->x, cap * sizeof *s->x);
            }
            s->x[s->nx++] = (exchange){ e->actor, e->peer, e->a, (long)i, -1, -1, -1, -1, 0, 0, 0 };
            x = &s->x[s->nx - 1];
        } else if (e->kind == H_EXEC) {
            x = find_exchange(s, e->peer, e->a);
            if (x && x->exec < 0) x->exec = (long)i;
            else x = NULL;
        } else if (e->kind == H_REPLY || e->kind == H_TIMEOUT) {
            x = find_exchange(s, e->actor, e->a);
            if (x && e->kind == H_REPLY && x->reply < 0) x->reply = (long)i;
        } else if (e->kind == H_DROP && e->msg == HM_REQUEST) {
            /* the newest exchange of this client with that node that is still in flight */
            for (size_t k = s->nx; k-- > 0 && !x;)
                if (s->x[k].client == e->actor && s->x[k].node == e->peer && s->x[k].exec < 0 && s->x[k].drop_req < 0)
                    x = &s->x[k];
            if (x) x->drop_req = (long)i;
        } else if (e->kind == H_DROP && e->msg == HM_REPLY) {
            for (size_t k = s->nx; k-- > 0 && !x;)
                if (s->x[k].client == e->peer && s->x[k].node == e->actor && s->x[k].exec >= 0 && s->x[k].reply < 0 &&
                    s->x[k].drop_reply < 0)
                    x = &s->x[k];
            if (x) x->drop_reply = (long)i;
        }
        if (x) s->xof[i] = x - s->x;
    }
}

/* What an exchange looks like: what was sent and what came back. */
static int same_exchange(const st *s, const exchange *a, const exchange *b)
{
    if (a->client != b->client || a->node != b->node) return 0;
    const hist_event *ra = history_at(s->h, (size_t)a->req), *rb = history_at(s->h, (size_t)b->req);
    if (strcmp(ra->text ? ra->text : "", rb->text ? rb->text : "")) return 0;
    const char *pa = a->exec >= 0 ? history_at(s->h, (size_t)a->exec)->reply : "(lost)";
    const char *pb = b->exec >= 0 ? history_at(s->h, (size_t)b->exec)->reply : "(lost)";
    return !strcmp(pa ? pa : "", pb ? pb : "");
}

/* Marks the middle of every long run of identical exchanges between one client and one node. */
static void elide(st *s)
{
    for (size_t i = 0; i < s->nx; i++) {
        if (s->x[i].seen) continue;
        /* the run that starts here: the following exchanges of the same pair, all identical */
        size_t run[4096];
        size_t nrun = 0;
        run[nrun++] = i;
        for (size_t k = i + 1; k < s->nx && nrun < LL_ARRAY_LEN(run); k++) {
            if (s->x[k].client != s->x[i].client || s->x[k].node != s->x[i].node) continue;
            if (!same_exchange(s, &s->x[i], &s->x[k])) break;
            run[nrun++] = k;
        }
        if (nrun < ELIDE_MIN) continue;
        for (size_t k = 0; k < nrun; k++) s->x[run[k]].seen = 1;
        for (size_t k = KEEP_HEAD; k + 1 < nrun; k++) s->x[run[k]].hidden = 1;
        s->x[run[KEEP_HEAD]].note = (int)(nrun - KEEP_HEAD - 1);
    }
}

static int event_hidden(const st *s, size_t i)
{
    long xi = s->xof[i];
    return xi >= 0 && s->x[xi].hidden && !s->x[xi].note;
}

/* Gives every drawn event its slot. */
static void layout(st *s)
{
    size_t n = history_len(s->h);
    int y = TOP, slots = 0;
    int64_t last_t = 0;
    for (size_t i = 0; i < n; i++) {
        const hist_event *e = history_at(s->h, i);
        s->y[i] = -1;
        if (!drawn_kind(s, e) || event_hidden(s, i) || s->stopped_at >= 0) continue;
        if (e->kind == H_KEY_EXPIRED && !(e->text && !strcmp(e->text, s->lockkey))) continue;
        long xi = s->xof[i];
        if (xi >= 0 && s->x[xi].note && s->x[xi].req != (long)i) continue; /* the note takes the request's slot */
        if (slots >= MAX_SLOTS) {
            s->stopped_at = (long)i;
            continue;
        }
        if (slots && e->t_us - last_t > GAP_US) y += GAP;
        y += SLOT;
        s->y[i] = y;
        last_t = e->t_us;
        slots++;
    }
    s->height = y + 80;
}

static void put_secs(buf *out, int64_t us)
{
    buf_printf(out, "%lld.%03llds", (long long)(us / 1000000), (long long)(us / 1000 % 1000));
}

/* An arrow with what it carries as its <title>. */
static void arrow(buf *out, int x1, int y1, int x2, int y2, const char *cls, const char *title)
{
    buf_printf(out, "<line class=\"%s\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" marker-end=\"url(#st-head)\"><title>", cls,
               x1, y1, x2, y2);
    xml_text(out, title, (size_t)-1);
    buf_puts(out, "</title></line>\n");
}

static void label(buf *out, int x, int y, const char *anchor, const char *cls, const char *text, size_t max)
{
    buf_printf(out, "<text class=\"%s\" x=\"%d\" y=\"%d\" text-anchor=\"%s\">", cls, x, y, anchor);
    xml_text(out, text, max);
    buf_puts(out, "</text>\n");
}

/* The width a label is drawn in, estimated: its characters (as shown, at most max and the
 * ellipsis) times DejaVu Sans's average advance at 13 px, more for bold. */
static int label_width(const char *cls, const char *text, size_t max)
{
    size_t n = 0;
    for (const char *p = text; *p; p++) n += ((unsigned char)*p & 0xc0) != 0x80;
    if (n > max) n = max + 1;
    int bold = !strcmp(cls, "st-good") || !strcmp(cls, "st-bad") || !strcmp(cls, "st-fault");
    return (int)n * (bold ? 17 : 15) / 2 + 2;
}

static int box_free(const st *s, box b)
{
    for (size_t i = 0; i < s->nboxes; i++) {
        const box *o = &s->boxes[i];
        if (b.x0 < o->x1 && o->x0 < b.x1 && b.y0 < o->y1 && o->y0 < b.y1) return 0;
    }
    return 1;
}

/* A label in the diagram's body: at y, else a line below or above when that is where it
 * covers no label already drawn; with its full text as its <title>. Returns 0, drawing
 * nothing, when no place is free (the caller leaves the text on the arrow's <title>). */
static int body_label(st *s, buf *out, int x, int y, const char *anchor, const char *cls, const char *text, size_t max)
{
    static const int shifts[] = { 0, 13, -13, 26 };
    int w = label_width(cls, text, max);
    int x0 = !strcmp(anchor, "start") ? x : !strcmp(anchor, "end") ? x - w : x - w / 2;
    for (size_t k = 0; k < LL_ARRAY_LEN(shifts); k++) {
        box b = { x0, y + shifts[k] - 11, x0 + w, y + shifts[k] + 2 };
        if (!box_free(s, b)) continue;
        if (s->nboxes == s->capboxes) {
            s->capboxes = s->capboxes ? 2 * s->capboxes : 256;
            s->boxes = xrealloc(s->boxes, s->capboxes * sizeof *s->boxes);
        }
        s->boxes[s->nboxes++] = b;
        buf_printf(out, "<text class=\"%s\" x=\"%d\" y=\"%d\" text-anchor=\"%s\"><title>", cls, x, y + shifts[k], anchor);
        xml_text(out, text, (size_t)-1);
        buf_puts(out, "</title>");
        xml_text(out, text, max);
        buf_puts(out, "</text>\n");
        return 1;
    }
    return 0;
}

/* A label left out for lack of room: a dot where it would have been, with the text as its
 * <title>. */
static void body_label_or_dot(st *s, buf *out, int x, int y, int dotx, int doty, const char *anchor, const char *cls,
                              const char *text, size_t max)
{
    if (body_label(s, out, x, y, anchor, cls, text, max)) return;
    buf_printf(out, "<circle class=\"st-dot\" cx=\"%d\" cy=\"%d\" r=\"3\"><title>", dotx, doty);
    xml_text(out, text, (size_t)-1);
    buf_puts(out, "</title></circle>\n");
}

static void cross(buf *out, int x, int y, int r)
{
    buf_printf(out, "<path class=\"st-cross\" d=\"M%d %dL%d %dM%d %dL%d %d\"/>\n", x - r, y - r, x + r, y + r, x - r, y + r,
               x + r, y - r);
}

/* A lost message (the H_DROP event `drop`, its sender the event's actor): a line from the
 * sender's line (x from, y y0) to a ✗ at y yd, and what was lost beside it. The ✗ sits just
 * past the sender's line toward the target's (x to), where the message was lost; or, for one
 * that reached a node that was down, just short of that node's line. Never halfway across,
 * where another actor's line may run. The text (what, else "lost → TARGET (why)") follows
 * the ✗ toward the target, or starts past the target's line when the ✗ is at it. */
static void draw_drop(st *s, buf *out, const hist_event *drop, const char *cls, int from, int y0, int to, int yd,
                      const char *what)
{
    int dir = to > from ? 1 : to < from ? -1 : 0;
    int at_target = drop->code == HL_NODE_DOWN;
    int xd = at_target ? to - dir * DROP_OFF : from + dir * DROP_OFF;
    buf t;
    buf_init(&t);
    if (what) buf_puts(&t, what);
    else if (drop->code >= 0) buf_printf(&t, "lost → %s (%s)", history_actor_name(s->h, drop->peer), hist_loss_name(drop->code));
    else buf_printf(&t, "lost → %s", history_actor_name(s->h, drop->peer));
    buf_printf(out, "<line class=\"%s\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"><title>", cls, from, y0, xd, yd);
    xml_text(out, t.p, (size_t)-1);
    buf_puts(out, "</title></line>\n");
    cross(out, xd, yd, 7);
    body_label(s, out, (at_target ? to : xd) + dir * 11, yd + 5, dir >= 0 ? "start" : "end", "st-bad", t.p, 70);
    buf_release(&t);
}

static void draw_exchange(st *s, const exchange *x, buf *out)
{
    const history *h = s->h;
    int cx = s->col[x->client], nx = s->col[x->node];
    int dir = nx > cx ? 1 : -1;
    int yr = s->y[x->req];
    if (yr < 0) return;
    const hist_event *req = history_at(h, (size_t)x->req);
    if (x->note) {
        buf t;
        buf_init(&t);
        const char *rep = x->exec >= 0 ? history_at(h, (size_t)x->exec)->reply : "lost";
        buf_printf(&t, "⋮ %d more identical: %s → %s", x->note, req->text ? req->text : "", rep ? rep : "");
        body_label_or_dot(s, out, cx + 10, yr + 5, cx, yr, "start", "st-note", t.p, 90);
        buf_release(&t);
        return;
    }
    const char *cname = history_actor_name(h, x->client), *nname = history_actor_name(h, x->node);
    buf tq;
    buf_init(&tq);
    buf_printf(&tq, "%s → %s: %s", cname, nname, req->text ? req->text : "");
    body_label(s, out, cx + dir * 10, yr - 5, dir > 0 ? "start" : "end", "st-msg", req->text ? req->text : "", 44);
    if (x->exec >= 0 && s->y[x->exec] >= 0) {
        int ye = s->y[x->exec];
        arrow(out, cx, yr, nx, ye, "st-req", tq.p);
        buf_printf(out, "<circle class=\"st-exec\" cx=\"%d\" cy=\"%d\" r=\"4\"/>\n", nx, ye);
        const hist_event *ex = history_at(h, (size_t)x->exec);
        buf t;
        buf_init(&t);
        buf_printf(&t, "%s → %s: %s", nname, cname, ex->reply ? ex->reply : "");
        if (x->reply >= 0 && s->y[x->reply] >= 0) {
            const hist_event *rp = history_at(h, (size_t)x->reply);
            arrow(out, nx, ye, cx, s->y[x->reply], rp->b == 0 || rp->b == 2 ? "st-late" : "st-rep", t.p);
        } else if (x->drop_reply >= 0 && s->y[x->drop_reply] >= 0) {
            draw_drop(s, out, history_at(h, (size_t)x->drop_reply), "st-rep", nx, ye, cx, s->y[x->drop_reply], NULL);
        }
        buf_reset(&t);
        buf_printf(&t, "→ %s", ex->reply ? ex->reply : "");
        body_label(s, out, nx - dir * 10, ye + 17, dir > 0 ? "end" : "start", "st-reply", t.p, 36);
        buf_release(&t);
    } else if (x->drop_req >= 0 && s->y[x->drop_req] >= 0) {
        draw_drop(s, out, history_at(h, (size_t)x->drop_req), "st-req", cx, yr, nx, s->y[x->drop_req], NULL);
    }
    buf_release(&tq);
}

/* One event on its actor's line (exchanges are drawn by draw_exchange). */
static void draw_event(st *s, size_t i, buf *out)
{
    const hist_event *e = history_at(s->h, i);
    int y = s->y[i];
    if (y < 0) return;
    int x = e->actor >= 0 ? s->col[e->actor] : LEFT;
    buf t;
    buf_init(&t);
    const char *cls = "st-ev";
    switch (e->kind) {
    case H_TIMEOUT: buf_puts(&t, "◷ timeout"); cls = "st-warn"; break;
    case H_ACQUIRED:
        if (e->a >= 0) buf_printf(&t, "ACQUIRED (token %lld)", (long long)e->a);
        else buf_puts(&t, "ACQUIRED");
        cls = "st-good";
        break;
    case H_ACQUIRE_FAILED: buf_printf(&t, "gives up: %s", e->text ? e->text : ""); cls = "st-warn"; break;
    case H_CS_ENTER: buf_puts(&t, "enters critical section"); cls = "st-good"; break;
    case H_CS_EXIT: buf_puts(&t, "leaves critical section"); break;
    case H_WRITE:
        buf_printf(&t, "write%s%s", e->b ? " accepted" : " REJECTED", e->a >= 0 ? "" : "");
        if (e->a >= 0) buf_printf(&t, " (token %lld)", (long long)e->a);
        cls = e->b ? "st-ev" : "st-bad";
        break;
    case H_RELEASED: buf_printf(&t, "release: %s", e->text ? e->text : ""); break;
    case H_FAULT: buf_printf(&t, "⚡ %s", e->text ? e->text : ""); cls = "st-fault"; break;
    case H_FAULT_END: buf_printf(&t, "⚡ ends: %s", e->text ? e->text : ""); cls = "st-fault"; break;
    case H_NODE_DOWN: buf_puts(&t, "DOWN"); cls = "st-bad"; cross(out, x, y, 9); break;
    case H_NODE_UP: buf_printf(&t, "up: %s", e->text ? e->text : ""); cls = "st-good"; break;
    case H_PROMOTED: case H_DEMOTED: buf_puts(&t, e->text ? e->text : ""); cls = "st-fault"; break;
    case H_KEY_EXPIRED: buf_puts(&t, "lock key EXPIRED"); cls = "st-warn"; break;
    case H_ERROR: buf_puts(&t, "model error"); cls = "st-bad"; break;
    case H_PUBLISH: {
        int px = e->peer >= 0 ? s->col[e->peer] : x;
        buf_printf(out, "<line class=\"st-pub\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" marker-end=\"url(#st-head)\"/>\n", px,
                   y - SLOT + 6, x, y);
        buf_printf(&t, "message on %s", e->text ? e->text : "");
        break;
    }
    case H_DROP: /* not part of an exchange (those are drawn by draw_exchange): replication, pub/sub */
        if (e->peer >= 0) {
            buf_printf(&t, "to %s: %s", history_actor_name(s->h, e->peer), e->text ? e->text : "");
            draw_drop(s, out, e, "st-req", x, y - 10, s->col[e->peer], y, t.p);
            buf_reset(&t);
        } else {
            buf_printf(&t, "⨯ %s", e->text ? e->text : "");
            cls = "st-bad";
        }
        break;
    default: break;
    }
    if (e->kind == H_FAULT && e->actor < 0) { /* a world fault: a banner across */
        buf_printf(out, "<line class=\"st-banner\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", LEFT - 20, y,
                   s->col[s->m.rows[s->m.nrows - 1].actor] + 40, y);
        x = LEFT;
    }
    if (t.len) body_label_or_dot(s, out, x + 10, y + 5, x, y, "start", cls, t.p, 60);
    buf_release(&t);
}

/* Client lines: the critical section as a thick band, GC pauses shaded, a crash crossed;
 * node lines: down stretches greyed. Drawn under everything else. */
static void draw_bands(st *s, buf *out)
{
    const history *h = s->h;
    size_t n = history_len(h);
    int last_y = s->height - 60;
    for (int r = 0; r < s->m.nrows; r++) {
        int actor = s->m.rows[r].actor, x = s->col[actor];
        int hold = -1, pause = -1, down = -1;
        for (size_t i = 0; i < n; i++) {
            const hist_event *e = history_at(h, i);
            if (e->actor != actor) continue;
            int y = s->y[i];
            if (y < 0) {
                if (s->stopped_at >= 0 && (long)i >= s->stopped_at) break;
                continue;
            }
            if (e->kind == H_CS_ENTER) hold = y;
            if (e->kind == H_CS_EXIT && hold >= 0) {
                buf_printf(out, "<rect class=\"st-hold\" x=\"%d\" y=\"%d\" width=\"10\" height=\"%d\"/>\n", x - 5, hold, y - hold);
                hold = -1;
            }
            if (e->kind == H_FAULT && e->fault == FAULT_GC_PAUSE) pause = y;
            if (e->kind == H_FAULT_END && pause >= 0) {
                buf_printf(out, "<rect class=\"st-pause\" x=\"%d\" y=\"%d\" width=\"36\" height=\"%d\"/>\n", x - 18, pause, y - pause);
                pause = -1;
            }
            if (e->kind == H_NODE_DOWN || (e->kind == H_FAULT && e->fault == FAULT_CRASH && !history_actor_is_node(h, actor))) {
                if (down < 0) down = y;
                cross(out, x, y, 9);
            }
            if (e->kind == H_NODE_UP && down >= 0) {
                buf_printf(out, "<rect class=\"st-down\" x=\"%d\" y=\"%d\" width=\"12\" height=\"%d\"/>\n", x - 6, down, y - down);
                down = -1;
            }
        }
        if (hold >= 0) buf_printf(out, "<rect class=\"st-hold\" x=\"%d\" y=\"%d\" width=\"10\" height=\"%d\"/>\n", x - 5, hold, last_y - hold);
        if (pause >= 0) buf_printf(out, "<rect class=\"st-pause\" x=\"%d\" y=\"%d\" width=\"36\" height=\"%d\"/>\n", x - 18, pause, last_y - pause);
        if (down >= 0) buf_printf(out, "<rect class=\"st-down\" x=\"%d\" y=\"%d\" width=\"12\" height=\"%d\"/>\n", x - 6, down, last_y - down);
    }
}

/* True time down the left side, and the breaks where nothing happened for a while. */
static void draw_axis(st *s, buf *out)
{
    int64_t last_t = -1;
    int last_y = -100;
    for (size_t i = 0; i < history_len(s->h); i++) {
        int y = s->y[i];
        if (y < 0) continue;
        int64_t t = history_at(s->h, i)->t_us;
        if (last_t >= 0 && t - last_t > GAP_US) {
            buf t2;
            buf_init(&t2);
            int64_t d = t - last_t;
            buf_puts(&t2, "⋯ ");
            put_secs(&t2, d);
            buf_puts(&t2, " later");
            int yg = y - SLOT - GAP / 2 + 13;
            buf_printf(out, "<line class=\"st-gap\" x1=\"10\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", yg,
                       s->col[s->m.rows[s->m.nrows - 1].actor] + 120, yg);
            label(out, 12, yg - 4, "start", "st-gaptext", t2.p, 40);
            buf_release(&t2);
        }
        if (t / 1000 != last_t / 1000 && y - last_y >= SLOT) {
            buf tt;
            buf_init(&tt);
            put_secs(&tt, t);
            label(out, LEFT - 40, y + 5, "end", "st-time", tt.p, 20);
            buf_release(&tt);
            last_y = y;
        }
        last_t = t;
    }
}

void spacetime_svg(const history *h, const scenario *sc, buf *out)
{
    st s = { .h = h, .stopped_at = -1, .lockkey = sc && sc->lock ? sc->lock : "lock" };
    tl_build(h, sc, &s.m);
    size_t n = history_len(h), na = history_actors(h);
    s.xof = xmalloc((n ? n : 1) * sizeof *s.xof);
    s.y = xmalloc((n ? n : 1) * sizeof *s.y);
    s.col = xcalloc(na ? na : 1, sizeof *s.col);
    for (size_t i = 0; i < n; i++) s.xof[i] = -1;
    for (int r = 0; r < s.m.nrows; r++) s.col[s.m.rows[r].actor] = LEFT + 60 + r * COLW;
    collect(&s);
    elide(&s);
    layout(&s);
    int width = LEFT + 60 + (s.m.nrows ? s.m.nrows - 1 : 0) * COLW + 360;

    buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"st\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                    "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n", width, s.height, width, s.height);
    buf_puts(out,
             "<defs><marker id=\"st-head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
             "orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"#37474f\"/></marker>\n"
             "<style>.st text{font-size:13px;fill:#212121}.st .st-title{font-size:20px;font-weight:bold}"
             ".st .st-sub{font-size:14px;fill:#555}.st .st-actor{font-size:18px;font-weight:bold}"
             ".st .st-life{stroke:#90a4ae;stroke-width:2}.st .st-req{stroke:#1565c0;stroke-width:1.6}"
             ".st .st-rep{stroke:#2e7d32;stroke-width:1.6}.st .st-late{stroke:#9e9e9e;stroke-width:1.4;stroke-dasharray:5 4}"
             ".st .st-pub{stroke:#6a1b9a;stroke-width:1.4;stroke-dasharray:3 3}.st .st-exec{fill:#37474f}"
             ".st .st-msg{fill:#0d47a1}.st .st-reply{fill:#1b5e20}.st .st-note{fill:#6d4c41;font-style:italic}"
             ".st .st-good{fill:#1b5e20;font-weight:bold}.st .st-bad{fill:#c62828;font-weight:bold}"
             ".st .st-warn{fill:#e65100}.st .st-fault{fill:#bf360c;font-weight:bold}"
             ".st .st-cross{stroke:#c62828;stroke-width:3}.st .st-hold{fill:#1e88e5;opacity:0.55}"
             ".st .st-pause{fill:#ff9800;opacity:0.3}.st .st-down{fill:#424242;opacity:0.45}"
             ".st .st-gap{stroke:#bdbdbd;stroke-dasharray:2 6}.st .st-gaptext{fill:#757575;font-style:italic}"
             ".st .st-time{fill:#757575;font-size:12px}.st .st-banner{stroke:#ff9800;stroke-width:2;stroke-dasharray:8 4}"
             ".st .st-dot{fill:#757575}"
             "</style></defs>\n");
    buf_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, s.height);
    label(out, 16, 30, "start", "st-title", sc && sc->name ? sc->name : "space-time diagram", 200);
    label(out, 16, 52, "start", "st-sub", "time flows downward; arrows: request → node runs it → reply; a slot per event, "
                                           "breaks where nothing happened", 200);
    for (int r = 0; r < s.m.nrows; r++) {
        int x = s.col[s.m.rows[r].actor];
        buf_printf(out, "<line class=\"st-life\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", x, TOP - 4, x, s.height - 60);
        label(out, x, TOP - 12, "middle", "st-actor", s.m.rows[r].name, 32);
    }
    draw_bands(&s, out);
    draw_axis(&s, out);
    for (size_t i = 0; i < s.nx; i++)
        if (!s.x[i].hidden || s.x[i].note) draw_exchange(&s, &s.x[i], out);
    for (size_t i = 0; i < n; i++) {
        hist_kind k = history_at(h, i)->kind;
        if (k == H_REQUEST || k == H_EXEC || k == H_REPLY) continue;
        if (k == H_DROP && s.xof[i] >= 0) continue;
        draw_event(&s, i, out);
    }
    if (s.stopped_at >= 0) {
        buf t;
        buf_init(&t);
        buf_printf(&t, "… the diagram stops here after %d events; the run goes on until ", MAX_SLOTS);
        put_secs(&t, s.m.end_us);
        buf_puts(&t, " (see the narrated trace)");
        label(out, 16, s.height - 30, "start", "st-note", t.p, 200);
        buf_release(&t);
    }
    buf_puts(out, "</svg>\n");
    free(s.x);
    free(s.xof);
    free(s.y);
    free(s.col);
    free(s.boxes);
    tl_release(&s.m);
}

int spacetime_write(const history *h, const scenario *sc, const char *path, buf *err, int *io)
{
    *io = 0;
    buf b;
    buf_init(&b);
    spacetime_svg(h, sc, &b);
    int rc = tl_write_file(path, &b, err, io);
    buf_release(&b);
    return rc;
}
