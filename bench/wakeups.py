#!/usr/bin/env python3
"""Wake-ups of an idle and a playing Marquee, against a baseline commit and mpv (issue 13).

A wake-up is a voluntary context switch: a thread that went to sleep (a
condition wait, a poll, a sleep) and was woken again. The count is summed
over every thread of the process from /proc/PID/task/*/status
(voluntary_ctxt_switches), read at the start and the end of a 10 s window:
a thread present at both ends counts its difference, a thread that started
inside the window counts its whole value, and one that ended inside it
counts up to its last sample (the threads are read every 0.5 s). CPU time
is user + sys of the whole process from /proc/PID/stat over the window.

Scenarios, each for the current marquee, a marquee built from a baseline
commit (the commit before the engine rewrite, by default) and mpv, all to
null outputs, interleaved (A B C, B C A, ...) and repeated:

  paused   a 2 s clip, paused 0.3 s in (stdin `pause`; mpv: IPC `pause`)
  end      the last frame held at the end of the playlist (mpv --keep-open)
  between  a pause between two items ([playback] between_items_ms = 30000,
           hold-last-frame; mpv has none: a still image between the clips,
           --image-display-duration=30, is its nearest equivalent)
  playing  a 20 s 720p30 H.264 + AAC clip in real time; also CPU per frame
           (window CPU time / frames the window held at the measured rate)

Each measurement starts 1 s after the state was reached. Standard library
only; clips come from bench/bench.py's recipes (cached in bench/out/clips).
Nothing here asserts: it prints a table, writes bench/out/wakeups.json and
says which of issue 13's targets the current marquee met.

  python3 bench/wakeups.py                       # builds the current tree and the baseline
  python3 bench/wakeups.py --current-bin PATH    # an already built marquee as "current"
  python3 bench/wakeups.py --baseline COMMIT --reps 7 --only paused,playing
"""

import argparse
import json
import os
import platform
import queue
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no bench/__pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the clip recipes and the summary helpers)
from bench import ROOT, OUT, CLIPS, SCRATCH, log, summary, rotated  # noqa: E402

BASELINE_COMMIT = "c8887f5"  # the commit before the engine rewrite (issue 13)
BASELINE_DIR = os.path.join(OUT, "baseline")
WINDOW = 10.0  # seconds measured
SETTLE = 1.0  # seconds between reaching the state and measuring
BETWEEN_MS = 30000  # the between-items pause
SHORT_CLIP = bench.LOOP_CLIP  # 2 s of 720p30 H.264 + AAC
PLAYING_CLIP = "h264-720p"  # 20 s of 720p30 H.264 + AAC
NULL_OUTPUTS = bench.NULL_OUTPUTS
MPV_BASE = ["mpv", "--no-config", "--vo=null", "--ao=null", "--really-quiet", "--input-terminal=no"]
TOOLS = ("marquee", "baseline", "mpv")
SCENARIOS = ("paused", "end", "between", "playing")
TITLES = {"paused": "paused", "end": "end of playlist", "between": "between items", "playing": "playing 30 fps"}
IDLE_LIMIT = 2.0  # wake-ups per second, paused / end / between (issue 13)
CPU_LIMIT = 1.05  # CPU per frame, x baseline


# ---------------------------------------------------------------- /proc


