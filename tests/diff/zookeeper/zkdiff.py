#!/usr/bin/python3
"""zkdiff.py — the differential test of the fake ZooKeeper (sim/zk/) against a real one.

For each case file, a fresh ZooKeeper 3.8 server (Debian's `zookeeper` package, run as
ZooKeeperServerMain on a free loopback port with its data in a temporary directory, stopped
at the end whatever happens) and a fresh `locklab kind zookeeper` process receive the same
requests, one at a time, and their replies must print identically once normalised.

The real side speaks ZooKeeper's wire protocol over one socket per simulated client, with
the request and reply classes of Debian's python3-kazoo (kazoo.protocol.serialization) and
none of KazooClient's own behaviour (no background pings, no reconnection, no retries), so
each request in a case is exactly one request on the wire.

Case files: one line each, as `locklab kind zookeeper` reads them (words split as a shell
splits them: "" is an empty argument):
    # comment              the latest one names the case in mismatch reports
    connect TIMEOUT [@N]   a new session, or client N's session again
    create PATH [DATA [MODE]], delete PATH [VERSION], exists|getData|getChildren PATH [watch],
    setData PATH DATA [VERSION], ping, close, setWatches ZXID (data|exist|child PATH)...
    .client N              the next lines come from client N
    .crash-client N        client N's connection drops (no closeSession)
    .advance MS            the fake's clock moves MS; the real side sleeps MS

Normalised: session ids become s1, s2, ... in the order they appear; zxids become +k, k
from the first nonzero zxid a reply showed in that case (0 stays 0); ctime and mtime are
not printed. Watch events ("  ~ to client N: watcher NodeDeleted /a") are collected for
every request from all clients — on the real side, by a ping on every other open
connection after the reply (ZooKeeper sends a watch event down a connection before any
later reply on it) — and compared as a sorted set with the request's reply. A ping renews
a session, so a case lets only crashed clients' sessions expire.

Server settings: tickTime 200 ms, maxSessionTimeout 20000 ms (the fake gets the same).
Usage: /usr/bin/python3 tests/diff/zookeeper/zkdiff.py [--locklab ./locklab] [CASE...]
Prints `N passed, N failed` last; exit 0 if every request matched, 1 on a mismatch, 2 when
the test cannot run (no java or zookeeper.jar, no kazoo, the server does not start).
"""

import argparse
import atexit
import glob
import os
import re
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
ZK_JAR = "/usr/share/java/zookeeper.jar"
TICK, MAX_TIMEOUT = 200, 20000
START_BOUND = 120.0      # seconds a server may take to answer its first handshake
READ_BOUND = 60.0        # seconds a reply may take

try:
    from kazoo.protocol import serialization as ser
    from kazoo.security import OPEN_ACL_UNSAFE
except ImportError:
    ser = None

ERRORS = {-1: "SystemError", -4: "ConnectionLoss", -6: "Unimplemented", -8: "BadArguments",
          -101: "NoNode", -102: "NoAuth", -103: "BadVersion", -108: "NoChildrenForEphemerals",
          -110: "NodeExists", -111: "NotEmpty", -112: "SessionExpired", -114: "InvalidACL"}
EVENTS = {1: "NodeCreated", 2: "NodeDeleted", 3: "NodeDataChanged", 4: "NodeChildrenChanged"}
MODES = {"persistent": 0, "ephemeral": 1, "persistent_sequential": 2, "ephemeral_sequential": 3}


