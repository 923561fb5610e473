/* fuzz_repl_parse.c — libFuzzer target: the REPL's redis-cli tokenizer (repl_split) on each
 * line of the input, and the transcript parser (transcript_parse) on the whole of it. A
 * refusal is an answer; a crash, a leak or a sanitizer report is a bug. `make fuzz`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "repl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
            for (int i = 0; i < a.argc; i++)
                if (a.len[i] > strlen(line)) __builtin_trap(); /* a word longer than its line */
        }
        repl_args_release(&a);
    }
    memcpy(text, data, size);
    transcript t;
    buf err;
    buf_init(&err);
    if (transcript_parse(text, size, &t, &err) == 0) transcript_release(&t);
    buf_release(&err);
    free(text);
    return 0;
}
