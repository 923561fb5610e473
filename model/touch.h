/* touch.h — did a run's situation reach the lock, and did each property's monitor see the
 * lock at all? `locklab matrix` asks both of every cell, so that a cell cannot pass because
 * its fault touched nothing, nor a property "hold" on a row whose lock its monitor never saw.
 * Both read the history's typed fields only (never an event's text): faults and their ends,
 * the clients' lock milestones, requests and their execution, lost messages, and the key
 * events of the lock unit (the scenario's lock key and what the models declared with
 * ctx:lock_unit, as the monitors read it).
 *
 * The ways a situation reaches the lock (a column of the matrix table names those that count
 * for it, in `exercised`):
 *   reentry        a holder took the lock again while holding it (its model said it reentered,
 *                  or its re-entrant acquire failed)
 *   holder_crashed a client crashed (process or host) while it held or was acquiring the lock
 *   lock_lost      while a fault was in force (a pause, a cut, lost messages; after a clock
 *                  jump, to the end), a holder lost the lock: an object of the lock unit its
 *                  command had set expired, or was deleted or changed by anything but its own
 *                  command, or another client acquired while it held
 *   message_cut    while a fault was in force, a message to or from a client that held or
 *                  waited for the lock was lost, or a request of one was held across a cut
 *                  (sent inside it, run after it healed: network.partitions = "tcp")
 *   server_hit     a node crashed, restarted or failed over while it stored an object of the
 *                  lock unit and a client held or waited for the lock
 *   waiter_gave_up a waiter's acquire ran out while another client held the lock
 *   late_message   a request a holder sent while it held (or released) the lock ran on a node
 *                  after the holder had lost the lock (its release, its last renewal) */
#ifndef LOCKLAB_TOUCH_H
#define LOCKLAB_TOUCH_H

#include "history.h"
#include "scenario.h"
#include "util.h"

typedef enum touch_kind {
    TOUCH_REENTRY, TOUCH_HOLDER_CRASHED, TOUCH_LOCK_LOST, TOUCH_MESSAGE_CUT, TOUCH_SERVER_HIT,
    TOUCH_WAITER_GAVE_UP, TOUCH_LATE_MESSAGE, TOUCH_COUNT
} touch_kind;

const char *touch_name(int k);       /* "reentry", ... */
int touch_find(const char *name);    /* -1 if none */

/* What one run showed: for each way, whether it happened (and the first instance, in a
 * sentence); for each property, whether its monitor saw a lock event it judges (and, if not,
 * what was missing). */
typedef struct touch_result {
    int happened[TOUCH_COUNT];
    char *what[TOUCH_COUNT];         /* the first instance, or NULL */
    int observed[PROP_COUNT];
    char *unseen[PROP_COUNT];        /* why not, or NULL */
} touch_result;

void touch_run(const history *h, const scenario *sc, touch_result *out);
void touch_free(touch_result *r);

/* The ways in `mask` (bit TOUCH_*), as "a lock lost during a fault, or a message of the lock
 * cut" (for a reason that none happened). */
void touch_describe_mask(unsigned mask, buf *out);

#endif
