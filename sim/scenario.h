/* scenario.h — a scenario file, loaded and validated into plain data.
 *
 * A scenario is a Lua file evaluated in an empty sandbox that returns one table (the format
 * is DESIGN.md's "Scenario files" contract; scenarios/README.md documents every field).
 * Loading validates everything — unknown keys, wrong types, negative durations, unknown
 * actors in faults, impossible combinations — and reports the first problem as one line
 * "FILE:LINE: what is wrong", the line being where the offending field is written.
 *
 * Times are held in microseconds of true time (the file gives ms numbers or strings with
 * units: "250ms", "10s", "1m", "1.5s", "500us"). */
#ifndef LOCKLAB_SCENARIO_H
#define LOCKLAB_SCENARIO_H

#include <stdint.h>

#include "history.h" /* fault_kind */
#include "util.h"

typedef enum dist_kind { DIST_CONST, DIST_UNIFORM, DIST_EXP } dist_kind;

/* A delay distribution: constant a_us; uniform [a_us, b_us]; exponential with mean a_us. */
typedef struct dist {
    dist_kind kind;
    int64_t a_us, b_us;
} dist;

typedef struct clock_cfg {
    int64_t offset_ms; /* local clock at true time 0, relative to the scenario epoch */
    double drift;      /* rate error: 0.01 runs 1% fast */
} clock_cfg;

typedef enum persistence { PERSIST_NONE, PERSIST_EVERYSEC, PERSIST_ALWAYS } persistence;

typedef struct node_cfg {
    char *name;          /* "n1", "A", "n1r1" */
    int master;          /* index of its master for a replica, -1 for a master */
    persistence persist;
    int64_t restart_delay_us; /* -1: stays down until a restart fault */
    clock_cfg clock;
    int line;
} node_cfg;

typedef struct client_cfg {
    char *name;
    int64_t start_us;
    int64_t work_us;     /* time inside the critical section (the file gives local ms) */
    int rounds;
    int64_t wait_us;     /* -1: the scenario's */
    int64_t lease_us;    /* -1: the scenario's; -2: no lease (watchdog) */
    int64_t think_us;    /* pause between rounds */
    clock_cfg clock;
    int line;
} client_cfg;

typedef struct fault_cfg {
    fault_kind kind;
    int64_t at_us;
    int64_t duration_us; /* -1 when the fault has no duration */
    char *target;        /* the actor: gc_pause, crash, restart, clock_jump, drift, failover */
    int64_t jump_ms;     /* clock_jump: by how much, signed */
    int64_t restart_after_ms; /* crash of a node the search injected: it restarts that much
                                 later (0: it stays down) */
    double rate;         /* drift */
    double probability;  /* drop */
    char *from, *to;     /* drop: the link (both directions) */
    char ***groups;      /* partition: ngroups NULL-terminated name lists */
    int ngroups;
    int host;            /* crash of a client: its host vanishes (no FIN, no reset: a server
                            notices at its TCP keepalive, `duration` later), not its process */
    int line;
} fault_cfg;

typedef struct link_cfg {
    char *from, *to;     /* both directions */
    dist delay;
    double loss;
    int line;
} link_cfg;

typedef struct expect_cfg {
    char *property;      /* "mutual_exclusion", ... */
    int violated;        /* 1: "violated", 0: "holds" */
    int line;
} expect_cfg;

/* A protocol option passed through to the client model (options = { preset = "redlock-rb",
 * drift_factor = 0.01 }): strings, numbers and booleans only. */
typedef struct option_cfg {
    char *key;
    enum { OPT_STRING, OPT_NUMBER, OPT_BOOL } type;
    char *s;
    double num;
    int b;
    int line;            /* where it is written, for the protocol model's checks (client_load.c) */
} option_cfg;

/* The model checker's budget (issue: explore). Kept as data; the explorer interprets it. */
typedef struct explore_fault {
    fault_kind kind;
    char **targets; int ntargets;      /* actors it may hit */
    int64_t *params_us; int nparams;   /* pause lengths / jump sizes / restart delays */
    int line;
    /* Added by the loader: params that are not times. drift: rates; drop: probabilities.
     * For those two kinds params_us is empty; for every other kind params_us are the times
     * (clock_jump signed, crash = restart delays) and values is empty. */
    double *values; int nvalues;
} explore_fault;

typedef struct explore_cfg {
    int present;
    explore_fault *faults; int nfaults;
    int max_faults;
    int64_t horizon_us;  /* 0: the scenario's duration */
    int max_depth;       /* decisions per path that may branch (faults always do); 0: all */
    int max_deviations;  /* non-first alternatives per path; -1: iterative deepening */
    int line;
} explore_cfg;

