/* functionint.h — what function_load.c (a library's loading: its shebang, the load-time
 * sandbox, redis.register_function) and function.c (FCALL, FCALL_RO and the FUNCTION
 * commands) share: a library and its functions, and the few calls one makes in the other.
 * Not part of the door (server.h), nor of script.h. */
#ifndef LOCKLAB_REDIS_FUNCTIONINT_H
#define LOCKLAB_REDIS_FUNCTIONINT_H

#include "scriptint.h"


struct fn_def {
    char *name, *desc; /* desc NULL: none */
    unsigned flags;    /* SCRIPT_SHEBANG_NO_WRITES and the other flags, as names below */
    int ref;           /* the callback in the registry */
};

struct fn_lib {
    char *name;
    char *code; /* the whole payload, shebang included (WITHCODE) */
    size_t code_len;
    fn_def *fns;
    size_t nfns;
};

/* register_function's flags (Redis's scripts_flags_def), bit i for names[i]. */
#define FN_NFLAGS 5
extern const char *const fn_flag_names[FN_NFLAGS];

/* function_load.c */
void fn_lib_free(scripting *s, fn_lib *l);
/* The function of that name (any case) and, in *lib if not NULL, its library; NULL if none. */
fn_def *fn_find(scripting *s, slice name, fn_lib **lib);
/* The library's index in s->libs, or (size_t)-1. */
size_t fn_lib_index(scripting *s, const char *name);
/* The shebang line's library name (owned) and where the code after it starts; 0, or -1 with
 * Redis's error text in err. */
int fn_metadata(slice payload, char **name, size_t *code_at, buf *err);
/* FUNCTION LOAD's work: the library's name, or NULL with the error in err. */
const char *fn_load(scripting *s, slice payload, int replace, buf *err);

#endif
