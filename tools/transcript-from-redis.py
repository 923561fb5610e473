#!/usr/bin/env python3
"""Fills in a transcript's expected replies from a REAL redis-server (differential oracle).

    tools/transcript-from-redis.py [--port P] [--locklab ./locklab] FILE...
    tools/transcript-from-redis.py --check [--locklab ./locklab] FILE...

With --check, nothing is rewritten: every command of every FILE runs on the real server and
its output must equal the transcript's expected lines (which `locklab redis --check` holds
the fake to), so the real server, the transcript and the fake agree three ways; and after
each FILE the whole keyspace of the real server, in store.h's canonical dump, must equal the
fake's `.dump` after the same commands. Prints "N passed, N failed"; exit 1 on a mismatch,
2 if the server cannot run.

Each FILE (tests/transcripts/*.txt) is rewritten in place: comments, blank lines and
`> command` lines stay; the lines after each command become exactly what
`redis-cli --no-raw` prints for it on a fresh redis-server 7.0 started by this tool. The
server's wall clock is pinned with an LD_PRELOAD (tools/fakeclock.c) that starts at the
REPL's 1700000000000 ms and moves only on `.advance MS` / `.settime MS`, so PTTL replies
are as exact as in the fake. `.eval ID|FILE numkeys ...` and `.load ID|FILE` become EVAL /
SCRIPT LOAD of the body that `locklab scripts body` prints. Other meta-commands are refused.
"""
import argparse, os, shlex, struct, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "diff"))
import redisdiff  # noqa: E402  (its RESP client and redis-cli rendering)

START_MS = 1700000000000


def body_of(locklab, spec):
    if spec.endswith(".lua") and os.path.isfile(spec):
        # As the REPL does for a file: the text after "-- locklab:body", or the whole file.
        text = open(spec, "rb").read()
        marker = b"-- locklab:body\n"
        i = text.find(marker)
        if i == 0 or (i > 0 and text[i - 1:i] == b"\n"):
            text = text[i + len(marker):]
            if text.endswith(b"\n"):
                text = text[:-1]
        return text
    return subprocess.run([locklab, "scripts", "body", spec], check=True, capture_output=True).stdout


def cli_quote(b):
    """A redis-cli double-quoted word holding bytes b."""
    out = []
    for c in b:
        ch = chr(c)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= c < 127:
            out.append(ch)
        else:
            out.append("\\x%02x" % c)
    return '"' + "".join(out) + '"'


