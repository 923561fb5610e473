/* test_repl.c — the REPL's tokenizer (every quoting rule, with the words redis-cli 7.0.15
 * produced for the same lines, observed by pushing them into a list on a real server), the
 * session's meta-commands, and the transcript parser and checker. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "repl.h"

/* Splits line and checks the words; words are given as (pointer, length) pairs so that
 * binary words (NUL, \x0b) can be checked too. */
static void expect_words(const char *line, int n, ...)
{
    repl_args a;
    assert_int_equal(repl_split(line, &a), 0);
    assert_int_equal(a.argc, n);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *w = va_arg(ap, const char *);
        size_t len = va_arg(ap, size_t);
        assert_int_equal(a.len[i], len);
        assert_memory_equal(a.argv[i], w, len);
        assert_int_equal(a.argv[i][len], '\0');
    }
    va_end(ap);
    repl_args_release(&a);
}

#define W(s) (s), (sizeof(s) - 1)

static void expect_invalid(const char *line)
{
    repl_args a;
    assert_int_equal(repl_split(line, &a), -1);
    assert_int_equal(a.argc, 0);
    assert_null(a.argv);
}

static void test_split_plain_words(void **state)
{
    (void)state;
    expect_words("set k v", 3, W("set"), W("k"), W("v"));
    expect_words("   get    k   ", 2, W("get"), W("k"));
    expect_words("rpush l\ttab\tsep", 4, W("rpush"), W("l"), W("tab"), W("sep"));
    expect_words("", 0);
    expect_words("  \t ", 0);
}

static void test_split_vertical_tab_is_blank_only_between_words(void **state)
{
    (void)state;
    /* redis-cli: "rpush l \x0bv\x0b w" pushed "v\x0b" and "w": isspace() skips \v between
     * words, but only ' ', \n, \r, \t end a word. */
    expect_words("rpush l \x0bv\x0b w", 4, W("rpush"), W("l"), W("v\x0b"), W("w"));
}

static void test_split_double_quote_escapes(void **state)
{
    (void)state;
    /* redis-cli stored "aAx4gq\"\\\n\r\t\b\a" for this line. */
    expect_words("rpush l \"a\\x41\\x4g\\q\\\"\\\\\\n\\r\\t\\b\\a\"", 3, W("rpush"), W("l"),
                 W("aAx4gq\"\\\n\r\t\b\a"));
    expect_words("\"\\xZZ\\x4\"", 1, W("xZZx4"));
    expect_words("\"\\x00\\xff\\xFf\"", 1, "\0\xff\xff", (size_t)3);
    expect_words("\"a b\" c", 2, W("a b"), W("c"));
}

static void test_split_single_quotes_know_only_quote(void **state)
{
    (void)state;
    expect_words("rpush l 'it\\'s \\n \"x\"'", 3, W("rpush"), W("l"), W("it's \\n \"x\""));
    expect_words("'a\\b'", 1, W("a\\b"));
}

static void test_split_empty_quoted_words(void **state)
{
    (void)state;
    expect_words("rpush l \"\"   ''", 4, W("rpush"), W("l"), W(""), W(""));
}

static void test_split_quote_inside_word(void **state)
{
    (void)state;
    /* a'b' is one word "ab"; a"b c" would be too, were the quote closed at a blank. */
    expect_words("rpush l a'b'", 3, W("rpush"), W("l"), W("ab"));
    expect_words("x\"a b\" y", 2, W("xa b"), W("y"));
}

static void test_split_quote_must_close_before_blank(void **state)
{
    (void)state;
    expect_invalid("rpush l a\"b c\"d");
    expect_invalid("rpush l \"x\"y");
    expect_invalid("rpush l 'x'y");
    /* a blank after the quote may be any isspace(), the end of the line too */
    expect_words("\"x\"\x0b", 1, W("x"));
    expect_words("'x'", 1, W("x"));
}

static void test_split_unbalanced_quotes(void **state)
{
    (void)state;
    expect_invalid("rpush l \"unterminated");
    expect_invalid("rpush l 'unterminated");
    expect_invalid("rpush l \"a\\");
    expect_invalid("\"");
    expect_invalid("'");
    expect_invalid("'it\\'");
}

/* ---- a session ---- */

/* Library memory is freed by library functions (buf_release): under UNIT_TESTING cmocka
 * replaces free() in this file with its own checked allocator's. */
static void run(repl *r, const char *line, buf *got)
{
    buf_init(got);
    buf_puts(got, "");
    repl_exec_line(r, line, got);
}

