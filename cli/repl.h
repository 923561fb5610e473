/* repl.h — `locklab redis`: a fake Redis 7.0 at the keyboard, and the transcript checker
 * that turns a recorded session into a regression test.
 *
 * Three layers, each testable on its own (the subcommand around them is redis.c):
 *   - repl_split: the tokenizer, redis-cli's rules (sdssplitargs, in sim/redis/resp.c,
 *     which `locklab serve` uses for inline commands), so a line typed here means the
 *     same argv as the same line typed into redis-cli;
 *   - repl, a session (repl.c): one server on a virtual clock that stands still unless
 *     moved, one connection; repl_exec_line runs one input line and appends exactly what the
 *     REPL prints for it, i.e. what `redis-cli --no-raw` would print for a real server;
 *   - transcript (transcript.c): parses the `> command` / expected-output format and
 *     replays it.
 *
 * What the REPL prints for its own problems, chosen so transcripts can pin them:
 *   - an unbalanced quote prints "Invalid argument(s)", exactly as redis-cli does;
 *   - a bad meta-command prints "(error) ERR <why>" on stdout and the session goes on. */
#ifndef LOCKLAB_REPL_H
#define LOCKLAB_REPL_H

#include <stdint.h>
#include <stdio.h>

#include "resp.h"
#include "util.h"

/* ---- tokenizer (sim/redis/resp.c) ---- */

/* The words of one line: resp_args (each word owned, NUL-terminated, binary safe). */
typedef resp_args repl_args;

/* Splits a NUL-terminated line as redis-cli does (its sdssplitargs, which Redis uses for
 * inline commands too: resp_split, whose comment gives the rules). Returns 0 and fills *out
 * (argc 0 for a blank line), or -1 for unbalanced or badly closed quotes (then *out is
 * empty). Release with repl_args_release. */
static inline int repl_split(const char *line, repl_args *out)
{
    return resp_split(line, out);
}

static inline void repl_args_release(repl_args *a)
{
    resp_args_release(a);
}

/* ---- a session (repl.c) ---- */

typedef struct repl repl;

#define REPL_START_MS INT64_C(1700000000000)

/* A fresh session: empty keyspace, clock at REPL_START_MS. data_dir locates lua/redis/ for
 * library script ids (NULL = ll_data_dir()); it is borrowed and read lazily. */
repl *repl_new(const char *data_dir);
void repl_free(repl *r);
int64_t repl_now(const repl *r);

/* Runs one input line (NUL-terminated, without its newline) and appends to out exactly
 * what the REPL prints for it: nothing for a blank line or a silent meta-command. Lines
 * starting with '.' are meta-commands; "N cmd ..." repeats cmd N times as in redis-cli
 * ("N quit" goes to the server: OK, then a new connection, as redis-cli reconnects).
 * Returns 1 when the line asks to end the session ("quit" or "exit", as in redis-cli),
 * else 0.
 *
 * A repeat's output is bounded: with a sink (repl_set_sink) it is written out as it grows,
 * as redis-cli prints it, so "1000000000 get k" runs in constant memory; without one (a
 * transcript, a test) the repeat stops once out has grown by REPL_OUTPUT_CAP, with a last
 * line saying so, since no transcript could expect that much. */
int repl_exec_line(repl *r, const char *line, buf *out);

#define REPL_OUTPUT_CAP ((size_t)64 << 20)

/* Where repl_exec_line writes a long repeat's output as it goes (NULL: nowhere, the cap
 * applies). After a failed write the repeat stops and repl_sink_error returns the errno
 * (0 while all writes succeeded). */
void repl_set_sink(repl *r, FILE *sink);
/* The database the session's connection has SELECTed (0 to 15), for the prompt. */
int repl_db(const repl *r);
int repl_sink_error(const repl *r);

/* The text .help prints. */
const char *repl_help_text(void);

/* ---- transcripts (transcript.c) ---- */

/* One item of a transcript: a comment (narration, in --play) or a command with what it
 * should print. */
typedef enum transcript_kind { TRANSCRIPT_COMMENT, TRANSCRIPT_COMMAND } transcript_kind;

typedef struct transcript_item {
    transcript_kind kind;
    int line;            /* 1-based line of the '#' or '>' line */
    char *text;          /* comment without its '#', or command without its "> " (owned) */
    char *expected;      /* COMMAND: the expected lines, each ending in '\n' ("" if none; owned) */
    size_t expected_len; /* strlen(expected), kept so that appending a line costs its length */
    size_t expected_cap; /* bytes allocated for expected */
    int nexpected;       /* how many expected lines */
} transcript_item;

typedef struct transcript {
    transcript_item *item;
    size_t n;
    size_t cap; /* items allocated */
} transcript;

/* Parses a transcript: '#' lines are comments (narration), blank lines are ignored, a line
 * starting with '>' is a command and the lines after it, up to the next '>', '#' or blank
 * line, are its expected output. Returns 0, or -1 with a one-line reason in err ("line N:
 * ..."): an expected-output line before any command, or a NUL byte (a binary file; a
 * command or a reply line cannot hold one, so it would be silently cut). A trailing '\r'
 * on a line is ignored. */
int transcript_parse(const char *text, size_t len, transcript *t, buf *err);
void transcript_release(transcript *t);

typedef struct transcript_tally {
    int passed;
    int failed;
} transcript_tally;

/* Replays t in session r and counts results into *tally. Check mode (play = 0) appends a
 * report of each mismatch to out:
 *     FILE:LINE: > command
 *     FILE:LINE: expected: <line>      (one per expected line, at its own line number)
 *     FILE:LINE:      got: <line>      (one per actual line, at the command's line)
 * (each side shows at most 1000 lines, then "... and N more lines").
 * Play mode (play = 1) appends the narration, "locklab> command" and the actual output, and
 * the same report right after the output of a command that did not match. */
void transcript_run(repl *r, const transcript *t, const char *file, int play, buf *out,
                    transcript_tally *tally);

#endif
