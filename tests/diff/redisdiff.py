#!/usr/bin/env python3
"""redisdiff.py — the differential test: locklab's fake Redis against a real redis-server.

Every case file runs through both `redis-cli -p PORT --no-raw` (a real server started here,
on a free loopback port, and always stopped at the end) and `locklab redis`, one command at
a time, and the two printed outputs must be identical. Where a case file also states the
expected output, that is a third witness and must agree too (the converted Redis corpus
carries its recorded replies that way).

Case files use the transcript syntax of `locklab redis --check` (see cli/repl.h):
    # a comment (the latest one names the case in mismatch reports)
    > a command in redis-cli syntax
    optional expected output lines, exactly as redis-cli --no-raw prints them
Each case file starts from FLUSHALL + SCRIPT FLUSH on the real server and a fresh
`locklab redis` process (whose virtual clock starts at 1700000000000 and stands still).

Meta-commands on the real side:
    .advance MS       sleeps MS (at most 3000 unless --max-advance says otherwise: keep
                      cases fast) — time really passes
    .eval SCRIPT ...  EVAL with the script's exact body (a file, or a library id such as
                      redisson/lock@3.4.4, whose body comes from `locklab scripts body ID`
                      or from lua/redis/index.lua)
    .load SCRIPT      SCRIPT LOAD of the same body
    .dump             the canonical keyspace dump of store.h, rebuilt from KEYS, TYPE, GET,
                      HGETALL, LRANGE, ZRANGE WITHSCORES, SMEMBERS and PTTL
    .time, .settime   refused (exit 2): the real clock cannot be read or set to match the
                      fake's, so transcripts that jump the clock are for --check only
Time: the fake's clock stands still while the real one moves, so integer replies of PTTL
(±50) and TTL (±1) and the pttl= fields of .dump (±50) are compared with a tolerance, and
nothing else is — except the one command after a comment line reading exactly
`# diff: ttl-tolerance` (a script returning a PTTL), whose integers get ±50.

With --serve the fake side is `locklab serve --clock wall` (a fresh one per case file)
reached by redis-cli over TCP like the real server, instead of `locklab redis`: the same
cases, through the network side (RESP parsing, replies, connections); `.advance MS` is
LOCKLAB ADVANCE MS there, `.dump` is rebuilt from plain commands on both sides.

Usage: python3 tests/diff/redisdiff.py [--locklab ./locklab] [--serve] [--cases DIR|FILE ...]
       python3 tests/diff/redisdiff.py --convert-corpus CORPUS.json > cases/corpus.txt
Prints `N passed, N failed` last; exit 0 only if every command matched, 1 on a mismatch,
2 when the test cannot run (no redis-server, bad arguments, unreadable case file).
"""

import argparse
import atexit
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOLERANCE_MARK = "diff: ttl-tolerance"
# "# diff: known-difference <why>" before a command: a documented way in which locklab
# differs from Redis on purpose or by necessity (README, "Lua 5.1 vs 5.4"). Both sides still
# run it; a difference is reported as known and counted as skipped, never as passed.
KNOWN_MARK = "diff: known-difference"
PTTL_SLACK, TTL_SLACK = 50, 1
MAX_ADVANCE_MS = 3000
READ_TIMEOUT_S = 20.0


class HarnessError(Exception):
    """The test cannot run (as opposed to: it ran and found a mismatch)."""


# ---- redis-cli's tokenizer (sdssplitargs) and quoting ----------------------------------

