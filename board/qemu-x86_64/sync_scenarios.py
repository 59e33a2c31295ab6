"""Issue 41, must-show 4: two boards in lockstep on the wall clock.

Two boards boot at once on one host network (QEMU's socket netdev: the
first listens on a loopback port, the second connects), each with vkms
(a real 60 Hz vblank). The first serves time with chrony (`local stratum
8`); the second starts with its clock set 3 s wrong, follows the first
with chrony until `chronyc waitsync` says it is within 5 ms, then both play
the same looping playlist with `[sync] mode = "wallclock"` and the same
epoch. Each presentation log gives every frame's wall time at its vblank
(`wallTime`, on that board's own chrony-kept clock): frames of the same
place in the same pass of the loop are matched across the two boards and
the offsets between them reported. Emulated CPUs under TCG: a figure, not
a target; the scenario fails only if chrony did not bring the second board
in, or the two are not within a frame or two (without chrony they would
be 3 s apart).
"""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time

EPOCH = "2026-01-01T00:00:00Z"
LENGTH = 6.0  # a 4 s clip and a 2 s still
FRAME = 0.1   # the clip's 10 fps

# Both boards' network: the first at .1 serves, the second at .2 follows.
NET_UP = """
modprobe virtio_net
i=0; while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
ip link set lo up; ip link set eth0 up; ip addr add {address}/24 dev eth0
mkdir -p /var/lib/chrony; mkdir -m 0750 -p /run/chrony
"""

SERVER = NET_UP.format(address="10.0.3.1") + """
printf 'local stratum 8\\nallow 10.0.3.0/24\\ndriftfile /var/lib/chrony/drift\\n' >/etc/chrony.conf
chronyd -f /etc/chrony.conf -u root || echo "chronyd failed: $?"
marquee play --config /mnt/host/marquee.toml --video-out kms --audio-out null --control off \\
  --presentation-log /mnt/host/server.jsonl 2>/mnt/host/server-errors.txt &
pid=$!
# Plays until the follower has played (its mark in the shared folder), at most 240 s.
i=0; while [ ! -e /mnt/host/follower-done ] && [ $i -lt 480 ]; do sleep 0.5; i=$((i + 1)); done
kill -INT $pid; wait $pid; echo "server marquee exit $?"
echo "server clients: $(chronyc -n clients 2>&1 | tail -n 1)"
"""

