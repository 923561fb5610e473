/* test_ctxargs.c — every ctx function a protocol model may call (sim/client_ctx.c,
 * sim/client_time.c, the instants' operators), called with wrong-typed, out-of-range and
 * missing arguments: nil, tables, functions, booleans, userdata, NaN, infinities, huge and
 * negative numbers, strings where numbers go and numbers where strings go, one argument too
 * many, 250 arguments. Each call either works or raises a Lua error the model can catch with pcall, whose
 * message is one line; the run goes on, and (this file runs under ASan and UBSan, like every
 * unit test) nothing leaks, overflows or is undefined: no heap memory is live across a Lua
 * error. Uncaught, the same error ends the run cleanly as a model error naming the client. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario.h"
#include "scenario_fixture.h"
#include "world.h"

/* The model: its acquire spawns one coroutine per case (so that a case that waits for ever,
 * a sleep of 1e308 ms, holds up no other), each calling one ctx function under pcall and
 * logging "FAIL <case>: <message>" when it raised; then it waits for them and gives up. */
static const char *fuzz_model =
    "local M = {}\n"
    "function M.new(ctx, cfg)\n"
    "  local node = ctx:nodes()[1]\n"
    "  local lock = {}\n"
    "  function lock.acquire()\n"
    "    if cfg.options.mode == 'uncaught' then\n"
    "      ctx:call(node, 'SET', 'k', {})\n"
    "      return false, 'unreachable'\n"
    "    end\n"
    "    local sub = ctx:subscribe(node, 'ch')\n"
    "    local inst = ctx:instant()\n"
    "    local bad = {\n"
    "      { 'nil', nil }, { 'table', {} }, { 'function', function() end }, { 'true', true },\n"
    "      { 'huge', 1e308 }, { 'inf', math.huge }, { '-inf', -math.huge }, { 'nan', 0/0 },\n"
    "      { 'maxint', math.maxinteger }, { 'minint', math.mininteger }, { 'negative', -1 },\n"
    "      { 'float', 0.5 }, { 'string', 'x' }, { 'empty', '' }, { 'number', 12 },\n"
    "      { 'nul', 'a\\0b' }, { 'ctx', ctx }, { 'instant', inst },\n"
    "    }\n"
    "    local S = 'distlock/release'\n"
    "    local function add(_, a, b) return a + b end\n"
    "    local function sub_(_, a, b) return a - b end\n"
    "    local function lt(_, a, b) return a < b end\n"
    "    local function str(_, a) return tostring(a) end\n"
    "    local cases = {\n"
    "      { 'call', ctx.call, { node, 'SET', 'k', 'v' } }, { 'send', ctx.send, { node, 'SET', 'k', 'v' } },\n"
    "      { 'eval', ctx.eval, { node, S, { 'k' }, { 'v' }, 50 } },\n"
    "      { 'send_eval', ctx.send_eval, { node, S, { 'k' }, { 'v' } } },\n"
    "      { 'sleep', ctx.sleep, { 5 } }, { 'sleep2', ctx.sleep, { 1, 5 } },\n"
    "      { 'random', ctx.random, { 1, 6 } }, { 'unique', ctx.unique, { 1, 1000 } },\n"
    "      { 'subscribe', ctx.subscribe, { node, 'ch2' } }, { 'unsubscribe', ctx.unsubscribe, { 99 } },\n"
    "      { 'wait', ctx.wait, { sub, 5 } }, { 'spawn', ctx.spawn, { function() end } },\n"
    "      { 'id', ctx.id, {} }, { 'name', ctx.name, {} }, { 'log', ctx.log, { '%s', 'x' } },\n"
    "      { 'critical', ctx.critical, { 5, 1 } }, { 'record', ctx.record, { 'release', 'x', 'released' } },\n"
    "      { 'lock_unit', ctx.lock_unit, { 'key', 'lock' } }, { 'nodes', ctx.nodes, {} },\n"
    "      { 'config', ctx.config, {} }, { 'script', ctx.script, { S } },\n"
    "      { 'receive', ctx.receive, { 5 } }, { 'abandon', ctx.abandon, { 'timeout' } },\n"
    "      { 'now', ctx.now, {} }, { 'monotonic', ctx.monotonic, {} }, { 'instant', ctx.instant, {} },\n"
    "      { 'before', ctx.before, { inst } }, { 'before_ms', ctx.before, { 5 } },\n"
    "      { 'add', add, { inst, 5 } }, { 'add_r', add, { 5, inst } }, { 'sub', sub_, { inst, 5 } },\n"
    "      { 'sub_i', sub_, { inst, inst } }, { 'lt', lt, { inst, inst } }, { 'tostring', str, { inst } },\n"
    "    }\n"
    "    local n = 0\n"
    "    local function case(label, fn, args, count)\n"
    "      n = n + 1\n"
    "      ctx:spawn(function()\n"
    "        local ok, err = pcall(fn, ctx, table.unpack(args, 1, count))\n"
    "        if not ok then ctx:log('FAIL %s: %s', label, tostring(err)) end\n"
    "      end)\n"
    "    end\n"
    "    for _, c in ipairs(cases) do\n"
    "      local name, fn, valid = c[1], c[2], c[3]\n"
    "      local nv = #valid\n"
    "      for pos = 1, nv + 1 do\n"
    "        for _, b in ipairs(bad) do\n"
    "          local args = {}\n"
    "          for k = 1, nv do args[k] = valid[k] end\n"
    "          args[pos] = b[2]\n"
    "          case(name .. '/' .. pos .. '/' .. b[1], fn, args, math.max(nv, pos))\n"
    "        end\n"
    "      end\n"
    "      for count = 0, nv - 1 do case(name .. '/missing' .. (count + 1), fn, valid, count) end\n"
    "      case(name .. '/self', function(_, ...) return fn({}, ...) end, valid, nv)\n"
    "      local many = {}\n"
    "      for k = 1, 250 do many[k] = valid[k] or 7 end\n"
    "      case(name .. '/many', fn, many, 250)\n"
    "    end\n"
    "    ctx:log('cases %d', n)\n"
    "    ctx:send_eval(node, S, { 'k' }, { 0.1, 3.0, 1e300, -0.0, 7, 'w' })\n"
    "    ctx:sleep(2000)\n"
    "    return false, 'done'\n"
    "  end\n"
    "  function lock.release() return true end\n"
    "  return lock\n"
    "end\n"
    "return M\n";