class HarnessError(Exception):
    pass


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A real ZooKeeper on a free loopback port, its data in a temporary directory."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="locklab-zk-")
        self.port = free_port()
        cfg = os.path.join(self.dir, "zoo.cfg")
        with open(cfg, "w") as f:
            f.write("tickTime=%d\ndataDir=%s\nclientPort=%d\nclientPortAddress=127.0.0.1\n"
                    "maxSessionTimeout=%d\nadmin.enableServer=false\n"
                    % (TICK, os.path.join(self.dir, "data"), self.port, MAX_TIMEOUT))
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        argv = ["java", "-Xmx256m", "-cp", ZK_JAR, "org.apache.zookeeper.server.ZooKeeperServerMain", cfg]
        try:
            self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT)
        except OSError as e:
            raise HarnessError("cannot start java: %s" % e.strerror)
        atexit.register(self.stop)
        deadline = time.monotonic() + START_BOUND
        while True:
            if self.proc.poll() is not None:
                raise HarnessError("zookeeper exited at start (code %s)" % self.proc.returncode)
            try:
                c = Conn(self.port, 4000, 0, b"\0" * 16)
                c.request(ser.CloseInstance)
                c.sock.close()
                return
            except (OSError, EOFError, struct.error):
                if time.monotonic() > deadline:
                    raise HarnessError("zookeeper did not answer within %d s" % START_BOUND)
                time.sleep(0.2)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class Conn:
    """One client connection: the handshake, then requests with their xids; watch events
    that arrive meanwhile are kept in self.events."""

    def __init__(self, port, timeout, session, passwd):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=READ_BOUND)
        self.xid = 0
        self.events = []
        self.send(ser.Connect(0, 0, timeout, session, passwd, False).serialize())
        body = self.recv()
        resp, _ = ser.Connect.deserialize(body, 0)
        self.timeout, self.session, self.passwd = resp.time_out, resp.session_id, resp.passwd
        self.alive = self.timeout > 0

    def send(self, payload):
        self.sock.sendall(struct.pack("!i", len(payload)) + bytes(payload))

    def recv_exact(self, n):
        b = b""
        while len(b) < n:
            chunk = self.sock.recv(n - len(b))
            if not chunk:
                raise EOFError("connection closed")
            b += chunk
        return b

    def recv(self):
        (n,) = struct.unpack("!i", self.recv_exact(4))
        return self.recv_exact(n)

    def request(self, req, xid=None):
        """(err, body, offset) of the reply to req."""
        if xid is None:
            self.xid += 1
            xid = self.xid
        self.send(struct.pack("!ii", xid, req.type) + bytes(req.serialize()))
        while True:
            body = self.recv()
            rxid, _zxid, err = struct.unpack_from("!iqi", body, 0)
            off = struct.calcsize("!iqi")
            if rxid == -1:
                etype, _state = struct.unpack_from("!ii", body, off)
                path, _ = ser.read_string(body, off + 8)
                self.events.append("%s %s" % (EVENTS.get(etype, etype), path))
                continue
            if rxid == xid:
                return err, body, off


class SetWatches:
    """The request a reconnected Java client sends (OpCode.setWatches, xid -8): its last
    zxid, then its data, exist and child watches; kazoo has no class for it."""
    type = 101

    def __init__(self, rel, data, exist, child):
        self.rel, self.lists = rel, (data, exist, child)

    def serialize(self):
        b = bytearray(struct.pack("!q", self.rel))
        for paths in self.lists:
            b.extend(struct.pack("!i", len(paths)))
            for p in paths:
                b.extend(ser.write_string(p))
        return b


def fmt_stat(st):
    return ("czxid=0x%x mzxid=0x%x pzxid=0x%x version=%d cversion=%d aversion=%d ephemeralOwner=0x%x "
            "dataLength=%d numChildren=%d" % (st.czxid, st.mzxid, st.pzxid, st.version, st.cversion,
                                              st.aversion, st.ephemeralOwner & 0xffffffffffffffff,
                                              st.dataLength, st.numChildren))


def fmt_data(data):
    out = []
    for c in data or b"":
        ch = chr(c)
        if ch in '"\\':
            out.append("\\" + ch)
        elif c < 0x20 or c >= 0x7f:
            out.append("\\x%02x" % c)
        else:
            out.append(ch)
    return '"%s"' % "".join(out)


