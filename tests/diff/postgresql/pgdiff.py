#!/usr/bin/env python3
"""pgdiff.py — the differential test of the fake PostgreSQL (sim/pg/) against PostgreSQL 15.

Starts a real PostgreSQL (Debian's postgresql-15: initdb into a temporary directory, then
`postgres` on a free loopback port with its socket in that directory; as root, both run as
the unprivileged user `postgres`, or `nobody`, since the server refuses to run as root) and
runs every case file through it (python3-psycopg2, one autocommit connection per client) and
through `locklab kind postgresql`, one statement at a time. The replies, printed alike, must
be identical; where a case file states expected lines, they must agree too. The server is
stopped and its directory removed at the end, whatever happens.

Case files:
    # a comment (the latest one names the case in mismatch reports)
    > an SQL statement, sent as it is written
    optional expected reply lines
    .client N         the next statements come from client N (a connection of its own)
    .crash-client N   client N's connection closes (the real side waits, with a generous
                      bound, until the server no longer lists its backend); its next
                      statement reconnects
    >& an SQL statement that may wait in the server: sent, and not awaited; prints
                      "(waits)" if it waits (the real side: until the server shows its backend
                      waiting for a lock, or the statement ends with a wait's error: 55P03,
                      57014, 40P01), else its reply
    .wait N           the answer to client N's statement that waits (the real side: awaited,
                      with a generous bound, "(still waiting)" past it); expected lines follow
    .advance MS       the fake's clock moves MS ms, firing the waits' timers on the way; the
                      real server's clock runs by itself (a case makes its timeouts end waits
                      that nothing else ends, so that no real duration is compared)
    .pool N           (first, once) the clients go through PgBouncer with
                      pool_mode = transaction and default_pool_size = N: a real pgbouncer
                      (Debian's, started as the server is) on the real side,
                      `locklab kind postgresql --option pgbouncer_pool=N` on the fake's
Replies print as `locklab kind postgresql` prints them: the command tag ("BEGIN"), the row's
values as "v | v" (t and f for booleans, '' for void, NULL for NULL), "ERROR SQLSTATE:
message" (the message's first line); the WARNINGs a statement raised follow in parentheses.
Backend pids differ between the two servers: in a column whose name contains "pid", the real
server's pids are mapped to the fake's numbering (client N's backend is N + 1; through the
pool, the backends in the order they are first seen are 1001, 1002, ...: a pooled case shows
pg_backend_pid() in every statement that may open one). A statement
after `# diff: known-difference <why>` is a documented way in which the fake differs: it runs
on both sides and counts as skipped.

Each case file starts with fresh connections and a fresh `locklab kind postgresql`.
Usage: python3 tests/diff/postgresql/pgdiff.py [--locklab ./locklab] [--cases FILE...]
Prints `N passed, N failed` last; exit 0 only if everything matched, 1 on a mismatch, 2 when
the test cannot run (no PostgreSQL, no psycopg2, the server does not start).
"""

import argparse
import threading
import glob
import os
import pwd
import shutil
import signal
import socket
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


def import_psycopg2():
    try:
        import psycopg2
    except ImportError:
        if "/usr/lib/python3/dist-packages" not in sys.path:
            sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import psycopg2
        except ImportError:
            raise HarnessError("python3-psycopg2 is not installed (tools/deps.sh installs it)")
    return psycopg2


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bindir():
    for d in ["/usr/lib/postgresql/15/bin"] + sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, "postgres")) and os.path.exists(os.path.join(d, "initdb")):
            return d
    raise HarnessError("no PostgreSQL server found under /usr/lib/postgresql (Debian: postgresql)")


