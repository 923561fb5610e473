/* redlock.pml — the anchor of `make bench` for the model checker: the Redlock crash-restart
 * problems of tests/bench/check/*.lua, written in Promela for SPIN.
 *
 * The problem (the same as the locklab scenarios): N masters; two clients running Redlock as
 * redlock-rb does it (three attempts; each sends SET NX PX to every master in turn, waiting
 * for a reply or a 50 ms timeout; validity = TTL - elapsed - (TTL * 0.01 + 2 ms); on a failed
 * attempt it releases on every master and retries after a random 0-199 ms). c1 starts at 0
 * and works 9 s, c2 (and c3, with CLIENTS 3) starts at 2 s and works 1 s; the lease is 10 s.
 * Until PART_END ms (30 s: the whole run; 0: no partition) a partition lets c1 reach only the
 * first N/2 masters and the middle one, c2 and c3 only the middle one and the last N/2.
 * Within the first 2.5 s, up to CRASHES crashes of any master, each restarting RESTART ms
 * later, empty (PERSIST 0: no fsync) or with its keys (PERSIST 1: fsync always). Safety: the
 * two clients are never in the critical section together (an assertion at each entry).
 * With PAUSES > 0, up to PAUSES GC pauses of PAUSE ms of either client instead (CRASHES 0):
 * a paused client does nothing (its replies and timers wait until the pause ends; a request
 * it sent still reaches its master), as a locklab gc_pause.
 *
 * Time is integer milliseconds. Each message's delay is DMIN or DMAX ms (a window's two ends,
 * as locklab's chooser offers them; with DMIN = DMAX it is constant); the random retry delay
 * is likewise 0 or 199 ms. Clients wait for an instant; when every process waits, the Time
 * process may crash a master (any master that is up, while the budget lasts and the instant
 * is within the horizon), then moves the clock: by 1 ms while a crash may still come (so a
 * crash can fall between any two milliseconds), else straight to the next instant anything
 * happens. With EVENT_CRASH 1 it always moves straight to the next instant: a crash falls
 * only at the instants of events, just before them — where locklab places one before its
 * target's event (its shift then covers the gap before, which SPIN's model does not). A master's expiry is judged on arrival (the key counts as absent at or after its
 * deadline), which is what Redis's lazy expiry gives a client.
 *
 * Run by tools/bench-check.sh: spin -a with -D definitions for N, CRASHES, RESTART, PERSIST,
 * DMIN and DMAX; pan.c compiled with -O2 -DSAFETY (partial-order reduction on, SPIN's
 * default) and run with a depth bound large enough that nothing is cut (pan would say so). */

#ifndef N
#define N 5
#endif
#ifndef CRASHES
#define CRASHES 1
#endif
#ifndef C2START
#define C2START 2000 /* ms: when c2 starts (0: both clients ask at once) */
#endif
#ifndef RESTART
#define RESTART 200
#endif
#ifndef PERSIST
#define PERSIST 0
#endif
#ifndef DMIN
#define DMIN 1
#endif
#ifndef DMAX
#define DMAX 2
#endif
#ifndef PART_END
#define PART_END 30000
#endif
#ifndef CLIENTS
#define CLIENTS 2
#endif
#ifndef EVENT_CRASH
#define EVENT_CRASH 0
#endif
#ifndef PAUSES
#define PAUSES 0
#endif
#ifndef PAUSE
#define PAUSE 2000
#endif

#define HORIZON 2500
#define TTL 10000
#define DRIFT 102             /* TTL * 0.01 + 2 ms, as redlock-rb */
#define QUORUM (N / 2 + 1)
#define NODE_TIMEOUT 50
#define RETRIES 3
#define NEVER 2000000000

/* c reaches master i: while the partition lasts, c1 the first half and the middle, c2 and
 * c3 the middle and the rest */
#define REACH(c, i) (now >= PART_END || (c) == 1 && (i) <= N / 2 || (c) >= 2 && (i) >= N / 2)

int now = 0;
byte holder[N];               /* 0: no key; else the client whose value it holds */
int expires[N];
bool up[N];
int restart_at[N];
byte crashes = 0;
bool in_cs[4];
int wake[4];                  /* the instant each client waits for (NEVER: finished) */
int pause_end[4];             /* a GC pause of the client lasts until then */
byte pauses = 0;

/* a client's own wait: a pause holds it */
inline sleep_until(c, t)
{
    wake[c] = t;
    (now >= wake[c] && now >= pause_end[c])
}

/* a request's way to its master: the master handles it whether its client is paused or not */
inline arrive_at(c, t)
{
    wake[c] = t;
    (now >= wake[c])
}

/* One request to master i, op 0 acquire (SET NX PX) or 1 release (compare-and-delete); ok
 * tells whether it answered "OK" / 1. */
