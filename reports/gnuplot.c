/* gnuplot.c — the pieces both gnuplot pictures use (see gnuplot.h): quoting a string for a
 * script, and asking whether there is a gnuplot to run before writing one. */
#include "gnuplot.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void gp_quote(buf *out, const char *s)
{
    buf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') buf_putc(out, '\\');
        if (*s == '\n') buf_puts(out, "\\n");
        else buf_putc(out, *s);
    }
    buf_putc(out, '"');
}

/* 1 when an executable `name` is on $PATH. */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    buf b;
    buf_init(&b);
    int found = 0;
    while (!found) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        buf_reset(&b);
        if (len) buf_append(&b, path, len);
        else buf_putc(&b, '.');
        buf_printf(&b, "/%s", name);
        found = access(b.p, X_OK) == 0;
        if (!colon) break;
        path = colon + 1;
    }
    buf_release(&b);
    return found;
}

int gp_installed(void)
{
    return on_path("gnuplot");
}
