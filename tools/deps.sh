#!/usr/bin/env bash
# Installs what locklab needs and is missing, on Debian. Idempotent and quiet when all is
# there. Called by `make deps` (a prerequisite of demo, test and bench).
set -euo pipefail

need=()
pc() { pkg-config --exists "$1" 2>/dev/null; }
have() { command -v "$1" >/dev/null 2>&1; }

have pkg-config || need+=(pkg-config)
have cc || need+=(gcc)
pc lua5.4 || need+=(liblua5.4-dev)
pc cmocka || need+=(libcmocka-dev)
pc libxxhash || need+=(libxxhash-dev)
pc nettle || need+=(nettle-dev)
pc libedit || need+=(libedit-dev)
# the event loop of `locklab serve`
pc libevent_core || need+=(libevent-dev)
have gnuplot || need+=(gnuplot-nox)
have redis-server || need+=(redis-server)
have redis-cli || need+=(redis-tools)
have python3 || need+=(python3)
# a real etcd 3.4 for the differential test of the etcd kind (tests/diff/etcd/)
have etcd || need+=(etcd-server)
# a real client library for the tests of `locklab serve` (tests/cli/test_serve.sh)
/usr/bin/python3 -c 'import redis' 2>/dev/null || need+=(python3-redis)
# the real ZooKeeper and its wire protocol in Python, for tests/diff/zookeeper/
[ -f /usr/share/java/zookeeper.jar ] || need+=(zookeeper)
/usr/bin/python3 -c 'import kazoo' 2>/dev/null || need+=(python3-kazoo)
# the real server and a client library for the MySQL differential test (tests/diff/mysql/)
have mariadbd || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server)
/usr/bin/python3 -c 'import pymysql' 2>/dev/null || need+=(python3-pymysql)
# PostgreSQL 15 and a client library for the PostgreSQL differential test (tests/diff/postgresql/)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
/usr/bin/python3 -c 'import psycopg2' 2>/dev/null || need+=(python3-psycopg2)
have pgbouncer || [ -x /usr/sbin/pgbouncer ] || need+=(pgbouncer)
# node and npm: the test installs node redlock and ioredis with npm into build/npm
have node || need+=(nodejs)
have npm || need+=(npm)
# headless browser for the HTML report test (tests/html/test_html.sh)
have chromium || need+=(chromium)
# a terminal for the line-editing test of `locklab redis` (tests/cli/test_tty.sh)
have tmux || need+=(tmux)
# SPIN, the model checker's anchor in make bench (tools/bench-check.sh)
have spin || need+=(spin)
# a real Slurm (controller, node daemon, client commands) and munge, which tests/cli/test_slurm.sh
# starts as a cluster of one node to run tools/slurm-check.sh's array jobs
{ have slurmctld || [ -x /usr/sbin/slurmctld ]; } && { have slurmd || [ -x /usr/sbin/slurmd ]; } && have sbatch || need+=(slurm-wlm)
have munged || [ -x /usr/sbin/munged ] || need+=(munge)
# the playground (make playground, web/): Debian's emscripten, the editor the page uses
# (CodeMirror), and dpkg-source, which unpacks the C sources `apt-get source` fetches
have emcc || need+=(emscripten)
[ -f /usr/share/javascript/codemirror/lib/codemirror.js ] || need+=(libjs-codemirror)
have dpkg-source || need+=(dpkg-dev)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# The playground compiles Lua 5.4, nettle's SHA-1 and xxHash from Debian's source packages
# (tools/web-sources.sh): a deb-src entry for this release's main archive, if there is none.
if ! apt-get source --print-uris -qq lua5.4 >/dev/null 2>&1; then
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    echo "deps: adding a deb-src entry for $codename (the playground's C sources)" >&2
    printf '%s\n' "# added by locklab's tools/deps.sh: the C sources of Lua 5.4, nettle and xxHash for make playground" \
        "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: $codename" "Components: main" \
        "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
        $SUDO tee /etc/apt/sources.list.d/locklab-deb-src.sources >/dev/null
    $SUDO apt-get update -qq >/dev/null
fi

if [ "${#need[@]}" -eq 0 ]; then exit 0; fi
echo "deps: installing ${need[*]}" >&2
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# The Debian redis-server package may start a system service on 6379; locklab's tests use
# their own server on a free port, so leave it alone.