typedef struct scenario {
    char *path;
    char *name;
    char *about;
    char *protocol;      /* lua/clients/<protocol>.lua */
    char *server;        /* the nodes' kind (kinds.h): "redis" by default */
    int64_t *server_options; /* the kind's options in its order (durations in ms) */
    char *mode;          /* "single" | "redlock" */
    char *scripts;       /* "redisson@3.11.1"; NULL = HEAD */
    char *lock;          /* the lock's name ("lock" by default) */
    int fencing;
    int down_refuses;    /* a down node refuses connections at once (down = "refuses"), or is silent */
    node_cfg *nodes; int nnodes;         /* masters first, then replicas */
    int nmasters;
    int64_t lease_us, wait_us, timeout_us; /* lease -2: none (watchdog) */
    dist delay; double loss;             /* default for every link */
    int tcp_partitions;                  /* network.partitions = "tcp": a cut delays a client's
                                            and a server's segments, retransmitted until it
                                            heals or TCP gives up; else "drop" (lost) */
    int tcp_retries2;                    /* network.tcp_retries2 (Linux's, 15) */
    int64_t keepalive_us;                /* network.keepalive: how long a server takes to
                                            notice a client whose host vanished (7875 s) */
    link_cfg *links; int nlinks;
    dist repl_lag;                       /* master → replica stream */
    int64_t down_after_us, detection_us; /* failover timings */
    int repl_quorum;                     /* commit = "quorum": a write is acknowledged once a
                                            majority of its group has it (ZooKeeper, etcd) */
    client_cfg *clients; int nclients;
    fault_cfg *faults; int nfaults;
    int64_t duration_us;
    uint64_t seed;
    expect_cfg *expects; int nexpects;
    option_cfg *options; int noptions;
    explore_cfg explore;
} scenario;

/* Loads and validates path. On error returns NULL and puts "FILE:LINE: what is wrong" in
 * err (one line, no "locklab: " prefix). */
scenario *scenario_load(const char *path, buf *err);
/* The same from a string (tests); `name` stands for the file name in messages. */
scenario *scenario_load_string(const char *name, const char *text, buf *err);
void scenario_free(scenario *s);

/* Parses a duration: a number (ms) or a string with a unit; returns µs, or -1 on error. */
int64_t scenario_parse_duration(const char *text);
/* The same with an optional leading '-' (clock jumps, clock offsets): 0 and *us set, -1
 * when text is not a duration, -2 when it is one but too large (over about 31 years).
 * Added by the loader. */
int scenario_parse_signed_duration(const char *text, int64_t *us);
/* Checks a script version as `scripts` takes it ("HEAD", "3.11.1", "redisson@3.11.1")
 * against the script library, as the loader does (compare checks its --scripts with it):
 * 0, or -1 with the reason appended to err (one line, no "scripts: " prefix). */
int scenario_check_scripts(const char *spec, buf *err);
/* Partition groups that cut `name` off alone: {name} and every other actor (names borrowed
 * from sc). Free with scenario_free_groups. */
char ***scenario_isolate_groups(const scenario *sc, const char *name);
void scenario_free_groups(char ***groups);

/* The index of the node or client with that name, -1 if none. */
/* The lease a run has where the scenario gives none (lease = false: a watchdog renews it):
 * Redisson's lockWatchdogTimeout default, 30 s (Config.java, "Default is 30000
 * milliseconds"; lua/clients/redisson.lua's M.LOCK_WATCHDOG_TIMEOUT). The judge's deadlock
 * bound scales with it. */
#define SCENARIO_WATCHDOG_LEASE_US INT64_C(30000000)
/* The scenario's lease (µs), or SCENARIO_WATCHDOG_LEASE_US without one. */
int64_t scenario_lease_or_watchdog(const scenario *s);
int scenario_node_index(const scenario *s, const char *name);
/* Renames the actor `from` to `to` everywhere the scenario names it (nodes, clients, links,
 * faults, partition groups, the explore table, an option whose value is exactly its name):
 * what a run does and how it is judged must not depend on names (`locklab run --rename`,
 * tests/cli/test_rename.sh). 0, or -1 with the reason in err: `from` is no actor, `to` is
 * not a legal name or is already one. */
int scenario_rename_actor(scenario *s, const char *from, const char *to, buf *err);
int scenario_client_index(const scenario *s, const char *name);

#endif
