/* test_resp.c — the request parser of sim/redis/resp.c: requests cut as redis-server 7.0.15
 * cuts them (multibulk and inline, mixed in one buffer, arriving a byte at a time), the
 * protocol errors it answers (texts observed on the real server), and what is not an error
 * there (empty requests, the unchecked two bytes after a bulk, a NUL hiding a newline). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "resp.h"

/* Parses text (fed a byte at a time when trickle) and renders the requests as
 * "word word|word|...\n", then "more" or "error: <text>". */
static void parse(const char *text, size_t len, int trickle, buf *out)
{
    resp_parser p;
    resp_parser_init(&p);
    buf q, err;
    buf_init(&q);
    buf_init(&err);
    buf_puts(&q, "");
    size_t pos = 0, fed = 0;
    resp_status st = RESP_MORE;
    while (fed < len && st != RESP_ERROR) {
        size_t n = trickle ? 1 : len;
        buf_append(&q, text + fed, n);
        fed += n;
        while ((st = resp_parse(&p, q.p, q.len, &pos, &err)) == RESP_COMMAND) {
            for (int i = 0; i < p.args.argc; i++) {
                if (i) buf_putc(out, '|');
                buf_append(out, p.args.argv[i], p.args.len[i]);
            }
            buf_putc(out, '\n');
        }
    }
    buf_printf(out, st == RESP_ERROR ? "error: %s" : "more", err.p);
    resp_parser_release(&p);
    buf_release(&q);
    buf_release(&err);
}

static void expect_parse(const char *text, size_t len, const char *want)
{
    for (int trickle = 0; trickle < 2; trickle++) {
        buf out;
        buf_init(&out);
        parse(text, len, trickle, &out);
        assert_string_equal(out.p, want);
        buf_release(&out);
    }
}

#define EXPECT(lit, want) expect_parse((lit), sizeof(lit) - 1, (want))

static void test_resp_cuts_multibulk_and_inline_requests(void **state)
{
    (void)state;
    EXPECT("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n", "GET|k\nmore");
    EXPECT("PING\r\nset a \"b c\"\r\nGET a\n", "PING\nset|a|b c\nGET|a\nmore");
    EXPECT("*1\r\n$4\r\nPING\r\nPING\r\n*2\r\n$4\r\nECHO\r\n$3\r\nx\0y\r\n", "PING\nPING\nECHO|x\0y\nmore");
    EXPECT("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n", "ECHO|\nmore");
    EXPECT("*2\r\n$4\r\nECHO\r\n$1\r\n", "more");
    EXPECT("echo a\rb\r\n", "echo|a|b\nmore");
}

static void test_resp_skips_what_redis_skips(void **state)
{
    (void)state;
    EXPECT("*-5\r\n*0\r\n\r\n\r\nPING\r\n", "PING\nmore");
    EXPECT("*1\r\n$4\r\nPINGxx*1\r\n$4\r\nPING\r\n", "PING\nPING\nmore");
    EXPECT("echo a\0b\r\n", "more"); /* strchr stops at the NUL: no newline yet */
    EXPECT("*1\n$4\nPING\n", "more");
}

static void test_resp_protocol_errors(void **state)
{
    (void)state;
    EXPECT("*abc\r\n", "error: Protocol error: invalid multibulk length");
    EXPECT("*2147483648\r\n", "error: Protocol error: invalid multibulk length");
    EXPECT("*01\r\n", "error: Protocol error: invalid multibulk length");
    EXPECT("*-0\r\n", "error: Protocol error: invalid multibulk length");
    EXPECT("*1\r\nPING\r\n", "error: Protocol error: expected '$', got 'P'");
    EXPECT("*1\r\n\r\n", "error: Protocol error: expected '$', got ' '");
    EXPECT("*1\r\n$-1\r\n", "error: Protocol error: invalid bulk length");
    EXPECT("*1\r\n$+4\r\n", "error: Protocol error: invalid bulk length");
    EXPECT("*1\r\n$536870913\r\n", "error: Protocol error: invalid bulk length");
    EXPECT("*1\r\n$1073741824\r\n", "error: Protocol error: invalid bulk length");
    EXPECT("PING\r\nset a \"b\r\n", "PING\nerror: Protocol error: unbalanced quotes in request");
}

static void test_resp_long_lines_are_errors(void **state)
{
    (void)state;
    static const struct { const char *prefix, *want; } cases[] = {
        { "", "error: Protocol error: too big inline request" },
        { "*", "error: Protocol error: too big mbulk count string" },
        { "*1\r\n$", "error: Protocol error: too big bulk count string" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf in, out;
        buf_init(&in);
        buf_init(&out);
        buf_puts(&in, cases[i].prefix);
        while (in.len <= RESP_INLINE_MAX + 8) buf_putc(&in, '1');
        parse(in.p, in.len, 0, &out);
        assert_string_equal(out.p, cases[i].want);
        buf_release(&in);
        buf_release(&out);
    }
}

static void test_resp_split_is_sdssplitargs(void **state)
{
    (void)state;
    resp_args a;
    assert_int_equal(resp_split("set k \"a\\x41\\n\" 'it\\'s'", &a), 0);
    assert_int_equal(a.argc, 4);
    assert_string_equal(a.argv[2], "aA\n");
    assert_string_equal(a.argv[3], "it's");
    resp_args_release(&a);
    assert_int_equal(resp_split("get \"k", &a), -1);
    assert_int_equal(a.argc, 0);
    assert_int_equal(resp_split("get \"k\"x", &a), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resp_cuts_multibulk_and_inline_requests),
        cmocka_unit_test(test_resp_skips_what_redis_skips),
        cmocka_unit_test(test_resp_protocol_errors),
        cmocka_unit_test(test_resp_long_lines_are_errors),
        cmocka_unit_test(test_resp_split_is_sdssplitargs),
    };
    return cmocka_run_group_tests_name("resp", tests, NULL, NULL);
}