class Real:
    """The real side: clients' connections to the server."""

    def __init__(self, server):
        self.server = server
        self.conns = {}       # client -> Conn
        self.sessions = {}    # client -> (session id, passwd) of its last connect
        self.expired = set()  # clients told their session expired

    def run(self, client, words):
        op, args = words[0], words[1:]
        if op == "connect":
            return self.connect(client, args)
        if client in self.expired:
            return "(error) SessionExpired"  # the Java client's handle is dead for good
        c = self.conns.get(client)
        if c is None:
            return "(error) ConnectionLoss"
        try:
            return self.op(c, op, args)
        except (EOFError, OSError):
            c.alive = False
            # the server closed it (an expired session): the client reconnects and hears why
            sid, pw = self.sessions[client]
            try:
                again = Conn(self.server.port, 4000, sid, pw)
            except (EOFError, OSError):
                return "(error) ConnectionLoss"
            if not again.alive:
                self.expired.add(client)
                return "(error) SessionExpired"
            self.conns[client] = again
            return self.op(again, op, args)

    def connect(self, client, args):
        old = self.conns.pop(client, None)
        if old:
            old.sock.close()
        sid, pw = 0, b"\0" * 16
        if len(args) > 1:
            sid, pw = self.sessions[int(args[1].lstrip("@"))]
        self.expired.discard(client)
        c = Conn(self.server.port, int(args[0]), sid, pw)
        if not c.alive:
            c.sock.close()
            self.expired.add(client)
            return "(error) SessionExpired"
        self.conns[client] = c
        self.sessions[client] = (c.session, c.passwd)
        return "session 0x%x timeout %d" % (c.session, c.timeout)

    def op(self, c, op, args):
        watch = len(args) > 1 and args[1] == "watch"
        if op == "ping":
            err, body, off = c.request(ser.PingInstance, xid=-2)
            return "OK"
        if op == "setWatches":
            lists = {"data": [], "exist": [], "child": []}
            for kind, path in zip(args[1::2], args[2::2]):
                lists[kind].append(path)
            err, body, off = c.request(SetWatches(int(args[0]), lists["data"], lists["exist"], lists["child"]), xid=-8)
            return "(error) %s" % ERRORS.get(err, err) if err else "OK"
        if op == "close":
            c.request(ser.CloseInstance)
            c.alive = False
            return "OK"
        if op == "create":
            data = args[1].encode() if len(args) > 1 else b""
            mode = MODES[args[2].lower()] if len(args) > 2 else 0
            req = ser.Create(args[0], data, OPEN_ACL_UNSAFE, mode)
        elif op == "delete":
            req = ser.Delete(args[0], int(args[1]) if len(args) > 1 else -1)
        elif op == "exists":
            req = ser.Exists(args[0], watch)
        elif op == "getData":
            req = ser.GetData(args[0], watch)
        elif op == "setData":
            req = ser.SetData(args[0], args[1].encode(), int(args[2]) if len(args) > 2 else -1)
        elif op == "getChildren":
            req = ser.GetChildren(args[0], watch)
        else:
            raise HarnessError("the real side cannot send '%s'" % op)
        err, body, off = c.request(req)
        if err == -101 and op == "exists":
            return "(null)"
        if err:
            return "(error) %s" % ERRORS.get(err, err)
        if op == "create":
            return ser.read_string(body, off)[0]
        if op == "delete":
            return "OK"
        if op in ("exists", "setData"):
            return fmt_stat(ser.ZnodeStat._make(ser.stat_struct.unpack_from(body, off)))
        if op == "getData":
            data, stat = ser.GetData.deserialize(body, off)
            return "%s %s" % (fmt_data(data), fmt_stat(stat))
        return "[%s]" % ", ".join(sorted(ser.GetChildren.deserialize(body, off)))

    def events(self, client):
        """The watch events every client has received so far, after a ping on each other
        open connection (a ping's reply follows any event sent before it)."""
        out = []
        for n, c in sorted(self.conns.items()):
            if n != client and c.alive:
                try:
                    c.request(ser.PingInstance, xid=-2)
                except (EOFError, OSError):
                    c.alive = False
            out += ["to client %d: watcher %s" % (n, e) for e in c.events]
            c.events = []
        return out

    def crash(self, client):
        c = self.conns.pop(client, None)
        if c:
            c.sock.close()

    def close(self):
        for c in self.conns.values():
            c.sock.close()


