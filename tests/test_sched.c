/* test_sched.c — the event queue and the chooser: (time, seq) order, FIFO ties, per-actor
 * order under chosen ties, deterministic PRNG, recording and replay of decisions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "chooser.h"
#include "sched.h"

static void test_sched_orders_by_time_then_fifo(void **state)
{
    (void)state;
    sched *s = sched_new();
    sched_push(s, 30, 0, 0, 0, NULL);
    sched_push(s, 10, 1, 0, 0, NULL);
    sched_push(s, 10, 2, 0, 0, NULL);
    sched_push(s, 20, 3, 0, 0, NULL);
    int kinds[4];
    event e;
    for (int i = 0; i < 4; i++) {
        assert_true(sched_pop(s, NULL, &e));
        kinds[i] = e.kind;
    }
    assert_false(sched_pop(s, NULL, &e));
    assert_int_equal(kinds[0], 1);
    assert_int_equal(kinds[1], 2);
    assert_int_equal(kinds[2], 3);
    assert_int_equal(kinds[3], 0);
    sched_free(s, NULL);
}

static void test_sched_ties_keep_per_actor_order(void **state)
{
    (void)state;
    /* Whatever the chooser picks, actor 7's events come out in push order. */
    for (uint64_t seed = 1; seed < 50; seed++) {
        chooser *ch = chooser_new(CHOOSER_RUN, seed);
        sched *s = sched_new();
        for (int i = 0; i < 6; i++) sched_push(s, 5, i, i % 2 ? 7 : 8, 0, NULL);
        int last7 = -1, last8 = -1;
        event e;
        while (sched_pop(s, ch, &e)) {
            if (e.actor == 7) {
                assert_true(e.kind > last7);
                last7 = e.kind;
            } else {
                assert_true(e.kind > last8);
                last8 = e.kind;
            }
        }
        sched_free(s, NULL);
        chooser_free(ch);
    }
}

static void test_chooser_is_deterministic_and_replays(void **state)
{
    (void)state;
    chooser *a = chooser_new(CHOOSER_RUN, 42);
    int64_t v1[20];
    for (int i = 0; i < 20; i++) v1[i] = i % 2 ? chooser_pick(a, 10, "p") : chooser_range(a, 1000, 5000, "r");
    chooser_reset(a);
    for (int i = 0; i < 20; i++)
        assert_int_equal(i % 2 ? chooser_pick(a, 10, "p") : chooser_range(a, 1000, 5000, "r"), v1[i]);
    size_t n;
    const choice *rec = chooser_record(a, &n);
    assert_int_equal(n, 20);
    buf b;
    buf_init(&b);
    chooser_write(a, &b);
    choice *parsed;
    size_t np;
    buf err;
    buf_init(&err);
    assert_int_equal(chooser_parse(b.p, &parsed, &np, &err), 0);
    assert_int_equal(np, 20);
    chooser *r = chooser_new(CHOOSER_REPLAY, 999);
    chooser_set_script(r, parsed, np);
    for (int i = 0; i < 20; i++)
        assert_int_equal(i % 2 ? chooser_pick(r, 10, "p") : chooser_range(r, 1000, 5000, "r"), rec[i].value);
    assert_false(chooser_exhausted(r));
    chooser_pick(r, 3, "extra");
    assert_true(chooser_exhausted(r));
    free(parsed);
    buf_release(&b);
    buf_release(&err);
    chooser_free(a);
    chooser_free(r);
}

static void test_chooser_seeds_differ(void **state)
{
    (void)state;
    chooser *a = chooser_new(CHOOSER_RUN, 1), *b = chooser_new(CHOOSER_RUN, 2);
    int same = 1;
    for (int i = 0; i < 10; i++)
        if (chooser_range(a, 0, 1000000, "r") != chooser_range(b, 0, 1000000, "r")) same = 0;
    assert_false(same);
    chooser_free(a);
    chooser_free(b);
}

/* EXPLORE: every value of a range is an alternative, by its offset from the low end (the
 * default, 0); the record keeps the offset and, as `real`, the value the run got. */
static void test_chooser_explore_offers_every_value_of_a_range(void **state)
{
    (void)state;
    chooser *c = chooser_new(CHOOSER_EXPLORE, 0);
    assert_int_equal(chooser_range(c, 1000, 5000, "delay"), 1000);
    choice script[] = { { 1234, 4001, 1, NULL, 2234 } };
    chooser_reset(c);
    chooser_set_script(c, script, 1);
    assert_int_equal(chooser_range(c, 1000, 5000, "delay"), 2234);
    size_t n;
    const choice *rec = chooser_record(c, &n);
    assert_int_equal(n, 1);
    assert_int_equal(rec[0].n, 4001);
    assert_int_equal(rec[0].value, 1234);
    assert_int_equal(rec[0].real, 2234);
    /* an offset past the range is its default */
    script[0].value = 9999;
    chooser_reset(c);
    chooser_set_script(c, script, 1);
    assert_int_equal(chooser_range(c, 1000, 5000, "delay"), 1000);
    /* the whole int64 range: no overflow */
    chooser_reset(c);
    chooser_set_script(c, NULL, 0);
    assert_int_equal(chooser_range(c, INT64_MIN, INT64_MAX, "random"), INT64_MIN);
    chooser_free(c);
}

static void test_chooser_parse_rejects_garbage(void **state)
{
    (void)state;
    choice *v = NULL;
    size_t n;
    buf err;
    buf_init(&err);
    assert_int_equal(chooser_parse("# c\n1/2 x\nbogus\n", &v, &n, &err), -1);
    assert_string_equal(err.p, "line 3: expected 'value/alternatives label'");
    buf_release(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sched_orders_by_time_then_fifo),
        cmocka_unit_test(test_sched_ties_keep_per_actor_order),
        cmocka_unit_test(test_chooser_is_deterministic_and_replays),
        cmocka_unit_test(test_chooser_seeds_differ),
        cmocka_unit_test(test_chooser_explore_offers_every_value_of_a_range),
        cmocka_unit_test(test_chooser_parse_rejects_garbage),
    };
    return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
