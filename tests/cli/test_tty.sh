#!/usr/bin/env bash
# `locklab redis` at a terminal, driven through tmux as a person would type: the prompt,
# line editing (cursor keys, backspace), this session's history (Up), Ctrl-D to leave; and
# no prompt when the output is not a terminal. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
LL=$(realpath "${LOCKLAB:-./locklab}")
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v tmux >/dev/null; then
    echo "test_tty: tmux is not installed (make deps installs it); the terminal test did NOT run"
    echo "0 passed, 1 failed"
    exit 1
fi

sock="locklab-tty-$$"
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null' EXIT

screen() { tm capture-pane -t t -p 2>/dev/null; }
# wait_for TEXT: until the screen shows TEXT (a fixed string), at most 10 s.
wait_for() {
    local i
    for i in $(seq 100); do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
    done
    return 1
}
expect_screen() { if wait_for "$1"; then ok; else bad "$2: '$1' never appeared"; screen | sed 's/^/    /'; fi; }

tm new-session -d -s t -x 120 -y 30 "'$LL' redis; echo \"exit=\$?\"; sleep 30"
expect_screen "locklab>" "the prompt at a terminal"
tm send-keys -t t "set greeting hello" Enter
expect_screen "OK" "a command typed at the prompt"
tm send-keys -t t "get greeting" Enter
expect_screen '"hello"' "a reply printed as redis-cli prints it"
# Up twice recalls "set greeting hello"; Left, Backspace, x make it "set greeting helxo".
tm send-keys -t t Up Up Left BSpace x Enter
tm send-keys -t t "get greeting" Enter
expect_screen '"helxo"' "history (Up) and editing (Left, Backspace) of a recalled line"
tm send-keys -t t "incr n" Left Left Left Left Left Left "get n " Home C-k "incr n" Enter
expect_screen "(integer) 1" "Home and Ctrl-K"
tm send-keys -t t C-d
expect_screen "exit=0" "Ctrl-D ends the session with exit 0"

# Output not a terminal: no prompt, no editing, exactly what redis-cli would print.
tm kill-session -t t
tm new-session -d -s t -x 120 -y 30 "'$LL' redis > '/tmp/$sock.out'; echo \"exit=\$?\"; sleep 30"
sleep 0.3
tm send-keys -t t "ping" Enter C-d
expect_screen "exit=0" "a session with its output redirected ends"
if [ "$(cat "/tmp/$sock.out")" = "PONG" ]; then ok; else bad "redirected output is exactly the replies"; cat "/tmp/$sock.out"; fi
rm -f "/tmp/$sock.out"

echo "tty: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
