/* resp.h — the Redis protocol as a server reads it: RESP2 requests ("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n")
 * and inline commands ("GET k\r\n"), cut into argument vectors, with Redis 7.0's protocol
 * errors; and the inline tokenizer (Redis's sdssplitargs, which redis-cli uses for what a
 * user types too, so `locklab redis` shares it).
 *
 * The parser reads a caller's buffer from a position and remembers where it is inside a
 * request (elements still to come, the length of the bulk being read), so bytes arriving a
 * few at a time are read once each and a 512 MB argument costs one copy. It follows
 * processInlineBuffer / processMultibulkBuffer of Redis 7.0 (networking.c) rule for rule,
 * as observed against redis-server 7.0.15:
 *   - a request starting with '*' is multibulk, anything else inline;
 *   - inline: a line ends at '\n' (a '\r' before it is dropped); the line is looked for as
 *     a C string, so a NUL byte before the newline hides it (the request never completes);
 *     more than 64 KiB without one is "too big inline request"; bad quotes are "unbalanced
 *     quotes in request"; an empty line is no command;
 *   - multibulk: "*<n>\r\n" with n a canonical integer up to INT_MAX ("invalid multibulk
 *     length"), n <= 0 is no command; then n times "$<len>\r\n" ("expected '$', got 'c'",
 *     "invalid bulk length" for len < 0, non-canonical or over 512 MB) and len bytes and two
 *     more that are not checked; a count line over 64 KiB is "too big mbulk count string"
 *     or "too big bulk count string";
 *   - each error closes the connection after the replies before it (the caller's part). */
#ifndef LOCKLAB_RESP_H
#define LOCKLAB_RESP_H

#include "util.h"

/* The words of one request. Each word is owned, NUL-terminated and binary safe (len). */
typedef struct resp_args {
    int argc;
    char **argv;
    size_t *len;
    int cap; /* slots allocated in argv and len: they grow by doubling */
} resp_args;

void resp_args_push(resp_args *a, const char *p, size_t n); /* copies */
void resp_args_release(resp_args *a);                       /* frees all; a becomes empty */

/* Splits a NUL-terminated line as sdssplitargs does: blanks separate words; "double quotes"
 * know \n \r \t \b \a \\ \" and \xHH (any other \c is c); 'single quotes' know only \';
 * quotes may start inside a word (a"b c" is one word); a closing quote must be followed by
 * a blank or the end of the line. Returns 0 and fills *out (argc 0 for a blank line), or -1
 * for unbalanced or badly closed quotes (then *out is empty). */
int resp_split(const char *line, resp_args *out);

#define RESP_INLINE_MAX ((size_t)64 << 10)   /* PROTO_INLINE_MAX_SIZE */
#define RESP_BULK_MAX (512LL << 20)          /* proto-max-bulk-len's default */

typedef struct resp_parser {
    int reqtype;            /* 0: between requests, 1: inline, 2: multibulk */
    long long multibulklen; /* elements of the current multibulk still to read */
    long long bulklen;      /* the bulk being read, -1 while reading its "$<len>" line */
    resp_args args;         /* the request read so far */
    size_t bytes;           /* the bytes of its words */
} resp_parser;

typedef enum resp_status {
    RESP_MORE,    /* the buffer ends inside a request: call again with more bytes */
    RESP_COMMAND, /* p->args holds a whole request (argc >= 1) */
    RESP_ERROR    /* a protocol error: err holds Redis's text ("Protocol error: ...") */
} resp_status;

void resp_parser_init(resp_parser *p);
void resp_parser_release(resp_parser *p);

/* Reads data[*pos .. len) (data[len] must be readable and NUL: a buffer's terminator) and
 * moves *pos past what it consumed. On RESP_COMMAND, p->args holds the request until the
 * next call (which clears it). Requests with no words are skipped. After RESP_ERROR the
 * parser is spent (the connection is to close). */
resp_status resp_parse(resp_parser *p, const char *data, size_t len, size_t *pos, buf *err);

/* Bytes the parser holds for the request being read (its words so far and their
 * slots), for a connection's query-buffer limit. */
size_t resp_parser_bytes(const resp_parser *p);

#endif
