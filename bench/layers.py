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
CPU is user + sys of the process over a 10 s window from /proc/PID/stat;
frames are `framesPresented` from the HTTP status at both ends. The guest's
CPUs are emulated (TCG): the ratios between rows are the figure, not the
milliseconds. Nothing here asserts; it prints a table and writes
bench/out/layers.json.

  python3 bench/layers.py [--reps 3]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "board", "qemu-x86_64", "run")
OUT = os.path.join(ROOT, "bench", "out")
WINDOW_S = 10
SETTLE_S = 10  # marquee starts in about 6 s under TCG
PORT = 18080
SETUPS = ("full-screen", "planes", "software")

LAYOUT = f"""[playback]
loop = "playlist"

[controls.http]
listen = "127.0.0.1:{PORT}"

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

[controls.http]
listen = "127.0.0.1:{PORT}"
"""


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def guest_script(order):
    lines = ["""
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
frames() { wget -qO- http://127.0.0.1:%d/status | tr ',' '\\n' | grep -m1 framesPresented | tr -dc 0-9; }
ticks() { awk '{ print $14 + $15 }' /proc/$pid/stat; }
""" % PORT]
    for setup in order:
        config, flags = ("alone.toml", "") if setup == "full-screen" else \
            ("layout.toml", "--plane primary" if setup == "software" else "")
        lines.append(f"""
marquee play --config /mnt/host/{config} --audio-out null {flags} >/dev/null 2>>/mnt/host/errors.txt & pid=$!
sleep {SETTLE_S}
f0=$(frames); t0=$(ticks)
sleep {WINDOW_S}
f1=$(frames); t1=$(ticks)
echo "@@ {setup} frames=$((f1 - f0)) ticks=$((t1 - t0))"
kill -TERM $pid; wait $pid""")
    return "\n".join(lines)


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
    order = [SETUPS[(rep + i) % len(SETUPS)] for rep in range(args.reps) for i in range(len(SETUPS))]
    out = os.path.join(OUT, "layers-board")
    os.makedirs(out, exist_ok=True)
    budget = 60 + len(order) * (SETTLE_S + WINDOW_S + 10)
    proc = subprocess.run([RUN, "--out", out, "--display", "vkms", "--audio", "none", "--share", share,
                           "--timeout", str(budget), "--", guest_script(order)],
                          capture_output=True, text=True, timeout=budget + 60)
    if proc.returncode != 0:
        sys.exit(f"the board run failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    errors_path = os.path.join(share, "errors.txt")
    errors = [line for line in (open(errors_path).read().splitlines() if os.path.exists(errors_path) else [])
              if line.strip() and not line.startswith("marquee: display:")]
    runs = {setup: [] for setup in SETUPS}
    for line in proc.stdout.splitlines():
        if line.startswith("@@ "):
            setup, *fields = line[3:].split()
            values = dict(field.split("=") for field in fields)
            frames, ticks = int(values["frames"] or 0), int(values["ticks"] or 0)
            if frames > 0:
                runs[setup].append({"frames": frames, "ms_per_frame": ticks * 10 / frames})
    base = statistics.median(r["ms_per_frame"] for r in runs["full-screen"]) if runs["full-screen"] else None
    print(f"{'setup':<12} {'frames/10 s':>11} {'CPU ms/frame':>13} {'x full-screen':>14}")
    table = {}
    for setup in SETUPS:
        if not runs[setup]:
            print(f"{setup:<12} {'no run':>11}")
            continue
        median = statistics.median(r["ms_per_frame"] for r in runs[setup])
        frames = statistics.median(r["frames"] for r in runs[setup])
        ratio = median / base if base else float("nan")
        table[setup] = {"runs": runs[setup], "median_ms_per_frame": median, "ratio_to_full_screen": ratio}
        print(f"{setup:<12} {frames:>11.0f} {median:>13.2f} {ratio:>14.2f}")
    if errors:
        print("marquee said:\n  " + "\n  ".join(errors[:10]))
    with open(os.path.join(OUT, "layers.json"), "w") as f:
        json.dump({"reps": args.reps, "window_s": WINDOW_S, "setups": table, "errors": errors}, f, indent=2)


if __name__ == "__main__":
    main()
