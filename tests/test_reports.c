/* test_reports.c — the pictures of a run, from hand-made histories: the timeline model
 * (holding, waiting, paused, overlaps, who owns the lock key on each node), the terminal
 * timeline's exact widths, the space-time SVG (balanced tags, deterministic, retry stretches
 * elided), the player page's data (JSON strings safe in a <script> and valid UTF-8 for any
 * bytes; the run as one object), and the file writers (unwritable path → -1 with io set,
 * nothing left behind). */
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
#include "history.h"
#include "html.h"
#include "scenario.h"
#include "timeline.h"

#define MS 1000

static scenario *load(void)
{
    buf err;
    buf_init(&err);
    scenario *sc = scenario_load_string("inline.lua",
                                        "return { name = 'pictures', about = 'a test', protocol = 'distlock',\n"
                                        "  clients = { { name = 'A' }, { name = 'B' } }, duration = '20s' }\n",
                                        &err);
    if (!sc) fail_msg("scenario did not load: %s", err.p);
    buf_release(&err);
    return sc;
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
    }
    ev(h, 1000 * MS, H_FAULT, a, -1, "GC pause of A for 12000 ms", NULL);
    ev(h, 10001 * MS, H_KEY_EXPIRED, n1, -1, "lock", NULL);
    ev(h, 10100 * MS, H_REQUEST, b, n1, "SET lock B NX PX 10000", NULL)->a = 21;
    ev(h, 10101 * MS, H_EXEC, n1, b, "SET lock B NX PX 10000", "OK")->a = 21;
    ev(h, 10101 * MS, H_KEY_SET, n1, -1, "lock", "\"B\"");
    ev(h, 10102 * MS, H_REPLY, b, n1, NULL, "OK")->a = 21;
    ev(h, 10102 * MS, H_ACQUIRED, b, -1, NULL, NULL);
    ev(h, 10102 * MS, H_CS_ENTER, b, -1, NULL, NULL);
    ev(h, 11102 * MS, H_CS_EXIT, b, -1, NULL, NULL);
    ev(h, 11103 * MS, H_KEY_DELETED, n1, -1, "lock", NULL);
    ev(h, 13000 * MS, H_FAULT_END, a, -1, "GC pause ends", NULL);
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
            if (from) *from = m->spans[i].from;
            if (to) *to = m->spans[i].to;
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
    assert_int_equal(m.faults[0].to, 13000 * MS);
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
            assert_int_equal(s->to, 10001 * MS);
        } else {
            assert_int_equal(s->owner, 1); /* then B, until it deleted it */
            assert_int_equal(s->from, 10101 * MS);
            assert_int_equal(s->to, 11103 * MS);
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

static void expect_json(const char *in, size_t n, const char *want)
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
    expect_json("a</script>\"\\\n\t&", 15, "\"a\\u003c/script\\u003e\\\"\\\\\\n\\t\\u0026\"");
    expect_json("\x01\x7f", 2, "\"\\u0001\\u007f\"");
    expect_json("caf\xc3\xa9 \xe2\x9c\x97", 9, "\"caf\xc3\xa9 \xe2\x9c\x97\"");
    expect_json("\xff\xc3", 2, "\"\\\\xff\\\\xc3\"");
    expect_json("\xc0\xaf\xed\xa0\x80", 5, "\"\\\\xc0\\\\xaf\\\\xed\\\\xa0\\\\x80\"");
    expect_json("a\0b", 3, "\"a\\u0000b\"");
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
        cmocka_unit_test(test_spacetime_unwritable_path),
        cmocka_unit_test(test_write_file_leaves_nothing_half_written),
        cmocka_unit_test(test_plot_path_extension),
        cmocka_unit_test(test_html_json_strings),
        cmocka_unit_test(test_html_run_json),
    };
    return cmocka_run_group_tests_name("reports", tests, NULL, NULL);
}
