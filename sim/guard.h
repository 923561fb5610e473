/* guard.h — one budget for what a client model causes outside its own Lua (issue 37, N3):
 * a script a node runs for it (EVAL, FCALL) is stopped by what stops the model.
 *  - the instruction budget of scripts (500 million, C work counted: sim/redis) stays;
 *  - a stop request: the flag a SIGINT/SIGTERM handler sets (check's) and a deadline
 *    (check --time) end the running script at its next hook, within milliseconds;
 *  - the CPU-time net of client_sandbox.c watches a request as it watches a model's step:
 *    one that runs CLIENT_CPU_STEP_TICKS ticks of CPU time (a loop of few instructions
 *    around a search of a 30 MB string: the audit's N3) ends the process at its script's
 *    next tick with one line naming the model and exit 2; a single C call that does not
 *    return (a pathological pattern) ends it CLIENT_CPU_EXIT_TICKS ticks later from the
 *    timer. The scripts' C functions are not wrapped to charge what they scan: the wrapper
 *    would change Redis's error texts ("user_script:1: malformed pattern", "bad argument #1
 *    to 'find'").
 * The Redis kind (redis_kind.c) brackets each request with guard_request_begin/end and gives
 * its scripts guard_script_tick unless its host has its own (serve: busy-reply-threshold). */
#ifndef LOCKLAB_GUARD_H
#define LOCKLAB_GUARD_H

/* What ends scripts early from now on: *flag set (NULL: none), the CLOCK_MONOTONIC second
 * deadline passed (0: none). */
void guard_set_stop(volatile int *flag, double deadline);
/* Whether a script was ended by the flag (GUARD_CUT_STOP) or the deadline
 * (GUARD_CUT_DEADLINE) since guard_set_stop: the paths it was on are cut short, so the
 * search is "interrupted" or "timed out", never "finished". */
#define GUARD_CUT_STOP 1
#define GUARD_CUT_DEADLINE 2
int guard_cut(void);
/* CLOCK_MONOTONIC in seconds (what guard_set_stop's deadline counts in). */
double guard_now(void);
void guard_request_begin(void);
void guard_request_end(void);
/* script_tick_fn: 1 to stop the script. */
int guard_script_tick(void *ud, int wrote);

#endif
