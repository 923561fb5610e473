/* commandint.h — what command_info.c (COMMAND) and command_keys.c (a call's keys) share. */
#ifndef LOCKLAB_COMMANDINT_H
#define LOCKLAB_COMMANDINT_H

#include "commands.h"

/* A command's legacy key positions (first, last, step), as Redis derives them from its key
 * specs. */
void command_keys(const command *cmd, long long pos[3]);
/* COMMAND GETKEYS (flags 0) or GETKEYSANDFLAGS (1): replies into c->out. */
void command_getkeys(cmdctx *c, int flags);

#endif
