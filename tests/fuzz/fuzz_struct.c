/* fuzz_struct.c — libFuzzer target: struct.size, struct.unpack and struct.pack inside a
 * script, the input split at its first NUL into a format and data; whatever they refuse is
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
        /* A small budget: a format of a million 'x' is a legitimate way to spend one. */
        server_config cfg = { .clock = fuzz_clock, .lua_instruction_limit = 2000000 };
        srv = server_new(&cfg);
    }
    const uint8_t *nul = memchr(data, '\0', size);
    size_t flen = nul ? (size_t)(nul - data) : size;
    slice fmt = { (const char *)data, flen };
    slice rest = { nul ? (const char *)nul + 1 : "", nul ? size - flen - 1 : 0 };
    static const char body[] =
        "pcall(struct.size, ARGV[1]) "
        "pcall(struct.unpack, ARGV[1], ARGV[2]) "
        "pcall(struct.unpack, ARGV[1], ARGV[2], 2) "
        "pcall(struct.pack, ARGV[1], 1, -2, 3.5, ARGV[2], 'abc', 2^40, -2^70, 0/0) "
        "local ok, s = pcall(struct.pack, ARGV[1], ARGV[2], ARGV[2], ARGV[2]) "
        "if ok then pcall(struct.unpack, ARGV[1], s) end "
        "return 1";
    slice argv[5] = { SLICE_LIT("EVAL"), { body, sizeof body - 1 }, SLICE_LIT("0"), fmt, rest };
    conn c = { .id = 1 };
    reply r;
    reply_init(&r);
    server_exec(srv, &c, 5, argv, &r);
    reply_release(&r);
    return 0;
}
