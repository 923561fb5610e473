/* test_mysql.c — the fake MySQL through the server-kind vtable (sim/mysql/mysql_kind.c), as a
 * node drives it, with a fake host recording what the server reports: every statement form
 * of the subset and its errors (numbers, SQLSTATEs, MariaDB's texts), the rows each write
 * reports changed, the user-level locks (values, re-entrance, release on disconnect, none on
 * a replica), replies as a model receives them, and the data copies persistence and
 * replication are made of (snapshot and load, a full copy, a row or table captured on a
 * primary and applied on a replica), checked through the canonical dump. The same semantics
 * are compared with MariaDB itself by tests/diff/mysql/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "mysql/mysql_kind.h"

#include "kind_fixture.h"

/* The fake MySQL: clients 0..2 are connections 5..7 (client_base 4, + 1), a request is one
 * SQL statement, nothing is pushed; the clock stays at 1000. */
static const kind_fixture KF = { .kind = &mysql_kind, .nclients = 3, .client_base = 4,
                                 .pushes = KF_PUSHES_NOTHING };

#define LOCKS "CREATE TABLE locks (name VARCHAR(8) NOT NULL, owner VARCHAR(16), n INT DEFAULT 0, " \
              "PRIMARY KEY (name), UNIQUE KEY (owner))"

static void test_mysql_statements_and_the_rows_they_report(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, LOCKS, "OK, 0 rows affected");
    expect_log(&h, "written locks; ");
    expect(s, "create table if not exists locks (a int)", "OK, 0 rows affected");
    expect(s, "CREATE TABLE locks (a INT)", "ERROR 1050 (42S01): Table 'locks' already exists");
    expect_log(&h, "");
    expect(s, "INSERT INTO locks (name, owner) VALUES ('a', 'A'), ('b', NULL);", "OK, 2 rows affected");
    expect_log(&h, "written locks/1; written locks/2; ");
    expect(s, "INSERT INTO locks VALUES ('A', 'x', 1)", "ERROR 1062 (23000): Duplicate entry 'A' for key 'PRIMARY'");
    expect(s, "INSERT INTO locks VALUES ('c', 'A', 1)", "ERROR 1062 (23000): Duplicate entry 'A' for key 'owner'");
    expect(s, "INSERT INTO locks VALUES ('c', NULL, 1), ('c', NULL, 2)",
           "ERROR 1062 (23000): Duplicate entry 'c' for key 'PRIMARY'");
    expect_log(&h, "");
    expect(s, "SELECT * FROM locks", "a | A | 0; b | NULL | 0");
    expect(s, "SELECT n, name FROM locks WHERE owner = 'a'", "0 | a");
    expect(s, "SELECT name FROM locks WHERE name = 'zz'", "Empty set");
    expect(s, "UPDATE locks SET n = 0 WHERE name = 'a'", "OK, 0 rows affected");
    expect(s, "UPDATE locks SET n = 5, owner = 'B' WHERE name = 'a'", "OK, 1 row affected");
    expect_log(&h, "written locks/1; ");
    expect(s, "UPDATE locks SET owner = 'B'", "ERROR 1062 (23000): Duplicate entry 'B' for key 'owner'");
    expect(s, "DELETE FROM locks WHERE name = 'a' AND owner = 'nope'", "OK, 0 rows affected");
    expect(s, "DELETE FROM locks WHERE name = 'A' AND owner = 'b'", "OK, 1 row affected");
    expect_log(&h, "deleted locks/1; ");
    expect(s, "DELETE FROM locks", "OK, 1 row affected");
    expect(s, "DROP TABLE locks", "OK, 0 rows affected");
    expect_log(&h, "deleted locks/2; deleted locks; ");
    expect(s, "DROP TABLE IF EXISTS locks", "OK, 0 rows affected");
    done(s, &h);
}

