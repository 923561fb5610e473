/* fuzz_resp.c — libFuzzer target: the RESP2 / inline request parser (sim/redis/resp.c) on
 * arbitrary bytes, read whole and read in small pieces as a socket may deliver them. Both
 * readings must cut the same requests and end the same way (a protocol error is an answer),
 * unless one hit a "too big" limit, which depends on how much was buffered, as in Redis; no
 * word may be longer than the input; a crash, a leak or a sanitizer report is a bug.
 * `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *fuzz_target_stats(void); /* for tests/fuzz/driver.c */

static unsigned long fuzz_requests;

const char *fuzz_target_stats(void)
{
    static char s[64];
    snprintf(s, sizeof s, "%lu requests cut", fuzz_requests);
    return s;
}

/* Parses data as delivered in pieces of `piece` bytes (0: whole), the way serve.c does:
 * append, parse from the position, keep the rest. Appends each request to log as
 * "argc|len:bytes|..." and the final status; returns 1 if a "too big" limit was hit. */
static int run(const uint8_t *data, size_t size, size_t piece, buf *log)
{
    resp_parser p;
    resp_parser_init(&p);
    buf q, err;
    buf_init(&q);
    buf_init(&err);
    buf_puts(&q, "");
    size_t pos = 0, fed = 0;
    resp_status st = RESP_MORE;
    while (fed < size && st != RESP_ERROR) {
        size_t n = piece && size - fed > piece ? piece : size - fed;
        buf_append(&q, data + fed, n);
        fed += n;
        while ((st = resp_parse(&p, q.p, q.len, &pos, &err)) == RESP_COMMAND) {
            fuzz_requests++;
            buf_printf(log, "%d", p.args.argc);
            for (int i = 0; i < p.args.argc; i++) {
                if (p.args.len[i] > size) __builtin_trap(); /* a word longer than the input */
                buf_printf(log, "|%zu:", p.args.len[i]);
                buf_append(log, p.args.argv[i], p.args.len[i]);
            }
            buf_putc(log, '\n');
        }
        memmove(q.p, q.p + pos, q.len - pos);
        q.len -= pos;
        q.p[q.len] = '\0';
        pos = 0;
    }
    buf_printf(log, "end %d %s\n", (int)st, st == RESP_ERROR ? err.p : "");
    int too_big = st == RESP_ERROR && strstr(err.p, "too big") != NULL;
    resp_parser_release(&p);
    buf_release(&q);
    buf_release(&err);
    return too_big;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    buf whole, pieces;
    buf_init(&whole);
    buf_init(&pieces);
    int big = run(data, size, 0, &whole);
    big |= run(data, size, size ? 1 + data[0] % 7 : 1, &pieces);
    if (!big && (whole.len != pieces.len || memcmp(whole.p, pieces.p, whole.len) != 0)) __builtin_trap();
    buf_release(&whole);
    buf_release(&pieces);
    return 0;
}
