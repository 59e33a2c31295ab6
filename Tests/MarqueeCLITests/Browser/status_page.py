"""Drives the status page of a running player in headless Chromium over the
DevTools protocol (--remote-debugging-pipe: NUL-terminated JSON on fds 3 and
4, no network port, no library beyond Python's own): loads the page, waits
until it shows the item playing and the screenshot, collects every console
message and uncaught exception, clicks Pause, and keeps a screenshot of the
page. Prints one JSON object of what it saw; the Swift test asserts on it.

usage: status_page.py URL ITEM_TEXT SCREENSHOT_PATH
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

url, item_text, screenshot_path = sys.argv[1:4]
profile = tempfile.mkdtemp(prefix="marquee-chromium-")
to_browser_read, to_browser_write = os.pipe()
from_browser_read, from_browser_write = os.pipe()
os.set_inheritable(to_browser_read, True)
os.set_inheritable(from_browser_write, True)
# The browser reads fd 3 and writes fd 4: move the pipe ends there in the child.
browser = subprocess.Popen(
    ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
     "--no-first-run", "--no-default-browser-check", f"--user-data-dir={profile}",
     "--window-size=412,1200", "about:blank"],
    pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    preexec_fn=lambda: (os.dup2(to_browser_read, 3), os.dup2(from_browser_write, 4)))
os.close(to_browser_read)
os.close(from_browser_write)

pending = b""
events = []
next_id = 0


def send(method, params=None, session=None):
    global next_id
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_browser_write, json.dumps(message).encode() + b"\0")
    return next_id


def receive(deadline):
    global pending
    while b"\0" not in pending:
        if time.time() > deadline:
            raise TimeoutError("no answer from chromium")
        chunk = os.read(from_browser_read, 1 << 20)
        if not chunk:
            raise EOFError("chromium closed the pipe")
        pending += chunk
    line, pending = pending.split(b"\0", 1)
    return json.loads(line)


def call(method, params=None, session=None, timeout=20):
    wanted = send(method, params, session)
    deadline = time.time() + timeout
    while True:
        message = receive(deadline)
        if message.get("id") == wanted:
            if "error" in message:
                raise RuntimeError(f"{method}: {message['error']}")
            return message.get("result", {})
        events.append(message)


def evaluate(session, expression):
    result = call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session)
    return result.get("result", {}).get("value")


result = {"console": [], "exceptions": [], "logEntries": []}
try:
    target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Runtime", "Log", "Page"):
        call(f"{domain}.enable", session=session)
    call("Page.navigate", {"url": url}, session)
    deadline = time.time() + 30
    shown = False
    while time.time() < deadline:
        shown = evaluate(session, f"""document.getElementById('item').textContent.includes({json.dumps(item_text)})
            && document.getElementById('screen').naturalWidth > 0""")
        if shown:
            break
        time.sleep(0.25)
    result["showsItemAndScreen"] = bool(shown)
    result["item"] = evaluate(session, "document.getElementById('item').textContent")
    result["screenWidth"] = evaluate(session, "document.getElementById('screen').naturalWidth")
    evaluate(session, "document.getElementById('pause').click()")
    time.sleep(1.5)
    result["stateShown"] = evaluate(session, "document.getElementById('state').textContent")
    shot = call("Page.captureScreenshot", {"format": "png"}, session)
    with open(screenshot_path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    # Messages that came while waiting for answers.
    call("Runtime.evaluate", {"expression": "1"}, session)
finally:
    for message in events:
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            result["console"].append({"type": params.get("type"),
                                      "text": " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))})
        elif method == "Runtime.exceptionThrown":
            result["exceptions"].append(params.get("exceptionDetails", {}).get("exception", {}).get("description")
                                        or params.get("exceptionDetails", {}).get("text"))
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            result["logEntries"].append({"level": entry.get("level"), "text": entry.get("text"), "url": entry.get("url")})
    browser.kill()
    browser.wait()
print(json.dumps(result))
