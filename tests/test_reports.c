/* test_reports.c — the pictures of a run, from hand-made histories: the timeline model
 * (holding, waiting, paused, overlaps, who owns the lock key on each node), the terminal
 * timeline's exact widths, the space-time SVG (balanced tags, deterministic, retry stretches
 * elided, a lost message's ✗ beside its sender, labels with their full text as a <title> and
 * never on one another), and the file writers (unwritable path → -1
 * with io set, nothing left behind). And what a run writes for other programs: JSON strings
 * for any bytes, the Knossos, Porcupine and ShiViz exports, the verdicts document; and the
 * player page's data (JSON strings safe in a <script>, the run as one object). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "export.h"
#include "history.h"
#include "html.h"
#include "scenario.h"
#include "scenario_fixture.h"
#include "timeline.h"

#define MS 1000

static scenario *load(void)
{
    return load_scenario_text("return { name = 'pictures', about = 'a test', protocol = 'distlock',\n"
                     "  clients = { { name = 'A' }, { name = 'B' } }, duration = '20s' }\n");
}

static hist_event *ev(history *h, int64_t t, hist_kind k, int actor, int peer, const char *text, const char *reply)
{
    hist_event *e = history_add(h, t, k, actor, 1700000000000LL + t / 1000);
    e->peer = peer;
    e->a = e->b = -1;
    if (text) e->text = xstrdup(text);
    if (reply) e->reply = xstrdup(reply);
    return e;
}

/* Kleppmann's story: A takes the lock, pauses past the lease, B takes it, both inside. */
static history *gc_story(void)
{
    history *h = history_new();
    int n1 = history_add_actor(h, "n1", 1), a = history_add_actor(h, "A", 0), b = history_add_actor(h, "B", 0);
    ev(h, 0, H_ACQUIRE, a, -1, NULL, NULL);
    ev(h, 0, H_REQUEST, a, n1, "SET lock A NX PX 10000", NULL)->a = 1;
    ev(h, 1 * MS, H_EXEC, n1, a, "SET lock A NX PX 10000", "OK")->a = 1;
    ev(h, 1 * MS, H_KEY_SET, n1, -1, "lock", "\"A\"");
    ev(h, 2 * MS, H_REPLY, a, n1, NULL, "OK")->a = 1;
    ev(h, 2 * MS, H_ACQUIRED, a, -1, NULL, NULL);
    ev(h, 2 * MS, H_CS_ENTER, a, -1, NULL, NULL);
    ev(h, 100 * MS, H_ACQUIRE, b, -1, NULL, NULL);
    for (int i = 0; i < 20; i++) { /* B retries, always refused */
        int64_t t = 100 * MS + i * 400 * MS;
        ev(h, t, H_REQUEST, b, n1, "SET lock B NX PX 10000", NULL)->a = i + 1;
        ev(h, t + MS, H_EXEC, n1, b, "SET lock B NX PX 10000", "nil")->a = i + 1;
        ev(h, t + 2 * MS, H_REPLY, b, n1, NULL, "nil")->a = i + 1;
        if (i == 2) { /* a history is in true-time order: the pause falls between B's tries */
            hist_event *f = ev(h, 1000 * MS, H_FAULT, a, -1, "GC pause of A for 12000 ms", NULL);
            f->fault = FAULT_GC_PAUSE, f->fault_id = 0, f->param_ms = 12000;
        }
    }
    ev(h, 10001 * MS, H_KEY_EXPIRED, n1, -1, "lock", NULL);
    ev(h, 10100 * MS, H_REQUEST, b, n1, "SET lock B NX PX 10000", NULL)->a = 21;
    ev(h, 10101 * MS, H_EXEC, n1, b, "SET lock B NX PX 10000", "OK")->a = 21;
    ev(h, 10101 * MS, H_KEY_SET, n1, -1, "lock", "\"B\"");
    ev(h, 10102 * MS, H_REPLY, b, n1, NULL, "OK")->a = 21;
    ev(h, 10102 * MS, H_ACQUIRED, b, -1, NULL, NULL);
    ev(h, 10102 * MS, H_CS_ENTER, b, -1, NULL, NULL);
    ev(h, 11102 * MS, H_CS_EXIT, b, -1, NULL, NULL);
    ev(h, 11103 * MS, H_KEY_DELETED, n1, -1, "lock", NULL);
    hist_event *fe = ev(h, 13000 * MS, H_FAULT_END, a, -1, "GC pause ends", NULL);
    fe->fault = FAULT_GC_PAUSE, fe->fault_id = 0;
    hist_event *w = ev(h, 15000 * MS, H_WRITE, a, -1, NULL, NULL);
    w->b = 0;
    ev(h, 15000 * MS, H_CS_EXIT, a, -1, NULL, NULL);
    return h;
}