def split_args(line):
    """Splits a line as redis-cli does; returns a list of bytes, or None for bad quotes."""
    p, n, out = 0, len(line), []
    blank = b" \t\n\r\x0b\x0c"
    while True:
        while p < n and line[p] in blank:
            p += 1
        if p >= n:
            return out
        word, inq, insq = bytearray(), False, False
        while True:
            c = line[p] if p < n else 0
            nxt = line[p + 1] if p + 1 < n else 0
            if inq:
                if c == 0x5C and nxt == ord("x") and p + 3 < n and all(
                        chr(h) in "0123456789abcdefABCDEF" for h in line[p + 2:p + 4]):
                    word.append(int(line[p + 2:p + 4], 16))
                    p += 3
                elif c == 0x5C and nxt:
                    p += 1
                    word.append({ord("n"): 10, ord("r"): 13, ord("t"): 9, ord("b"): 8,
                                 ord("a"): 7}.get(line[p], line[p]))
                elif c == ord('"'):
                    if nxt and nxt not in blank:
                        return None
                    p += 1
                    break
                elif not c:
                    return None
                else:
                    word.append(c)
            elif insq:
                if c == 0x5C and nxt == ord("'"):
                    p += 1
                    word.append(ord("'"))
                elif c == ord("'"):
                    if nxt and nxt not in blank:
                        return None
                    p += 1
                    break
                elif not c:
                    return None
                else:
                    word.append(c)
            else:
                if c in (0x20, 0x0A, 0x0D, 0x09, 0):
                    break
                if c == ord('"'):
                    inq = True
                elif c == ord("'"):
                    insq = True
                else:
                    word.append(c)
            p += 1
        out.append(bytes(word))


def repr_bytes(b):
    """sdscatrepr: how redis-cli prints a bulk string."""
    out = ['"']
    for c in b:
        ch = chr(c)
        if ch in '\\"':
            out.append("\\" + ch)
        elif c in (10, 13, 9, 7, 8):
            out.append({10: "\\n", 13: "\\r", 9: "\\t", 7: "\\a", 8: "\\b"}[c])
        elif 0x20 <= c < 0x7F:
            out.append(ch)
        else:
            out.append("\\x%02x" % c)
    out.append('"')
    return "".join(out)


def quote_arg(b):
    """A redis-cli word that reads back as exactly b: bare when that is safe."""
    if re.fullmatch(rb"[!-~]+", b) and not re.search(rb"[\"'\\]", b):
        return b.decode("ascii")
    return repr_bytes(b)


# ---- RESP: a tiny client, and redis-cli's rendering of replies -------------------------