def task_counts(pid):
    """tid -> (thread name, voluntary, involuntary context switches)."""
    counts = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return counts
    for tid in tids:
        name, voluntary, involuntary = "?", None, None
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as handle:
                for line in handle:
                    if line.startswith("Name:"):
                        name = line.split(":", 1)[1].strip()
                    elif line.startswith("voluntary_ctxt_switches:"):
                        voluntary = int(line.split(":", 1)[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        involuntary = int(line.split(":", 1)[1])
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended while being read
        if voluntary is not None:
            counts[int(tid)] = (name, voluntary, involuntary or 0)
    return counts


TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid):
    """User + sys seconds of the whole process (every thread, ended ones too)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def measure_window(pid, seconds=WINDOW, sample_every=0.5):
    """Wake-ups and CPU time of `pid` over `seconds`. The threads are also
    sampled every `sample_every` s (reading /proc wakes nobody), so that a
    thread that ends inside the window (an idle dispatch worker) still counts
    what it did up to its last sample."""
    before, cpu_before, started = task_counts(pid), process_cpu(pid), time.monotonic()
    last_seen = dict(before)
    deadline = started + seconds
    while (left := deadline - time.monotonic()) > 0:
        time.sleep(min(sample_every, left))
        if left > sample_every:
            last_seen.update(task_counts(pid))
    after, cpu_after, ended = task_counts(pid), process_cpu(pid), time.monotonic()
    if not after:
        raise RuntimeError(f"process {pid} ended inside the window")
    last_seen.update(after)
    wakeups = involuntary = ended_wakeups = 0
    by_name = {}
    for tid, (name, voluntary, nonvoluntary) in last_seen.items():
        _, v0, n0 = before.get(tid, (name, 0, 0))
        wakeups += voluntary - v0
        involuntary += nonvoluntary - n0
        by_name[name] = by_name.get(name, 0) + voluntary - v0
        if tid not in after:
            ended_wakeups += voluntary - v0
    elapsed = ended - started
    return {"seconds": elapsed, "wakeups": wakeups, "wakeups_per_s": wakeups / elapsed,
            "involuntary_per_s": involuntary / elapsed, "cpu_s": cpu_after - cpu_before,
            "threads_per_s": {name: count / elapsed for name, count in sorted(by_name.items(), key=lambda x: -x[1])},
            "tasks": len(after), "tasks_started": len(set(after) - set(before)),
            "tasks_ended": len(set(last_seen) - set(after)), "wakeups_of_ended_tasks": ended_wakeups}


# ---------------------------------------------------------------- players


def settled_window(player):
    """A marquee's window, SETTLE after its state was reached, and its status after."""
    time.sleep(SETTLE)
    window = measure_window(player.pid)
    status = player.status()
    window["state_after"] = status["state"]
    return window, status


def wait_for(condition, timeout, what, interval=0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(interval)


class Child:
    """A measured player process: used with `with`, it is asked to quit at
    the end (and killed if it does not) and what it held is released."""

    def __enter__(self):
        return self

    def __exit__(self, *_):
        if self.child.poll() is None:
            try:
                self.quit()
            except (OSError, RuntimeError):
                pass
        try:
            self.child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.wait()
        self.release()
        self.errors.close()

    def output(self):
        """The end of what it wrote on stderr."""
        self.errors.seek(0)
        return self.errors.read().decode(errors="replace")[-2000:]


class Marquee(Child):
    """`marquee play` to null outputs, steered by text commands on stdin (one reply line each on stdout)."""

    def __init__(self, binary, arguments, env):
        self.errors = tempfile.TemporaryFile()
        self.child = subprocess.Popen([binary, "play", *NULL_OUTPUTS, *arguments], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self.errors, env=env)
        self.pid = self.child.pid
        self.replies = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.child.stdout:
            self.replies.put(line.decode(errors="replace").rstrip("\n"))
        self.replies.put(None)

    def command(self, text, timeout=5):
        if self.child.poll() is not None:
            raise RuntimeError(f"marquee exited ({self.child.returncode}) before '{text}': {self.output()}")
        self.child.stdin.write((text + "\n").encode())
        self.child.stdin.flush()
        try:
            reply = self.replies.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"marquee: no reply to '{text}' in {timeout} s") from None
        if reply is None:
            raise RuntimeError(f"marquee exited ({self.child.wait()}) on '{text}': {self.output()}")
        return reply

    def status(self):
        """`ok state=playing item=1/2 time=0.500 duration=2.000 ...` as a dict (time and duration as floats)."""
        reply = self.command("status")
        if not reply.startswith("ok "):
            raise RuntimeError(f"marquee: status: {reply}")
        fields = dict(f.split("=", 1) for f in reply[3:].split(" source=", 1)[0].split() if "=" in f)
        item, count = fields.get("item", "-/0").split("/")
        fields["index"] = None if item == "-" else int(item)
        fields["count"] = int(count)
        fields["time"] = float(fields.get("time", 0))
        fields["duration"] = None if fields.get("duration", "-") == "-" else float(fields["duration"])
        fields["wall"] = time.monotonic()
        return fields

    def quit(self):
        self.command("quit")

    def release(self):
        self.child.stdin.close()


class Mpv(Child):
    """mpv to null outputs, steered through its JSON IPC socket."""

    def __init__(self, arguments, env):
        self.folder = tempfile.mkdtemp(prefix="wakeups-mpv-")
        self.path = os.path.join(self.folder, "ipc")
        self.errors = tempfile.TemporaryFile()
        self.child = subprocess.Popen([*MPV_BASE, f"--input-ipc-server={self.path}", *arguments],
                                      stdin=subprocess.DEVNULL, stdout=self.errors, stderr=subprocess.STDOUT, env=env)
        self.pid = self.child.pid
        self.socket = None
        self.buffer = b""
        self.request = 0
        wait_for(lambda: self.child.poll() is not None or os.path.exists(self.path), 10, "mpv's IPC socket")
        if self.child.poll() is not None:
            raise RuntimeError(f"mpv exited ({self.child.returncode}): {self.output()}")
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(5)
        self.socket.connect(self.path)

    def command(self, *arguments):
        self.request += 1
        self.socket.sendall(json.dumps({"command": list(arguments), "request_id": self.request}).encode() + b"\n")
        while True:
            while b"\n" not in self.buffer:
                chunk = self.socket.recv(65536)
                if not chunk:
                    raise RuntimeError(f"mpv closed its IPC socket: {self.output()}")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            if message.get("request_id") == self.request:
                return message

    def get(self, name):
        reply = self.command("get_property", name)
        return reply.get("data") if reply.get("error") == "success" else None

    def quit(self):
        if self.socket:
            self.command("quit")

    def release(self):
        if self.socket:
            self.socket.close()
        shutil.rmtree(self.folder, ignore_errors=True)


# ---------------------------------------------------------------- scenarios


class Bench:
    def __init__(self, binaries, clips, still, end_args):
        self.binaries = binaries  # tool -> marquee binary
        self.clips = clips
        self.still = still
        self.end_args = end_args  # tool -> extra arguments that keep marquee open at the end, or None
        self.env = dict(os.environ)
        self.env.pop("MARQUEE_REPORT_FIRST_FRAME", None)
        self.config = os.path.join(SCRATCH, "wakeups-between.toml")
        with open(self.config, "w") as handle:
            handle.write(f'[playback]\nbetween_items = "hold-last-frame"\nbetween_items_ms = {BETWEEN_MS}\n')

    def run(self, scenario, tool):
        method = getattr(self, f"{scenario}_{'mpv' if tool == 'mpv' else 'marquee'}")
        if tool == "mpv":
            return method(lambda arguments: Mpv(arguments, self.env))
        return method(lambda arguments: Marquee(self.binaries[tool], arguments, self.env), tool)

    # marquee ---------------------------------------------------------

    def paused_marquee(self, start, tool):
        clip = self.clips[SHORT_CLIP]
        with start([clip["path"]]) as player:
            wait_for(lambda: (s := player.status())["state"] == "playing" and s["time"] >= 0.3, 10, "playback")
            reply = player.command("pause")
            if not reply.startswith("ok"):
                raise RuntimeError(f"marquee: pause: {reply}")
            return settled_window(player)[0]

    def end_marquee(self, start, tool):
        clip = self.clips[SHORT_CLIP]
        extra = self.end_args[tool]
        if extra is not None:
            with start([*extra, clip["path"]]) as player:
                seen = {"playing": False}

                def ended():
                    status = player.status()
                    seen["playing"] |= status["state"] == "playing"
                    return seen["playing"] and status["state"] != "playing"
                wait_for(ended, 15, "the end of the playlist")
                window, _ = settled_window(player)
                window["method"] = "held open at the end by " + " ".join(extra)
                return window
        # This marquee exits at the end of a playlist: the nearest state is
        # paused on the last frame with the source at the end of the file.
        last = (clip["frames"] - 0.5) / clip["fps"]
        with start([clip["path"]]) as player:
            wait_for(lambda: (s := player.status())["state"] == "playing" and s["time"] >= 0.3, 10, "playback")
            for text in ("pause", f"seek {last:.3f}"):
                reply = player.command(text)
                if not reply.startswith("ok"):
                    raise RuntimeError(f"marquee: {text}: {reply}")
            time.sleep(0.5)  # the seek's frame
            window, _ = settled_window(player)
            window["method"] = f"exits at the end: paused, then seek {last:.3f} (the last frame)"
            return window

    def between_marquee(self, start, tool):
        clip = self.clips[SHORT_CLIP]
        with start(["--config", self.config, clip["path"], clip["path"]]) as player:
            end = clip["duration"] - 1.5 / clip["fps"]
            wait_for(lambda: (s := player.status())["index"] == 2 or s["time"] >= end, 15, "the end of the first item")
            window, status = settled_window(player)
            if status["index"] == 2 and status["time"] > 0.05:
                window["warning"] = f"the second item was playing by the window's end (time {status['time']})"
            return window

    def playing_marquee(self, start, tool):
        clip = self.clips[PLAYING_CLIP]
        stats_path = os.path.join(SCRATCH, f"wakeups-stats-{tool}.json")
        if os.path.exists(stats_path):
            os.remove(stats_path)
        with start(["--stats", stats_path, clip["path"]]) as player:
            wait_for(lambda: player.status()["time"] >= 2.0, 15, "two seconds of playback")
            first = player.status()
            window = measure_window(player.pid)
            last = player.status()
        window.update(frames_from_progress(window, first["time"], first["wall"], last["time"], last["wall"], clip["fps"]))
        try:
            with open(stats_path) as handle:
                stats = json.load(handle)
            window["framesPresented_run"] = stats.get("framesPresented")
            window["framesDropped_run"] = stats.get("framesDropped")
        except (OSError, ValueError):
            window["warning"] = "no --stats file"
        return window

    # mpv -------------------------------------------------------------

    def paused_mpv(self, start):
        with start([self.clips[SHORT_CLIP]["path"]]) as player:
            wait_for(lambda: (player.get("time-pos") or 0) >= 0.3, 10, "mpv playback")
            player.command("set_property", "pause", True)
            time.sleep(SETTLE)
            window = measure_window(player.pid)
            window["state_after"] = "paused" if player.get("pause") else "playing"
            return window

    def end_mpv(self, start):
        with start(["--keep-open=yes", self.clips[SHORT_CLIP]["path"]]) as player:
            wait_for(lambda: player.get("eof-reached") is True, 15, "mpv's end of file")
            time.sleep(SETTLE)
            window = measure_window(player.pid)
            window["method"] = "--keep-open=yes"
            return window

    def between_mpv(self, start):
        path = self.clips[SHORT_CLIP]["path"]
        with start([f"--image-display-duration={BETWEEN_MS // 1000}", path, self.still, path]) as player:
            wait_for(lambda: player.get("playlist-pos") == 1, 15, "mpv's still image")
            time.sleep(SETTLE)
            window = measure_window(player.pid)
            if player.get("playlist-pos") != 1:
                window["warning"] = "mpv left the still inside the window"
            window["method"] = f"a still image between the clips, --image-display-duration={BETWEEN_MS // 1000}"
            return window

    def playing_mpv(self, start):
        clip = self.clips[PLAYING_CLIP]
        with start([clip["path"]]) as player:
            wait_for(lambda: (player.get("time-pos") or 0) >= 2.0, 15, "two seconds of mpv playback")
            t0, w0 = player.get("time-pos"), time.monotonic()
            window = measure_window(player.pid)
            t1, w1 = player.get("time-pos"), time.monotonic()
            window["frame_drop_count_run"] = player.get("frame-drop-count")
        window.update(frames_from_progress(window, t0, w0, t1, w1, clip["fps"]))
        return window


def frames_from_progress(window, time0, wall0, time1, wall1, fps):
    """Frames the window held: its length at the media rate measured around
    it (1.0 when playback keeps up) times the frame rate."""
    rate = (time1 - time0) / (wall1 - wall0)
    frames = window["seconds"] * rate * fps
    return {"media_rate": rate, "frames": frames,
            "cpu_ms_per_frame": window["cpu_s"] * 1000 / frames if frames > 0 else None}


# ---------------------------------------------------------------- builds


def git(*arguments, cwd=ROOT):
    return subprocess.run(["git", "-C", cwd, *arguments], check=True, capture_output=True, text=True).stdout.strip()


SWIFT_BUILD = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "marquee"]