static int count_spans(const tl_model *m, int row, tl_span_kind k, int64_t *from, int64_t *to)
{
    int n = 0;
    for (size_t i = 0; i < m->nspans; i++)
        if (m->spans[i].row == row && m->spans[i].kind == k) {
            if (from) *from = m->spans[i].from_us;
            if (to) *to = m->spans[i].to_us;
            n++;
        }
    return n;
}

static void test_model_client_rows(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = gc_story();
    tl_model m;
    tl_build(h, sc, &m);
    assert_int_equal(m.nrows, 3);
    assert_int_equal(m.nclients, 2);
    assert_string_equal(m.rows[0].name, "A");
    assert_string_equal(m.rows[2].name, "n1");
    int64_t f, t;
    assert_int_equal(count_spans(&m, 0, TL_HOLD, &f, &t), 1);
    assert_int_equal(f, 2 * MS);
    assert_int_equal(t, 15000 * MS);
    assert_int_equal(count_spans(&m, 0, TL_PAUSE, &f, &t), 1);
    assert_int_equal(f, 1000 * MS);
    assert_int_equal(t, 13000 * MS);
    assert_int_equal(count_spans(&m, 1, TL_WAIT, &f, &t), 1);
    assert_int_equal(f, 100 * MS);
    assert_int_equal(t, 10102 * MS);
    /* both inside from B's entry to B's exit, on both rows */
    assert_int_equal(count_spans(&m, 0, TL_OVERLAP, &f, &t), 1);
    assert_int_equal(f, 10102 * MS);
    assert_int_equal(t, 11102 * MS);
    assert_int_equal(count_spans(&m, 1, TL_OVERLAP, NULL, NULL), 1);
    assert_int_equal(m.nfaults, 1);
    assert_int_equal(m.faults[0].to_us, 13000 * MS);
    int rejected = 0;
    for (size_t i = 0; i < m.nmarks; i++) rejected += m.marks[i].kind == TL_WRITE_REJECTED;
    assert_int_equal(rejected, 1);
    tl_release(&m);
    history_free(h);
    scenario_free(sc);
}

static void test_model_node_owner(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = gc_story();
    tl_model m;
    tl_build(h, sc, &m);
    int owned = 0;
    for (size_t i = 0; i < m.nspans; i++) {
        const tl_span *s = &m.spans[i];
        if (s->kind != TL_OWNED) continue;
        assert_int_equal(s->row, 2);
        if (owned == 0) {
            assert_int_equal(s->owner, 0); /* A, until the key expired */
            assert_int_equal(s->to_us, 10001 * MS);
        } else {
            assert_int_equal(s->owner, 1); /* then B, until it deleted it */
            assert_int_equal(s->from_us, 10101 * MS);
            assert_int_equal(s->to_us, 11103 * MS);
        }
        owned++;
    }
    assert_int_equal(owned, 2);
    assert_int_equal(m.rows[0].sym, 'A');
    tl_release(&m);
    history_free(h);
    scenario_free(sc);
}

