#!/usr/bin/env python3
"""Marquee side by side with ffmpeg and mpv (issue 9). Run through bench/run.

Every figure comes from a child process measured here: CPU time (user + sys)
and peak RSS from wait4()'s rusage, wall time from CLOCK_MONOTONIC around the
child. Runs of the tools being compared are interleaved (A B C A B C ..., the
order rotated each repetition) so that load from anything else on the machine
spreads over all of them. Nothing here asserts: it prints a table, writes
bench/out/results.json, and says which targets a run met.

Standard library only.
"""

import argparse
import hashlib
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
CLIPS = os.path.join(OUT, "clips")
SCRATCH = os.path.join(OUT, "scratch")

DURATION = 20  # seconds, every throughput clip
FPS = 30
LOOP_DURATION = 2  # seconds, the loop-seam clip (20 passes = 40 s of real time)
LOOP_PASSES = 20

# Source picture: libavfilter's test card with a moving element, plus light
# temporal grain so that the encoders spend their bitrate the way they do on
# camera footage (without grain the card compresses to almost nothing and
# decoding it says little). Audio: a 440 Hz tone, AAC 48 kHz stereo 128 kb/s.
GRAIN = "noise=alls=6:allf=t"

# name -> (width, height, video encoder arguments). Bitrates are typical of
# streaming/signage files at each size; presets are the fast ones so that
# making the clips stays short on 2 cores (decoding cost depends on the
# stream's tools and bitrate, which these presets keep realistic: CABAC,
# B-frames, in-loop filters all on).
CLIP_RECIPES = {
    "h264-360p": (640, 360, ["-c:v", "libx264", "-preset", "veryfast", "-b:v", "1M", "-maxrate", "1M", "-bufsize", "2M"]),
    "h264-720p": (1280, 720, ["-c:v", "libx264", "-preset", "veryfast", "-b:v", "3M", "-maxrate", "3M", "-bufsize", "6M"]),
    "h264-1080p": (1920, 1080, ["-c:v", "libx264", "-preset", "veryfast", "-b:v", "6M", "-maxrate", "6M", "-bufsize", "12M"]),
    "hevc-1080p": (1920, 1080, ["-c:v", "libx265", "-preset", "superfast", "-b:v", "4M", "-tag:v", "hvc1",
                                "-x265-params", "log-level=error:vbv-maxrate=4000:vbv-bufsize=8000"]),
    "vp9-720p": (1280, 720, ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
                             "-b:v", "2M", "-maxrate", "2M", "-bufsize", "4M"]),
    "av1-720p": (1280, 720, ["-c:v", "libsvtav1", "-preset", "10", "-b:v", "1500k", "-svtav1-params", "tbr=1500"]),
}
THROUGHPUT_CLIPS = list(CLIP_RECIPES)
LOOP_CLIP = "loop-h264-720p-2s"
REALTIME_CLIP = "h264-1080p"

TOOLS_PLAIN = ("marquee", "ffmpeg", "mpv")
# Explicit, because marquee defaults to KMS and ALSA where a card exists.
NULL_OUTPUTS = ["--video-out", "null", "--audio-out", "null"]
TOOLS_XRGB = ("marquee", "ffmpeg")


# ---------------------------------------------------------------- helpers


def log(message):
    print(message, file=sys.stderr, flush=True)


def clip_path(name, recipe_key):
    digest = hashlib.sha1(json.dumps(recipe_key, sort_keys=True).encode()).hexdigest()[:10]
    return os.path.join(CLIPS, f"{name}-{digest}.mp4")


def make_clips():
    """Generates the clips once; they are cached under bench/out/clips by recipe."""
    os.makedirs(CLIPS, exist_ok=True)
    clips = {}
    recipes = dict(CLIP_RECIPES)
    for name, (width, height, video) in recipes.items():
        clips[name] = encode_clip(name, width, height, video, DURATION, gop=2 * FPS)
    # The loop clip: 2 s of 720p H.264 (one GOP). 720p rather than 1080p so
    # that a loaded 2-core machine still decodes it in real time with room to
    # spare: a gap at the seam should come from the player's looping, not
    # from frames dropped because the CPU was busy elsewhere.
    width, height, video = CLIP_RECIPES["h264-720p"]
    clips[LOOP_CLIP] = encode_clip(LOOP_CLIP, width, height, video, LOOP_DURATION, gop=LOOP_DURATION * FPS)
    return clips


