/* list.c — `locklab list`: the scenario library, one line each: its name for `locklab run`,
 * its protocol and script version, and what it expects. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scenario.h"
#include "scriptlib.h"

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
    qsort(v, *n, sizeof *v, cmp_str);
    v[*n] = NULL;
    return v;
}

int cli_list(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs("usage: locklab list\n\n"
                  "The built-in scenarios (scenarios/*.lua), one line each: the name to give\n"
                  "'locklab run', the protocol and script version, and what the scenario expects\n"
                  "(✗ violated, ✓ holds). 'locklab run NAME' runs one, narrated.\n",
                  stdout);
            return EXIT_OK;
        }
        cli_error("list: unknown argument '%s'; try 'locklab list --help'", argv[i]);
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
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        buf path, err;
        buf_init(&path);
        buf_init(&err);
        buf_printf(&path, "%s/%s.lua", dir.p, names[i]);
        scenario *sc = scenario_load(path.p, &err);
        if (!sc) {
            printf("%-*s  (does not load: %s)\n", (int)width, names[i], err.p);
            bad = 1;
        } else {
            buf proto, exp;
            buf_init(&proto);
            buf_init(&exp);
            buf_printf(&proto, "%s%s%s", sc->protocol, sc->scripts ? "@" : "", sc->scripts ? (strchr(sc->scripts, '@') ? strchr(sc->scripts, '@') + 1 : sc->scripts) : "");
            for (int k = 0; k < sc->nexpects; k++)
                buf_printf(&exp, "%s%s %s", k ? ", " : "", sc->expects[k].violated ? "✗" : "✓", sc->expects[k].property);
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
    printf("\n%zu scenarios in %s. 'locklab run NAME' runs one, narrated.\n", n, dir.p);
    free(names);
    buf_release(&dir);
    return bad ? EXIT_USAGE : EXIT_OK;
}
