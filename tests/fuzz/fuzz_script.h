/* fuzz_script.h — what the script fuzz targets share: one fake Redis server for the whole
 * fuzzing run, and EVAL of a fixed body with the fuzzer's bytes as ARGV. Include once, in a
 * fuzz_*.c file. */
#ifndef LOCKLAB_FUZZ_SCRIPT_H
#define LOCKLAB_FUZZ_SCRIPT_H

#include <stdint.h>
#include <string.h>

#include "reply.h"
#include "server.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* What the inputs came to, for tests/fuzz/driver.c's last line (tools/fuzz.sh wants its first
 * number above 0: a run whose scripts all failed before their end exercised little). */
const char *fuzz_target_stats(void);

static unsigned long fuzz_evals, fuzz_ended;

const char *fuzz_target_stats(void)
{
    static char s[96];
    snprintf(s, sizeof s, "%lu of %lu scripts ran to their end", fuzz_ended, fuzz_evals);
    return s;
}

static int64_t fuzz_clock(void *ud)
{
    (void)ud;
    return 1700000000000;
}

/* EVAL body 0 args... on the shared server (made on first use with the given instruction
 * budget, 0 for the default). Traps when the reply is an error raised by assert(): a body
 * states what must hold with assert, and every other error is an answer. */
static void fuzz_eval(const char *body, int nargs, const slice *args, uint64_t insn_limit)
{
    static server *srv;
    if (!srv) {
        server_config cfg = { .clock = fuzz_clock, .lua_instruction_limit = insn_limit };
        srv = server_new(&cfg);
    }
    slice argv[8] = { SLICE_LIT("EVAL"), slice_cstr(body), SLICE_LIT("0") };
    for (int i = 0; i < nargs && i < 5; i++) argv[3 + i] = args[i];
    conn c = { .id = 1 };
    reply r;
    reply_init(&r);
    server_exec(srv, &c, 3 + nargs, argv, &r);
    if (r.type == REPLY_ERROR && strstr(r.str, "assertion")) __builtin_trap();
    fuzz_evals++;
    fuzz_ended += r.type == REPLY_INTEGER && r.integer == 1;
    reply_release(&r);
}

#endif
