#!/usr/bin/env python3
"""serve-bench-large.py PORT — part of tools/serve-bench.sh (make bench): what writes to
large values cost one client of the server on PORT (issue 37, N1). Prints one line per
measurement, "name seconds": a SETRANGE near Redis's 512 MB limit, SETBIT at bit 2^32-1,
1,000 pipelined one-byte APPENDs to a 2 MB value and to a new key (and 1,000 one-byte SETs, the
cost of any command, beside them), and 1,000 SETBIT round trips on the 2 MB value (each sent
once the previous reply is in). The keys are deleted before and after."""
import socket
import sys
import time

s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(600)


def cmd(*a):
    a = [x if isinstance(x, bytes) else str(x).encode() for x in a]
    return b"*%d\r\n" % len(a) + b"".join(b"$%d\r\n%s\r\n" % (len(x), x) for x in a)


def replies(n):
    got = b""
    while got.count(b"\r\n") < n:
        part = s.recv(65536)
        if not part:
            sys.exit("the server closed the connection")
        got += part
    return got


def timed(name, payload, n):
    t = time.perf_counter()
    s.sendall(payload)
    replies(n)
    print("%s %.6f" % (name, time.perf_counter() - t))


s.sendall(cmd("DEL", "bench:big", "bench:ap"))
replies(1)
timed("SETRANGE bench:big 536870000 x", cmd("SETRANGE", "bench:big", 536870000, "x"), 1)
timed("SETBIT bench:big 4294967295 1", cmd("SETBIT", "bench:big", 4294967295, 1), 1)
s.sendall(cmd("DEL", "bench:big") + cmd("SETRANGE", "bench:ap", 2000000, "x"))
replies(2)
timed("1,000 pipelined APPENDs of 1 byte to 2 MB", b"".join(cmd("APPEND", "bench:ap", "y") for _ in range(1000)), 1000)
s.sendall(cmd("DEL", "bench:grow"))
replies(1)
timed("1,000 pipelined APPENDs of 1 byte to a new key", b"".join(cmd("APPEND", "bench:grow", "y") for _ in range(1000)), 1000)
timed("1,000 pipelined SETs of 1 byte (the anchor of the APPENDs)", b"".join(cmd("SET", "bench:grow", "y") for _ in range(1000)), 1000)
s.sendall(cmd("DEL", "bench:grow"))
replies(1)
t = time.perf_counter()
for i in range(1000):
    s.sendall(cmd("SETBIT", "bench:ap", i * 8000, 1))
    replies(1)
print("1,000 SETBIT round trips on 2 MB %.6f" % (time.perf_counter() - t))
s.sendall(cmd("DEL", "bench:ap"))
replies(1)
