/* test_resp_fuzz.c — the RESP parser's fuzz target (tests/fuzz/fuzz_resp.c) run in `make
 * test`, on a fixed set of inputs: `make fuzz` explores with libFuzzer (clang, not run by
 * `make test`: a run is not reproducible), this replays the same checks — whole and
 * piecewise readings cut the same requests, no word longer than the input, no sanitizer
 * report (the unit tests run under ASan and UBSan) — on 20,000 inputs made from a seeded
 * generator: well-formed requests (RESP and inline, pipelined) mutated by byte flips,
 * inserted digits and signs, truncation and splices, around the limits the parser guards
 * (a 1 GB bulk length, 2^31 arguments, 64 KiB inline lines). A failure is an abort of the
 * target, which cmocka reports with the input's number; the generator is fixed, so the
 * same input fails again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fuzz/fuzz_resp.c"

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static const char *const seeds[] = {
    "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n",
    "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n*1\r\n$4\r\nPING\r\n",
    "SET a b\r\nGET a\r\n",
    "  \"quoted \\x41 word\" 'single' plain\n",
    "*-1\r\n*0\r\n$-1\r\n",
    "*1\r\n$1073741824\r\n",
    "*2147483648\r\n",
    "*1\r\n$536870912\r\n",
    "*3\r\n$4\r\nEVAL\r\n$8\r\nreturn 1\r\n$1\r\n0\r\n",
    "*1\r\n$4\r\nPING\r\nPING\r\n*1\r\n$4\r\nQUIT\r\n",
    "\r\n\r\n\n\n",
    "*1\r\n$x\r\n",
    "$3\r\nfoo\r\n",
};

/* One input: a seed or two spliced, then a few mutations. */
static size_t make_input(uint8_t *out, size_t cap)
{
    const char *a = seeds[rng() % LL_ARRAY_LEN(seeds)], *b = seeds[rng() % LL_ARRAY_LEN(seeds)];
    size_t n = 0;
    for (const char *p = a; *p && n < cap; p++) out[n++] = (uint8_t)*p;
    if (rng() % 2)
        for (const char *p = b; *p && n < cap; p++) out[n++] = (uint8_t)*p;
    int muts = (int)(rng() % 6);
    for (int m = 0; m < muts && n > 0; m++) {
        size_t at = rng() % n;
        switch (rng() % 5) {
        case 0: out[at] = (uint8_t)rng(); break;                       /* any byte */
        case 1: out[at] = (uint8_t)"0123456789-+*$\r\n "[rng() % 17]; break; /* protocol bytes */
        case 2: n = at; break;                                         /* truncated */
        case 3:                                                        /* a long run of one byte */
            for (size_t k = rng() % 300; k > 0 && n < cap; k--) out[n++] = (uint8_t)"9 a\r"[rng() % 4];
            break;
        default:                                                       /* a digit inserted */
            if (n < cap) {
                memmove(out + at + 1, out + at, n - at);
                out[at] = (uint8_t)('0' + rng() % 10);
                n++;
            }
        }
    }
    return n;
}

static void test_resp_fuzz_target_on_seeded_inputs(void **state)
{
    (void)state;
    static uint8_t input[4096];
    rng_state = 0x5eed5eed1234abcdull;
    for (int i = 0; i < 20000; i++) {
        size_t n = make_input(input, sizeof input);
        assert_int_equal(LLVMFuzzerTestOneInput(input, n), 0);
    }
}

/* A 64 KiB inline line and one past it (Redis's PROTO_INLINE_MAX_SIZE), whole and in pieces. */
static void test_resp_fuzz_target_on_long_inline_lines(void **state)
{
    (void)state;
    size_t n = (64 << 10) + 2;
    uint8_t *big = malloc(n);
    assert_non_null(big);
    for (size_t len = (64 << 10) - 2; len <= n - 2; len += 2) {
        memset(big, 'a', len);
        big[len] = '\r', big[len + 1] = '\n';
        assert_int_equal(LLVMFuzzerTestOneInput(big, len + 2), 0);
        assert_int_equal(LLVMFuzzerTestOneInput(big, len), 0);
    }
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resp_fuzz_target_on_seeded_inputs),
        cmocka_unit_test(test_resp_fuzz_target_on_long_inline_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
