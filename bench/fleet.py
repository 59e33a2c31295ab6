#!/usr/bin/env python3
"""A group command to 50 screens over a real Mosquitto (issue 40): the time
from the broker's delivery of the command to the last of the 50 replies,
beside 50 plain MQTT responders (mosquitto_sub piped into mosquitto_pub -l,
Mosquitto's own clients echoing each command), so the ratio is what being a
player costs over the broker's own round trip.

  marquee   50 `marquee play` (a still picture, null display, no sound)
            with [fleet] groups = ["bench"]; the command `status` (each
            reply carries the whole status)
  echo      50 `mosquitto_sub -t echo/cmd | mosquitto_pub -l -t echo/N/reply`

Times are the broker-side receive stamps of mosquitto_sub (-F %U) on one
subscriber that sees the command and every reply; rows interleaved,
repeated, medians reported. Nothing asserts; it prints a table and writes
bench/out/fleet.json.

    bash bench/run --fleet [--screens 50] [--reps 5]
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def round_trip(port, command_topic, reply_filter, payload, count):
    """Seconds from the command's delivery to the last of `count` replies."""
    sub = subprocess.Popen(["mosquitto_sub", "-p", str(port), "-t", command_topic, "-t", reply_filter, "-F", "%U %t",
                            "-C", str(count + 1), "-W", "30"], stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)
    subprocess.run(["mosquitto_pub", "-p", str(port), "-t", command_topic, "-q", "1", "-m", payload], check=True)
    out, _ = sub.communicate(timeout=40)
    stamps = [(float(line.split()[0]), line.split()[1]) for line in out.splitlines() if line.strip()]
    sent = [t for t, topic in stamps if topic == command_topic]
    replies = [t for t, topic in stamps if topic != command_topic]
    if not sent or len(replies) < count:
        raise SystemExit(f"{len(replies)} of {count} replies on {reply_filter}")
    return max(replies) - sent[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--screens", type=int, default=50)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="bench-fleet-")
    port = free_port()
    with open(os.path.join(work, "mosquitto.conf"), "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n"
                + ("user root\n" if os.getuid() == 0 else ""))
    processes = [subprocess.Popen(["mosquitto", "-c", os.path.join(work, "mosquitto.conf")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        time.sleep(0.5)
        still = os.path.join(work, "still.png")
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", still], check=True)
        for n in range(args.screens):
            folder = os.path.join(work, f"screen-{n}")
            os.makedirs(folder)
            with open(os.path.join(folder, "marquee.toml"), "w") as f:
                f.write(f'[playback]\nplaylist = ["{still}"]\nloop = "playlist"\n\n'
                        f'[fleet]\nbroker = "mqtt://127.0.0.1:{port}"\nid = "screen-{n}"\ngroups = ["bench"]\n')
            processes.append(subprocess.Popen([args.marquee, "play", "--config", os.path.join(folder, "marquee.toml"),
                                               "--video-out", "null", "--no-audio"],
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            processes.append(subprocess.Popen(
                f"mosquitto_sub -p {port} -t echo/cmd | mosquitto_pub -p {port} -q 1 -l -t echo/{n}/reply",
                shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        time.sleep(10)  # every player connected and subscribed
        rows = {"marquee": [], "echo": []}
        for rep in range(args.reps):
            rows["marquee"].append(round_trip(port, "marquee/group/bench/cmd", "marquee/+/reply",
                                              json.dumps({"command": "status", "id": f"bench-{rep}"}), args.screens))
            rows["echo"].append(round_trip(port, "echo/cmd", "echo/+/reply", f"bench-{rep}", args.screens))
        medians = {name: statistics.median(times) for name, times in rows.items()}
        print(f"{'':10} {'median ms':>10}  runs (ms)")
        for name, times in rows.items():
            print(f"{name:10} {medians[name] * 1000:10.1f}  " + " ".join(f"{t * 1000:.1f}" for t in times))
        print(f"marquee / echo: {medians['marquee'] / medians['echo']:.2f}")
        os.makedirs("bench/out", exist_ok=True)
        with open("bench/out/fleet.json", "w") as f:
            json.dump({"screens": args.screens, "rows": rows, "medians": medians}, f, indent=2)
    finally:
        for process in processes:
            try:
                os.killpg(process.pid, 9) if process.args and isinstance(process.args, str) else process.kill()
            except OSError:
                pass
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
