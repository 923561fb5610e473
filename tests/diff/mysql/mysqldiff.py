#!/usr/bin/env python3
"""mysqldiff.py — the differential test of the fake MySQL (sim/mysql/) against MariaDB.

Starts a real `mariadbd` (Debian's mariadb-server) on a free loopback port with its data in a
temporary directory (mariadb-install-db, then the server as the current user: `--user` names
it, which is what lets the server run as root in CI), and runs every case file through it
(python3-pymysql, one connection per client, autocommit) and through `locklab kind mysql`,
one statement at a time. The replies, printed alike, must be identical; where a case file
states expected lines, they must agree too. The server is stopped at the end, whatever
happens.

Case files:
    # a comment (the latest one names the case in mismatch reports)
    > an SQL statement, sent as it is written
    optional expected reply lines
    .client N         the next statements come from client N (a connection of its own)
    .crash-client N   client N's connection closes (the real side waits, with a generous
                      bound, until the server has seen it go); its next statement reconnects
Replies print as `locklab kind mysql` prints them: "OK, N rows affected", the rows as
"v | v; v | v" (NULL for NULL) or "Empty set", "ERROR code (SQLSTATE): message". Connection
ids differ between the two servers: in a column whose name contains IS_USED_LOCK or
CONNECTION_ID, the real server's thread ids are mapped to the fake's numbering (client N's
connection is N + 1). A statement after `# diff: known-difference <why>` is a documented way
in which the fake differs: it runs on both sides and counts as skipped.

Each case file starts from an empty database `locklab` and a fresh `locklab kind mysql`.
Usage: python3 tests/diff/mysql/mysqldiff.py [--locklab ./locklab] [--cases FILE...]
Prints `N passed, N failed` last; exit 0 only if everything matched, 1 on a mismatch, 2 when
the test cannot run (no mariadbd, no pymysql, the server does not start).
"""

import argparse
import glob
import os
import pwd
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
KNOWN_MARK = "diff: known-difference"
START_BOUND_S = 180  # a loaded 2-core CI machine: a bound, not a threshold
GONE_BOUND_S = 120


class HarnessError(Exception):
    pass


class SqlError(Exception):
    def __init__(self, code, state, msg):
        super().__init__(code, state, msg)
        self.code, self.state, self.msg = code, state, msg


