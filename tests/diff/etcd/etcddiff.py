#!/usr/bin/env python3
"""etcddiff.py: the fake etcd (`locklab kind etcd`) against a real etcd 3.4 (Debian etcd-server).

    python3 tests/diff/etcd/etcddiff.py --locklab ./locklab [CASES...]

Starts a real `etcd` on free loopback ports with its data in a temporary directory (a fresh
one for each case file, stopped at its end, whatever happens), and replays each case file (default: tests/diff/etcd/*.txt) on
both: on the fake through `locklab kind etcd`, on the real server through its v3 gRPC-gateway
JSON API on the client port (/v3/kv/range, /v3/kv/put, /v3/kv/deleterange, /v3/kv/txn,
/v3/lease/grant, /v3/kv/lease/revoke, /v3/lease/keepalive, /v3/kv/lease/timetolive,
/v3/kv/lease/leases) with urllib, keys and values in base64. Each real JSON answer is printed
in the fake's one-line form (sim/etcd/etcd_reply.c: the same fields, in proto order, without
the header's cluster_id, member_id and raft_term), and the two lines must be equal.

A case file holds one request per line, in the words of `locklab kind etcd`
(sim/etcd/etcd_ops.c), `# comments`, and meta-lines:
  .advance MS       the fake's clock moves MS ms; the real test sleeps MS ms
  .await-gone KEY   the real test polls until KEY is gone (at most 60 s: a lease's expiry
                    waits for the lessor's 500 ms loop and a raft round); the fake does nothing
                    (the .advance before it must have let the lease expire)
  .await-lease-gone ID   the same for a lease (LeaseTimeToLive answers TTL -1)
A line SUBSCRIBE "key KEY from REV" (or "prefix KEY from REV") opens a watch: on the real
server over /v3/watch, whose replayed events are read until there are as many as the fake
pushed; both print "EVENT REV KEY | ..." and then the created response.
Leases are granted with an explicit ID (LEASE_GRANT TTL ID N), so both sides use the same one;
a line ending in `#ids` has its ID fields replaced by <id> on both sides (an ID etcd chose).
The remaining TTL of LEASE_TTL may differ by one second (the real clock moves meanwhile).

The last line is `N passed, N failed`; exit 0 if every line matched, 1 on a mismatch, 2 if the
test could not run (no etcd, a bad case)."""
import argparse
import base64
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
INT_FIELDS = {"revision", "create_revision", "mod_revision", "version", "lease", "count", "deleted",
              "ID", "TTL", "grantedTTL"}
B64_FIELDS = {"key", "value", "keys"}


class CaseError(Exception):
    pass


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RealEtcd:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="etcddiff-")
        self.port, peer = free_port(), free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.log = open(os.path.join(self.dir, "etcd.log"), "w")
        self.proc = subprocess.Popen(
            ["etcd", "--name", "diff", "--data-dir", os.path.join(self.dir, "data"),
             "--listen-client-urls", self.url, "--advertise-client-urls", self.url,
             "--listen-peer-urls", "http://127.0.0.1:%d" % peer,
             "--initial-advertise-peer-urls", "http://127.0.0.1:%d" % peer,
             "--initial-cluster", "diff=http://127.0.0.1:%d" % peer],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("etcd exited at start; see %s" % self.log.name)
            try:
                self.call("/v3/kv/range", {"key": b64(b"\0")})
                return
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise RuntimeError("etcd did not answer within 60 s")
                time.sleep(0.2)

    def call(self, path, body):
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode() or "{}")
        except urllib.error.HTTPError as e:
            return json.loads(e.read().decode())

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def b64(data):
    return base64.b64encode(data).decode()


def enc(word):
    return b64(word.encode("latin-1"))


# ---- the words of a request, as the JSON the gateway takes ----

def prefix_end(key):
    k = bytearray(key)
    for i in range(len(k) - 1, -1, -1):
        if k[i] < 0xff:
            k[i] += 1
            return bytes(k[:i + 1])
    return b"\0"


class Words:
    def __init__(self, words):
        self.w, self.i = words, 0

    def peek(self, *names):
        return self.i < len(self.w) and self.w[self.i].upper() in names

    def take(self):
        if self.i >= len(self.w):
            raise CaseError("a request ended too soon")
        self.i += 1
        return self.w[self.i - 1]

    def num(self):
        t = self.take()
        return int(t, 16) if t.lower().startswith("0x") else int(t)


def range_opt(ws, req, key):
    if ws.peek("END"):
        ws.take()
        req["range_end"] = enc(ws.take())
    elif ws.peek("PREFIX", "FROM_KEY"):
        prefix = ws.take().upper() == "PREFIX"
        k = key.encode("latin-1")
        if not k:
            req["key"] = b64(b"\0")
            req["range_end"] = b64(b"\0")
        else:
            req["range_end"] = b64(prefix_end(k) if prefix else b"\0")
    else:
        return False
    return True


