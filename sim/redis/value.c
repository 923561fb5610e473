/* value.c — what every value is made of (value.h): the string value (an sstr: length, then
 * the bytes, then a NUL that is not part of the value, in a block of sstr_block_size(len)
 * bytes, which lets the keyspace reuse a deleted string's block), the encodings' default
 * limits, and redis-cli's quoting of bytes. */
#include "value.h"

#include <ctype.h>
#include <string.h>

sstr *sstr_new(const char *p, size_t len)
{
    return sstr_fill(xmalloc(sstr_block_size(len)), p, len);
}

sstr *sstr_fill(void *block, const char *p, size_t len)
{
    sstr *s = block;
    s->len = len;
    if (len) memcpy(s->p, p, len);
    s->p[len] = '\0';
    return s;
}

const enc_limits enc_limits_default = { 512, 64, 512, 128, 64 };

/* sdscatrepr: the quoting redis-cli uses for bulk strings. isprint() is asked about the C
 * locale's idea of printable, as Redis does, so bytes >= 0x80 come out as \xHH. Written into
 * room reserved a piece at a time (at most 4 bytes a byte), not a printf a byte: the history
 * describes every write with it, and a printf for each of a large value's first 32 bytes was
 * 3/4 of serve's time on an APPEND (issue 37, perf). */
void dump_repr(buf *out, const char *p, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    buf_putc(out, '"');
    for (size_t at = 0; at < len; at += 4096) {
        size_t end = len - at > 4096 ? at + 4096 : len;
        buf_reserve(out, 4 * (end - at));
        char *w = out->p + out->len;
        for (size_t i = at; i < end; i++) {
            unsigned char c = (unsigned char)p[i];
            char esc = 0;
            switch (c) {
            case '\\': esc = '\\'; break;
            case '"': esc = '"'; break;
            case '\n': esc = 'n'; break;
            case '\r': esc = 'r'; break;
            case '\t': esc = 't'; break;
            case '\a': esc = 'a'; break;
            case '\b': esc = 'b'; break;
            default:
                if (c < 0x80 && isprint(c)) *w++ = (char)c;
                else *w++ = '\\', *w++ = 'x', *w++ = hex[c >> 4], *w++ = hex[c & 15];
                continue;
            }
            *w++ = '\\', *w++ = esc;
        }
        out->len = (size_t)(w - out->p);
        out->p[out->len] = '\0';
    }
    buf_putc(out, '"');
}