static char test_home[64];

static void make_test_home(void)
{
    char cwd[1024], cmd[4096], path[256];
    if (!getcwd(cwd, sizeof cwd)) abort();
    snprintf(test_home, sizeof test_home, "/tmp/locklab-ctxargs-XXXXXX");
    if (!mkdtemp(test_home)) abort();
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/lua/clients && ln -s %s/lua/redis %s/lua/redis && "
             "ln -s %s/lua/clients/workload.lua %s/lua/clients/",
             test_home, cwd, test_home, cwd, test_home);
    if (system(cmd) != 0) abort();
    snprintf(path, sizeof path, "%s/lua/clients/fuzz.lua", test_home);
    FILE *f = fopen(path, "w");
    if (!f) abort();
    fputs(fuzz_model, f);
    fclose(f);
    setenv("LOCKLAB_HOME", test_home, 1);
}

#define FUZZ(mode)                                                                                \
    "return { name = 'ctxargs', about = 'a test', protocol = 'fuzz', nodes = 1,\n"                \
    "  options = { mode = '" mode "' }, network = { delay = '1ms' }, timeout = '100ms',\n"         \
    "  clients = { { name = 'A' } }, duration = '5s' }\n"

typedef struct run {
    int rc;
    char *err;
    char **logs;
    size_t nlogs;
    char *floats; /* the request with floats among its script arguments */
} run;

static run run_mode(const char *text)
{
    run r = { 0 };
    scenario *sc = load_scenario_text(text);
    buf err;
    buf_init(&err);
    world_opts opts = { .seed = sc->seed };
    world *w = world_new(sc, &opts, &err);
    if (!w) fail_msg("world_new: %s", err.p);
    r.rc = world_run(w, &err);
    const history *h = world_history(w);
    for (size_t i = 0; i < history_len(h); i++) {
        const hist_event *e = history_at(h, i);
        assert_true(e->kind != H_ERROR || r.rc != 0); /* a model error ends the run as one */
        if (e->kind == H_REQUEST && e->text && strstr(e->text, " k 0.1 ")) r.floats = strdup(e->text);
        if (e->kind != H_LOG || !e->text) continue;
        r.logs = realloc(r.logs, (r.nlogs + 1) * sizeof *r.logs);
        r.logs[r.nlogs++] = strdup(e->text);
    }
    r.err = buf_steal(&err);
    world_free(w);
    scenario_free(sc);
    return r;
}

static void run_free(run *r)
{
    for (size_t i = 0; i < r->nlogs; i++) free(r->logs[i]);
    free(r->logs);
    free(r->err);
    free(r->floats);
}

static const char *logged(const run *r, const char *prefix)
{
    for (size_t i = 0; i < r->nlogs; i++)
        if (!strncmp(r->logs[i], prefix, strlen(prefix))) return r->logs[i];
    return NULL;
}

