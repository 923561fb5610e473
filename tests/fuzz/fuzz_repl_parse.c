/* fuzz_repl_parse.c — libFuzzer target: the REPL's redis-cli tokenizer (repl_split) on each
 * line of the input, and the transcript parser (transcript_parse) on the whole of it. A
 * refusal is an answer; a crash, a leak or a sanitizer report is a bug. `make fuzz`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *fuzz_target_stats(void); /* for tests/fuzz/driver.c */

static unsigned long fuzz_split, fuzz_parsed;

const char *fuzz_target_stats(void)
{
    static char s[96];
    snprintf(s, sizeof s, "%lu lines split into words, %lu transcripts parsed", fuzz_split, fuzz_parsed);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        repl_args a = { 0 };
        if (repl_split(line, &a) == 0) {
            fuzz_split++;
            for (int i = 0; i < a.argc; i++)
                if (a.len[i] > strlen(line)) __builtin_trap(); /* a word longer than its line */
        }
        repl_args_release(&a);
    }
    memcpy(text, data, size);
    transcript t;
    buf err;
    buf_init(&err);
    if (transcript_parse(text, size, &t, &err) == 0) {
        fuzz_parsed++;
        transcript_release(&t);
    }
    buf_release(&err);
    free(text);
    return 0;
}
