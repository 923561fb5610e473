/* test_dict.c — the hash table under the keyspace: insert, find, delete with backward
 * shifting, growth, iteration, binary keys. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "dict.h"

static void test_dict_put_get_del(void **state)
{
    (void)state;
    dict *d = dict_new(sizeof(long));
    int existed;
    long *v = dict_put(d, SLICE_LIT("a"), &existed);
    assert_false(existed);
    *v = 7;
    assert_ptr_equal(dict_put(d, SLICE_LIT("a"), &existed), v);
    assert_true(existed);
    assert_int_equal(*(long *)dict_get(d, SLICE_LIT("a")), 7);
    assert_null(dict_get(d, SLICE_LIT("b")));
    assert_int_equal(dict_del(d, SLICE_LIT("a")), 1);
    assert_int_equal(dict_del(d, SLICE_LIT("a")), 0);
    assert_int_equal(dict_size(d), 0);
    dict_free(d, NULL);
}

static void test_dict_many_keys_survive_deletes(void **state)
{
    (void)state;
    dict *d = dict_new(sizeof(int));
    char k[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(k, sizeof k, "key:%d", i);
        *(int *)dict_put(d, slice_cstr(k), NULL) = i;
    }
    for (int i = 0; i < 5000; i += 3) {
        snprintf(k, sizeof k, "key:%d", i);
        assert_int_equal(dict_del(d, slice_cstr(k)), 1);
    }
    for (int i = 0; i < 5000; i++) {
        snprintf(k, sizeof k, "key:%d", i);
        int *v = dict_get(d, slice_cstr(k));
        if (i % 3 == 0) assert_null(v);
        else {
            assert_non_null(v);
            assert_int_equal(*v, i);
        }
    }
    size_t it = 0, n = 0;
    while (dict_next(d, &it)) n++;
    assert_int_equal(n, dict_size(d));
    dict_free(d, NULL);
}

/* dict_del_payload removes the very entry (no rehashing of the key) and keeps the rest
 * of every probe run reachable. */
static void test_dict_del_payload(void **state)
{
    (void)state;
    dict *d = dict_new(sizeof(int));
    char k[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(k, sizeof k, "k%d", i);
        *(int *)dict_put(d, slice_cstr(k), NULL) = i;
    }
    for (int i = 0; i < 3000; i += 2) {
        snprintf(k, sizeof k, "k%d", i);
        dict_del_payload(d, dict_get(d, slice_cstr(k)));
    }
    assert_int_equal(dict_size(d), 1500);
    for (int i = 0; i < 3000; i++) {
        snprintf(k, sizeof k, "k%d", i);
        int *v = dict_get(d, slice_cstr(k));
        if (i % 2 == 0) assert_null(v);
        else {
            assert_non_null(v);
            assert_int_equal(*v, i);
        }
    }
    dict_free(d, NULL);
}

static void test_dict_binary_keys_and_key_of(void **state)
{
    (void)state;
    dict *d = dict_new(1);
    slice k1 = { "a\0b", 3 }, k2 = { "a\0c", 3 };
    dict_put(d, k1, NULL);
    void *p2 = dict_put(d, k2, NULL);
    assert_int_equal(dict_size(d), 2);
    slice back = dict_key_of(d, p2);
    assert_true(slice_eq(back, k2));
    dict_free(d, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dict_put_get_del),
        cmocka_unit_test(test_dict_many_keys_survive_deletes),
        cmocka_unit_test(test_dict_del_payload),
        cmocka_unit_test(test_dict_binary_keys_and_key_of),
    };
    return cmocka_run_group_tests_name("dict", tests, NULL, NULL);
}
