/* repl.c — the engine of `locklab redis`: a session, one fake server on a virtual clock
 * with one connection, that runs a line and prints what redis-cli would (the tokenizer,
 * redis-cli's rules, is sim/redis/resp.c's). It knows nothing of files, terminals or exit codes: transcripts are
 * replayed by transcript.c, and the subcommand (reading input, the interactive loop) is
 * redis.c. See repl.h for the contract and DESIGN.md ("The REPL"). */
#include "repl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "commands.h"
#include "pubsub.h"
#include "reply.h"
#include "scriptlib.h"
#include "server.h"
#include "store.h"

/* ---- a session ---- */

struct repl {
    server *srv;
    conn conn;
    int64_t now;          /* the virtual local clock, in ms */
    const char *data_dir; /* borrowed; NULL = ll_data_dir() */
    scriptlib *lib;       /* loaded on the first library script id */
    buf pending;          /* pub/sub messages delivered while the current command ran */
    FILE *sink;           /* where a long repeat's output goes as it grows; NULL = capped */
    int sink_errno;       /* the first failed write to sink, 0 if none */
};

static int64_t repl_clock(void *ud)
{
    return ((const repl *)ud)->now;
}

/* A message for our connection, shown as redis-cli shows one in subscribe mode. It is held
 * until the command that caused it has printed its own reply. */
static void repl_deliver(void *ud, int conn_id, slice channel, slice message)
{
    repl *r = ud;
    if (conn_id != r->conn.id) return;
    reply m;
    reply_init(&m);
    pubsub_message_reply(&m, channel, message);
    reply_to_cli(&m, &r->pending);
    reply_release(&m);
}

int repl_db(const repl *r)
{
    return r->conn.db;
}

/* The same for a pattern's message (PSUBSCRIBE) or a shard channel's (SSUBSCRIBE). */
static void repl_push(void *ud, int conn_id, const reply *msg)
{
    repl *r = ud;
    if (conn_id == r->conn.id) reply_to_cli(msg, &r->pending);
}

repl *repl_new(const char *data_dir)
{
    repl *r = xcalloc(1, sizeof *r);
    r->now = REPL_START_MS;
    r->data_dir = data_dir;
    r->conn.id = 1;
    buf_init(&r->pending);
    server_config cfg = { 0 };
    cfg.clock = repl_clock;
    cfg.clock_ud = r;
    cfg.deliver = repl_deliver;
    cfg.push = repl_push;
    cfg.deliver_ud = r;
    cfg.track_access = 1;
    r->srv = server_new(&cfg);
    return r;
}

void repl_free(repl *r)
{
    if (!r) return;
    server_free(r->srv);
    scriptlib_free(r->lib);
    buf_release(&r->pending);
    free(r);
}

int64_t repl_now(const repl *r)
{
    return r->now;
}

void repl_set_sink(repl *r, FILE *sink)
{
    r->sink = sink;
    r->sink_errno = 0;
}

int repl_sink_error(const repl *r)
{
    return r->sink_errno;
}

static int repl_is_subscribe(slice name)
{
    return slice_eq_nocase(name, "subscribe") || slice_eq_nocase(name, "psubscribe") ||
           slice_eq_nocase(name, "ssubscribe");
}

/* Sends one command and prints its reply (a REPLY_MULTI, SUBSCRIBE's one confirmation per
 * channel, prints as separate replies), then any pub/sub message the command delivered to
 * us. redis-cli announces subscribe mode before the confirmations. */
static void repl_send(repl *r, int argc, const slice *argv, buf *out)
{
    reply rep;
    reply_init(&rep);
    buf_reset(&r->pending);
    server_exec(r->srv, &r->conn, argc, argv, &rep);
    if (repl_is_subscribe(argv[0]) && !reply_is_error(&rep))
        buf_puts(out, "Reading messages... (press Ctrl-C to quit)\n");
    /* redis-cli prints the replies of INFO, CLIENT LIST / INFO and LATENCY GRAPH / DOCTOR
     * verbatim (a report, not a value): a string's bytes as they are, an error's text and a
     * newline. */
    int verbatim = slice_eq_nocase(argv[0], "info") ||
                   (argc >= 2 && slice_eq_nocase(argv[0], "client") &&
                    (slice_eq_nocase(argv[1], "list") || slice_eq_nocase(argv[1], "info"))) ||
                   (argc >= 2 && slice_eq_nocase(argv[0], "latency") &&
                    (slice_eq_nocase(argv[1], "graph") || slice_eq_nocase(argv[1], "doctor")));
    if (verbatim && (rep.type == REPLY_BULK || rep.type == REPLY_ERROR)) {
        buf_append(out, rep.str, rep.len);
        if (rep.type == REPLY_ERROR) buf_putc(out, '\n');
    } else {
        reply_to_cli(&rep, out);
    }
    reply_release(&rep);
    buf_append(out, r->pending.p, r->pending.len);
    buf_reset(&r->pending);
}

