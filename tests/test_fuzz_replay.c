/* test_fuzz_replay.c — the fuzz target for scenario files and models (tests/fuzz/
 * fuzz_scenario.c), replayed over its seed corpus (tests/fuzz/corpus/scenario/) under ASan
 * and UBSan, as `make test` runs every unit test: each input must end, whatever it answers,
 * without a crash, a sanitizer report or a leak. `make fuzz` grows the corpus; an input it
 * finds worth keeping goes into the folder and is replayed from then on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/fuzz/fuzz_scenario.c"
#include "scriptlib.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_replay_corpus(void **state)
{
    (void)state;
    buf dir;
    buf_init(&dir);
    buf_printf(&dir, "%s/tests/fuzz/corpus/scenario", ll_data_dir());
    DIR *d = opendir(dir.p);
    assert_non_null(d);
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (de->d_name[0] != '.') {
            names = xrealloc(names, (n + 1) * sizeof *names);
            names[n++] = xstrdup(de->d_name);
        }
    closedir(d);
    if (n > 1) qsort(names, n, sizeof *names, by_name);
    assert_true(n >= 10);
    for (size_t i = 0; i < n; i++) {
        buf path, text;
        buf_init(&path);
        buf_init(&text);
        buf_printf(&path, "%s/%s", dir.p, names[i]);
        assert_int_equal(ll_read_file(path.p, 1u << 20, &text), LL_READ_OK);
        LLVMFuzzerTestOneInput((const uint8_t *)(text.p ? text.p : ""), text.len);
        buf_release(&path);
        buf_release(&text);
        free(names[i]);
    }
    print_message("replayed %zu inputs of %s\n", n, dir.p);
    free(names);
    buf_release(&dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
