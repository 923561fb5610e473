/* test_dict.c — the hash table under the keyspace: insert, find, delete with backward
 * shifting, growth, iteration, binary keys, reuse of deleted entries. */
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

/* A deleted entry is reused for a key of the same allocation size, zeroed and with the new
 * key; a key of another size gets a block of its own. Keys come and go through the spares
 * many times over without losing or mixing anything (ASan checks the poisoning). */
static void test_dict_reuses_deleted_entries(void **state)
{
    (void)state;
    dict *d = dict_new(3 * sizeof(long));
    long *a = dict_put(d, SLICE_LIT("lock:1"), NULL);
    a[0] = a[1] = a[2] = 7;
    dict_del(d, SLICE_LIT("lock:1"));
    long *b = dict_put(d, SLICE_LIT("lock:2"), NULL);
    assert_ptr_equal(b, a);
    assert_true(b[0] == 0 && b[1] == 0 && b[2] == 0);
    assert_true(slice_eq(dict_key_of(d, b), SLICE_LIT("lock:2")));
    dict_del_payload(d, b);
    long *c = dict_put(d, SLICE_LIT("a much longer key than lock:2, in another size class"), NULL);
    assert_ptr_not_equal(c, a);
    char k[64];
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 20; i++) {
            snprintf(k, sizeof k, "%.*s%d", i, "xxxxxxxxxxxxxxxxxxxxxxxx", round);
            long *v = dict_put(d, slice_cstr(k), NULL);
            assert_true(v[0] == 0 && v[1] == 0 && v[2] == 0);
            v[0] = round;
            v[1] = i;
        }
        for (int i = 0; i < 20; i++) {
            snprintf(k, sizeof k, "%.*s%d", i, "xxxxxxxxxxxxxxxxxxxxxxxx", round);
            long *v = dict_get(d, slice_cstr(k));
            assert_non_null(v);
            assert_true(v[0] == round && v[1] == i);
            assert_int_equal(dict_del(d, slice_cstr(k)), 1);
        }
    }
    assert_int_equal(dict_size(d), 1);
    dict_free(d, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dict_put_get_del),
        cmocka_unit_test(test_dict_many_keys_survive_deletes),
        cmocka_unit_test(test_dict_del_payload),
        cmocka_unit_test(test_dict_binary_keys_and_key_of),
        cmocka_unit_test(test_dict_reuses_deleted_entries),
    };
    return cmocka_run_group_tests_name("dict", tests, NULL, NULL);
}