def build_current():
    """As bench/run builds it: release, the Swift runtime linked in."""
    log("wakeups: building the current tree (release)")
    subprocess.run(SWIFT_BUILD, cwd=ROOT, check=True, stdout=sys.stderr)
    path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, "marquee")


def build_baseline(commit):
    """The marquee of `commit`, built once in its own worktree and scratch
    path under bench/out/baseline/HASH and kept there (reruns reuse it)."""
    full = git("rev-parse", "--verify", f"{commit}^{{commit}}")
    folder = os.path.join(BASELINE_DIR, full)
    binary = os.path.join(folder, "marquee")
    if os.access(binary, os.X_OK):
        return full, binary
    source = os.path.join(folder, "src")
    scratch = os.path.join(folder, "scratch")
    os.makedirs(folder, exist_ok=True)
    if not os.path.exists(os.path.join(source, "Package.swift")):
        subprocess.run(["git", "-C", ROOT, "worktree", "prune"], check=True)
        if os.path.exists(source):
            shutil.rmtree(source)
        log(f"wakeups: worktree of {full[:10]} in {os.path.relpath(source, ROOT)}")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", source, full], check=True,
                       stdout=sys.stderr, stderr=sys.stderr)
    log(f"wakeups: building the baseline {full[:10]} (release; several minutes the first time)")
    subprocess.run([*SWIFT_BUILD, "--package-path", source, "--scratch-path", scratch], check=True, stdout=sys.stderr)
    path = subprocess.run(["swift", "build", "-c", "release", "--package-path", source, "--scratch-path", scratch,
                           "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    shutil.copy2(os.path.join(path, "marquee"), binary + ".partial")
    os.replace(binary + ".partial", binary)
    return full, binary


def keep_open_arguments(binary):
    """Arguments that keep this marquee running with the last frame up at the
    end of a playlist, or None when it has none (it then exits there)."""
    usage = subprocess.run([binary, "play", "--help"], capture_output=True, text=True)
    text = usage.stdout + usage.stderr
    return ["--keep-open"] if "--keep-open" in text else None


# ---------------------------------------------------------------- fixtures


def make_fixtures():
    os.makedirs(CLIPS, exist_ok=True)
    clips = {}
    width, height, video = bench.CLIP_RECIPES["h264-720p"]
    clips[SHORT_CLIP] = bench.encode_clip(SHORT_CLIP, width, height, video, bench.LOOP_DURATION,
                                          gop=bench.LOOP_DURATION * bench.FPS)
    clips[PLAYING_CLIP] = bench.encode_clip(PLAYING_CLIP, width, height, video, bench.DURATION, gop=2 * bench.FPS)
    # The still mpv shows between its two items: the short clip's last picture.
    still = clips[SHORT_CLIP]["path"].rsplit(".", 1)[0] + "-last.png"
    if not os.path.exists(still):
        subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-sseof", "-0.1",
                        "-i", clips[SHORT_CLIP]["path"], "-frames:v", "1", "-update", "1", still + ".partial.png"],
                       check=True)
        os.replace(still + ".partial.png", still)
    return clips, still


