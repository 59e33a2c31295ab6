#!/usr/bin/env python3
"""CPU per frame of a 1080p clip alone and with overlays over it (issue 39).

Runs in the QEMU board on vkms (the board must be built:
board/qemu-x86_64/build). One boot measures, in turn and `--reps` times:

  alone          `marquee play` of the clip (the single-player path)
  logo+clock     the clip under a PNG logo and a `%H:%M:%S` clock: the
                 layout path, each overlay on an ARGB8888 plane of its own
  +ticker        the same with a ticker along the bottom (drawn every vblank)
  ...,software  the same two with `--plane primary`: the clip and the
                 overlays blended in software into the primary plane

The clip is 1920x1080 25 fps H.264 on vkms's 1920x1080 mode. How CPU and
frames are counted: bench/boardcpu.py. Nothing here asserts; it prints a
table and writes bench/out/overlays.json.

  python3 bench/overlays.py [--reps 3]
"""

import argparse
import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boardcpu import HTTP, ffmpeg, measure  # noqa: E402

BASE = f"""[playback]
playlist = ["clip.mp4"]
loop = "playlist"
[display]
mode = "1920x1080"
{HTTP}"""

OVERLAYS = """
[[overlay]]
kind = "image"
path = "logo.png"
anchor = "top-left"

[[overlay]]
kind = "clock"
format = "%H:%M:%S"
anchor = "top-right"
size = 56
"""

TICKER = """
[[overlay]]
kind = "ticker"
text = "Breaking: overlays are drawn by libass and blended by the display owner, a ticker every vblank"
anchor = "bottom"
margin = 0
size = 40
box = "#102040"
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    share = tempfile.mkdtemp(prefix="bench-overlays-")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=25:duration=20", "-c:v", "libx264", "-pix_fmt", "yuv420p",
           os.path.join(share, "clip.mp4"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=240x135:rate=1", "-vf",
           "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*X/(W-1)'", "-frames:v", "1", os.path.join(share, "logo.png"))
    for name, text in (("alone.toml", BASE), ("overlays.toml", BASE + OVERLAYS), ("ticker.toml", BASE + OVERLAYS + TICKER)):
        with open(os.path.join(share, name), "w") as f:
            f.write(text)
    measure("overlays", share, {"alone": ("alone.toml", ""), "logo+clock": ("overlays.toml", ""), "+ticker": ("ticker.toml", ""),
                                "logo+clock,software": ("overlays.toml", "--plane primary"),
                                "+ticker,software": ("ticker.toml", "--plane primary")}, "vkms", args.reps)


if __name__ == "__main__":
    main()
