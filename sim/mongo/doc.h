/* doc.h — the fake MongoDB's values: documents of ordered fields, as BSON holds them, read
 * from and written as MongoDB Extended JSON (relaxed: numbers plain, dates {"$date": ms}).
 *
 * Types: null, booleans, 64-bit integers, strings, dates (ms since the epoch, BSON's UTC
 * datetime), documents and arrays. Doubles, ObjectIds and the rest of BSON are outside the
 * subset (a number with a fraction or an exponent is refused). Comparison follows BSON's
 * order between types (null < numbers < strings < documents < arrays < booleans < dates)
 * and within one type its natural order; strings compare bytewise (the simple collation). */
#ifndef LOCKLAB_MONGO_DOC_H
#define LOCKLAB_MONGO_DOC_H

#include <stdint.h>

#include "util.h"

typedef enum dtype { D_NULL, D_BOOL, D_INT, D_STR, D_DATE, D_DOC, D_ARRAY } dtype;

typedef struct dval dval;
typedef struct dfield dfield;

/* A document or an array: n fields in order (an array's names are "0", "1", ...). */
typedef struct ddoc {
    int n, cap;
    dfield *f;
} ddoc;

struct dval {
    dtype t;
    int64_t i;        /* D_BOOL, D_INT, D_DATE (ms) */
    char *s;          /* D_STR (owned, NUL-terminated, may hold NULs) */
    size_t len;
    ddoc *d;          /* D_DOC, D_ARRAY (owned) */
};

struct dfield {
    char *name;
    dval v;
};

/* Parses Extended JSON (one value, a document at the top). 0, or -1 with a message in err. */
int doc_parse(const char *text, size_t len, dval *out, buf *err);
/* Appends v as relaxed Extended JSON on one line, fields in their order. */
void doc_print(const dval *v, buf *out);

ddoc *doc_new(void);
void doc_free(ddoc *d);
ddoc *doc_clone(const ddoc *d);
void dval_copy(dval *dst, const dval *src);
void dval_release(dval *v);

const dval *doc_get(const ddoc *d, const char *name);
/* Sets name to a copy of v (replacing its value in place, or appending the field). */
void doc_set(ddoc *d, const char *name, const dval *v);
/* Appends name with v, taking v. */
void doc_put(ddoc *d, const char *name, dval v);
int doc_unset(ddoc *d, const char *name);

int dval_cmp(const dval *a, const dval *b);
dval dv_int(int64_t i);
dval dv_bool(int b);
dval dv_str(const char *s);
dval dv_doc(ddoc *d);
dval dv_array(ddoc *d);

#endif