class Server:
    def __init__(self, port, preload):
        self.port = port
        self.dir = tempfile.mkdtemp(prefix="locklab-redis-")
        self.clock = os.path.join(self.dir, "clock")
        self.set_ms(START_MS)
        env = dict(os.environ, LD_PRELOAD=preload, FAKECLOCK_FILE=self.clock)
        self.proc = subprocess.Popen(["redis-server", "--port", str(port), "--save", "",
                                      "--appendonly", "no", "--dir", self.dir],
                                     env=env, stdout=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout == b"PONG\n":
                return
            time.sleep(0.05)
        raise SystemExit("transcript-from-redis: redis-server did not start on port %d" % port)

    def set_ms(self, ms):
        # Rewrite the 8 bytes in place: truncating a file the server has mapped would crash it.
        self.ms = ms
        fd = os.open(self.clock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, struct.pack("<q", ms), 0)
        finally:
            os.close(fd)

    def run(self, line):
        """redis-cli's output for one line, without the "(1.26s)" line its REPL adds after a
        slow reply (a busy machine, not the reply: see redisdiff.drop_cli_timing)."""
        r = subprocess.run(["redis-cli", "-p", str(self.port), "--no-raw"], input=line + "\n",
                           capture_output=True, text=True)
        return "\n".join(redisdiff.drop_cli_timing(r.stdout.split("\n")))

    def reset(self):
        self.set_ms(START_MS)
        self.run("FLUSHALL")
        self.run("SCRIPT FLUSH")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def command_line(locklab, line):
    """The redis-cli line for one transcript command, or None for a silent meta-command."""
    if not line.startswith("."):
        return line
    words = shlex.split(line)
    if words[0] in (".eval", ".load"):
        body = cli_quote(body_of(locklab, words[1]))
        rest = " ".join(shlex.quote(w) for w in words[2:])
        return ("EVAL %s %s" % (body, rest)) if words[0] == ".eval" else ("SCRIPT LOAD %s" % body)
    raise SystemExit("transcript-from-redis: unsupported meta-command: %s" % line)


def regenerate(server, locklab, path, results=None):
    """Returns the transcript with the real server's replies; appends (line, command,
    expected lines, real lines) for each command to results when given."""
    server.reset()
    out, lines, i = [], open(path).read().split("\n"), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.startswith(">"):
            out.append(line)
            continue
        out.append(line)
        cmd = line[1:].strip()
        start, expected = i, []
        while i < len(lines) and lines[i].strip() and not lines[i].startswith(("#", ">")):
            expected.append(lines[i])
            i += 1  # drop the old expected lines
        before = len(out)
        words = cmd.split()
        if words[0] == ".advance":
            server.set_ms(server.ms + int(words[1]))
        elif words[0] == ".settime":
            server.set_ms(int(words[1]))
        else:
            reply = server.run(command_line(locklab, cmd))
            if server.proc.poll() is not None:
                raise SystemExit("transcript-from-redis: redis-server died at %s: %s" % (path, cmd))
            out.extend(reply.rstrip("\n").split("\n") if reply else [])
        if results is not None:
            results.append((start, cmd, expected, out[before:]))
    return "\n".join(out)


def fake_dump(locklab, path):
    """The fake's `.dump` after replaying the transcript's commands."""
    cmds = [l[1:].strip() for l in open(path).read().split("\n") if l.startswith(">")]
    marker = "__locklab_keyspace__"
    script = "\n".join(cmds + ["echo " + marker, ".dump"]) + "\n"
    out = subprocess.run([locklab, "redis"], input=script, capture_output=True, text=True).stdout
    lines = out.split("\n")
    i = max(k for k, l in enumerate(lines) if l == '"%s"' % marker)
    return [l for l in lines[i + 1:] if l]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=0, help="default: a free loopback port")
    ap.add_argument("--check", action="store_true", help="compare, do not rewrite")
    ap.add_argument("--locklab", default="./locklab")
    ap.add_argument("--preload", default=None, help="fakeclock.so (built from tools/fakeclock.c if absent)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    preload = a.preload
    if not preload:
        preload = os.path.join(tempfile.mkdtemp(prefix="locklab-fc-"), "fakeclock.so")
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fakeclock.c")
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", preload, src, "-ldl"], check=True)
    port = a.port
    if not port:
        import socket
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
    server = Server(port, preload)
    passed = failed = 0
    try:
        for f in a.files:
            if not a.check:
                text = regenerate(server, a.locklab, f)
                with open(f, "w") as out:
                    out.write(text)
                print("regenerated", f)
                continue
            results = []
            regenerate(server, a.locklab, f, results)
            real_keys, fake_keys = redisdiff.canonical_dump(redisdiff.Resp(server.port)), fake_dump(a.locklab, f)
            results.append((0, "(the keyspace after the transcript, canonical dump)", fake_keys, real_keys))
            for line, cmd, expected, real in results:
                if expected == real:
                    passed += 1
                    continue
                failed += 1
                print("MISMATCH %s:%d\n  > %s\n  transcript:\n%s  real redis-server:\n%s" % (
                    f, line, cmd, "".join("    %s\n" % l for l in expected), "".join("    %s\n" % l for l in real)))
    finally:
        server.stop()
    if a.check:
        print("%d passed, %d failed" % (passed, failed))
        return 0 if failed == 0 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
