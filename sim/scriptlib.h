/* scriptlib.h — the library of real lock scripts under lua/redis/, found by name and version
 * through one machine-readable index (lua/redis/index.lua). A script file holds a header of
 * Lua comments (source, class and method, version, licence, KEYS, ARGV, returns) and then
 * the body exactly as the library sends it to Redis; the body's SHA-1 is the one Redis sees.
 *
 * Names look like "redisson/lock"; versions like "3.4.4", "3.11.1", "HEAD". An id is
 * "name@version"; a bare name means HEAD. */
#ifndef LOCKLAB_SCRIPTLIB_H
#define LOCKLAB_SCRIPTLIB_H

#include "util.h"

typedef struct script_info {
    const char *id;        /* "redisson/lock@3.4.4" */
    const char *name;      /* "redisson/lock" */
    const char *version;   /* "3.4.4" or "HEAD" */
    const char *protocol;  /* "redisson", "redisson-fair", "redisson-fenced", "distlock" */
    const char *path;      /* file path, relative to the data directory */
    const char *source;    /* "Redisson RedissonLock.tryLockInnerAsync @ 87c6acf (3.4.4)" */
    const char *what;      /* what it is, one line (shown by `locklab scripts`) */
    const char *keys;      /* KEYS, one line */
    const char *argv;      /* ARGV, one line */
    const char *returns;   /* return values, one line */
} script_info;

typedef struct scriptlib scriptlib;

/* The directory holding lua/: $LOCKLAB_HOME, else the directory of the running binary,
 * else the current directory. Borrowed, static. */
const char *ll_data_dir(void);

/* Client models (lua/clients/<name>.lua) are found beside the scenario first, so that a user's
 * own model can sit in the scenario's folder without a copy of the tree or LOCKLAB_HOME.
 * A scenario's `protocol` is a name ("distlock") or a path (it holds a '/' or ends in ".lua"),
 * a path being read from the scenario's folder unless it is absolute. Where protocol is found,
 * for the scenario file scenario_file (NULL: none, as for a scenario given as a string):
 *   1   out is the model's path: the file protocol names, or <scenario's folder>/NAME.lua
 *       for a name, when that file exists (and is not the scenario itself);
 *   0   protocol is a name with no file beside the scenario: it is a library model;
 *  -1   protocol is a path and out, the file it names, is not there. */
int ll_model_beside(const char *scenario_file, const char *protocol, char *out, size_t cap);
/* The file to load for the client model `name`: name itself when it is a path (a protocol
 * found beside its scenario); else, when `protocol` (NULL: none) is such a path and NAME.lua
 * exists in its folder, that file (a model's require() looks beside it first); else
 * lua/clients/NAME.lua under data_dir. */
void ll_model_file(const char *data_dir, const char *protocol, const char *name, char *out, size_t cap);
/* A script a model names by file (ctx:eval(node, "./my-unlock.lua", ...)): a name ending in
 * ".lua" is a file, in the folder of the model when the model sits beside its scenario
 * (protocol is a path), else in the scenario's folder, unless absolute. 1 with the file in
 * out; 0 when name is a library script's; -1 when the path does not fit in out. */
int ll_script_file(const char *scenario_file, const char *protocol, const char *name, char *out, size_t cap);

/* Loads lua/redis/index.lua below dir (NULL = ll_data_dir()). NULL on error, with a
 * one-line reason in err. */
scriptlib *scriptlib_load(const char *dir, buf *err);
void scriptlib_free(scriptlib *lib);
size_t scriptlib_count(const scriptlib *lib);
const script_info *scriptlib_at(const scriptlib *lib, size_t i);

/* Lookup of "name@version" (or "name" for HEAD): the entry whose version is exactly that,
 * or whose [since, version] range (index.lua's optional `since`: the oldest release known to
 * send the same bytes) holds it. NULL if absent, with a one-line message in err naming the
 * nearest matches. */
const script_info *scriptlib_find(const scriptlib *lib, const char *spec, buf *err);
/* The script `name` as it was in library release `version`: the newest script version not
 * newer than `version` ("3.20.0" finds 3.11.1 if that is the newest at or before it). */
const script_info *scriptlib_resolve(const scriptlib *lib, const char *name, const char *version, buf *err);
/* Compares versions: "3.4.4" < "3.11.1" < "3.31.0" < "HEAD". */
int scriptlib_version_cmp(const char *a, const char *b);

/* The exact bytes sent to Redis. A library file is its header, a line that reads exactly
 * "-- locklab:body", then the body; one final newline after the body is not part of it.
 * A file without that line is sent whole (as redis-cli --eval sends a file).
 * 0, or -1 with a one-line reason in err. */
int scriptlib_body(const scriptlib *lib, const script_info *s, buf *body, buf *err);
int script_file_body(const char *path, buf *body, buf *err);

#endif
