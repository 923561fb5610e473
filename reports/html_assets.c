/* html_assets.c — the player page's script and style sheet, built into the binary so that
 * `locklab run --html` needs no file beside it. They are kept as ordinary files, to be read
 * and edited as such: reports/html_model.js (the run's state at any instant, from the
 * history), reports/html_view.js (the cursor and the controls) with its parts html_story.js,
 * html_timeline.js and html_world.js (drawing it), reports/html_start.js (building the model
 * and starting the view, last: it runs) and reports/html_player.css.
 * The assembler's .incbin copies each file's bytes here at build time, followed by a NUL, so
 * that C sees each as one string (the Makefile rebuilds this file when one of them changes).
 * Paths are relative to the top of the source tree, where make runs the compiler. */
#include "html.h"

__asm__(".pushsection .rodata\n"
        ".globl html_player_js\n"
        ".hidden html_player_js\n"
        ".type html_player_js, @object\n"
        "html_player_js:\n"
        ".incbin \"reports/html_model.js\"\n"
        ".incbin \"reports/html_view.js\"\n"
        ".incbin \"reports/html_story.js\"\n"
        ".incbin \"reports/html_timeline.js\"\n"
        ".incbin \"reports/html_world.js\"\n"
        ".incbin \"reports/html_start.js\"\n"
        ".byte 0\n"
        ".size html_player_js, . - html_player_js\n"
        ".globl html_player_css\n"
        ".hidden html_player_css\n"
        ".type html_player_css, @object\n"
        "html_player_css:\n"
        ".incbin \"reports/html_player.css\"\n"
        ".byte 0\n"
        ".size html_player_css, . - html_player_css\n"
        ".popsection\n");
