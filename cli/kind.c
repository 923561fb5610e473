/* kind.c — the subcommand `locklab kind NAME`: one server of any kind (sim/kinds.h) at the
 * keyboard or from a pipe, with nothing of the engine around it. Each input line is one
 * request, split into words as redis-cli splits them; the server runs it and the line the
 * history would show (the kind's reply_brief) is printed. Meta-lines move the server's clock
 * and choose the client, so a session with sessions, leases and expiry can be played by
 * hand or replayed by a differential test against the real server (tests/diff/<kind>/).
 *
 * Effects the server reports (data changed, messages pushed to a client) print as "  ~"
 * lines as it reports them, so before the reply of the request that caused them.
 *
 * A request the server parks (kind_host.park: PostgreSQL's pg_advisory_lock waiting for a
 * lock) prints "(waits)"; its answer, when the server gives it (during another client's
 * request, a .crash-client, or a timer that an .advance reaches), is kept for `.wait N`,
 * which prints it, or "(still waiting)". */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "kinds.h"
#include "resp.h"

#define KIND_CLIENTS 16
#define KIND_LINE_MAX ((size_t)1 << 20)
/* The clock: one .advance at most 10^12 ms (as serve's LOCKLAB ADVANCE), the clock at most
 * 10^15 ms (year 33658), so that no sum of times in a server overflows 64 bits. */
#define KIND_ADVANCE_MAX INT64_C(1000000000000)
#define KIND_CLOCK_MAX INT64_C(1000000000000000)

/* A parked request: its ticket, its client, its timer (local ms, -1: none) and, once the
 * server answered, the answer's brief form. */
typedef struct parked {
    uint64_t ticket;
    int client;
    int64_t due;
    char *answer;
} parked;

typedef struct session {
    const server_kind *k;
    kserver *srv;
    int64_t now;        /* ms */
    int client;
    FILE *out;
    int running;        /* the client whose request the server runs now */
    int parked_now;     /* ... and it parked it */
    parked *parks;
    int nparks;
    uint64_t next_ticket;
} session;

static int64_t s_clock(void *ud)
{
    return ((session *)ud)->now;
}

static void s_changed(void *ud, kind_event ev, slice unit)
{
    session *s = ud;
    fprintf(s->out, "  ~ %s %.*s\n", ev == KIND_WRITTEN ? "written" : ev == KIND_DELETED ? "deleted" : "expired",
            (int)unit.len, unit.p);
}

static void s_push(void *ud, int client, slice topic, slice payload)
{
    session *s = ud;
    fprintf(s->out, "  ~ to client %d: %.*s %.*s\n", client, (int)topic.len, topic.p, (int)payload.len, payload.p);
}

static uint64_t s_park(void *ud, int64_t timeout_ms)
{
    session *s = ud;
    s->parks = xrealloc(s->parks, (size_t)(s->nparks + 1) * sizeof *s->parks);
    s->parks[s->nparks++] = (parked){ .ticket = ++s->next_ticket, .client = s->running,
                                      .due = timeout_ms > 0 ? s->now + timeout_ms : -1 };
    s->parked_now = 1;
    return s->next_ticket;
}

static void park_remove(session *s, int i)
{
    free(s->parks[i].answer);
    memmove(&s->parks[i], &s->parks[i + 1], (size_t)(s->nparks - i - 1) * sizeof *s->parks);
    s->nparks--;
}

static void s_unpark(void *ud, uint64_t ticket, void *reply)
{
    session *s = ud;
    for (int i = 0; i < s->nparks; i++) {
        parked *p = &s->parks[i];
        if (p->ticket != ticket || p->answer) continue;
        if (!reply) {
            park_remove(s, i);
            return;
        }
        buf b;
        buf_init(&b);
        s->k->reply_brief(reply, &b);
        p->answer = b.p ? buf_steal(&b) : xstrdup("");
        p->due = -1;
        if (s->k->parked_answered) s->k->parked_answered(s->srv, ticket); /* what the answer did ("~ written") */
        break;
    }
    if (reply) s->k->reply_release(reply);
}

/* The clock moves to `to`: each parked request's timer on the way fires at its time. */
static void advance_to(session *s, int64_t to)
{
    for (;;) {
        int first = -1;
        for (int i = 0; i < s->nparks; i++)
            if (s->parks[i].due >= 0 && s->parks[i].due <= to && (first < 0 || s->parks[i].due < s->parks[first].due))
                first = i;
        if (first < 0) break;
        if (s->parks[first].due > s->now) s->now = s->parks[first].due;
        s->parks[first].due = -1;
        if (!s->k->parked_timeout) continue;
        uint64_t ticket = s->parks[first].ticket;
        void *reply = xcalloc(1, s->k->reply_size);
        int64_t again = 0;
        if (s->k->parked_timeout(s->srv, ticket, reply, &again)) {
            s_unpark(s, ticket, reply);
        } else {
            for (int i = 0; i < s->nparks; i++)
                if (s->parks[i].ticket == ticket && again > 0) s->parks[i].due = s->now + again;
        }
        free(reply);
    }
    s->now = to;
}

