/* fuzz_struct.c — libFuzzer target: struct.size, struct.unpack and struct.pack inside a
 * script, the input split at its first NUL into a format and data; whatever they refuse is
 * an answer, a crash or a sanitizer report is a bug. `make fuzz`. */
#include "fuzz_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t flen = nul ? (size_t)(nul - data) : size;
    slice args[2] = { { (const char *)data, flen },
                      { nul ? (const char *)nul + 1 : "", nul ? size - flen - 1 : 0 } };
    /* a small budget: a format of a million 'x' is a legitimate way to spend one */
    fuzz_eval("pcall(struct.size, ARGV[1]) "
              "pcall(struct.unpack, ARGV[1], ARGV[2]) "
              "pcall(struct.unpack, ARGV[1], ARGV[2], 2) "
              "pcall(struct.pack, ARGV[1], 1, -2, 3.5, ARGV[2], 'abc', 2^40, -2^70, 0/0) "
              "local ok, s = pcall(struct.pack, ARGV[1], ARGV[2], ARGV[2], ARGV[2]) "
              "if ok then pcall(struct.unpack, ARGV[1], s) end "
              "return 1",
              2, args, 2000000);
    return 0;
}