class Resp:
    """A blocking RESP2 connection, for harness housekeeping (FLUSHALL, .dump)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=READ_TIMEOUT_S)
        self.rbuf = b""

    def close(self):
        self.sock.close()

    def call(self, *args):
        parts = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(a), a))
        self.sock.sendall(b"".join(parts))
        return self._read()

    def _line(self):
        while b"\r\n" not in self.rbuf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise HarnessError("redis-server closed the connection")
            self.rbuf += chunk
        line, self.rbuf = self.rbuf.split(b"\r\n", 1)
        return line

    def _read(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return ("status", rest)
        if kind == b"-":
            return ("error", rest)
        if kind == b":":
            return ("int", int(rest))
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return ("nil", None)
            while len(self.rbuf) < n + 2:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise HarnessError("redis-server closed the connection")
                self.rbuf += chunk
            data, self.rbuf = self.rbuf[:n], self.rbuf[n + 2:]
            return ("bulk", data)
        if kind == b"*":
            n = int(rest)
            return ("nil", None) if n < 0 else ("array", [self._read() for _ in range(n)])
        raise HarnessError("bad RESP from redis-server: %r" % line)


def parse_resp(raw):
    """Parses all replies in raw RESP bytes; returns a list of reply tuples."""
    pos, out = 0, []

    def line():
        nonlocal pos
        end = raw.index(b"\r\n", pos)
        s, pos = raw[pos:end], end + 2
        return s

    def one():
        nonlocal pos
        s = line()
        kind, rest = s[:1], s[1:]
        if kind == b"+":
            return ("status", rest)
        if kind == b"-":
            return ("error", rest)
        if kind == b":":
            return ("int", int(rest))
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return ("nil", None)
            data, pos = raw[pos:pos + n], pos + n + 2
            return ("bulk", data)
        if kind == b"*":
            n = int(rest)
            return ("nil", None) if n < 0 else ("array", [one() for _ in range(n)])
        raise ValueError("bad RESP: %r" % s)

    while pos < len(raw):
        out.append(one())
    return out


def render_cli(r, prefix=""):
    """What redis-cli --no-raw prints for a reply (cliFormatReplyTTY), final newline included."""
    kind, v = r
    if kind == "nil":
        return "(nil)\n"
    if kind == "status":
        return v.decode("latin-1") + "\n"
    if kind == "error":
        return "(error) " + v.decode("latin-1") + "\n"
    if kind == "int":
        return "(integer) %d\n" % v
    if kind == "bulk":
        return repr_bytes(v) + "\n"
    if not v:
        return "(empty array)\n"
    width = len(str(len(v)))
    inner = prefix + " " * (width + 2)
    out = []
    for i, e in enumerate(v):
        out.append("%s%*d) " % (prefix if i else "", width, i + 1))
        out.append(render_cli(e, inner))
    return "".join(out)


# ---- case files ----------------------------------------------------------------------------

class Step:
    def __init__(self, line, text, case, tolerant, known=None):
        self.line, self.text, self.case, self.tolerant = line, text, case, tolerant
        self.known = known    # why a difference is expected, or None
        self.expected = None  # list of lines, or None when the file states nothing


def parse_case_file(path):
    """Transcript syntax; expected lines are optional. Returns a list of Steps."""
    try:
        with open(path, "rb") as f:
            data = f.read().decode("latin-1")
    except OSError as e:
        raise HarnessError("cannot open '%s': %s" % (path, e.strerror))
    steps, case, tolerant, block, known = [], os.path.basename(path), False, False, None
    for no, raw in enumerate(data.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if line.startswith("#"):
            text = line[1:].strip()
            if text == TOLERANCE_MARK:
                tolerant = True
            elif text.startswith(KNOWN_MARK):
                known = text[len(KNOWN_MARK):].strip(" :") or "documented difference"
            else:
                case = text or case
            block = False
        elif not line.strip():
            block = False
        elif line.startswith(">"):
            text = line[2:] if line.startswith("> ") else line[1:]
            steps.append(Step(no, text, case, tolerant, known))
            tolerant, block, known = False, True, None
        elif block:
            if steps[-1].expected is None:
                steps[-1].expected = []
            steps[-1].expected.append(line)
        else:
            raise HarnessError("%s:%d: expected output with no '> command' line above it" % (path, no))
    return steps


def case_files(specs):
    files = []
    for spec in specs:
        if os.path.isdir(spec):
            files += sorted(os.path.join(spec, f) for f in os.listdir(spec) if f.endswith(".txt"))
        elif os.path.isfile(spec):
            files.append(spec)
        else:
            raise HarnessError("no such case file or directory: '%s'" % spec)
    if not files:
        raise HarnessError("no case files in %s" % ", ".join(specs))
    return files


# ---- comparing -----------------------------------------------------------------------------

INT_LINE = re.compile(r"^((?:\s*\d+\) )*)\(integer\) (-?\d+)$")
PTTL_FIELD = re.compile(r"pttl=(-?\d+)")


def lines_close(a, b, slack, dump):
    """True when a and b are the same lines except integers within slack (never across
    the sign: -1 and -2 are exact answers)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        if dump:
            xs, ys = PTTL_FIELD.split(x), PTTL_FIELD.split(y)
            if len(xs) != len(ys) or xs[0::2] != ys[0::2]:
                return False
            nums = list(zip(xs[1::2], ys[1::2]))
        else:
            mx, my = INT_LINE.match(x), INT_LINE.match(y)
            if not mx or not my or mx.group(1) != my.group(1):
                return False
            nums = [(mx.group(2), my.group(2))]
        for u, v in nums:
            u, v = int(u), int(v)
            if u != v and (u < 0 or v < 0 or abs(u - v) > slack):
                return False
    return True


def agree(step, words, a, b):
    if a == b:
        return True
    name = words[0].lower() if words else b""
    if name == b".dump":
        return lines_close(a, b, PTTL_SLACK, True)
    if name == b"pttl" or step.tolerant:
        return lines_close(a, b, PTTL_SLACK, False)
    if name == b"ttl":
        return lines_close(a, b, TTL_SLACK, False)
    return False