static void kind_usage(FILE *f)
{
    fputs("usage: locklab kind NAME [--option NAME=VALUE]...\n"
          "       locklab kind --list\n"
          "\n"
          "One fake server of the kind NAME, without the simulated world: each line read from\n"
          "the input is one request, in words as redis-cli splits them (\"double\" and 'single'\n"
          "quotes); each effect the server reports prints as it happens ('  ~ written KEY',\n"
          "'  ~ to client N: TOPIC PAYLOAD'), then the reply as the history shows it.\n"
          "\n"
          "Meta-lines: .advance MS (the server's clock moves; what expires, expires),\n"
          ".client N (the next requests come from client N, 0-15), .crash-client N (client N's\n"
          "connections drop), .dump (the server's data, one line per unit), .help (the kind's\n"
          "requests, with their words: 'locklab kind zookeeper' starts with 'connect 10000'), .time, .wait N (the\n"
          "answer to client N's request that the server made wait, printed as \"(waits)\" when\n"
          "sent; \"(still waiting)\" before it comes).\n"
          "The clock starts at 1700000000000 ms; one .advance moves it at most 10^12 ms, and it\n"
          "stops at 10^15 ms. A line holds at most 1 MiB. Options are the kind's server_options, in ms\n"
          "for durations. Exit: 0, 2 bad usage, 3 the output cannot be written.\n",
          f);
}

static void expire_due(session *s)
{
    while (s->k->next_deadline(s->srv) < s->now) s->k->expire(s->srv);
}

static void run_line(session *s, char *line)
{
    resp_args a;
    if (resp_split(line, &a) != 0) {
        fprintf(s->out, "(error) unbalanced quotes\n");
        return;
    }
    if (a.argc == 0) {
        resp_args_release(&a);
        return;
    }
    const char *w0 = a.argv[0];
    if (w0[0] == '.') {
        /* a whole number as Redis parses one (no "1e300", no "abc" taken as 0), else -1 */
        long long v = -1;
        if (a.argc > 1 && ll_parse_int64((slice){ a.argv[1], a.len[1] }, &v) != 0) v = -1;
        if (!strcmp(w0, ".advance") && (a.argc != 2 || v < 0 || v > KIND_ADVANCE_MAX)) {
            fprintf(s->out, "(error) .advance takes a whole number of ms from 0 to %lld\n", (long long)KIND_ADVANCE_MAX);
        } else if (!strcmp(w0, ".advance") && s->now > KIND_CLOCK_MAX - v) {
            fprintf(s->out, "(error) .advance: the clock would pass %lld ms\n", (long long)KIND_CLOCK_MAX);
        } else if (!strcmp(w0, ".advance")) {
            advance_to(s, s->now + v);
            expire_due(s);
        } else if ((!strcmp(w0, ".client") || !strcmp(w0, ".crash-client")) && (a.argc != 2 || v < 0 || v >= KIND_CLIENTS)) {
            fprintf(s->out, "(error) %s takes a client number from 0 to %d\n", w0, KIND_CLIENTS - 1);
        } else if (!strcmp(w0, ".client") && a.argc == 2 && v >= 0 && v < KIND_CLIENTS) {
            s->client = (int)v;
        } else if (!strcmp(w0, ".crash-client") && a.argc == 2 && v >= 0 && v < KIND_CLIENTS) {
            s->k->disconnect(s->srv, (int)v);
        } else if (!strcmp(w0, ".dump")) {
            buf b;
            buf_init(&b);
            s->k->dump(s->srv, &b);
            fputs(b.p ? b.p : "", s->out);
            buf_release(&b);
        } else if (!strcmp(w0, ".time")) {
            fprintf(s->out, "%lld\n", (long long)s->now);
        } else if (!strcmp(w0, ".wait") && (a.argc != 2 || v < 0 || v >= KIND_CLIENTS)) {
            fprintf(s->out, "(error) .wait takes a client number from 0 to %d\n", KIND_CLIENTS - 1);
        } else if (!strcmp(w0, ".wait")) {
            int found = -1;
            for (int i = 0; i < s->nparks && found < 0; i++)
                if (s->parks[i].client == (int)v) found = i;
            if (found < 0) {
                fprintf(s->out, "(error) client %lld has no request waiting\n", v);
            } else if (!s->parks[found].answer) {
                fprintf(s->out, "(still waiting)\n");
            } else {
                fprintf(s->out, "%s\n", s->parks[found].answer);
                park_remove(s, found);
            }
        } else if (!strcmp(w0, ".help")) {
            fprintf(s->out, "%s's requests: %s\nmeta-lines: .advance MS, .client N, .crash-client N, .dump, .help, .time, "
                    ".wait N (locklab kind --help)\n", s->k->name,
                    s->k->requests ? s->k->requests : "(not listed here; a request it does not know is answered with its own error)");
        } else {
            fprintf(s->out, "(error) unknown meta-line; .advance MS, .client N, .crash-client N, .dump, .help, .time, .wait N\n");
        }
        resp_args_release(&a);
        return;
    }
    slice *argv = xcalloc((size_t)a.argc, sizeof *argv);
    for (int i = 0; i < a.argc; i++) argv[i] = (slice){ a.argv[i], a.len[i] };
    void *reply = xcalloc(1, s->k->reply_size);
    expire_due(s);
    s->running = s->client;
    s->parked_now = 0;
    s->k->exec(s->srv, s->client, 0, a.argc, argv, reply);
    buf b;
    buf_init(&b);
    s->k->reply_brief(reply, &b);
    fprintf(s->out, "%s\n", s->parked_now ? "(waits)" : b.p ? b.p : "");
    /* a beginner's "help" is a request the server does not know: say where the help is */
    if (!strcasecmp(a.argv[0], "help") && s->k->requests) fprintf(s->out, "  (locklab: type .help for %s's requests)\n", s->k->name);
    buf_release(&b);
    s->k->reply_release(reply);
    free(reply);
    free(argv);
    resp_args_release(&a);
}

