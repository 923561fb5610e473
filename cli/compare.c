/* compare.c — `locklab compare SCENARIO --scripts A --scripts B`: the same scenario, seed and
 * decisions under two script versions; or `--options K=V --options K=V`: the same scenario
 * and seed under two settings of the protocol model's options (two Redlock libraries,
 * preset=redis-docs against preset=node-redlock, on the same faults). It reports the first
 * point where the two histories part (time, actor, what, and the two outcomes) and how the
 * verdicts differ: how a maintainer sees what a change to a lock script changes, and a
 * student what a library changes. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "scenario.h"
#include "scriptlib.h"
#include "trace.h"
#include "world.h"

static void compare_usage(FILE *f)
{
    fputs("usage: locklab compare SCENARIO --scripts A --scripts B [--seed N]\n"
          "       locklab compare SCENARIO --options K=V[,K=V...] --options K=V[,K=V...] [--seed N]\n"
          "\n"
          "Runs SCENARIO twice, with script version A and then B (e.g. redisson@3.31.0 and\n"
          "HEAD), with the same seed and the same decisions (delays, jitter, ...), and shows\n"
          "where the two histories first differ and how the verdicts differ.\n"
          "\n"
          "With --options, each run sets the protocol model's options K to V over the\n"
          "scenario's own (a number, true, false, or a string), e.g. --options preset=redis-docs\n"
          "--options preset=node-redlock: two Redlock libraries on the same faults. The two\n"
          "runs share the seed; each draws its own decisions, as the libraries differ in what\n"
          "they draw. --scripts and --options may be given together (twice each).\n"
          "\n"
          "exit: 0 compared (the differences are the result), 2 bad input or a model error\n",
          f);
}

typedef struct side {
    const char *spec;    /* --scripts, or NULL */
    const char *opts;    /* --options, or NULL */
    char label[160];     /* how the report names it */
    scenario *sc;
    chooser *ch;
    world *w;
    check_result cr;
    int rc;
    buf err;
} side;

static int same_event(const hist_event *a, const hist_event *b)
{
    if (a->t_us != b->t_us || a->kind != b->kind || a->actor != b->actor || a->peer != b->peer || a->a != b->a || a->b != b->b)
        return 0;
    if ((a->text == NULL) != (b->text == NULL) || (a->text && strcmp(a->text, b->text) != 0)) {
        /* Script ids differ by version by design: compare what was asked (what follows the
         * script's id, which the event carries as a field), not which text. */
        if (!(a->kind == H_REQUEST || a->kind == H_EXEC || a->kind == H_REPLY)) return 0;
        if (!a->label || !b->label || !a->text || !b->text) return 0;
        size_t la = strlen(a->label), lb = strlen(b->label);
        if (strncmp(a->text, a->label, la) || strncmp(b->text, b->label, lb) || strcmp(a->text + la, b->text + lb)) return 0;
    }
    if ((a->reply == NULL) != (b->reply == NULL) || (a->reply && strcmp(a->reply, b->reply) != 0)) return 0;
    return 1;
}

/* One K=V of --options over sc's options (kept sorted by key, as the loader keeps them):
 * a number, true or false, or else a string; line 0, so a model's complaint names
 * --options rather than the scenario's line. 0, or -1 with err. */
static int set_option(scenario *sc, const char *kv, size_t len, buf *err)
{
    const char *eq = memchr(kv, '=', len);
    if (!eq || eq == kv) {
        buf_printf(err, "compare: --options takes K=V[,K=V...], not '%.*s'", (int)len, kv);
        return -1;
    }
    char *key = xmemdup(kv, (size_t)(eq - kv)), *val = xmemdup(eq + 1, len - (size_t)(eq - kv) - 1);
    option_cfg o = { .key = key };
    char *end;
    double num = strtod(val, &end);
    if (*val && !*end) o.type = OPT_NUMBER, o.num = num;
    else if (!strcmp(val, "true") || !strcmp(val, "false")) o.type = OPT_BOOL, o.b = val[0] == 't';
    else o.type = OPT_STRING, o.s = xstrdup(val);
    free(val);
    int at = 0;
    while (at < sc->noptions && strcmp(sc->options[at].key, key) < 0) at++;
    if (at < sc->noptions && !strcmp(sc->options[at].key, key)) {
        free(sc->options[at].key);
        free(sc->options[at].s);
    } else {
        sc->options = xrealloc(sc->options, (size_t)(sc->noptions + 1) * sizeof *sc->options);
        memmove(sc->options + at + 1, sc->options + at, (size_t)(sc->noptions - at) * sizeof *sc->options);
        sc->noptions++;
    }
    sc->options[at] = o;
    return 0;
}

