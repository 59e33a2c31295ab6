"""Drives the management part of a running player's page in headless
Chromium (devtools.py), as a person would:
  - drops VIDEO on the drop zone (a real drag of a file, Input.dispatchDragEvent)
    and picks PICTURE with the file picker (DOM.setFileInputFiles);
  - waits until both are in the media grid with their thumbnails drawn;
  - adds both to the playlist editor (after the entries it already
    holds); gives the picture DURATION seconds; moves it to the top by
    dragging its row (HTML drag events), down a row and back up with its
    arrow buttons; saves;
  - keeps a screenshot of the whole page.
Prints one JSON object of what it saw, with every console message and
uncaught exception; the Swift test asserts on it and on the player.

usage: management_page.py URL VIDEO PICTURE DURATION SCREENSHOT_PATH
"""
import json
import os
import sys

from devtools import Browser

url, video, picture, duration, screenshot_path = sys.argv[1:6]
video_name, picture_name = os.path.basename(video), os.path.basename(picture)
browser = Browser(width=430, height=1400)
result = {}


def card(name):
    return f"document.querySelector('#media .card[data-name=' + {json.dumps(json.dumps(name))} + ']')"


try:
    browser.open(url)
    result["pageReady"] = browser.wait_for("document.getElementById('media') !== null && document.getElementById('editor') !== null")
    result["entriesBefore"] = browser.evaluate("document.querySelectorAll('#editor li').length")

    # A file dragged from the desktop onto the drop zone.
    browser.evaluate("document.getElementById('drop').scrollIntoView()")
    box = browser.evaluate("(() => { const r = document.getElementById('drop').getBoundingClientRect(); "
                           "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
    data = {"items": [], "files": [video], "dragOperationsMask": 1}
    for kind in ("dragEnter", "dragOver", "drop"):
        browser.call("Input.dispatchDragEvent", {"type": kind, "x": box[0], "y": box[1], "data": data})
    # And one chosen with the file picker.
    document = browser.call("DOM.getDocument")["root"]["nodeId"]
    picker = browser.call("DOM.querySelector", {"nodeId": document, "selector": "#picker"})["nodeId"]
    browser.call("DOM.setFileInputFiles", {"nodeId": picker, "files": [picture]})
    browser.evaluate("document.getElementById('picker').dispatchEvent(new Event('change'))")

    result["uploadsShown"] = browser.wait_for(f"{card(video_name)} !== null && {card(picture_name)} !== null", timeout=60)
    result["thumbnailsDrawn"] = browser.wait_for(
        f"[{card(video_name)}, {card(picture_name)}].every(c => c && c.querySelector('img') && c.querySelector('img').naturalWidth > 0)")
    result["uploadsSaid"] = browser.evaluate("Array.from(document.querySelectorAll('#uploads .said')).map(e => e.textContent)")
    result["progress"] = browser.evaluate("Array.from(document.querySelectorAll('#uploads progress')).map(e => e.value)")
    result["cardMeta"] = browser.evaluate(f"{card(video_name)}.querySelector('.meta').textContent")

    browser.evaluate(f"{card(video_name)}.querySelector('button.add').click()")
    browser.evaluate(f"{card(picture_name)}.querySelector('button.add').click()")
    rows = browser.evaluate("document.querySelectorAll('#editor li').length")
    result["entriesAfterAdding"] = rows
    browser.evaluate(f"""(() => {{
        const field = document.querySelectorAll('#editor li')[{rows - 1}].querySelector('input.duration');
        field.value = {json.dumps(duration)};
        field.dispatchEvent(new Event('change'));
    }})()""")
    # The picture's row dragged onto the first row.
    browser.evaluate(f"""(() => {{
        const rows = document.querySelectorAll('#editor li');
        const transfer = new DataTransfer();
        rows[{rows - 1}].dispatchEvent(new DragEvent('dragstart', {{ dataTransfer: transfer, bubbles: true }}));
        rows[0].dispatchEvent(new DragEvent('dragover', {{ dataTransfer: transfer, bubbles: true, cancelable: true }}));
        rows[0].dispatchEvent(new DragEvent('drop', {{ dataTransfer: transfer, bubbles: true, cancelable: true }}));
    }})()""")
    # Down a row and back up with the arrows.
    browser.evaluate("document.querySelectorAll('#editor li')[0].querySelector('button.down').click()")
    result["afterDown"] = browser.evaluate("Array.from(document.querySelectorAll('#editor li .path')).map(e => e.title)")
    browser.evaluate("document.querySelectorAll('#editor li')[1].querySelector('button.up').click()")
    result["editorRows"] = browser.evaluate(
        "Array.from(document.querySelectorAll('#editor li')).map(li => [li.querySelector('.path').title, li.querySelector('input').value])")
    browser.evaluate("document.getElementById('save-playlist').click()")
    result["saved"] = browser.wait_for("document.getElementById('playlist-said').textContent.startsWith('playlist:')")
    result["savedSaid"] = browser.evaluate("document.getElementById('playlist-said').textContent")
    browser.wait_for(f"{card(picture_name)}.querySelector('.used') !== null", timeout=10)
    browser.wait_for("document.getElementById('screen').naturalWidth > 0", timeout=10)
    browser.evaluate("window.scrollTo(0, 0)")
    browser.screenshot(screenshot_path, width=412)
finally:
    result.update(browser.findings())
    browser.close()
print(json.dumps(result))
