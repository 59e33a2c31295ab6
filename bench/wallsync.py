#!/usr/bin/env python3
"""Two players in lockstep on the wall clock, on one host (issue 41): the
offset between what they show, over ten minutes, beside omxplayer-sync's
published figures (2-4 frames between a leader and its followers, from its
users' reports; it runs only on a Raspberry Pi's omxplayer, so its row is
quoted, not measured).

Two `marquee play` (the release binary) with the same looping playlist (a
4 s 25 fps clip whose every frame differs, with a tone, and a 2 s still
picture) and `[sync] mode = "wallclock"` with the same epoch, on null
displays at 60 Hz and simulated sound cards whose crystals run 200 ppm fast
and 150 ppm slow (`--audio-drift`); the second starts 7.3 s after the first. From their presentation
logs, at every vblank of a 60 Hz display from the second's first second on,
the frames each shows: how many frames apart (0: the same; the still
counts as the frames it covers), and each player's offset from the wall
schedule (`--stats`), for the picture and for the sound (resampled onto
the wall clock: its offset, the drift learnt, moves after the start). Nothing asserts; it prints a table and writes
bench/out/wallsync.json.

    bash bench/run --wallsync [--seconds 600]
"""
import argparse
import datetime
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

FRAME = 1 / 25
LENGTH = 6.0


def span(record):
    start = [0.0, 4.0][record["playlistIndex"]] + record["pts"]
    return start, start + (FRAME if record["playlistIndex"] == 0 else 2.0)


def frames_apart(x, y):
    """How many frames lie between two stretches of the loop (0: they overlap or touch)."""
    gap = min(max(0.0, max(x[0], y[0] + shift) - min(x[1], y[1] + shift)) for shift in (-LENGTH, 0, LENGTH))
    return round(gap / FRAME)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--seconds", type=float, default=600)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="bench-wallsync-")
    try:
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4",
                        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4", "-ac", "2",
                        "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac",
                        f"{work}/clip.mp4"], check=True)
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=0x3060c0:size=320x240", "-frames:v", "1",
                        f"{work}/still.png"], check=True)
        epoch = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        with open(f"{work}/marquee.toml", "w") as f:
            f.write('[playback]\nplaylist = ["clip.mp4", { path = "still.png", duration = 2 }]\nloop = "playlist"\n\n'
                    f'[sync]\nmode = "wallclock"\nepoch = "{epoch}"\n')
        players = []
        for name, drift in (("first", 200), ("second", -150)):
            players.append(subprocess.Popen([args.marquee, "play", "--config", f"{work}/marquee.toml", "--video-out", "null",
                                             "--audio-out", "null", "--audio-drift", str(drift), "--control", "off", "--presentation-log", f"{work}/{name}.jsonl",
                                             "--stats", f"{work}/{name}-stats.json"], stdout=subprocess.DEVNULL))
            if name == "first":
                time.sleep(7.3)
        time.sleep(args.seconds)
        for player in reversed(players):
            player.send_signal(signal.SIGINT)
            player.wait(timeout=30)
        logs = [[json.loads(line) for line in open(f"{work}/{name}.jsonl")] for name in ("first", "second")]
        stats = [json.load(open(f"{work}/{name}-stats.json")) for name in ("first", "second")]
        a, b = logs
        start, end = b[0]["displayTime"] + 1, min(a[-1]["displayTime"], b[-1]["displayTime"])
        counts, (ia, ib), t = {}, (0, 0), start
        while t < end:
            while ia + 1 < len(a) and a[ia + 1]["displayTime"] <= t:
                ia += 1
            while ib + 1 < len(b) and b[ib + 1]["displayTime"] <= t:
                ib += 1
            apart = frames_apart(span(a[ia]), span(b[ib]))
            counts[apart] = counts.get(apart, 0) + 1
            t += 1 / 60
        total = sum(counts.values())
        print(f"{total} vblanks over {end - start:.0f} s")
        print(f"{'':28} {'frames apart':>12}")
        for apart in sorted(counts):
            print(f"{'':28} {apart:>6}: {counts[apart] / total * 100:6.2f} % of vblanks")
        for name, s in zip(("first", "second"), stats):
            print(f"marquee {name:8} offset from the wall schedule: p50 {s.get('wallOffsetP50Ms')} ms, "
                  f"p99 {s.get('wallOffsetP99Ms')} ms, max {s.get('wallOffsetMaxMs')} ms; jumps {s.get('wallCorrections')}")
            print(f"{'':17}sound: p50 {s.get('audioWallOffsetP50Ms')} ms, p99 {s.get('audioWallOffsetP99Ms')} ms, "
                  f"max {s.get('audioWallOffsetMaxMs', 0):.2f} ms; drift learnt {s.get('audioCorrectionPpm', 0):.1f} ppm; "
                  f"moves {s.get('audioWallMoves')}; underruns {s.get('underruns')}")
        print("omxplayer-sync (published)   2-4 frames between leader and followers")
        os.makedirs("bench/out", exist_ok=True)
        with open("bench/out/wallsync.json", "w") as f:
            json.dump({"seconds": end - start, "vblanks": total, "framesApart": counts,
                       "players": [{k: s.get(k) for k in ("wallOffsetP50Ms", "wallOffsetP99Ms", "wallOffsetMaxMs", "wallCorrections",
                                                          "audioWallOffsetP50Ms", "audioWallOffsetP99Ms", "audioWallOffsetMaxMs",
                                                          "audioCorrectionPpm", "audioWallMoves", "underruns")}
                                   for s in stats]}, f, indent=2)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
