/* bytecode.c — the verdicts of bytecode.h, from a Lua 5.4 dump.
 *
 * The dump format is ldump.c's, unchanged across the 5.4 releases: a header that pins the
 * version, the format and the sizes and byte order of instructions and numbers; then each
 * function as source, line range, three bytes, code, constants, upvalue descriptors, nested
 * functions and debug information, the last ending with the upvalue names. Sizes are
 * variable-length (7 bits per byte, most significant first, the last byte marked with
 * 0x80); a string is its length + 1 (0: none) followed by its bytes. Opcodes and operand
 * fields are lopcodes.h's: op in bits 0-6, A in 7-14, k in 15, B in 16-23, C in 24-31.
 *
 * Only the instructions that touch upvalues matter: GETUPVAL/SETUPVAL copy an upvalue's
 * value from or to a register, GETTABUP/SETTABUP index an upvalue with a constant string
 * (how every global access compiles, the upvalue being _ENV). Everything else can reach a
 * table only through a register, and a register never holds _ENV, a sealed table or an
 * indexed table beyond the one instruction that replaces it (the rules of bytecode.h).
 * The code after a GETTABUP always runs next (it is not a jump), whatever jumps elsewhere
 * target it. Upvalues are known as _ENV by their debug names: the chunk is dumped with
 * them, and a nameless upvalue counts as _ENV. */
#include "bytecode.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum {
    OP_MOVE = 0,
    OP_LOADI = 1,
    OP_LOADF = 2,
    OP_LOADK = 3,
    OP_LOADFALSE = 5,
    OP_LOADTRUE = 7,
    OP_GETUPVAL = 9,
    OP_SETUPVAL = 10,
    OP_GETTABUP = 11,
    OP_GETTABLE = 12,
    OP_GETI = 13,
    OP_GETFIELD = 14,
    OP_SETTABUP = 15,
    OP_ADDI = 21,   /* ADDI, the ...K forms, SHRI, SHLI, then the register forms: */
    OP_SHR = 45,    /* register arithmetic, A B C, up to here */
    OP_MMBIN = 46,  /* MMBIN, MMBINI, MMBINK: the metamethod fallbacks of the above */
    OP_MMBINK = 48,
    OP_UNM = 49,    /* UNM, BNOT, NOT, LEN: A B */
    OP_LEN = 52,
};

/* At most this many instructions may sit between reading an indexed global and indexing it
 * (KEYS[i + 1] computes the key in between). */
#define MAX_KEY_STEPS 8

/* Constant tags (lobject.h's variants). */
enum { TAG_NIL = 0x00, TAG_FALSE = 0x01, TAG_TRUE = 0x11, TAG_INT = 0x03, TAG_FLT = 0x13,
       TAG_SHRSTR = 0x04, TAG_LNGSTR = 0x14 };

#define MAX_NESTING 250 /* Lua itself stops at LUAI_MAXCCALLS (200) nested functions */

typedef struct reader {
    const uint8_t *p, *end;
    int bad;
} reader;

static size_t rd_left(const reader *r) { return (size_t)(r->end - r->p); }

static const uint8_t *rd_take(reader *r, size_t n)
{
    if (r->bad || rd_left(r) < n) {
        r->bad = 1;
        return NULL;
    }
    const uint8_t *q = r->p;
    r->p += n;
    return q;
}

static unsigned rd_byte(reader *r)
{
    const uint8_t *q = rd_take(r, 1);
    return q ? *q : 0;
}

static size_t rd_size(reader *r)
{
    size_t x = 0;
    unsigned b;
    do {
        if (x >> (sizeof x * 8 - 7)) r->bad = 1;
        b = rd_byte(r);
        x = (x << 7) | (b & 0x7fu);
    } while (!(b & 0x80u) && !r->bad);
    return r->bad ? 0 : x;
}

/* A count of items of at least `min_bytes` each: more than the dump can hold is malformed. */
static size_t rd_count(reader *r, size_t min_bytes)
{
    size_t n = rd_size(r);
    if (n > rd_left(r) / min_bytes) r->bad = 1;
    return r->bad ? 0 : n;
}

