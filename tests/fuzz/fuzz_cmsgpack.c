/* fuzz_cmsgpack.c — libFuzzer target: cmsgpack.unpack of arbitrary bytes inside a script,
 * unpack_one and unpack_limit from an offset, and pack of what it unpacked; a Lua error is
 * an answer, a crash or a sanitizer report is a bug. `make fuzz`. */
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
        "local ok, v = pcall(function() return {cmsgpack.unpack(ARGV[1])} end) "
        "if ok then local s = cmsgpack.pack(unpack(v)) assert(type(s) == 'string') end "
        "pcall(cmsgpack.unpack_one, ARGV[1], 1) "
        "pcall(cmsgpack.unpack_limit, ARGV[1], 2, 1) "
        "return 1";
    slice argv[4] = { SLICE_LIT("EVAL"), { body, sizeof body - 1 }, SLICE_LIT("0"),
                      { (const char *)data, size } };
    conn c = { .id = 1 };
    reply r;
    reply_init(&r);
    server_exec(srv, &c, 4, argv, &r);
    /* The script answers 1, or an error reply only if packing what unpack gave failed. */
    if (r.type == REPLY_ERROR && strstr(r.str, "assertion")) __builtin_trap();
    reply_release(&r);
    return 0;
}
