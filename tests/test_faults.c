/* test_faults.c — the fault table (sim/faults.h) against everything that reads it: every kind
 * has its row and file, a scenario entry the reader takes, a writer whose output the reader
 * takes back to the same fault, a sentence for the trace, typed fields in the history and its
 * JSON, and options the search offers. A kind added without one of these fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault_search.h"
#include "faults.h"
#include "scenario.h"
#include "scenario_fixture.h"
#include "world.h"

/* One scenario entry of each kind (nodes n1 with a replica n1r1, n2; clients A, B). */
static const char *const entries[FAULT_KIND_COUNT] = {
    [FAULT_GC_PAUSE] = "{ at = '1s', gc_pause = 'A', duration = '2s' }",
    [FAULT_CRASH] = "{ at = '1s', crash = 'n2' }",
    [FAULT_RESTART] = "{ at = '1500ms', restart = 'n2' }",
    [FAULT_CLOCK_JUMP] = "{ at = '1s', clock_jump = 'n1', by = '-2s' }",
    [FAULT_DRIFT] = "{ at = '1s', drift = 'B', rate = 0.25 }",
    [FAULT_PARTITION] = "{ at = '1s', partition = { { 'A', 'n1' }, { 'B', 'n2' } }, duration = '1s' }",
    [FAULT_FAILOVER] = "{ at = '1s', failover = 'n1' }",
    [FAULT_DROP] = "{ at = '1s', drop = { 'A', 'n1' }, probability = 0.5, duration = '1s' }",
    [FAULT_DISK_STALL] = "{ at = '1s', disk_stall = 'n1', duration = '1500ms' }",
};


static scenario *with_faults(const char *faults, const char *explore)
{
    char text[4096];
    snprintf(text, sizeof text,
             "return { name = 't', about = 'x', protocol = 'redlock', mode = 'redlock', nodes = { 'n1', 'n2' }, replicas = 1,\n"
             "  persistence = 'always',\n"
             "  clients = { { name = 'A', work = '500ms', rounds = 3 }, { name = 'B', work = '500ms' } },\n"
             "  faults = { %s },\n%s  duration = '4s' }\n",
             faults, explore);
    return load_scenario_text(text);
}

/* Every kind has its row, its file's fault_def with what the engine calls, and its name. */
static void test_faults_every_kind_has_its_row(void **state)
{
    (void)state;
    for (int k = 0; k < FAULT_KIND_COUNT; k++) {
        const fault_def *d = fault_def_of((fault_kind)k);
        assert_non_null(d);
        assert_int_equal(d->kind, k);
        assert_non_null(fault_kind_names[k]);
        assert_int_equal(fault_kind_find(fault_kind_names[k]), k);
        assert_string_equal(fault_kind_name(k), fault_kind_names[k]);
        assert_non_null(d->describe);
        assert_non_null(d->start);
        assert_non_null(d->write);
        assert_non_null(d->offer);
        assert_true(d->targets || d->read_target); /* what its own key names */
        assert_true(d->nrequired <= d->nkeys);
        assert_non_null(entries[k]); /* a scenario entry of it, below */
    }
    assert_int_equal(fault_kind_find("no_such_fault"), -1);
}

/* The reader takes each kind; its writer's output reads back to the same fault; its sentence
 * names its target; a run records it with its typed fields, in the JSON too. */
static void test_faults_read_write_tell_and_record_each_kind(void **state)
{
    (void)state;
    for (int k = 0; k < FAULT_KIND_COUNT; k++) {
        scenario *sc = with_faults(entries[k], "");
        assert_int_equal(sc->nfaults, 1);
        const fault_cfg *f = &sc->faults[0];
        assert_int_equal(f->kind, k);

        /* written back, as a counter-example pins it, it reads as the same fault */
        buf w;
        buf_init(&w);
        fault_write(&w, sc, f);
        scenario *back = with_faults(w.p, "");
        assert_true(back->nfaults >= 1);
        const fault_cfg *g = &back->faults[0];
        assert_int_equal(g->kind, f->kind);
        assert_int_equal(g->at_us, f->at_us);
        assert_int_equal(g->duration_us, f->duration_us);
        assert_int_equal(g->jump_ms, f->jump_ms);
        assert_true(g->rate == f->rate && g->probability == f->probability);
        if (f->target) assert_string_equal(g->target, f->target);

        /* its sentence */
        buf t;
        buf_init(&t);
        fault_describe(f, &t);
        assert_true(t.len > 0);
        const char *who = f->target ? f->target : f->from ? f->from : f->groups[0][0];
        assert_non_null(strstr(t.p, who));

        /* a run records it: a fault event of its kind, its sentence, its JSON name */
        buf err;
        buf_init(&err);
        world *wd = world_new(sc, NULL, &err);
        assert_non_null(wd);
        assert_int_equal(world_run(wd, &err), 0);
        const history *h = world_history(wd);
        int seen = 0;
        for (size_t i = 0; i < history_len(h); i++) {
            const hist_event *e = history_at(h, i);
            if (e->kind != H_FAULT) continue;
            assert_int_equal(e->fault, k);
            assert_string_equal(e->text, t.p);
            seen++;
        }
        assert_int_equal(seen, 1);
        buf js;
        buf_init(&js);
        history_write_jsonl(h, &js);
        char want[64];
        snprintf(want, sizeof want, "\"fault\":\"%s\"", fault_kind_names[k]);
        assert_non_null(strstr(js.p, want));
        buf_release(&js);
        world_free(wd);
        buf_release(&err);
        buf_release(&t);
        buf_release(&w);
        scenario_free(back);
        scenario_free(sc);
    }
}

