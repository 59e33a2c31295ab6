#!/usr/bin/env python3
"""Milliseconds per thumbnail (issue 22): `marquee thumbnail` at the default
tolerance (the keyframe at or before the time) and with --exact (the frame
on screen at it), beside `ffmpeg -ss T -i F -frames:v 1` (ffmpeg's fast
seek: the first frame at or after the keyframe before T), on a 1080p H.264
file of ../shared/media and a generated 720p clip with 2 s GOPs. Each run is
one process writing one PNG, so start-up is in every figure alike; the same
seeded times for all three, interleaved, medians over the repetitions.

    bash bench/run --thumbnails [--reps N]

Benchmark only: nothing fails on a figure.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(BENCH, "..", "..", "shared", "media", "androidx", "long_1080p_lowbitrate.mp4")


def duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                         check=True, capture_output=True, text=True).stdout
    return float(out.strip())


def clip(folder):
    path = os.path.join(folder, "thumbnails-720p-2s-gop.mp4")
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        "testsrc2=size=1280x720:rate=25:duration=60", "-c:v", "libx264", "-preset", "veryfast",
                        "-g", "50", "-pix_fmt", "yuv420p", path], check=True)
    return path


def timed(command):
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.monotonic() - start) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--reps", type=int, default=10, help="times per file (each a seeded random time)")
    args = parser.parse_args()
    out = os.path.join(BENCH, "out")
    os.makedirs(out, exist_ok=True)
    files = [("720p, 2 s GOPs (generated)", clip(os.path.join(out, "clips") if os.path.isdir(os.path.join(out, "clips")) else out))]
    if os.path.exists(SHARED):
        files.insert(0, ("1080p H.264 (long_1080p_lowbitrate.mp4)", os.path.abspath(SHARED)))
    results = {}
    work = tempfile.mkdtemp(prefix="thumbnails-")
    png = os.path.join(work, "t.png")
    generator = random.Random(22)
    for name, path in files:
        length = duration(path)
        runs = {"marquee keyframe": [], "marquee exact": [], "ffmpeg -ss": []}
        for _ in range(args.reps):
            at = f"{generator.uniform(0, length - 1):.3f}"
            runs["marquee keyframe"].append(timed([args.marquee, "thumbnail", path, "--at", at, "-o", png]))
            runs["marquee exact"].append(timed([args.marquee, "thumbnail", path, "--at", at, "--exact", "-o", png]))
            runs["ffmpeg -ss"].append(timed(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-ss", at, "-i", path,
                                             "-frames:v", "1", png]))
        results[name] = {key: statistics.median(values) for key, values in runs.items()}
    with open(os.path.join(out, "thumbnails.json"), "w") as file:
        json.dump(results, file, indent=2)
    print("| file | marquee keyframe (ms) | marquee exact (ms) | ffmpeg -ss (ms) | keyframe / ffmpeg | exact / ffmpeg |")
    print("|---|---|---|---|---|---|")
    for name, row in results.items():
        key, exact, ffmpeg = row["marquee keyframe"], row["marquee exact"], row["ffmpeg -ss"]
        print(f"| {name} | {key:.0f} | {exact:.0f} | {ffmpeg:.0f} | {key / ffmpeg:.2f} | {exact / ffmpeg:.2f} |")


if __name__ == "__main__":
    main()