def encode_clip(name, width, height, video_args, duration, gop):
    audio = ["-c:a", "aac", "-b:a", "128k", "-ac", "2"]  # MP4 for every codec, VP9 and AV1 included
    recipe = {"w": width, "h": height, "v": video_args, "a": audio, "d": duration, "fps": FPS, "gop": gop,
              "grain": GRAIN, "version": 2}
    path = clip_path(name, recipe)
    info_path = path + ".json"
    if not (os.path.exists(path) and os.path.exists(info_path)):
        log(f"  making {name} ({width}x{height}, {duration} s) ...")
        started = time.monotonic()
        partial = path + ".partial." + path.rsplit(".", 1)[1]
        command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                   "-f", "lavfi", "-i", f"testsrc2=size={width}x{height}:rate={FPS}:duration={duration},{GRAIN}",
                   "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration={duration}",
                   *video_args, "-g", str(gop), "-pix_fmt", "yuv420p", *audio, "-shortest", partial]
        subprocess.run(command, check=True, env={**os.environ, "SVT_LOG": "1"})
        os.replace(partial, path)
        info = probe(path)
        with open(info_path, "w") as handle:
            json.dump(info, handle)
        log(f"    {time.monotonic() - started:.0f} s")
    with open(info_path) as handle:
        info = json.load(handle)
    info["path"] = path
    info["name"] = name
    return info


def probe(path):
    """Frame count (decoded, not from the header), frame rate, codec and bitrate."""
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                          "-show_entries", "stream=codec_name,width,height,r_frame_rate,nb_read_frames",
                          "-show_entries", "format=bit_rate,duration", "-of", "json", path],
                         check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    stream = data["streams"][0]
    num, den = (int(x) for x in stream["r_frame_rate"].split("/"))
    return {"codec": stream["codec_name"], "width": stream["width"], "height": stream["height"],
            "fps": num / den, "frames": int(stream["nb_read_frames"]),
            "duration": float(data["format"]["duration"]), "bitrate_kbps": int(data["format"]["bit_rate"]) // 1000}


class Run:
    """One child process: wall time, CPU time and peak RSS from wait4."""

    def __init__(self, wall, user, system, maxrss_kb, status, output):
        self.wall = wall
        self.user = user
        self.system = system
        self.cpu = user + system
        self.rss_mb = maxrss_kb / 1024
        self.status = status
        self.output = output


def measure(command, env=None, timeout=600):
    """Runs `command` to the end, output to a file (so a chatty child never blocks on a pipe)."""
    with tempfile.TemporaryFile() as output:
        started = time.monotonic()
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                                 env=env)
        timer = threading.Timer(timeout, lambda: os.kill(child.pid, signal.SIGKILL))
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read().decode(errors="replace")
    run = Run(wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss, child.returncode, text)
    if run.status != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {run.status}:\n{text[-2000:]}")
    return run


def time_to_marker(command, marker, env=None, timeout=30):
    """Seconds from just before the child is spawned to the moment `marker`
    appears on its stdout/stderr (read through a pipe, in chunks: mpv writes
    status lines ended by \\r). The child is then stopped with SIGTERM."""
    started = time.monotonic()
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             env=env)
    timer = threading.Timer(timeout, lambda: os.kill(child.pid, signal.SIGKILL))
    timer.start()
    seen = b""
    found = None
    fd = child.stdout.fileno()
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            seen += chunk
            if marker in seen:
                found = time.monotonic() - started
                break
        os.kill(child.pid, signal.SIGTERM)
        while os.read(fd, 65536):
            pass
        _, status, _ = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    finally:
        timer.cancel()
        child.stdout.close()
    if found is None:
        raise RuntimeError(f"{' '.join(command)}: no {marker!r} in its output:\n{seen[-2000:].decode(errors='replace')}")
    return found, seen.decode(errors="replace")


def summary(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values),
            "values": values}


