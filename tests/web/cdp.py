"""Headless Chromium driven through the DevTools protocol over a pipe (--remote-debugging-pipe:
commands on fd 3, replies and events on fd 4, each a JSON text ending in a NUL byte): no port,
no network, no WebSocket library. Used by tests/web/test_playground.py and tools/bench.sh.

    with Chromium() as c:
        c.open("file:///.../index.html#run=gc-pause-single")
        value = c.eval("somePromise()")   # awaited, returned by value
        c.console_errors                  # what the page logged as errors, and exceptions
"""
import json
import os
import select
import shutil
import subprocess
import tempfile


class ChromiumError(Exception):
    pass


def chromium_binary():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Chromium:
    def __init__(self, binary=None):
        self.binary = binary or chromium_binary()
        if not self.binary:
            raise ChromiumError("chromium is not installed (make deps installs it)")
        self.profile = tempfile.mkdtemp(prefix="locklab-cdp.")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # chromium reads commands on its fd 3 and writes on its fd 4
        def child_fds():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)
        for fd in (to_chrome_r, from_chrome_w):
            os.set_inheritable(fd, True)
        self.proc = subprocess.Popen(
            [self.binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
             # gc(): a test may collect the page's garbage before it measures the page's tasks
             "--js-flags=--expose-gc", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child_fds, close_fds=False)  # (closing would take fds 3 and 4 too)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._next = 0
        self.session = None
        self.console_errors = []
        self.console = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send("Browser.close", {}, session=False)
            except (ChromiumError, OSError):
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    # Not a threshold a test passes by: a guard against a page that never answers (a hang),
    # generous enough for a loaded machine.
    HANG_SECONDS = 600

    def _read_message(self):
        while b"\0" not in self._buf:
            ready, _, _ = select.select([self._from_chrome], [], [], self.HANG_SECONDS)
            if not ready:
                raise ChromiumError("chromium said nothing for %d s: the page hangs" % self.HANG_SECONDS)
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise ChromiumError("chromium closed its DevTools pipe (it exited with %s)" % self.proc.poll())
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def _event(self, msg):
        method, params = msg.get("method"), msg.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append((params.get("type"), text))
            if params.get("type") in ("error", "assert"):
                self.console_errors.append(text)
        elif method == "Runtime.exceptionThrown":
            d = params.get("exceptionDetails", {})
            self.console_errors.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self.console_errors.append(params["entry"].get("text", ""))

    def _send(self, method, params, session=True):
        self._next += 1
        msg = {"id": self._next, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        return self._next

    def call(self, method, params=None, session=True):
        want = self._send(method, params or {}, session)
        while True:
            msg = self._read_message()
            if msg.get("id") == want:
                if "error" in msg:
                    raise ChromiumError("%s: %s" % (method, msg["error"].get("message")))
                return msg.get("result", {})
            self._event(msg)

    def open(self, url, watch_console=True):
        """A fresh page at url; returns once its load event fired. watch_console=False leaves
        the Runtime and Log domains off (console_errors then stays empty): with them on, the
        inspector weighs in on every exception thrown, which WebAssembly's do on each Lua
        coroutine yield (tools/bench-web.sh measures without)."""
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        if watch_console:
            self.call("Runtime.enable")
            self.call("Log.enable")
        self.call("Page.enable")
        self.call("Page.navigate", {"url": url})
        while True:
            msg = self._read_message()
            if msg.get("method") == "Page.loadEventFired" and msg.get("sessionId") == self.session:
                return
            self._event(msg)

    def eval(self, expression):
        """The value of expression (a promise is awaited), or ChromiumError with the page's
        exception."""
        r = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise ChromiumError(d.get("exception", {}).get("description") or d.get("text", "exception"))
        return r.get("result", {}).get("value")
