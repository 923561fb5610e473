/* monitorint.h — what the property monitors share (not an API; monitor.h is): the interface
 * each monitor implements, the table of properties (properties.c), the lock unit, and the
 * helpers that write evidence. A property is a row of that table and a file prop_<name>.c
 * implementing prop_monitor; its name is in the history's vocabulary (history.h). */
#ifndef LOCKLAB_MONITORINT_H
#define LOCKLAB_MONITORINT_H

#include "monitor.h"

/* The lock unit: the server objects that are the lock — the scenario's lock key (first), and
 * what the clients' models declared (lock_unit events: an object, or every object under a
 * prefix). */
typedef struct unit_name {
    const char *name;   /* borrowed from the history (or the scenario) */
    int prefix;
} unit_name;

typedef struct lock_unit {
    unit_name *v;
    size_t n, cap;
} lock_unit;

int mon_unit_has(const lock_unit *u, const char *key);

/* What every monitor reads besides the event. */
typedef struct mon_env {
    const history *h;
    const scenario *sc;
    int nact;              /* the actors the history had at the start */
    const lock_unit *unit;
} mon_env;

/* A property's monitor: its state is `size` bytes, zeroed, then init; step reads each event
 * in order while the verdict holds (every_event: always, the verdict being decided by finish);
 * finish (may be NULL) judges what the end of the run decides; seen (may be NULL: the verdict
 * is VIOLATED) says it is already known violated; release frees what init took. */
typedef struct prop_monitor {
    size_t size;
    void (*init)(void *st, const mon_env *env);
    void (*step)(void *st, const mon_env *env, const hist_event *e, prop_result *r);
    void (*finish)(void *st, const mon_env *env, prop_result *r);
    int (*seen)(const void *st, const prop_result *r);
    void (*release)(void *st);
    int every_event;
} prop_monitor;

/* When a property is judged: on every run, or when the scenario's expect names it. */
typedef enum judged { JUDGED_ALWAYS, JUDGED_WHEN_EXPECTED } judged;

typedef struct property_def {
    const prop_monitor *monitor;
    judged when;
    const char *const *kinds; /* the server kinds it applies to (NULL-terminated), NULL: every kind */
    uint64_t observes;        /* the history kinds (bit H_*) whose order across clients its verdict
                                 depends on: the model checker orders a client's step against
                                 other clients' only when it records one of these (a fault counts
                                 when it is a client's) */
} property_def;

/* The table, in property order (properties.c). */
extern const property_def property_table[PROP_COUNT];

extern const prop_monitor mutual_exclusion_monitor, resource_safety_monitor, release_safety_monitor,
    no_deadlock_monitor, fairness_monitor, reentrancy_monitor;

/* Evidence: true µs as "10.106s"; a local clock's ms as seconds since the epoch; the faults
 * that started before `until`, as one phrase; an actor's local clock at true time t. */
void mon_put_t(buf *b, int64_t us);
void mon_put_local(buf *b, int64_t local_ms);
void mon_faults_before(const history *h, int64_t until, buf *b);
int64_t mon_local_at(const history *h, int actor, int64_t t);
/* Whether e is a crash of `actor` (a fault of kind crash). */
int mon_is_crash_of(const hist_event *e, int actor);

#endif
