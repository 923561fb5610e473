#!/usr/bin/env bash
# The body of `make demo`. For now: a narrated walk through a Redisson reentrant lock in the
# fake Redis (taken, re-entered, contended, released). The scenario library replaces this
# as the main job once the simulation engine lands.
set -euo pipefail
cd "$(dirname "$0")/.."
demo=tests/transcripts/demo-reentrant-lock.txt
if [ ! -f "$demo" ]; then
    echo "locklab: $demo is missing" >&2
    exit 3
fi
echo "== locklab demo: the Redisson reentrant lock, step by step, in the fake Redis 7.0"
echo "   (replaying $demo; every reply is checked against the transcript)"
echo
./locklab redis --play "$demo"
echo
echo "Try it yourself: ./locklab redis    (type .help)"
echo "The scripts it ran:  ./locklab scripts"