/* Every case ran; each error is one line a person can read, naming what was wrong; the run
 * ended normally (no model error, no internal error); and the sanitizers saw nothing. */
static void test_ctx_wrong_arguments_are_clean_errors(void **state)
{
    (void)state;
    run r = run_mode(FUZZ("caught"));
    assert_int_equal(r.rc, 0);
    const char *cases = logged(&r, "cases ");
    assert_non_null(cases);
    int ncases = atoi(cases + 6);
    assert_true(ncases > 1500);
    size_t fails = 0;
    for (size_t i = 0; i < r.nlogs; i++) {
        if (strncmp(r.logs[i], "FAIL ", 5)) continue;
        fails++;
        const char *msg = strstr(r.logs[i], ": ");
        assert_non_null(msg);
        if (strchr(r.logs[i], '\n')) fail_msg("a multi-line error: %s", r.logs[i]);
        if (strlen(msg + 2) < 8) fail_msg("an error that says nothing: %s", r.logs[i]);
    }
    assert_true(fails > 500);
    /* a few, as a model's author reads them */
    const struct { const char *prefix, *has; } want[] = {
        { "FAIL call/4/table: ", "must be strings or numbers, not table" },
        { "FAIL call/1/table: ", "string expected, got table" },
        { "FAIL call/1/string: ", "unknown node 'x'" },
        { "FAIL eval/3/number: ", "table expected, got number" },
        { "FAIL eval/2/string: ", "x" },
        { "FAIL eval/5/nan: ", "is not a duration" },
        { "FAIL eval/5/negative: ", "negative timeout" },
        { "FAIL sleep/1/nan: ", "is not a duration" },
        { "FAIL sleep2/2/float: ", "number has no integer representation" },
        { "FAIL random/2/minint: ", "empty range" },
        { "FAIL random/1/minint: ", "more than 2^63 - 1 values" },
        { "FAIL wait/1/negative: ", "not a subscription" },
        { "FAIL critical/1/inf: ", "is not a duration" },
        { "FAIL record/1/table: ", "string expected, got table" },
        { "FAIL record/3/string: ", "unknown outcome 'x'" },
        { "FAIL lock_unit/2/empty: ", "non-empty name" },
        { "FAIL lock_unit/2/nul: ", "without NUL bytes" },
        { "FAIL abandon/1/string: ", "\"timeout\" or nothing" },
        { "FAIL before_ms/1/nan: ", "NaN is not a deadline" },
        { "FAIL add/2/nan: ", "give a finite number of ms" },
        { "FAIL add/2/instant: ", "adding two instants" },
        { "FAIL lt/2/instant: ", "ask ctx:before" },
        { "FAIL spawn/1/table: ", "function expected, got table" },
        { "FAIL call/self: ", "locklab.ctx expected, got table" },
        { "FAIL log/1/table: ", "string expected, got table" },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *line = logged(&r, want[i].prefix);
        if (!line) fail_msg("no error for %s", want[i].prefix);
        if (!strstr(line, want[i].has)) fail_msg("%s does not say '%s'", line, want[i].has);
    }
    /* a script's arguments are labelled as Lua's tostring writes them (floats "%.14g", ".0"
     * on those that look like integers), without converting them in place */
    assert_non_null(r.floats);
    assert_non_null(strstr(r.floats, " k 0.1 3.0 1e+300 -0.0 7 w"));
    run_free(&r);
}

/* Uncaught, a wrong argument ends the run as a model error: its first line names the
 * client and says what was wrong (a traceback follows it, for the model's author). */
static void test_ctx_wrong_argument_uncaught_is_a_model_error(void **state)
{
    (void)state;
    run r = run_mode(FUZZ("uncaught"));
    assert_int_equal(r.rc, -1);
    const char *eol = strchr(r.err, '\n');
    size_t first = eol ? (size_t)(eol - r.err) : strlen(r.err);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(first < sizeof line - 1 ? first : sizeof line - 1), r.err);
    assert_non_null(strstr(line, "client A"));
    if (!strstr(line, "command arguments must be strings or numbers, not table")) fail_msg("first line: %s", line);
    run_free(&r);
}

int main(void)
{
    make_test_home();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctx_wrong_arguments_are_clean_errors),
        cmocka_unit_test(test_ctx_wrong_argument_uncaught_is_a_model_error),
    };
    int failed = cmocka_run_group_tests_name("ctx arguments", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", test_home);
    if (system(cmd) != 0) failed++;
    return failed ? 1 : 0;
}