static void repl_meta_error(buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void repl_meta_error(buf *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_puts(out, "(error) ERR ");
    buf_vprintf(out, fmt, ap);
    buf_putc(out, '\n');
    va_end(ap);
}

/* Loads the script library on first use. 0, or -1 with the reason in err. */
static int repl_library(repl *r, const char *spec, buf *err)
{
    if (!r->lib) {
        buf why;
        buf_init(&why);
        r->lib = scriptlib_load(r->data_dir, &why);
        if (!r->lib) {
            buf_printf(err, "'%s' is not a file, and the script library is unavailable: %s", spec,
                       why.p ? why.p : "unknown error");
            buf_release(&why);
            return -1;
        }
        buf_release(&why);
    }
    return 0;
}

static int repl_library_has(repl *r, const char *spec)
{
    buf ignored;
    buf_init(&ignored);
    int has = repl_library(r, spec, &ignored) == 0 && scriptlib_find(r->lib, spec, NULL) != NULL;
    buf_release(&ignored);
    return has;
}

static int repl_library_body(repl *r, const char *spec, buf *body, buf *err)
{
    if (repl_library(r, spec, err) < 0) return -1;
    const script_info *info = scriptlib_find(r->lib, spec, err);
    if (!info) return -1;
    return scriptlib_body(r->lib, info, body, err);
}

/* The largest script file .eval and .load read: the Lua memory cap (64 MiB) could not hold
 * a bigger one compiled. */
#define REPL_SCRIPT_MAX ((uint64_t)64 << 20)

/* The exact body of a script named by a file path or a library id ("redisson/lock@3.4.4").
 * An existing regular file wins; otherwise the name is looked up in the library. */
static int repl_script_body(repl *r, const char *spec, buf *body, buf *err)
{
    struct stat st;
    int exists = stat(spec, &st) == 0;
    if (exists && S_ISREG(st.st_mode)) {
        /* No script this big could compile under the Lua memory cap; refusing it here
         * keeps a mistyped path (a disk image, a log) from being read into memory. */
        if ((uint64_t)st.st_size > REPL_SCRIPT_MAX) {
            buf_printf(err, "'%s' is %lld bytes: not a script (the limit is %d MiB)", spec,
                       (long long)st.st_size, (int)(REPL_SCRIPT_MAX >> 20));
            return -1;
        }
        return script_file_body(spec, body, err);
    }
    /* A directory or a device is never a script, but its name could still be a library id
     * (library ids look like paths): say what the path is only if the library has no such
     * script, rather than "unknown script". Reading a FIFO or /dev/zero would hang. */
    if (exists && repl_library_has(r, spec)) return repl_library_body(r, spec, body, err);
    if (exists) {
        buf_printf(err, "cannot read '%s': %s", spec,
                   S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
        return -1;
    }
    size_t n = strlen(spec);
    if (n > 4 && strcmp(spec + n - 4, ".lua") == 0) {
        buf_printf(err, "cannot open '%s': %s", spec, strerror(ENOENT));
        return -1;
    }
    return repl_library_body(r, spec, body, err);
}

/* .eval SCRIPT numkeys ... → EVAL body numkeys ...; .load SCRIPT → SCRIPT LOAD body. */
static void repl_meta_script(repl *r, const repl_args *a, int is_eval, buf *out)
{
    if (is_eval ? a->argc < 3 : a->argc != 2) {
        repl_meta_error(out, is_eval ? "usage: .eval FILE|SCRIPT-ID numkeys [key ...] [arg ...]"
                                     : "usage: .load FILE|SCRIPT-ID");
        return;
    }
    buf body, err;
    buf_init(&body);
    buf_init(&err);
    if (repl_script_body(r, a->argv[1], &body, &err) < 0) {
        repl_meta_error(out, "%s", err.p ? err.p : "cannot read the script");
    } else {
        int argc = is_eval ? a->argc : 3;
        slice *argv = xmalloc((size_t)argc * sizeof *argv);
        argv[0] = is_eval ? SLICE_LIT("EVAL") : SLICE_LIT("SCRIPT");
        if (is_eval) {
            argv[1] = (slice){ body.p ? body.p : "", body.len };
            for (int i = 2; i < argc; i++) argv[i] = (slice){ a->argv[i], a->len[i] };
        } else {
            argv[1] = SLICE_LIT("LOAD");
            argv[2] = (slice){ body.p ? body.p : "", body.len };
        }
        repl_send(r, argc, argv, out);
        free(argv);
    }
    buf_release(&body);
    buf_release(&err);
}

/* Moves the clock (forward by .advance, anywhere by .settime) and reaps what expired, as
 * Redis's active expire cycle would have while that time passed. */
static void repl_meta_clock(repl *r, const repl_args *a, int absolute, buf *out)
{
    long long ms;
    const char *name = absolute ? ".settime" : ".advance";
    if (a->argc != 2) {
        repl_meta_error(out, "usage: %s MS", name);
        return;
    }
    if (ll_parse_int64((slice){ a->argv[1], a->len[1] }, &ms) < 0 || ms < 0) {
        repl_meta_error(out, "%s: '%s' is not a non-negative number of milliseconds", name,
                        a->argv[1]);
        return;
    }
    if (!absolute && ms > INT64_MAX - r->now) {
        repl_meta_error(out, ".advance: %lld ms from %lld would pass the largest time, %lld", ms,
                        (long long)r->now, (long long)INT64_MAX);
        return;
    }
    r->now = absolute ? ms : r->now + ms;
    server_active_expire(r->srv);
}

/* .commands: the commands this fake implements (COMMAND LIST), how many, then the names
 * in lines of at most 78 columns. */
static void repl_meta_commands(buf *out)
{
    size_t n = commands_count(), col = 0;
    buf_printf(out, "%zu commands:\n", n);
    for (size_t i = 0; i < n; i++) {
        const command *c = commands_at(i);
        if (col && col + 1 + c->namelen > 78) {
            buf_putc(out, '\n');
            col = 0;
        }
        if (col) buf_putc(out, ' '), col++;
        buf_puts(out, c->name);
        col += c->namelen;
    }
    buf_putc(out, '\n');
}

static void repl_meta(repl *r, const repl_args *a, buf *out)
{
    const char *cmd = a->argv[0];
    if (strcasecmp(cmd, ".time") == 0 && a->argc == 1) {
        buf_printf(out, "(integer) %lld\n", (long long)r->now);
    } else if (strcasecmp(cmd, ".advance") == 0) {
        repl_meta_clock(r, a, 0, out);
    } else if (strcasecmp(cmd, ".settime") == 0) {
        repl_meta_clock(r, a, 1, out);
    } else if (strcasecmp(cmd, ".eval") == 0) {
        repl_meta_script(r, a, 1, out);
    } else if (strcasecmp(cmd, ".load") == 0) {
        repl_meta_script(r, a, 0, out);
    } else if (strcasecmp(cmd, ".dump") == 0 && a->argc == 1) {
        size_t before = out->len;
        store_dump(server_store(r->srv), out, 0);
        if (out->len == before) buf_puts(out, "(empty keyspace)\n");
    } else if (strcasecmp(cmd, ".help") == 0 && a->argc == 1) {
        buf_puts(out, repl_help_text());
    } else if (strcasecmp(cmd, ".commands") == 0 && a->argc == 1) {
        repl_meta_commands(out);
    } else if (strcasecmp(cmd, ".time") == 0 || strcasecmp(cmd, ".dump") == 0 ||
               strcasecmp(cmd, ".help") == 0 || strcasecmp(cmd, ".commands") == 0) {
        repl_meta_error(out, "%s takes no arguments", cmd);
    } else {
        repl_meta_error(out, "unknown meta-command '%s' (try .help)", cmd);
    }
}

/* How much of a repeat's output is held before it goes to the sink. */
#define REPL_SINK_CHUNK ((size_t)64 << 10)

/* redis-cli's "N command" prefix: a first word that strtol reads whole repeats the rest N
 * times; 0, negative or out of range is refused with redis-cli's own message. Returns the
 * count (1 when there is no prefix), or 0 after printing the refusal. */
static long repl_repeat(const repl_args *a, int *skip, buf *out)
{
    char *end;
    *skip = 0;
    errno = 0;
    long n = strtol(a->argv[0], &end, 10);
    if (a->argc > 1 && *end == '\0') {
        if (errno == ERANGE || errno == EINVAL || n <= 0) {
            buf_puts(out, "Invalid redis-cli repeat command option value.\n");
            return 0;
        }
        *skip = 1;
        return n;
    }
    return 1;
}

/* Sends a command n times. The output of a long repeat goes to the sink as it grows, as
 * redis-cli prints it; without a sink it is capped (see repl.h): 9223372036854775807 GETs
 * of a large value must not be buffered whole. */
static void repl_repeat_send(repl *r, long n, int argc, const slice *argv, buf *out)
{
    size_t start = out->len;
    for (long i = 0; i < n; i++) {
        repl_send(r, argc, argv, out);
        if (r->sink && out->len >= REPL_SINK_CHUNK) {
            errno = 0;
            if (fwrite(out->p, 1, out->len, r->sink) != out->len || fflush(r->sink) != 0) {
                if (!r->sink_errno) r->sink_errno = errno ? errno : EIO;
                return;
            }
            buf_reset(out);
            start = 0;
        } else if (!r->sink && out->len - start > REPL_OUTPUT_CAP && i + 1 < n) {
            buf_printf(out, "(error) ERR locklab: repeat stopped after %ld of %ld: its output "
                            "passed %d MiB\n", i + 1, n, (int)(REPL_OUTPUT_CAP >> 20));
            return;
        }
    }
}

int repl_exec_line(repl *r, const char *line, buf *out)
{
    repl_args a;
    if (repl_split(line, &a) < 0) {
        buf_puts(out, "Invalid argument(s)\n");
        return 0;
    }
    int quit = 0;
    if (a.argc == 0) {
        /* a blank line: nothing to do */
    } else if (a.argv[0][0] == '.') {
        repl_meta(r, &a, out);
    } else if (strcasecmp(a.argv[0], "quit") == 0 || strcasecmp(a.argv[0], "exit") == 0) {
        quit = 1;
    } else if (a.argc == 1 && (strcasecmp(a.argv[0], "help") == 0 || strcmp(a.argv[0], "?") == 0)) {
        buf_puts(out, repl_help_text());
    } else {
        int skip;
        long n = repl_repeat(&a, &skip, out);
        if (n > 0 && skip && strcasecmp(a.argv[1], "quit") == 0) {
            /* "N quit" reaches the server (redis-cli checks only the first word): Redis
             * answers OK and closes the connection, so the rest of the repeat fails, and
             * redis-cli connects again for the next line: a fresh connection, out of
             * subscribe mode, on the same keyspace. */
            buf_puts(out, "OK\n");
            pubsub_drop_conn(server_pubsub(r->srv), r->conn.id);
            server_conn_closed(r->srv, r->conn.id);
            r->conn = (conn){ .id = r->conn.id + 1, .db = r->conn.db }; /* redis-cli selects it again */
        } else if (n > 0) {
            slice *argv = xmalloc((size_t)a.argc * sizeof *argv);
            for (int i = 0; i < a.argc; i++) argv[i] = (slice){ a.argv[i], a.len[i] };
            repl_repeat_send(r, n, a.argc - skip, argv + skip, out);
            free(argv);
        }
    }
    repl_args_release(&a);
    return quit;
}

const char *repl_help_text(void)
{
    return "locklab redis: a fake Redis 7.0 on a virtual clock (it stands still unless moved).\n"
           "Type Redis commands as in redis-cli; replies print as redis-cli --no-raw prints them.\n"
           "Meta-commands:\n"
           "  .time                       the local clock, in ms\n"
           "  .advance MS                 move the clock forward (expired keys are reaped)\n"
           "  .settime MS                 set the clock to MS, ms since the Unix epoch as .time\n"
           "                              shows it (it starts at 1700000000000); backwards too:\n"
           "                              a clock jump\n"
           "  .eval SCRIPT numkeys key... arg...\n"
           "                              EVAL of a script file or a library script id\n"
           "                              (redisson/lock@3.4.4; see `locklab scripts`)\n"
           "  .load SCRIPT                SCRIPT LOAD of the same; prints the sha\n"
           "  .dump                       database 0, keys in byte order, TTLs left\n"
           "  .commands                   the commands this fake implements (COMMAND LIST)\n"
           "  .help                       this text\n"
           "Errors of meta-commands print as (error) ERR ...; quit or exit ends the session.\n";
}
