/* pg_reply.c — a reply of the fake PostgreSQL (pg_reply.h): made an error, released, and
 * written on one line. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pg_reply.h"

void pg_reply_error(pgreply *r, const char *state, const char *fmt, ...)
{
    char *w = r->warnings;
    r->warnings = NULL;
    pg_reply_release(r);
    r->warnings = w;
    r->type = PG_ERR;
    memcpy(r->state, state, 5);
    r->state[5] = 0;
    va_list ap;
    va_start(ap, fmt);
    r->msg = xvformat(fmt, ap);
    va_end(ap);
}

void pg_reply_release(pgreply *r)
{
    free(r->msg);
    for (int i = 0; i < r->ncols; i++) free(r->labels[i]);
    free(r->labels);
    free(r->cells);
    free(r->warnings);
    memset(r, 0, sizeof *r);
}

static void print_val(const pgval *v, buf *out)
{
    switch (v->t) {
    case PV_NULL: buf_puts(out, "NULL"); break;
    case PV_BOOL: buf_puts(out, v->i ? "t" : "f"); break;
    case PV_INT: buf_printf(out, "%lld", (long long)v->i); break;
    case PV_VOID: buf_puts(out, "''"); break;
    }
}

void pg_reply_brief(const pgreply *r, buf *out)
{
    if (r->type == PG_ERR) {
        buf_printf(out, "ERROR %s: %s", r->state, r->msg);
    } else if (r->type == PG_CMD) {
        buf_puts(out, r->tag);
    } else {
        for (int j = 0; j < r->ncols; j++) {
            if (j) buf_puts(out, " | ");
            print_val(&r->cells[j], out);
        }
    }
    if (r->warnings) {
        buf_puts(out, " (WARNING: ");
        for (const char *p = r->warnings; *p; p++) {
            if (*p == '\n') buf_puts(out, "; WARNING: ");
            else buf_putc(out, *p);
        }
        buf_putc(out, ')');
    }
}
