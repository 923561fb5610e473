/* scenario_fixture.h — a scenario from Lua text, for unit tests: the test fails with the
 * loader's one-line error when it does not load. Include after cmocka.h. */
#ifndef LOCKLAB_TEST_SCENARIO_FIXTURE_H
#define LOCKLAB_TEST_SCENARIO_FIXTURE_H

#include "scenario.h"

static inline scenario *load_scenario_text(const char *text)
{
    buf err;
    buf_init(&err);
    scenario *sc = scenario_load_string("inline.lua", text, &err);
    if (!sc) fail_msg("scenario did not load: %s", err.p);
    buf_release(&err);
    return sc;
}

#endif
