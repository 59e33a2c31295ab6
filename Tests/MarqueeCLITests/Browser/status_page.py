"""Drives the status part of a running player's page in headless Chromium
(devtools.py): loads the page, waits until it shows the item playing and
the screenshot, clicks Pause, and keeps a screenshot of the page. Prints
one JSON object of what it saw, with every console message and uncaught
exception; the Swift test asserts on it.

usage: status_page.py URL ITEM_TEXT SCREENSHOT_PATH
"""
import json
import sys
import time

from devtools import Browser

url, item_text, screenshot_path = sys.argv[1:4]
browser = Browser()
result = {}
try:
    browser.open(url)
    result["showsItemAndScreen"] = browser.wait_for(f"""document.getElementById('item').textContent.includes({json.dumps(item_text)})
        && document.getElementById('screen').naturalWidth > 0""")
    result["item"] = browser.evaluate("document.getElementById('item').textContent")
    result["screenWidth"] = browser.evaluate("document.getElementById('screen').naturalWidth")
    browser.evaluate("document.getElementById('pause').click()")
    time.sleep(1.5)
    result["stateShown"] = browser.evaluate("document.getElementById('state').textContent")
    browser.screenshot(screenshot_path)
finally:
    result.update(browser.findings())
    browser.close()
print(json.dumps(result))
