/* verdict.c — the properties by name, the scenario's expectation of one, and freeing a run's
 * verdicts (verdict.h). */
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

const char *property_name(property p)
{
    return p < PROP_COUNT ? property_names[p] : "?";
}

int property_from_name(const char *name)
{
    for (int i = 0; i < PROP_COUNT; i++)
        if (!strcmp(property_names[i], name)) return i;
    return -1;
}

const expect_cfg *check_expectation(const scenario *sc, property p)
{
    const expect_cfg *ex = NULL;
    for (int i = 0; i < sc->nexpects; i++)
        if (!strcmp(sc->expects[i].property, property_name(p))) ex = &sc->expects[i];
    return ex;
}

void check_free(check_result *r)
{
    for (int i = 0; i < PROP_COUNT; i++) {
        free(r->p[i].evidence);
        r->p[i].evidence = NULL;
    }
}