/* A string; {NULL, 0} when absent. */
static slice rd_string(reader *r)
{
    size_t n = rd_size(r);
    if (n == 0) return (slice){ NULL, 0 };
    const uint8_t *q = rd_take(r, n - 1);
    return q ? (slice){ (const char *)q, n - 1 } : (slice){ NULL, 0 };
}

static int rd_header(reader *r)
{
    static const uint8_t head[] = { 0x1b, 'L', 'u', 'a', 0x54, 0, 0x19, 0x93, '\r', '\n', 0x1a, '\n',
                                    4, 8, 8 };
    const uint8_t *q = rd_take(r, sizeof head);
    if (!q || memcmp(q, head, sizeof head) != 0) return -1;
    int64_t i = 0x5678; /* LUAC_INT and LUAC_NUM, in this machine's byte order */
    double d = 370.5;
    q = rd_take(r, 16);
    if (!q || memcmp(q, &i, 8) != 0 || memcmp(q + 8, &d, 8) != 0) return -1;
    rd_byte(r); /* the main function's upvalue count */
    return r->bad ? -1 : 0;
}

static int in_list(const char *const *list, slice name)
{
    for (; list && *list; list++)
        if (strlen(*list) == name.len && memcmp(*list, name.p, name.len) == 0) return 1;
    return 0;
}

static uint32_t insn_at(const uint8_t *code, size_t pc)
{
    uint32_t i;
    memcpy(&i, code + 4 * pc, 4);
    return i;
}

/* Whether instruction i replaces register a by a read of the table in it: R[a] := R[a][...],
 * or, with `len`, also R[a] := #R[a]. */
static int consumes(uint32_t i, unsigned a, int len)
{
    unsigned op = i & 0x7fu;
    if (((i >> 7) & 0xffu) != a || ((i >> 16) & 0xffu) != a) return 0;
    return op == OP_GETFIELD || (len && (op == OP_GETI || op == OP_GETTABLE || op == OP_LEN));
}

/* Whether instruction i is a load, move, read or arithmetic step (the computation of a key)
 * that leaves register a alone: none of its A, B, C fields names a (a constant or upvalue
 * operand that happens to equal a only costs the verdict). Its metamethods, if any, run Lua
 * code that cannot see this frame's registers; a global it reads is judged on its own. */
static int leaves_alone(uint32_t i, unsigned a)
{
    unsigned op = i & 0x7fu;
    int step = op == OP_MOVE || op == OP_LOADI || op == OP_LOADF || op == OP_LOADK || op == OP_LOADFALSE ||
               op == OP_LOADTRUE || (op >= OP_GETTABUP && op <= OP_GETFIELD) || (op >= OP_ADDI && op <= OP_SHR) ||
               (op >= OP_MMBIN && op <= OP_MMBINK) || (op >= OP_UNM && op <= OP_LEN);
    return step && ((i >> 7) & 0xffu) != a && ((i >> 16) & 0xffu) != a && (i >> 24) != a;
}

/* Whether the indexed table that instruction pc read into register a is consumed (see
 * consumes) after at most MAX_KEY_STEPS instructions that leave it alone. */
static int indexed_read_only(const uint8_t *code, size_t n, size_t pc, unsigned a)
{
    for (size_t j = pc + 1; j < n && j <= pc + 1 + MAX_KEY_STEPS; j++) {
        uint32_t i = insn_at(code, j);
        if (consumes(i, a, 1)) return 1;
        if (!leaves_alone(i, a)) return 0;
    }
    return 0;
}

typedef struct proto {
    const uint8_t *code;
    size_t ncode;
    slice *k; /* string constants; {NULL, 0} for the others */
    size_t nk;
    const unsigned char *is_env;
    size_t nup;
} proto;