def parse_op(ws):
    kind = ws.take().upper()
    if kind not in ("PUT", "GET", "DEL"):
        raise CaseError("expected PUT, GET or DEL, not %r" % kind)
    key = ws.take()
    req = {"key": enc(key)}
    if kind == "PUT":
        req["value"] = enc(ws.take())
    while ws.i < len(ws.w):
        if kind != "PUT" and range_opt(ws, req, key):
            continue
        if kind == "PUT" and ws.peek("LEASE"):
            ws.take()
            req["lease"] = ws.num()
        elif kind != "GET" and ws.peek("PREV_KV"):
            ws.take()
            req["prev_kv"] = True
        elif kind == "PUT" and ws.peek("IGNORE_VALUE", "IGNORE_LEASE"):
            req[ws.take().lower()] = True
        elif kind == "GET" and ws.peek("FIRST_CREATE", "LAST_CREATE"):
            first = ws.take().upper() == "FIRST_CREATE"
            ws.w.insert(ws.i, "PREFIX")
            range_opt(ws, req, key)
            req.update(sort_target="CREATE", sort_order="ASCEND" if first else "DESCEND", limit=1)
        elif kind == "GET" and ws.peek("SORT"):
            ws.take()
            req["sort_target"] = ws.take().upper()
            if ws.peek("NONE", "ASCEND", "DESCEND"):
                req["sort_order"] = ws.take().upper()
        elif kind == "GET" and ws.peek("KEYS_ONLY", "COUNT_ONLY"):
            req[ws.take().lower()] = True
        elif kind == "GET" and ws.peek("LIMIT", "REV", "MIN_MOD", "MAX_MOD", "MIN_CREATE", "MAX_CREATE"):
            name = {"LIMIT": "limit", "REV": "revision", "MIN_MOD": "min_mod_revision",
                    "MAX_MOD": "max_mod_revision", "MIN_CREATE": "min_create_revision",
                    "MAX_CREATE": "max_create_revision"}[ws.take().upper()]
            req[name] = ws.num()
        else:
            break
    return kind, req


OP_FIELD = {"PUT": "request_put", "GET": "request_range", "DEL": "request_delete_range"}
CMP_RESULT = {"=": "EQUAL", "!=": "NOT_EQUAL", "<": "LESS", ">": "GREATER"}
CMP_FIELD = {"CREATE": "create_revision", "MOD": "mod_revision", "VERSION": "version", "VALUE": "value",
             "LEASE": "lease"}


def to_json(words):
    ws = Words(list(words))
    first = ws.w[0].upper()
    if first in ("PUT", "GET", "DEL"):
        kind, req = parse_op(ws)
        return {"PUT": "/v3/kv/put", "GET": "/v3/kv/range", "DEL": "/v3/kv/deleterange"}[kind], req
    if first == "TXN":
        ws.take()
        body = {"compare": [], "success": [], "failure": []}
        if ws.peek("IF"):
            ws.take()
            while ws.i < len(ws.w) and not ws.peek("THEN", "ELSE"):
                target = ws.take().upper()
                key = ws.take()
                c = {"target": "MOD" if target == "MOD" else target, "key": enc(key),
                     "result": CMP_RESULT[ws.take()]}
                c[CMP_FIELD[target]] = enc(ws.take()) if target == "VALUE" else ws.num()
                range_opt(ws, c, key)
                body["compare"].append(c)
        for part, word in (("success", "THEN"), ("failure", "ELSE")):
            if ws.peek(word):
                ws.take()
                while ws.i < len(ws.w) and not (part == "success" and ws.peek("ELSE")):
                    kind, req = parse_op(ws)
                    body[part].append({OP_FIELD[kind]: req})
        return "/v3/kv/txn", body
    ws.take()
    if first == "LEASE_GRANT":
        body = {"TTL": ws.num()}
        if ws.peek("ID"):
            ws.take()
            body["ID"] = ws.num()
        return "/v3/lease/grant", body
    if first in ("LEASE_REVOKE", "LEASE_KEEPALIVE", "LEASE_TTL"):
        body = {"ID": ws.num()}
        if first == "LEASE_TTL" and ws.peek("KEYS"):
            ws.take()
            body["keys"] = True
        return {"LEASE_REVOKE": "/v3/kv/lease/revoke", "LEASE_KEEPALIVE": "/v3/lease/keepalive",
                "LEASE_TTL": "/v3/kv/lease/timetolive"}[first], body
    if first == "LEASE_LEASES":
        return "/v3/kv/lease/leases", {}
    raise CaseError("no JSON form for %r" % first)