static void expect_output(repl *r, const char *line, const char *want)
{
    buf got;
    run(r, line, &got);
    assert_string_equal(got.p, want);
    buf_release(&got);
}

static void test_session_prints_like_redis_cli(void **state)
{
    (void)state;
    repl *r = repl_new(NULL);
    expect_output(r, "set k \"a\\nb\"", "OK\n");
    expect_output(r, "GET k", "\"a\\nb\"\n");
    expect_output(r, "get nope", "(nil)\n");
    expect_output(r, "", "");
    expect_output(r, "   ", "");
    expect_output(r, "set x \"oops", "Invalid argument(s)\n");
    expect_output(r, "3 incr n", "(integer) 1\n(integer) 2\n(integer) 3\n");
    expect_output(r, "0 incr n", "Invalid redis-cli repeat command option value.\n");
    expect_output(r, "rpush l a b", "(integer) 2\n");
    expect_output(r, "lrange l 0 -1", "1) \"a\"\n2) \"b\"\n");
    expect_output(r, "get", "(error) ERR wrong number of arguments for 'get' command\n");
    repl_free(r);
}

static void test_session_quit_ends(void **state)
{
    (void)state;
    repl *r = repl_new(NULL);
    buf b;
    buf_init(&b);
    assert_int_equal(repl_exec_line(r, "quit", &b), 1);
    assert_int_equal(repl_exec_line(r, "EXIT", &b), 1);
    assert_int_equal(repl_exec_line(r, "ping", &b), 0);
    assert_string_equal(b.p, "PONG\n");
    buf_release(&b);
    repl_free(r);
}

static void test_session_clock_stands_still_until_moved(void **state)
{
    (void)state;
    repl *r = repl_new(NULL);
    expect_output(r, ".time", "(integer) 1700000000000\n");
    expect_output(r, "set k v px 100", "OK\n");
    expect_output(r, "pttl k", "(integer) 100\n");
    expect_output(r, ".advance 40", "");
    expect_output(r, "pttl k", "(integer) 60\n");
    expect_output(r, ".time", "(integer) 1700000000040\n");
    expect_output(r, ".advance 61", "");
    expect_output(r, "dbsize", "(integer) 0\n"); /* reaped by active expiry */
    expect_output(r, ".settime 5", "");
    expect_output(r, ".time", "(integer) 5\n");
    expect_output(r, ".advance -1",
                  "(error) ERR .advance: '-1' is not a non-negative number of milliseconds\n");
    expect_output(r, ".advance", "(error) ERR usage: .advance MS\n");
    repl_free(r);
}

static void test_session_dump_and_meta_errors(void **state)
{
    (void)state;
    repl *r = repl_new(NULL);
    expect_output(r, ".dump", "(empty keyspace)\n");
    expect_output(r, "set b 1", "OK\n");
    expect_output(r, "set a x px 500", "OK\n");
    expect_output(r, ".dump", "\"a\" string pttl=500 \"x\"\n\"b\" string pttl=-1 \"1\"\n");
    expect_output(r, ".nope", "(error) ERR unknown meta-command '.nope' (try .help)\n");
    expect_output(r, ".dump x", "(error) ERR .dump takes no arguments\n");
    expect_output(r, ".eval", "(error) ERR usage: .eval FILE|SCRIPT-ID numkeys [key ...] [arg ...]\n");
    expect_output(r, ".eval /nonexistent/x.lua 0",
                  "(error) ERR cannot open '/nonexistent/x.lua': No such file or directory\n");
    repl_free(r);
}

static void test_session_eval_and_load_script_file(void **state)
{
    (void)state;
    char path[] = "/tmp/locklab-test-repl-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("return redis.call('incrby', KEYS[1], ARGV[1])\n", f);
    fclose(f);
    repl *r = repl_new(NULL);
    char line[128];
    snprintf(line, sizeof line, ".eval %s 1 n 5", path);
    expect_output(r, line, "(integer) 5\n");
    snprintf(line, sizeof line, ".load %s", path);
    buf sha;
    run(r, line, &sha);
    assert_int_equal(sha.len, 43); /* "<40 hex>"\n */
    char evalsha[128];
    snprintf(evalsha, sizeof evalsha, "evalsha %.42s 1 n 2", sha.p);
    expect_output(r, evalsha, "(integer) 7\n");
    buf_release(&sha);
    repl_free(r);
    remove(path);
}

