/* fuzz_bit.c — libFuzzer target: every function of the bit library inside a script, on
 * numbers made of the input's bytes (each 8 bytes a double, any bit pattern: NaN, the
 * infinities, 1e300, -2^31 ...; each 4 a 32-bit integer), as values, counts and shifts; what
 * must hold is asserted (results are 32-bit, tohex gives at most 8 digits). Issue 37: the
 * crash of bit.tohex(x, -2^31) was in this library. `make fuzz`. */
#include "fuzz_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    slice arg = { (const char *)data, size };
    fuzz_eval("local s = ARGV[1] "
              "local function in32(v) return type(v) == 'number' and v >= -2^31 and v < 2^31 and v == math.floor(v) end "
              "for i = 0, math.min(math.floor(#s / 8), 32) - 1 do "
              "  local x = struct.unpack('<d', s, i * 8 + 1) "
              "  local y = struct.unpack('<i4', s, i * 8 + 1) "
              "  local z = struct.unpack('<i4', s, i * 8 + 5) "
              "  for _, a in ipairs({x, y, z}) do "
              "    for _, b in ipairs({x, y, z}) do "
              "      local h = bit.tohex(a, b) assert(type(h) == 'string' and #h <= 8) "
              "      assert(in32(bit.lshift(a, b)) and in32(bit.rshift(a, b)) and in32(bit.arshift(a, b))) "
              "      assert(in32(bit.rol(a, b)) and in32(bit.ror(a, b))) "
              "      assert(in32(bit.band(a, b)) and in32(bit.bor(a, b, a)) and in32(bit.bxor(a, b))) "
              "    end "
              "    assert(in32(bit.tobit(a)) and in32(bit.bnot(a)) and in32(bit.bswap(a))) "
              "    assert(#bit.tohex(a) == 8) "
              "  end "
              "end "
              "return 1",
              1, &arg, 0);
    return 0;
}