static int run_side(side *s, const char *path, int have_seed, unsigned long long seed, const choice *script, size_t nscript)
{
    buf_init(&s->err);
    s->sc = scenario_load(path, &s->err);
    if (!s->sc) return -1;
    if (s->spec) {
        free(s->sc->scripts);
        s->sc->scripts = xstrdup(s->spec);
    }
    for (const char *p = s->opts; p && *p;) {
        size_t n = strcspn(p, ",");
        if (set_option(s->sc, p, n, &s->err) != 0) return -1;
        p += n + (p[n] == ',');
    }
    uint64_t sd = have_seed ? seed : s->sc->seed;
    s->ch = chooser_new(script ? CHOOSER_REPLAY : CHOOSER_RUN, sd);
    if (script) chooser_set_script(s->ch, script, nscript);
    world_opts o = { .chooser = s->ch };
    s->w = world_new(s->sc, &o, &s->err);
    if (!s->w) return -1;
    s->rc = world_run(s->w, &s->err);
    check_run(world_history(s->w), s->sc, &s->cr);
    return 0;
}

static void free_side(side *s)
{
    if (s->w) check_free(&s->cr);
    world_free(s->w);
    chooser_free(s->ch);
    scenario_free(s->sc);
    buf_release(&s->err);
}

static const char *vword(verdict v)
{
    return v == VERDICT_HOLDS ? "holds" : v == VERDICT_VIOLATED ? "VIOLATED" : "-";
}

static int unmet(const side *s)
{
    int n = 0;
    for (int i = 0; i < s->sc->nexpects; i++) {
        int p = property_from_name(s->sc->expects[i].property);
        if (p < 0) continue;
        verdict v = s->cr.p[p].v;
        if (v == VERDICT_NOT_JUDGED || (v == VERDICT_VIOLATED) != s->sc->expects[i].violated) n++;
    }
    return n;
}

static const struct option compare_options[] = {
    { "help", no_argument, NULL, 'h' },
    { "scripts", required_argument, NULL, 's' },
    { "options", required_argument, NULL, 'o' },
    { "seed", required_argument, NULL, 'S' },
    { NULL, 0, NULL, 0 },
};

/* The version a --scripts spec names: "redisson@3.31.0" → "3.31.0", "HEAD" → "HEAD". */
static const char *spec_version(const char *spec)
{
    const char *at = spec ? strrchr(spec, '@') : NULL;
    return at ? at + 1 : spec;
}

/* Lines both sides share, as side [1]'s trace tells them: a script it names as NAME@V1 the
 * other side ran as NAME@V2, so it is shown as NAME@V1|V2. */
static void both_versions(buf *t, const char *const *specs)
{
    const char *v1 = spec_version(specs[0]), *v2 = spec_version(specs[1]);
    if (!v1 || !v2 || !strcmp(v1, v2) || !t->p) return;
    buf out, at;
    buf_init(&out);
    buf_init(&at);
    buf_printf(&at, "@%s", v1);
    size_t n = strlen(at.p);
    for (const char *p = t->p, *q; *p; p = q + n) {
        q = strstr(p, at.p);
        /* whole versions only: @3.31.0 not inside @3.31.01 */
        while (q && (isalnum((unsigned char)q[n]) || q[n] == '.' || q[n] == '-')) q = strstr(q + 1, at.p);
        if (!q) {
            buf_puts(&out, p);
            break;
        }
        buf_append(&out, p, (size_t)(q - p));
        buf_printf(&out, "@%s|%s", v1, v2);
    }
    buf_reset(t);
    buf_append(t, out.p ? out.p : "", out.len);
    buf_release(&out);
    buf_release(&at);
}