def import_pymysql():
    try:
        import pymysql
        import pymysql.err as perr
    except ImportError:
        for p in ("/usr/lib/python3/dist-packages",):
            if p not in sys.path:
                sys.path.append(p)
        try:
            import pymysql
            import pymysql.err as perr
        except ImportError:
            raise HarnessError("python3-pymysql is not installed (tools/deps.sh installs it)")

    def raise_with_state(data):
        # pymysql keeps the error number and text but drops the SQLSTATE: keep all three
        code = struct.unpack("<h", data[1:3])[0]
        if data[3:4] == b"#":
            state, msg = data[4:9].decode("ascii"), data[9:]
        else:
            state, msg = "HY000", data[3:]
        raise SqlError(code, state, msg.decode("utf-8", "replace"))

    perr.raise_mysql_exception = raise_with_state
    return pymysql


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, pymysql):
        self.pymysql = pymysql
        self.dir = tempfile.mkdtemp(prefix="locklab-mariadb-")
        self.proc = None
        self.port = free_port()
        self.admin = None

    def start(self):
        daemon = shutil.which("mariadbd") or shutil.which("mariadbd", path="/usr/sbin:/usr/local/sbin")
        install = shutil.which("mariadb-install-db")
        if not daemon or not install:
            raise HarnessError("mariadbd or mariadb-install-db not found (Debian: mariadb-server)")
        user = pwd.getpwuid(os.getuid()).pw_name
        data = os.path.join(self.dir, "data")
        r = subprocess.run([install, "--no-defaults", "--datadir=" + data, "--user=" + user,
                            "--auth-root-authentication-method=normal", "--skip-test-db"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise HarnessError("mariadb-install-db failed:\n" + r.stdout.decode(errors="replace")[-2000:])
        self.log = os.path.join(self.dir, "error.log")
        self.proc = subprocess.Popen([daemon, "--no-defaults", "--datadir=" + data, "--user=" + user,
                                      "--port=%d" % self.port, "--bind-address=127.0.0.1",
                                      "--socket=" + os.path.join(self.dir, "sock"),
                                      "--pid-file=" + os.path.join(self.dir, "pid"),
                                      "--log-error=" + self.log, "--skip-name-resolve",
                                      "--innodb-buffer-pool-size=16M"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        until = time.monotonic() + START_BOUND_S
        while True:
            if self.proc.poll() is not None:
                raise HarnessError("mariadbd exited (%d); its log:\n%s" % (self.proc.returncode, self.log_tail()))
            try:
                self.admin = self.connect(None)
                break
            except Exception:
                if time.monotonic() > until:
                    raise HarnessError("mariadbd did not accept connections within %d s:\n%s"
                                       % (START_BOUND_S, self.log_tail()))
                time.sleep(0.2)

    def log_tail(self):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-2000:]
        except OSError:
            return "(no log)"

    def connect(self, db):
        return self.pymysql.connect(host="127.0.0.1", port=self.port, user="root", password="",
                                    database=db, autocommit=True, connect_timeout=30)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def fmt_value(v):
    if v is None:
        return "NULL"
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


class RealSide:
    def __init__(self, server):
        self.server = server
        self.conns = {}
        self.thread_to_client = {}

    def reset(self):
        for c in list(self.conns):
            self.crash(c)
        cur = self.server.admin.cursor()
        cur.execute("DROP DATABASE IF EXISTS locklab")
        cur.execute("CREATE DATABASE locklab")
        self.thread_to_client = {}

    def conn(self, client):
        if client not in self.conns:
            c = self.server.connect("locklab")
            self.conns[client] = c
            self.thread_to_client[c.thread_id()] = client
        return self.conns[client]

    def crash(self, client):
        c = self.conns.pop(client, None)
        if c is None:
            return
        tid = c.thread_id()
        c.close()
        cur = self.server.admin.cursor()
        until = time.monotonic() + GONE_BOUND_S
        while True:
            cur.execute("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = %d" % tid)
            if cur.fetchone()[0] == 0:
                return
            if time.monotonic() > until:
                raise HarnessError("the server still lists connection %d %d s after it closed" % (tid, GONE_BOUND_S))
            time.sleep(0.05)

    def run(self, client, sql):
        cur = self.conn(client).cursor()
        try:
            n = cur.execute(sql)
        except SqlError as e:
            return "ERROR %d (%s): %s" % (e.code, e.state, e.msg)
        if cur.description is None:
            return "OK, %d row%s affected" % (n, "" if n == 1 else "s")
        labels = [d[0].upper() for d in cur.description]
        rows = cur.fetchall()
        if not rows:
            return "Empty set"
        out = []
        for row in rows:
            cells = []
            for label, v in zip(labels, row):
                if isinstance(v, int) and ("IS_USED_LOCK" in label or "CONNECTION_ID" in label):
                    v = self.thread_to_client.get(v, -1) + 1
                cells.append(fmt_value(v))
            out.append(" | ".join(cells))
        return "; ".join(out)


def parse_case(path):
    """A list of steps: ('client', n), ('crash', n), ('sql', text, expected, label, known)."""
    steps, label, known = [], None, None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            text = line[1:].strip()
            if text.startswith(KNOWN_MARK):
                known = text[len(KNOWN_MARK):].strip() or "known difference"
            else:
                label = "%s:%d %s" % (os.path.basename(path), no, text)
            continue
        if line.startswith(".client ") or line.startswith(".crash-client "):
            word, arg = line.split(None, 1)
            steps.append(("client" if word == ".client" else "crash", int(arg)))
            continue
        if line.startswith("> "):
            steps.append(["sql", line[2:], [], label or os.path.basename(path), known, no])
            known = None
            continue
        if steps and steps[-1][0] == "sql":
            steps[-1][2].append(line)
            continue
        raise HarnessError("%s:%d: not a statement, a meta-line or an expected line" % (path, no))
    return steps


def quote_word(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fake_side(locklab, steps):
    feed = []
    for st in steps:
        if st[0] == "client":
            feed.append(".client %d" % st[1])
        elif st[0] == "crash":
            feed.append(".crash-client %d" % st[1])
        else:
            feed.append(quote_word(st[1]))
    r = subprocess.run([locklab, "kind", "mysql"], input=("\n".join(feed) + "\n").encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if r.returncode != 0:
        raise HarnessError("locklab kind mysql exited %d: %s" % (r.returncode, r.stderr.decode(errors="replace")))
    return [l for l in r.stdout.decode("utf-8", "replace").split("\n") if l and not l.startswith("  ~")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--locklab", default=os.path.join(ROOT, "locklab"))
    ap.add_argument("--cases", nargs="*", default=None)
    ap.add_argument("--show-known", action="store_true")
    a = ap.parse_args()
    cases = a.cases or sorted(glob.glob(os.path.join(HERE, "cases", "*.txt")))
    passed = failed = skipped = 0
    server = None
    try:
        pymysql = import_pymysql()
        server = Server(pymysql)
        server.start()
        real = RealSide(server)
        for path in cases:
            steps = parse_case(path)
            real.reset()
            fake = fake_side(a.locklab, steps)
            client, k = 0, 0
            for st in steps:
                if st[0] == "client":
                    client = st[1]
                    continue
                if st[0] == "crash":
                    real.crash(st[1])
                    continue
                _, sql, expected, label, known, no = st
                got_real = real.run(client, sql)
                got_fake = fake[k] if k < len(fake) else "(no reply)"
                k += 1
                same = got_real == got_fake and (not expected or expected == [got_real])
                if known:
                    skipped += 1
                    if got_real == got_fake:
                        print("KNOWN DIFFERENCE GONE %s: > %s\n  both: %s" % (label, sql, got_real))
                        failed += 1
                    else:
                        print("KNOWN DIFFERENCE %s (%s)" % (label, known))
                        if a.show_known:
                            print("  mariadb: %s\n  locklab: %s" % (got_real, got_fake))
                    continue
                if same:
                    passed += 1
                else:
                    failed += 1
                    print("MISMATCH %s (line %d)\n  > %s\n  mariadb:  %s\n  locklab:  %s%s"
                          % (label, no, sql, got_real, got_fake,
                             "\n  expected: %s" % " / ".join(expected) if expected else ""))
    except HarnessError as e:
        print("mysqldiff: cannot run: %s" % e, file=sys.stderr)
        print("%d passed, %d failed" % (passed, failed + 1))
        return 2
    finally:
        if server:
            server.stop()
    print("%d passed, %d failed%s" % (passed, failed, ", %d known differences skipped" % skipped if skipped else ""))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