def canonical_dump(c):
    """store.h's canonical dump of a real server's keyspace, from plain commands over the
    RESP connection c (also used by tools/transcript-from-redis.py)."""
    lines = []
    for key in sorted(k for _, k in c.call("KEYS", "*")[1]):
        kind = c.call("TYPE", key)[1].decode()
        if kind == "string":
            value = repr_bytes(c.call("GET", key)[1])
        elif kind == "hash":
            flat = [v for _, v in c.call("HGETALL", key)[1]]
            pairs = sorted(zip(flat[0::2], flat[1::2]))
            value = "{" + ", ".join("%s: %s" % (repr_bytes(f), repr_bytes(v)) for f, v in pairs) + "}"
        elif kind == "list":
            value = "[" + ", ".join(repr_bytes(v) for _, v in c.call("LRANGE", key, 0, -1)[1]) + "]"
        elif kind == "zset":
            flat = [v for _, v in c.call("ZRANGE", key, 0, -1, "WITHSCORES")[1]]
            value = "{" + ", ".join("%s: %s" % (repr_bytes(m), s.decode())
                                    for m, s in zip(flat[0::2], flat[1::2])) + "}"
        elif kind == "set":
            members = sorted(v for _, v in c.call("SMEMBERS", key)[1])
            value = "{" + ", ".join(repr_bytes(m) for m in members) + "}"
        else:
            value = "<%s>" % kind
        pttl = c.call("PTTL", key)[1]
        if pttl == -2:
            continue  # expired between KEYS and now
        lines.append("%s %s pttl=%d %s" % (repr_bytes(key), kind, pttl, value))
    return lines or ["(empty keyspace)"]


# ---- the two sides -------------------------------------------------------------------------