/* Display columns of a UTF-8 line. */
static int columns(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

static void test_termline_widths_exact(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = gc_story();
    const int widths[] = { 40, 80, 123, 200 };
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        buf out;
        buf_init(&out);
        termline_render(h, sc, widths[w], &out);
        const char *line = out.p;
        int chart = 0;
        while (*line) {
            const char *nl = strchr(line, '\n');
            assert_non_null(nl);
            int cols = columns(line, (size_t)(nl - line));
            if (chart < 4) assert_int_equal(cols, widths[w]); /* 3 rows and the axis */
            else assert_true(cols <= widths[w]);              /* the legend wraps */
            chart++;
            line = nl + 1;
        }
        assert_true(chart >= 5);
        assert_non_null(strstr(out.p, "!"));
        assert_non_null(strstr(out.p, "▒"));
        buf_release(&out);
    }
    history_free(h);
    scenario_free(sc);
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static void test_spacetime_well_formed_and_deterministic(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = gc_story();
    buf a, b;
    buf_init(&a);
    buf_init(&b);
    spacetime_svg(h, sc, &a);
    spacetime_svg(h, sc, &b);
    assert_string_equal(a.p, b.p);
    assert_int_equal(strncmp(a.p, "<svg", 4), 0);
    assert_int_equal(count(a.p, "<svg"), count(a.p, "</svg>"));
    assert_int_equal(count(a.p, "<text"), count(a.p, "</text>"));
    assert_int_equal(count(a.p, "<"), count(a.p, ">"));
    /* B's 20 refusals: the first two, a note for the 17 between, the last */
    assert_non_null(strstr(a.p, "17 more identical"));
    assert_non_null(strstr(a.p, "GC pause of A"));
    buf_release(&a);
    buf_release(&b);
    history_free(h);
    scenario_free(sc);
}

/* The x of actor `name`'s line in a space-time SVG (its heading's x), or -1. */
static int actor_x(const char *svg, const char *name)
{
    for (const char *p = strstr(svg, "<text class=\"st-actor\" x=\""); p; p = strstr(p + 1, "<text class=\"st-actor\" x=\"")) {
        int x;
        const char *gt = strchr(p, '>');
        if (sscanf(p, "<text class=\"st-actor\" x=\"%d\"", &x) == 1 && gt && !strncmp(gt + 1, name, strlen(name)) &&
            gt[1 + strlen(name)] == '<')
            return x;
    }
    return -1;
}

/* A lost message's ✗ sits just past its sender's line toward the target (or, when the target
 * node was down, just short of the target's line), never halfway across on another actor's
 * line: c1's request to n4 was drawn on n2's line, halfway between c1 and n4. */
static void test_spacetime_drop_beside_sender(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = history_new();
    int c1 = history_add_actor(h, "c1", 0), n[4];
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%d", i + 1);
        n[i] = history_add_actor(h, name, 1);
    }
    ev(h, 0, H_REQUEST, c1, n[3], "SET lock c1 NX PX 10000", NULL)->a = 1;
    hist_event *d = ev(h, 0, H_DROP, c1, n[3], "request SET lock c1 NX PX 10000 lost (partition)", NULL);
    d->msg = HM_REQUEST, d->code = HL_PARTITION;
    ev(h, 1 * MS, H_NODE_DOWN, n[1], -1, NULL, NULL);
    ev(h, 2 * MS, H_REQUEST, c1, n[1], "SET lock c1 NX PX 10000", NULL)->a = 2;
    d = ev(h, 3 * MS, H_DROP, c1, n[1], "request SET lock c1 NX PX 10000 lost (node down)", NULL);
    d->msg = HM_REQUEST, d->code = HL_NODE_DOWN;
    buf svg;
    buf_init(&svg);
    spacetime_svg(h, sc, &svg);
    int xc = actor_x(svg.p, "c1"), x2 = actor_x(svg.p, "n2"), x4 = actor_x(svg.p, "n4");
    assert_true(xc >= 0 && x2 > xc && x4 > x2);
    assert_int_equal((xc + x4) / 2, x2); /* the old place of the ✗: on n2's line */
    int centers[8], nc = 0, ndown = 0;
    for (const char *p = strstr(svg.p, "class=\"st-cross\" d=\"M"); p && nc < 8; p = strstr(p + 1, "class=\"st-cross\" d=\"M")) {
        int x1, y1, x2r, y2r;
        assert_int_equal(sscanf(p, "class=\"st-cross\" d=\"M%d %dL%d %d", &x1, &y1, &x2r, &y2r), 4);
        int r = (x2r - x1) / 2, x = x1 + r;
        if (r == 9) { /* n2 going DOWN (a cross on its line) */
            assert_int_equal(x, x2);
            ndown++;
        } else {
            assert_int_equal(r, 7); /* a lost message */
            centers[nc++] = x;
        }
    }
    assert_true(ndown >= 1);
    assert_int_equal(nc, 2);
    assert_true(centers[0] > xc && centers[0] <= xc + 40); /* just past c1, toward n4 */
    assert_true(centers[1] < x2 && centers[1] >= x2 - 40); /* reached n2, which was down */
    assert_non_null(strstr(svg.p, "lost → n4 (partition)"));
    assert_non_null(strstr(svg.p, "lost → n2 (node down)"));
    buf_release(&svg);
    history_free(h);
    scenario_free(sc);
}

/* Labels at a busy instant: a long request is shortened on the picture and whole in its
 * <title>; labels that would cover one another are moved or left out (a dot with the
 * <title>), so no two drawn labels of the body share a line where their text would cross;
 * and the timeout is marked with a glyph DejaVu Sans has (not U+23F1, which it lacks). */