def ratio(a, b):
    if not a or not b or not b["median"]:
        return None
    return a["median"] / b["median"]


def rotated(items, shift):
    shift %= len(items)
    return list(items[shift:]) + list(items[:shift])


# ---------------------------------------------------------------- commands


class Tools:
    def __init__(self, marquee):
        self.marquee = marquee
        self.env = dict(os.environ)
        self.env.pop("MARQUEE_REPORT_FIRST_FRAME", None)

    def throughput(self, tool, clip, threads, xrgb, stats_path):
        path = clip["path"]
        if tool == "marquee":
            return [self.marquee, "play", path, "--untimed", "--threads", str(threads), "--stats", stats_path,
                    "--video-out", "null:xrgb8888" if xrgb else "null", "--audio-out", "null"]
        if tool == "ffmpeg":
            command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-threads", str(threads), "-i", path]
            if xrgb:
                command += ["-pix_fmt", "bgr0"]
            return command + ["-f", "null", "-"]
        if tool == "mpv":
            assert not xrgb
            return ["mpv", "--no-config", "--vo=null", "--ao=null", "--ao-null-untimed", "--untimed",
                    f"--vd-lavc-threads={threads}", "--really-quiet", path]
        raise ValueError(tool)


# ---------------------------------------------------------------- benchmarks


