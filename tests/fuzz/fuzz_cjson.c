/* fuzz_cjson.c — libFuzzer target: cjson.decode of arbitrary bytes inside a script, and
 * cjson.encode of whatever it decoded, which must decode again; a Lua error is an answer, a
 * crash or a sanitizer report is a bug. `make fuzz`. */
#include "fuzz_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    slice arg = { (const char *)data, size };
    fuzz_eval("local ok, v = pcall(cjson.decode, ARGV[1]) "
              "if ok then local ok2, s = pcall(cjson.encode, v) "
              "  if ok2 then local ok3, w = pcall(cjson.decode, s) assert(ok3, w) end end "
              "return 1",
              1, &arg, 0);
    return 0;
}