static void test_spacetime_labels_titles_no_overlap(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = history_new();
    int n1 = history_add_actor(h, "n1", 1), a = history_add_actor(h, "A", 0);
    const char *longreq = "EVALSHA distlock/acquire lock A:0123456789abcdef0123456789abcdef 10000";
    ev(h, 0, H_REQUEST, a, n1, longreq, NULL)->a = 1;
    ev(h, 0, H_EXEC, n1, a, longreq, "OK")->a = 1;
    ev(h, 0, H_REQUEST, a, n1, longreq, NULL)->a = 3; /* its label runs under the reply's "→ OK" */
    ev(h, 0, H_REPLY, a, n1, NULL, "OK")->a = 1;
    for (int i = 0; i < 6; i++) {
        hist_event *f = ev(h, 0, H_FAULT, n1, -1, "clock of n1 jumps by 5000 ms and then some more text", NULL);
        f->fault = FAULT_CLOCK_JUMP, f->fault_id = i, f->param_ms = 5000;
    }
    ev(h, 0, H_TIMEOUT, a, n1, NULL, NULL)->a = 2;
    buf svg;
    buf_init(&svg);
    spacetime_svg(h, sc, &svg);
    assert_null(strstr(svg.p, "⏱"));
    assert_non_null(strstr(svg.p, "◷ timeout"));
    assert_non_null(strstr(svg.p, "<title>A → n1: EVALSHA distlock/acquire lock A:0123456789abcdef0123456789abcdef 10000</title>"));
    assert_non_null(strstr(svg.p, "<title>EVALSHA distlock/acquire lock A:0123456789abcdef0123456789abcdef 10000</title>"));
    assert_int_equal(count(svg.p, "<text"), count(svg.p, "</text>"));
    assert_int_equal(count(svg.p, "<title>"), count(svg.p, "</title>"));
    /* every body label (one with a <title>) on its own: no two at the same x within a line */
    int xs[64], ys[64], nl = 0;
    for (const char *p = strstr(svg.p, "<text class=\"st-"); p && nl < 64; p = strstr(p + 1, "<text class=\"st-")) {
        const char *gt = strchr(p, '>');
        if (!gt || strncmp(gt + 1, "<title>", 7)) continue;
        const char *xq = strstr(p, "x=\""), *yq = strstr(p, "y=\"");
        assert_true(xq && yq && xq < gt && yq < gt);
        xs[nl] = atoi(xq + 3);
        ys[nl] = atoi(yq + 3);
        nl++;
    }
    assert_true(nl >= 3);
    /* "→ OK" (end-anchored left of n1's line) and the second request's label (from A's line
     * rightward, past n1's) were drawn 4 px apart; now a line apart at least */
    const char *ok = strstr(svg.p, "<title>→ OK</title>"), *second = strstr(svg.p, "<title>EVALSHA");
    second = second ? strstr(second + 1, "<title>EVALSHA") : NULL;
    assert_non_null(ok);
    assert_non_null(second);
    const char *okt = ok, *sect = second;
    while (okt > svg.p && strncmp(okt, "<text", 5)) okt--;
    while (sect > svg.p && strncmp(sect, "<text", 5)) sect--;
    int yok = atoi(strstr(okt, "y=\"") + 3), ysec = atoi(strstr(sect, "y=\"") + 3);
    assert_true(abs(yok - ysec) >= 13);
    for (int i = 0; i < nl; i++)
        for (int j = i + 1; j < nl; j++)
            if (xs[i] == xs[j]) assert_true(abs(ys[i] - ys[j]) >= 13);
    buf_release(&svg);
    history_free(h);
    scenario_free(sc);
}

/* A drifting clock is carried to its row from the scenario (the history records no rates):
 * the nodes' shared clock, and a client's own. */
static void test_model_rows_drift(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text("return { name = 'drift', about = 'a test', protocol = 'distlock',\n"
                             "  clock = { drift = 0.03 },\n"
                             "  clients = { { name = 'A', clock = { drift = -0.02 } }, { name = 'B' } },\n"
                             "  duration = '20s' }\n");
    history *h = gc_story();
    tl_model m;
    tl_build(h, sc, &m);
    int seen = 0;
    for (int r = 0; r < m.nrows; r++) {
        const tl_row *row = &m.rows[r];
        if (!strcmp(row->name, "n1")) assert_true(row->drift > 0.0299 && row->drift < 0.0301), seen++;
        if (!strcmp(row->name, "A")) assert_true(row->drift < -0.0199 && row->drift > -0.0201), seen++;
        if (!strcmp(row->name, "B")) assert_true(row->drift == 0), seen++;
    }
    assert_int_equal(seen, 3);
    tl_release(&m);
    history_free(h);
    scenario_free(sc);
}

static void test_spacetime_unwritable_path(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = gc_story();
    buf err;
    buf_init(&err);
    int io = 0;
    assert_int_equal(spacetime_write(h, sc, "/nonexistent-dir/x.svg", &err, &io), -1);
    assert_int_equal(io, 1);
    assert_non_null(strstr(err.p, "cannot write '/nonexistent-dir/x.svg'"));
    assert_null(strchr(err.p, '\n'));
    buf_release(&err);
    history_free(h);
    scenario_free(sc);
}