# ---------------------------------------------------------------- report


def aggregate(samples, scenarios, baseline_label):
    rows = []
    for scenario in scenarios:
        row = {"scenario": scenario}
        for tool in TOOLS:
            runs = samples.get((scenario, tool), [])
            names = {}
            for run in runs:
                for name, rate in run["threads_per_s"].items():
                    names.setdefault(name, []).append(rate)
            entry = {"wakeups_per_s": summary([r["wakeups_per_s"] for r in runs]),
                     "involuntary_per_s": summary([r["involuntary_per_s"] for r in runs]),
                     "cpu_percent": summary([r["cpu_s"] / r["seconds"] * 100 for r in runs]),
                     "threads_wakeups_per_s_median": {n: statistics.median(v + [0] * (len(runs) - len(v)))
                                                      for n, v in names.items()},
                     "methods": sorted({r["method"] for r in runs if "method" in r}),
                     "warnings": sorted({r["warning"] for r in runs if "warning" in r}),
                     "runs": runs}
            if scenario == "playing":
                entry["cpu_ms_per_frame"] = summary([r.get("cpu_ms_per_frame") for r in runs])
                entry["media_rate"] = summary([r.get("media_rate") for r in runs])
            row[tool] = entry
        row["ratio_marquee_baseline"] = bench.ratio(row["marquee"]["wakeups_per_s"], row["baseline"]["wakeups_per_s"])
        row["paired_ratio_marquee_baseline"] = paired(row, "wakeups_per_s")
        row["ratio_marquee_mpv"] = bench.ratio(row["marquee"]["wakeups_per_s"], row["mpv"]["wakeups_per_s"])
        if scenario == "playing":
            row["cpu_ratio_marquee_baseline"] = bench.ratio(row["marquee"]["cpu_ms_per_frame"],
                                                            row["baseline"]["cpu_ms_per_frame"])
            row["paired_cpu_ratio_marquee_baseline"] = paired(row, "cpu_ms_per_frame")
            row["cpu_ratio_marquee_mpv"] = bench.ratio(row["marquee"]["cpu_ms_per_frame"],
                                                       row["mpv"]["cpu_ms_per_frame"])
        rows.append(row)
    return rows


