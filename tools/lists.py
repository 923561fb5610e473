#!/usr/bin/env python3
"""tools/lists.py — the lists of server kinds, faults and properties written in the docs and
the playground, generated from their tables (`make lists`).

The tables are C (sim/kinds.c, history.h's FAULT_KINDS, model/properties.c); the binary is
their one voice: `locklab --help` lists the three, `locklab kind --list` gives each kind's
title. This rewrites every copy of those lists in place, between the words that frame it,
so adding a kind, a fault or a property is its row and `make lists`:

  README.md          the kinds `locklab kind` runs (the tour's line)
  web/index.html     the playground's header: the kinds but Redis, by product
  docs/history.md    the `fault` field's values
  docs/verdicts.md   the `property` field's values

What needs a person's words is only checked: a kind, fault or property without its row in
scenarios/README.md's tables is named, with what to write.

  tools/lists.py            rewrite the files (LOCKLAB: the binary, default ./locklab)
  tools/lists.py --check    change nothing; exit 1 naming each file whose list differs
                            (tests/cli/test_cli.sh runs it)
Exit 2: a usage error; 3: the binary cannot be run or does not print its tables.
"""
import os
import re
import subprocess
import sys


def fail(code, text):
    print(text, file=sys.stderr)
    sys.exit(code)


def run(ll, *args):
    try:
        out = subprocess.run([ll, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        fail(3, "lists.py: cannot run %s: %s (build it first: make locklab; or set LOCKLAB)" % (ll, e.strerror))
    if out.returncode != 0:
        fail(3, "lists.py: '%s %s' failed (exit %d): %s" % (ll, " ".join(args), out.returncode, out.stderr.strip()))
    return out.stdout


def usage_list(usage, head):
    """The names after `head` in the usage and its indented continuation lines."""
    names, on = [], False
    for line in usage.splitlines():
        if line.startswith(head):
            on, line = True, line[len(head):]
        elif not (on and line.startswith(" ")):
            on = False
            continue
        names += [n.strip() for n in line.split(",") if n.strip()]
    if not names:
        fail(3, "lists.py: the usage has no '%s' line: is it the locklab of this tree?" % head)
    return names


def tables(ll):
    usage = run(ll, "--help")
    kinds = usage_list(usage, "server kinds:")
    faults = usage_list(usage, "faults:")
    props = usage_list(usage, "properties:")
    products = {}
    for line in run(ll, "kind", "--list").splitlines():
        m = re.match(r"([a-z0-9_-]+)\s+(\S+)", line)
        if m:
            products[m.group(1)] = m.group(2)
    missing = [k for k in kinds if k not in products]
    if missing:
        fail(3, "lists.py: 'locklab kind --list' has no title for %s" % ", ".join(missing))
    return kinds, faults, props, products


def and_list(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def ticks(words):
    return ", ".join("`%s`" % w for w in words)


def regions(kinds, faults, props, products):
    """(file, pattern with groups before/list/after, the list as it should read, what it is)"""
    return [
        ("README.md", r"(?m)^(\./locklab kind zookeeper +# one fake server of any kind by hand \()([^)\n]*)(\))",
         ", ".join(kinds), "the server kinds of the tour's 'locklab kind' line"),
        ("web/index.html", r"(<!-- kinds: tools/lists\.py -->)(.*?)(<!-- /kinds -->)",
         and_list([products[k] for k in kinds if k != "redis"]), "the kinds in the playground's header"),
        ("docs/history.md", r"(?m)(^\| `fault`, `fault_end` \| `fault` \| string \| the fault's kind, as a scenario names it: )(.*?)( \(the list is)",
         ticks(faults), "the fault kinds of the `fault` field"),
        ("docs/verdicts.md", r"(?m)(^\| `property` \| string \| always \| )(.*?)( \(what each means)",
         ticks(props), "the properties of the `property` field"),
    ]


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] and not check:
        fail(2, "usage: tools/lists.py [--check]   (LOCKLAB: the binary, default ./locklab)")
    ll = os.environ.get("LOCKLAB", "")
    ll = os.path.abspath(ll) if ll else None  # a path from where it was called
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ll = ll or os.path.abspath("locklab")
    kinds, faults, props, products = tables(ll)
    problems, changed = [], []
    texts = {}
    for path, pattern, want, what in regions(kinds, faults, props, products):
        text = texts.get(path)
        if text is None:
            with open(path, encoding="utf-8") as f:
                text = texts[path] = f.read()
        m = re.search(pattern, text, re.S)
        if not m:
            problems.append("%s: %s is not where lists.py looks for it (pattern %s): put the line back "
                            "or change tools/lists.py" % (path, what, pattern))
            continue
        if m.group(2) != want:
            if check:
                problems.append("%s: %s reads '%s', the table '%s': run 'make lists'" % (path, what, m.group(2), want))
            texts[path] = text[:m.start(2)] + want + text[m.end(2):]
            if path not in changed:
                changed.append(path)
    # a row of prose per fault and property: checked, never written
    with open("scenarios/README.md", encoding="utf-8") as f:
        scen = f.read()
    for name, table, what in [(f, "fault", "its target, its keys and what it does") for f in faults] + \
                             [(p, "property", "what it means and when it is judged") for p in props]:
        if not re.search(r"(?m)^\| `%s` \|" % re.escape(name), scen):
            problems.append("scenarios/README.md: the %s table has no row for %s: write one (%s)" % (table, name, what))
    if not check:
        for path in changed:
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                f.write(texts[path])
            os.replace(path + ".tmp", path)
            print("lists: wrote %s" % path)
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
