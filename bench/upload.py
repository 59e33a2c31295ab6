#!/usr/bin/env python3
"""A 200 MB upload over loopback (issue 37): marquee's PUT /media/NAME beside
Debian's nginx taking the same PUT with its WebDAV module (the usual way to
put files on a box over HTTP), each written to the same disk. For each:
the time curl reports for the whole request, the server's peak resident
memory above what it held before (VmHWM, reset through clear_refs, less
VmRSS), and its CPU over the request. marquee is measured paused and
playing a 720p clip in real time (then also the frames it dropped).

    bash bench/run --upload [--reps N] [--megabytes M]

Benchmark only: nothing fails on a figure.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def memory_kb(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def make_body(path, megabytes, clip):
    """A playable file of the given size: a short clip, then zeros, which libavformat reads past."""
    if os.path.exists(path) and os.path.getsize(path) == megabytes * 1_000_000:
        return
    with open(clip, "rb") as source, open(path, "wb") as body:
        head = source.read()
        body.write(head)
        remaining = megabytes * 1_000_000 - len(head)
        block = bytes(1 << 20)
        while remaining > 0:
            body.write(block[:min(remaining, len(block))])
            remaining -= len(block)


def make_clip(path, size, seconds):
    if not os.path.exists(path):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                        f"testsrc2=size={size}:rate=25:duration={seconds}", "-c:v", "libx264", "-preset", "veryfast",
                        "-pix_fmt", "yuv420p", path], check=True)


def upload(pid, url, body):
    """curl's time for the PUT, and the server's peak memory growth and CPU over it."""
    with open(f"/proc/{pid}/clear_refs", "w") as refs:
        refs.write("5")
    resident = memory_kb(pid, "VmRSS")
    cpu = cpu_seconds(pid)
    result = subprocess.run(["curl", "-s", "-S", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "-T", body, url],
                            capture_output=True, text=True, check=True)
    status, seconds = result.stdout.split()
    return {"status": int(status), "seconds": float(seconds), "peak_growth_mb": (memory_kb(pid, "VmHWM") - resident) / 1024,
            "cpu_seconds": cpu_seconds(pid) - cpu, "resident_before_mb": resident / 1024}


def marquee_run(binary, clip, body, work, playing):
    media = os.path.join(work, "media")
    os.makedirs(media)
    port = free_port()
    config = os.path.join(work, "marquee.toml")
    with open(config, "w") as file:
        file.write(f'[controls.stdin]\nenabled = false\n[controls.http]\nlisten = "127.0.0.1:{port}"\nmax_upload_mb = 4096\n'
                   f'[playback]\nmedia_roots = ["{media}"]\n')
    process = subprocess.Popen([binary, "play", clip, "--loop", "item", "--config", config, "--video-out", "null",
                                "--audio-out", "null"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        base = f"http://127.0.0.1:{port}"
        if not playing:
            urllib.request.urlopen(urllib.request.Request(base + "/command", data=b"pause", method="POST")).read()
        time.sleep(2)
        before = json.load(urllib.request.urlopen(base + "/status"))
        row = upload(process.pid, base + "/media/body.mp4", body)
        after = json.load(urllib.request.urlopen(base + "/status"))
        row["frames_dropped"] = after["framesDropped"] - before["framesDropped"]
        row["stored_bytes"] = os.path.getsize(os.path.join(media, "body.mp4"))
        return row
    finally:
        process.terminate()
        process.wait()


def nginx_run(body, work):
    root = os.path.join(work, "root")
    os.makedirs(os.path.join(root, "media"))
    port = free_port()
    conf = os.path.join(work, "nginx.conf")
    # Started as root, nginx's worker would run as nobody, who cannot write here.
    user = "user root;" if os.geteuid() == 0 else ""
    with open(conf, "w") as file:
        file.write(f"""{user} worker_processes 1; daemon off; pid {work}/nginx.pid; error_log {work}/error.log;
events {{ worker_connections 64; }}
http {{ access_log off; client_body_temp_path {work}/body; proxy_temp_path {work}/proxy;
  fastcgi_temp_path {work}/fastcgi; uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
  server {{ listen 127.0.0.1:{port}; root {root};
    location /media/ {{ dav_methods PUT DELETE; client_max_body_size 4g; create_full_put_path on; }} }} }}
""")
    master = subprocess.Popen(["nginx", "-c", conf, "-p", work], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        worker = int(subprocess.run(["pgrep", "-P", str(master.pid)], capture_output=True, text=True, check=True).stdout.split()[0])
        row = upload(worker, f"http://127.0.0.1:{port}/media/body.mp4", body)
        if row["status"] not in (200, 201, 204):
            raise RuntimeError(f"nginx answered {row['status']}: {open(os.path.join(work, 'error.log')).read()[-500:]}")
        row["stored_bytes"] = os.path.getsize(os.path.join(root, "media", "body.mp4"))
        return row
    finally:
        master.terminate()
        master.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--megabytes", type=int, default=200)
    args = parser.parse_args()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
    clips = os.path.join(out, "clips")
    os.makedirs(clips, exist_ok=True)
    clip = os.path.join(clips, "upload-720p.mp4")
    make_clip(clip, "1280x720", 10)
    body = os.path.join(clips, f"upload-body-{args.megabytes}mb.mp4")
    make_body(body, args.megabytes, clip)
    rows = []
    for rep in range(args.reps):
        for server in ["nginx", "marquee paused", "marquee playing 720p"]:
            work = tempfile.mkdtemp(prefix="marquee-upload-", dir=out)
            try:
                row = nginx_run(body, work) if server == "nginx" else marquee_run(args.marquee, clip, body, work, server.endswith("720p"))
            finally:
                shutil.rmtree(work, ignore_errors=True)
            row.update(server=server, rep=rep)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    with open(os.path.join(out, "upload.json"), "w") as file:
        json.dump(rows, file, indent=1)

    def median(server, key):
        values = sorted(row[key] for row in rows if row["server"] == server)
        return values[len(values) // 2]

    print(f"{args.megabytes} MB PUT over loopback, median of {args.reps}:")
    print("| server | time (s) | x nginx | peak RSS growth (MB) | CPU (s) | x nginx | frames dropped |")
    print("|---|---|---|---|---|---|---|")
    for server in ["nginx", "marquee paused", "marquee playing 720p"]:
        seconds, cpu = median(server, "seconds"), median(server, "cpu_seconds")
        dropped = max((row.get("frames_dropped", 0) for row in rows if row["server"] == server), default=0)
        print(f"| {server} | {seconds:.2f} | {seconds / median('nginx', 'seconds'):.2f} | {median(server, 'peak_growth_mb'):.1f} | "
              f"{cpu:.2f} | {cpu / max(median('nginx', 'cpu_seconds'), 0.01):.2f} | {dropped if server != 'nginx' else '-'} |")


if __name__ == "__main__":
    main()
