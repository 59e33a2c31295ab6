#!/usr/bin/env python3
"""Memory in real time (issue 42): peak RSS and frames dropped playing
1080p and 4K H.264 and HEVC in real time, Marquee beside mpv with its
defaults, interleaved repetitions (the order rotated each time), video and
sound to null outputs. Nothing asserts; it prints a table and writes
bench/out/memory.json.

    bash bench/run --memory [--reps 5] [--clips h264-1080p,hevc-1080p,h264-2160p,hevc-2160p] [--budget]

--budget adds one more Marquee run of each clip with its memory read from
/proc/PID/smaps_rollup every 20 ms, split at the peak into what maps files
(the binary and its libraries) and anonymous memory, and one of a tiny
clip for the anonymous memory that is not pictures (160x96); the pictures on
Marquee's side are the limit of its pipeline at 30 fps on a 60 Hz output
(the one on screen, the presenter's next, one queued), the decoder's the
rest. It prints the memory budget table of docs/benchmarks.md.

mpv's drops are its `frame-drop-count` (frames the video output dropped to
keep up) plus `decoder-frame-drop-count` (frames the decoder skipped), read
from its status line at the end.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

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


def run_split(marquee, path, duration):
    """Peak RSS of one run, split at the peak into file-backed and anonymous MB."""
    child = subprocess.Popen([marquee, "play", *bench.NULL_OUTPUTS, path], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = (0, 0)
    deadline = time.monotonic() + duration * 4
    while child.poll() is None and time.monotonic() < deadline:
        try:
            with open(f"/proc/{child.pid}/smaps_rollup") as handle:
                fields = dict(re.findall(r"^(\w+):\s+(\d+) kB", handle.read(), re.M))
            rss, anonymous = int(fields["Rss"]), int(fields["Anonymous"])
            if rss > peak[0]:
                peak = (rss, anonymous)
        except (OSError, KeyError):
            pass
        time.sleep(0.02)
    child.kill()
    child.wait()
    rss, anonymous = peak
    return {"peak_mb": rss / 1024, "files_mb": (rss - anonymous) / 1024, "anonymous_mb": anonymous / 1024}


# Pictures in Marquee's pipeline at 30 fps on a 60 Hz output: on screen, the presenter's next, one queued.
PIPELINE_PICTURES = 3


def budget(marquee, clips):
    """The memory budget table: binary and libraries, pictures, the rest."""
    # Pictures of 160x96 are 23 KB: what such a run holds anonymously is the rest.
    base_clip = bench.encode_clip("h264-96p", 160, 96, ["-c:v", "libx264", "-preset", "veryfast"], bench.DURATION,
                                  gop=2 * bench.FPS)
    rest = run_split(marquee, base_clip["path"], base_clip["duration"])["anonymous_mb"]
    rows = []
    print()
    print("| clip | binary and libraries | Marquee's pictures | the decoder's pictures and buffers | everything else | peak RSS |")
    print("|---|---|---|---|---|---|")
    for name, info in clips.items():
        split = run_split(marquee, info["path"], info["duration"])
        picture = info["width"] * info["height"] * 1.5 / 2**20
        ours = PIPELINE_PICTURES * picture
        decoder = split["anonymous_mb"] - rest - ours
        rows.append({"clip": name, **split, "picture_mb": picture, "pipeline_mb": ours, "decoder_mb": decoder, "rest_mb": rest})
        print(f"| {name} | {split['files_mb']:.0f} MB | {ours:.0f} MB ({PIPELINE_PICTURES} x {picture:.1f}) "
              f"| {decoder:.0f} MB (about {decoder / picture:.1f} pictures) | {rest:.0f} MB | {split['peak_mb']:.0f} MB |")
    return rows


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
    parser.add_argument("--budget", action="store_true", help="also split Marquee's peak into its parts")
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
    budget_rows = budget(args.marquee, clips) if args.budget else None
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "memory.json"), "w") as handle:
        json.dump({"reps": args.reps, "rows": rows, "budget": budget_rows}, handle, indent=2)


if __name__ == "__main__":
    main()