def bench_throughput(tools, clips, reps, xrgb):
    kind = "xrgb" if xrgb else "plain"
    names = TOOLS_XRGB if xrgb else TOOLS_PLAIN
    samples = {}  # (clip, threads, tool) -> [Run]
    checks = {}
    stats_path = os.path.join(SCRATCH, "throughput-stats.json")
    for rep in range(reps):
        log(f"  {kind} throughput, repetition {rep + 1}/{reps}")
        for clip_name in THROUGHPUT_CLIPS:
            clip = clips[clip_name]
            for threads in (1, 2):
                for tool in rotated(names, rep):
                    run = measure(tools.throughput(tool, clip, threads, xrgb, stats_path), env=tools.env)
                    samples.setdefault((clip_name, threads, tool), []).append(run)
                    if tool == "marquee":
                        with open(stats_path) as handle:
                            stats = json.load(handle)
                        checks[(clip_name, threads)] = {"framesPresented": stats["framesPresented"],
                                                        "framesDropped": stats["framesDropped"],
                                                        "decoder": stats.get("decoder")}
                        if stats["framesPresented"] != clip["frames"]:
                            log(f"    warning: marquee presented {stats['framesPresented']} of {clip['frames']} frames"
                                f" of {clip_name}")
    rows = []
    for clip_name in THROUGHPUT_CLIPS:
        clip = clips[clip_name]
        for threads in (1, 2):
            row = {"clip": clip_name, "threads": threads, "frames": clip["frames"],
                   "marquee_check": checks.get((clip_name, threads))}
            for tool in names:
                runs = samples[(clip_name, threads, tool)]
                row[tool] = {
                    "cpu_ms_per_frame": summary([r.cpu * 1000 / clip["frames"] for r in runs]),
                    "peak_rss_mb": summary([r.rss_mb for r in runs]),
                    "wall_s": summary([r.wall for r in runs]),
                }
            row["cpu_ratio_marquee_ffmpeg"] = ratio(row["marquee"]["cpu_ms_per_frame"], row["ffmpeg"]["cpu_ms_per_frame"])
            row["rss_ratio_marquee_ffmpeg"] = ratio(row["marquee"]["peak_rss_mb"], row["ffmpeg"]["peak_rss_mb"])
            if "mpv" in names:
                row["cpu_ratio_marquee_mpv"] = ratio(row["marquee"]["cpu_ms_per_frame"], row["mpv"]["cpu_ms_per_frame"])
                row["rss_ratio_marquee_mpv"] = ratio(row["marquee"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"])
            rows.append(row)
    return rows


FIRST_FRAME_MARKER = b"marquee: first frame "
MPV_MARKER = b"BENCH-FIRST-FRAME"
MPV_LEAN = ["--osc=no", "--ytdl=no", "--load-scripts=no", "--load-stats-overlay=no", "--load-osd-console=no",
            "--load-auto-profiles=no", "--input-default-bindings=no", "--input-terminal=no"]


def first_frame_rows(names, clip_names, reps, command_for, ratios):
    """A row a clip: milliseconds to the first frame of each player, runs
    interleaved and rotated, and each ratio of medians named in `ratios`
    ({key: (player, over player)}); command_for(clip, name) gives (command,
    marker, env)."""
    # One warm-up per clip and player so that every process starts with the
    # libraries and the file in the page cache (a kiosk's second boot).
    for clip_name in clip_names:
        for name in names:
            command, marker, env = command_for(clip_name, name)
            time_to_marker(command, marker, env=env)
    samples = {}
    for rep in range(reps):
        log(f"  time to first frame, repetition {rep + 1}/{reps}")
        for clip_name in clip_names:
            for name in rotated(names, rep):
                command, marker, env = command_for(clip_name, name)
                seconds, _ = time_to_marker(command, marker, env=env)
                samples.setdefault((clip_name, name), []).append(seconds * 1000)
    rows = []
    for clip_name in clip_names:
        row = {"clip": clip_name}
        for name in names:
            row[name] = {"ms": summary(samples[(clip_name, name)])}
        for key, (name, other) in ratios.items():
            row[key] = ratio(row[name]["ms"], row[other]["ms"])
        rows.append(row)
    return rows


def bench_first_frame(tools, clips, reps):
    """Process start to first picture, real-time playback on the null outputs."""
    env = dict(tools.env)
    env["MARQUEE_REPORT_FIRST_FRAME"] = "1"
    variants = {
        "marquee": ([tools.marquee, "play", *NULL_OUTPUTS, "{clip}"], FIRST_FRAME_MARKER, env),
        "mpv": (["mpv", "--no-config", "--vo=null", "--ao=null", f"--term-playing-msg={MPV_MARKER.decode()}", "{clip}"],
                MPV_MARKER, tools.env),
        "mpv-lean": (["mpv", "--no-config", "--vo=null", "--ao=null", *MPV_LEAN,
                      f"--term-playing-msg={MPV_MARKER.decode()}", "{clip}"], MPV_MARKER, tools.env),
    }
    def command_for(clip_name, name):
        command, marker, run_env = variants[name]
        return [c.replace("{clip}", clips[clip_name]["path"]) for c in command], marker, run_env

    return first_frame_rows(list(variants), THROUGHPUT_CLIPS, reps, command_for,
                            {"ratio_marquee_mpv": ("marquee", "mpv"), "ratio_marquee_mpv_lean": ("marquee", "mpv-lean")})


def mpv_seams(stats_file, frames_per_pass, frame_interval_ms):
    """Seam gaps from mpv's --dump-stats: the times of "start video-flip" (the
    moment mpv's VO, having waited for the frame's due time, hands the frame
    to the display). A frame's number is its flip's index plus the frames the
    VO dropped before it ("drop-vo"), so the seam after pass k lies between
    frame k*N-1 and k*N (N frames a pass). The gap is the longest hold within
    two frames of there beyond one frame interval, which is how Marquee's
    seams[].gapMs is defined (extra time a picture stayed up)."""
    flips = []  # (time ms, frame number)
    drops = 0
    with open(stats_file) as handle:
        for line in handle:
            parts = line.split(" ", 1)
            if len(parts) != 2:
                continue
            event = parts[1].strip()
            if event == "start video-flip":
                flips.append((int(parts[0]) / 1000.0, len(flips) + drops))
            elif event == "drop-vo":
                drops += 1
    # interval i: from flip i to flip i+1, attributed to the frame number of flip i+1
    intervals = [(b[0] - a[0], b[1]) for a, b in zip(flips, flips[1:])]
    gaps = []
    near_seam = set()
    passes = (flips[-1][1] + 1) // frames_per_pass if flips else 0
    for k in range(1, passes + 1):
        first_of_pass = k * frames_per_pass
        window = [(i, length) for i, (length, number) in enumerate(intervals) if abs(number - first_of_pass) <= 2]
        if not window or all(number < first_of_pass for _, number in intervals[-1:]):
            continue
        near_seam.update(i for i, _ in window)
        gaps.append(max(0.0, max(length for _, length in window) - frame_interval_ms))
    steady = [length for i, (length, _) in enumerate(intervals) if i not in near_seam]
    return gaps, {"flips": len(flips), "drops": drops,
                  "steady_interval_ms_median": statistics.median(steady) if steady else None,
                  "steady_interval_ms_max": max(steady) if steady else None}


def marquee_log_seams(log_path, frames_per_pass, fps, frame_interval_ms):
    """Seam gaps from marquee's --presentation-log, found by the pictures
    themselves: a frame's place in the clip is its item time in frames,
    modulo the pass length (so a frame filed under the wrong pass still
    counts where it belongs), and the loop point is where that place goes
    back (59 -> 0). The gap is the interval there beyond one frame interval:
    the same definition as for mpv."""
    records = []
    with open(log_path) as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                records.append((record["displayTime"] * 1000, round(record["pts"] * fps) % frames_per_pass,
                                record["pass"], round(record["pts"] * fps)))
    gaps = []
    misfiled = 0
    for (t0, place0, _, _), (t1, place1, _, _) in zip(records, records[1:]):
        if place1 < place0:
            gaps.append(max(0.0, t1 - t0 - frame_interval_ms))
    # Frames whose item time is outside the clip: filed under the next pass.
    misfiled = sum(1 for _, _, _, frame in records if frame < 0 or frame >= frames_per_pass)
    return gaps, {"logged_frames": len(records), "frames_filed_outside_their_pass": misfiled}


def marquee_supports_presentation_log(marquee):
    usage = subprocess.run([marquee, "--help"], capture_output=True, text=True)
    return "--presentation-log" in usage.stdout + usage.stderr


def bench_loop_seam(tools, clips, reps):
    clip = clips[LOOP_CLIP]
    frame_ms = 1000 / clip["fps"]
    names = ["marquee", "mpv"]
    with_log = marquee_supports_presentation_log(tools.marquee)
    samples = {"marquee": [], "marquee_display": [], "mpv": []}
    details = {"marquee": [], "mpv": []}
    stats_path = os.path.join(SCRATCH, "seam-stats.json")
    log_path = os.path.join(SCRATCH, "seam-presentation.jsonl")
    dump_path = os.path.join(SCRATCH, "mpv-seam-stats.txt")
    for rep in range(reps):
        log(f"  loop seam ({LOOP_PASSES} passes of {LOOP_DURATION} s, real time), repetition {rep + 1}/{reps}")
        for tool in rotated(names, rep):
            if tool == "marquee":
                command = [tools.marquee, "play", *NULL_OUTPUTS, clip["path"], "--loop", "item",
                           "--loops", str(LOOP_PASSES), "--stats", stats_path]
                if with_log:
                    command += ["--presentation-log", log_path]
                measure(command, env=tools.env, timeout=LOOP_PASSES * LOOP_DURATION * 3)
                with open(stats_path) as handle:
                    stats = json.load(handle)
                gaps = [seam["gapMs"] for seam in stats["seams"]]
                detail = {"seams": len(gaps), "framesPresented": stats["framesPresented"],
                          "framesDropped": stats["framesDropped"]}
                if with_log:
                    display_gaps, info = marquee_log_seams(log_path, clip["frames"], clip["fps"], frame_ms)
                    samples["marquee_display"].extend(display_gaps)
                    detail.update(info, display_seams=len(display_gaps))
                details["marquee"].append(detail)
            else:
                if os.path.exists(dump_path):
                    os.remove(dump_path)
                # --loop-file=N plays N+1 passes, each seam taken exactly as
                # with --loop-file=inf; a count lets mpv end by itself.
                measure(["mpv", "--no-config", "--vo=null", "--ao=null", f"--loop-file={LOOP_PASSES - 1}",
                         f"--dump-stats={dump_path}", "--really-quiet", clip["path"]],
                        env=tools.env, timeout=LOOP_PASSES * LOOP_DURATION * 3)
                gaps, info = mpv_seams(dump_path, clip["frames"], frame_ms)
                details["mpv"].append({"seams": len(gaps), **info})
            samples[tool].extend(gaps)
    row = {"clip": LOOP_CLIP, "passes": LOOP_PASSES, "frame_interval_ms": frame_ms, "runs": reps,
           "details": details}
    row["marquee"] = {"gap_ms": summary(samples["marquee"])}
    row["marquee_display"] = {"gap_ms": summary(samples["marquee_display"])}
    row["mpv"] = {"gap_ms": summary(samples["mpv"])}
    row["ratio_marquee_mpv"] = ratio(row["marquee"]["gap_ms"], row["mpv"]["gap_ms"])
    return row


def bench_realtime(tools, clips, reps):
    clip = clips[REALTIME_CLIP]
    samples = {"marquee": [], "mpv": []}
    for rep in range(reps):
        log(f"  real-time {REALTIME_CLIP} ({clip['duration']:.0f} s), repetition {rep + 1}/{reps}")
        for tool in rotated(["marquee", "mpv"], rep):
            if tool == "marquee":
                command = [tools.marquee, "play", *NULL_OUTPUTS, clip["path"]]
            else:
                command = ["mpv", "--no-config", "--vo=null", "--ao=null", "--really-quiet", clip["path"]]
            samples[tool].append(measure(command, env=tools.env, timeout=clip["duration"] * 4))
    row = {"clip": REALTIME_CLIP}
    for tool, runs in samples.items():
        row[tool] = {"cpu_percent": summary([r.cpu / r.wall * 100 for r in runs]),
                     "peak_rss_mb": summary([r.rss_mb for r in runs]),
                     "wall_s": summary([r.wall for r in runs])}
    row["cpu_ratio_marquee_mpv"] = ratio(row["marquee"]["cpu_percent"], row["mpv"]["cpu_percent"])
    row["rss_ratio_marquee_mpv"] = ratio(row["marquee"]["peak_rss_mb"], row["mpv"]["peak_rss_mb"])
    return row


# ---------------------------------------------------------------- report


def fmt(s, digits=2):
    if not s:
        return "-"
    return f"{s['median']:.{digits}f} [{s['min']:.{digits}f}-{s['max']:.{digits}f}]"


def fr(value):
    return "-" if value is None else f"{value:.2f}"


def targets(results):
    out = []
    for row in results.get("throughput", []):
        r = row["cpu_ratio_marquee_ffmpeg"]
        out.append({"target": "CPU/frame <= 1.05 x ffmpeg decode-only", "case": f"{row['clip']} {row['threads']}t",
                    "value": r, "limit": 1.05, "met": r is not None and r <= 1.05})
    rss_rows = [(f"untimed {row['clip']} {row['threads']}t", row["rss_ratio_marquee_mpv"])
                for row in results.get("throughput", [])]
    if "realtime" in results:
        rss_rows.append((f"real-time {results['realtime']['clip']}", results["realtime"]["rss_ratio_marquee_mpv"]))
    for case, r in rss_rows:
        out.append({"target": "peak RSS <= 0.6 x mpv", "case": case, "value": r, "limit": 0.6,
                    "met": r is not None and r <= 0.6})
    for row in results.get("first_frame", []):
        r = row["ratio_marquee_mpv"]
        out.append({"target": "time to first frame <= 0.5 x mpv", "case": row["clip"], "value": r, "limit": 0.5,
                    "met": r is not None and r <= 0.5})
    seam = results.get("loop_seam")
    if seam:
        frame = seam["frame_interval_ms"]
        mine = seam["marquee"]["gap_ms"]
        theirs = seam["mpv"]["gap_ms"]
        applies = theirs is not None and theirs["max"] > frame
        out.append({"target": "loop seam gap <= one frame interval (where mpv's is larger)",
                    "case": f"{seam['clip']}, worst of {mine['n'] if mine else 0} seams (--stats)",
                    "value": mine["max"] if mine else None, "limit": frame,
                    "met": mine is not None and mine["max"] <= frame,
                    "applies": applies})
    return out


def print_report(results):
    lines = []
    meta = results["meta"]
    lines.append(f"Marquee benchmarks  {meta['date']}  marquee {meta['marquee_revision']}  "
                 f"{meta['ffmpeg']}  {meta['mpv']}")
    lines.append(f"{meta['cpu']}, {meta['cores']} cores; load average before/after: "
                 f"{meta['load_before']} / {meta.get('load_after', '-')}; {meta['reps']} repetitions; "
                 "median [min-max]")
    for kind, title in (("throughput", "Throughput, untimed, video+audio to null outputs: CPU ms per frame (user+sys)"),
                        ("throughput_xrgb", "Throughput with conversion to XRGB8888: CPU ms per frame (user+sys)")):
        if kind not in results:
            continue
        lines.append("")
        lines.append(title)
        has_mpv = kind == "throughput"
        header = f"{'clip':<11} {'thr':>3}  {'marquee':<20} {'ffmpeg':<20} " + (f"{'mpv':<20} " if has_mpv else "") + \
            f"{'M/ff':>5} " + (f"{'M/mpv':>5}" if has_mpv else "")
        lines.append(header)
        for row in results[kind]:
            line = f"{row['clip']:<11} {row['threads']:>3}  {fmt(row['marquee']['cpu_ms_per_frame']):<20} " \
                   f"{fmt(row['ffmpeg']['cpu_ms_per_frame']):<20} "
            if has_mpv:
                line += f"{fmt(row['mpv']['cpu_ms_per_frame']):<20} "
            line += f"{fr(row['cpu_ratio_marquee_ffmpeg']):>5} "
            if has_mpv:
                line += f"{fr(row['cpu_ratio_marquee_mpv']):>5}"
            lines.append(line)
        lines.append("")
        lines.append(title.split(":")[0] + ": peak RSS, MB")
        lines.append(header)
        for row in results[kind]:
            line = f"{row['clip']:<11} {row['threads']:>3}  {fmt(row['marquee']['peak_rss_mb'], 1):<20} " \
                   f"{fmt(row['ffmpeg']['peak_rss_mb'], 1):<20} "
            if has_mpv:
                line += f"{fmt(row['mpv']['peak_rss_mb'], 1):<20} "
            line += f"{fr(row['rss_ratio_marquee_ffmpeg']):>5} "
            if has_mpv:
                line += f"{fr(row['rss_ratio_marquee_mpv']):>5}"
            lines.append(line)
    if "first_frame" in results:
        lines.append("")
        lines.append("Time to first frame from process start, real-time playback, ms")
        lines.append(f"{'clip':<11}      {'marquee':<20} {'mpv':<20} {'mpv (lean)':<20} {'M/mpv':>5} {'M/lean':>6}")
        for row in results["first_frame"]:
            lines.append(f"{row['clip']:<11}      {fmt(row['marquee']['ms'], 1):<20} {fmt(row['mpv']['ms'], 1):<20} "
                         f"{fmt(row['mpv-lean']['ms'], 1):<20} {fr(row['ratio_marquee_mpv']):>5} "
                         f"{fr(row['ratio_marquee_mpv_lean']):>6}")
    if "loop_seam" in results:
        seam = results["loop_seam"]
        lines.append("")
        lines.append(f"Loop seam, {seam['clip']}, {seam['passes']} passes x {seam['runs']} runs, real time: "
                     f"gap beyond the frame's own {seam['frame_interval_ms']:.1f} ms, ms")
        lines.append(f"{'':<16} {'marquee':<24} {'mpv':<24} {'M/mpv':>5}")
        lines.append(f"{'gap':<16} {fmt(seam['marquee']['gap_ms'], 1):<24} {fmt(seam['mpv']['gap_ms'], 1):<24} "
                     f"{fr(seam['ratio_marquee_mpv']):>5}   (marquee: --stats seams[].gapMs)")
        if seam["marquee_display"]["gap_ms"]:
            lines.append(f"{'gap, by picture':<16} {fmt(seam['marquee_display']['gap_ms'], 1):<24} "
                         f"{'(same as above)':<24} {fr(ratio(seam['marquee_display']['gap_ms'], seam['mpv']['gap_ms'])):>5}"
                         "   (marquee: --presentation-log, at the frame where the clip restarts)")
        dropped_m = sum(d["framesDropped"] for d in seam["details"]["marquee"])
        dropped_v = sum(d["drops"] for d in seam["details"]["mpv"])
        lines.append(f"{'frames dropped':<16} {dropped_m:<24} {dropped_v:<24} (all runs; drops mean the CPU fell behind)")
    if "realtime" in results:
        row = results["realtime"]
        lines.append("")
        lines.append(f"Real-time playback, {row['clip']}, whole run")
        lines.append(f"{'':<16} {'marquee':<24} {'mpv':<24} {'M/mpv':>5}")
        lines.append(f"{'CPU %':<16} {fmt(row['marquee']['cpu_percent'], 1):<24} {fmt(row['mpv']['cpu_percent'], 1):<24} "
                     f"{fr(row['cpu_ratio_marquee_mpv']):>5}")
        lines.append(f"{'peak RSS, MB':<16} {fmt(row['marquee']['peak_rss_mb'], 1):<24} "
                     f"{fmt(row['mpv']['peak_rss_mb'], 1):<24} {fr(row['rss_ratio_marquee_mpv']):>5}")
    lines.append("")
    lines.append("Targets (ratios from this run)")
    for t in results["targets"]:
        status = "met" if t["met"] else "MISSED"
        if t.get("applies") is False:
            status += " (mpv's gap is within one frame here, so the target does not bind)"
        value = "-" if t["value"] is None else f"{t['value']:.2f}"
        lines.append(f"  {status:<7} {t['target']:<42} {t['case']:<34} {value} (limit {t['limit']:.2f})")
    text = "\n".join(lines)
    print(text)
    return text


# ---------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marquee", default=os.path.join(ROOT, ".build", "release", "marquee"))
    parser.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "3")))
    parser.add_argument("--only", default=os.environ.get("BENCH_ONLY", "throughput,xrgb,first-frame,seam,realtime"),
                        help="comma-separated: throughput, xrgb, first-frame, seam, realtime")
    parser.add_argument("--json", default=os.path.join(OUT, "results.json"))
    args = parser.parse_args()
    only = set(args.only.split(","))
    os.makedirs(SCRATCH, exist_ok=True)
    for tool in ("ffmpeg", "ffprobe", "mpv"):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} not found (bench/run installs it)")
    if not os.access(args.marquee, os.X_OK):
        sys.exit(f"bench: {args.marquee} not found (bench/run builds it)")

    revision, cpu = revision_and_cpu()
    results = {"meta": {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "marquee_revision": revision,
        "ffmpeg": subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.split("\n")[0].split(" Copyright")[0],
        "mpv": subprocess.run(["mpv", "--version"], capture_output=True, text=True).stdout.split("\n")[0].split(" Copyright")[0],
        "cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "reps": args.reps,
        "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }}
    started = time.monotonic()
    log("bench: clips")
    clips = make_clips()
    results["clips"] = {name: {k: v for k, v in info.items()} for name, info in clips.items()}
    tools = Tools(args.marquee)
    if "throughput" in only:
        log("bench: throughput")
        results["throughput"] = bench_throughput(tools, clips, args.reps, xrgb=False)
    if "xrgb" in only:
        log("bench: throughput with XRGB8888 conversion")
        results["throughput_xrgb"] = bench_throughput(tools, clips, args.reps, xrgb=True)
    if "first-frame" in only:
        log("bench: time to first frame")
        results["first_frame"] = bench_first_frame(tools, clips, max(args.reps, 5))
    if "seam" in only:
        log("bench: loop seam")
        results["loop_seam"] = bench_loop_seam(tools, clips, args.reps)
    if "realtime" in only:
        log("bench: real-time playback")
        results["realtime"] = bench_realtime(tools, clips, args.reps)
    results["meta"]["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results["meta"]["bench_seconds"] = round(time.monotonic() - started)
    results["targets"] = targets(results)
    results["table"] = print_report(results)
    write_results(results, args.json, "bench")


def revision_and_cpu():
    """This tree's `git describe` and the CPU's model name, for a run's metadata."""
    revision = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                              text=True).stdout.strip() or "unknown"
    cpu = "unknown"
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return revision, cpu


def write_results(results, path, name):
    """The run's results as JSON at `path`, and one line saying where."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as handle:
        json.dump(results, handle, indent=2)
    log(f"{name}: {results['meta']['bench_seconds']} s; results in {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    main()