def paired(row, key):
    """current / baseline within each repetition (the two ran one after the
    other), so that slow drift in the machine's load cancels out."""
    pairs = zip(row["marquee"]["runs"], row["baseline"]["runs"])
    return summary([a[key] / b[key] for a, b in pairs if a.get(key) and b.get(key)])


def targets(rows):
    out = []
    for row in rows:
        mine = row["marquee"]["wakeups_per_s"]
        if row["scenario"] in ("paused", "end", "between"):
            value = mine["median"] if mine else None
            out.append({"target": f"wake-ups/s <= {IDLE_LIMIT:g}", "case": TITLES[row["scenario"]], "value": value,
                        "limit": IDLE_LIMIT, "met": value is not None and value <= IDLE_LIMIT})
        else:
            value = row["ratio_marquee_baseline"]
            out.append({"target": "wake-ups/s <= baseline", "case": TITLES[row["scenario"]], "value": value,
                        "limit": 1.0, "met": value is not None and value <= 1.0})
            value = row["cpu_ratio_marquee_baseline"]
            out.append({"target": f"CPU per frame <= {CPU_LIMIT} x baseline", "case": TITLES[row["scenario"]],
                        "value": value, "limit": CPU_LIMIT, "met": value is not None and value <= CPU_LIMIT})
    return out