class Server:
    def __init__(self, psycopg2):
        self.psycopg2 = psycopg2
        self.dir = tempfile.mkdtemp(prefix="locklab-pg-")
        self.proc = None
        self.port = free_port()
        self.admin = None
        self.log = os.path.join(self.dir, "server.log")

    def as_user(self):
        """preexec_fn and the user the server runs as: itself, or an unprivileged one as root."""
        if os.getuid() != 0:
            return None, pwd.getpwuid(os.getuid()).pw_name
        for name in ("postgres", "nobody"):
            try:
                pw = pwd.getpwnam(name)
            except KeyError:
                continue
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)

            def drop(pw=pw):
                os.setgid(pw.pw_gid)
                os.setgroups([])
                os.setuid(pw.pw_uid)
            return drop, name
        raise HarnessError("running as root and no unprivileged user (postgres, nobody) to run the server as")

    def start(self):
        bindir = pg_bindir()
        drop, user = self.as_user()
        data = os.path.join(self.dir, "data")
        env = dict(os.environ, LC_ALL="C", LANG="C")
        r = subprocess.run([os.path.join(bindir, "initdb"), "-D", data, "-A", "trust", "-U", "postgres",
                            "--no-sync", "-E", "UTF8"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=drop, env=env, cwd=self.dir)
        if r.returncode != 0:
            raise HarnessError("initdb (as %s) failed:\n%s" % (user, r.stdout.decode(errors="replace")[-2000:]))
        logf = open(self.log, "wb")
        self.proc = subprocess.Popen([os.path.join(bindir, "postgres"), "-D", data, "-p", str(self.port),
                                      "-k", self.dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
                                     stdout=logf, stderr=subprocess.STDOUT, preexec_fn=drop, env=env, cwd=self.dir)
        logf.close()
        until = time.monotonic() + START_BOUND_S
        while True:
            if self.proc.poll() is not None:
                raise HarnessError("postgres exited (%d); its log:\n%s" % (self.proc.returncode, self.log_tail()))
            try:
                self.admin = self.connect()
                break
            except Exception:
                if time.monotonic() > until:
                    raise HarnessError("postgres did not accept connections within %d s:\n%s"
                                       % (START_BOUND_S, self.log_tail()))
                time.sleep(0.2)

    def log_tail(self):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-2000:]
        except OSError:
            return "(no log)"

    def connect(self):
        c = self.psycopg2.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="postgres",
                                  connect_timeout=30)
        c.autocommit = True
        return c

    def stop(self):
        if self.admin:
            try:
                self.admin.close()
            except Exception:
                pass
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


class Bouncer:
    """A real PgBouncer in front of the server: pool_mode = transaction, default_pool_size = N,
    server_round_robin = 0 (its default: LIFO), as the same unprivileged user."""

    def __init__(self, server, pool):
        self.server = server
        self.pool = pool
        self.port = free_port()
        self.dir = os.path.join(server.dir, "pgbouncer")
        self.proc = None

    def start(self):
        exe = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin:/usr/local/sbin")
        if not exe:
            raise HarnessError("pgbouncer not found (Debian: pgbouncer; tools/deps.sh installs it)")
        os.makedirs(self.dir, exist_ok=True)
        drop, user = self.server.as_user()
        ini = os.path.join(self.dir, "pgbouncer.ini")
        with open(os.path.join(self.dir, "userlist.txt"), "w") as f:
            f.write('"postgres" ""\n')
        with open(ini, "w") as f:
            f.write("[databases]\npostgres = host=127.0.0.1 port=%d dbname=postgres user=postgres\n"
                    "[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = %d\nunix_socket_dir = %s\n"
                    "auth_type = trust\nauth_file = %s\npool_mode = transaction\ndefault_pool_size = %d\n"
                    "server_round_robin = 0\nmax_client_conn = 100\nlogfile = %s\npidfile = %s\n"
                    "ignore_startup_parameters = extra_float_digits\n"
                    % (self.server.port, self.port, self.dir, os.path.join(self.dir, "userlist.txt"), self.pool,
                       os.path.join(self.dir, "pgbouncer.log"), os.path.join(self.dir, "pgbouncer.pid")))
        if os.getuid() == 0:
            pw = pwd.getpwnam(user)
            for name in os.listdir(self.dir):
                os.chown(os.path.join(self.dir, name), pw.pw_uid, pw.pw_gid)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.proc = subprocess.Popen([exe, ini], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                     preexec_fn=drop, cwd=self.dir)
        until = time.monotonic() + START_BOUND_S
        while True:
            if self.proc.poll() is not None:
                raise HarnessError("pgbouncer exited (%d); its log:\n%s" % (self.proc.returncode, self.log_tail()))
            try:
                c = self.connect()
                c.close()
                return
            except Exception:
                if time.monotonic() > until:
                    raise HarnessError("pgbouncer did not accept connections within %d s:\n%s"
                                       % (START_BOUND_S, self.log_tail()))
                time.sleep(0.2)

    def log_tail(self):
        try:
            with open(os.path.join(self.dir, "pgbouncer.log"), errors="replace") as f:
                return f.read()[-2000:]
        except OSError:
            return "(no log)"

    def connect(self):
        c = self.server.psycopg2.connect(host="127.0.0.1", port=self.port, user="postgres", dbname="postgres",
                                         connect_timeout=30)
        c.autocommit = True
        return c

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # immediate shutdown
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def fmt_value(v):
    if v is None:
        return "NULL"
    if v is True:
        return "t"
    if v is False:
        return "f"
    if v == "":
        return "''"
    return str(v)


