/* cli.h — the subcommands of the locklab binary. Each takes the arguments after its own
 * name (argv[0] is the subcommand) and returns the process exit code. */
#ifndef LOCKLAB_CLI_H
#define LOCKLAB_CLI_H

enum exit_code {
    EXIT_OK = 0,        /* all expectations met, or no violation when none are stated */
    EXIT_VIOLATION = 1, /* a property violated, an expectation not met, a transcript mismatch */
    EXIT_USAGE = 2,     /* bad input or usage */
    EXIT_INTERNAL = 3   /* internal or I/O error */
};

int cli_redis(int argc, char **argv);    /* cli/repl.c */
int cli_scripts(int argc, char **argv);  /* cli/scripts.c */
int cli_run(int argc, char **argv);      /* cli/run.c */

/* One-line error on stderr: "locklab: <message>". */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