int cli_kind(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        kind_usage(stdout);
        return EXIT_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        for (int i = 0; server_kind_at(i); i++) {
            const server_kind *k = server_kind_at(i);
            printf("%-10s %s\n", k->name, k->title ? k->title : "");
            for (int j = 0; k->options && k->options[j].name; j++)
                printf("           server_options.%s (default %lld%s): %s\n", k->options[j].name,
                       (long long)k->options[j].dflt, k->options[j].duration ? " ms" : "", k->options[j].help);
        }
        return EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-') {
        cli_error("kind: name a kind of server (locklab kind --list names them); try 'locklab kind --help'");
        return EXIT_USAGE;
    }
    const server_kind *k = server_kind_find(argv[1]);
    if (!k) {
        cli_error("kind: no kind of server '%s'; 'locklab kind --list' names them", argv[1]);
        return EXIT_USAGE;
    }
    int nopt = server_kind_noptions(k);
    int64_t *opts = xcalloc((size_t)nopt + 1, sizeof *opts);
    for (int j = 0; j < nopt; j++) opts[j] = k->options[j].dflt;
    for (int i = 2; i < argc; i++) {
        const char *eq = i + 1 < argc && !strcmp(argv[i], "--option") ? strchr(argv[i + 1], '=') : NULL;
        int j = 0;
        while (eq && j < nopt && (strlen(k->options[j].name) != (size_t)(eq - argv[i + 1]) ||
                                  strncmp(k->options[j].name, argv[i + 1], (size_t)(eq - argv[i + 1]))))
            j++;
        char *end = NULL;
        long long v = eq ? strtoll(eq + 1, &end, 10) : 0;
        if (!eq || j == nopt || end == eq + 1 || *end || v < k->options[j].lo || v > k->options[j].hi) {
            cli_error("kind: bad argument '%s'; --option NAME=VALUE takes one of the kind's options in its range "
                      "(locklab kind --list)", i + 1 < argc ? argv[i + 1] : argv[i]);
            free(opts);
            return EXIT_USAGE;
        }
        opts[j] = v;
        i++;
    }
    session s = { .k = k, .now = INT64_C(1700000000000), .out = stdout };
    kind_host host = {
        .ud = &s, .clock = s_clock, .changed = s_changed, .push = s_push, .park = s_park, .unpark = s_unpark,
        .nclients = KIND_CLIENTS, .client_base = 0, .options = opts,
    };
    s.srv = k->create(&host);
    k->set_replica(s.srv, 0);
    int rc = EXIT_OK;
    buf lb;
    buf_init(&lb);
    long lineno = 0;
    int more = 1;
    while (more) {
        /* one line, read in pieces so that a line without end (/dev/zero) is refused at the
         * limit instead of read whole */
        buf_reset(&lb);
        int got = 0, ended = 0, ch;
        while (!ended && lb.len <= KIND_LINE_MAX + 2 && (ch = getc(stdin)) != EOF) {
            got = 1;
            ended = ch == '\n';
            buf_putc(&lb, (char)ch);
        }
        if (!got) break;
        lineno++;
        if (lb.len > KIND_LINE_MAX + 2 || (lb.len > KIND_LINE_MAX && !ended)) {
            cli_error("kind: stdin:%ld: a line of over %zu bytes", lineno, KIND_LINE_MAX);
            rc = EXIT_USAGE;
            break;
        }
        more = ended;
        size_t n = lb.len;
        while (n > 0 && (lb.p[n - 1] == '\n' || lb.p[n - 1] == '\r')) lb.p[--n] = 0;
        run_line(&s, lb.p);
        fflush(stdout); /* a line's answer is out before the next is read: drivers wait for it */
    }
    buf_release(&lb);
    if (k->destroy) k->destroy(s.srv);
    while (s.nparks) park_remove(&s, s.nparks - 1);
    free(s.parks);
    free(opts);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("kind: cannot write the output: %s", strerror(errno));
        return EXIT_INTERNAL;
    }
    return rc;
}
