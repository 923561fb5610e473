/* fuzz_scenario.c — scenario files and client models, the two kinds of code a user shares.
 * An input is a scenario file and, after a line "--model--", the protocol model beside it
 * (./m.lua): the scenario is loaded as `locklab run` loads a file and, when it loads, run
 * as `locklab run` runs it (a world built and run to its end, within 200,000 events, then
 * judged). Every outcome is an answer — a one-line error, a model's error, a verdict —
 * except a crash, a hang, a sanitizer report or a leak.
 *
 * `make fuzz` runs it under libFuzzer; `make test` replays the seed corpus
 * (tests/fuzz/corpus/scenario/) and mutations of it (tests/fuzz/driver.c, tools/fuzz.sh).
 * A pathological pattern in a model ends the process by the CPU-time safety net
 * (sim/client_sandbox.c): libFuzzer reports that exit, which is the intended outcome for such
 * an input, so the corpus holds none. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scenario.h"
#include "world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *fuzz_target_stats(void); /* for tests/fuzz/driver.c */

static unsigned long fuzz_loaded, fuzz_ran;

const char *fuzz_target_stats(void)
{
    static char s[96];
    snprintf(s, sizeof s, "%lu scenarios loaded, %lu runs to their end", fuzz_loaded, fuzz_ran);
    return s;
}

#define FUZZ_MODEL_MARK "\n--model--\n"

static char fuzz_folder[64];

static void fuzz_dir_remove(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/m.lua", fuzz_folder);
    unlink(p);
    rmdir(fuzz_folder);
}

/* A folder of our own for the scenario's model, made once per process, gone at its exit. */
static const char *fuzz_dir(void)
{
    if (!fuzz_folder[0]) {
        snprintf(fuzz_folder, sizeof fuzz_folder, "/tmp/locklab-fuzz-XXXXXX");
        if (!mkdtemp(fuzz_folder)) abort();
        atexit(fuzz_dir_remove);
    }
    return fuzz_folder;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0; /* the loader's own limit is tested elsewhere */
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    char path[128], model[128];
    snprintf(path, sizeof path, "%s/s.lua", fuzz_dir());
    snprintf(model, sizeof model, "%s/m.lua", fuzz_dir());
    char *mark = NULL; /* the first FUZZ_MODEL_MARK, NUL bytes and all */
    size_t ml = strlen(FUZZ_MODEL_MARK);
    for (size_t i = 0; !mark && i + ml <= size; i++)
        if (!memcmp(text + i, FUZZ_MODEL_MARK, ml)) mark = text + i;
    FILE *f = fopen(model, "wb");
    if (!f) abort();
    if (mark) {
        const char *body = mark + strlen(FUZZ_MODEL_MARK);
        fwrite(body, 1, size - (size_t)(body - text), f);
        *mark = 0;
    }
    fclose(f);
    buf err;
    buf_init(&err);
    scenario *sc = scenario_load_string(path, text, &err);
    if (sc) {
        fuzz_loaded++;
        world_opts o = { .seed = sc->seed, .max_events = 200000 };
        buf_reset(&err);
        world *w = world_new(sc, &o, &err);
        if (w) {
            buf_reset(&err);
            int rc = world_run(w, &err);
            if (rc == 0) {
                fuzz_ran++;
                check_result cr;
                check_run(world_history(w), sc, &cr);
                check_free(&cr);
            }
            world_free(w);
        }
        scenario_free(sc);
    }
    if (getenv("LOCKLAB_FUZZ_VERBOSE")) /* what each input came to: its error, or "ran" */
        fprintf(stderr, "fuzz_scenario: %.*s\n", (int)strcspn(err.p ? err.p : "ran", "\n"), err.p && *err.p ? err.p : "ran");
    buf_release(&err);
    free(text);
    return 0;
}
