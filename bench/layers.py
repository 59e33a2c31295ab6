#!/usr/bin/env python3
"""CPU per frame of a two-zone layout, its video layer on an overlay plane
and composed in software, beside one full-screen player (issue 38).

Runs in the QEMU board on vkms (the one display here with overlay planes;
the board must be built: board/qemu-x86_64/build). One boot measures, in
turn (A B C, B C A, ...) and `--reps` times:

  full-screen  `marquee play` of the clip alone (the single-player path: the
               clip on an overlay plane where the driver positions it)
  planes       the clip in a 640x360 zone and a picture in another
               (`[[layer]]`), the video layer on an overlay plane of its own
  software     the same layout with `--plane primary`: every layer composed
               into the primary plane's buffer, only where it changed

The clip is 640x360 25 fps H.264 (the zone's size, so no layer scales).
How CPU and frames are counted: bench/boardcpu.py. Nothing here asserts;
it prints a table and writes bench/out/layers.json.

  python3 bench/layers.py [--reps 3]
"""

import argparse
import os
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boardcpu import HTTP, ffmpeg, measure  # noqa: E402

LAYOUT = f"""[playback]
loop = "playlist"
{HTTP}
[[layer]]
name = "video"
rect = [64, 80, 640, 360]
items = ["clip.mp4"]

[[layer]]
name = "offers"
rect = [736, 80, 256, 192]
items = [{{ path = "offer.png", duration = 3600 }}]
"""

ALONE = f"""[playback]
playlist = ["clip.mp4"]
loop = "playlist"
{HTTP}"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    share = tempfile.mkdtemp(prefix="bench-layers-")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=20", "-c:v", "libx264", "-pix_fmt", "yuv420p",
           os.path.join(share, "clip.mp4"))
    ffmpeg("-f", "lavfi", "-i", "smptebars=size=256x192", "-frames:v", "1", os.path.join(share, "offer.png"))
    with open(os.path.join(share, "layout.toml"), "w") as f:
        f.write(LAYOUT)
    with open(os.path.join(share, "alone.toml"), "w") as f:
        f.write(ALONE)
    measure("layers", share, {"full-screen": ("alone.toml", ""), "planes": ("layout.toml", ""),
                              "software": ("layout.toml", "--plane primary")}, "vkms", args.reps)


if __name__ == "__main__":
    main()