static void test_split_many_words_in_linear_time(void **state)
{
    (void)state;
    /* 200,000 words: the word array grows by doubling (one realloc per word took minutes
     * under AddressSanitizer at 100,000). */
    enum { N = 200000 };
    buf line;
    buf_init(&line);
    buf_puts(&line, "rpush l");
    for (int i = 0; i < N; i++) buf_puts(&line, " w");
    repl_args a;
    assert_int_equal(repl_split(line.p, &a), 0);
    assert_int_equal(a.argc, N + 2);
    assert_string_equal(a.argv[N + 1], "w");
    repl_args_release(&a);
    buf_release(&line);
}

static void test_session_repeat_quit_and_clock_limits(void **state)
{
    (void)state;
    repl *r = repl_new(NULL);
    /* "1 quit" is sent to the server, which says OK and closes the connection; redis-cli
     * reconnects for the next line: the keyspace stays, subscribe mode does not */
    expect_output(r, "set k v", "OK\n");
    expect_output(r, "subscribe ch", "Reading messages... (press Ctrl-C to quit)\n"
                                     "1) \"subscribe\"\n2) \"ch\"\n3) (integer) 1\n");
    buf b;
    buf_init(&b);
    assert_int_equal(repl_exec_line(r, "1 quit", &b), 0);
    assert_string_equal(b.p, "OK\n");
    buf_release(&b);
    expect_output(r, "3 quit", "OK\n");
    expect_output(r, "ping", "PONG\n");
    expect_output(r, "publish ch m", "(integer) 0\n");
    expect_output(r, "get k", "\"v\"\n");
    expect_output(r, "2 exit", "(error) ERR unknown command 'exit', with args beginning with: \n"
                               "(error) ERR unknown command 'exit', with args beginning with: \n");
    expect_output(r, "-1 ping", "Invalid redis-cli repeat command option value.\n");
    expect_output(r, "99999999999999999999 ping", "Invalid redis-cli repeat command option value.\n");
    expect_output(r, ".settime 9223372036854775807", "");
    expect_output(r, ".advance 1", "(error) ERR .advance: 1 ms from 9223372036854775807 would pass "
                                   "the largest time, 9223372036854775807\n");
    expect_output(r, ".advance 1e99",
                  "(error) ERR .advance: '1e99' is not a non-negative number of milliseconds\n");
    repl_free(r);
}

static void test_session_repeat_output_is_bounded(void **state)
{
    (void)state;
    repl *r = repl_new(NULL);
    expect_output(r, "eval \"return redis.call('set', 'k', string.rep('x', 1048576))\" 0", "OK\n");
    /* without a sink: the repeat stops once its output passes the cap, and says so */
    buf got;
    run(r, "9223372036854775807 get k", &got); /* 1 MiB + 3 bytes a reply */
    assert_true(got.len > REPL_OUTPUT_CAP && got.len < REPL_OUTPUT_CAP + 2 * 1048576);
    assert_non_null(strstr(got.p, "\"\n(error) ERR locklab: repeat stopped after 64 of "
                                  "9223372036854775807: its output passed 64 MiB\n"));
    buf_release(&got);
    /* with a sink: written out as it grows, nothing lost, little held */
    FILE *f = tmpfile();
    assert_non_null(f);
    repl_set_sink(r, f);
    run(r, "100 get k", &got);
    assert_true(got.len < ((size_t)64 << 10) + 1048576 + 8);
    assert_int_equal(repl_sink_error(r), 0);
    assert_int_equal(ftell(f) + (long)got.len, 100L * (1048576 + 3));
    buf_release(&got);
    fclose(f);
    /* a sink that cannot be written stops the repeat and keeps the errno */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        repl_set_sink(r, full);
        run(r, "1000000 get k", &got);
        assert_int_equal(repl_sink_error(r), ENOSPC);
        buf_release(&got);
        fclose(full);
    }
    repl_free(r);
}

static void test_session_script_paths_that_are_not_files(void **state)
{
    (void)state;
    repl *r = repl_new(NULL);
    expect_output(r, ".eval /tmp 0", "(error) ERR cannot read '/tmp': Is a directory\n");
    expect_output(r, ".load /dev/null", "(error) ERR cannot read '/dev/null': not a regular file\n");
    expect_output(r, ".eval /dev/zero 0", "(error) ERR cannot read '/dev/zero': not a regular file\n");
    repl_free(r);
}

/* ---- transcripts ---- */

