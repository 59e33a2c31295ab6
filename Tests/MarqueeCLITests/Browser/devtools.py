"""Headless Chromium driven over the DevTools protocol
(--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4, no network
port, no library beyond Python's own), for the browser tests of the
player's page: one tab, calls and evaluations in it, and every console
message, uncaught exception and log entry it produced.
"""
import json
import os
import subprocess
import tempfile
import time


class Browser:
    def __init__(self, width=412, height=1200):
        self.profile = tempfile.mkdtemp(prefix="marquee-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        os.set_inheritable(to_browser_read, True)
        os.set_inheritable(from_browser_write, True)
        # The browser reads fd 3 and writes fd 4: move the pipe ends there in the child.
        self.process = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", f"--user-data-dir={self.profile}",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: (os.dup2(to_browser_read, 3), os.dup2(from_browser_write, 4)))
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.pending = b""
        self.events = []
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self, deadline):
        while b"\0" not in self.pending:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\0", 1)
        return json.loads(line)

    def call(self, method, params=None, in_tab=True, timeout=20):
        wanted = self.send(method, params, self.session if in_tab else None)
        deadline = time.time() + timeout
        while True:
            message = self.receive(deadline)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def open(self, url):
        """A new tab on `url`, its Runtime, Log and Page domains on."""
        target = self.call("Target.createTarget", {"url": "about:blank"}, in_tab=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, in_tab=False)["sessionId"]
        for domain in ("Runtime", "Log", "Page", "DOM"):
            self.call(f"{domain}.enable")
        self.call("Page.navigate", {"url": url})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression, timeout=30):
        """True once `expression` is truthy in the page, False at the timeout.
        One that throws (the page still loading) counts as false."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.evaluate(expression):
                    return True
            except RuntimeError:
                pass
            time.sleep(0.25)
        return False

    def screenshot(self, path, width=None):
        """The whole page as PNG; at `width` CSS pixels, as a phone shows it, when given."""
        import base64
        if width:
            height = self.evaluate("document.documentElement.scrollHeight")
            self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        shot = self.call("Page.captureScreenshot", {"format": "png"})
        with open(path, "wb") as file:
            file.write(base64.b64decode(shot["data"]))

    def findings(self):
        """The console messages, exceptions and log entries seen so far."""
        self.call("Runtime.evaluate", {"expression": "1"})  # messages that came while waiting
        seen = {"console": [], "exceptions": [], "logEntries": []}
        for message in self.events:
            method, params = message.get("method"), message.get("params", {})
            if method == "Runtime.consoleAPICalled":
                seen["console"].append({"type": params.get("type"), "text": " ".join(
                    str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))})
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                seen["exceptions"].append(details.get("exception", {}).get("description") or details.get("text"))
            elif method == "Log.entryAdded":
                entry = params.get("entry", {})
                seen["logEntries"].append({"level": entry.get("level"), "text": entry.get("text"), "url": entry.get("url")})
        return seen

    def close(self):
        self.process.kill()
        self.process.wait()
