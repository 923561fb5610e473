/* gnuplot.c — the pieces the gnuplot pictures use (see gnuplot.h): quoting a string for a
 * script, asking whether there is a gnuplot to run before writing one, and running it.
 *
 * Whatever a scenario, a table or a command line puts in a picture is data, never code:
 * strings reach gnuplot single-quoted (gnuplot expands `backquotes` and @macros in
 * double-quoted strings and on the bare command line, never in single-quoted ones), a
 * newline as the string expression "\n" between single-quoted pieces (a newline inside a
 * quoted string would end the command and start another). No file name enters a script:
 * gnuplot draws to its standard output, a pipe we read, and we write the file ourselves, so
 * a full disk is our error (exit 3) and never a truncated picture. gnuplot is run with an
 * argument vector (no shell); its script comes from, and its complaints go to, anonymous
 * temporary files (already unlinked: no name in /tmp to guess or to plant a link at). */
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A picture larger than this is not one gnuplot drew for us. */
#define GP_IMAGE_MAX ((size_t)256 << 20)

static void quote(buf *out, const char *s, int percent)
{
    buf_putc(out, '\'');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\n') buf_puts(out, "'.\"\\n\".'");
        else if (ch == '\'') buf_puts(out, "''");
        else if (ch == '%' && percent) buf_puts(out, "%%");
        else if (ch < 0x20 || ch == 0x7f) buf_putc(out, ' '); /* a control character ends nothing, shows as a space */
        else buf_putc(out, (char)ch);
    }
    buf_putc(out, '\'');
}

void gp_quote(buf *out, const char *s)
{
    quote(out, s, 0);
}

void gp_quote_format(buf *out, const char *s)
{
    quote(out, s, 1);
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

/* An anonymous temporary file (already unlinked), or -1. */
static int anon_file(void)
{
    const char *dir = getenv("TMPDIR");
    buf b;
    buf_init(&b);
    buf_printf(&b, "%s/locklab-gnuplot-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(b.p);
    if (fd >= 0) unlink(b.p);
    buf_release(&b);
    return fd;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = ENOSPC;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The first line of gnuplot's complaint that says something. */
static void first_error_line(int fd, buf *err)
{
    char text[2048];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0) {
        buf_puts(err, "no message");
        return;
    }
    text[n] = 0;
    char *line = text, *best = NULL, *any = NULL;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (!any && strspn(line, " \t^") != strlen(line)) any = line;
        if (!best && (strstr(line, "rror") || !strncmp(line, "line ", 5) || strstr(line, " line "))) best = line;
        line = nl ? nl + 1 : NULL;
    }
    buf_puts(err, best ? best : any ? any : "no message");
}

/* Whether image is a whole picture of its kind: a PNG ends with its IEND chunk, an SVG
 * with </svg>. gnuplot that could not write all of it may still exit 0. */
static int whole(const buf *image, int svg)
{
    if (svg) {
        size_t n = image->len;
        while (n > 0 && (image->p[n - 1] == '\n' || image->p[n - 1] == ' ' || image->p[n - 1] == '\r')) n--;
        return n >= 6 && !memcmp(image->p + n - 6, "</svg>", 6);
    }
    static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
    return image->len >= 20 && !memcmp(image->p, sig, 8) && !memcmp(image->p + image->len - 12, iend, 12);
}

/* gnuplot's SVG writes text with < and & escaped but not '>', so a title holding "]]>"
 * (which XML forbids in character data) makes the file ill-formed (the audit's N8): each
 * "]]>" outside a CDATA section becomes "]]&gt;". */
static void svg_fix_cdata_end(buf *image)
{
    size_t n = 0;
    for (size_t i = 0; i + 3 <= image->len; i++) n += !memcmp(image->p + i, "]]>", 3);
    if (!n) return;
    buf out;
    buf_init(&out);
    int in_cdata = 0;
    for (size_t i = 0; i < image->len; i++) {
        if (!in_cdata && i + 9 <= image->len && !memcmp(image->p + i, "<![CDATA[", 9)) {
            buf_append(&out, image->p + i, 9);
            i += 8;
            in_cdata = 1;
        } else if (i + 3 <= image->len && !memcmp(image->p + i, "]]>", 3)) {
            buf_puts(&out, in_cdata ? "]]>" : "]]&gt;");
            i += 2;
            in_cdata = 0;
        } else {
            buf_putc(&out, image->p[i]);
        }
    }
    buf_release(image);
    *image = out;
}

int gp_render(const buf *script, int svg, buf *image, buf *err, int *io)
{
#ifdef LOCKLAB_NO_HOST
    /* The playground (web/): no processes to run gnuplot in; the page draws its own pictures. */
    buf_puts(err, "gnuplot pictures are not part of the browser build (the page draws the run; the native locklab plots)");
    *io = 0;
    return -1;
#endif
    if (!gp_installed()) {
        buf_puts(err, "gnuplot is not installed (install it with 'make deps' or 'apt-get install gnuplot-nox')");
        *io = 0;
        return -1;
    }
    *io = 1;
    int in = anon_file(), errfd = anon_file(), out[2] = { -1, -1 };
    if (in < 0 || errfd < 0 || write_all(in, script->p, script->len) != 0 || lseek(in, 0, SEEK_SET) != 0 ||
        pipe(out) != 0) {
        buf_printf(err, "cannot make a temporary file for gnuplot: %s", strerror(errno));
        if (in >= 0) close(in);
        if (errfd >= 0) close(errfd);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in, 0);
        dup2(out[1], 1);
        dup2(errfd, 2);
        close(out[0]);
        char *const argv[] = { "gnuplot", NULL };
        execvp("gnuplot", argv);
        _exit(127);
    }
    close(out[1]);
    int rc = 0, too_big = 0;
    if (pid > 0) {
        char chunk[16384];
        for (;;) {
            ssize_t n = read(out[0], chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            if (image->len + (size_t)n > GP_IMAGE_MAX) {
                too_big = 1;
                kill(pid, SIGKILL);
                break;
            }
            buf_append(image, chunk, (size_t)n);
        }
    }
    close(out[0]);
    int status = 0;
    pid_t w = -1;
    if (pid > 0)
        while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {}
    if (pid < 0 || w < 0) {
        buf_printf(err, "cannot run gnuplot: %s", strerror(errno));
        rc = -1;
    } else if (too_big) {
        buf_puts(err, "gnuplot failed: its picture is over 256 MiB");
        rc = -1;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        buf_puts(err, "gnuplot failed: ");
        first_error_line(errfd, err);
        rc = -1;
    } else if (!whole(image, svg)) {
        buf_puts(err, image->len ? "gnuplot failed: its picture is cut short" : "gnuplot failed: it wrote nothing");
        rc = -1;
    }
    if (rc == 0 && svg) svg_fix_cdata_end(image);
    close(in);
    close(errfd);
    return rc;
}

int gp_draw(const char *path, void (*script)(const void *ud, int svg, buf *gp), const void *ud, buf *err)
{
    size_t len = strlen(path);
    int svg = len > 4 && !strcmp(path + len - 4, ".svg");
    buf gp, image, why;
    buf_init(&gp);
    buf_init(&image);
    buf_init(&why);
    script(ud, svg, &gp);
    int io;
    buf_reset(err);
    int rc = gp_render(&gp, svg, &image, &why, &io);
    if (rc != 0) buf_printf(err, "could not draw '%s': %s", path, why.p);
    else rc = ll_write_file(path, image.p, image.len, err);
    buf_release(&gp);
    buf_release(&image);
    buf_release(&why);
    return rc;
}
