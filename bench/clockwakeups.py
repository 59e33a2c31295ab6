#!/usr/bin/env python3
"""Wake-ups of a paused player with a minute clock over it, beside the same
player with a static text there instead (issue 39, must-show 2: at most two
a minute more). Both are `[[overlay]]` layouts on the memory display of
`--video-out null` (the display owner's thread, 60 Hz), paused 0.3 s into a
looping 2 s clip; wake-ups and CPU over 60 s, counted as bench/wakeups.py
counts them (voluntary context switches of every thread), interleaved and
repeated. Nothing asserts: it prints a table and writes
bench/out/clockwakeups.json.

    bash bench/run --clock-wakeups [--reps 2]
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
from bench import SCRATCH  # noqa: E402
from wakeups import SHORT_CLIP, Marquee, measure_window, wait_for  # noqa: E402

WINDOW = 60.0
OVERLAYS = {
    "static text": 'kind = "text"\ntext = "12:34"',
    "minute clock": 'kind = "clock"\nformat = "%H:%M"',
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    clip = bench.make_clips()[SHORT_CLIP]["path"]
    configs = {}
    for name, table in OVERLAYS.items():
        configs[name] = os.path.join(SCRATCH, f"clockwakeups-{name.replace(' ', '-')}.toml")
        with open(configs[name], "w") as handle:
            handle.write(f'[playback]\nloop = "playlist"\n\n[[overlay]]\n{table}\nanchor = "top-right"\n')
    runs = {name: [] for name in OVERLAYS}
    for rep in range(args.reps):
        for name in (list(OVERLAYS) if rep % 2 == 0 else list(reversed(OVERLAYS))):
            with Marquee(args.marquee, ["--config", configs[name], clip], dict(os.environ)) as player:
                wait_for(lambda: (s := player.status())["state"] == "playing" and s["time"] >= 0.3, 10, "playback")
                if not player.command("pause").startswith("ok"):
                    raise RuntimeError("marquee: pause refused")
                time.sleep(1)
                window = measure_window(player.pid, seconds=WINDOW)
                runs[name].append({"wakeups_per_minute": window["wakeups"] * 60 / window["seconds"],
                                   "cpu_ms_per_minute": window["cpu_s"] * 1000 * 60 / window["seconds"],
                                   "threads_per_s": window["threads_per_s"]})
                bench.log(f"  {name}, repetition {rep + 1}: {runs[name][-1]['wakeups_per_minute']:.1f} wake-ups a minute")
    medians = {name: {key: statistics.median(run[key] for run in values) for key in ("wakeups_per_minute", "cpu_ms_per_minute")}
               for name, values in runs.items()}
    print(f"| paused, 60 s | wake-ups a minute (median of {args.reps}) | CPU ms a minute |")
    print("|---|---|---|")
    for name, row in medians.items():
        print(f"| {name} | {row['wakeups_per_minute']:.1f} | {row['cpu_ms_per_minute']:.1f} |")
    extra = medians["minute clock"]["wakeups_per_minute"] - medians["static text"]["wakeups_per_minute"]
    print(f"\nthe minute clock adds {extra:.1f} wake-ups a minute (issue 39's bound: 2)")
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "clockwakeups.json"), "w") as out:
        json.dump({"medians": medians, "runs": runs}, out, indent=1)


if __name__ == "__main__":
    sys.exit(main())