static void test_mysql_errors_name_number_sqlstate_and_mariadb_text(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    expect(s, LOCKS, "OK, 0 rows affected");
    expect(s, "INSERT INTO locks (owner) VALUES ('z')", "ERROR 1364 (HY000): Field 'name' doesn't have a default value");
    expect(s, "INSERT INTO locks VALUES (NULL, 'z', 1)", "ERROR 1048 (23000): Column 'name' cannot be null");
    expect(s, "INSERT INTO locks VALUES ('123456789', 'z', 1)",
           "ERROR 1406 (22001): Data too long for column 'name' at row 1");
    expect(s, "INSERT INTO locks VALUES ('c', 'z')", "ERROR 1136 (21S01): Column count doesn't match value count at row 1");
    expect(s, "INSERT INTO locks VALUES ('c', 'z', 'abc')",
           "ERROR 1366 (22007): Incorrect integer value: 'abc' for column `locklab`.`locks`.`n` at row 1");
    expect(s, "INSERT INTO locks VALUES ('c', 'z', 3000000000)",
           "ERROR 1264 (22003): Out of range value for column 'n' at row 1");
    expect(s, "INSERT INTO nope VALUES (1)", "ERROR 1146 (42S02): Table 'locklab.nope' doesn't exist");
    expect(s, "INSERT INTO locks (x) VALUES (1)", "ERROR 1054 (42S22): Unknown column 'x' in 'INSERT INTO'");
    expect(s, "SELECT x FROM locks", "ERROR 1054 (42S22): Unknown column 'x' in 'SELECT'");
    expect(s, "UPDATE locks SET x = 1", "ERROR 1054 (42S22): Unknown column 'x' in 'SET'");
    expect(s, "DELETE FROM locks WHERE x = 1", "ERROR 1054 (42S22): Unknown column 'x' in 'WHERE'");
    expect(s, "DROP TABLE nope", "ERROR 1051 (42S02): Unknown table 'locklab.nope'");
    expect(s, "SELEC 1",
           "ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that corresponds to your "
           "MariaDB server version for the right syntax to use near 'SELEC 1' at line 1");
    expect(s, "SELECT 'unterminated", "ERROR 1064 (42000): You have an error in your SQL syntax; check the manual "
                                       "that corresponds to your MariaDB server version for the right syntax to use "
                                       "near ''unterminated' at line 1");
    expect(s, "SELECT 1.5", "ERROR 1064 (42000): You have an error in your SQL syntax; check the manual that "
                            "corresponds to your MariaDB server version for the right syntax to use near '1.5' at line 1");
    expect(s, "  -- nothing", "OK, 0 rows affected");
    expect(s, " ; ", "ERROR 1065 (42000): Query was empty");
    expect(s, "", "ERROR 1065 (42000): Query was empty");
    expect(s, "SELECT NOPE(1)", "ERROR 1305 (42000): FUNCTION locklab.NOPE does not exist");
    expect(s, "SELECT * ", "ERROR 1096 (HY000): No tables used");
    expect(s, "CREATE TABLE t (a INT, a INT)", "ERROR 1060 (42S21): Duplicate column name 'a'");
    expect(s, "CREATE TABLE t (a INT, PRIMARY KEY (b))", "ERROR 1072 (42000): Key column 'b' doesn't exist in table");
    expect(s, "CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))",
           "ERROR 1068 (42000): Multiple primary key defined");
    /* a request is one statement in one argument */
    slice two[2] = { SLICE_LIT("SELECT"), SLICE_LIT("1") };
    void *reply = malloc(K->reply_size);
    K->exec(s, 0, 0, 2, two, reply);
    assert_true(K->reply_is_error(reply));
    K->reply_release(reply);
    free(reply);
    /* composite keys join their values with '-'; unnamed unique keys are named after their column */
    expect(s, "CREATE TABLE t (a INT NOT NULL, b CHAR(3) NOT NULL, c INT, PRIMARY KEY (a, b), UNIQUE (c), UNIQUE (c, a))",
           "OK, 0 rows affected");
    expect(s, "INSERT INTO t VALUES (1, 'x', NULL), (1, 'y', NULL)", "OK, 2 rows affected");
    expect(s, "INSERT INTO t VALUES (1, 'X  ', 3)", "ERROR 1062 (23000): Duplicate entry '1-X' for key 'PRIMARY'");
    expect(s, "INSERT INTO t VALUES (2, 'x', 3), (3, 'x', 3)", "ERROR 1062 (23000): Duplicate entry '3' for key 'c'");
    expect_dump(s, "table locks (name VARCHAR(8) NOT NULL, owner VARCHAR(16), n INT DEFAULT 0, PRIMARY KEY (name), "
                   "UNIQUE KEY owner (owner))\n"
                   "table t (a INT NOT NULL, b CHAR(3) NOT NULL, c INT, PRIMARY KEY (a, b), UNIQUE KEY c (c), "
                   "UNIQUE KEY c_2 (c, a))\n"
                   "row t/1 (a=1, b='x', c=NULL)\nrow t/2 (a=1, b='y', c=NULL)\n");
    done(s, &h);
}

