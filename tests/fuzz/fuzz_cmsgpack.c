/* fuzz_cmsgpack.c — libFuzzer target: cmsgpack.unpack of arbitrary bytes inside a script,
 * unpack_one and unpack_limit from an offset, and pack of what it unpacked; a Lua error is
 * an answer, a crash or a sanitizer report is a bug. `make fuzz`. */
#include "fuzz_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    slice arg = { (const char *)data, size };
    fuzz_eval("local ok, v = pcall(function() return {cmsgpack.unpack(ARGV[1])} end) "
              "if ok then local s = cmsgpack.pack(unpack(v)) assert(type(s) == 'string') end "
              "pcall(cmsgpack.unpack_one, ARGV[1], 1) "
              "pcall(cmsgpack.unpack_limit, ARGV[1], 2, 1) "
              "return 1",
              1, &arg, 0);
    return 0;
}
