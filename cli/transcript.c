/* transcript.c — recorded `locklab redis` sessions as regression tests: the parser of the
 * `> command` / expected-output format, and the replay that runs each command in a session
 * (repl.c) and reports, FILE:LINE by FILE:LINE, where what it printed differs from what the
 * transcript expects. It reads no files and prints nothing itself: the text comes in and the
 * report goes out in buffers, so the subcommand (redis.c) and the tests drive it alike. See
 * repl.h for the format and the report's form. */
#include "repl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void transcript_push(transcript *t, transcript_kind kind, int line, const char *text,
                            size_t len)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->item = xrealloc(t->item, t->cap * sizeof *t->item);
    }
    transcript_item *it = &t->item[t->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->line = line;
    it->text = xmemdup(text, len);
    if (kind == TRANSCRIPT_COMMAND) {
        it->expected = xstrdup("");
        it->expected_cap = 1;
    }
}

/* Appends one expected line (and its '\n'); the buffer doubles, so a reply of a million
 * lines parses in linear time. */
static void transcript_expect(transcript_item *it, const char *p, size_t n)
{
    size_t need = it->expected_len + n + 2;
    if (need > it->expected_cap) {
        it->expected_cap = need > 2 * it->expected_cap ? need : 2 * it->expected_cap;
        it->expected = xrealloc(it->expected, it->expected_cap);
    }
    memcpy(it->expected + it->expected_len, p, n);
    it->expected_len += n;
    it->expected[it->expected_len++] = '\n';
    it->expected[it->expected_len] = '\0';
    it->nexpected++;
}

static int transcript_blank(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isspace((unsigned char)p[i])) return 0;
    return 1;
}

int transcript_parse(const char *text, size_t len, transcript *t, buf *err)
{
    memset(t, 0, sizeof *t);
    int lineno = 0, in_block = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *p = text + pos;
        const char *nl = memchr(p, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - p) : len - pos;
        pos += n + (nl ? 1 : 0);
        lineno++;
        if (n > 0 && p[n - 1] == '\r') n--;
        if (memchr(p, '\0', n)) {
            buf_printf(err, "line %d: a NUL byte (a transcript is text: is this a binary file?)",
                       lineno);
            transcript_release(t);
            return -1;
        }
        if (n > 0 && p[0] == '#') {
            size_t skip = n > 1 && p[1] == ' ' ? 2 : 1;
            transcript_push(t, TRANSCRIPT_COMMENT, lineno, p + skip, n - skip);
            in_block = 0;
        } else if (transcript_blank(p, n)) {
            in_block = 0;
        } else if (p[0] == '>') {
            size_t skip = n > 1 && p[1] == ' ' ? 2 : 1;
            transcript_push(t, TRANSCRIPT_COMMAND, lineno, p + skip, n - skip);
            in_block = 1;
        } else if (in_block) {
            transcript_expect(&t->item[t->n - 1], p, n);
        } else {
            buf_printf(err, "line %d: expected output with no '> command' line above it", lineno);
            transcript_release(t);
            return -1;
        }
    }
    return 0;
}

void transcript_release(transcript *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->item[i].text);
        free(t->item[i].expected);
    }
    free(t->item);
    memset(t, 0, sizeof *t);
}

/* Appends "FILE:LINE: <label><line>" for each line of text; "(no output)" for none. Expected
 * lines carry their own line numbers (first is the first one's), actual ones the command's.
 * Past REPL_REPORT_LINES lines one more line counts the rest: a runaway repeat's 13 million
 * PONGs would otherwise make a report of a gigabyte that nobody reads. */
#define REPL_REPORT_LINES 1000

static void transcript_report_lines(buf *out, const char *file, int first, int step,
                                    const char *label, const char *text)
{
    if (!*text) {
        buf_printf(out, "%s:%d: %s(no output)\n", file, first, label);
        return;
    }
    int line = first;
    for (int shown = 0; *text; shown++) {
        const char *nl = strchr(text, '\n');
        if (shown == REPL_REPORT_LINES) {
            size_t more = 0;
            for (; nl; nl = strchr(nl + 1, '\n')) more++;
            if (text[strlen(text) - 1] != '\n') more++;
            buf_printf(out, "%s:%d: %s... and %zu more lines\n", file, line, label, more);
            return;
        }
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        buf_printf(out, "%s:%d: %s%.*s\n", file, line, label, (int)n, text);
        text += n + (nl ? 1 : 0);
        line += step;
    }
}

static void transcript_report(buf *out, const char *file, const transcript_item *it,
                              const char *got)
{
    buf_printf(out, "%s:%d: > %s\n", file, it->line, it->text);
    transcript_report_lines(out, file, it->nexpected ? it->line + 1 : it->line, 1, "expected: ",
                            it->expected);
    transcript_report_lines(out, file, it->line, 0, "     got: ", got);
}

void transcript_run(repl *r, const transcript *t, const char *file, int play, buf *out,
                    transcript_tally *tally)
{
    buf got;
    buf_init(&got);
    int after_command = 0; /* a narration block after replies starts with a blank line */
    for (size_t i = 0; i < t->n; i++) {
        const transcript_item *it = &t->item[i];
        if (it->kind == TRANSCRIPT_COMMENT) {
            if (play) buf_printf(out, "%s%s\n", after_command ? "\n" : "", it->text);
            after_command = 0;
            continue;
        }
        after_command = 1;
        buf_reset(&got);
        repl_exec_line(r, it->text, &got);
        const char *g = got.p ? got.p : "";
        if (play) buf_printf(out, "locklab> %s\n%s", it->text, g);
        if (got.len == it->expected_len && memcmp(g, it->expected, got.len) == 0) {
            tally->passed++;
        } else {
            tally->failed++;
            transcript_report(out, file, it, g);
        }
    }
    buf_release(&got);
}