def fmt(s, digits=1):
    return bench.fmt(s, digits)


def print_report(results):
    meta = results["meta"]
    lines = [f"Marquee wake-ups  {meta['date']}  marquee {meta['marquee_revision']}  "
             f"baseline {meta['baseline_commit'][:10]}  {meta['mpv']}",
             f"{meta['cpu']}, {meta['cores']} cores; load average before/after: {meta['load_before']} / "
             f"{meta.get('load_after', '-')}; {meta['reps']} interleaved repetitions; median [min-max]",
             f"marquee: {meta['marquee_binary']}",
             f"baseline: {meta['baseline_binary']}",
             "",
             f"Wake-ups per second: voluntary context switches, all threads, over {WINDOW:g} s, null outputs",
             f"{'scenario':<16} {'marquee':<22} {'baseline':<22} {'mpv':<22} {'M/base':>7} {'M/mpv':>7}   "
             "M/base by repetition"]
    for row in results["rows"]:
        lines.append(f"{TITLES[row['scenario']]:<16} {fmt(row['marquee']['wakeups_per_s']):<22} "
                     f"{fmt(row['baseline']['wakeups_per_s']):<22} {fmt(row['mpv']['wakeups_per_s']):<22} "
                     f"{bench.fr(row['ratio_marquee_baseline']):>7} {bench.fr(row['ratio_marquee_mpv']):>7}   "
                     f"{fmt(row['paired_ratio_marquee_baseline'], 2)}")
    playing = next((row for row in results["rows"] if row["scenario"] == "playing"), None)
    if playing:
        lines += ["", f"Playing {PLAYING_CLIP} (30 fps, AAC) in real time: CPU per frame over the window, ms (user+sys)",
                  f"{'':<16} {'marquee':<22} {'baseline':<22} {'mpv':<22} {'M/base':>7} {'M/mpv':>7}   "
                  "M/base by repetition",
                  f"{'CPU per frame':<16} {fmt(playing['marquee']['cpu_ms_per_frame'], 2):<22} "
                  f"{fmt(playing['baseline']['cpu_ms_per_frame'], 2):<22} {fmt(playing['mpv']['cpu_ms_per_frame'], 2):<22} "
                  f"{bench.fr(playing['cpu_ratio_marquee_baseline']):>7} {bench.fr(playing['cpu_ratio_marquee_mpv']):>7}   "
                  f"{fmt(playing['paired_cpu_ratio_marquee_baseline'], 2)}",
                  f"{'CPU %':<16} {fmt(playing['marquee']['cpu_percent']):<22} {fmt(playing['baseline']['cpu_percent']):<22} "
                  f"{fmt(playing['mpv']['cpu_percent']):<22}"]
        drops = {tool: [r.get("framesDropped_run", r.get("frame_drop_count_run")) for r in playing[tool]["runs"]]
                 for tool in TOOLS}
        lines.append(f"{'frames dropped':<16} " + " ".join(f"{str(drops[t]):<22}" for t in TOOLS) + " (whole runs)")
    lines += ["", "Busiest threads, median wake-ups/s:"]
    for row in results["rows"]:
        for tool in ("marquee", "baseline", "mpv"):
            busy = [(n, v) for n, v in row[tool]["threads_wakeups_per_s_median"].items() if v >= 0.5]
            busy.sort(key=lambda x: -x[1])
            text = ", ".join(f"{n} {v:.0f}" for n, v in busy[:5]) or "none at 0.5/s or more"
            lines.append(f"  {TITLES[row['scenario']]:<16} {tool:<9} {text}")
    lines += ["", "How each state is reached:"]
    for row in results["rows"]:
        for tool in TOOLS:
            for method in row[tool]["methods"]:
                lines.append(f"  {TITLES[row['scenario']]:<16} {tool:<9} {method}")
            for warning in row[tool]["warnings"]:
                lines.append(f"  {TITLES[row['scenario']]:<16} {tool:<9} warning: {warning}")
    lines += ["", "Targets (issue 13, the current marquee, this run)"]
    for t in results["targets"]:
        value = "-" if t["value"] is None else f"{t['value']:.3f}"
        lines.append(f"  {'met' if t['met'] else 'not met':<8} {t['target']:<33} {t['case']:<16} {value} "
                     f"(limit {t['limit']:g})")
    text = "\n".join(lines)
    print(text)
    return text


