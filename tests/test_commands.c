/* test_commands.c — the command table and its lookup: every command is found by its name in
 * any case, nothing else is, and the hand-written perfect-hash slot table in commands.c
 * agrees with the command table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "commands.h"

/* Prints a multiplier under which the current table is collision-free, and its slot table,
 * for pasting into commands.c after a command was added. */
static void print_new_slot_table(void)
{
    size_t n = commands_count();
    for (uint32_t m = 1; m < 2000000; m += 2) {
        uint32_t mul = m * 0x9E3779B1u;
        unsigned char slot[COMMANDS_SLOTS] = { 0 };
        size_t i;
        for (i = 0; i < n; i++) {
            const command *c = commands_at(i);
            unsigned h = commands_hash((slice){ c->name, c->namelen }, mul);
            if (slot[h]) break;
            slot[h] = (unsigned char)(i + 1);
        }
        if (i < n) continue;
        printf("#define COMMANDS_HASH_MUL 0x%08xu\nstatic const unsigned char slot_of[COMMANDS_SLOTS] = {\n", mul);
        for (int r = 0; r < COMMANDS_SLOTS; r++) printf("%s%2d,%s", r % 16 ? " " : "    ", slot[r], r % 16 == 15 ? "\n" : "");
        printf("};\n");
        return;
    }
    printf("no collision-free multiplier found: widen the hash key in commands_hash\n");
}

static void test_commands_slot_table_matches_command_table(void **state)
{
    (void)state;
    size_t n = commands_count();
    assert_true(n < 255);
    unsigned char want[COMMANDS_SLOTS] = { 0 };
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        const command *c = commands_at(i);
        assert_int_equal(strlen(c->name), c->namelen);
        assert_true(c->namelen >= 3 && c->namelen <= 16);
        if (i) assert_true(strcmp(commands_at(i - 1)->name, c->name) < 0);
        unsigned h = commands_hash((slice){ c->name, c->namelen }, commands_hash_mul());
        if (want[h]) ok = 0;
        want[h] = (unsigned char)(i + 1);
    }
    for (unsigned h = 0; ok && h < COMMANDS_SLOTS; h++)
        if (commands_slot(h) != want[h]) ok = 0;
    if (!ok) print_new_slot_table();
    assert_true(ok);
}

static void test_commands_lookup_finds_every_command_in_any_case(void **state)
{
    (void)state;
    for (size_t i = 0; i < commands_count(); i++) {
        const command *c = commands_at(i);
        char upper[32], mixed[32];
        for (size_t k = 0; k <= c->namelen; k++) {
            char ch = c->name[k];
            upper[k] = ch >= 'a' && ch <= 'z' ? (char)(ch - 32) : ch;
            mixed[k] = k % 2 ? upper[k] : ch;
        }
        assert_ptr_equal(commands_lookup(slice_cstr(c->name)), c);
        assert_ptr_equal(commands_lookup(slice_cstr(upper)), c);
        assert_ptr_equal(commands_lookup(slice_cstr(mixed)), c);
    }
}

static void test_commands_lookup_rejects_unknown_names(void **state)
{
    (void)state;
    static const char *const bad[] = { "", "g", "ge", "gets", "sget", "hgetal", "hgetalll", "evalsh",
                                       "zremrangebyscorex", "xyz", "set\n", "s\0t", "hincrbyfloat",
                                       "watchx", "exex", "EXPIREAT_", "get ", "hkeys1" };
    for (size_t i = 0; i < LL_ARRAY_LEN(bad); i++) assert_null(commands_lookup(slice_cstr(bad[i])));
    /* Same hash key (first, second, last letters, length, letter before the last) as a
     * command, other middle. */
    assert_null(commands_lookup(SLICE_LIT("hixxrby")));
    assert_null(commands_lookup(SLICE_LIT("s\0t")));
    assert_null(commands_lookup(SLICE_LIT("GET\0")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands_slot_table_matches_command_table),
        cmocka_unit_test(test_commands_lookup_finds_every_command_in_any_case),
        cmocka_unit_test(test_commands_lookup_rejects_unknown_names),
    };
    return cmocka_run_group_tests_name("commands", tests, NULL, NULL);
}
