/* connectionint.h — what connection.c and connection_client.c share: Redis's replies to a
 * container command's unknown subcommand and wrong arity, and a help text's lines. */
#ifndef LOCKLAB_CONNECTIONINT_H
#define LOCKLAB_CONNECTIONINT_H

#include <stddef.h>

#include "handlers.h"

void reply_unknown_sub(cmdctx *c, const char *cmd);               /* ERR unknown subcommand 'x'. Try CMD HELP. */
void reply_sub_args(cmdctx *c, const char *cmd, const char *sub); /* ERR wrong number of arguments for 'cmd|sub' */
void reply_lines(cmdctx *c, const char *const *lines, size_t n);  /* HELP: one status line each */
int config_parse_memory(slice s, long long *v);                   /* Redis's memtoull; -1 if not one */

#endif
