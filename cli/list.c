/* list.c — `locklab list`: the scenario library, one line each: its name for `locklab run`,
 * its protocol and script version, and what it expects. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunkcache.h"
#include "check.h"
#include "cli.h"
#include "scenario.h"
#include "scriptlib.h"
#include "world.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .lua files of dir, sorted; NULL-terminated, caller frees. */
char **cli_scenario_files(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d) return NULL;
    size_t cap = 16;
    char **v = xmalloc(cap * sizeof *v);
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".lua") != 0 || de->d_name[0] == '.') continue;
        if (*n + 1 >= cap) v = xrealloc(v, (cap *= 2) * sizeof *v);
        v[(*n)++] = xmemdup(de->d_name, len - 4);
    }
    closedir(d);
    if (*n > 1) qsort(v, *n, sizeof *v, cmp_str);
    v[*n] = NULL;
    return v;
}

/* One row of the verdict table: each property's observed verdict, bracketed where the
 * scenario states an expectation, and flagged where the expectation is not met. Returns the
 * number of unmet expectations, or -1 if the scenario could not run. */
static int table_row(const char *name, const scenario *sc, size_t width, chunkcache *chunks)
{
    buf err;
    buf_init(&err);
    world_opts o = { .seed = sc->seed, .chunks = chunks };
    world *w = world_new(sc, &o, &err);
    if (!w || world_run(w, &err) != 0) {
        /* one row per scenario: a model error's traceback would break the table */
        printf("%-*s  could not run: %.*s\n", (int)width, name, (int)strcspn(err.p ? err.p : "", "\n"),
               err.p ? err.p : "");
        world_free(w);
        buf_release(&err);
        return -1;
    }
    check_result cr;
    check_run(world_history(w), sc, &cr);
    int unmet = 0;
    printf("%-*s", (int)width, name);
    for (int p = 0; p < PROP_COUNT; p++) {
        verdict v = cr.p[p].v;
        const char *obs = v == VERDICT_HOLDS ? "✓" : v == VERDICT_VIOLATED ? "✗" : "·";
        int expected = -1;
        for (int k = 0; k < sc->nexpects; k++)
            if (!strcmp(sc->expects[k].property, property_name((property)p))) expected = sc->expects[k].violated;
        if (expected < 0) printf("   %s   ", obs);
        else if ((v == VERDICT_VIOLATED) == expected && v != VERDICT_NOT_JUDGED) printf("  [%s]  ", obs);
        else {
            printf("  %s≠%s  ", obs, expected ? "✗" : "✓");
            unmet++;
        }
    }
    printf("  %s\n", unmet ? "EXPECTATION NOT MET" : sc->nexpects ? "as expected" : "");
    check_free(&cr);
    world_free(w);
    buf_release(&err);
    return unmet;
}

static void list_usage(FILE *f)
{
    fputs("usage: locklab list [--run]\n\n"
          "The built-in scenarios (scenarios/*.lua), one line each: the name to give\n"
          "'locklab run', the protocol and script version, and what the scenario expects\n"
          "(✗ violated, ✓ holds). 'locklab run NAME' runs one, narrated.\n\n"
          "  --run   run every scenario and print the verdict table: one row per scenario,\n"
          "          one column per property; [x] marks a verdict the scenario expects,\n"
          "          a≠b one it expected otherwise. Exit 1 if any expectation is not met.\n",
          f);
}

static const struct option list_options[] = {
    { "help", no_argument, NULL, 'h' },
    { "run", no_argument, NULL, 'r' },
    { NULL, 0, NULL, 0 },
};

