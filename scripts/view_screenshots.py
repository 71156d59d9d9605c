#!/usr/bin/env python3
"""Drive a headless Chromium through a `crumble view` page and take screenshots.

Usage: view_screenshots.py CHROMIUM PAGE.html OUT_PREFIX [--size WxH] [--steps K]

Talks the Chrome DevTools Protocol over --remote-debugging-pipe (file descriptors 3 and 4,
NUL-separated JSON), so it needs nothing beyond the Python standard library. It loads the
page, checks the script runs without errors, presses real arrow keys and End/Home, checks
after each step that the page shows the expected position (counter, highlighted move,
visible board frame), and saves a PNG after each stage: OUT_PREFIX-1-start.png,
-2-step.png, -3-end.png, -4-back.png. Exits non-zero with a message when a check fails.
"""

import base64
import fcntl
import json
import os
import select
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, exe, width, height):
        self.profile = tempfile.mkdtemp(prefix="crumble-view-chromium-")
        # Pipe ends above fd 10, so that moving them to 3 and 4 in the child cannot clobber
        # one another.
        to_r, to_w = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in os.pipe()]
        from_r, from_w = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in os.pipe()]

        def child():
            os.dup2(to_r, 3)
            os.dup2(from_w, 4)

        self.log = open(os.path.join(self.profile, "chromium.log"), "wb")
        self.proc = subprocess.Popen(
            [
                exe,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile,
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=self.log,
            preexec_fn=child,
            pass_fds=(3, 4),
        )
        os.close(to_r)
        os.close(from_w)
        self.w, self.r = to_w, from_r
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self.read(timeout)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def read(self, timeout):
        deadline = time.time() + timeout
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe (see its log in " + self.profile + ")")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self.read(max(0.1, deadline - time.time())))

    def open(self, url, width, height):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        att = self.send(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True},
            session=False,
        )
        self.session = att["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def key(self, key, code, vk):
        for kind in ("keyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk},
            )

    def shot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        print("screenshot", path)

    def errors(self):
        return [e for e in self.events if e.get("method") == "Runtime.exceptionThrown"]

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


KEYS = {
    "ArrowRight": ("ArrowRight", 39),
    "ArrowLeft": ("ArrowLeft", 37),
    "End": ("End", 35),
    "Home": ("Home", 36),
}

STATE = """(function () {
  var on = document.querySelectorAll('#board g.ply.on');
  var cur = document.querySelectorAll('#moves .mv.cur');
  return {
    counter: document.getElementById('counter').textContent,
    frames: on.length,
    frame: on.length ? on[0].id : null,
    cur: cur.length ? +cur[0].dataset.ply : null,
    slider: +document.getElementById('slider').value,
    status: document.getElementById('status-text').textContent,
    n: +document.getElementById('slider').max
  };
})()"""


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    exe, page, prefix = args[:3]
    width, height, steps = 1280, 860, 7
    rest = args[3:]
    while rest:
        if rest[0] == "--size":
            width, height = map(int, rest[1].split("x"))
        elif rest[0] == "--steps":
            steps = int(rest[1])
        else:
            sys.exit("unknown option " + rest[0])
        rest = rest[2:]

    b = Browser(exe, width, height)
    failures = []

    def check(want_ply, stage):
        s = b.eval(STATE)
        n = s["n"]
        want = f"{want_ply} / {n}"
        ok = (
            s["counter"] == want
            and s["frames"] == 1
            and s["frame"] == f"ply-{want_ply}"
            and s["slider"] == want_ply
            and s["cur"] == (want_ply if want_ply > 0 else None)
        )
        print(f"{stage}: {s['counter']}, frame {s['frame']}, move {s['cur']}: {s['status']}")
        if not ok:
            failures.append(f"{stage}: expected position {want_ply}, page shows {s}")
        return n

    try:
        b.open("file://" + os.path.abspath(page), width, height)
        time.sleep(0.3)
        n = check(0, "start")
        b.shot(prefix + "-1-start.png")
        k = min(steps, n)
        for _ in range(k):
            b.key("ArrowRight", *KEYS["ArrowRight"])
        check(k, f"{k} x ArrowRight")
        b.shot(prefix + "-2-step.png")
        b.key("End", *KEYS["End"])
        check(n, "End")
        b.shot(prefix + "-3-end.png")
        back = min(3, n)
        for _ in range(back):
            b.key("ArrowLeft", *KEYS["ArrowLeft"])
        check(n - back, f"{back} x ArrowLeft")
        b.shot(prefix + "-4-back.png")
        b.key("Home", *KEYS["Home"])
        check(0, "Home")
        for e in b.errors():
            failures.append("script error: " + json.dumps(e["params"])[:400])
    finally:
        b.close()
    if failures:
        for f in failures:
            print("FAIL", f, file=sys.stderr)
        sys.exit(1)
    print("ok", page)


if __name__ == "__main__":
    main()
