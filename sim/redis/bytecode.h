/* bytecode.h — what a compiled Lua 5.4 chunk can do with its globals, read off its dump.
 *
 * Redis 7.0 runs scripts against a globals table that its patched Lua makes read-only; stock
 * Lua 5.4 has no read-only tables, so script_sandbox.c puts the globals and the `redis` table
 * behind empty proxies whose metatables forward reads — a metamethod hop on every
 * `redis.call`, `KEYS[1]` and `ARGV[2]`. This unit proves, from the bytecode alone, that a
 * chunk cannot tell the difference when it runs against the real tables instead:
 *
 *   - it never assigns a global (no SETTABUP on _ENV) and never holds _ENV itself as a value
 *     (no GETUPVAL / SETUPVAL of an upvalue named _ENV), in any of its functions;
 *   - it never names a `banned` global (`_G`, `load`, `loadstring`: the ways to reach the
 *     globals other than through _ENV);
 *   - it reads each `sealed` global (`redis`) only as `name.field`: the instruction after
 *     the read replaces the table in its register by one of its fields, so the table itself
 *     is never stored, passed, compared or written through.
 *
 * A second, independent verdict says the `indexed` globals (KEYS, ARGV) are only ever read as
 * `name[i]`, `name.f` or `#name` in the same way (a few loads, reads and arithmetic steps may
 * compute the key in between, as in `ARGV[i + 1]`, provided they leave the table's register
 * alone): then a run can neither change those tables nor keep them, and the next run may
 * refill them in place without looking at them.
 *
 * The proof is conservative: a pattern it does not recognise (including a dump it cannot
 * read) simply withholds the verdict, and the script runs behind the proxies as before. */
#ifndef LOCKLAB_BYTECODE_H
#define LOCKLAB_BYTECODE_H

#include <stddef.h>

typedef struct bytecode_rules {
    const char *const *sealed;   /* NULL-terminated lists of global names */
    const char *const *indexed;
    const char *const *banned;
} bytecode_rules;

#define BYTECODE_ENV_SAFE 1u     /* may run against the real globals (see above) */
#define BYTECODE_INDEXED_SAFE 2u /* and its indexed globals are only read (implies ENV_SAFE) */

/* The verdicts for the dump (lua_dump with strip = 0) of a Lua 5.4 chunk: a mask of the
 * flags above, 0 when the dump is not in Lua 5.4's format or any rule may be broken. */
unsigned bytecode_env_use(const void *dump, size_t len, const bytecode_rules *rules);

#endif