int cli_compare(int argc, char **argv)
{
    const char *path_arg = NULL, *specs[2] = { NULL, NULL }, *opts[2] = { NULL, NULL };
    int nspecs = 0, nopts = 0, have_seed = 0, c;
    unsigned long long seed = 0;
    optind = 0;
    while ((c = cli_getopt("compare", argc, argv, "h", compare_options)) != -1) {
        if (c == 'h') {
            compare_usage(stdout);
            return EXIT_OK;
        } else if (c == 'S') {
            if (cli_parse_whole(optarg, UINT64_MAX, &seed) != 0) {
                cli_error("compare: --seed takes a whole number, not '%s'", optarg);
                return EXIT_USAGE;
            }
            have_seed = 1;
        } else if (c == 's') {
            if (nspecs == 2) {
                cli_error("compare: give --scripts exactly twice");
                return EXIT_USAGE;
            }
            specs[nspecs++] = optarg;
        } else if (c == 'o') {
            if (nopts == 2) {
                cli_error("compare: give --options exactly twice");
                return EXIT_USAGE;
            }
            opts[nopts++] = optarg;
        } else {
            return EXIT_USAGE; /* said */
        }
    }
    if (optind < argc) path_arg = argv[optind++];
    if (optind < argc) {
        cli_error("compare: one scenario at a time ('%s' is extra)", argv[optind]);
        return EXIT_USAGE;
    }
    if (!path_arg || (nspecs != 2 && nopts != 2) || nspecs == 1 || nopts == 1) {
        cli_error("compare: usage: locklab compare SCENARIO --scripts A --scripts B (or --options K=V --options K=V)");
        return EXIT_USAGE;
    }
    /* The engine reads only the version of a spec and falls back to HEAD for a script it
     * lacks: an unknown version would compare HEAD with itself, and say so as a result. */
    for (int k = 0; k < nspecs; k++) {
        buf why;
        buf_init(&why);
        int bad = scenario_check_scripts(specs[k], &why) != 0;
        if (bad) cli_error("compare: --scripts: %s", why.p);
        buf_release(&why);
        if (bad) return EXIT_USAGE;
    }
    char *path = cli_resolve_scenario(path_arg);
    if (!path) {
        cli_no_scenario("compare", path_arg);
        return EXIT_USAGE;
    }
    side a = { .spec = specs[0], .opts = opts[0] }, b = { .spec = specs[1], .opts = opts[1] };
    side *both[2] = { &a, &b };
    for (int k = 0; k < 2; k++)
        snprintf(both[k]->label, sizeof both[k]->label, "%s%s%s", specs[k] ? specs[k] : "",
                 specs[k] && opts[k] ? " " : "", opts[k] ? opts[k] : "");
    int code = EXIT_OK;
    if (run_side(&a, path, have_seed, seed, NULL, 0) != 0) {
        cli_error("%s", a.err.p);
        code = EXIT_USAGE;
        goto done;
    }
    /* Two script versions draw the same decisions; two option sets (two libraries) need
     * not: each run draws its own from the same seed. */
    size_t nrec = 0;
    const choice *rec = nopts ? NULL : chooser_record(a.ch, &nrec);
    if (run_side(&b, path, have_seed, seed, rec, nrec) != 0) {
        cli_error("%s", b.err.p);
        code = EXIT_USAGE;
        goto done;
    }
    const history *ha = world_history(a.w), *hb = world_history(b.w);
    /* The two sides are [1] and [2] (not A and B: clients and Redlock's nodes are named so);
     * the title is the scenario's own, whatever version it names. */
    printf("== %s\n   the scenario compared: [1] = %s%s, [2] = %s%s, seed %llu, %s\n\n", a.sc->name,
           nspecs ? "scripts " : "", a.label, nspecs ? "scripts " : "", b.label,
           have_seed ? seed : (unsigned long long)a.sc->seed, nopts ? "each run its own decisions" : "same decisions");
    size_t na = history_len(ha), nb = history_len(hb), i = 0;
    while (i < na && i < nb && same_event(history_at(ha, i), history_at(hb, i))) i++;
    if (i == na && i == nb) {
        printf("The two histories are identical (%zu events).\n", na);
    } else {
        printf("The histories agree for %zu events, then part:\n", i);
        buf t;
        buf_init(&t);
        for (size_t k = i > 3 ? i - 3 : 0; k < i; k++) trace_line(ha, history_at(ha, k), &t);
        both_versions(&t, specs);
        printf("  both:\n");
        for (const char *line = t.p; line && *line;) {
            const char *nl = strchr(line, '\n');
            int len = nl ? (int)(nl - line) : (int)strlen(line);
            printf("    %.*s\n", len, line);
            line = nl ? nl + 1 : line + len;
        }
        buf_reset(&t);
        if (i < na) trace_line(ha, history_at(ha, i), &t);
        printf("  [1] %s:\n    %s", a.label, i < na ? t.p : "(history ends)\n");
        buf_reset(&t);
        if (i < nb) trace_line(hb, history_at(hb, i), &t);
        printf("  [2] %s:\n    %s", b.label, i < nb ? t.p : "(history ends)\n");
        buf_release(&t);
    }
    /* each version's column as wide as its name, and at least 12 (the widest verdict, the
     * counts, and the table as it always looked for short names) */
    int wa = (int)strlen(a.label) > 12 ? (int)strlen(a.label) : 12, wb = (int)strlen(b.label) > 12 ? (int)strlen(b.label) : 12;
    printf("\n  %-17s %-*s %-*s\n", "property", wa, a.label, wb, b.label);
    for (int p = 0; p < PROP_COUNT; p++) {
        if (a.cr.p[p].v == VERDICT_NOT_JUDGED && b.cr.p[p].v == VERDICT_NOT_JUDGED) continue;
        printf("  %-17s %-*s %-*s%s\n", property_name((property)p), wa, vword(a.cr.p[p].v), wb, vword(b.cr.p[p].v),
               a.cr.p[p].v != b.cr.p[p].v ? "  ← differs" : "");
    }
    int acq[2] = { 0, 0 }, fail[2] = { 0, 0 };
    const history *hs[2] = { ha, hb };
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < history_len(hs[s]); k++) {
            acq[s] += history_at(hs[s], k)->kind == H_ACQUIRED;
            fail[s] += history_at(hs[s], k)->kind == H_ACQUIRE_FAILED;
        }
    printf("  %-17s %-*d %-*d\n  %-17s %-*d %-*d\n", "acquisitions", wa, acq[0], wb, acq[1], "gave up", wa, fail[0], wb,
           fail[1]);
    if (a.rc || b.rc) {
        cli_error("a client model failed: %s", a.rc ? a.err.p : b.err.p);
        code = EXIT_USAGE;
    } else {
        int ua = unmet(&a), ub = unmet(&b);
        printf("\n  the scenario's expectations: %s under %s, %s under %s\n", ua ? "NOT met" : "met", a.label,
               ub ? "NOT met" : "met", b.label);
    }
done:
    free_side(&a);
    free_side(&b);
    free(path);
    return code;
}