# ---- a JSON answer in the fake's one-line form ----

def split_words(line):
    """sdssplitargs, as `locklab kind` and redis-cli split a line: "double quotes" with \\n \\r
    \\t \\b \\a \\xHH escapes, 'single quotes' with \\' only. Words are latin-1 strings."""
    words, i, n = [], 0, len(line)
    esc = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "a": "\a"}
    while True:
        while i < n and line[i].isspace():
            i += 1
        if i >= n:
            return words
        cur, inq, insq = "", False, False
        while True:
            c = line[i] if i < n else None
            if inq:
                if c is None:
                    raise CaseError("unbalanced quotes: %s" % line)
                if c == "\\" and i + 3 < n and line[i + 1] == "x" and all(h in "0123456789abcdefABCDEF" for h in line[i + 2:i + 4]):
                    cur += chr(int(line[i + 2:i + 4], 16))
                    i += 3
                elif c == "\\" and i + 1 < n:
                    i += 1
                    cur += esc.get(line[i], line[i])
                elif c == '"':
                    if i + 1 < n and not line[i + 1].isspace():
                        raise CaseError("unbalanced quotes: %s" % line)
                    inq = False
                    i += 1
                    break
                else:
                    cur += c
            elif insq:
                if c is None:
                    raise CaseError("unbalanced quotes: %s" % line)
                if c == "\\" and i + 1 < n and line[i + 1] == "'":
                    i += 1
                    cur += "'"
                elif c == "'":
                    if i + 1 < n and not line[i + 1].isspace():
                        raise CaseError("unbalanced quotes: %s" % line)
                    insq = False
                    i += 1
                    break
                else:
                    cur += c
            else:
                if c is None or c.isspace():
                    break
                if c == '"':
                    inq = True
                elif c == "'":
                    insq = True
                else:
                    cur += c
            i += 1
        words.append(cur)


def put_str(data):
    plain = len(data) > 0 and all(0x21 <= c < 0x7f and chr(c) not in '"\\{}[]=' for c in data)
    if plain:
        return data.decode()
    out = '"'
    for c in data:
        if chr(c) in '"\\':
            out += "\\" + chr(c)
        elif 0x20 <= c < 0x7f:
            out += chr(c)
        else:
            out += "\\x%02x" % c
    return out + '"'


