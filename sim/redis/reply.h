/* reply.h — a Redis reply as a value: what a command returns, what a script returns, what
 * travels back over the simulated network. The shape is RESP2's: status, error, integer,
 * bulk string, null bulk, null array, and arrays of replies (nested).
 *
 * A reply is embedded (reply_init / reply_release) and owns everything below it: strings
 * are heap copies, NUL-terminated for convenience, binary safe through `len`. */
#ifndef LOCKLAB_REPLY_H
#define LOCKLAB_REPLY_H

#include "util.h"

typedef enum reply_type {
    REPLY_NIL,       /* $-1 (null bulk) */
    REPLY_NIL_ARRAY, /* *-1 (null array) */
    REPLY_STATUS,    /* +OK */
    REPLY_ERROR,     /* -ERR ... (str holds the text without the '-') */
    REPLY_INTEGER,   /* :42 */
    REPLY_BULK,      /* $3 foo */
    REPLY_ARRAY,     /* *n ... */
    REPLY_MULTI,     /* several top-level replies in a row, held in elem[0..n): what
                        SUBSCRIBE a b sends (one confirmation per channel) */
    /* RESP3's own types, only in a reply to a connection that said HELLO 3 (reply_resp3
     * makes them from RESP2's and the tags below); aggregates first, as ARRAY and MULTI */
    REPLY_MAP,       /* %n: elem holds n keys and values in turn (2n replies) */
    REPLY_SET,       /* ~n */
    REPLY_PUSH,      /* >n: an out-of-band message (pub/sub) */
    REPLY_DOUBLE,    /* ,3.5 (str holds the text) */
    REPLY_NULL,      /* _ */
    REPLY_BOOL,      /* #t or #f (integer 1 or 0): only a script's boolean after
                        redis.setresp(3), answered to a RESP3 connection */
    REPLY_RAW        /* protocol bytes sent as they are (str): DEBUG PROTOCOL's RESP3 types
                        no other reply has (big number, verbatim string, attribute, push) */
} reply_type;

/* What a RESP2 reply becomes in RESP3, kept in `integer` of a BULK or ARRAY reply (which do
 * not use it otherwise): a command tags its reply as Redis 7.0's answers differ by protocol,
 * and RESP2 ignores the tags. */
enum {
    R3_DOUBLE = 1, /* a BULK: a double (reply_double tags it) */
    R3_MAP,        /* an ARRAY of keys and values in turn: a map */
    R3_SET,        /* an ARRAY: a set */
    R3_PAIRS,      /* an ARRAY of members and values in turn: an array of [member, value] */
    R3_PUSH,       /* an ARRAY: a push (pub/sub's confirmations and messages) */
};

typedef struct reply {
    reply_type type;
    long long integer;    /* REPLY_INTEGER */
    char *str;            /* STATUS, ERROR, BULK: owned, NUL-terminated */
    size_t len;           /* its length */
    struct reply *elem;   /* ARRAY: owned array of n replies */
    size_t n;
} reply;

void reply_init(reply *r);                 /* a NIL reply owning nothing */
void reply_release(reply *r);              /* frees what r owns and makes it NIL */
void reply_nil(reply *r);
void reply_nil_array(reply *r);
void reply_int(reply *r, long long v);
void reply_bool(reply *r, int v);          /* RESP3's boolean (REPLY_BOOL) */
void reply_raw(reply *r, const char *p, size_t len); /* REPLY_RAW: these protocol bytes */
void reply_status(reply *r, const char *s);
void reply_status_len(reply *r, const char *p, size_t len);
void reply_ok(reply *r);
void reply_error(reply *r, const char *s);                 /* s without the leading '-' */
void reply_errorf(reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void reply_bulk(reply *r, const char *p, size_t len);      /* copies */
void reply_bulk_cstr(reply *r, const char *s);
void reply_bulk_take(reply *r, char *p, size_t len);       /* takes ownership of p (NUL at p[len]) */
void reply_double(reply *r, double d);                     /* bulk, as Redis 7.0 prints doubles */
reply *reply_array(reply *r, size_t n);   /* n NIL elements; returns r->elem for filling */
reply *reply_multi(reply *r, size_t n);   /* the same, as n separate top-level replies */
void reply_move(reply *dst, reply *src);  /* dst (released first) takes src; src becomes NIL */
void reply_copy(reply *dst, const reply *src);
int reply_equal(const reply *a, const reply *b);
int reply_is_error(const reply *r);

/* The Redis wire encoding: RESP2, or RESP3 for the types above. */
void reply_to_resp(const reply *r, buf *out);
/* Makes r the reply Redis 7.0 gives a RESP3 connection: nulls become `_`, tagged replies
 * their RESP3 types (maps, sets, doubles, pairs, pushes), recursively. */
void reply_resp3(reply *r);
/* Tags an ARRAY reply (R3_MAP, ...) and returns its elements. */
static inline reply *reply_tag(reply *r, int tag)
{
    r->integer = tag;
    return r->elem;
}
/* Exactly what `redis-cli --no-raw` prints for this reply, with a final newline. */
void reply_to_cli(const reply *r, buf *out);
/* A compact one-line rendering for narrated traces: OK, nil, 42, "v", [1, "a"], (error) ERR x */
void reply_to_brief(const reply *r, buf *out);

#endif