class LineProcess:
    """A REPL-like child (redis-cli or locklab redis) driven one command at a time: each
    command is followed by `echo MARKER`, and the output up to the marker's reply is the
    command's output. Inside a transaction (after a MULTI answered OK, until EXEC or
    DISCARD) the marker would be queued too, so there, and for MULTI itself, a command is
    sent alone and its one line of output (OK, QUEUED or an error) is read; EXEC and DISCARD
    take the marker again. So no "N command" repeats inside a transaction, nor a DISCARD
    that fails there (with arguments).
    Each child tracks its own transaction from its own output."""

    def __init__(self, argv, label):
        self.label = label
        self.seq = 0
        self.in_tx = False
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT)
        except OSError as e:
            raise HarnessError("cannot start %s (%s): %s" % (label, argv[0], e.strerror))
        self.pending = b""

    def run(self, line):
        """Returns the output lines of one input line, or None if the child died or hung."""
        words = line.split(None, 1)
        name = words[0].lower() if words else ""
        if name == "multi" or (self.in_tx and name not in ("exec", "discard")):
            out = self.run_one_line(line)
        else:
            out = self.run_marked(line)
        if name == "multi" and out == ["OK"]:
            self.in_tx = True
        elif name in ("exec", "discard"):
            self.in_tx = False
        return out

    def send(self, data):
        """Writes data to the child; False if it is gone."""
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def read_until(self, done):
        """Reads output into self.pending until done() returns a result (returned), or
        None if the child dies or stays silent for READ_TIMEOUT_S."""
        deadline = time.monotonic() + READ_TIMEOUT_S
        fd = self.proc.stdout.fileno()
        while True:
            got = done()
            if got is not None:
                return got
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.pending += chunk

    def run_one_line(self, line):
        if not self.send(line.encode("latin-1") + b"\n"):
            return None

        def first_line():
            if b"\n" not in self.pending:
                return None
            first, self.pending = self.pending.split(b"\n", 1)
            return [first.decode("latin-1")]
        return self.read_until(first_line)

    def run_marked(self, line):
        self.seq += 1
        marker = "@@redisdiff-%d-%d@@" % (os.getpid(), self.seq)
        if not self.send(line.encode("latin-1") + b"\necho " + marker.encode() + b"\n"):
            return None
        want = ('"%s"' % marker).encode()

        def up_to_marker():
            lines = self.pending.split(b"\n")
            if want not in lines[:-1]:
                return None
            i = lines.index(want)
            self.pending = b"\n".join(lines[i + 1:])
            return [l.decode("latin-1") for l in lines[:i]]
        return self.read_until(up_to_marker)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def stop_child(proc):
    """Ends a server child: SIGTERM, then SIGKILL if it is still there after 5 s."""
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class RealServer:
    """A redis-server child on a free loopback port; stop() is safe to call twice."""

    def __init__(self, server_bin, port):
        self.proc, self.dir = None, tempfile.mkdtemp(prefix="redisdiff-")
        self.port = port or free_port()
        self.log = open(os.path.join(self.dir, "redis.log"), "wb")
        # DEBUG enabled on both sides (introspection.txt), as Redis's own CI runs its tests
        argv = [server_bin, "--port", str(self.port), "--bind", "127.0.0.1", "--enable-debug-command", "yes", "--save", "",
                "--appendonly", "no", "--daemonize", "no", "--dir", self.dir]
        try:
            self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT)
        except OSError as e:
            raise HarnessError("cannot start %s: %s" % (server_bin, e.strerror))
        atexit.register(self.stop)
        deadline = time.monotonic() + 10
        while True:
            if self.proc.poll() is not None:
                raise HarnessError("redis-server exited at start (code %s): %s"
                                   % (self.proc.returncode, self.log_tail()))
            try:
                conn = Resp(self.port)
                if conn.call("PING") == ("status", b"PONG"):
                    self.conn = conn
                    break
                conn.close()
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise HarnessError("redis-server on port %d did not answer PING: %s"
                                   % (self.port, self.log_tail()))
            time.sleep(0.05)
        self.version = self.info_version()

    def info_version(self):
        kind, v = self.conn.call("INFO", "server")
        m = re.search(rb"redis_version:(\S+)", v or b"")
        return m.group(1).decode() if m else "?"

    def log_tail(self):
        self.log.flush()
        try:
            with open(os.path.join(self.dir, "redis.log"), "rb") as f:
                return f.read()[-400:].decode("latin-1").strip().replace("\n", " | ")
        except OSError:
            return "(no log)"

    def reset(self):
        for cmd in (("FLUSHALL",), ("SCRIPT", "FLUSH")):
            if self.conn.call(*cmd) != ("status", b"OK"):
                raise HarnessError("%s failed on the real server" % " ".join(cmd))

    def dump(self):
        """store.h's canonical dump, rebuilt from plain commands."""
        return canonical_dump(self.conn)

    def advance(self, ms):
        time.sleep(ms / 1000.0)  # time really passes

    def stop(self):
        stop_child(self.proc)
        if self.log and not self.log.closed:
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class ServeServer:
    """`locklab serve --clock wall` on a free loopback port, one node: the fake side of
    --serve, reached over TCP by redis-cli exactly as the real server is. Its clock runs as
    the real one does (so BLPOP's timeouts end, as on the real side); `.advance MS` is
    LOCKLAB ADVANCE MS, which jumps it; `.dump` is rebuilt from plain commands as on the
    real side. stop() is safe to call twice."""

    def __init__(self, locklab):
        self.proc, self.dir = None, tempfile.mkdtemp(prefix="redisdiff-serve-")
        for _ in range(20):
            self.port = free_port()
            self.out = open(os.path.join(self.dir, "serve.out"), "wb")
            argv = [locklab, "serve", "--port", str(self.port), "--clock", "wall", "--history-max", "0",
                    "--enable-debug-command", "yes"]
            try:
                self.proc = subprocess.Popen(argv, stdout=self.out, stderr=subprocess.STDOUT)
            except OSError as e:
                raise HarnessError("cannot start locklab serve: %s" % e.strerror)
            atexit.register(self.stop)
            deadline = time.monotonic() + 10
            while self.proc.poll() is None and time.monotonic() < deadline:
                with open(os.path.join(self.dir, "serve.out"), "rb") as f:
                    if b"; ready" in f.read():
                        self.conn = Resp(self.port)
                        return
                time.sleep(0.02)
            self.stop()
        raise HarnessError("locklab serve did not start (last port %d)" % self.port)

    def advance(self, ms):
        if self.conn.call("LOCKLAB", "ADVANCE", str(ms)) != ("status", b"OK"):
            raise HarnessError("LOCKLAB ADVANCE %d failed on locklab serve" % ms)

    def dump(self):
        return canonical_dump(self.conn)

    def stop(self):
        stop_child(self.proc)
        if self.out and not self.out.closed:
            self.out.close()


