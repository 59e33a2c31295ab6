#!/usr/bin/env python3
"""CPU per frame of a 1080p clip with captions, beside mpv showing the same
SRT (issue 39). A 1920x1080 25 fps H.264 clip with a caption up all the
time (a new two-line cue every 2 s, an SRT file beside it), played in real
time to null outputs that take XRGB8888 pictures, as a KMS plane without
YUV scanout does:

  marquee               `--video-out null:xrgb8888`, [captions] show = false
  marquee, captions     the same with the SRT found beside the clip (libass,
                        drawn into the converted picture)
  mpv                   `--vo=null --vf=format=bgr0`
  mpv, captions         `--vo=null --vf=sub,format=bgr0 --sub-file=...`
                        (mpv's libass rendered into the video in software)

CPU over seconds 5-25 of each process from /proc (bench/stills.py),
divided by the 500 frames of that window; the rows interleaved and
repeated. Nothing asserts; it prints a table and writes bench/out/captions.json.

    bash bench/run --captions [--reps 3]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stills import measure  # noqa: E402

WINDOW = 20  # seconds 5-25, as bench/stills.py measures
FRAMES = 25 * WINDOW


def make(clips):
    os.makedirs(clips, exist_ok=True)
    clip = os.path.join(clips, "captions-1080p.mp4")
    srt = os.path.join(clips, "captions-1080p.srt")
    if not os.path.exists(clip):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=size=1920x1080:rate=25:duration=40", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip], check=True)
    with open(srt, "w") as f:
        for n in range(20):
            f.write(f"{n + 1}\n00:00:{2 * n:02d},000 --> 00:00:{2 * n + 2:02d},000\n"
                    f"Caption number {n + 1}, a line of the usual length\nand a second one under it\n\n")
    return clip, srt


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
    clip, srt = make(os.path.join(out, "clips"))
    off = os.path.join(out, "captions-off.toml")
    with open(off, "w") as f:
        f.write("[captions]\nshow = false\n")
    null = ["--video-out", "null:xrgb8888", "--audio-out", "null"]
    mpv = ["mpv", "--no-config", "--vo=null", "--ao=null", "--no-audio"]
    commands = {
        "marquee": [args.marquee, "play", clip, "--config", off] + null,
        "marquee, captions": [args.marquee, "play", clip] + null,
        "mpv": mpv + ["--vf=format=bgr0", clip],
        "mpv, captions": mpv + ["--vf=sub,format=bgr0", f"--sub-file={srt}", clip],
    }
    runs = {name: [] for name in commands}
    for rep in range(args.reps):
        names = list(commands)
        for name in names[rep % len(names):] + names[:rep % len(names)]:
            # measure() is % of a core over its 20 s window.
            runs[name].append(measure(commands[name]) / 100 * WINDOW / FRAMES * 1000)
    ms = {name: statistics.median(values) for name, values in runs.items()}
    print("| what | CPU per frame (ms, median of %d) |" % args.reps)
    print("|---|---|")
    for name, value in ms.items():
        print(f"| {name} | {value:.2f} |")
    added = ms["marquee, captions"] - ms["marquee"], ms["mpv, captions"] - ms["mpv"]
    print(f"\ncaptions add {added[0]:.2f} ms per frame to marquee, {added[1]:.2f} to mpv; "
          f"marquee with captions / mpv with captions: {ms['marquee, captions'] / ms['mpv, captions']:.2f}")
    with open(os.path.join(out, "captions.json"), "w") as results:
        json.dump({"ms_per_frame": ms, "runs": runs}, results, indent=1)


if __name__ == "__main__":
    sys.exit(main())
