#!/usr/bin/env bash
# CLIENT TRACKING (client-side caching) in `locklab serve`, byte for byte against a real
# redis-server 7.0.15: tests/cli/tracking.py runs one sequence of commands on several raw
# connections of each server — REDIRECT to a RESP2 subscriber of __redis__:invalidate and to a
# RESP3 connection, a RESP3 connection's own pushes after its replies (in MULTI/EXEC and
# scripts too), BCAST with prefixes, NOLOOP, OPTIN/OPTOUT with CLIENT CACHING, the redirect
# gone (tracking-redir-broken), FLUSHALL/FLUSHDB's nulls, CLIENT REPLY OFF, RESET, expiry,
# the errors, CLIENT TRACKINGINFO/GETREDIR, CLIENT INFO's flags and INFO's figures — and the
# two outputs must be the same bytes. Servers are stopped at the end whatever happens;
# readiness is a bounded polling loop, never a time threshold. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/cli/serve_lib.sh tracking

start_redis
[ -n "$rport" ] && ok || bad "no redis-server to compare with"

# tracking.py prints each step's replies and pushes; what the real server sent is what the
# sequence is about (so that an empty run cannot pass): invalidations on 30 steps or more,
# and the broken redirect's push.
cp tests/cli/tracking.py "$tmp/tracking.py"
same_bytes tracking "CLIENT TRACKING over raw sockets" \
    '[ "$(grep -c invalidate "$tmp/tracking.redis")" -ge 30 ] && grep -q tracking-redir-broken "$tmp/tracking.redis"' --clock wall
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