# ---------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--current-bin", help="an already built marquee to measure as the current one "
                                              "(default: build this tree in release as bench/run does)")
    parser.add_argument("--baseline", default=BASELINE_COMMIT, help=f"commit to compare with (default {BASELINE_COMMIT})")
    parser.add_argument("--baseline-bin", help="an already built marquee for the baseline (skips the build)")
    parser.add_argument("--end-args", help="arguments that keep the current marquee open at the end of a playlist "
                                           "(default: --keep-open if its usage lists it; else it is paused on the "
                                           "last frame instead)")
    parser.add_argument("--reps", type=int, default=int(os.environ.get("WAKEUPS_REPS", "5")))
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma-separated: " + ", ".join(SCENARIOS))
    parser.add_argument("--json", default=os.path.join(OUT, "wakeups.json"))
    args = parser.parse_args()
    scenarios = [s for s in SCENARIOS if s in set(args.only.split(","))]
    unknown = set(args.only.split(",")) - set(SCENARIOS)
    if unknown or not scenarios:
        sys.exit(f"wakeups: --only takes {', '.join(SCENARIOS)}")
    for tool in ("ffmpeg", "ffprobe", "mpv", "git"):
        if not shutil.which(tool):
            sys.exit(f"wakeups: {tool} not found (bash bench/run --wakeups installs it)")
    os.makedirs(SCRATCH, exist_ok=True)

    current = args.current_bin or build_current()
    if args.baseline_bin:
        baseline_commit = git("rev-parse", "--verify", f"{args.baseline}^{{commit}}")
        baseline = args.baseline_bin
    else:
        baseline_commit, baseline = build_baseline(args.baseline)
    for binary in (current, baseline):
        if not os.access(binary, os.X_OK):
            sys.exit(f"wakeups: {binary} is not an executable")
    binaries = {"marquee": os.path.abspath(current), "baseline": os.path.abspath(baseline)}

    revision, cpu = bench.revision_and_cpu()
    if args.current_bin:
        revision += " (--current-bin)"
    results = {"meta": {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "marquee_revision": revision, "marquee_binary": binaries["marquee"],
        "baseline_commit": baseline_commit, "baseline_binary": binaries["baseline"],
        "mpv": subprocess.run(["mpv", "--version"], capture_output=True, text=True).stdout.split("\n")[0].split(" Copyright")[0],
        "cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(), "reps": args.reps,
        "window_s": WINDOW, "settle_s": SETTLE, "between_items_ms": BETWEEN_MS,
        "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }}
    started = time.monotonic()
    log("wakeups: clips")
    clips, still = make_fixtures()
    results["clips"] = {name: clips[name] for name in (SHORT_CLIP, PLAYING_CLIP)}
    end_args = {tool: keep_open_arguments(binary) for tool, binary in binaries.items()}
    if args.end_args:
        end_args["marquee"] = args.end_args.split()
    runner = Bench(binaries, clips, still, end_args)
    samples = {}
    for rep in range(args.reps):
        for scenario in scenarios:
            for tool in rotated(list(TOOLS), rep + SCENARIOS.index(scenario)):
                log(f"  repetition {rep + 1}/{args.reps}: {scenario}, {tool}")
                result = runner.run(scenario, tool)
                log(f"    {result['wakeups_per_s']:.1f} wake-ups/s"
                    + (f", {result['cpu_ms_per_frame']:.2f} ms CPU per frame" if result.get("cpu_ms_per_frame") else ""))
                samples.setdefault((scenario, tool), []).append(result)
    results["meta"]["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results["meta"]["bench_seconds"] = round(time.monotonic() - started)
    results["rows"] = aggregate(samples, scenarios, baseline_commit)
    results["targets"] = targets(results["rows"])
    results["table"] = print_report(results)
    bench.write_results(results, args.json, "wakeups")


if __name__ == "__main__":
    main()
