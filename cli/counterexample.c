/* counterexample.c — the files `locklab check` writes for a violation it found and
 * minimised: a scenario that wraps the original one with the search's faults pinned (each
 * written by its kind's row, faults.h) and the explore table removed, the decisions to replay
 * it (base.choices), and its narrated trace (base.txt). */
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
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

/* The folder of file path, resolved (realpath) into out; 0, or -1. */
static int folder_of(const char *path, char *out, size_t cap)
{
    buf d;
    buf_init(&d);
    const char *slash = strrchr(path, '/');
    if (slash) buf_append(&d, path, (size_t)(slash - path) + (slash == path));
    else buf_puts(&d, ".");
    char *real = realpath(d.p, NULL);
    buf_release(&d);
    if (!real || strlen(real) >= cap) {
        free(real);
        return -1;
    }
    snprintf(out, cap, "%s", real);
    free(real);
    return 0;
}

/* The path from folder `from` to folder `to` (both resolved), into rel: "." when the same. */
static void relative_folder(const char *from, const char *to, buf *rel)
{
    size_t common = 0, i = 0;
    for (; from[i] && from[i] == to[i]; i++)
        if (from[i] == '/') common = i;
    if (!from[i] && (to[i] == '/' || !to[i])) common = i; /* one is the other, or inside it */
    else if (!to[i] && from[i] == '/') common = i;
    for (const char *p = from + common; *p; p++)
        if (*p == '/') buf_puts(rel, rel->len ? "/.." : "..");
    const char *rest = to + common;
    if (*rest == '/') rest++;
    if (*rest) buf_printf(rel, "%s%s", rel->len ? "/" : "", rest);
    if (!rel->len) buf_puts(rel, ".");
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
    /* a model beside the original (protocol = "./my-lock.lua", loaded as a path) is named
     * from this file's folder, wherever it is written */
    char from[4096], to[4096];
    const char *model = sc->protocol && strchr(sc->protocol, '/') ? sc->protocol : NULL;
    if (model && folder_of(base, from, sizeof from) == 0 && folder_of(model, to, sizeof to) == 0) {
        buf rel;
        buf_init(&rel);
        relative_folder(from, to, &rel);
        buf_printf(&file, "scenario.protocol = \"%s/%s\" -- the model beside the original, from here\n", rel.p,
                   strrchr(model, '/') + 1);
        buf_release(&rel);
    }
    buf_puts(&file, "scenario.faults = scenario.faults or {}\nlocal pinned = {\n");
    for (int i = 0; i < r->nfaults; i++) fault_write(&file, sc, &r->faults[i]);
    buf_puts(&file, "}\nfor i = 1, #pinned do scenario.faults[#scenario.faults + 1] = pinned[i] end\n");
    if (r->duration_us > 0 && r->duration_us != sc->duration_us) {
        buf_puts(&file, "scenario.duration = ");
        fault_put_us(&file, r->duration_us);
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
        if (r->duration_us > 0) shorter.duration_us = r->duration_us;
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
