/* html_player.c — the page to step through a run in class (`locklab run --html FILE`), in
 * the spirit of RaftScope and "The Secret Lives of Data", but driven by the real run: a time
 * cursor over a timeline and a space-time window, with play, pause, speed, steps and jumps
 * to faults and violations; at the cursor, each node's keys with their TTL as that node's
 * clock reads it, what each client believes, the messages in flight, every clock beside true
 * time, the narrated line, and the script a node runs with its redis.calls.
 *
 * One file and nothing fetched: the run's data as JSON (html_data.c), then our own script
 * and style sheet (html_assets.c). What is written here is the frame of the page, and what
 * reads without the script: the title, the lesson and a pointer to `--html-static`. */
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "timeline.h"

static const char frame[] =
    "<div id=\"controls\" class=\"bar\" hidden>\n"
    "<div class=\"buttons\">"
    "<button id=\"b-start\" title=\"the start (Home)\">⇤</button>"
    "<button id=\"b-prev\" title=\"the previous step (←)\">◀ step</button>"
    "<button id=\"b-play\" class=\"play\" title=\"play or pause (space)\">▶ play</button>"
    "<button id=\"b-next\" title=\"the next step (→)\">step ▶</button>"
    "<button id=\"b-fault\" title=\"the next fault (f)\">⚡ next fault</button>"
    "<button id=\"b-violation\" title=\"the moment a property breaks (v)\">✗ violation</button>\n"
    "<label>speed <select id=\"speed\"></select></label>"
    "<label title=\"jump over stretches where nothing happens\"><input type=\"checkbox\" id=\"skip\" checked> skip quiet</label>"
    "<label>steps <select id=\"detail\"><option value=\"1\">every message</option>"
    "<option value=\"0\">the story only</option></select></label>\n"
    "<span id=\"now\" class=\"now\"></span></div>\n"
    "<input type=\"range\" id=\"scrub\" min=\"-1\" max=\"0\" value=\"-1\" aria-label=\"step\">\n"
    "<div id=\"line\" class=\"line\"></div>\n"
    "</div>\n"
    "<div id=\"timeline\" class=\"panel\"></div>\n"
    "<section id=\"stage\" class=\"panel\"><h2>The world at the cursor</h2><div id=\"world\"></div></section>\n"
    "<div class=\"main\">\n"
    "<section class=\"panel\"><h2>What happened</h2><ol id=\"story\"></ol></section>\n"
    "<section id=\"script\" class=\"panel\"></section>\n"
    "</div>\n"
    "<section class=\"panel\"><h2>Space-time diagram around the cursor</h2><div id=\"spacetime\"></div></section>\n"
    "<section class=\"panel\"><h2>How to read this page</h2><p class=\"legend\" id=\"legend\"></p></section>\n";

/* The lesson, its lines joined into paragraphs (a scenario wraps its `about` at some 95
 * columns; the page wraps it at its own width). Blank lines and lines that start a list
 * ("- ", "* ") keep their break. */
static void about(buf *out, const char *text)
{
    buf b;
    buf_init(&b);
    for (const char *p = text ? text : ""; *p; p++) {
        int keep = p[0] != '\n' || p[1] == '\n' || (p > text && p[-1] == '\n') || !strncmp(p + 1, "- ", 2) ||
                   !strncmp(p + 1, "* ", 2);
        buf_putc(&b, keep ? *p : ' ');
    }
    html_esc(out, b.p ? b.p : "");
    buf_release(&b);
}

int html_report(const history *h, const scenario *sc, const check_result *cr, uint64_t seed, const char *path,
                buf *err, int *io)
{
    *io = 0;
    buf out;
    buf_init(&out);
    buf_puts(&out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    html_esc(&out, sc->name);
    buf_printf(&out, " — locklab</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n", html_player_css);
    html_title(&out, sc, seed);
    buf_puts(&out, "</header>\n<details id=\"lesson\" open><summary>The lesson</summary><div class=\"about\">");
    about(&out, sc->about);
    buf_puts(&out, "</div></details>\n<section id=\"verdicts\" class=\"panel\"><h2>Verdicts</h2>"
                   "<noscript><p>This page steps through the run with a small script, which is off here. "
                   "<code>locklab run … --html-static FILE</code> writes the printable page.</p></noscript>"
                   "</section>\n");
    buf_puts(&out, frame);
    buf_puts(&out, "<p class=\"meta\">made by locklab run; the same scenario and seed always give this page</p>\n"
                   "<script type=\"application/json\" id=\"run-data\">\n");
    html_run_json(h, sc, cr, seed, &out);
    buf_printf(&out, "</script>\n<script>\n%s</script>\n</body>\n</html>\n", html_player_js);
    int rc = tl_write_file(path, &out, err, io);
    buf_release(&out);
    return rc;
}
