/* scenario_reader.h — reading a table a Lua file returns, with "FILE:LINE: what is wrong"
 * for every problem (the loader's tools; not an API outside sim/scenario*.c).
 *
 * The scenario loader stands on this and adds the schema (scenario_int.h). The reader itself
 * knows no field of a scenario: it evaluates a chunk in a sandbox, finds the line where any
 * field is written, and reads keys, lists and typed values off a table, failing with the
 * field's line. Its messages say "the scenario" because a scenario is all it reads.
 *
 *   scenario_lines.c   where each field is written: a lexer walks the table constructor in
 *                      the source and maps field paths ("clients[2].work") to lines.
 *   scenario_reader.c  the sandbox (no libraries, an instruction budget, a memory cap), the
 *                      validator's pcall, and the checks and typed readers that fail with
 *                      rd_fail: unknown keys, lists, durations, numbers, names, choices.
 *
 * A failing check unwinds with lua_error to the pcall of rd_validate: nothing malloc'd may
 * live only in a C local across a check, and messages are built in local arrays. */
#ifndef LOCKLAB_SCENARIO_READER_H
#define LOCKLAB_SCENARIO_READER_H

#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "util.h"

enum {
    EVAL_MEM_CAP = 16 << 20, /* bytes of Lua heap a scenario may use (and of its file) */
    PATH_LEN = 192,
    SHOW_LEN = 48,           /* user text quoted in messages is cut to this */
    NAME_MAX_LEN = 32,
};

#define DUR_NONE ((int64_t)-2) /* rd_to_duration with D_NONE: "none" or false was written */

/* ------------------------------------------------------------------------------------ */
/* The line map (scenario_lines.c)                                                        */

typedef struct line_entry {
    char *path;
    int line;
} line_entry;

typedef struct linemap {
    line_entry *e;
    size_t n, cap;
    int return_line; /* the line of the final `return`, or the last line */
} linemap;

/* Finds the table the chunk returns — `return { ... }`, or `return t` for a `t = { ... }`
 * written at the top level — and maps its fields. */
void linemap_build(linemap *m, const char *text, size_t len);
/* The line of `path`, else of its nearest mapped ancestor, else of the return. */
int linemap_line(const linemap *m, const char *path);
void linemap_release(linemap *m);
/* The line (from 1) of byte offset `off` in text, counting line breaks as Lua does. */
int rd_line_of(const char *text, size_t off);

/* Paths name fields as a person writes them: "clients[2].work", per_node["n-1"]. A path
 * too long for PATH_LEN is cut: it only serves line lookups and messages. */
void rd_path_key(char out[PATH_LEN], const char *parent, const char *key);
void rd_path_index(char out[PATH_LEN], const char *parent, long long i);

/* ------------------------------------------------------------------------------------ */
/* The reader (scenario_reader.c)                                                         */

typedef struct reader {
    lua_State *L;
    const char *file;
    linemap map;
    buf err;
    int failed;       /* err holds a validation message */
    size_t mem_used;
    int mem_hit;
    long steps;
    int too_long;
} reader;

/* Sets up rd (any contents) and its sandboxed state for reading `file` (the name messages
 * give). 0, or -1 with the message in rd->err. Call rd_close in either case. */
int rd_open(reader *rd, const char *file);
/* Runs text as the chunk and maps the lines of the table it returns. 0 with that table at
 * stack index 1, or -1 with "FILE:LINE: ..." in rd->err. */
int rd_evaluate(reader *rd, const char *text, size_t len);
/* Calls validate(L) under pcall with ud (light userdata) at index 1 and the table at 2.
 * 0, or -1 with the message in rd->err. */
int rd_validate(reader *rd, lua_CFunction validate, void *ud);
void rd_close(reader *rd);

/* Reports a problem with the field at `path` and unwinds to the validator's pcall. */
_Noreturn void rd_fail(reader *rd, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Copies user text for a message: cut to SHOW_LEN, control bytes and quotes made '?'. */
const char *rd_show(char out[SHOW_LEN + 4], const char *s, size_t len);
/* The nearest of names[0..n) to s if it is near enough to be a likely typo, else NULL. */
const char *rd_nearest(const char *s, const char *const *names, size_t n);
/* "a, b, c" (or, quoted, "\"a\", \"b\" or \"c\"") into out, cut to cap; returns out ("none"
 * when n is 0). */
const char *rd_join_names(char *out, size_t cap, const char *const *names, size_t n, int quoted);
/* "the scenario" or "clients[2]": where a key lives, for messages. */
const char *rd_where(const char *path);
/* "nil", "a number", "a table", ...: the type of the value at idx, for messages. */
const char *rd_type_name(lua_State *L, int idx);
/* Pushes t[key] without metamethods and returns its type. t is an absolute index. */
int rd_get(lua_State *L, int t, const char *key);
/* The key at the top of the stack, made printable ("leese", "[3]", "a boolean key"). */
const char *rd_key_text(lua_State *L, char out[SHOW_LEN + 4]);

/* Checks that every key of the table at t is a string among valid[0..n); reports the
 * offender written first in the file. `noun` names what the keys are ("key", "property").
 * With always_list the message lists the valid names even when it suggests one. */
void rd_check_keys(reader *rd, int t, const char *path, const char *noun, const char *plural,
                   const char *const *valid, size_t n, int always_list);
/* rd_check_keys for the fields of a record ("key", "keys"). */
void rd_check_fields(reader *rd, int t, const char *path, const char *const *valid, size_t n);
/* Checks that the table at t is a list {v1, v2, ...} of min..max `what`; returns its length. */
int rd_check_list(reader *rd, int t, const char *path, const char *what, int min, int max);

/* Typed values: each takes the value at idx and the path it was found at. */
enum { D_SIGNED = 1, D_NONE = 2, D_POSITIVE = 4 }; /* rd_to_duration's flags */
/* A number of ms or a string with a unit, in µs; with D_NONE, "none" or false is DUR_NONE. */
int64_t rd_to_duration(reader *rd, int idx, const char *path, int flags);
double rd_to_number(reader *rd, int idx, const char *path, double lo, double hi);
long long rd_to_integer(reader *rd, int idx, const char *path, long long lo, long long hi);
/* A string without NUL bytes (owned by the Lua state). */
const char *rd_to_string(reader *rd, int idx, const char *path);
/* One of choices[0..n): returns its index. */
int rd_to_choice(reader *rd, int idx, const char *path, const char *const *choices, size_t n);
/* A name (of an actor): 1..NAME_MAX_LEN letters, digits, '_' or '-'. */
const char *rd_to_name(reader *rd, int idx, const char *path);

/* Optional fields of the table at t (under the path `parent`): each pushes nothing and
 * returns the default when the field is absent. */
int64_t rd_opt_duration(reader *rd, int t, const char *parent, const char *key, int64_t dflt, int flags);
double rd_opt_number(reader *rd, int t, const char *parent, const char *key, double dflt, double lo, double hi);
long long rd_opt_integer(reader *rd, int t, const char *parent, const char *key, long long dflt, long long lo,
                         long long hi);
/* A string field copied to the heap; NULL when absent and not required. */
char *rd_opt_string(reader *rd, int t, const char *parent, const char *key, int required);
/* Pushes the table field `key` (absolute index returned), or returns 0 with nothing pushed. */
int rd_opt_table(reader *rd, int t, const char *parent, const char *key);

#endif