class ServeSide:
    """The fake side of --serve for one case file: a fresh `locklab serve` and a redis-cli
    on it; run(line) answers as LineProcess.run does."""

    def __init__(self, redis_cli, locklab, max_advance):
        self.server = ServeServer(locklab)
        self.cli = LineProcess([redis_cli, "-p", str(self.server.port), "--no-raw"], "redis-cli (serve)")
        self.locklab, self.max_advance = locklab, max_advance

    def run(self, text):
        words = split_args(text.encode("latin-1")) or []
        return real_output(self.server, self.cli, words, text, self.locklab, self.max_advance)

    def close(self):
        self.cli.close()
        self.server.stop()
        shutil.rmtree(self.server.dir, ignore_errors=True)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- script bodies -------------------------------------------------------------------------

def file_body(path):
    """scriptlib.h's rule: after a line reading exactly '-- locklab:body', one final newline
    dropped; a file without that line is sent whole."""
    with open(path, "rb") as f:
        data = f.read()
    m = re.search(rb"(?m)^-- locklab:body\r?\n", data)
    if not m:
        return data
    body = data[m.end():]
    return body[:-1] if body.endswith(b"\n") else body


def library_body(spec, locklab):
    """The body `locklab scripts body ID` prints; failing that, the file lua/redis/index.lua
    maps the id to (an id without @version means @HEAD)."""
    try:
        r = subprocess.run([locklab, "scripts", "body", spec], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30)
        if r.returncode == 0:
            return r.stdout
        why = r.stderr.decode("latin-1").strip()
    except OSError as e:
        why = e.strerror
    sid = spec if "@" in spec else spec + "@HEAD"
    try:
        with open(os.path.join(ROOT, "lua", "redis", "index.lua")) as f:
            index = f.read()
        m = re.search(r'id\s*=\s*"%s".*?path\s*=\s*"([^"]+)"' % re.escape(sid), index, re.S)
        if m:
            return file_body(os.path.join(ROOT, m.group(1)))
    except OSError:
        pass
    raise HarnessError("cannot get the body of script '%s' (locklab scripts body: %s)" % (spec, why))


def script_body(spec, locklab):
    path = spec.decode("latin-1")
    return file_body(path) if os.path.isfile(path) else library_body(path, locklab)


# ---- running a case file -------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0


# redis-cli's REPL prints how long a command took, "(1.26s)" on a line of its own, after any
# reply that took 500 ms or more (repl() in redis-cli.c, standard output mode). That is the
# machine's load, not the reply, and a differential test that compared it would fail on a busy
# machine. No reply renders as such a line (--no-raw quotes strings and labels the rest).
CLI_TIMING_LINE = re.compile(r"^\(\d+(\.\d+)?s\)$")


def drop_cli_timing(lines):
    """redis-cli's output lines without its "(N.NNs)" timing lines (None stays None)."""
    if lines is None:
        return None
    return [l for l in lines if not CLI_TIMING_LINE.match(l)]


def real_output(server, cli, words, text, locklab, max_advance):
    """Runs one case line on the real side; returns its output lines (None if redis-cli died).
    redis-cli's timing lines are dropped; one may also trail the `echo` marker's reply and
    so come first in the next command's lines, which drop_cli_timing removes the same way."""
    name = words[0].lower() if words else b""
    if not name.startswith(b"."):
        return drop_cli_timing(cli.run(text))
    if name == b".advance" and len(words) == 2 and words[1].isdigit():
        ms = int(words[1])
        if ms > max_advance:
            raise HarnessError(".advance %d: longer than %d ms (--max-advance); keep differential cases fast"
                               % (ms, max_advance))
        server.advance(ms)
        return []
    if name == b".dump" and len(words) == 1:
        return server.dump()
    if name in (b".eval", b".load") and len(words) >= 2:
        body = script_body(words[1], locklab)
        head = [b"eval", body] if name == b".eval" else [b"script", b"load", body]
        return drop_cli_timing(cli.run(" ".join(quote_arg(w) for w in head + words[2:])))
    raise HarnessError("'%s' has no real-server equivalent in a differential case" % text)


