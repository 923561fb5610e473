"""CLIENT TRACKING over raw sockets, for tests/cli/test_serve_tracking.sh: one fixed sequence of
commands on several connections of one server (redis-server or locklab serve), printing every
byte each connection receives, step by step, so that the two servers' outputs can be compared
with cmp. Usage: python3 tracking.py PORT.

After each step every open connection is read up to the reply to a PING sent then (a RESP2
subscriber's ["pong", marker] included): what a command sent to others, and what it sent its
own connection after its reply (the invalidations Redis holds until then), is all there. A
connection with CLIENT REPLY OFF answers no PING: a step names how many messages to read from
it instead. Connection ids differ between servers: each is printed as {NAME}; the connections
opened first push the ids past 100 on both, so that no small integer reply is taken for one.
Expiry is waited for by reading the message it sends (a blocking read, 10 s at most).
"""
import socket
import sys

port = int(sys.argv[1])


def connect():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(10)
    return s


def encode(words):
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = w.encode() if isinstance(w, str) else w
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    return out


class Conn:
    def __init__(self, name):
        self.name, self.s, self.buf, self.quiet, self.multi = name, connect(), b"", False, False

    def send(self, words):
        self.s.sendall(encode(words))

    def fill(self):
        d = self.s.recv(65536)
        if not d:
            raise EOFError(self.name + " closed")
        self.buf += d

    def line(self):
        while b"\r\n" not in self.buf:
            self.fill()
        i = self.buf.index(b"\r\n") + 2
        l, self.buf = self.buf[:i], self.buf[i:]
        return l

    def take(self, n):
        while len(self.buf) < n:
            self.fill()
        d, self.buf = self.buf[:n], self.buf[n:]
        return d

    def item(self):
        """One whole RESP2 or RESP3 message, its bytes as they came."""
        l = self.line()
        t, body = l[:1], l[1:-2]
        if t in b"$=!" and body != b"-1":
            return l + self.take(int(body) + 2)
        if t in b"*>~%|" and body != b"-1":
            n = int(body) * (2 if t in b"%|" else 1)
            return l + b"".join(self.item() for _ in range(n))
        return l

    def upto(self, marker):
        """Everything received before the reply to PING marker."""
        self.send(["ping", marker])
        got = b""
        while True:
            m = self.item()
            if m == b"$%d\r\n%s\r\n" % (len(marker), marker.encode()):
                return got
            if m == b"*2\r\n$4\r\npong\r\n$%d\r\n%s\r\n" % (len(marker), marker.encode()):
                return got
            got += m


conns = {}
ids = {}

# ids past 100: connections opened and closed first
for _ in range(200):
    c = Conn("warm")
    c.send(["client", "id"])
    n = int(c.item()[1:-2])
    c.s.close()
    if n >= 100:
        break


def conn(name):
    if name not in conns:
        c = Conn(name)
        c.send(["client", "id"])
        ids[name] = c.item()[1:-2].decode()
        conns[name] = c
    return conns[name]


def norm(data):
    for name, i in ids.items():
        data = data.replace(b":%s\r\n" % i.encode(), b":{%s}\r\n" % name.encode())
        data = data.replace(b"redir=%s " % i.encode(), b"redir={%s} " % name.encode())
        data = data.replace(b"id=%s " % i.encode(), b"id={%s} " % name.encode())
    return data


step_no = 0


def step(name, *words, read=None):
    """Runs words on connection name (each {X} in them becomes X's id) and prints what every
    connection received; read: {conn: n} messages to read from a quiet connection. In MULTI
    the connection's own QUEUED is read instead of a PING's reply."""
    global step_no
    step_no += 1
    c = conn(name)
    if words:
        c.send([w.format(**ids) for w in words])
    print("%d %s> %s" % (step_no, name, " ".join(words)))
    word = words[0].lower() if words else ""
    queued = (c.multi or word == "multi") and word not in ("exec", "discard")
    c.multi = (c.multi or word == "multi") and word not in ("exec", "discard")
    if word == "quit":  # its OK, then the server's close (the client is gone by then)
        print("  %s: %r" % (name, c.item()))
        while c.s.recv(65536):
            pass
        c.s.close()
        del conns[name]
    for k in sorted(conns):
        o = conns[k]
        if o is c and queued:  # a PING would be queued too
            got = o.item()
        elif o.quiet:
            got = b"".join(o.item() for _ in range((read or {}).get(k, 0)))
        else:
            got = o.upto("m%d" % step_no)
        if got:
            print("  %s: %r" % (k, norm(got)))