int cli_list(int argc, char **argv)
{
    int run = 0, c;
    optind = 0;
    while ((c = cli_getopt("list", argc, argv, "h", list_options)) != -1) {
        if (c == 'h') {
            list_usage(stdout);
            return EXIT_OK;
        }
        if (c != 'r') return EXIT_USAGE; /* said */
        run = 1;
    }
    if (optind < argc) {
        cli_error("list: unknown argument '%s'; try 'locklab list --help'", argv[optind]);
        return EXIT_USAGE;
    }
    buf dir;
    buf_init(&dir);
    buf_printf(&dir, "%s/scenarios", ll_data_dir());
    size_t n;
    char **names = cli_scenario_files(dir.p, &n);
    if (!names || n == 0) {
        cli_error("list: no scenarios in '%s'", dir.p);
        buf_release(&dir);
        free(names);
        return EXIT_INTERNAL;
    }
    size_t width = 0;
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) > width) width = strlen(names[i]);
    int bad = 0, unmet = 0;
    if (run) {
        static const char *const heads[PROP_COUNT] = { "mutex", "resrc", "relse", "dlock", "fair ", "reent" };
        printf("%-*s", (int)width, "scenario");
        for (int p = 0; p < PROP_COUNT; p++) printf("  %-5s", heads[p]);
        printf("\n");
    }
    chunkcache *chunks = run ? chunkcache_new() : NULL; /* models and scripts recur across rows */
    for (size_t i = 0; i < n; i++) {
        buf path, err;
        buf_init(&path);
        buf_init(&err);
        buf_printf(&path, "%s/%s.lua", dir.p, names[i]);
        scenario *sc = scenario_load(path.p, &err);
        if (!sc) {
            printf("%-*s  (does not load: %s)\n", (int)width, names[i], err.p);
            bad = 1;
        } else if (run) {
            int r = table_row(names[i], sc, width, chunks);
            if (r < 0) bad = 1;
            else unmet += r;
            scenario_free(sc);
        } else {
            buf proto, exp;
            buf_init(&proto);
            buf_init(&exp);
            buf_printf(&proto, "%s%s%s", sc->protocol, sc->scripts ? "@" : "", sc->scripts ? (strchr(sc->scripts, '@') ? strchr(sc->scripts, '@') + 1 : sc->scripts) : "");
            if (sc->server && strcmp(sc->server, "redis") != 0) buf_printf(&proto, " (%s)", sc->server);
            for (int k = 0; k < sc->nexpects; k++)
                buf_printf(&exp, "%s%s %s", k ? ", " : "", sc->expects[k].violated ? "✗" : "✓", sc->expects[k].property);
            int cols = cli_tty_width(stdout);
            if (cols && (int)width + 2 + 25 + (int)strlen(sc->name) > cols) {
                /* at a narrow terminal (audit L6): the title under the name, wrapped */
                printf("%-*s  %s\n", (int)width, names[i], proto.p);
                cli_wrap(stdout, "    ", sc->name, cols);
                cli_wrap(stdout, "    ", exp.p ? exp.p : "(no expectations)", cols);
            } else
                printf("%-*s  %-24s %s\n%-*s  %s\n", (int)width, names[i], proto.p, sc->name, (int)width, "",
                       exp.p ? exp.p : "(no expectations)");
            buf_release(&proto);
            buf_release(&exp);
            scenario_free(sc);
        }
        buf_release(&path);
        buf_release(&err);
        free(names[i]);
    }
    chunkcache_free(chunks);
    if (run)
        printf("\nproperties: mutex = mutual_exclusion, resrc = resource_safety, relse = release_safety,\n"
               "dlock = no_deadlock, fair = fairness, reent = reentrancy.  ✓ holds  ✗ violated  · not judged\n"
               "[x] the scenario expects x;  a≠b: observed a, expected b.\n");
    const char *shown = cli_data_dir_shown(), *sep = "/";
    if (!strcmp(shown, ".")) shown = sep = "";
    printf("\n%zu scenarios in %s%sscenarios. 'locklab run NAME' runs one, narrated.\n", n, shown, sep);
    free(names);
    buf_release(&dir);
    return bad ? EXIT_USAGE : unmet ? EXIT_VIOLATION : EXIT_OK;
}