def brief(v, name=None):
    if isinstance(v, dict):
        parts = []
        for k, x in v.items():
            if name == "header" and k != "revision":
                continue
            if x in (0, "0", False, "", []):
                continue
            if k == "keys":  # Lease.Keys() walks a Go map: its order is random; the fake's is sorted
                x = sorted(x, key=base64.b64decode)
            parts.append("%s=%s" % (k, brief(x, k)))
        return "{" + " ".join(parts) + "}"
    if isinstance(v, list):
        return "[" + " ".join(brief(x, name) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if name in INT_FIELDS:
        return str(int(v))
    if name in B64_FIELDS:
        return put_str(base64.b64decode(v))
    return str(v)


def real_line(real, words):
    path, body = to_json(words)
    resp = real.call(path, body)
    if "error" in resp:
        return "(error) %s" % resp["error"]
    if "result" in resp:
        resp = resp["result"]
    return brief(resp)


def fake_lines(locklab, lines):
    out = subprocess.run([locklab, "kind", "etcd"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         encoding="latin-1")
    if out.returncode != 0:
        raise CaseError("locklab kind etcd failed: %s" % out.stderr.strip())
    # one line per request: its reply, after the events it pushed to a watch ("PUT 2 k | ")
    lines, pushed = [], ""
    for l in out.stdout.split("\n"):
        m = re.match(r"  ~ to client \d+: (?:key|prefix) .* from \d+ ((?:PUT|DELETE) \d+ .*)$", l)
        if m:
            pushed += m.group(1) + " | "
        elif l and not l.startswith("  ~ "):
            lines.append(pushed + l)
            pushed = ""
    return lines


def real_watch(real, words):
    """The WatchCreateRequest of SUBSCRIBE "key K from REV" (or "prefix K from REV")."""
    spec = words[1]
    m = re.match(r"(key|prefix) (.*) from (\d+)$", spec, re.S)
    if not m:
        raise CaseError("a watch is 'key K from REV' or 'prefix K from REV': %r" % spec)
    key = m.group(2).encode("latin-1")
    create = {"key": b64(key), "start_revision": int(m.group(3))}
    if m.group(1) == "prefix":
        create["range_end"] = b64(prefix_end(key))
    return create


def watch_line(real, words, expect):
    """A watch over /v3/watch: the events it replays from the history, read until there are
    `expect` of them (a stream does not end by itself; a missing event fails after 60 s),
    then the created response, as the fake prints them."""
    create = real_watch(real, words)
    req = urllib.request.Request(real.url + "/v3/watch", data=json.dumps({"create_request": create}).encode(),
                                 headers={"Content-Type": "application/json"})
    events, created = [], None
    with urllib.request.urlopen(req, timeout=60) as r:
        while created is None or len(events) < expect:
            line = r.readline()
            if not line:
                break
            res = json.loads(line).get("result", {})
            if res.get("created"):
                created = "{header={revision=%d} created=true}" % int(res["header"]["revision"])
            for ev in res.get("events", []):
                kv = ev["kv"]
                events.append("%s %d %s" % (ev.get("type", "PUT"), int(kv["mod_revision"]),
                                            base64.b64decode(kv["key"]).decode("latin-1")))
    return "".join(e + " | " for e in events) + (created or "(no created response)")


def mask(line, ids, ttl):
    if ids:
        line = re.sub(r"\bID=\d+", "ID=<id>", line)
        line = re.sub(r"\blease=\d+", "lease=<id>", line)
    return line


def same_ttl(a, b):
    """LEASE_TTL's remaining TTL: equal but for one second either way."""
    ra, rb = re.sub(r"\bTTL=-?\d+", "TTL=?", a), re.sub(r"\bTTL=-?\d+", "TTL=?", b)
    ta, tb = re.search(r"\bTTL=(-?\d+)", a), re.search(r"\bTTL=(-?\d+)", b)
    if ra != rb or bool(ta) != bool(tb):
        return False
    return not ta or abs(int(ta.group(1)) - int(tb.group(1))) <= 1


def await_gone(real, what, arg):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if what == "key":
            if not real.call("/v3/kv/range", {"key": enc(arg)}).get("kvs"):
                return True
        elif int(real.call("/v3/kv/lease/timetolive", {"ID": int(arg, 0)}).get("TTL", 0)) == -1:
            return True
        time.sleep(0.1)
    return False


def run_case(path, locklab, real, show):
    reqs, fake_input = [], []
    with open(path, encoding="latin-1") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            ids = line.endswith("#ids")
            if ids:
                line = line[:-4].rstrip()
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith(".await"):
                reqs.append((n, line, None, False))
                continue
            fake_input.append(line)
            reqs.append((n, line, None if line.startswith(".") else len(fake_input) - 1, ids))
    fake = fake_lines(locklab, fake_input)
    requests = [r for r in reqs if r[2] is not None]
    if len(fake) != len(requests):
        raise CaseError("%s: %d replies from locklab kind etcd for %d requests" % (path, len(fake), len(requests)))
    passed = failed = 0
    k = 0
    for n, line, idx, ids in reqs:
        words = split_words(line)
        if line.startswith(".advance"):
            time.sleep(int(words[1]) / 1000.0)
            continue
        if line.startswith(".await"):
            what = "key" if words[0] == ".await-gone" else "lease"
            if not await_gone(real, what, words[1]):
                print("FAIL %s:%d %s: still there after 60 s" % (os.path.basename(path), n, line))
                failed += 1
            continue
        f_line = fake[k]
        k += 1
        if words[0].upper() == "SUBSCRIBE":
            r_line = watch_line(real, words, f_line.count(" | "))
        else:
            r_line = real_line(real, words)
        f_m, r_m = mask(f_line, ids, False), mask(r_line, ids, False)
        ok = f_m == r_m or (words[0].upper() == "LEASE_TTL" and same_ttl(f_m, r_m))
        if ok:
            passed += 1
            if show:
                print("ok   %s:%d %s\n       %s" % (os.path.basename(path), n, line, f_line))
        else:
            failed += 1
            print("FAIL %s:%d %s\n  fake: %s\n  real: %s" % (os.path.basename(path), n, line, f_line, r_line))
    return passed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--locklab", default="./locklab")
    ap.add_argument("--show", action="store_true", help="print every matched line too")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    cases = a.cases or sorted(glob.glob(os.path.join(HERE, "*.txt")))
    if not shutil.which("etcd"):
        print("etcddiff: no etcd on PATH (Debian: apt-get install etcd-server)")
        print("0 passed, 1 failed")
        return 2
    real = None
    passed = failed = 0
    try:
        for c in cases:
            real = RealEtcd()  # a fresh one per file: each starts at revision 1, as the fake does
            p, f = run_case(c, a.locklab, real, a.show)
            real.stop()
            real = None
            passed += p
            failed += f
    except (CaseError, RuntimeError, ValueError, KeyError) as e:
        print("etcddiff: %s" % e)
        print("%d passed, %d failed" % (passed, failed + 1))
        return 2
    finally:
        if real:
            real.stop()
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
