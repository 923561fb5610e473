/* test_reply.c — replies as values and their renderings: RESP2 bytes, and the exact text
 * redis-cli --no-raw prints (checked against redis-cli 7.0.15 output). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reply.h"

static char *cli(const reply *r)
{
    buf b;
    buf_init(&b);
    reply_to_cli(r, &b);
    return buf_steal(&b);
}

static void test_reply_cli_nested_arrays(void **state)
{
    (void)state;
    /* EVAL "return {1,{2,{3,'x'}},4,{},'a\nb'}" 0 */
    reply r;
    reply_init(&r);
    reply *e = reply_array(&r, 5);
    reply_int(&e[0], 1);
    reply *e1 = reply_array(&e[1], 2);
    reply_int(&e1[0], 2);
    reply *e11 = reply_array(&e1[1], 2);
    reply_int(&e11[0], 3);
    reply_bulk_cstr(&e11[1], "x");
    reply_int(&e[2], 4);
    reply_array(&e[3], 0);
    reply_bulk_cstr(&e[4], "a\nb");
    char *s = cli(&r);
    assert_string_equal(s, "1) (integer) 1\n"
                           "2) 1) (integer) 2\n"
                           "   2) 1) (integer) 3\n"
                           "      2) \"x\"\n"
                           "3) (integer) 4\n"
                           "4) (empty array)\n"
                           "5) \"a\\nb\"\n");
    free(s);
    reply_release(&r);
}

static void test_reply_cli_index_width(void **state)
{
    (void)state;
    reply r;
    reply_init(&r);
    reply *e = reply_array(&r, 11);
    for (int i = 0; i < 11; i++) reply_array(&e[i], 1), reply_int(&e[i].elem[0], i + 1);
    char *s = cli(&r);
    assert_true(strncmp(s, " 1) 1) (integer) 1\n 2) 1) (integer) 2\n", 38) == 0);
    assert_non_null(strstr(s, "11) 1) (integer) 11\n"));
    free(s);
    reply_release(&r);
}

static void test_reply_cli_scalars(void **state)
{
    (void)state;
    reply r;
    reply_init(&r);
    char *s = cli(&r);
    assert_string_equal(s, "(nil)\n");
    free(s);
    reply_error(&r, "ERR boom");
    s = cli(&r);
    assert_string_equal(s, "(error) ERR boom\n");
    free(s);
    reply_status(&r, "OK");
    s = cli(&r);
    assert_string_equal(s, "OK\n");
    free(s);
    reply_bulk(&r, "\x01\"\\\t", 4);
    s = cli(&r);
    assert_string_equal(s, "\"\\x01\\\"\\\\\\t\"\n");
    free(s);
    reply_release(&r);
}

static void test_reply_resp_and_copy(void **state)
{
    (void)state;
    reply r, c;
    reply_init(&r);
    reply_init(&c);
    reply *e = reply_array(&r, 3);
    reply_int(&e[0], -3);
    reply_nil(&e[1]);
    reply_bulk_cstr(&e[2], "");
    buf b;
    buf_init(&b);
    reply_to_resp(&r, &b);
    assert_string_equal(b.p, "*3\r\n:-3\r\n$-1\r\n$0\r\n\r\n");
    reply_copy(&c, &r);
    assert_true(reply_equal(&c, &r));
    reply_int(&c.elem[0], 4);
    assert_false(reply_equal(&c, &r));
    buf_release(&b);
    reply_release(&r);
    reply_release(&c);
}

static void test_reply_double_formatting(void **state)
{
    (void)state;
    reply r;
    reply_init(&r);
    struct { double d; const char *s; } cases[] = {
        { 1700000000000.0, "1700000000000" }, { 0.1, "0.10000000000000001" }, { 1e17, "1e+17" },
        { 3.0, "3" }, { -2, "-2" }, { INFINITY, "inf" }, { -INFINITY, "-inf" },
        { 123456789012345678.0, "1.2345678901234568e+17" }, { 1e-5, "1.0000000000000001e-05" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        reply_double(&r, cases[i].d);
        assert_string_equal(r.str, cases[i].s);
    }
    reply_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reply_cli_nested_arrays),
        cmocka_unit_test(test_reply_cli_index_width),
        cmocka_unit_test(test_reply_cli_scalars),
        cmocka_unit_test(test_reply_resp_and_copy),
        cmocka_unit_test(test_reply_double_formatting),
    };
    return cmocka_run_group_tests_name("reply", tests, NULL, NULL);
}