def fields(name, *keep):
    """CLIENT INFO of name, only the fields asked (the others hold addresses and times)."""
    global step_no
    step_no += 1
    c = conn(name)
    c.send(["client", "info"])
    line = c.item().decode().split("\r\n")[1]
    print("%d %s> client info: %s" % (step_no, name, norm(" ".join(f for f in line.split(" ") if f.split("=")[0] in keep).encode() + b" ").decode().strip()))


def info_tracking(name):
    global step_no
    step_no += 1
    c = conn(name)
    c.send(["info", "everything"])
    text = c.item().decode()
    print("%d %s> info: %s" % (step_no, name, " ".join(l for l in text.split("\r\n") if l.startswith("tracking_"))))


# ---- RESP2: REDIRECT to a subscriber of __redis__:invalidate ----
step("R", "subscribe", "__redis__:invalidate")
step("A", "client", "tracking", "on", "redirect", "{R}")
step("A", "set", "a", "1")
step("A", "set", "b", "1")
step("A", "get", "a")
step("A", "set", "b", "2")  # not read: no message
step("A", "set", "a", "2")  # read: a message to R
step("A", "set", "a", "3")  # forgotten after the first change: none
fields("A", "flags", "redir")
step("A", "client", "getredir")
step("A", "client", "trackinginfo")
info_tracking("A")
step("A", "mget", "a", "b", "c", "d")
info_tracking("A")
step("B", "del", "a", "b", "c", "zz")
info_tracking("A")
step("A", "client", "tracking", "off")
step("A", "client", "getredir")
fields("A", "flags", "redir")
# ---- BCAST ----
step("A", "client", "tracking", "on", "bcast", "redirect", "{R}")
fields("A", "flags", "redir")
step("A", "mset", "a", "1", "b", "2", "c", "3")
step("B", "set", "other", "1")
step("A", "client", "tracking", "off")
step("A", "client", "tracking", "on", "bcast", "redirect", "{R}", "prefix", "a:", "prefix", "b:")
step("A", "multi")
step("A", "incr", "a:1")
step("A", "incr", "b:2")
step("A", "incr", "a:2")
step("A", "incr", "b:1")
step("A", "incr", "c:1")
step("A", "exec")
step("A", "client", "tracking", "on", "bcast", "redirect", "{R}", "prefix", "c:")
step("A", "incr", "c:1234")
step("A", "client", "trackinginfo")
info_tracking("A")
step("A", "client", "tracking", "on", "bcast", "prefix", "a:x")
step("A", "client", "tracking", "on", "bcast", "prefix", "zz", "prefix", "z")
step("A", "client", "tracking", "on", "bcast", "prefix", "q", "prefix", "r", "prefix", "q1")
step("A", "client", "tracking", "on")
step("A", "client", "tracking", "off")
info_tracking("A")
# ---- NOLOOP ----
step("A", "client", "tracking", "on", "redirect", "{R}", "noloop")
step("A", "mget", "otherkey1", "loopkey", "otherkey2")
step("B", "set", "otherkey1", "1")
step("A", "set", "loopkey", "1")
step("B", "set", "otherkey2", "1")
step("A", "client", "tracking", "off")
step("A", "client", "tracking", "on", "bcast", "redirect", "{R}", "noloop")
step("B", "set", "otherkey1", "1")
step("A", "set", "loopkey", "1")
step("A", "mset", "loopkey", "2", "k1", "x")
step("A", "client", "trackinginfo")
step("A", "client", "tracking", "off")
# ---- errors ----
step("A", "client", "tracking", "on", "prefix", "a")
step("A", "client", "tracking", "on", "bcast", "optin")
step("A", "client", "tracking", "on", "optin", "optout")
step("A", "client", "tracking", "on", "redirect", "{R}", "redirect", "{R}")
step("A", "client", "tracking", "on", "redirect", "99999")
step("A", "client", "tracking", "on", "redirect", "x")
step("A", "client", "tracking", "on", "bogus")
step("A", "client", "tracking", "maybe")
step("A", "client", "tracking")
step("A", "client", "caching", "yes")
step("A", "client", "tracking", "on", "optin")
step("A", "client", "tracking", "on", "optout")
step("A", "client", "tracking", "on", "bcast")
step("A", "client", "caching", "no")
step("A", "client", "caching", "maybe")
step("A", "client", "tracking", "off")
step("A", "client", "tracking", "on", "optout")
step("A", "client", "caching", "yes")
step("A", "client", "tracking", "off")
step("A", "client", "getredir", "x")
step("A", "client", "trackinginfo", "x")
# ---- OPTIN, OPTOUT ----
step("A", "client", "tracking", "on", "redirect", "{R}", "optin")
step("A", "get", "k1")
step("B", "set", "k1", "1")  # not tracked: no message
step("A", "client", "caching", "yes")
step("A", "client", "trackinginfo")
step("A", "get", "k1")
step("A", "get", "k2")  # CACHING lasted one command
step("B", "mset", "k1", "2", "k2", "2")
step("A", "client", "caching", "yes")
step("A", "multi")
step("A", "get", "k1")
step("A", "get", "k2")
step("A", "exec")
step("B", "mset", "k1", "3", "k2", "3")
step("A", "client", "tracking", "off")
step("A", "client", "tracking", "on", "redirect", "{R}", "optout")
step("A", "get", "k1")
step("A", "client", "caching", "no")
step("A", "client", "trackinginfo")
step("A", "get", "k2")
step("B", "mset", "k1", "4", "k2", "4")
step("A", "client", "tracking", "off")
# ---- RESP3 on the connection itself ----
step("C", "hello", "3")
step("C", "client", "tracking", "on")
step("C", "get", "key1")
step("B", "set", "key1", "1")
step("C", "get", "key1")
step("C", "set", "key1", "2")  # its own write: the push after the reply
step("C", "mget", "key1", "key2", "key3")
step("C", "del", "key1", "key2", "key3")
step("C", "hset", "h", "f", "v")
step("C", "hgetall", "h")
step("C", "hdel", "h", "f")
step("C", "mget", "x1", "x2")
step("C", "multi")
step("C", "set", "x1", "1")
step("C", "get", "x1")
step("C", "set", "x2", "2")
step("C", "exec")
step("C", "client", "trackinginfo")
fields("C", "flags", "redir", "resp")
# scripts: their declared keys, once they read
step("C", "eval", "redis.call('set', 'key3', 'bar')", "2", "key1", "key2")
step("B", "mset", "key1", "1", "key2", "1")
step("C", "eval", "redis.call('get', 'key3')", "2", "key1", "key2")
step("B", "mset", "key2", "2", "key1", "2")
step("C", "eval_ro", "redis.call('ping')", "2", "key1", "key2")
step("B", "mset", "key2", "3", "key1", "3")
step("C", "eval_ro", "return redis.call('get', 'key1')", "2", "key1", "key2")
step("B", "mset", "key2", "4", "key1", "4")
step("C", "eval", "redis.call('get', 'key1'); return redis.call('set', 'key1', 'x')", "1", "key1")
step("C", "client", "tracking", "off")
step("C", "client", "tracking", "on", "noloop")
step("C", "get", "key1")
step("C", "eval", "return redis.call('set', 'key1', '2')", "1", "key1")
step("C", "get", "key1")
step("C", "set", "key1", "3")
step("B", "set", "key1", "4")
step("C", "client", "tracking", "off")
# RESP3 with a redirect; then the redirect goes away
step("C", "client", "tracking", "on", "redirect", "{R}")
step("C", "get", "key1")
step("B", "set", "key1", "5")
step("D", "hello", "3")
step("C", "client", "tracking", "on", "redirect", "{D}")
step("C", "get", "key1")
step("B", "set", "key1", "6")
step("C", "get", "key1")
step("D", "quit")
step("B", "set", "key1", "7")
step("C", "client", "trackinginfo")
fields("C", "flags", "redir")
step("C", "get", "key1")
step("C", "set", "key1", "8")
step("C", "client", "tracking", "off")
# switching protocols: the messages follow the connection's protocol now
step("C", "hello", "2")
step("C", "client", "tracking", "on", "redirect", "{R}")
step("C", "get", "key1")
step("C", "hello", "3")
step("B", "set", "key1", "9")
step("C", "client", "tracking", "off")
step("C", "client", "tracking", "on")
step("C", "hello", "2")
step("C", "get", "key1")
step("B", "set", "key1", "10")  # RESP2 without redirect: nothing can carry it
step("C", "hello", "3")
step("C", "client", "tracking", "off")
# ---- FLUSHALL, FLUSHDB: a null ----
step("A", "client", "tracking", "on", "redirect", "{R}")
step("C", "client", "tracking", "on")
step("E", "hello", "3")
step("E", "client", "tracking", "on", "redirect", "{R}")
step("A", "get", "f1")
step("C", "get", "f1")
step("B", "flushall")
step("C", "get", "f1")
step("C", "flushdb")
step("C", "get", "f1")
step("B", "eval", "return redis.call('flushall')", "0")
step("C", "get", "f1")
step("C", "eval", "redis.call('get', KEYS[1]); return redis.call('flushdb')", "1", "f1")
step("C", "multi")
step("C", "get", "f2")
step("C", "flushdb")
step("C", "exec")
info_tracking("A")
step("A", "client", "tracking", "off")
step("C", "client", "tracking", "off")
step("E", "client", "tracking", "off")
# ---- CLIENT REPLY OFF: the pushes still come ----
step("C", "client", "tracking", "on")
step("C", "get", "q1")
conns["C"].quiet = True
step("C", "client", "reply", "off")
step("B", "set", "q1", "1", read={"C": 1})
step("C", "get", "q1")
step("C", "set", "q1", "2", read={"C": 1})
step("C", "client", "reply", "on", read={"C": 1})
conns["C"].quiet = False
step("C", "client", "tracking", "off")
# ---- RESET ends tracking ----
step("C", "client", "tracking", "on", "bcast")
info_tracking("C")
step("C", "reset")
step("C", "client", "trackinginfo")
info_tracking("C")
# ---- BCAST NOLOOP: a script's writes are its own client's, so they are heard ----
step("C", "hello", "3")
step("C", "client", "tracking", "on", "bcast", "noloop")
step("C", "eval", "redis.call('set', 'sk', '1')", "0")
step("C", "set", "sk", "2")
step("C", "client", "tracking", "off")
step("C", "hello", "2")
# ---- tracking-table-max-keys: past it keys leave the table (which ones differs: Redis
# picks them at random; a RESP2 connection without a redirect hears nothing of it) ----
step("A", "config", "get", "tracking-table-max-keys")
step("A", "client", "tracking", "on")
step("A", "mget", "t1", "t2", "t3")
info_tracking("A")
step("B", "config", "set", "tracking-table-max-keys", "1")
info_tracking("A")
step("B", "config", "set", "tracking-table-max-keys", "1000000")
step("B", "config", "get", "tracking-table-max-keys")
step("A", "client", "tracking", "off")
step("B", "flushall")
# ---- expiry: an active expiry's invalidation ----
step("C", "hello", "3")
step("C", "client", "tracking", "on")
step("C", "set", "e1", "v", "px", "30")
step("C", "get", "e1")
conns["C"].quiet = True
step("C", read={"C": 1})
conns["C"].quiet = False
step("A", "client", "tracking", "on", "bcast", "redirect", "{R}", "noloop")
step("A", "set", "e2", "v", "px", "30")
conns["R"].quiet = True
step("A", read={"R": 1})
conns["R"].quiet = False
step("A", "client", "tracking", "off")
step("C", "client", "tracking", "off")
