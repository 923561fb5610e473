/* scripts.c — `locklab scripts`: browse the library of real lock scripts (lua/redis/), print
 * one with its header, its exact body or its SHA-1, and check that every body compiles as
 * Redis would compile it. */
#include <errno.h>
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
          "       locklab scripts check [ID|FILE]  compile every body (or the ones named) as\n"
          "                                        Redis does; report Redis's compile error\n"
          "\n"
          "ID is name@version, e.g. redisson/lock@3.4.4 or redisson-fair/acquire@HEAD; a bare\n"
          "name means HEAD. A version inside a script's known range finds it too\n"
          "(redisson/renew@3.4.4 finds redisson/renew@3.43.0). The index is\n"
          "lua/redis/index.lua under $LOCKLAB_HOME, else next to the locklab binary.\n",
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
    printf("\n%zu scripts in %s/lua/redis. 'locklab scripts show ID' prints one with its "
           "header.\n",
           scriptlib_count(lib), ll_data_dir());
    return EXIT_OK;
}

/* The body of the script an argument names: an existing file, else a library id. */
static int scripts_body_of(const scriptlib *lib, const char *spec, buf *body, const script_info **info)
{
    struct stat st;
    buf err;
    buf_init(&err);
    int rc = EXIT_OK;
    *info = NULL;
    if (strchr(spec, '/') && stat(spec, &st) == 0 && S_ISREG(st.st_mode) && !scriptlib_find(lib, spec, NULL)) {
        if (script_file_body(spec, body, &err) < 0) rc = EXIT_INTERNAL;
    } else if (!(*info = scriptlib_find(lib, spec, &err))) {
        rc = EXIT_USAGE;
    } else if (scriptlib_body(lib, *info, body, &err) < 0) {
        rc = EXIT_INTERNAL;
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
    int failed = 0, worst = EXIT_OK, n = 0;
    if (argc == 0) {
        for (size_t i = 0; i < scriptlib_count(lib); i++, n++) {
            int rc = scripts_check_one(lib, scriptlib_at(lib, i)->id, &failed);
            if (rc > worst) worst = rc;
        }
    } else {
        for (int i = 0; i < argc; i++, n++) {
            int rc = scripts_check_one(lib, argv[i], &failed);
            if (rc > worst) worst = rc;
        }
    }
    printf("%d scripts checked, %d failed to compile\n", n, failed);
    if (worst != EXIT_OK) return worst;
    return failed ? EXIT_USAGE : EXIT_OK;
}

static int scripts_run(const scriptlib *lib, int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "list";
    if (!strcmp(cmd, "list") && argc <= 2) return scripts_list(lib);
    if (!strcmp(cmd, "check")) return scripts_check(lib, argc - 2, argv + 2);
    int known = !strcmp(cmd, "show") || !strcmp(cmd, "body") || !strcmp(cmd, "sha");
    if (!known) {
        cli_error("unknown scripts command '%s'; try 'locklab scripts --help'", cmd);
        return EXIT_USAGE;
    }
    if (argc != 3) {
        cli_error("usage: locklab scripts %s NAME@VERSION", cmd);
        return EXIT_USAGE;
    }
    if (!strcmp(cmd, "show")) return scripts_show(lib, argv[2]);
    buf body;
    buf_init(&body);
    const script_info *s;
    int rc = scripts_body_of(lib, argv[2], &body, &s);
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

int cli_scripts(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "help")) {
            scripts_usage(stdout);
            return EXIT_OK;
        }
    }
    scriptlib *lib = scripts_open();
    if (!lib) return EXIT_INTERNAL;
    int rc = scripts_run(lib, argc, argv);
    scriptlib_free(lib);
    if (fflush(stdout) != 0) {
        cli_error("cannot write the output: %s", strerror(errno));
        return EXIT_INTERNAL;
    }
    return rc;
}
