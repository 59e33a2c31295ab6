#!/usr/bin/env python3
"""Marquee on the slim FFmpeg (board/ffmpeg, issue 23) beside Marquee on
Debian's libav*, ffmpeg and mpv. Run through `bash bench/run --footprint`.

For each player: peak RSS and CPU per frame untimed (bench.py's clips, 2
decoder threads, video and audio to null outputs), time to first frame
(real time, null outputs, after a warm-up), peak RSS, CPU and frames dropped
playing h264-1080p in real time, peak RSS of `--version` (what loading the
program costs), and the shared libraries mapped while playing: how many,
their bytes on disk, and the bytes of the libav* among them (what a board
installs for FFmpeg). Runs are interleaved and rotated as in bench.py; the
two Marquee builds are the same commit, so their ratio is the rebuild's.
Nothing here asserts.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (clips, measuring, summaries, metadata)
from bench import OUT, SCRATCH, log, measure, ratio, rotated, summary  # noqa: E402

PLAYERS = ("slim", "marquee", "mpv", "ffmpeg")
UNTIMED_CLIPS = bench.THROUGHPUT_CLIPS
THREADS = 2
REALTIME_CLIP = bench.REALTIME_CLIP
NULL_OUTPUTS = bench.NULL_OUTPUTS
MPV = ["mpv", "--no-config", "--vo=null", "--ao=null"]
LIBAV = ("libavcodec", "libavformat", "libavutil", "libavfilter", "libswscale", "libswresample")
# Long enough for every player to have loaded what it plays with (the
# decoders' threads, the audio path), short of the clip's end.
MAPS_AFTER_S = 3.0


class Players:
    def __init__(self, slim, marquee):
        self.binaries = {"slim": slim, "marquee": marquee}
        self.env = dict(os.environ)
        self.env.pop("MARQUEE_REPORT_FIRST_FRAME", None)

    def untimed(self, player, clip, stats_path):
        path = clip["path"]
        if player in self.binaries:
            return [self.binaries[player], "play", path, "--untimed", "--threads", str(THREADS), "--stats", stats_path,
                    *NULL_OUTPUTS]
        if player == "mpv":
            return [*MPV, "--ao-null-untimed", "--untimed", f"--vd-lavc-threads={THREADS}", "--really-quiet", path]
        return ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-threads", str(THREADS), "-i", path,
                "-f", "null", "-"]

    def realtime(self, player, clip, stats_path):
        if player in self.binaries:
            return [self.binaries[player], "play", *NULL_OUTPUTS, clip["path"], "--stats", stats_path]
        return [*MPV, "--really-quiet", clip["path"]]

    def first_frame(self, player, clip):
        if player in self.binaries:
            env = dict(self.env, MARQUEE_REPORT_FIRST_FRAME="1")
            return [self.binaries[player], "play", *NULL_OUTPUTS, clip["path"]], bench.FIRST_FRAME_MARKER, env
        return ([*MPV, f"--term-playing-msg={bench.MPV_MARKER.decode()}", clip["path"]], bench.MPV_MARKER, self.env)

    def version(self, player):
        if player in self.binaries:
            return [self.binaries[player], "--version"]
        return [player, "--version"] if player == "mpv" else ["ffmpeg", "-hide_banner", "-version"]


def bench_untimed(players, clips, reps):
    samples = {}
    stats_path = os.path.join(SCRATCH, "footprint-stats.json")
    for rep in range(reps):
        log(f"  untimed, repetition {rep + 1}/{reps}")
        for clip_name in UNTIMED_CLIPS:
            for player in rotated(PLAYERS, rep):
                run = measure(players.untimed(player, clips[clip_name], stats_path), env=players.env)
                samples.setdefault((clip_name, player), []).append(run)
                if player in players.binaries:
                    with open(stats_path) as handle:
                        presented = json.load(handle)["framesPresented"]
                    if presented != clips[clip_name]["frames"]:
                        log(f"    warning: {player} presented {presented} of {clips[clip_name]['frames']} frames")
    rows = []
    for clip_name in UNTIMED_CLIPS:
        frames = clips[clip_name]["frames"]
        row = {"clip": clip_name, "threads": THREADS, "frames": frames}
        for player in PLAYERS:
            runs = samples[(clip_name, player)]
            row[player] = {"cpu_ms_per_frame": summary([r.cpu * 1000 / frames for r in runs]),
                           "peak_rss_mb": summary([r.rss_mb for r in runs])}
        row["cpu_slim_marquee"] = ratio(row["slim"]["cpu_ms_per_frame"], row["marquee"]["cpu_ms_per_frame"])
        # Each repetition's slim / Debian ratio: the two ran close together.
        row["cpu_slim_marquee_by_rep"] = summary([s.cpu / m.cpu for s, m in zip(samples[(clip_name, "slim")],
                                                                                  samples[(clip_name, "marquee")])])
        row["rss_slim_mpv"] = ratio(row["slim"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"])
        row["rss_marquee_mpv"] = ratio(row["marquee"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"])
        rows.append(row)
    return rows


def bench_first_frame(players, clips, reps):
    return bench.first_frame_rows(["slim", "marquee", "mpv"], UNTIMED_CLIPS, reps,
                                  lambda clip_name, player: players.first_frame(player, clips[clip_name]),
                                  {"slim_mpv": ("slim", "mpv"), "marquee_mpv": ("marquee", "mpv")})


def bench_realtime(players, clips, reps):
    clip = clips[REALTIME_CLIP]
    names = ("slim", "marquee", "mpv")
    samples, dropped = {}, {}
    stats_path = os.path.join(SCRATCH, "footprint-realtime-stats.json")
    for rep in range(reps):
        log(f"  real-time {REALTIME_CLIP}, repetition {rep + 1}/{reps}")
        for player in rotated(names, rep):
            run = measure(players.realtime(player, clip, stats_path), env=players.env, timeout=clip["duration"] * 4)
            samples.setdefault(player, []).append(run)
            if player in players.binaries:
                with open(stats_path) as handle:
                    dropped.setdefault(player, []).append(json.load(handle)["framesDropped"])
    row = {"clip": REALTIME_CLIP}
    for player in names:
        runs = samples[player]
        row[player] = {"cpu_percent": summary([r.cpu / r.wall * 100 for r in runs]),
                       "peak_rss_mb": summary([r.rss_mb for r in runs]),
                       "frames_dropped": dropped.get(player)}
    row["rss_slim_mpv"] = ratio(row["slim"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"])
    row["rss_marquee_mpv"] = ratio(row["marquee"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"])
    return row


def mapped_libraries(command, env):
    """The shared libraries a running player has mapped MAPS_AFTER_S seconds in."""
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env)
    try:
        time.sleep(MAPS_AFTER_S)
        with open(f"/proc/{child.pid}/maps") as handle:
            paths = {line.split(None, 5)[5].strip() for line in handle if len(line.split(None, 5)) == 6}
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait()
    return sorted(path for path in paths if ".so" in os.path.basename(path) and os.path.exists(path))


def bench_libraries(players, clips):
    clip = clips[REALTIME_CLIP]
    stats_path = os.path.join(SCRATCH, "footprint-maps-stats.json")
    rows = {}
    for player in PLAYERS:
        if player == "ffmpeg":
            command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-i", clip["path"], "-f", "null", "-"]
        else:
            command = players.realtime(player, clip, stats_path)
        libraries = mapped_libraries(command, players.env)
        libav = [path for path in libraries if os.path.basename(path).startswith(LIBAV)]
        version = measure(players.version(player), env=players.env)
        rows[player] = {"libraries": len(libraries), "library_mb": sum(os.path.getsize(p) for p in libraries) / 1e6,
                        "libav_mb": sum(os.path.getsize(p) for p in libav) / 1e6, "libav_paths": libav,
                        "version_peak_rss_mb": version.rss_mb}
    return rows


def report(results):
    fmt, fr = bench.fmt, bench.fr
    lines = [f"Footprint: marquee on the slim FFmpeg (slim) beside marquee on Debian's libav* (marquee), mpv and "
             f"ffmpeg; {results['meta']['date']}, marquee {results['meta']['marquee_revision']}, "
             f"{results['meta']['reps']} repetitions; median [min-max]"]
    if "untimed" in results:
        lines += ["", f"Untimed, {THREADS} decoder threads, video+audio to null outputs: peak RSS, MB",
                  f"{'clip':<11}  {'slim':<20} {'marquee':<20} {'mpv':<20} {'ffmpeg':<20} {'S/mpv':>5} {'M/mpv':>5}"]
        for row in results["untimed"]:
            lines.append(f"{row['clip']:<11}  " + " ".join(f"{fmt(row[p]['peak_rss_mb'], 1):<20}" for p in PLAYERS)
                         + f" {fr(row['rss_slim_mpv']):>5} {fr(row['rss_marquee_mpv']):>5}")
        lines += ["", "Untimed: CPU ms per frame (user+sys); S/M by medians, and [min-max] of each repetition's S/M",
                  f"{'clip':<11}  {'slim':<20} {'marquee':<20} {'mpv':<20} {'ffmpeg':<20} {'S/M':>5}  S/M by repetition"]
        for row in results["untimed"]:
            lines.append(f"{row['clip']:<11}  " + " ".join(f"{fmt(row[p]['cpu_ms_per_frame']):<20}" for p in PLAYERS)
                         + f" {fr(row['cpu_slim_marquee']):>5}  {fmt(row['cpu_slim_marquee_by_rep'])}")
    if "first_frame" in results:
        lines += ["", "Time to first frame from process start, real time, null outputs, ms",
                  f"{'clip':<11}  {'slim':<20} {'marquee':<20} {'mpv':<20} {'S/mpv':>5} {'M/mpv':>5}"]
        for row in results["first_frame"]:
            lines.append(f"{row['clip']:<11}  " + " ".join(f"{fmt(row[p]['ms'], 1):<20}" for p in ("slim", "marquee", "mpv"))
                         + f" {fr(row['slim_mpv']):>5} {fr(row['marquee_mpv']):>5}")
    if "realtime" in results:
        row = results["realtime"]
        names = ("slim", "marquee", "mpv")
        lines += ["", f"Real time, {row['clip']}, whole run",
                  f"{'':<16} {'slim':<20} {'marquee':<20} {'mpv':<20} {'S/mpv':>5} {'M/mpv':>5}",
                  f"{'peak RSS, MB':<16} " + " ".join(f"{fmt(row[p]['peak_rss_mb'], 1):<20}" for p in names)
                  + f" {fr(row['rss_slim_mpv']):>5} {fr(row['rss_marquee_mpv']):>5}",
                  f"{'CPU %':<16} " + " ".join(f"{fmt(row[p]['cpu_percent'], 1):<20}" for p in names),
                  f"{'frames dropped':<16} {str(row['slim']['frames_dropped']):<20} "
                  f"{str(row['marquee']['frames_dropped']):<20}"]
    if "libraries" in results:
        libraries = results["libraries"]
        lines += ["", f"Libraries mapped {MAPS_AFTER_S:.0f} s into playing {REALTIME_CLIP}; peak RSS of --version",
                  f"{'':<26} " + " ".join(f"{p:>10}" for p in PLAYERS)]
        for key, title, digits in (("libraries", "libraries", 0), ("library_mb", "their bytes on disk, MB", 1),
                                   ("libav_mb", "libav* among them, MB", 1),
                                   ("version_peak_rss_mb", "--version peak RSS, MB", 1)):
            lines.append(f"{title:<26} " + " ".join(f"{libraries[p][key]:>10.{digits}f}" for p in PLAYERS))
    text = "\n".join(lines)
    print(text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slim", required=True, help="marquee built against board/ffmpeg/build's prefix")
    parser.add_argument("--marquee", required=True, help="marquee built against Debian's libav*")
    parser.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "5")))
    parser.add_argument("--only", default="untimed,first-frame,realtime,libraries")
    parser.add_argument("--json", default=os.path.join(OUT, "footprint.json"))
    args = parser.parse_args()
    only = set(args.only.split(","))
    os.makedirs(SCRATCH, exist_ok=True)
    revision, cpu = bench.revision_and_cpu()
    results = {"meta": {"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "marquee_revision": revision, "cpu": cpu,
                        "cores": os.cpu_count(), "reps": args.reps,
                        "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg())}}
    started = time.monotonic()
    clips = bench.make_clips()
    players = Players(args.slim, args.marquee)
    if "libraries" in only:
        log("footprint: libraries")
        results["libraries"] = bench_libraries(players, clips)
    if "untimed" in only:
        log("footprint: untimed")
        results["untimed"] = bench_untimed(players, clips, args.reps)
    if "first-frame" in only:
        log("footprint: time to first frame")
        results["first_frame"] = bench_first_frame(players, clips, args.reps)
    if "realtime" in only:
        log("footprint: real time")
        results["realtime"] = bench_realtime(players, clips, args.reps)
    results["meta"]["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results["meta"]["bench_seconds"] = round(time.monotonic() - started)
    results["table"] = report(results)
    bench.write_results(results, args.json, "footprint")


if __name__ == "__main__":
    main()