class RealSide:
    def __init__(self, server, bouncer=None):
        self.server = server
        self.bouncer = bouncer
        self.conns = {}
        self.pids = {}
        self.pid_to_client = {}
        self.pooled_pids = {}
        self.pending = {}  # client: [thread, result] of a statement sent with >&

    def reset(self):
        for c in list(self.conns):
            self.crash(c)
        self.pid_to_client = {}

    def conn(self, client):
        if client not in self.conns:
            c = (self.bouncer or self.server).connect()
            self.conns[client] = c
            self.pids[client] = c.get_backend_pid()
            if not self.bouncer:
                self.pid_to_client[c.get_backend_pid()] = client
        return self.conns[client]

    def send(self, client, sql):
        """A statement that may wait: "(waits)" once the server shows it waiting, else its reply."""
        self.conn(client)
        box = [None, None]

        def work():
            try:
                box[1] = self.run(client, sql)
            except HarnessError:
                box[1] = "(connection closed)"  # its session was ended (crash)
        th = threading.Thread(target=work, daemon=True)
        box[0] = th
        th.start()
        cur = self.server.admin.cursor()
        until = time.monotonic() + GONE_BOUND_S
        while th.is_alive():
            if not self.bouncer:
                cur.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = %d AND wait_event_type = 'Lock'"
                            % self.pids[client])
            else:
                cur.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                            "AND query = %s", (sql,))
            if cur.fetchone()[0] > 0:
                self.pending[client] = box
                return "(waits)"
            if time.monotonic() > until:
                raise HarnessError("a statement neither ended nor waited for a lock within %d s: %s"
                                   % (GONE_BOUND_S, sql))
            time.sleep(0.02)
        th.join()
        if box[1].startswith(("ERROR 55P03:", "ERROR 57014:", "ERROR 40P01:")):
            self.pending[client] = box  # it waited, and the wait ended before we saw it
            return "(waits)"
        return box[1]

    def wait(self, client):
        box = self.pending.get(client)
        if box is None:
            return "(error) client %d has no request waiting" % client
        box[0].join(GONE_BOUND_S)
        if box[0].is_alive():
            return "(still waiting)"
        del self.pending[client]
        return box[1]

    def fake_pid(self, pid):
        if not self.bouncer:
            return self.pid_to_client.get(pid, -1) + 1
        if pid not in self.pooled_pids:
            self.pooled_pids[pid] = 1001 + len(self.pooled_pids)
        return self.pooled_pids[pid]

    def crash(self, client):
        c = self.conns.get(client)
        if c is None:
            return
        pid = self.pids[client]
        box = self.pending.pop(client, None)
        if box is not None and box[0].is_alive():
            # its statement waits: the session is ended from the server's side (the connection
            # is the waiting thread's), as a dead client's would be
            self.server.admin.cursor().execute("SELECT pg_terminate_backend(%d)" % pid)
            box[0].join(GONE_BOUND_S)
        del self.conns[client]
        try:
            c.close()
        except Exception:
            pass
        if self.bouncer:
            # between transactions PgBouncer keeps the server connection: nothing to wait for
            time.sleep(0.2)
            return
        cur = self.server.admin.cursor()
        until = time.monotonic() + GONE_BOUND_S
        while True:
            cur.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = %d" % pid)
            if cur.fetchone()[0] == 0:
                return
            if time.monotonic() > until:
                raise HarnessError("the server still lists backend %d %d s after its connection closed"
                                   % (pid, GONE_BOUND_S))
            time.sleep(0.05)

    def run(self, client, sql):
        conn = self.conn(client)
        cur = conn.cursor()
        del conn.notices[:]
        try:
            cur.execute(sql)
            if cur.description is None:
                out = cur.statusmessage
            else:
                labels = [d[0] for d in cur.description]
                rows = cur.fetchall()
                cells = []
                for label, v in zip(labels, rows[0]):
                    if isinstance(v, int) and not isinstance(v, bool) and "pid" in label:
                        v = self.fake_pid(v)
                    cells.append(fmt_value(v))
                out = " | ".join(cells)
        except self.server.psycopg2.Error as e:
            if e.pgcode is None:
                raise HarnessError("the connection failed: %s" % e)
            out = "ERROR %s: %s" % (e.pgcode, e.diag.message_primary)
        warnings = []
        for n in conn.notices:
            n = n.strip()
            if n.startswith("WARNING:"):
                warnings.append("WARNING: " + n[len("WARNING:"):].strip())
        if warnings:
            out += " (" + "; ".join(warnings) + ")"
        return out