static const char *sample =
    "# Setting a lock\r\n"
    "#no space\n"
    "> set lock me NX PX 100\n"
    "OK\n"
    "\n"
    "> .advance 10\n"
    ">pttl lock\n"
    "(integer) 90\n"
    "> rpush l a b\n"
    "(integer) 2\n"
    "> lrange l 0 -1\n"
    "1) \"a\"\n"
    "2) \"b\"\n"
    "# the end";

static void test_transcript_parse_items(void **state)
{
    (void)state;
    transcript t;
    buf err;
    buf_init(&err);
    assert_int_equal(transcript_parse(sample, strlen(sample), &t, &err), 0);
    assert_int_equal(t.n, 8);
    assert_int_equal(t.item[0].kind, TRANSCRIPT_COMMENT);
    assert_string_equal(t.item[0].text, "Setting a lock");
    assert_string_equal(t.item[1].text, "no space");
    assert_int_equal(t.item[2].kind, TRANSCRIPT_COMMAND);
    assert_int_equal(t.item[2].line, 3);
    assert_string_equal(t.item[2].text, "set lock me NX PX 100");
    assert_string_equal(t.item[2].expected, "OK\n");
    assert_int_equal(t.item[3].nexpected, 0);
    assert_string_equal(t.item[3].expected, "");
    assert_string_equal(t.item[4].text, "pttl lock");
    assert_int_equal(t.item[6].nexpected, 2);
    assert_string_equal(t.item[6].expected, "1) \"a\"\n2) \"b\"\n");
    assert_int_equal(t.item[7].kind, TRANSCRIPT_COMMENT);
    assert_int_equal(t.item[7].line, 14);
    transcript_release(&t);
    buf_release(&err);
}

static void test_transcript_parse_output_without_command(void **state)
{
    (void)state;
    const char *bad[] = { "OK\n", "> ping\nPONG\n# c\nPONG\n", "> ping\n\nPONG\n" };
    const char *why[] = { "line 1: ", "line 4: ", "line 3: " };
    for (size_t i = 0; i < 3; i++) {
        transcript t;
        buf err;
        buf_init(&err);
        assert_int_equal(transcript_parse(bad[i], strlen(bad[i]), &t, &err), -1);
        assert_int_equal(t.n, 0);
        assert_non_null(strstr(err.p, why[i]));
        buf_release(&err);
    }
}

static void run_transcript(const char *text, int play, buf *o, transcript_tally *tally)
{
    transcript t;
    buf err;
    buf_init(&err);
    buf_init(o);
    buf_puts(o, "");
    assert_int_equal(transcript_parse(text, strlen(text), &t, &err), 0);
    repl *r = repl_new(NULL);
    memset(tally, 0, sizeof *tally);
    transcript_run(r, &t, "t.txt", play, o, tally);
    repl_free(r);
    transcript_release(&t);
    buf_release(&err);
}

static void test_transcript_check_all_pass(void **state)
{
    (void)state;
    buf out;
    transcript_tally tally;
    run_transcript(sample, 0, &out, &tally);
    assert_int_equal(tally.passed, 5);
    assert_int_equal(tally.failed, 0);
    assert_string_equal(out.p, "");
    buf_release(&out);
}

static void test_transcript_check_reports_mismatches(void **state)
{
    (void)state;
    const char *text = "> set k v\n"
                       "OK\n"
                       "> get k\n"
                       "\"w\"\n"
                       "> .advance 5\n"
                       "> hgetall nope\n"
                       "1) \"f\"\n"
                       "2) \"v\"\n"
                       "> ping\n";
    buf out;
    transcript_tally tally;
    run_transcript(text, 0, &out, &tally);
    assert_int_equal(tally.passed, 2);
    assert_int_equal(tally.failed, 3);
    assert_string_equal(out.p, "t.txt:3: > get k\n"
                             "t.txt:4: expected: \"w\"\n"
                             "t.txt:3:      got: \"v\"\n"
                             "t.txt:6: > hgetall nope\n"
                             "t.txt:7: expected: 1) \"f\"\n"
                             "t.txt:8: expected: 2) \"v\"\n"
                             "t.txt:6:      got: (empty array)\n"
                             "t.txt:9: > ping\n"
                             "t.txt:9: expected: (no output)\n"
                             "t.txt:9:      got: PONG\n");
    buf_release(&out);
}

