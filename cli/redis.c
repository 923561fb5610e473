/* redis.c — the subcommand `locklab redis`: a session at the keyboard (line editing at a
 * terminal, plain lines from a pipe), or --check / --play of transcript files. It owns what
 * the layers below it leave out: reading files and stdin within bounds, writing the output
 * and noticing when that fails, and the exit codes. The session is repl.c, the transcripts
 * transcript.c. */
#include "repl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli.h"

static void repl_usage(FILE *f)
{
    fputs("usage: locklab redis                        a fake Redis at the keyboard\n"
          "       locklab redis --check TRANSCRIPT...  replay transcripts, report mismatches\n"
          "       locklab redis --play TRANSCRIPT...   replay with narration (classroom mode)\n"
          "\n"
          "Commands use redis-cli syntax, one per line; replies print as redis-cli --no-raw\n"
          "prints them. Lines starting with '.' are meta-commands (.help lists them).\n"
          "\n"
          "A transcript: '#' lines are comments (narration in --play), blank lines are\n"
          "ignored, '> command' is a command and the lines up to the next '>', '#' or blank\n"
          "line are its expected output. Each transcript runs in a fresh server.\n"
          "Exit: 0 all matched, 1 a mismatch, 2 bad usage or an unreadable transcript,\n"
          "3 an I/O error (the input cannot be read or the output written).\n",
          f);
}

/* The largest transcript --check and --play read: far beyond any hand-written or recorded
 * session, and a bound on what a wrong path (/dev/zero, a disk image) costs. */
#define REPL_TRANSCRIPT_MAX ((size_t)256 << 20)

/* The longest input line the REPL keeps: ten times a 10 MB value typed inline, and a bound
 * on the memory a line without a newline (a binary piped in by mistake) can take. */
#define REPL_LINE_MAX ((size_t)128 << 20)

/* Reads a transcript whole. EXIT_OK, or the exit code after printing the one-line error:
 * EXIT_USAGE for a path that is not a readable transcript, EXIT_INTERNAL for an I/O error. */
static int repl_read_file(const char *path, buf *text)
{
    switch (ll_read_file(path, REPL_TRANSCRIPT_MAX, text)) {
    case LL_READ_OK: return EXIT_OK;
    case LL_READ_OPEN:
        cli_error("redis: cannot open transcript '%s': %s", path, strerror(errno));
        return EXIT_USAGE;
    case LL_READ_NOT_FILE:
        cli_error("redis: cannot read transcript '%s': not a regular file (a FIFO or a device)", path);
        return EXIT_USAGE;
    case LL_READ_TOO_BIG:
        cli_error("redis: transcript '%s' is over %d MiB: not a transcript", path,
                  (int)(REPL_TRANSCRIPT_MAX >> 20));
        return EXIT_USAGE;
    default: /* a directory is a wrong path; anything else an I/O error */
        cli_error("redis: cannot read transcript '%s': %s", path, strerror(errno));
        return errno == EISDIR ? EXIT_USAGE : EXIT_INTERNAL;
    }
}

/* Writes b to f and empties it. 0, or -1 with errno set when the output cannot be written
 * (a full disk, a closed pipe with SIGPIPE ignored): the caller must not go on as if the
 * user had seen it. */
static int repl_flush_buf(buf *b, FILE *f)
{
    errno = 0;
    int bad = b->len && fwrite(b->p, 1, b->len, f) != b->len;
    if (fflush(f) != 0 || ferror(f)) bad = 1;
    buf_reset(b);
    if (bad && !errno) errno = EIO;
    return bad ? -1 : 0;
}

static int repl_write_failed(int err)
{
    cli_error("redis: cannot write the output: %s", strerror(err ? err : EIO));
    return EXIT_INTERNAL;
}

/* Replays each transcript in a fresh session; prints mismatches (and the play-by-play in
 * play mode) and the summary line. */
static int repl_replay(int nfiles, char **files, int play)
{
    transcript_tally tally = { 0, 0 };
    buf text, out, err;
    buf_init(&text);
    buf_init(&out);
    buf_init(&err);
    int rc = EXIT_OK;
    for (int i = 0; i < nfiles && rc == EXIT_OK; i++) {
        transcript t;
        buf_reset(&text);
        buf_reset(&err);
        if ((rc = repl_read_file(files[i], &text)) != EXIT_OK) {
            /* reported */
        } else if (transcript_parse(text.p ? text.p : "", text.len, &t, &err) < 0) {
            cli_error("redis: %s: %s", files[i], err.p);
            rc = EXIT_USAGE;
        } else {
            repl *r = repl_new(NULL);
            transcript_run(r, &t, files[i], play, &out, &tally);
            if (repl_flush_buf(&out, stdout) < 0) rc = repl_write_failed(errno);
            repl_free(r);
            transcript_release(&t);
        }
    }
    if (rc == EXIT_OK) {
        printf("%d passed, %d failed\n", tally.passed, tally.failed);
        if (fflush(stdout) != 0 || ferror(stdout)) rc = repl_write_failed(errno);
        else rc = tally.failed ? EXIT_VIOLATION : EXIT_OK;
    }
    buf_release(&text);
    buf_release(&out);
    buf_release(&err);
    return rc;
}

