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
# A session that lives as long as the test: killing the last session ends tmux's server, and a
# new-session racing that exit fails with "server exited unexpectedly" (seen once in CI).
tm new-session -d -s keep "sleep 3600"

screen() { tm capture-pane -t t -p 2>/dev/null; }
# wait_for TEXT: until the screen shows TEXT (a fixed string), at most 60 s (a loaded machine).
wait_for() {
    local i
    for i in $(seq 600); do
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

# run and list at an 80-column terminal (audit L6): the verdicts' evidence and the list's
# titles wrapped at its width (capture-pane -J joins what tmux itself wrapped, so a longer line
# is one locklab printed), VIOLATED in red and holds in green (tmux writes the bold of 1;31 as an
# escape of its own); NO_COLOR turns the colour off.
tm kill-session -t t
tm new-session -d -s t -x 80 -y 50 "'$LL' run gc-pause-single -q; echo \"exit=\$?\"; sleep 30"
expect_screen "exit=0" "run at an 80-column terminal"
joined=$(tm capture-pane -t t -p -J -S - -e)
if printf '%s\n' "$joined" | grep -q $'\033\[31mVIOLATED\033\[0m'; then ok; else bad "VIOLATED is not red at a terminal"; fi
if printf '%s\n' "$joined" | grep -q $'\033\[32mholds'; then ok; else bad "holds is not green at a terminal"; fi
long=$(tm capture-pane -t t -p -J -S - | awk 'length > 80' | head -3)
if [ -z "$long" ] && tm capture-pane -t t -p -J -S - | grep -q '^      A and B were both inside'; then ok
else bad "run's evidence is not wrapped at 80 columns: $long"; fi
tm kill-session -t t
tm new-session -d -s t -x 80 -y 50 "NO_COLOR=1 '$LL' run gc-pause-single -q; echo \"exit=\$?\"; sleep 30"
expect_screen "exit=0" "run with NO_COLOR"
if tm capture-pane -t t -p -J -S - -e | grep -q $'\033\[31m'; then bad "NO_COLOR still colours"; else ok; fi
tm kill-session -t t
tm new-session -d -s t -x 80 -y 300 "'$LL' list; echo \"exit=\$?\"; sleep 30"
expect_screen "exit=0" "list at an 80-column terminal"
long=$(tm capture-pane -t t -p -J -S - | awk 'length > 80' | head -3)
if [ -z "$long" ]; then ok; else bad "list is not wrapped at 80 columns: $long"; fi
# into a file, nothing changes: one line of evidence, no colour
"$LL" run gc-pause-single -q >"/tmp/$sock.out" 2>&1
if grep -q $'\033' "/tmp/$sock.out" || [ "$(awk 'length > 200' "/tmp/$sock.out" | wc -l)" -eq 0 ]; then
    bad "run into a file changed (colour, or its evidence wrapped)"; else ok; fi
rm -f "/tmp/$sock.out"

echo "tty: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
