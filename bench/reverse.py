#!/usr/bin/env python3
"""Peak memory and time of playing backwards (issue 22): `marquee play
--rate -1 --untimed` beside mpv's `--play-dir=backward` (its own reverse
play: it caches decoded frames of a GOP, up to `--video-reversal-buffer`),
and each player forwards for reference, on generated 1080p and 720p H.264
clips with 2 s GOPs (50 frames: a 1080p GOP is 155 MB decoded, more than
Marquee's 96 MiB window, so it is decoded in pieces). Peak RSS from
wait4's rusage, medians over interleaved repetitions; null outputs, no sound.

    bash bench/run --reverse [--reps N]

Benchmark only: nothing fails on a figure.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

BENCH = os.path.dirname(os.path.abspath(__file__))


def clip(folder, width, height):
    path = os.path.join(folder, f"reverse-{height}p-2s-gop.mp4")
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                        f"testsrc2=size={width}x{height}:rate=25:duration=20", "-c:v", "libx264", "-preset", "veryfast",
                        "-g", "50", "-bf", "2", "-pix_fmt", "yuv420p", path], check=True)
    return path


def run(command):
    """Seconds and peak RSS (MB) of one run."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return seconds, usage.ru_maxrss / 1024


def commands(marquee, path):
    mpv = ["mpv", "--no-config", "--really-quiet", "--vo=null", "--ao=null", "--untimed", "--no-audio"]
    return {
        "marquee backwards": [marquee, "play", path, "--untimed", "--rate", "-1", "--video-out", "null", "--no-audio"],
        "mpv backwards": mpv + ["--play-dir=backward", path],
        "marquee forwards": [marquee, "play", path, "--untimed", "--video-out", "null", "--no-audio"],
        "mpv forwards": mpv + [path],
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    out = os.path.join(BENCH, "out")
    folder = os.path.join(out, "clips")
    os.makedirs(folder, exist_ok=True)
    results = {}
    for name, (width, height) in (("1080p", (1920, 1080)), ("720p", (1280, 720))):
        path = clip(folder, width, height)
        runs = {key: [] for key in commands(args.marquee, path)}
        for _ in range(args.reps):
            for key, command in commands(args.marquee, path).items():
                runs[key].append(run(command))
        results[name] = {key: {"seconds": statistics.median(r[0] for r in values), "peak_mb": statistics.median(r[1] for r in values)}
                         for key, values in runs.items()}
    with open(os.path.join(out, "reverse.json"), "w") as file:
        json.dump(results, file, indent=2)
    print("| clip | player | backwards peak (MB) | forwards peak (MB) | backwards (s) | forwards (s) |")
    print("|---|---|---|---|---|---|")
    for name, row in results.items():
        for player in ("marquee", "mpv"):
            back, forth = row[f"{player} backwards"], row[f"{player} forwards"]
            print(f"| {name} | {player} | {back['peak_mb']:.0f} | {forth['peak_mb']:.0f} | {back['seconds']:.2f} | {forth['seconds']:.2f} |")
        ratio = row["marquee backwards"]["peak_mb"] / row["mpv backwards"]["peak_mb"]
        print(f"| {name} | marquee / mpv backwards | {ratio:.2f} | | "
              f"{row['marquee backwards']['seconds'] / row['mpv backwards']['seconds']:.2f} | |")


if __name__ == "__main__":
    main()
