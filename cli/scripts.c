/* scripts.c — `locklab scripts`: browse the library of real lock scripts (lua/redis/), print
 * one with its header, its exact body or its SHA-1, and check that every body compiles as
 * Redis would compile it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>

#include "cli.h"
#include "script.h"
#include "scriptlib.h"

static void scripts_usage(FILE *f)
{
    fputs("usage: locklab scripts                  list the scripts: id, protocol, what each is\n"
          "       locklab scripts show ID          the script file: header, then the body\n"
          "       locklab scripts body ID          the exact bytes sent to Redis (no newline added)\n"
          "       locklab scripts sha ID           the SHA-1 Redis gives the body (EVALSHA)\n"
          "       locklab scripts check [ID|FILE]...  compile every body (or the ones named)\n"
          "                                        as Redis does; report Redis's compile error\n"
          "\n"
          "ID is name@version, e.g. redisson/lock@3.4.4 or redisson-fair/acquire@HEAD; a bare\n"
          "name means HEAD. A version inside a script's known range finds it too\n"
          "(redisson/renew@3.4.4 finds redisson/renew@3.43.0). The index is\n"
          "lua/redis/index.lua under $LOCKLAB_HOME, else next to the locklab binary.\n"
          "body, sha and check also take a FILE (a path, or a file name in the current\n"
          "directory) that is not an ID; one that is neither is an error (exit 2).\n",
          f);
}

static scriptlib *scripts_open(void)
{
    buf err;
    buf_init(&err);
    scriptlib *lib = scriptlib_load(NULL, &err);
    if (!lib) cli_error("%s", err.p ? err.p : "cannot load the script library");
    buf_release(&err);
    return lib;
}

static int scripts_list(const scriptlib *lib)
{
    size_t wid = strlen("ID"), wproto = strlen("PROTOCOL");
    for (size_t i = 0; i < scriptlib_count(lib); i++) {
        const script_info *s = scriptlib_at(lib, i);
        if (strlen(s->id) > wid) wid = strlen(s->id);
        if (strlen(s->protocol) > wproto) wproto = strlen(s->protocol);
    }
    printf("%-*s  %-*s  %s\n", (int)wid, "ID", (int)wproto, "PROTOCOL", "WHAT");
    for (size_t i = 0; i < scriptlib_count(lib); i++) {
        const script_info *s = scriptlib_at(lib, i);
        printf("%-*s  %-*s  %s\n", (int)wid, s->id, (int)wproto, s->protocol, s->what);
    }
    const char *shown = cli_data_dir_shown(), *sep = "/";
    if (!strcmp(shown, ".")) shown = sep = "";
    printf("\n%zu scripts in %s%slua/redis. 'locklab scripts show ID' prints one with its "
           "header.\n",
           scriptlib_count(lib), shown, sep);
    return EXIT_OK;
}

/* The body of the script an argument names: a library id, else an existing file (a path or
 * a bare file name). */
static int scripts_body_of(const scriptlib *lib, const char *spec, buf *body, const script_info **info)
{
    struct stat st;
    buf err;
    buf_init(&err);
    int rc = EXIT_OK;
    *info = scriptlib_find(lib, spec, &err);
    if (*info) {
        if (scriptlib_body(lib, *info, body, &err) < 0) rc = EXIT_INTERNAL;
    } else if (stat(spec, &st) == 0 && S_ISREG(st.st_mode)) {
        buf_reset(&err);
        if (script_file_body(spec, body, &err) < 0) rc = EXIT_INTERNAL;
    } else {
        buf_printf(&err, "; and no file '%s' (try 'locklab scripts' for the ids)", spec);
        rc = EXIT_USAGE;
    }
    if (rc != EXIT_OK) cli_error("%s", err.p ? err.p : "cannot read the script");
    buf_release(&err);
    return rc;
}

static int scripts_show(const scriptlib *lib, const char *spec)
{
    buf err, path;
    buf_init(&err);
    buf_init(&path);
    const script_info *s = scriptlib_find(lib, spec, &err);
    int rc = EXIT_OK;
    if (!s) {
        cli_error("%s", err.p);
        rc = EXIT_USAGE;
        goto done;
    }
    buf_printf(&path, "%s/%s", ll_data_dir(), s->path);
    FILE *f = fopen(path.p, "rb");
    if (!f) {
        cli_error("cannot open '%s': %s", path.p, strerror(errno));
        rc = EXIT_INTERNAL;
        goto done;
    }
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, n, stdout);
    fclose(f);