static void test_transcript_play_narrates(void **state)
{
    (void)state;
    const char *text = "# Take the lock\n"
                       "> set k v nx\n"
                       "OK\n"
                       "> get k\n"
                       "\"x\"\n";
    buf out;
    transcript_tally tally;
    run_transcript(text, 1, &out, &tally);
    assert_int_equal(tally.passed, 1);
    assert_int_equal(tally.failed, 1);
    assert_string_equal(out.p, "Take the lock\n"
                             "locklab> set k v nx\n"
                             "OK\n"
                             "locklab> get k\n"
                             "\"v\"\n"
                             "t.txt:4: > get k\n"
                             "t.txt:5: expected: \"x\"\n"
                             "t.txt:4:      got: \"v\"\n");
    buf_release(&out);
}

static void test_transcript_parse_refuses_nul_bytes(void **state)
{
    (void)state;
    /* "\0" then "PONG" would have read as the one line "PONG" (strlen), a false pass */
    const char text[] = "> ping\n\0\nPONG\n";
    transcript t;
    buf err;
    buf_init(&err);
    assert_int_equal(transcript_parse(text, sizeof text - 1, &t, &err), -1);
    assert_int_equal(t.n, 0);
    assert_string_equal(err.p, "line 2: a NUL byte (a transcript is text: is this a binary file?)");
    buf_release(&err);
}

static void test_transcript_long_reply_parses_and_reports_in_bounds(void **state)
{
    (void)state;
    /* 300,000 expected lines: appending one used to rescan them all (minutes under ASan) */
    enum { N = 300000 };
    buf text;
    buf_init(&text);
    buf_puts(&text, "> ping\n");
    for (int i = 0; i < N; i++) buf_puts(&text, "PONG\n");
    transcript t;
    buf err;
    buf_init(&err);
    assert_int_equal(transcript_parse(text.p, text.len, &t, &err), 0);
    assert_int_equal(t.item[0].nexpected, N);
    assert_int_equal(t.item[0].expected_len, (size_t)N * 5);
    transcript_release(&t);
    buf_release(&text);
    buf_release(&err);
    /* the mismatch report shows 1000 lines a side, then counts the rest */
    buf_init(&text);
    buf_puts(&text, "> 1500 ping\n");
    for (int i = 0; i < 1200; i++) buf_puts(&text, "PONG\n");
    buf out;
    transcript_tally tally;
    run_transcript(text.p, 0, &out, &tally);
    assert_int_equal(tally.failed, 1);
    assert_non_null(strstr(out.p, "t.txt:1000: expected: PONG\nt.txt:1001: expected: PONG\n"
                                  "t.txt:1002: expected: ... and 200 more lines\n"));
    assert_non_null(strstr(out.p, "t.txt:1:      got: PONG\nt.txt:1:      got: ... and 500 more lines\n"));
    assert_null(strstr(out.p, "t.txt:1003:"));
    buf_release(&out);
    buf_release(&text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_plain_words),
        cmocka_unit_test(test_split_vertical_tab_is_blank_only_between_words),
        cmocka_unit_test(test_split_double_quote_escapes),
        cmocka_unit_test(test_split_single_quotes_know_only_quote),
        cmocka_unit_test(test_split_empty_quoted_words),
        cmocka_unit_test(test_split_quote_inside_word),
        cmocka_unit_test(test_split_quote_must_close_before_blank),
        cmocka_unit_test(test_split_unbalanced_quotes),
        cmocka_unit_test(test_session_prints_like_redis_cli),
        cmocka_unit_test(test_session_quit_ends),
        cmocka_unit_test(test_session_clock_stands_still_until_moved),
        cmocka_unit_test(test_session_dump_and_meta_errors),
        cmocka_unit_test(test_session_eval_and_load_script_file),
        cmocka_unit_test(test_split_many_words_in_linear_time),
        cmocka_unit_test(test_session_repeat_quit_and_clock_limits),
        cmocka_unit_test(test_session_repeat_output_is_bounded),
        cmocka_unit_test(test_session_script_paths_that_are_not_files),
        cmocka_unit_test(test_transcript_parse_items),
        cmocka_unit_test(test_transcript_parse_output_without_command),
        cmocka_unit_test(test_transcript_check_all_pass),
        cmocka_unit_test(test_transcript_check_reports_mismatches),
        cmocka_unit_test(test_transcript_play_narrates),
        cmocka_unit_test(test_transcript_parse_refuses_nul_bytes),
        cmocka_unit_test(test_transcript_long_reply_parses_and_reports_in_bounds),
    };
    return cmocka_run_group_tests_name("repl", tests, NULL, NULL);
}
