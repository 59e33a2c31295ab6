#!/usr/bin/env python3
"""CPU while a still picture is up (issue 19): marquee shows a 1920x1080
JPEG for 30 s, beside the same marquee playing a 1080p video, and beside
mpv showing the same JPEG (--image-display-duration). Null outputs; each
process's CPU over seconds 5-25 is read from /proc.

Peak memory with a 6000x8000 JPEG (48 megapixels) up: marquee on its
null output, a simulated 1920x1080 screen (the picture is decoded at 1/4
size and scaled to fit), beside mpv on its null output (which decodes it
whole). VmHWM from /proc after 5 s.

    bash bench/run --stills

Benchmark only: nothing fails on a figure.
"""
import argparse
import json
import os
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def make(clips):
    os.makedirs(clips, exist_ok=True)
    large = os.path.join(clips, "still-6000x8000.jpg")
    if not os.path.exists(large):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                        "testsrc2=size=6000x8000:rate=1", "-frames:v", "1", "-q:v", "3", large], check=True)
    picture = os.path.join(clips, "still-1080p.jpg")
    video = os.path.join(clips, "video-1080p-40s.mp4")
    if not os.path.exists(picture):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                        "testsrc2=size=1920x1080:rate=1", "-frames:v", "1", "-q:v", "2", picture], check=True)
    if not os.path.exists(video):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                        "testsrc2=size=1920x1080:rate=30:duration=40", "-c:v", "libx264", "-preset", "veryfast",
                        "-pix_fmt", "yuv420p", video], check=True)
    return picture, video, large


def peak_megabytes(command):
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(5)
    with open(f"/proc/{process.pid}/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    process.kill()
    process.wait()
    return peak / 1024


def measure(command):
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(5)
    start = cpu_seconds(process.pid)
    time.sleep(20)
    end = cpu_seconds(process.pid)
    process.kill()
    process.wait()
    return (end - start) / 20 * 100


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    args = parser.parse_args()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
    picture, video, large = make(os.path.join(out, "clips"))
    null = ["--video-out", "null", "--audio-out", "null"]
    rows = [
        ("marquee, a 1080p JPEG up 30 s", measure([args.marquee, "play", picture, "--image-duration", "30"] + null)),
        ("marquee, a 1080p30 H.264 video", measure([args.marquee, "play", video] + null)),
        ("mpv, the same JPEG up 30 s", measure(["mpv", "--no-config", "--vo=null", "--ao=null",
                                                 "--image-display-duration=30", picture])),
    ]
    print("| what | CPU (% of a core, seconds 5-25) |")
    print("|---|---|")
    for name, cpu in rows:
        print(f"| {name} | {cpu:.2f} |")
    print(f"\nmarquee picture / mpv picture: {rows[0][1] / rows[2][1]:.3f}" if rows[2][1] > 0 else "")
    peaks = [
        ("marquee, a 6000x8000 JPEG on a 1920x1080 screen", peak_megabytes([args.marquee, "play", large, "--image-duration", "30"] + null)),
        ("mpv, the same JPEG", peak_megabytes(["mpv", "--no-config", "--vo=null", "--ao=null", "--image-display-duration=30", large])),
    ]
    print("\n| what | peak resident memory (MB) |")
    print("|---|---|")
    for name, megabytes in peaks:
        print(f"| {name} | {megabytes:.1f} |")
    print(f"\nmarquee / mpv: {peaks[0][1] / peaks[1][1]:.3f}")
    with open(os.path.join(out, "stills.json"), "w") as results:
        json.dump([{"what": name, "cpu_percent": cpu} for name, cpu in rows]
                  + [{"what": name, "peak_mb": megabytes} for name, megabytes in peaks], results, indent=1)


if __name__ == "__main__":
    sys.exit(main())
