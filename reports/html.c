/* html.c — the static page of a run (`--html-static`), for printing: the lesson (the
 * scenario's `about`), the verdicts with their evidence, the gnuplot timeline and the
 * space-time diagram (both inline SVG), and the narrated trace. No scripts, no fonts or
 * images fetched from anywhere: the file opens offline. The page to step through a run in
 * class is the player (html_player.c). */
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "timeline.h"
#include "trace.h"

void html_esc(buf *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': buf_puts(out, "&amp;"); break;
        case '<': buf_puts(out, "&lt;"); break;
        case '>': buf_puts(out, "&gt;"); break;
        case '"': buf_puts(out, "&quot;"); break;
        default: buf_putc(out, *s);
        }
    }
}

void html_title(buf *out, const scenario *sc, uint64_t seed)
{
    buf_puts(out, "<h1>");
    html_esc(out, sc->name);
    buf_puts(out, "</h1>\n<p class=\"meta\">protocol <b>");
    html_esc(out, sc->protocol);
    buf_puts(out, "</b> · scripts <b>");
    html_esc(out, sc->scripts ? sc->scripts : "HEAD");
    buf_printf(out, "</b> · seed <b>%llu</b> · mode %s · ", (unsigned long long)seed, sc->mode ? sc->mode : "single");
    const char *base = sc->path ? strrchr(sc->path, '/') : NULL;
    html_esc(out, base ? base + 1 : sc->path ? sc->path : "");
    buf_puts(out, "</p>\n");
}

static const char css[] =
    "body{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:22px;line-height:1.45;margin:1.5em auto;"
    "max-width:1500px;padding:0 1em;color:#212121;background:#fff}"
    "h1{font-size:1.9em;margin:.2em 0}h2{font-size:1.4em;border-bottom:3px solid #1565c0;margin-top:1.6em}"
    ".meta{color:#555;font-size:.95em}.about{white-space:pre-wrap;background:#f5f7fa;border-left:6px solid #1565c0;"
    "padding:.6em 1em}"
    "table{border-collapse:collapse;font-size:1em}td,th{padding:.35em .8em;border-bottom:1px solid #ddd;text-align:left}"
    ".holds{color:#1b5e20;font-weight:bold}.violated{color:#c62828;font-weight:bold}.nj{color:#757575}"
    ".met{color:#1b5e20}.unmet{color:#c62828;font-weight:bold}.evidence{font-size:.9em;color:#333}"
    ".pic{overflow-x:auto;border:1px solid #e0e0e0;padding:.5em;background:#fff}.pic svg{max-width:100%;height:auto}"
    /* the space-time diagram keeps its natural size (13 px text), scrolling inside its box
     * both ways rather than shrinking five nodes' columns to 7 px text; on paper it fits */
    ".pic svg.st{max-width:none}.pic:has(>svg.st){max-height:90vh;overflow:auto}"
    "@media print{.pic svg.st{max-width:100%}.pic:has(>svg.st){max-height:none;overflow:visible}}"
    "pre{font-size:17px;line-height:1.35;background:#fafafa;border:1px solid #e0e0e0;padding:1em;overflow-x:auto}";

static void verdicts(buf *out, const scenario *sc, const check_result *cr)
{
    buf_puts(out, "<table><tr><th>property</th><th>verdict</th><th>expected</th></tr>\n");
    for (int p = 0; p < PROP_COUNT; p++) {
        const prop_result *r = &cr->p[p];
        const expect_cfg *ex = check_expectation(sc, (property)p);
        if (r->v == VERDICT_NOT_JUDGED && !ex) continue;
        const char *cls = r->v == VERDICT_HOLDS ? "holds" : r->v == VERDICT_VIOLATED ? "violated" : "nj";
        const char *word = r->v == VERDICT_HOLDS ? "holds" : r->v == VERDICT_VIOLATED ? "VIOLATED" : "not judged";
        buf_printf(out, "<tr><td>%s</td><td class=\"%s\">%s</td><td>", property_name((property)p), cls, word);
        if (ex) {
            int met = (r->v == VERDICT_VIOLATED) == ex->violated && r->v != VERDICT_NOT_JUDGED;
            buf_printf(out, "<span class=\"%s\">%s %s</span>", met ? "met" : "unmet", met ? "✓ as expected:" : "✗ expected",
                       ex->violated ? "violated" : "holds");
        }
        buf_puts(out, "</td></tr>\n");
        if (r->evidence) {
            buf_puts(out, "<tr><td></td><td colspan=\"2\" class=\"evidence\">");
            html_esc(out, r->evidence);
            buf_puts(out, "</td></tr>\n");
        }
    }
    buf_puts(out, "</table>\n");
}

/* gnuplot's SVG without its XML prologue and doctype, ready to inline. */
static void inline_svg(buf *out, const buf *svg)
{
    const char *p = svg->p ? strstr(svg->p, "<svg") : NULL;
    if (p) buf_append(out, p, svg->len - (size_t)(p - svg->p));
}

int html_static_report(const history *h, const scenario *sc, const check_result *cr, uint64_t seed,
                       const char *path, buf *err, int *io)
{
    *io = 0;
    buf timeline;
    buf_init(&timeline);
    if (timeline_svg(h, sc, seed, &timeline, err, io) != 0) {
        buf_release(&timeline);
        return -1;
    }
    buf out;
    buf_init(&out);
    buf_puts(&out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    html_esc(&out, sc->name);
    buf_printf(&out, " — locklab</title>\n<style>%s</style>\n</head>\n<body>\n", css);
    html_title(&out, sc, seed);
    buf_puts(&out, "<div class=\"about\">");
    html_esc(&out, sc->about);
    buf_puts(&out, "</div>\n<h2>Verdicts</h2>\n");
    verdicts(&out, sc, cr);
    buf_puts(&out, "<h2>Timeline</h2>\n<div class=\"pic\">\n");
    inline_svg(&out, &timeline);
    buf_puts(&out, "</div>\n<h2>Space-time diagram</h2>\n<div class=\"pic\">\n");
    spacetime_svg(h, sc, &out);
    buf_puts(&out, "</div>\n<h2>What happened</h2>\n<pre>");
    buf trace;
    buf_init(&trace);
    trace_render(h, TRACE_NORMAL, &trace);
    html_esc(&out, trace.p);
    buf_puts(&out, "</pre>\n<p class=\"meta\">made by locklab run; the same scenario and seed always give this page</p>\n"
                   "</body>\n</html>\n");
    int rc = tl_write_file(path, &out, err, io);
    buf_release(&trace);
    buf_release(&out);
    buf_release(&timeline);
    return rc;
}