/* Reads one line of f into line, without its '\n' and NUL-terminated (a NUL byte inside ends
 * the command early, as in redis-cli). Returns 1, 0 at the end of the input, or -1 on a
 * read error. A line longer than max is read to its end but not kept: *too_long is set. */
static int repl_read_line(FILE *f, buf *line, size_t max, int *too_long)
{
    buf_reset(line);
    buf_puts(line, "");
    *too_long = 0;
    int c, any = 0;
    errno = 0;
    while ((c = getc_unlocked(f)) != EOF) {
        any = 1;
        if (c == '\n') return 1;
        if (line->len < max) buf_putc(line, (char)c);
        else *too_long = 1;
    }
    if (ferror(f)) return -1;
    return any;
}

/* At a terminal: one line read with line editing and this session's history (arrow keys,
 * Ctrl-R, as redis-cli's linenoise offers; libedit). Same contract as repl_read_line; the
 * history is not saved anywhere. The prompt names a database other than 0, as redis-cli's
 * does ("locklab[3]> "). */
static int repl_read_tty_line(buf *line, size_t max, int *too_long, int db)
{
    char prompt[32] = "locklab> ";
    if (db) snprintf(prompt, sizeof prompt, "locklab[%d]> ", db);
    char *l = readline(prompt);
    if (!l) return 0;
    size_t n = strlen(l);
    buf_reset(line);
    buf_puts(line, "");
    *too_long = n > max;
    if (!*too_long) buf_append(line, l, n);
    if (n && !*too_long && strspn(l, " \t") < n) add_history(l);
    free(l);
    return 1;
}

/* Reads stdin line by line; a prompt (and line editing) only for a person at a terminal,
 * so piped sessions print exactly what redis-cli would. Output is flushed per line for
 * interactive pipes, and a long repeat's output as it comes (repl_set_sink). */
static int repl_interactive(void)
{
    int tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    repl *r = repl_new(NULL);
    repl_set_sink(r, stdout);
    buf out, line;
    buf_init(&out);
    buf_init(&line);
    int rc = EXIT_OK, got = 0, too_long;
    long lineno = 0;
    for (;;) {
        got = tty ? repl_read_tty_line(&line, REPL_LINE_MAX, &too_long, repl_db(r))
                  : repl_read_line(stdin, &line, REPL_LINE_MAX, &too_long);
        if (got <= 0) break;
        lineno++;
        int quit = 0;
        if (too_long)
            buf_printf(&out, "(error) ERR locklab: input line %ld is longer than %d MiB: skipped\n",
                       lineno, (int)(REPL_LINE_MAX >> 20));
        else
            quit = repl_exec_line(r, line.p, &out);
        if (repl_sink_error(r)) {
            rc = repl_write_failed(repl_sink_error(r));
            break;
        }
        if (repl_flush_buf(&out, stdout) < 0) {
            rc = repl_write_failed(errno);
            break;
        }
        if (quit) break;
    }
    if (got < 0) {
        cli_error("redis: cannot read the input: %s", strerror(errno ? errno : EIO));
        rc = EXIT_INTERNAL;
    } else if (rc == EXIT_OK && tty && got == 0) {
        putchar('\n');
        if (fflush(stdout) != 0) rc = repl_write_failed(errno);
    }
    buf_release(&line);
    buf_release(&out);
    repl_free(r);
    return rc;
}

int cli_redis(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        repl_usage(stdout);
        return fflush(stdout) != 0 || ferror(stdout) ? repl_write_failed(errno) : EXIT_OK;
    }
    if (argc >= 2 && (strcmp(argv[1], "--check") == 0 || strcmp(argv[1], "--play") == 0)) {
        if (argc < 3) {
            cli_error("redis: %s needs a transcript file (try 'locklab redis --help')", argv[1]);
            return EXIT_USAGE;
        }
        for (int i = 2; i < argc; i++) {
            if (argv[i][0] == '-' && argv[i][1]) {
                cli_error("redis: unexpected option '%s' (try 'locklab redis --help')", argv[i]);
                return EXIT_USAGE;
            }
        }
        return repl_replay(argc - 2, argv + 2, strcmp(argv[1], "--play") == 0);
    }
    if (argc >= 2) {
        if (argv[1][0] == '-') cli_error("redis: unknown option '%s' (try 'locklab redis --help')", argv[1]);
        else cli_error("redis: unexpected argument '%s' (try 'locklab redis --help')", argv[1]);
        return EXIT_USAGE;
    }
    return repl_interactive();
}
