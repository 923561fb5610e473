#!/usr/bin/env python3
"""test_rename.py — verdicts come from what happened, never from names (issue 23).

Every scenario of the library (scenarios/*.lua and every cell of the matrix,
scenarios/matrix/*/*.lua) is run as it is, then twice more with every actor renamed
(`locklab run --rename OLD=NEW`) to other legal names, names holding the words a reader of
prose might look for (crash, restart, paused, GC, partition, lost, ...). With the new names
mapped back to the old ones, the verdicts document (each verdict, its instant, its events,
its evidence, the faults before it), the history itself and the exit code must be the same
bytes. The actors are those the run's history names (a node that never acts is renamed
nowhere, which cannot matter).

Run from the tree's root: LOCKLAB=./locklab python3 tests/cli/test_rename.py
Prints "N passed, N failed" last.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

LL = os.environ.get("LOCKLAB", "./locklab")

# Words that once decided verdicts when they appeared in fault descriptions, and more of
# the kind: each new name is one of them with a number, "crash-03", "GC-pause-07".
WORDS = ["crash", "GC-pause", "restart", "paused", "crasher", "GC", "crash-of", "restarted",
         "pause", "partition", "lost", "empty", "re-entry", "released", "jumps-by", "node-down",
         "failover", "drop", "request", "reply"]


def run(path, out, renames=()):
    args = [LL, "run", path, "-q", "--json", out + ".jsonl", "--verdicts", out + ".json"]
    for old, new in renames:
        args += ["--rename", "%s=%s" % (old, new)]
    p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
    with open(out + ".jsonl", "rb") as f:
        hist = f.read()
    with open(out + ".json", "rb") as f:
        verdicts = f.read()
    return p.returncode, hist, verdicts, p.stderr.decode("utf-8", "replace")


def actors_of(hist):
    names = set()
    for line in hist.decode("utf-8").splitlines():
        ev = json.loads(line)
        for k in ("actor", "peer"):
            if k in ev and ev[k] != "world":
                names.add(ev[k])
    return sorted(names)


def back(data, mapping):
    """data with every new name replaced by its old one (longest first)."""
    for old, new in sorted(mapping, key=lambda m: -len(m[1])):
        data = data.replace(new.encode(), old.encode())
    return data


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return "line %d:\n      was %s\n      now %s" % (i + 1, x[:300], y[:300])
    return "lengths %d and %d" % (len(a), len(b))


def main():
    files = sorted(glob.glob("scenarios/*.lua")) + sorted(glob.glob("scenarios/matrix/*/*.lua"))
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="locklab-rename.") as tmp:
        for n, path in enumerate(files):
            base = os.path.join(tmp, "s%d" % n)
            rc0, hist0, ver0, err0 = run(path, base)
            if rc0 not in (0, 1):
                print("FAIL: %s: exit %d as it is: %s" % (path, rc0, err0.strip()))
                failed += 1
                continue
            actors = actors_of(hist0)
            for variant in range(2):
                # variant 1 turns the order of the names around (the last actor gets the
                # first word), so the new names also sort in another order
                order = actors if variant == 0 else list(reversed(actors))
                mapping = [(old, "%s-%02d" % (WORDS[(k + 5 * variant) % len(WORDS)], k)) for k, old in enumerate(order)]
                rc1, hist1, ver1, err1 = run(path, "%s.r%d" % (base, variant), mapping)
                what = "%s renamed (%s)" % (path, ", ".join("%s=%s" % m for m in mapping))
                if rc1 != rc0:
                    print("FAIL: %s: exit %d, as it is %d %s" % (what, rc1, rc0, err1.strip()))
                    failed += 1
                elif back(ver1, mapping) != ver0:
                    print("FAIL: %s: the verdicts differ: %s" % (what, first_difference(ver0, back(ver1, mapping))))
                    failed += 1
                elif back(hist1, mapping) != hist0:
                    print("FAIL: %s: the history differs: %s" % (what, first_difference(hist0, back(hist1, mapping))))
                    failed += 1
                else:
                    passed += 1
    # bad input: one line, exit 2
    for args, says in ((["--rename", "nobody=x"], "'nobody' is no node or client"),
                       (["--rename", "A=two words"], "is not a valid name"),
                       (["--rename", "A=B"], "'B' is already an actor"),
                       (["--rename", "A"], "--rename takes OLD=NEW")):
        p = subprocess.run([LL, "run", "scenarios/gc-pause-single.lua", "-q"] + args, capture_output=True, text=True)
        lines = p.stderr.splitlines()
        if p.returncode == 2 and len(lines) == 1 and lines[0].startswith("locklab: ") and says in lines[0]:
            passed += 1
        else:
            print("FAIL: run %s: exit %d, stderr %r (wanted exit 2 saying %r)" % (" ".join(args), p.returncode, p.stderr, says))
            failed += 1
    print("%d scenarios, each renamed twice" % len(files))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
