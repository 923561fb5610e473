/* fuzz_cjson.c — libFuzzer target: cjson.decode of arbitrary bytes inside a script, and
 * cjson.encode of whatever it decoded; a Lua error is an answer, a crash or a sanitizer
 * report is a bug. Built and run by `make fuzz` (not part of `make test`). */
#include <stdint.h>
#include <string.h>

#include "reply.h"
#include "server.h"

static int64_t fuzz_clock(void *ud)
{
    (void)ud;
    return 1700000000000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static server *srv;
    if (!srv) {
        server_config cfg = { .clock = fuzz_clock };
        srv = server_new(&cfg);
    }
    static const char body[] =
        "local ok, v = pcall(cjson.decode, ARGV[1]) "
        "if ok then local ok2, s = pcall(cjson.encode, v) "
        "  if ok2 then local ok3, w = pcall(cjson.decode, s) assert(ok3, w) end end "
        "return 1";
    slice argv[4] = { SLICE_LIT("EVAL"), { body, sizeof body - 1 }, SLICE_LIT("0"),
                      { (const char *)data, size } };
    conn c = { .id = 1 };
    reply r;
    reply_init(&r);
    server_exec(srv, &c, 4, argv, &r);
    /* The script answers 1, or an error reply only if re-decoding what encode wrote failed. */
    if (r.type == REPLY_ERROR && strstr(r.str, "assertion")) __builtin_trap();
    reply_release(&r);
    return 0;
}