def check_steps(path, steps, max_advance):
    """Refuses, before any server starts, what the real side cannot replay."""
    for st in steps:
        words = split_args(st.text.encode("latin-1")) or []
        name = words[0].lower() if words else b""
        if not name.startswith(b"."):
            continue
        ok = (name == b".dump" and len(words) == 1) or (name in (b".eval", b".load") and len(words) >= 2)
        if name == b".advance" and len(words) == 2 and words[1].isdigit():
            ok = int(words[1]) <= max_advance
        if not ok:
            raise HarnessError("%s:%d: '%s' cannot be replayed on a real server (.settime and .time "
                               "never; .advance up to %d ms)" % (path, st.line, st.text, max_advance))


def show(lines):
    if lines is None:
        return "    (the process died or hung)\n"
    if not lines:
        return "    (no output)\n"
    return "".join("    %s\n" % l for l in lines)


def run_file(path, server, server_cli, locklab, max_advance, tally, out, show_known=False, serve=None):
    steps = parse_case_file(path)
    server.reset()
    server_cli.run("select 0")  # a case file that ended elsewhere leaves redis-cli there
    fake = ServeSide(serve, locklab, max_advance) if serve else LineProcess([locklab, "redis"], "locklab redis")
    try:
        for i, st in enumerate(steps):
            words = split_args(st.text.encode("latin-1")) or []
            real = real_output(server, server_cli, words, st.text, locklab, max_advance)
            mine = fake.run(st.text)
            ok = real is not None and mine is not None and agree(st, words, real, mine)
            if ok and st.expected is not None:
                ok = agree(st, words, st.expected, real) and agree(st, words, st.expected, mine)
            if ok:
                tally.passed += 1
                if st.known:
                    out.write("NOTE %s:%d: marked known-difference but both sides agree now\n" % (path, st.line))
                continue
            if st.known and real is not None and mine is not None:
                tally.skipped += 1
                if show_known:
                    out.write("KNOWN DIFFERENCE %s:%d (%s)\n  > %s\n  real redis-server %s:\n%s  locklab:\n%s"
                              % (path, st.line, st.known, st.text, server.version, show(real), show(mine)))
                else:
                    out.write("KNOWN DIFFERENCE %s:%d (%s)\n" % (os.path.relpath(path, ROOT), st.line, st.known))
                continue
            tally.failed += 1
            report = ["MISMATCH %s:%d [%s]\n  > %s\n" % (path, st.line, st.case, st.text)]
            if st.expected is not None:
                report.append("  expected (case file):\n" + show(st.expected))
            report.append("  real redis-server %s:\n%s" % (server.version, show(real)))
            report.append("  locklab:\n" + show(mine))
            out.write("".join(report))
            if real is None:
                raise HarnessError("redis-cli stopped answering at %s:%d" % (path, st.line))
            if mine is None:
                rest = len(steps) - i - 1
                tally.failed += rest
                out.write("  locklab died or hung: the %d remaining command(s) of %s count as failed\n"
                          % (rest, path))
                break
    finally:
        fake.close()


# ---- corpus conversion ---------------------------------------------------------------------

