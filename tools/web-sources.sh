#!/usr/bin/env bash
# The C sources the playground (make playground, web/) compiles beside locklab's own: Lua 5.4,
# the SHA-1 of nettle and xxHash, from Debian's source packages (lua5.4, nettle, xxhash: the
# same versions, with Debian's patches, as the libraries the native binary links). Fetched
# with `apt-get source` into build/web/src/ (git-ignored; nothing fetched is committed), once:
# each package's folder is then reached through a stable link (lua, nettle, xxhash).
# tools/deps.sh adds the deb-src entry this needs. Exit 3, saying why, when it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=build/web/src
mkdir -p "$dest"
for pkg in lua5.4:lua nettle:nettle xxhash:xxhash; do
    name=${pkg%%:*} link=${pkg##*:}
    [ -e "$dest/$link" ] && continue
    if ! (cd "$dest" && apt-get source -qq "$name" >"$name.log" 2>&1); then
        echo "playground: cannot fetch Debian's source package $name (see $dest/$name.log);" \
             "make deps adds the deb-src entry it needs" >&2
        exit 3
    fi
    dir=$(cd "$dest" && ls -d "$name"-*/ 2>/dev/null | head -n 1)
    [ -n "$dir" ] || { echo "playground: apt-get source $name left no folder in $dest" >&2; exit 3; }
    ln -sfn "${dir%/}" "$dest/$link"
done