FOLLOWER = NET_UP.format(address="10.0.3.2") + """
date -s "@$(( $(date +%s) + 3 ))" >/dev/null && echo "follower clock set 3 s ahead"
printf 'server 10.0.3.1 iburst minpoll -2 maxpoll 0\\nmakestep 0.1 -1\\ndriftfile /var/lib/chrony/drift\\n' >/etc/chrony.conf
chronyd -f /etc/chrony.conf -u root || echo "chronyd failed: $?"
if chronyc waitsync 120 0.005 >/dev/null; then echo "follower synced"; else echo "follower not synced"; fi
echo "follower tracking before: $(chronyc -n tracking | grep -E '^System time' | tr -s ' ')"
marquee play --config /mnt/host/marquee.toml --video-out kms --audio-out null --control off \\
  --presentation-log /mnt/host/follower.jsonl 2>/mnt/host/follower-errors.txt &
pid=$!
sleep {seconds}
kill -INT $pid; wait $pid; echo "follower marquee exit $?"
echo "follower tracking after: $(chronyc -n tracking | grep -E '^System time' | tr -s ' ')"
echo "follower source: $(chronyc -n sources | tail -n 1 | tr -s ' ')"
touch /mnt/host/follower-done
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_show(share):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=4",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "10", "-pix_fmt", "yuv420p", f"{share}/clip.mp4"], check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x3060c0:size=160x120", "-frames:v", "1",
                    f"{share}/still.png"], check=True)
    with open(f"{share}/marquee.toml", "w") as f:
        f.write('[playback]\nplaylist = ["clip.mp4", { path = "still.png", duration = 2 }]\nloop = "playlist"\n\n'
                f'[sync]\nmode = "wallclock"\nepoch = "{EPOCH}"\n')


def frames_by_place(path, epoch):
    """Each frame's wall time at its vblank, keyed by its place in the loop:
    (loop pass, playlist index, pts in ms)."""
    places = {}
    for line in open(path):
        record = json.loads(line)
        if record.get("wallTime") is None or record.get("playlistIndex") is None:
            continue
        # The pass the frame is due in: its schedule time is its wall time less its offset.
        due = record["wallTime"] - record["wallOffsetMs"] / 1000
        start = [0.0, 4.0][record["playlistIndex"]] + record["pts"]
        loop_pass = round((due - epoch - start) / LENGTH)
        places[(loop_pass, record["playlistIndex"], round(record["pts"] * 1000))] = record["wallTime"]
    return places


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def scenario_sync_chrony_wall(board, out):
    share = tempfile.mkdtemp(prefix="wall-share-")
    try:
        make_show(share)
        port = free_port()
        nic = "-device virtio-net-pci,netdev=wall,mac=52:54:00:4d:51:{mac}"
        server_args = f"-netdev socket,id=wall,listen=127.0.0.1:{port} " + nic.format(mac="01")
        follower_args = f"-netdev socket,id=wall,connect=127.0.0.1:{port} " + nic.format(mac="02")
        results = {}

        def boot(name, qemu_args, command):
            options = ["--display", "vkms", "--audio", "none", "--share", share, "--qemu-args", qemu_args, "--timeout", "400"]
            results[name] = board.run_board(os.path.join(out, name), options, command, timeout=460)

        server = threading.Thread(target=boot, args=("server", server_args, SERVER))
        server.start()
        # The follower's QEMU connects to the server's listening socket: let that one open first.
        pid_file = os.path.join(out, "server", "qemu.pid")
        for _ in range(200):
            if os.path.exists(pid_file):
                break
            time.sleep(0.1)
        time.sleep(1)
        follower = threading.Thread(target=boot, args=("follower", follower_args, FOLLOWER.format(seconds=45)))
        follower.start()
        follower.join()
        server.join()
        for name in ("server", "follower"):
            rc, stdout, stderr, _ = results[name]
            board.expect_ok(rc, stdout, stderr)
        server_out, follower_out = results["server"][1], results["follower"][1]
        lines = follower_out.splitlines() + server_out.splitlines()
        board.check("follower synced" in lines, f"chrony did not bring the follower within 5 ms:\n{follower_out}")
        board.check("follower marquee exit 0" in lines and "server marquee exit 0" in lines, f"a player failed:\n{follower_out}\n{server_out}")
        for name in ("server", "follower"):
            errors = open(f"{share}/{name}-errors.txt").read().strip()
            board.check("error" not in errors.lower(), f"{name}'s marquee reported:\n{errors}")
        tracking = [line.split(": ", 1)[1] for line in lines if line.startswith("follower tracking after: ")]

        epoch = 1767225600.0  # EPOCH in seconds
        a, b = frames_by_place(f"{share}/server.jsonl", epoch), frames_by_place(f"{share}/follower.jsonl", epoch)
        shared = sorted(set(a) & set(b))
        board.check(len(shared) >= 100, f"only {len(shared)} frames shown by both ({len(a)} and {len(b)} logged)")
        offsets = [abs(a[key] - b[key]) * 1000 for key in shared]
        median, p99, worst = percentile(offsets, 0.5), percentile(offsets, 0.99), max(offsets)
        # Without chrony the follower would be 3 s off; with it, both at the same vblank or the next.
        board.check(median < 2 * FRAME * 1000, f"frames {median:.1f} ms apart at the median: the clocks are not together")
        return (f"{len(shared)} frames shown by both boards: {median:.1f} ms apart at the median, p99 {p99:.1f} ms, "
                f"max {worst:.1f} ms (60 Hz vblank: 16.7 ms); chrony: the follower started 3 s off, "
                f"{tracking[0] if tracking else 'no tracking line'}")
    finally:
        shutil.rmtree(share, ignore_errors=True)


SCENARIOS = {
    "sync-chrony-wall": scenario_sync_chrony_wall,
}
