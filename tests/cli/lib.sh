# tests/cli/lib.sh — what the command-line tests share; sourced from the tree's root (each
# script cds there first) as `. tests/cli/lib.sh NAME`. Sets LL (the binary: $LOCKLAB or
# ./locklab), tmp (a fresh /tmp/locklab-NAME.XXXXXX, removed at exit, read-only folders
# too), the pass and fail counts, and the helpers below. Not a test itself.
LL=${LOCKLAB:-./locklab}
tmp=$(mktemp -d "/tmp/locklab-$1.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# check DESCRIPTION command...: passes if the command succeeds.
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
# expect_exit CODE DESCRIPTION -- command...: stdout to $tmp/out, stderr to $tmp/err.
expect_exit() {
    local want=$1 what=$2
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else bad "$what: exit $got, wanted $want"; sed 's/^/    /' "$tmp/err" | head -5; fi
}
# one_line_err DESCRIPTION [TEXT]: stderr is one "locklab: " line (that contains TEXT).
one_line_err() {
    if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^locklab: ' "$tmp/err" && grep -qF -- "${2-}" "$tmp/err"; then ok
    else bad "$1: stderr is not one 'locklab: ' line${2+ saying '$2'}"; sed 's/^/    /' "$tmp/err"; fi
}

# Headless Chromium (no network; a fresh profile each time). chromium_bin is empty where it
# is not installed.
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
# browse OUT PAGE#FRAGMENT [chromium options...]: the console log goes to OUT.log
browse() {
    local out=$1 url=$2 profile
    shift 2
    profile=$(mktemp -d "$tmp/profile.XXXXXX")
    timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
        --enable-logging=stderr --v=0 "$@" "file://$url" >"$out" 2>"$out.log"
    rm -rf "$profile"
}
# quiet_console OUT: the page browsed into OUT logged no error
quiet_console() { ! grep -Eq 'Uncaught|:CONSOLE|CONSOLE\(' "$1.log"; }
