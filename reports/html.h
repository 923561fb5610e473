/* html.h — the HTML pages of a run, and what they share.
 *
 * `locklab run --html FILE` writes the player (html_player.c): one self-contained page that
 * steps through the run, with the run's data as JSON (html_data.c) and a small script of our
 * own (html_player.js, with html_player.css; embedded into the binary by html_assets.c). No
 * network, no library, works from file://. `--html-static FILE` writes the printable page
 * of before (html.c): the lesson, the verdicts, the two pictures and the narrated trace. */
#ifndef LOCKLAB_HTML_H
#define LOCKLAB_HTML_H

#include <stdint.h>

#include "check.h"
#include "history.h"
#include "scenario.h"
#include "util.h"

/* Both write path through a temporary file; 0, or -1 with a one-line reason in err and *io
 * set when it was an I/O or tool failure (exit 3) rather than bad input (exit 2). */
int html_report(const history *h, const scenario *sc, const check_result *cr, uint64_t seed, const char *path,
                buf *err, int *io);
int html_static_report(const history *h, const scenario *sc, const check_result *cr, uint64_t seed,
                       const char *path, buf *err, int *io);

/* Text for HTML: & < > " escaped. */
void html_esc(buf *out, const char *s);
/* The page's title and its line of facts: protocol, scripts, seed, mode, file. */
void html_title(buf *out, const scenario *sc, uint64_t seed);

/* A JSON string of n bytes, safe inside a <script> element (< > & as \u escapes) and valid
 * UTF-8 whatever the bytes: a byte that is not part of a valid UTF-8 sequence is written as
 * the four characters \xHH, as redis-cli shows it. */
void html_json_str(buf *out, const char *s, size_t n);

/* The run as one JSON object, for the player (the fields are documented in html_data.c). */
void html_run_json(const history *h, const scenario *sc, const check_result *cr, uint64_t seed, buf *out);

/* The player's script and style sheet, NUL-terminated (html_assets.c). */
extern const char html_player_js[];
extern const char html_player_css[];

#endif