static void test_write_file_leaves_nothing_half_written(void **state)
{
    (void)state;
    char dir[] = "/tmp/locklab-test-reports.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], tmp[400];
    snprintf(path, sizeof path, "%s/out.svg", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    buf content, err;
    buf_init(&content);
    buf_init(&err);
    buf_puts(&content, "<svg/>\n");
    int io = 0;
    assert_int_equal(tl_write_file(path, &content, &err, &io), 0);
    assert_int_equal(access(tmp, F_OK), -1);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char got[32] = { 0 };
    assert_int_equal(fread(got, 1, sizeof got - 1, f), 7);
    fclose(f);
    assert_string_equal(got, "<svg/>\n");
    /* a directory in the way of the rename: -1, io set, no temporary file left */
    char blocked[300];
    snprintf(blocked, sizeof blocked, "%s/sub", dir);
    assert_int_equal(mkdir(blocked, 0755), 0);
    char inner[320];
    snprintf(inner, sizeof inner, "%s/x", blocked);
    assert_int_equal(mkdir(inner, 0755), 0);
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", blocked, (int)getpid());
    assert_int_equal(tl_write_file(blocked, &content, &err, &io), -1);
    assert_int_equal(io, 1);
    assert_int_equal(access(tmp, F_OK), -1);
    rmdir(inner);
    rmdir(blocked);
    remove(path);
    rmdir(dir);
    buf_release(&content);
    buf_release(&err);
}

static void test_plot_path_extension(void **state)
{
    (void)state;
    assert_true(timeline_path_ok("a.png"));
    assert_true(timeline_path_ok("dir/A.SVG"));
    assert_false(timeline_path_ok("a.jpg"));
    assert_false(timeline_path_ok(".png"));
    assert_false(timeline_path_ok("png"));
}

/* ---- what a run writes for other programs ---- */

static void expect_json(const char *s, const char *want)
{
    buf b;
    buf_init(&b);
    json_string(&b, s);
    assert_string_equal(b.p, want);
    buf_release(&b);
}

static void test_json_strings_any_bytes(void **state)
{
    (void)state;
    expect_json("a\"b\\c\n\r\t\x01\x1f\x7f~", "\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u001f\\u007f~\"");
    expect_json("é€😀", "\"é€😀\""); /* valid UTF-8 passes through */
    /* each maximal ill-formed subpart is one U+FFFD, as Python's decode(errors='replace') */
    expect_json("k\xff", "\"k\\ufffd\"");
    expect_json("\xc0\x80", "\"\\ufffd\\ufffd\"");                  /* overlong: C0 never starts one */
    expect_json("\xe2\x82", "\"\\ufffd\"");                          /* a truncated € */
    expect_json("\xe2\x82x", "\"\\ufffdx\"");
    expect_json("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");        /* a surrogate */
    expect_json("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* above U+10FFFF */
    expect_json("\xf0\x9f\x98x", "\"\\ufffdx\"");                    /* a truncated 😀 */
    assert_true(json_utf8_valid("é€😀 \x7f"));
    assert_false(json_utf8_valid("a\xff"));
    buf b;
    buf_init(&b);
    json_field(&b, "text", "ok");
    assert_string_equal(b.p, "\"text\":\"ok\"");
    buf_reset(&b);
    json_field(&b, "text", "\xff");
    assert_string_equal(b.p, "\"text\":\"\\ufffd\",\"text_b64\":\"/w==\"");
    buf_reset(&b);
    json_field(&b, "reply", "a\xff");
    assert_string_equal(b.p, "\"reply\":\"a\\ufffd\",\"reply_b64\":\"Yf8=\"");
    buf_reset(&b);
    json_field(&b, "k", "ab\xff");
    assert_string_equal(b.p, "\"k\":\"ab\\ufffd\",\"k_b64\":\"YWL/\"");
    buf_release(&b);
}

static void test_history_jsonl_binary_safe(void **state)
{
    (void)state;
    history *h = history_new();
    int n1 = history_add_actor(h, "n1", 1);
    ev(h, 3258, H_KEY_SET, n1, -1, "k\xff\"\\\n\x01\x7f\xc3\xa9\xc0\x80", "\"v\"");
    buf b;
    buf_init(&b);
    history_write_jsonl(h, &b);
    assert_string_equal(b.p, "{\"t\":3.258,\"ev\":\"key_set\",\"actor\":\"n1\",\"local\":1700000000003,"
                             "\"text\":\"k\\ufffd\\\"\\\\\\n\\u0001\\u007f\xc3\xa9\\ufffd\\ufffd\","
                             "\"text_b64\":\"a/8iXAoBf8OpwIA=\",\"reply\":\"\\\"v\\\"\"}\n");
    buf_release(&b);
    history_free(h);
}

/* Two clients of n1. A's first acquire times out with its request unanswered (:info; a new
 * process), its second succeeds with token 7 and it releases; B is refused (:fail), then
 * crashes while trying again (:info). */
static history *ops_story(void)
{
    history *h = history_new();
    int n1 = history_add_actor(h, "n1", 1), a = history_add_actor(h, "A", 0), b = history_add_actor(h, "B", 0);
    ev(h, 0, H_ACQUIRE, a, -1, NULL, NULL);
    ev(h, 0, H_REQUEST, a, n1, "SET lock A NX PX 10000", NULL)->a = 1;
    ev(h, 50 * MS, H_ACQUIRE, b, -1, NULL, NULL);
    ev(h, 50 * MS, H_REQUEST, b, n1, "SET lock B NX PX 10000", NULL)->a = 1;
    ev(h, 51 * MS, H_EXEC, n1, b, "SET lock B NX PX 10000", "nil")->a = 1;
    ev(h, 52 * MS, H_REPLY, b, n1, NULL, "nil")->a = 1;
    ev(h, 60 * MS, H_ACQUIRE_FAILED, b, -1, "lock busy", NULL)->code = HO_GAVE_UP;
    ev(h, 100 * MS, H_TIMEOUT, a, -1, NULL, NULL)->a = 1;
    ev(h, 200 * MS, H_ACQUIRE_FAILED, a, -1, "gave up", NULL)->code = HO_GAVE_UP;
    ev(h, 300 * MS, H_ACQUIRE, a, -1, NULL, NULL);
    ev(h, 300 * MS, H_REQUEST, a, n1, "SET lock A NX PX 10000", NULL)->a = 2;
    ev(h, 305 * MS, H_EXEC, n1, a, "SET lock A NX PX 10000", "OK")->a = 2;
    ev(h, 310 * MS, H_REPLY, a, n1, NULL, "OK")->a = 2;
    ev(h, 310 * MS, H_ACQUIRED, a, -1, NULL, NULL)->a = 7;
    ev(h, 400 * MS, H_RELEASE, a, -1, NULL, NULL);
    ev(h, 400 * MS, H_REQUEST, a, n1, "DEL lock", NULL)->a = 3;
    ev(h, 405 * MS, H_EXEC, n1, a, "DEL lock", "1")->a = 3;
    ev(h, 410 * MS, H_REPLY, a, n1, NULL, "1")->a = 3;
    ev(h, 410 * MS, H_RELEASED, a, -1, "released", NULL)->code = HO_RELEASED;
    ev(h, 500 * MS, H_ACQUIRE, b, -1, NULL, NULL);
    ev(h, 600 * MS, H_FAULT, b, -1, "crash of B", NULL)->fault = FAULT_CRASH;
    ev(h, 700 * MS, H_KEY_EXPIRED, n1, -1, "lock", NULL);
    return h;
}

static void test_export_knossos(void **state)
{
    (void)state;
    history *h = ops_story();
    buf b;
    buf_init(&b);
    export_render(h, EXPORT_KNOSSOS, &b);
    const char *want[] = {
        "{:process 0, :type :invoke, :f :acquire, :value nil, :time 0, :index 0, :client \"A\"}\n",
        "{:process 1, :type :invoke, :f :acquire, :value nil, :time 50000000, :index 1, :client \"B\"}\n",
        "{:process 1, :type :fail, :f :acquire, :value nil, :time 60000000, :index 2, :client \"B\", :error \"lock busy\"}\n",
        "{:process 0, :type :info, :f :acquire, :value nil, :time 200000000, :index 3, :client \"A\", :error \"gave up\"}\n",
        "{:process 2, :type :invoke, :f :acquire, :value nil, :time 300000000, :index 4, :client \"A\"}\n",
        "{:process 2, :type :ok, :f :acquire, :value nil, :time 310000000, :index 5, :client \"A\", :token 7}\n",
        "{:process 2, :type :invoke, :f :release, :value nil, :time 400000000, :index 6, :client \"A\"}\n",
        "{:process 2, :type :ok, :f :release, :value nil, :time 410000000, :index 7, :client \"A\"}\n",
        "{:process 1, :type :invoke, :f :acquire, :value nil, :time 500000000, :index 8, :client \"B\"}\n",
        "{:process 1, :type :info, :f :acquire, :value nil, :time 600000000, :index 9, :client \"B\", :error \"the client crashed\"}\n",
    };
    const char *p = strchr(strchr(b.p, '\n') + 1, '\n') + 1; /* after the two comment lines */
    assert_int_equal(strncmp(b.p, "; ", 2), 0);
    for (size_t i = 0; i < LL_ARRAY_LEN(want); i++) {
        assert_int_equal(strncmp(p, want[i], strlen(want[i])), 0);
        p += strlen(want[i]);
    }
    assert_string_equal(p, "");
    buf_release(&b);
    history_free(h);
}

static void test_export_porcupine(void **state)
{
    (void)state;
    history *h = ops_story();
    buf b;
    buf_init(&b);
    export_render(h, EXPORT_PORCUPINE, &b);
    assert_string_equal(
        b.p,
        "[\n"
        "{\"ClientId\":0,\"Input\":{\"op\":\"acquire\",\"client\":\"A\"},\"Call\":0,"
        "\"Output\":{\"outcome\":\"unknown\",\"why\":\"gave up\"},\"Return\":700000000},\n"
        "{\"ClientId\":1,\"Input\":{\"op\":\"acquire\",\"client\":\"B\"},\"Call\":50000000,"
        "\"Output\":{\"outcome\":\"fail\",\"why\":\"lock busy\"},\"Return\":60000000},\n"
        "{\"ClientId\":0,\"Input\":{\"op\":\"acquire\",\"client\":\"A\"},\"Call\":300000000,"
        "\"Output\":{\"outcome\":\"ok\",\"token\":7},\"Return\":310000000},\n"
        "{\"ClientId\":0,\"Input\":{\"op\":\"release\",\"client\":\"A\"},\"Call\":400000000,"
        "\"Output\":{\"outcome\":\"ok\"},\"Return\":410000000},\n"
        "{\"ClientId\":1,\"Input\":{\"op\":\"acquire\",\"client\":\"B\"},\"Call\":500000000,"
        "\"Output\":{\"outcome\":\"unknown\",\"why\":\"the client crashed\"},\"Return\":700000000}\n"
        "]\n");
    buf_reset(&b);
    history *empty = history_new();
    export_render(empty, EXPORT_PORCUPINE, &b);
    assert_string_equal(b.p, "[]\n");
    history_free(empty);
    buf_release(&b);
    history_free(h);
}

static void test_export_shiviz(void **state)
{
    (void)state;
    history *h = ops_story();
    buf b;
    buf_init(&b);
    export_render(h, EXPORT_SHIVIZ, &b);
    /* the regex, the empty delimiter line, then a line per event; the clocks: a request's
     * clock reaches the node at its exec, the exec's the client at its reply. A's first
     * request was never run: n1 hears of A only from its second, sent at A's 6th event */
    const char *want = "(?<host>\\S+) (?<clock>\\{[^}]*\\}) (?<event>.*)\n"
                       "\n"
                       "A {\"A\":1} 0.000s tries to acquire the lock\n"
                       "A {\"A\":2} 0.000s → n1  SET lock A NX PX 10000\n"
                       "B {\"B\":1} 0.050s tries to acquire the lock\n"
                       "B {\"B\":2} 0.050s → n1  SET lock B NX PX 10000\n"
                       "n1 {\"n1\":1,\"B\":2} 0.051s runs SET lock B NX PX 10000 for B → nil\n"
                       "B {\"n1\":1,\"B\":3} 0.052s ← n1  nil\n";
    assert_int_equal(strncmp(b.p, want, strlen(want)), 0);
    assert_non_null(strstr(b.p, "\nn1 {\"n1\":2,\"A\":6,\"B\":2} 0.305s runs SET lock A NX PX 10000 for A → OK\n"));
    assert_non_null(strstr(b.p, "\nA {\"n1\":2,\"A\":7,\"B\":2} 0.310s ← n1  OK\n"));
    assert_non_null(strstr(b.p, "\nB {\"n1\":1,\"B\":6} 0.600s ⚡ crash of B\n"));
    buf_release(&b);
    history_free(h);
}

static void test_verdicts_document(void **state)
{
    (void)state;
    scenario *sc = load_scenario_text("return { name = 'verdicts', about = 'a test', protocol = 'distlock',\n"
                                      "  clients = { { name = 'A' }, { name = 'B' } }, duration = '20s',\n"
                                      "  expect = { mutual_exclusion = 'violated', no_deadlock = 'violated' } }\n");
    history *h = gc_story();
    check_result cr;
    check_run(h, sc, &cr);
    buf b;
    buf_init(&b);
    verdicts_render(h, sc, &cr, 7, NULL, &b);
    assert_non_null(strstr(b.p, "{\"format\":\"locklab-verdicts\",\"version\":1,\n \"scenario\":\"verdicts\",\n"));
    assert_non_null(strstr(b.p, "\n \"seed\":7,\n"));
    /* B entered at 10.102 s while A was inside; the events then: B's reply, acquired, cs_enter */
    assert_non_null(strstr(b.p, "{\"property\":\"mutual_exclusion\",\"verdict\":\"violated\",\"expected\":\"violated\","
                                "\"met\":true,\n   \"at\":10102.000,\"events_at\":[73,74,75],\n"));
    assert_int_equal(history_at(h, 75)->kind, H_CS_ENTER);
    assert_non_null(strstr(b.p, "\"faults\":[{\"target\":\"A\",\"text\":\"GC pause of A for 12000 ms\",\"from\":1000.000,"
                                "\"from_event\":17,\"to\":13000.000,\"to_event\":78}]"));
    assert_non_null(strstr(b.p, "{\"property\":\"no_deadlock\",\"verdict\":\"holds\",\"expected\":\"violated\",\"met\":false}"));
    assert_non_null(strstr(b.p, "\"expectations\":{\"stated\":2,\"met\":1,\"unmet\":1}\n}\n"));
    for (size_t i = 73; i <= 75; i++) assert_int_equal(history_at(h, i)->t_us, 10102 * MS);
    buf_reset(&b);
    verdicts_render(h, sc, NULL, 7, "client A: it failed", &b); /* a run that failed: not judged */
    assert_non_null(strstr(b.p, "\"error\":\"client A: it failed\""));
    assert_non_null(strstr(b.p, "{\"property\":\"mutual_exclusion\",\"verdict\":\"not_judged\",\"expected\":\"violated\","
                                "\"met\":false}"));
    assert_null(strstr(b.p, "release_safety"));
    check_free(&cr);
    buf_release(&b);
    history_free(h);
    scenario_free(sc);
}

/* ---- the player page's data ---- */

static void expect_html_json(const char *in, size_t n, const char *want)
{
    buf b;
    buf_init(&b);
    html_json_str(&b, in, n);
    assert_string_equal(b.p, want);
    buf_release(&b);
}

/* Quotes, controls and the characters that could end a <script> are escaped; valid UTF-8
 * passes; any other byte becomes the text \xHH (overlong forms and surrogates included). */
static void test_html_json_strings(void **state)
{
    (void)state;
    expect_html_json("a</script>\"\\\n\t&", 15, "\"a\\u003c/script\\u003e\\\"\\\\\\n\\t\\u0026\"");
    expect_html_json("\x01\x7f", 2, "\"\\u0001\\u007f\"");
    expect_html_json("caf\xc3\xa9 \xe2\x9c\x97", 9, "\"caf\xc3\xa9 \xe2\x9c\x97\"");
    expect_html_json("\xff\xc3", 2, "\"\\\\xff\\\\xc3\"");
    expect_html_json("\xc0\xaf\xed\xa0\x80", 5, "\"\\\\xc0\\\\xaf\\\\xed\\\\xa0\\\\x80\"");
    expect_html_json("a\0b", 3, "\"a\\u0000b\"");
}

/* The run's object: every event with its narrated line, the timeline, the verdicts with the
 * instant a property broke; nothing in it can close the <script> element it sits in. */
static void test_html_run_json(void **state)
{
    (void)state;
    scenario *sc = load();
    history *h = gc_story();
    check_result cr;
    check_run(h, sc, &cr);
    buf b;
    buf_init(&b);
    html_run_json(h, sc, &cr, 1, &b);
    char total[32];
    snprintf(total, sizeof total, "\"total\":%zu", history_len(h));
    assert_non_null(strstr(b.p, total));
    assert_non_null(strstr(b.p, "ACQUIRED the lock"));
    assert_non_null(strstr(b.p, "{\"name\":\"mutual_exclusion\",\"verdict\":\"violated\",\"at\":10102000,"));
    assert_non_null(strstr(b.p, "\"timeline\":{\"rows\":[{\"name\":\"A\",\"node\":0,"));
    assert_null(strchr(b.p, '<'));
    buf c;
    buf_init(&c);
    html_run_json(h, sc, &cr, 1, &c);
    assert_string_equal(b.p, c.p);
    buf_release(&b);
    buf_release(&c);
    check_free(&cr);
    history_free(h);
    scenario_free(sc);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_client_rows),
        cmocka_unit_test(test_model_node_owner),
        cmocka_unit_test(test_termline_widths_exact),
        cmocka_unit_test(test_spacetime_well_formed_and_deterministic),
        cmocka_unit_test(test_spacetime_drop_beside_sender),
        cmocka_unit_test(test_spacetime_labels_titles_no_overlap),
        cmocka_unit_test(test_model_rows_drift),
        cmocka_unit_test(test_spacetime_unwritable_path),
        cmocka_unit_test(test_write_file_leaves_nothing_half_written),
        cmocka_unit_test(test_plot_path_extension),
        cmocka_unit_test(test_json_strings_any_bytes),
        cmocka_unit_test(test_history_jsonl_binary_safe),
        cmocka_unit_test(test_export_knossos),
        cmocka_unit_test(test_export_porcupine),
        cmocka_unit_test(test_export_shiviz),
        cmocka_unit_test(test_verdicts_document),
        cmocka_unit_test(test_html_json_strings),
        cmocka_unit_test(test_html_run_json),
    };
    return cmocka_run_group_tests_name("reports", tests, NULL, NULL);
}
