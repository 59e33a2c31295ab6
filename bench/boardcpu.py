"""CPU per frame of `marquee play` setups in the QEMU board, each in turn
(A B C, B C A, ...) in one boot: what bench/layers.py and
bench/overlays.py measure. CPU is user + sys of the process over a window
from /proc/PID/stat; frames are `framesPresented` from the HTTP status at
both ends. The guest's CPUs are emulated (TCG): the ratios between rows are
the figure, not the milliseconds.
"""

import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "board", "qemu-x86_64", "run")
OUT = os.path.join(ROOT, "bench", "out")
WINDOW_S = 10
SETTLE_S = 10  # marquee starts in about 6 s under TCG
PORT = 18080
HTTP = f"""
[controls.http]
listen = "127.0.0.1:{PORT}"
"""


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def guest_script(order, setups):
    lines = ["""
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
frames() { wget -qO- http://127.0.0.1:%d/status | tr ',' '\\n' | grep -m1 framesPresented | tr -dc 0-9; }
ticks() { awk '{ print $14 + $15 }' /proc/$pid/stat; }
""" % PORT]
    for name in order:
        config, flags = setups[name]
        lines.append(f"""
marquee play --config /mnt/host/{config} --audio-out null {flags} >/dev/null 2>>/mnt/host/errors.txt & pid=$!
sleep {SETTLE_S}
f0=$(frames); t0=$(ticks)
sleep {WINDOW_S}
f1=$(frames); t1=$(ticks)
echo "@@ {name} frames=$((f1 - f0)) ticks=$((t1 - t0))"
kill -TERM $pid; wait $pid""")
    return "\n".join(lines)


def measure(name, share, setups, display, reps):
    """Runs every setup (name -> (config file in `share`, flags)) `reps`
    times on `display`; prints the table (ratios to the first setup) and
    writes bench/out/NAME.json."""
    names = list(setups)
    order = [names[(rep + i) % len(names)] for rep in range(reps) for i in range(len(names))]
    out = os.path.join(OUT, f"{name}-board")
    os.makedirs(out, exist_ok=True)
    budget = 60 + len(order) * (SETTLE_S + WINDOW_S + 10)
    proc = subprocess.run([RUN, "--out", out, "--display", display, "--audio", "none", "--share", share,
                           "--timeout", str(budget), "--", guest_script(order, setups)],
                          capture_output=True, text=True, timeout=budget + 60)
    if proc.returncode != 0:
        sys.exit(f"the board run failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    errors_path = os.path.join(share, "errors.txt")
    errors = [line for line in (open(errors_path).read().splitlines() if os.path.exists(errors_path) else [])
              if line.strip() and not line.startswith("marquee: display:")]
    runs = {setup: [] for setup in names}
    for line in proc.stdout.splitlines():
        if line.startswith("@@ "):
            setup, *fields = line[3:].split()
            values = dict(field.split("=") for field in fields)
            frames, ticks = int(values["frames"] or 0), int(values["ticks"] or 0)
            if frames > 0:
                runs[setup].append({"frames": frames, "ms_per_frame": ticks * 10 / frames})
    first = names[0]
    base = statistics.median(r["ms_per_frame"] for r in runs[first]) if runs[first] else None
    width = max(len(n) for n in names) + 2
    print(f"{'setup':<{width}} {'frames/10 s':>11} {'CPU ms/frame':>13} {'x ' + first:>{len(first) + 4}}")
    table = {}
    for setup in names:
        if not runs[setup]:
            print(f"{setup:<{width}} {'no run':>11}")
            continue
        median = statistics.median(r["ms_per_frame"] for r in runs[setup])
        frames = statistics.median(r["frames"] for r in runs[setup])
        ratio = median / base if base else float("nan")
        table[setup] = {"runs": runs[setup], "median_ms_per_frame": median, f"ratio_to_{first}": ratio}
        print(f"{setup:<{width}} {frames:>11.0f} {median:>13.2f} {ratio:>{len(first) + 4}.2f}")
    if errors:
        print("marquee said:\n  " + "\n  ".join(errors[:10]))
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump({"reps": reps, "window_s": WINDOW_S, "display": display, "setups": table, "errors": errors}, f, indent=2)