inline call(c, i, op, ok)
{
    ok = false;
    t0 = now;
    if
    :: REACH(c, i) ->
        if
        :: d = DMIN
        :: DMAX != DMIN -> d = DMAX
        fi;
        arrive_at(c, t0 + d);
        if
        :: up[i] ->
            d_step {
                if
                :: holder[i] != 0 && now >= expires[i] -> holder[i] = 0
                :: else -> skip
                fi;
                if
                :: op == 0 && holder[i] == 0 -> holder[i] = c; expires[i] = now + TTL; ok = true
                :: op == 1 && holder[i] == c -> holder[i] = 0; ok = true
                :: else -> skip
                fi
            }
            if
            :: d = DMIN
            :: DMAX != DMIN -> d = DMAX
            fi;
            sleep_until(c, now + d)
        :: else ->
            sleep_until(c, t0 + NODE_TIMEOUT)   /* no answer: the client's timeout */
        fi
    :: else ->
        sleep_until(c, t0 + NODE_TIMEOUT)
    fi
}

inline on_all(c, op, n)
{
    n = 0;
    i = 0;
    do
    :: i < N ->
        call(c, i, op, ok);
        if
        :: ok -> n++
        :: else -> skip
        fi;
        i++
    :: else -> break
    od
}

proctype Client(byte c; int start; int work)
{
    int t0, d, begin, elapsed;
    byte i, n, attempt;
    bool ok, locked;
    sleep_until(c, start);
    attempt = 1;
    locked = false;
    do
    :: attempt <= RETRIES ->
        begin = now;
        on_all(c, 0, n);
        elapsed = now - begin;
        if
        :: n >= QUORUM && TTL - elapsed - DRIFT > 0 -> locked = true; break
        :: else -> on_all(c, 1, n)
        fi;
        if
        :: attempt == RETRIES -> break
        :: else -> skip
        fi;
        if
        :: d = 0
        :: d = 199
        fi;
        sleep_until(c, now + d);
        attempt++
    od;
    if
    :: locked ->
        assert(!in_cs[1] && !in_cs[2] && !in_cs[3]); /* mutual exclusion */
        in_cs[c] = true;
        sleep_until(c, now + work);
        in_cs[c] = false;
        on_all(c, 1, n)
    :: else -> skip
    fi;
    wake[c] = NEVER
}

active proctype Time()
{
    int next;
    byte k;
    do
    :: timeout ->
        if
        :: wake[1] == NEVER && wake[2] == NEVER && wake[3] == NEVER -> break
        :: else -> skip
        fi;
        /* a GC pause now, of a client that is running and not paused (or none) */
        if
        :: pauses < PAUSES && now < HORIZON ->
            if
            :: wake[1] != NEVER && pause_end[1] <= now -> pause_end[1] = now + PAUSE; pauses++
            :: wake[2] != NEVER && pause_end[2] <= now -> pause_end[2] = now + PAUSE; pauses++
            :: skip
            fi
        :: else -> skip
        fi;
        /* a crash now, of any master that is up (or none) */
        if
        :: crashes < CRASHES && now < HORIZON ->
            k = 0;
            do
            :: k < N && up[k] -> atomic {
                   up[k] = false; restart_at[k] = now + RESTART; crashes++;
                   if
                   :: PERSIST == 0 -> holder[k] = 0; expires[k] = 0
                   :: else -> skip
                   fi
               }; break
            :: k < N -> k++
            :: k >= N -> break            /* no crash now */
            od;
            k = 0
        :: else -> skip
        fi;
        d_step {
            /* the next instant: 1 ms on while a crash may come, else the next event */
            if
            :: !EVENT_CRASH && (crashes < CRASHES || pauses < PAUSES) && now + 1 < HORIZON -> next = now + 1
            :: else ->
                next = NEVER;
                if
                :: wake[1] > now && wake[1] < next -> next = wake[1]
                :: else -> skip
                fi;
                if
                :: wake[2] > now && wake[2] < next -> next = wake[2]
                :: else -> skip
                fi;
                if
                :: wake[3] > now && wake[3] < next -> next = wake[3]
                :: else -> skip
                fi;
                if
                :: pause_end[1] > now && pause_end[1] < next -> next = pause_end[1]
                :: else -> skip
                fi;
                if
                :: pause_end[2] > now && pause_end[2] < next -> next = pause_end[2]
                :: else -> skip
                fi;
                k = 0;
                do
                :: k < N ->
                    if
                    :: !up[k] && restart_at[k] > now && restart_at[k] < next -> next = restart_at[k]
                    :: else -> skip
                    fi;
                    k++
                :: else -> break
                od;
                k = 0
            fi;
            now = next;
            k = 0;
            do
            :: k < N ->
                if
                :: !up[k] && restart_at[k] <= now -> up[k] = true
                :: else -> skip
                fi;
                k++
            :: else -> break
            od;
            k = 0
        }
    od
}

init
{
    byte k;
    atomic {
        k = 0;
        do
        :: k < N -> up[k] = true; k++
        :: else -> break
        od;
        wake[1] = 0;
        wake[2] = 0;
        wake[3] = NEVER;
        run Client(1, 0, 9000);
        run Client(2, C2START, 1000);
        if
        :: CLIENTS >= 3 -> wake[3] = 0; run Client(3, 2000, 1000)
        :: else -> skip
        fi
    }
}