def parse_case(path):
    """A list of steps: ('client', n), ('crash', n), ['sql', text, expected, label, known, line]."""
    steps, label, known, pool = [], None, None, 0
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
        if line.startswith(".pool "):
            if steps or pool:
                raise HarnessError("%s:%d: .pool comes first, once" % (path, no))
            pool = int(line.split(None, 1)[1])
            continue
        if line.startswith(".client ") or line.startswith(".crash-client "):
            word, arg = line.split(None, 1)
            steps.append(("client" if word == ".client" else "crash", int(arg)))
            continue
        if line.startswith(".advance "):
            steps.append(("advance", int(line.split(None, 1)[1])))
            continue
        if line.startswith(".wait "):
            steps.append(["wait", int(line.split(None, 1)[1]), [], label or os.path.basename(path), known, no])
            known = None
            continue
        if line.startswith(">& "):
            steps.append(["send", line[3:], [], label or os.path.basename(path), known, no])
            known = None
            continue
        if line.startswith("> "):
            steps.append(["sql", line[2:], [], label or os.path.basename(path), known, no])
            known = None
            continue
        if steps and steps[-1][0] in ("sql", "send", "wait"):
            steps[-1][2].append(line)
            continue
        raise HarnessError("%s:%d: not a statement, a meta-line or an expected line" % (path, no))
    return steps, pool


def quote_word(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fake_side(locklab, steps, pool):
    feed = []
    for st in steps:
        if st[0] == "client":
            feed.append(".client %d" % st[1])
        elif st[0] == "crash":
            feed.append(".crash-client %d" % st[1])
        elif st[0] == "advance":
            feed.append(".advance %d" % st[1])
        elif st[0] == "wait":
            feed.append(".wait %d" % st[1])
        else:
            feed.append(quote_word(st[1]))
    opts = ["--option", "pgbouncer_pool=%d" % pool] if pool else []
    r = subprocess.run([locklab, "kind", "postgresql"] + opts, input=("\n".join(feed) + "\n").encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if r.returncode != 0:
        raise HarnessError("locklab kind postgresql exited %d: %s" % (r.returncode, r.stderr.decode(errors="replace")))
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
    bouncers = []
    try:
        psycopg2 = import_psycopg2()
        server = Server(psycopg2)
        server.start()
        plain = RealSide(server)
        for path in cases:
            steps, pool = parse_case(path)
            if pool:
                bouncer = Bouncer(server, pool)
                bouncers.append(bouncer)
                bouncer.start()
                real = RealSide(server, bouncer)
            else:
                real = plain
            real.reset()
            fake = fake_side(a.locklab, steps, pool)
            client, k = 0, 0
            for st in steps:
                if st[0] == "client":
                    client = st[1]
                    continue
                if st[0] == "crash":
                    real.crash(st[1])
                    continue
                if st[0] == "advance":
                    continue
                what, sql, expected, label, known, no = st
                if what == "wait":
                    got_real = real.wait(sql)
                    sql = ".wait %d" % sql
                elif what == "send":
                    got_real = real.send(client, sql)
                else:
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
                            print("  postgresql: %s\n  locklab:    %s" % (got_real, got_fake))
                    continue
                if same:
                    passed += 1
                else:
                    failed += 1
                    print("MISMATCH %s (line %d)\n  > %s\n  postgresql: %s\n  locklab:    %s%s"
                          % (label, no, sql, got_real, got_fake,
                             "\n  expected:   %s" % " / ".join(expected) if expected else ""))
    except HarnessError as e:
        print("pgdiff: cannot run: %s" % e, file=sys.stderr)
        print("%d passed, %d failed" % (passed, failed + 1))
        return 2
    finally:
        for b in bouncers:
            b.stop()
        if server:
            server.stop()
    print("%d passed, %d failed%s" % (passed, failed, ", %d known differences skipped" % skipped if skipped else ""))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