static void test_mysql_user_level_locks_belong_to_connections(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    /* client 0 is connection 5 (client_base 4, + 1) */
    expect(s, "SELECT GET_LOCK('L', 0), GET_LOCK('L', 10) AS again, IS_USED_LOCK('L'), CONNECTION_ID()", "1 | 1 | 5 | 5");
    expect_as(s, 1, "SELECT GET_LOCK('L', 5), IS_FREE_LOCK('L'), RELEASE_LOCK('L'), RELEASE_LOCK('M')", "0 | 0 | 0 | NULL");
    expect_as(s, 1, "SELECT GET_LOCK('l', 0), IS_USED_LOCK('l')", "1 | 6");
    expect(s, "SELECT RELEASE_LOCK('L')", "1");
    expect_as(s, 1, "SELECT GET_LOCK('L', 0)", "0");
    expect(s, "SELECT RELEASE_LOCK('L'), IS_FREE_LOCK('L'), RELEASE_LOCK('L')", "1 | 1 | NULL");
    expect(s, "SELECT GET_LOCK('a', 0), GET_LOCK('a', 0), GET_LOCK('b', 0)", "1 | 1 | 1");
    expect_dump(s, "lock 'a' held by connection 5 (2 times)\nlock 'b' held by connection 5 (1 time)\n"
                   "lock 'l' held by connection 6 (1 time)\n");
    expect(s, "SELECT RELEASE_ALL_LOCKS(), RELEASE_ALL_LOCKS()", "3 | 0");
    expect(s, "SELECT GET_LOCK(NULL, 0), GET_LOCK('', 0), IS_FREE_LOCK(NULL), IS_USED_LOCK('')", "NULL | NULL | NULL | NULL");
    expect(s, "SELECT GET_LOCK('x')",
           "ERROR 1582 (42000): Incorrect parameter count in the call to native function 'GET_LOCK'");
    expect(s, "SELECT GET_LOCK(5, 0)", "ERROR 4079 (HY000): Illegal parameter data type int for operation 'get_lock'");
    /* a dropped connection's locks go with it. Each lock's grant and end (not its count) is
     * reported as the unit user_lock:NAME, which is no table's: not data, nothing replicates */
    expect(s, "SELECT GET_LOCK('held', 0)", "1");
    K->disconnect(s, 0);
    expect_as(s, 2, "SELECT IS_FREE_LOCK('held'), IS_USED_LOCK('l')", "1 | 6");
    K->disconnect(s, 1);
    expect_dump(s, "");
    expect_log(&h, "written user_lock:L; written user_lock:l; deleted user_lock:L; written user_lock:a; written user_lock:b; "
                   "deleted user_lock:b; deleted user_lock:a; written user_lock:held; deleted user_lock:held; "
                   "deleted user_lock:l; ");
    /* a replica refuses writes, but its locks work (they are the server's, not the data's) */
    K->set_replica(s, 1);
    expect(s, LOCKS, "ERROR 1290 (HY000): The MariaDB server is running with the --read-only option so it cannot "
                     "execute this statement");
    expect(s, "SELECT GET_LOCK('r', 0)", "1");
    done(s, &h);
}

/* Appends the value at idx as a model sees it: a reply's table as {affected_rows=N} or its
 * rows' `got` fields, anything else as tostring shows it. */
static void show_value(lua_State *L, int idx, buf *out)
{
    if (lua_isnil(L, idx)) {
        buf_puts(out, "nil");
    } else {
        buf_puts(out, luaL_tolstring(L, idx, NULL));
        lua_pop(L, 1);
    }
}