done:
    buf_release(&err);
    buf_release(&path);
    return rc;
}

/* Compiles a body as Redis 7.0 does (chunk name "@user_script", text only). 0, or -1 with
 * Redis's error text in err. */
static int scripts_compile(const buf *body, buf *err)
{
    lua_State *L = luaL_newstate();
    if (!L) {
        buf_puts(err, "cannot create a Lua state");
        return -1;
    }
    int rc = 0;
    if (luaL_loadbufferx(L, body->p ? body->p : "", body->len, "@user_script", "t") != LUA_OK) {
        buf_printf(err, "Error compiling script (new function): %s", lua_tostring(L, -1));
        rc = -1;
    }
    lua_close(L);
    return rc;
}

static int scripts_check_one(const scriptlib *lib, const char *spec, int *failed)
{
    buf body, err;
    buf_init(&body);
    buf_init(&err);
    const script_info *s;
    int rc = scripts_body_of(lib, spec, &body, &s);
    if (rc == EXIT_OK) {
        if (scripts_compile(&body, &err) < 0) {
            cli_error("%s: %s", s ? s->id : spec, err.p);
            (*failed)++;
        } else {
            char sha[41];
            script_sha1hex(body.p ? body.p : "", body.len, sha);
            printf("ok  %s  %s\n", sha, s ? s->id : spec);
        }
    }
    buf_release(&body);
    buf_release(&err);
    return rc;
}

static int scripts_check(const scriptlib *lib, int argc, char **argv)
{
    int failed = 0, worst = EXIT_OK, n = 0, missing = 0;
    int all = argc == 0;
    size_t total = all ? scriptlib_count(lib) : (size_t)argc;
    for (size_t i = 0; i < total; i++) {
        int rc = scripts_check_one(lib, all ? scriptlib_at(lib, i)->id : argv[i], &failed);
        if (rc == EXIT_OK) n++;
        else if (rc == EXIT_USAGE) missing++;
        if (rc > worst) worst = rc;
    }
    printf("%d scripts checked, %d failed to compile", n, failed);
    if (missing) printf(", %d not found", missing);
    printf("\n");
    if (worst != EXIT_OK) return worst;
    return failed ? EXIT_USAGE : EXIT_OK;
}

/* argv: the arguments after the options, argv[0] the scripts command (list by default). */
static int scripts_run(const scriptlib *lib, int argc, char **argv)
{
    const char *cmd = argc > 0 ? argv[0] : "list";
    if (!strcmp(cmd, "list") && argc <= 1) return scripts_list(lib);
    if (!strcmp(cmd, "check")) return scripts_check(lib, argc - 1, argv + 1);
    int known = !strcmp(cmd, "show") || !strcmp(cmd, "body") || !strcmp(cmd, "sha");
    if (!known) {
        cli_error("unknown scripts command '%s'; try 'locklab scripts --help'", cmd);
        return EXIT_USAGE;
    }
    if (argc != 2) {
        cli_error("usage: locklab scripts %s NAME@VERSION", cmd);
        return EXIT_USAGE;
    }
    if (!strcmp(cmd, "show")) return scripts_show(lib, argv[1]);
    buf body;
    buf_init(&body);
    const script_info *s;
    int rc = scripts_body_of(lib, argv[1], &body, &s);
    if (rc == EXIT_OK && !strcmp(cmd, "body")) {
        fwrite(body.p ? body.p : "", 1, body.len, stdout);
    } else if (rc == EXIT_OK) {
        char sha[41];
        script_sha1hex(body.p ? body.p : "", body.len, sha);
        printf("%s\n", sha);
    }
    buf_release(&body);
    return rc;
}

static const struct option scripts_options[] = {
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

int cli_scripts(int argc, char **argv)
{
    int c;
    optind = 0;
    while ((c = cli_getopt("scripts", argc, argv, "h", scripts_options)) != -1) {
        if (c != 'h') return EXIT_USAGE; /* said */
        scripts_usage(stdout);
        return EXIT_OK;
    }
    for (int i = optind; i < argc; i++) {
        if (!strcmp(argv[i], "help")) {
            scripts_usage(stdout);
            return EXIT_OK;
        }
    }
    scriptlib *lib = scripts_open();
    if (!lib) return EXIT_INTERNAL;
    int rc = scripts_run(lib, argc - optind, argv + optind);
    scriptlib_free(lib);
    if (fflush(stdout) != 0) {
        cli_error("cannot write the output: %s", strerror(errno));
        return EXIT_INTERNAL;
    }
    return rc;
}
