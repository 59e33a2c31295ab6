#!/usr/bin/env python3
"""Memory in real time (issue 42): peak RSS and frames dropped playing
1080p and 4K H.264 and HEVC in real time, Marquee beside mpv with its
defaults, interleaved repetitions (the order rotated each time), video and
sound to null outputs. Nothing asserts; it prints a table and writes
bench/out/memory.json.

    bash bench/run --memory [--reps 5] [--clips h264-1080p,hevc-1080p,h264-2160p,hevc-2160p]

mpv's drops are its `frame-drop-count` (frames the video output dropped to
keep up) plus `decoder-frame-drop-count` (frames the decoder skipped), read
from its status line at the end.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (clips, measuring, summaries, metadata)
from bench import OUT, SCRATCH, log, measure, ratio, rotated, summary  # noqa: E402

# 4K clips are 10 s: x265 encodes them at a few frames a second here, once.
UHD = {
    "h264-2160p": (3840, 2160, ["-c:v", "libx264", "-preset", "veryfast", "-b:v", "20M", "-maxrate", "20M", "-bufsize", "40M"]),
    "hevc-2160p": (3840, 2160, ["-c:v", "libx265", "-preset", "superfast", "-b:v", "12M", "-tag:v", "hvc1",
                                "-x265-params", "log-level=error:vbv-maxrate=12000:vbv-bufsize=24000"]),
}
UHD_SECONDS = 10
DEFAULT_CLIPS = ("h264-1080p", "hevc-1080p", "h264-2160p", "hevc-2160p")
MPV_STATUS = "MQDROPS ${frame-drop-count} ${decoder-frame-drop-count}"


def clip(name):
    if name in UHD:
        width, height, video = UHD[name]
        return bench.encode_clip(name, width, height, video, UHD_SECONDS, gop=2 * bench.FPS)
    width, height, video = bench.CLIP_RECIPES[name]
    return bench.encode_clip(name, width, height, video, bench.DURATION, gop=2 * bench.FPS)


def run_marquee(marquee, path, duration):
    stats_path = os.path.join(SCRATCH, "memory-stats.json")
    run = measure([marquee, "play", *bench.NULL_OUTPUTS, path, "--stats", stats_path], timeout=duration * 4)
    with open(stats_path) as handle:
        stats = json.load(handle)
    return run.rss_mb, stats["framesDropped"], stats["framesPresented"]


def run_mpv(path, duration):
    run = measure(["mpv", "--no-config", "--vo=null", "--ao=null", "--msg-level=all=error,statusline=status",
                   f"--term-status-msg={MPV_STATUS}", path], timeout=duration * 4)
    counts = re.findall(r"MQDROPS (\d+) (\d+)", run.output)
    drops = sum(int(n) for n in counts[-1]) if counts else None
    return run.rss_mb, drops, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--clips", default=",".join(DEFAULT_CLIPS))
    args = parser.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    clips = {name: clip(name) for name in args.clips.split(",")}
    samples = {name: {"marquee": [], "mpv": []} for name in clips}
    for rep in range(args.reps):
        for name in rotated(list(clips), rep):
            info = clips[name]
            log(f"  {name} ({info['duration']:.0f} s), repetition {rep + 1}/{args.reps}")
            for player in rotated(["marquee", "mpv"], rep):
                if player == "marquee":
                    samples[name][player].append(run_marquee(args.marquee, info["path"], info["duration"]))
                else:
                    samples[name][player].append(run_mpv(info["path"], info["duration"]))
    rows = []
    print(f"{'clip':12} {'marquee peak RSS, MB':>24} {'mpv peak RSS, MB':>22} {'x mpv':>6}  drops marquee / mpv (each run)")
    for name, players in samples.items():
        row = {"clip": name}
        for player, runs in players.items():
            row[player] = {"peak_rss_mb": summary([r[0] for r in runs]), "dropped": [r[1] for r in runs]}
        row["rss_ratio_marquee_mpv"] = ratio(row["marquee"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"])
        rows.append(row)
        m, v = row["marquee"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"]
        print(f"{name:12} {m['median']:8.1f} [{m['min']:.1f}-{m['max']:.1f}]{'':6} {v['median']:8.1f} [{v['min']:.1f}-{v['max']:.1f}]"
              f"{'':4} {row['rss_ratio_marquee_mpv']:5.2f}  {row['marquee']['dropped']} / {row['mpv']['dropped']}")
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "memory.json"), "w") as handle:
        json.dump({"reps": args.reps, "rows": rows}, handle, indent=2)


if __name__ == "__main__":
    main()
