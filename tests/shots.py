#!/usr/bin/python3
"""shots.py: screenshots of many pages by one headless Chromium, driven over its DevTools pipe (a launch a page cost two seconds each).

usage: shots.py PROFILE_DIR LOG < LIST, where each line of LIST is
URL OUT.png WIDTH HEIGHT. The page is laid out in a viewport exactly
WIDTH by HEIGHT (the DevTools emulation has no 500-pixel floor as a
window has), shot once its load event (frames and pictures in them
included) has fired. Exits non-zero, saying which, if any page failed.
"""
import base64
import json
import os
import select
import subprocess
import sys
import time

TIMEOUT = 60  # seconds for any one answer of the browser


class Browser:
    def __init__(self, profile, log):
        to_r, self.to_w = os.pipe()    # our commands: the browser's fd 3
        self.from_r, from_w = os.pipe()  # its answers: the browser's fd 4
        hi_to = max(to_r, from_w) + 10
        hi_from = hi_to + 1

        def fds():
            # Out of the way first, so that neither lands on the other;
            # dup2 leaves them inheritable, and Python's own are not.
            os.dup2(to_r, hi_to)
            os.dup2(from_w, hi_from)
            os.dup2(hi_to, 3)
            os.dup2(hi_from, 4)
            os.close(hi_to)
            os.close(hi_from)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-dev-shm-usage", "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=fds, close_fds=False)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.seen = []  # messages read but not yet wanted
        self.last = 0

    def read(self, want, deadline):
        while True:
            for i, m in enumerate(self.seen):
                if want(m):
                    return self.seen.pop(i)
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                self.seen.append(json.loads(raw))
            if any(want(m) for m in self.seen):
                continue
            left = deadline - time.time()
            if left <= 0 or not select.select([self.from_r], [], [], left)[0]:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise EOFError("Chromium ended")
            self.buf += chunk

    def call(self, method, params=None, session=None):
        self.last += 1
        msg = {"id": self.last, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        n = self.last
        m = self.read(lambda m: m.get("id") == n, time.time() + TIMEOUT)
        if "error" in m:
            raise RuntimeError("%s: %s" % (method, m["error"].get("message")))
        return m.get("result", {})

    def close(self):
        try:
            self.call("Browser.close")
        except (OSError, TimeoutError, EOFError, RuntimeError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def main():
    profile, log = sys.argv[1], open(sys.argv[2], "ab")
    shots = [line.split() for line in sys.stdin if line.strip()]
    b = Browser(profile, log)
    failed = []
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.call("Page.enable", session=s)
        for url, out, w, h in shots:
            try:
                b.call("Emulation.setDeviceMetricsOverride",
                       {"width": int(w), "height": int(h), "deviceScaleFactor": 1, "mobile": False}, s)
                b.seen = [m for m in b.seen if m.get("method") != "Page.loadEventFired"]
                b.call("Page.navigate", {"url": url}, s)
                b.read(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == s,
                       time.time() + TIMEOUT)
                png = b.call("Page.captureScreenshot", {"format": "png"}, s)["data"]
                with open(out, "wb") as f:
                    f.write(base64.b64decode(png))
            except (TimeoutError, RuntimeError) as e:
                failed.append("%s: %s" % (url, e))
    except (OSError, TimeoutError, EOFError, RuntimeError, KeyError) as e:
        failed.append("the browser: %s" % e)
    finally:
        b.close()
    if failed:
        sys.exit("shots.py: " + "; ".join(failed))


main()
