#!/usr/bin/env python3
"""pages.py — opens pages one after the other in one headless Chromium (tests/web/cdp.py) and
writes, for each, what `chromium --headless --dump-dom` and its console log would: the DOM
once the page's load event has fired and the player says it is drawn (<body data-ready>: a
long run is drawn in slices after the load event), as document.documentElement.outerHTML
(what --dump-dom prints); and every message the page logged, every exception it threw and
every warning or error the browser logged about it, one line each, as "CONSOLE(type): text"
or "Uncaught: text" (what tests/cli/lib.sh's quiet_console looks for). One browser for every
page: a browser started for each of test_html.sh's hundred pages took most of the suite's
time.

    python3 tests/html/pages.py OUT URL [WIDTHxHEIGHT] [-- OUT URL [WIDTHxHEIGHT] ...]

writes OUT (the DOM) and OUT.log (the console) for each URL, each in a fresh window of the
given size (as --window-size gives it; default 800x600, headless Chromium's), closed before
the next opens. Exits 1, saying why, if Chromium cannot be driven (the pages written so far
stay)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web"))
from cdp import Chromium, ChromiumError  # noqa: E402


TURNS = 100000
# posted messages are taken in order with the page's own (its slices): one turn each, then
# one timer's turn more once ready
READY = """new Promise(function (done) {
    var ch = new MessageChannel(), n = 0;
    ch.port1.onmessage = function () {
        if ((document.body && document.body.dataset.ready === '1') || ++n > %d) setTimeout(function () { done(n); }, 0);
        else ch.port2.postMessage(0);
    };
    ch.port2.postMessage(0);
})"""


class Pages(Chromium):
    """Chromium whose console is gathered per window: an event counts only for the open one."""

    def _event(self, msg):
        if self.session is None or msg.get("sessionId") != self.session:
            return
        method, params = msg.get("method"), msg.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.lines.append("CONSOLE(%s): %s" % (params.get("type"), text))
        elif method == "Runtime.exceptionThrown":
            d = params.get("exceptionDetails", {})
            self.lines.append("Uncaught: %s" % (d.get("exception", {}).get("description") or d.get("text", "exception")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("warning", "error"):
            e = params["entry"]
            self.lines.append("CONSOLE(%s): %s %s" % (e.get("level"), e.get("text", ""), e.get("url", "")))

    def dump(self, url, width, height):
        """The DOM of url once loaded, in a fresh window of width x height; the console's
        lines in self.lines."""
        self.lines = []
        target = self.call("Target.createTarget", {"url": "about:blank", "newWindow": True,
                                                   "width": width, "height": height},
                           session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        try:
            self.call("Runtime.enable")
            self.call("Log.enable")
            self.call("Page.enable")
            self.call("Page.navigate", {"url": url})
            while True:
                msg = self._read_message()
                if msg.get("method") == "Page.loadEventFired" and msg.get("sessionId") == self.session:
                    break
                self._event(msg)
            # a long run is drawn in slices after the load event, each a task (html_start.js,
            # llStart): turns of the event loop until <body> says data-ready, at most TURNS
            # (a count, not a clock: a page that never gets ready is read as it is, and fails)
            self.call("Runtime.evaluate", {"expression": READY % TURNS, "awaitPromise": True,
                                           "returnByValue": True})
            r = self.call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                               "returnByValue": True})
            return r.get("result", {}).get("value") or ""
        finally:
            self.call("Target.closeTarget", {"targetId": target}, session=False)
            self.session = None


def main(argv):
    jobs, cur = [], []
    for a in argv + ["--"]:
        if a == "--":
            if cur:
                if len(cur) not in (2, 3):
                    sys.exit("pages.py: each page is OUT URL [WIDTHxHEIGHT], not %r" % cur)
                w, h = (int(x) for x in (cur[2] if len(cur) == 3 else "800x600").split("x"))
                jobs.append((cur[0], cur[1], w, h))
            cur = []
        else:
            cur.append(a)
    try:
        with Pages() as c:
            for out, url, w, h in jobs:
                dom = c.dump(url, w, h)
                with open(out, "w", encoding="utf-8") as f:
                    f.write(dom + "\n")
                with open(out + ".log", "w", encoding="utf-8") as f:
                    f.write("".join(line + "\n" for line in c.lines))
    except (ChromiumError, OSError) as e:
        sys.exit("pages.py: %s" % e)


if __name__ == "__main__":
    main(sys.argv[1:])
