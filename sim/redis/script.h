/* script.h — the Lua bridge: EVAL / EVALSHA / SCRIPT under embedded Lua 5.4, with Redis
 * 7.0's conversion rules, sandbox, error texts and limits. One Lua state per server;
 * compiled scripts are cached by the SHA-1 of their body. See the README's "Lua 5.1 vs 5.4"
 * section for what differs from Redis's embedded Lua 5.1 and how it is hidden. */
#ifndef LOCKLAB_SCRIPT_H
#define LOCKLAB_SCRIPT_H

#include "reply.h"
#include "server.h"

scripting *scripting_new(server *srv, const server_config *cfg);
void scripting_free(scripting *s);
void scripting_flush(scripting *s);            /* SCRIPT FLUSH */

/* Runs a script body as EVAL would (caching it). keys/args are borrowed. */
void scripting_eval(scripting *s, slice body, int nkeys, const slice *keys, int nargs,
                    const slice *args, reply *out);
/* Lowercase hex SHA-1 of data into out[41]. */
void script_sha1hex(const char *data, size_t len, char out[41]);

/* Runs a redis.call from a script: checks that the command exists, is allowed in scripts and
 * has the right arity (with the script-specific error texts), then executes it. Used by the
 * bridge; exposed for tests. */
void server_call_from_script(server *srv, int argc, const slice *argv, reply *out);

#endif
