/* gnuplot.c — the pieces the gnuplot pictures use (see gnuplot.h): quoting a string for a
 * script, asking whether there is a gnuplot to run before writing one, and running it on a
 * script into a file that appears only once it is complete. */
#include "gnuplot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

int gp_draw(const char *path, void (*script)(const void *ud, const char *tmp_out, int svg, buf *gp), const void *ud,
            buf *err)
{
    size_t len = strlen(path);
    int svg = len > 4 && !strcmp(path + len - 4, ".svg");
    buf tmp, gp, cmd, log;
    buf_init(&tmp);
    buf_init(&gp);
    buf_init(&cmd);
    buf_init(&log);
    buf_printf(&tmp, "%s.tmp.%d", path, (int)getpid());
    buf_printf(&log, "/tmp/locklab-gnuplot.%d.log", (int)getpid());
    script(ud, tmp.p, svg, &gp);
    buf_printf(&cmd, "gnuplot 2>%s", log.p);
    int rc = -1;
    FILE *f = popen(cmd.p, "w");
    if (f) {
        int ok = fwrite(gp.p, 1, gp.len, f) == gp.len;
        int status = pclose(f);
        rc = ok && status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && access(tmp.p, R_OK) == 0 ? 0 : -1;
    }
    buf_reset(err);
    if (rc == 0 && ll_install_file(tmp.p, path) != 0) {
        buf_printf(err, "cannot write '%s': %s", path, strerror(errno));
        rc = -1;
    } else if (rc != 0) {
        /* gnuplot's first complaint, on one line */
        char first[200] = "";
        FILE *lf = fopen(log.p, "r");
        while (lf && fgets(first, sizeof first, lf) && strspn(first, " \t\n^") == strlen(first)) {}
        if (lf) fclose(lf);
        first[strcspn(first, "\n")] = 0;
        buf_printf(err, "gnuplot could not draw '%s'%s%s", path, *first ? ": " : "", first);
    }
    remove(tmp.p);
    remove(log.p);
    buf_release(&tmp);
    buf_release(&gp);
    buf_release(&cmd);
    buf_release(&log);
    return rc;
}