/* The verdicts for one function's code. */
static unsigned check_code(const proto *f, const bytecode_rules *rules)
{
    unsigned ok = BYTECODE_ENV_SAFE | BYTECODE_INDEXED_SAFE;
    for (size_t pc = 0; pc < f->ncode; pc++) {
        uint32_t i = insn_at(f->code, pc);
        unsigned op = i & 0x7fu, a = (i >> 7) & 0xffu, b = (i >> 16) & 0xffu, c = i >> 24;
        if (op == OP_GETUPVAL || op == OP_SETUPVAL) {
            if (b >= f->nup || f->is_env[b]) return 0;
        } else if (op == OP_SETTABUP) {
            if (a >= f->nup || f->is_env[a]) return 0;
        } else if (op == OP_GETTABUP) {
            if (b >= f->nup || c >= f->nk || !f->k[c].p) return 0;
            if (!f->is_env[b]) continue;
            slice name = f->k[c];
            if (in_list(rules->banned, name)) return 0;
            int sealed = in_list(rules->sealed, name), indexed = in_list(rules->indexed, name);
            if (sealed && (pc + 1 >= f->ncode || !consumes(insn_at(f->code, pc + 1), a, 0))) return 0;
            if (indexed && !indexed_read_only(f->code, f->ncode, pc, a)) ok &= ~BYTECODE_INDEXED_SAFE;
        }
    }
    return ok;
}

static void rd_constants(reader *r, proto *f)
{
    f->nk = rd_count(r, 1);
    f->k = xcalloc(f->nk ? f->nk : 1, sizeof *f->k);
    for (size_t j = 0; j < f->nk && !r->bad; j++) {
        switch (rd_byte(r)) {
        case TAG_NIL:
        case TAG_FALSE:
        case TAG_TRUE:
            break;
        case TAG_INT:
        case TAG_FLT:
            rd_take(r, 8);
            break;
        case TAG_SHRSTR:
        case TAG_LNGSTR:
            f->k[j] = rd_string(r);
            break;
        default:
            r->bad = 1;
        }
    }
}

static void rd_debug_skip(reader *r)
{
    rd_take(r, rd_count(r, 1)); /* relative line info, a byte per instruction */
    size_t n = rd_count(r, 2);  /* absolute line info: pc, line */
    for (size_t j = 0; j < n && !r->bad; j++) rd_size(r), rd_size(r);
    n = rd_count(r, 3);         /* locals: name, startpc, endpc */
    for (size_t j = 0; j < n && !r->bad; j++) rd_string(r), rd_size(r), rd_size(r);
}

/* Reads one function (and, recursively, the functions in it), and-ing its verdicts into
 * *verdict. */
static void rd_function(reader *r, const bytecode_rules *rules, int depth, unsigned *verdict)
{
    if (depth > MAX_NESTING) r->bad = 1;
    rd_string(r);               /* source */
    rd_size(r), rd_size(r);     /* linedefined, lastlinedefined */
    rd_take(r, 3);              /* numparams, is_vararg, maxstacksize */
    proto f = { 0 };
    f.ncode = rd_count(r, 4);
    f.code = rd_take(r, 4 * f.ncode);
    rd_constants(r, &f);
    f.nup = rd_count(r, 3);
    rd_take(r, 3 * f.nup);      /* instack, idx, kind */
    size_t np = rd_count(r, 1);
    for (size_t j = 0; j < np && !r->bad; j++) rd_function(r, rules, depth + 1, verdict);
    rd_debug_skip(r);
    unsigned char *is_env = xmalloc(f.nup ? f.nup : 1);
    memset(is_env, 1, f.nup ? f.nup : 1); /* nameless upvalues count as _ENV */
    size_t nnames = rd_count(r, 1);
    for (size_t j = 0; j < nnames && !r->bad; j++) {
        slice name = rd_string(r);
        if (j < f.nup && name.p) is_env[j] = name.len == 4 && memcmp(name.p, "_ENV", 4) == 0;
    }
    f.is_env = is_env;
    if (!r->bad) *verdict &= check_code(&f, rules);
    free(is_env);
    free(f.k);
}

unsigned bytecode_env_use(const void *dump, size_t len, const bytecode_rules *rules)
{
    reader r = { dump, (const uint8_t *)dump + len, 0 };
    if (rd_header(&r) != 0) return 0;
    unsigned verdict = BYTECODE_ENV_SAFE | BYTECODE_INDEXED_SAFE;
    rd_function(&r, rules, 0, &verdict);
    if (r.bad || r.p != r.end || !(verdict & BYTECODE_ENV_SAFE)) return 0;
    return verdict;
}
