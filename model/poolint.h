/* poolint.h — what model/pool.c, pool_folder.c and pool_item.c share: a search shared by N
 * tasks through a folder (pool.c's header says how). Not an API. */
#ifndef LOCKLAB_POOLINT_H
#define LOCKLAB_POOLINT_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "exploreint.h"

/* A share with fewer deviations (decisions off their default, faults' placements included) is
 * run as its first path, its items shares in turn; a deeper one as its subtree (a claim and
 * log lines for many paths). Measured with --pool-balance 64 on make bench's restarts problem
 * (the largest task over the mean): 3, 1.18x; every share expanded (a claim a path), 1.11x
 * with the fewest deviations first alone; when each task took its own newest share first, 3
 * gave 1.36x and 4 or more 1.23x. The Redisson problem's 1.71x is its chain's, whatever this. */
#define POOL_EXPAND 3
#define POOL_BEAT_S 5     /* how often a task touches its alive file */
#define POOL_STALE_S 60   /* an alive file this much older than the reader's: its task is gone */
#define POOL_LOOK_S 0.05  /* the most a task with shares of its own waits to read the others' logs */

typedef struct pitem {
    uint64_t id[2];
    int pass, bound;   /* pool_phase and the level's bound */
    uint32_t m, nnz;   /* the prefix's length; its decisions off the default */
    uint32_t *pos;     /* nnz positions, their values, m placement flags (bits) and the m */
    int64_t *val;      /* decisions' numbers of alternatives (for a share searched as a subtree) */
    uint8_t *pf;
    int64_t *nalt;
    int state;         /* POOL_KNOWN, ... */
    int flags;         /* its end: POOL_CUT, POOL_FOUND */
    int owner_t, owner_a;
    uint8_t pub, did;  /* enabled by this task's paths; run by this task */
} pitem;
enum { POOL_KNOWN, POOL_MINE, POOL_OTHERS, POOL_DONE };
#define POOL_CUT 1
#define POOL_FOUND 2

typedef struct plog {
    char *name;
    int fd, t, a, is_pub;
    off_t off;
} plog;

typedef struct pool {
    char *dir;
    int task, ntasks, attempt;
    FILE *pub, *done;
    char *alive;
    pitem *it;
    size_t n, cap;
    uint64_t *slot; /* open addressing: index + 1 by id[0] */
    size_t nslot;
    plog *logs;
    size_t nlogs;
    size_t *heap; /* the shares not taken, in the order next_share takes them */
    size_t nheap, capheap;
    xpath best;    /* the first violation this task's shares found (in one search's order) */
    int have_best;
    int beat_stop;
    pthread_t beat;
    int have_beat;
    /* --pool-balance N: no folder; N tasks simulated in this process (pool_sim_level) */
    int nsim;
    uint64_t *clock, *load, *finish, makespan;
    uint64_t *avail; /* per share: when it is there to take (the simulated time) */
    size_t capavail;
} pool;

/* pool_item.c: the shares known, by name, and those not taken yet in the order they go out */
/* What a share belongs to besides its level's bound: the first level's pass with a smaller
 * fault budget, a level's coarse pass or the level itself. */
int pool_item_phase(const search *S);
/* The path of a file of the folder. */
void pool_item_path(pool *P, const char *what, char *out, size_t n);
pitem *pool_item_find(pool *P, const uint64_t id[2]);
/* Adds the share (a copy of its prefix) unless known; returns it, *fresh when new. */
pitem *pool_item_add(pool *P, int pass, int bound, uint32_t m, const uint32_t *pos, const int64_t *val,
                     uint32_t nnz, const uint8_t *pf, const int64_t *nalt, int *fresh);
void pool_item_heap_push(pool *P, size_t k);
size_t pool_item_heap_pop(pool *P);

/* pool_folder.c: the folder the tasks share — their logs, the claims, the heartbeat */
/* This process's pool (one search a process), made and its folder opened at the first call. */
pool *pool_folder_get(search *S, buf *err);
/* The pool made by pool_folder_get, or NULL. */
pool *pool_folder_current(void);
void pool_folder_log_line(FILE *f, const char *line, size_t len);
/* Logs a share this task's paths enabled. */
void pool_folder_publish(pool *P, pitem *it);
/* Reads what every log gained since the last read. */
void pool_folder_read_logs(pool *P);
/* 1 when this task now holds the share; 0 when another does. */
int pool_folder_claim(pool *P, pitem *it, int retake);
/* Is the claimer of a share not done gone: ended, given up, or silent too long? */
int pool_folder_claimer_gone(pool *P, pitem *it);

#endif
