#!/usr/bin/env python3
"""CPU while a network source is gone (issue 17): marquee and mpv play the
same VOD HLS stream (720p) from Debian's nginx on loopback; the server is
stopped for 30 s; each player's CPU from 10 s to 28 s into the outage (both
have played out what they had read by then) is read from /proc. mpv runs
with --cache=no: with its cache it plays on through the outage from up to
150 MB read ahead, which measures the cache, not the wait. Also what each
did: how many lines it wrote, and whether it came back.

    bash bench/run --outage [--reps N]

Benchmark only: nothing fails on a figure.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_stream(folder):
    playlist = os.path.join(folder, "vod.m3u8")
    if os.path.exists(playlist):
        return
    os.makedirs(folder, exist_ok=True)
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                    "testsrc2=size=1280x720:rate=25:duration=60", "-f", "lavfi", "-i", "sine=f=440:d=60",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "50", "-pix_fmt", "yuv420p", "-c:a", "aac",
                    "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                    "-hls_segment_filename", os.path.join(folder, "vod%03d.ts"), playlist], check=True)


class Nginx:
    def __init__(self, root, work):
        self.port = free_port()
        self.work = work
        self.conf = os.path.join(work, "nginx.conf")
        with open(self.conf, "w") as conf:
            conf.write(f"""worker_processes 1; daemon off; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 64; }}
http {{ access_log off; client_body_temp_path {work}/body; proxy_temp_path {work}/proxy;
  fastcgi_temp_path {work}/fastcgi; uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  types {{ application/vnd.apple.mpegurl m3u8; video/mp2t ts; }}
  server {{ listen 127.0.0.1:{self.port}; root {root}; }} }}
""")
        self.process = None

    def start(self):
        self.process = subprocess.Popen(["nginx", "-c", self.conf, "-p", self.work],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.01)

    def stop(self):
        self.process.terminate()
        self.process.wait()


def run(player, command, nginx, work):
    """Plays 6 s, stops the server 30 s (CPU over seconds 10-28 of it), plays 20 s more."""
    errors = open(os.path.join(work, f"{player}.err"), "w+")
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
    time.sleep(6)
    nginx.stop()
    time.sleep(10)
    start = cpu_seconds(process.pid)
    time.sleep(18)
    end = cpu_seconds(process.pid)
    time.sleep(2)
    nginx.start()
    time.sleep(20)
    running = process.poll() is None
    if running:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
    errors.seek(0)
    lines = [line for line in errors.read().splitlines() if line.strip()]
    cpu = None if start is None or end is None else (end - start) / 18 * 100
    return {"cpu_percent": cpu, "still_running": running, "stderr_lines": len(lines), "last_lines": lines[-3:]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--reps", type=int, default=1)
    args = parser.parse_args()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
    stream = os.path.join(out, "clips", "hls-outage-720p")
    make_stream(stream)
    rows = []
    for rep in range(args.reps):
        for player in ["marquee", "mpv"]:
            work = tempfile.mkdtemp(prefix="marquee-outage-")
            nginx = Nginx(stream, work)
            nginx.start()
            url = f"http://127.0.0.1:{nginx.port}/vod.m3u8"
            command = ([args.marquee, "play", url, "--video-out", "null", "--audio-out", "null", "--loop", "item"]
                       if player == "marquee" else
                       ["mpv", "--no-config", "--vo=null", "--ao=null", "--loop-file=inf", "--cache=no", url])
            row = run(player, command, nginx, work)
            row.update(player=player, rep=rep)
            rows.append(row)
            if nginx.process.poll() is None:
                nginx.stop()
            shutil.rmtree(work, ignore_errors=True)
            print(json.dumps(row), file=sys.stderr)
    print("| player | CPU while the server is down (% of a core) | running after | stderr lines |")
    print("|---|---|---|---|")
    for row in rows:
        cpu = "exited" if row["cpu_percent"] is None else f"{row['cpu_percent']:.2f}"
        print(f"| {row['player']} | {cpu} | {row['still_running']} | {row['stderr_lines']} |")
        for line in row["last_lines"]:
            print(f"|  | {line.strip()[:120]} | | |")
    marquee = [r["cpu_percent"] for r in rows if r["player"] == "marquee" and r["cpu_percent"] is not None]
    mpv = [r["cpu_percent"] for r in rows if r["player"] == "mpv" and r["cpu_percent"] is not None]
    if marquee and mpv and sum(mpv) > 0:
        print(f"\nmarquee / mpv CPU while waiting: {sum(marquee) / sum(mpv):.3f}")
    with open(os.path.join(out, "outage.json"), "w") as results:
        json.dump(rows, results, indent=1)


if __name__ == "__main__":
    main()