class Fake:
    """The fake side: `locklab kind zookeeper`, one line in, its effects and reply out."""

    def __init__(self, locklab):
        # stdbuf: `locklab kind` writes through stdio, block-buffered into a pipe
        argv = ["stdbuf", "-oL", locklab, "kind", "zookeeper", "--option", "tick=%d" % TICK,
                "--option", "max_session_timeout=%d" % MAX_TIMEOUT]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.sessions = {}
        self.pending = []

    def line(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def run(self, client, words, text):
        if words[0] == "connect" and len(words) > 2:
            text = " ".join(words[:2] + ["0x%x" % self.sessions[int(words[2].lstrip("@"))]])
        self.line(text)
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise HarnessError("locklab kind zookeeper ended early")
            out = out.rstrip("\n")
            if out.startswith("  ~ "):
                if out.startswith("  ~ to client"):
                    self.pending.append(out[4:])
                continue
            m = re.match(r"session 0x([0-9a-f]+) timeout", out)
            if m:
                self.sessions[client] = int(m.group(1), 16)
            return out

    def meta(self, text):
        """.advance and .crash-client print nothing but effects (kept for the next request)."""
        self.line(text)

    def events(self):
        # effects printed after a meta-line arrive before the next reply: run() kept them
        ev, self.pending = self.pending, []
        return ev

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


class Normaliser:
    def __init__(self):
        self.sessions = {}
        self.base = None

    def __call__(self, text):
        def sess(m):
            v = int(m.group(1), 16)
            if v == 0:
                return m.group(0)
            self.sessions.setdefault(v, "s%d" % (len(self.sessions) + 1))
            return m.group(0)[: m.start(1) - m.start(0) - 2] + self.sessions[v]

        text = re.sub(r"(?:session |ephemeralOwner=)0x([0-9a-f]+)", sess, text)

        def zx(m):
            v = int(m.group(2), 16)
            if v == 0:
                return "%s=0" % m.group(1)
            if self.base is None:
                self.base = v
            return "%s=+%d" % (m.group(1), v - self.base)

        return re.sub(r"\b(czxid|mzxid|pzxid)=0x([0-9a-f]+)", zx, text)


def run_case_file(path, locklab, counts):
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f]
    server = Server()
    real, fake = Real(server), Fake(locklab)
    nreal, nfake = Normaliser(), Normaliser()
    client, case = 0, os.path.basename(path)
    try:
        for lineno, text in enumerate(lines, 1):
            try:
                words = shlex.split(text, comments=False) if not text.startswith("#") else ["#"]
            except ValueError:
                raise HarnessError("%s:%d: unbalanced quotes" % (path, lineno))
            if not words:
                continue
            if text.startswith("#"):
                case = "%s: %s" % (os.path.basename(path), text[1:].strip())
                continue
            if words[0] == ".client":
                client = int(words[1])
                fake.meta(text)
                continue
            if words[0] == ".crash-client":
                real.crash(int(words[1]))
                fake.meta(text)
                continue
            if words[0] == ".advance":
                time.sleep(int(words[1]) / 1000.0)
                fake.meta(text)
                continue
            got_real = nreal(real.run(client, words))
            ev_real = sorted(nreal(e) for e in real.events(client))
            got_fake = nfake(fake.run(client, words, text))
            ev_fake = sorted(nfake(e) for e in fake.events())
            if got_real == got_fake and ev_real == ev_fake:
                counts[0] += 1
            else:
                counts[1] += 1
                print("MISMATCH %s:%d (%s): client %d: %s" % (os.path.basename(path), lineno, case, client, text))
                print("  real: %s%s" % (got_real, "".join("\n    ~ " + e for e in ev_real)))
                print("  fake: %s%s" % (got_fake, "".join("\n    ~ " + e for e in ev_fake)))
    finally:
        real.close()
        fake.close()
        server.stop()


def main(argv):
    ap = argparse.ArgumentParser(description="the fake ZooKeeper against a real one")
    ap.add_argument("--locklab", default=os.path.join(ROOT, "locklab"))
    ap.add_argument("cases", nargs="*", default=sorted(glob.glob(os.path.join(HERE, "cases", "*.txt"))))
    args = ap.parse_args(argv)
    if ser is None:
        print("zkdiff: python3-kazoo is missing (apt-get install python3-kazoo)", file=sys.stderr)
        return 2
    if not os.path.exists(ZK_JAR) or not shutil.which("java"):
        print("zkdiff: ZooKeeper is missing (apt-get install zookeeper)", file=sys.stderr)
        return 2
    counts = [0, 0]
    try:
        for path in args.cases:
            before = list(counts)
            run_case_file(path, args.locklab, counts)
            print("%s: %d passed, %d failed" % (os.path.basename(path), counts[0] - before[0], counts[1] - before[1]))
    except HarnessError as e:
        print("zkdiff: %s" % e, file=sys.stderr)
        print("%d passed, %d failed" % (counts[0], counts[1] + 1))
        return 2
    print("%d passed, %d failed" % (counts[0], counts[1]))
    return 0 if counts[1] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