def corpus_to_cases(corpus_path):
    """The Redis corpus as a case file with expectations. Each corpus case starts with
    FLUSHALL and SCRIPT FLUSH; a recorded sleep becomes .advance (the real side sleeps)."""
    with open(corpus_path) as f:
        corpus = json.load(f)
    out = ["# The differential corpus %s, converted by redisdiff.py --convert-corpus."
           % os.path.basename(corpus_path),
           "# Each case: FLUSHALL, SCRIPT FLUSH, its setup, its command, its follow-ups; the",
           "# expected lines are the recorded raw replies rendered as redis-cli --no-raw prints them.",
           ""]
    used = skipped = 0
    for case in corpus:
        cmd = [c.encode("utf-8") for c in case["command"]]
        if any(c.lower() == b"time" for c in cmd) or "TIME" in case.get("setup", []):
            out.append("# skipped (reads the wall clock): %s" % case["name"])
            skipped += 1
            continue
        used += 1
        out.append("# case: %s (%s)" % (case["name"], case.get("source", "?")))
        out += ["> flushall", "OK", "> script flush", "OK"]
        for s in case.get("setup", []):
            out.append("> " + " ".join(quote_arg(w.encode("utf-8")) for w in s))
        if "sleep_before_command_s" in case:
            out.append("> .advance %d" % round(case["sleep_before_command_s"] * 1000))
        line = "> " + " ".join(quote_arg(w) for w in cmd)
        raws = case.get("expect_raw_sequence") or [case["expect_raw"]]
        timing = "timing" in case.get("note", "") or "PTTL" in case.get("note", "")
        for raw in raws:
            if timing:
                out.append("# " + TOLERANCE_MARK)
            out.append(line)
            out += render_cli(parse_resp(raw.encode("latin-1"))[0]).splitlines()
        for t in case.get("then", []):
            out.append("> " + " ".join(quote_arg(w.encode("utf-8")) for w in t["command"]))
            out += render_cli(parse_resp(t["expect_raw"].encode("latin-1"))[0]).splitlines()
        out.append("")
    print("corpus: %d cases converted, %d skipped" % (used, skipped), file=sys.stderr)
    return "\n".join(out) + "\n"


# ---- main ----------------------------------------------------------------------------------

def main(argv):
    ap = argparse.ArgumentParser(description="locklab's fake Redis against a real redis-server")
    ap.add_argument("--locklab", default=os.path.join(ROOT, "locklab"), help="the locklab binary")
    ap.add_argument("--cases", nargs="+", metavar="DIR|FILE",
                    default=[os.path.join(HERE, "cases")], help="case files or directories")
    ap.add_argument("--redis-server", default="redis-server")
    ap.add_argument("--redis-cli", default="redis-cli")
    ap.add_argument("--port", type=int, default=0, help="default: a free loopback port")
    ap.add_argument("--max-advance", type=int, default=MAX_ADVANCE_MS, metavar="MS",
                    help="longest .advance a case may ask for (the real side sleeps it)")
    ap.add_argument("--serve", action="store_true",
                    help="the fake side is `locklab serve --clock wall` over TCP (redis-cli on "
                         "both sides), not `locklab redis`")
    ap.add_argument("--show-known", action="store_true",
                    help="print both answers of every known difference (default: one line each)")
    ap.add_argument("--convert-corpus", metavar="JSON",
                    help="print the corpus as a case file and exit")
    args = ap.parse_args(argv)

    if args.convert_corpus:
        sys.stdout.write(corpus_to_cases(args.convert_corpus))
        return 0
    locklab = os.path.abspath(args.locklab) if os.sep in args.locklab else args.locklab
    if not (shutil.which(locklab) or os.access(locklab, os.X_OK)):
        raise HarnessError("no locklab binary at '%s' (build it with make locklab)" % args.locklab)
    for tool in (args.redis_server, args.redis_cli):
        if not shutil.which(tool):
            raise HarnessError("%s not found: install redis-server and redis-tools (make deps); "
                               "the differential test did NOT run" % tool)
    files = case_files(args.cases)
    for f in files:  # bad case files fail before the server starts
        check_steps(f, parse_case_file(f), args.max_advance)

    server = RealServer(args.redis_server, args.port)
    cli = None
    tally = Tally()
    try:
        cli = LineProcess([args.redis_cli, "-p", str(server.port), "--no-raw"], "redis-cli")
        for f in files:
            run_file(f, server, cli, locklab, args.max_advance, tally, sys.stdout, args.show_known,
                     args.redis_cli if args.serve else None)
            sys.stdout.flush()
    finally:
        if cli:
            cli.close()
        server.stop()
    print("%d passed, %d failed, %d skipped" % (tally.passed, tally.failed, tally.skipped))
    return 0 if tally.failed == 0 else 1


def on_signal(signum, frame):
    raise SystemExit(128 + signum)  # unwinds through the finally blocks: the server stops


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        sys.exit(main(sys.argv[1:]))
    except HarnessError as e:
        print("redisdiff: %s" % e, file=sys.stderr)
        print("redisdiff: FAILED (the differential test could not run)", file=sys.stderr)
        sys.exit(2)