static void lua_show(lua_State *L, int idx, buf *out)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) {
        show_value(L, idx, out);
        return;
    }
    lua_getfield(L, idx, "affected_rows");
    if (!lua_isnil(L, -1)) buf_printf(out, "{affected_rows=%lld}", (long long)lua_tointeger(L, -1));
    lua_pop(L, 1);
    for (lua_Integer i = 1; lua_rawgeti(L, idx, i) == LUA_TTABLE; i++) {
        buf_printf(out, "[%lld] got=", (long long)i);
        lua_getfield(L, -1, "got");
        show_value(L, -1, out);
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

static void test_mysql_replies_reach_lua_as_lua_resty_mysql_returns_them(void **state)
{
    (void)state;
    fake_host h = { .now = 1000 };
    kserver *s = make(&h);
    lua_State *L = luaL_newstate();
    const char *reqs[] = { "CREATE TABLE t (got VARCHAR(4) PRIMARY KEY)", "INSERT INTO t VALUES ('x')",
                           "INSERT INTO t VALUES ('x')", "SELECT GET_LOCK('l', 0) AS got", "SELECT NULL AS got",
                           "SELECT got FROM t" };
    const char *want[] = { "{affected_rows=0}", "{affected_rows=1}",
                           "nil Duplicate entry 'x' for key 'PRIMARY' 1062 23000", "[1] got=1", "[1] got=nil",
                           "[1] got=x" };
    for (int i = 0; i < 6; i++) {
        int is_error;
        char *got = run_values(s, L, reqs[i], &is_error, lua_show);
        assert_int_equal(is_error, i == 2);
        assert_string_equal(got, want[i]);
        free(got);
    }
    lua_close(L);
    done(s, &h);
}

static void test_mysql_data_copies_make_persistence_and_replication(void **state)
{
    (void)state;
    pair p;
    pair_open(&p, 1000, 1000);
    kserver *m = p.m, *r = p.r;
    expect(m, LOCKS, "OK, 0 rows affected");
    expect(m, "INSERT INTO locks (name, owner) VALUES ('a', 'A'), ('b', 'B')", "OK, 2 rows affected");
    expect(m, "SELECT GET_LOCK('user', 0)", "1");
    kdata *snap = K->snapshot(m);
    /* a row's change stands on its own: it brings its table along */
    replicate(m, r, "locks/2", 0);
    expect_log(&p.hr, "written locks/2; ");
    expect_dump(r, "table locks (name VARCHAR(8) NOT NULL, owner VARCHAR(16), n INT DEFAULT 0, PRIMARY KEY (name), "
                   "UNIQUE KEY owner (owner))\nrow locks/2 (name='b', owner='B', n=0)\n");
    buf b;
    buf_init(&b);
    int64_t deadline = 0;
    assert_int_equal(K->describe(r, slice_cstr("locks/2"), &b, &deadline), 1);
    assert_string_equal(b.p, "(name='b', owner='B', n=0)");
    assert_int_equal(deadline, -1);
    buf_reset(&b);
    assert_int_equal(K->describe(r, slice_cstr("locks/9"), &b, &deadline), 0);
    assert_int_equal(K->describe(r, slice_cstr("nope"), &b, &deadline), 0);
    buf_release(&b);
    expect(m, "DELETE FROM locks WHERE name = 'b'", "OK, 1 row affected");
    replicate(m, r, "locks/2", 1);
    expect_log(&p.hr, "deleted locks/2; ");
    /* a promoted replica goes on numbering rows after what it applied */
    replicate(m, r, "locks/1", 0);
    K->set_replica(r, 0);
    expect(r, "INSERT INTO locks (name) VALUES ('c')", "OK, 1 row affected");
    expect_log(&p.hr, "written locks/1; written locks/3; ");
    /* the user-level lock is nowhere but on the primary */
    expect(r, "SELECT IS_FREE_LOCK('user')", "1");
    /* a dropped table travels as its name */
    expect(m, "DROP TABLE locks", "OK, 0 rows affected");
    replicate(m, r, "locks", 1);
    expect_dump(r, "");
    /* the snapshot holds the tables as they were, not the locks */
    K->load(r, snap);
    K->data_free(snap);
    expect_dump(r, "table locks (name VARCHAR(8) NOT NULL, owner VARCHAR(16), n INT DEFAULT 0, PRIMARY KEY (name), "
                   "UNIQUE KEY owner (owner))\nrow locks/1 (name='a', owner='A', n=0)\n"
                   "row locks/2 (name='b', owner='B', n=0)\n");
    expect(r, "INSERT INTO locks (name) VALUES ('d')", "OK, 1 row affected");
    K->copy_data(m, r);
    expect(m, "SELECT name FROM locks", "a; b; d");
    expect(m, "SELECT RELEASE_LOCK('user')", "1");
    pair_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mysql_statements_and_the_rows_they_report),
        cmocka_unit_test(test_mysql_errors_name_number_sqlstate_and_mariadb_text),
        cmocka_unit_test(test_mysql_user_level_locks_belong_to_connections),
        cmocka_unit_test(test_mysql_replies_reach_lua_as_lua_resty_mysql_returns_them),
        cmocka_unit_test(test_mysql_data_copies_make_persistence_and_replication),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
