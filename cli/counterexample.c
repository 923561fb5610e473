/* counterexample.c — the files `locklab check` writes for a violation it found and
 * minimised: a scenario that wraps the original one with the search's faults pinned (each
 * written by its kind's row, faults.h) and the explore table removed, the decisions to replay
 * it (base.choices), and its narrated trace (base.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "explore.h"
#include "faults.h"
#include "trace.h"
#include "world.h"

static int write_atomic(const char *fpath, const buf *content, buf *err)
{
    return ll_write_file(fpath, content->p, content->len, err);
}

int cli_write_counterexample(const scenario *sc, const explore_result *r, const char *base, buf *err)
{
    buf src, file, fpath;
    buf_init(&src);
    buf_init(&file);
    buf_init(&fpath);
    FILE *in = sc->path ? fopen(sc->path, "rb") : NULL;
    if (!in) {
        buf_printf(err, "cannot read the scenario '%s' to wrap it", sc->path ? sc->path : "?");
        return -1;
    }
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, in)) > 0) buf_append(&src, tmp, n);
    fclose(in);
    buf_printf(&file,
               "-- A counter-example found and minimised by `locklab check %s`:\n"
               "-- %s is violated. Replay it exactly with\n"
               "--     locklab run %s.lua --choices %s.choices\n"
               "-- This file wraps the original scenario, pins the faults the search placed, and\n"
               "-- drops its explore table.\n"
               "local scenario = (function()\n",
               sc->path, property_name(r->prop), base, base);
    buf_append(&file, src.p ? src.p : "", src.len);
    buf_puts(&file, "\nend)()\n");
    buf_puts(&file, "scenario.name = scenario.name .. \" (counter-example)\"\nscenario.explore = nil\n");
    buf_puts(&file, "scenario.faults = scenario.faults or {}\nlocal pinned = {\n");
    for (int i = 0; i < r->nfaults; i++) fault_write(&file, sc, &r->faults[i]);
    buf_puts(&file, "}\nfor i = 1, #pinned do scenario.faults[#scenario.faults + 1] = pinned[i] end\n");
    if (r->duration > 0 && r->duration != sc->duration) {
        buf_puts(&file, "scenario.duration = ");
        fault_put_us(&file, r->duration);
        buf_puts(&file, " -- as short as it still shows the violation\n");
    }
    buf_printf(&file, "scenario.expect = { %s = \"violated\" }\nreturn scenario\n", property_name(r->prop));
    buf_printf(&fpath, "%s.lua", base);
    int rc = write_atomic(fpath.p, &file, err);
    if (rc == 0) {
        buf_reset(&file);
        buf_printf(&file, "# decisions of the counter-example for %s.lua (locklab run --choices)\n", base);
        chooser_write_list(r->choices, r->nchoices, &file);
        buf_reset(&fpath);
        buf_printf(&fpath, "%s.choices", base);
        rc = write_atomic(fpath.p, &file, err);
    }
    if (rc == 0) {
        /* The narrated trace of the replayed counter-example, beside it. */
        scenario shorter = *sc;
        if (r->duration > 0) shorter.duration = r->duration;
        scenario *pn = explore_pin(&shorter, r->faults, r->nfaults);
        chooser *c = chooser_new(CHOOSER_REPLAY, sc->seed);
        chooser_set_script(c, r->choices, r->nchoices);
        world_opts o = { .chooser = c };
        buf werr;
        buf_init(&werr);
        world *w = world_new(pn, &o, &werr);
        if (w) {
            world_run(w, &werr);
            buf_reset(&file);
            buf_printf(&file, "== %s (counter-example)\n\n", sc->name);
            trace_render(world_history(w), TRACE_NORMAL, &file);
            buf_reset(&fpath);
            buf_printf(&fpath, "%s.txt", base);
            rc = write_atomic(fpath.p, &file, err);
            world_free(w);
        }
        buf_release(&werr);
        chooser_free(c);
        explore_unpin(pn);
    }
    if (rc != 0) { /* the three go together: none is left without the others */
        static const char *const ext[] = { ".lua", ".choices", ".txt" };
        for (int i = 0; i < 3; i++) {
            buf_reset(&fpath);
            buf_printf(&fpath, "%s%s", base, ext[i]);
            unlink(fpath.p);
        }
    }
    buf_release(&src);
    buf_release(&file);
    buf_release(&fpath);
    return rc;
}