/* The search offers each kind from the explore table: one option per target, of its kind,
 * at its target, sized by its params or its default. */
static void test_faults_the_search_offers_each_kind(void **state)
{
    (void)state;
    for (int k = 0; k < FAULT_KIND_COUNT; k++) {
        const fault_def *d = fault_def_of((fault_kind)k);
        const char *target = d->targets == FT_CLIENT ? "A" : "n1";
        char explore[256];
        snprintf(explore, sizeof explore, "  explore = { faults = { %s = { '%s' } }, max_faults = 1 },\n",
                 fault_kind_names[k], target);
        scenario *sc = with_faults("", explore);
        assert_int_equal(fault_search.option(sc, -1, NULL), 1);
        fault_cfg f;
        assert_int_equal(fault_search.option(sc, 0, &f), 1);
        assert_int_equal(f.kind, k);
        assert_string_equal(f.target ? f.target : f.from, target);
        int64_t lease = scenario_lease_or_watchdog(sc);
        if (d->lease_halves && d->length) assert_int_equal(d->length(&f), d->lease_halves * lease / 2);
        scenario_free(sc);
    }
}

/* The defaults the issue names: a pause of 1.5 x the lease, a clock jump of 2 x. */
static void test_faults_default_sizes(void **state)
{
    (void)state;
    scenario *sc = with_faults("", "  explore = { faults = { gc_pause = { 'A' }, clock_jump = { 'n1' } }, max_faults = 1 },\n");
    fault_cfg f;
    fault_search.option(sc, 0, &f);
    assert_int_equal(f.kind, FAULT_GC_PAUSE);
    assert_int_equal(f.duration_us, 15000000); /* the default lease, 10 s */
    fault_search.option(sc, 1, &f);
    assert_int_equal(f.kind, FAULT_CLOCK_JUMP);
    assert_int_equal(f.jump_ms, 20000);
    scenario_free(sc);
}

/* A disk stall on a node with persistence always holds its replies until the stall ends
 * (then they leave, in order); with none, nothing waits. */
static void test_faults_disk_stall_holds_replies_with_fsync_always(void **state)
{
    (void)state;
    for (int always = 0; always <= 1; always++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "return { name = 't', about = 'x', protocol = 'distlock', nodes = 1, persistence = '%s',\n"
                 "  lease = '10s', timeout = '3s', network = { delay = '1ms' },\n"
                 "  clients = { { name = 'A', start = '10ms', work = '100ms' } },\n"
                 "  faults = { { at = '5ms', disk_stall = 'n1', duration = '2s' } }, duration = '5s' }\n",
                 always ? "always" : "none");
        scenario *sc = load_scenario_text(text);
        buf err;
        buf_init(&err);
        world *w = world_new(sc, NULL, &err);
        assert_non_null(w);
        assert_int_equal(world_run(w, &err), 0);
        const history *h = world_history(w);
        int64_t first_reply = -1, stall_end = -1;
        for (size_t i = 0; i < history_len(h); i++) {
            const hist_event *e = history_at(h, i);
            if (e->kind == H_REPLY && first_reply < 0) first_reply = e->t_us;
            if (e->kind == H_FAULT_END && e->fault == FAULT_DISK_STALL) stall_end = e->t_us;
        }
        if (always) { /* held until the disk came back */
            assert_int_equal(stall_end, 2005000);
            assert_true(first_reply > stall_end);
        }
        else assert_true(first_reply > 0 && first_reply < 100000);
        world_free(w);
        buf_release(&err);
        scenario_free(sc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_faults_every_kind_has_its_row),
        cmocka_unit_test(test_faults_read_write_tell_and_record_each_kind),
        cmocka_unit_test(test_faults_the_search_offers_each_kind),
        cmocka_unit_test(test_faults_default_sizes),
        cmocka_unit_test(test_faults_disk_stall_holds_replies_with_fsync_always),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
