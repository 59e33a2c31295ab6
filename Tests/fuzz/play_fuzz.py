#!/usr/bin/env python3
"""Plays damaged copies of the shared media and fails on a crash or a hang (issue 35).

Each case takes one file of ../shared/media (MANIFEST.tsv) and damages a
copy of it as storage and downloads do, chosen from the case's own random
stream (seeded by "SEED:CASE", so any case can be made again alone):

  flip       1 to 64 bytes changed
  truncate   cut anywhere from 1 % to 99 % of the length
  zero       a chunk of 1 byte to 64 KiB set to zero
  swap       two chunks of the same size (1 byte to 16 KiB) exchanged
  duplicate  a chunk of 1 byte to 64 KiB copied in again elsewhere

and plays it with `marquee play CASE --loops 2 --untimed` to null outputs,
decoding in software, under a time limit scaled by the source: LIMIT_BASE
plus LIMIT_PER_SECOND x the two passes' seconds plus CLEAN_FACTOR x the time
the undamaged source took the same way on this machine, measured once per
source in the run (an 8K or tone-mapped HDR clip takes far longer than its
duration in a debug build, and a loaded machine slows every case). A case passes
when marquee exits 0, or 1 with its reason on stderr (nothing in the file
could be played). It fails when marquee is killed by a signal (a crash, a
trap), exits with any other status, or runs past its limit (a hang: a loop
that never ends, a wait that never wakes). A failing case's damaged file is
kept in --keep with a JSON line saying how to make it again (--replay).

  python3 Tests/fuzz/play_fuzz.py --marquee .build/debug/marquee --cases 300
  python3 Tests/fuzz/play_fuzz.py --marquee M --seed 1234 --cases 1000 --jobs 2
  python3 Tests/fuzz/play_fuzz.py --marquee M --replay 1234:517   # one case again, its stderr shown
  python3 Tests/fuzz/play_fuzz.py --marquee M --replay 1234:517 --write case.mp4   # its bytes, not played

The seed is printed first, and the closing line gives the seed, the number
of cases run and what failed; the exit status is 1 when any case failed.
Standard library only, beside ffprobe (for the sources' durations).
"""

import argparse
import concurrent.futures
import functools
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEDIA = os.path.join(os.path.dirname(ROOT), "shared", "media")
# Untimed, two passes take a fraction of their real time; the limit leaves
# room for a loaded machine and a debug build, and still catches a loop that
# never ends within seconds of where a clean file would have.
LIMIT_BASE = 20.0
LIMIT_PER_SECOND = 1.0
CLEAN_FACTOR = 3.0
KINDS = ("flip", "truncate", "zero", "swap", "duplicate")


def sources(media):
    """The manifest's files that exist."""
    with open(os.path.join(media, "MANIFEST.tsv"), encoding="utf-8") as manifest:
        rows = [line.rstrip("\n").split("\t") for line in manifest][1:]
    found = []
    for row in rows:
        path = os.path.join(media, row[0])
        if os.path.isfile(path):
            found.append((row[0], path))
    return found


@functools.lru_cache(maxsize=None)
def duration(path):
    """The container's duration, or 10 s where ffprobe gives none."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                           capture_output=True, text=True, check=False)
    try:
        return float(probe.stdout.strip())
    except ValueError:
        return 10.0


def damage(data, rng):
    """`data` damaged one way, chosen by `rng`; returns the bytes and what was done."""
    size = len(data)
    kind = rng.choice(KINDS)
    if kind == "flip":
        damaged = bytearray(data)
        offsets = [rng.randrange(size) for _ in range(rng.randint(1, 64))]
        for offset in offsets:
            damaged[offset] ^= rng.randint(1, 255)
        return bytes(damaged), {"kind": kind, "offsets": offsets[:8], "count": len(offsets)}
    if kind == "truncate":
        keep = max(1, int(size * rng.uniform(0.01, 0.99)))
        return data[:keep], {"kind": kind, "keep": keep}
    if kind == "zero":
        length = min(size, rng.randint(1, 64 * 1024))
        start = rng.randrange(size - length + 1)
        return data[:start] + bytes(length) + data[start + length:], {"kind": kind, "start": start, "length": length}
    if kind == "swap":
        length = min(size // 2, rng.randint(1, 16 * 1024))
        first = rng.randrange(size - 2 * length + 1)
        second = rng.randrange(first + length, size - length + 1)
        a, b = data[first:first + length], data[second:second + length]
        swapped = data[:first] + b + data[first + length:second] + a + data[second + length:]
        return swapped, {"kind": kind, "first": first, "second": second, "length": length}
    length = min(size, rng.randint(1, 64 * 1024))
    start = rng.randrange(size - length + 1)
    at = rng.randrange(size + 1)
    chunk = data[start:start + length]
    return data[:at] + chunk + data[at:], {"kind": kind, "start": start, "length": length, "at": at}


def catalogue_path(catalogue, name):
    return next(path for entry, path in catalogue if entry == name)


def make_case(seed, number, catalogue, cache):
    """The source and damaged bytes of case `number` of `seed`: the same on every run."""
    rng = random.Random(f"{seed}:{number}")
    name, path = catalogue[rng.randrange(len(catalogue))]
    if path not in cache:
        with open(path, "rb") as source:
            cache[path] = source.read()
    data, how = damage(cache[path], rng)
    return name, duration(path), data, how


@functools.lru_cache(maxsize=None)
def clean_seconds(marquee, path):
    """How long the undamaged source takes to play as a case is played."""
    return play(marquee, path, 600)[2]


def play(marquee, path, limit):
    """marquee's outcome for one damaged file: (verdict, exit status, seconds, stderr's tail)."""
    started = time.monotonic()
    command = [marquee, "play", path, "--loops", "2", "--untimed", "--video-out", "null", "--audio-out", "null",
               "--hwdec", "software"]
    try:
        run = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                             timeout=limit, check=False)
    except subprocess.TimeoutExpired as expired:
        stderr = expired.stderr.decode(errors="replace") if isinstance(expired.stderr, bytes) else (expired.stderr or "")
        return "hang", None, time.monotonic() - started, stderr[-2000:]
    seconds = time.monotonic() - started
    tail = run.stderr[-2000:]
    if run.returncode < 0:
        return "crash", run.returncode, seconds, tail
    if run.returncode == 0 or (run.returncode == 1 and run.stderr.strip()):
        return "ok", run.returncode, seconds, tail
    return "exit", run.returncode, seconds, tail


def run_case(marquee, seed, number, catalogue, cache, scratch):
    name, seconds, data, how = make_case(seed, number, catalogue, cache)
    path = os.path.join(scratch, f"case-{seed}-{number}{os.path.splitext(name)[1]}")
    with open(path, "wb") as out:
        out.write(data)
    limit = LIMIT_BASE + LIMIT_PER_SECOND * 2 * seconds + CLEAN_FACTOR * clean_seconds(marquee, catalogue_path(catalogue, name))
    verdict, status, took, tail = play(marquee, path, limit)
    return {"seed": seed, "case": number, "source": name, "damage": how, "verdict": verdict, "status": status,
            "seconds": round(took, 2), "limit": limit, "stderr": tail, "path": path}


def keep_failure(result, keep):
    os.makedirs(keep, exist_ok=True)
    kept = os.path.join(keep, os.path.basename(result["path"]))
    os.replace(result["path"], kept)
    record = {key: value for key, value in result.items() if key != "path"}
    record["file"] = kept
    with open(os.path.join(keep, "failures.jsonl"), "a", encoding="utf-8") as log:
        log.write(json.dumps(record) + "\n")
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--marquee", required=True, help="the marquee binary to play the cases with")
    parser.add_argument("--seed", type=int, help="the run's seed (default: a new one, printed)")
    parser.add_argument("--cases", type=int, default=200, help="how many cases to play (default 200)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases played at once (default: the CPUs)")
    parser.add_argument("--media", default=MEDIA, help="the folder of MANIFEST.tsv (default ../shared/media)")
    parser.add_argument("--keep", default=os.path.join(ROOT, ".build", "fuzz-failures"),
                        help="where failing cases are kept (default .build/fuzz-failures)")
    parser.add_argument("--replay", metavar="SEED:CASE", help="play one case again and show its stderr")
    parser.add_argument("--write", metavar="PATH", help="with --replay: write the case's bytes here instead of playing it")
    parser.add_argument("--json", metavar="PATH", help="also write the run's figures here")
    options = parser.parse_args()

    catalogue = sources(options.media)
    if not catalogue:
        sys.exit(f"play_fuzz: no media listed in {options.media}/MANIFEST.tsv")
    cache = {}
    with tempfile.TemporaryDirectory(prefix="marquee-fuzz-") as scratch:
        if options.replay:
            seed, number = (int(part) for part in options.replay.split(":"))
            if options.write:
                with open(options.write, "wb") as case:
                    case.write(make_case(seed, number, catalogue, cache)[2])
                sys.exit(0)
            result = run_case(options.marquee, seed, number, catalogue, cache, scratch)
            print(json.dumps({key: value for key, value in result.items() if key not in ("stderr", "path")}))
            print(result["stderr"], end="")
            sys.exit(0 if result["verdict"] == "ok" else 1)

        seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1 << 31)
        print(f"play_fuzz: seed {seed}, {options.cases} cases, {len(catalogue)} sources, {options.jobs} at once", flush=True)
        started = time.monotonic()
        verdicts = {}
        failures = []
        slowest = 0.0
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
            futures = [pool.submit(run_case, options.marquee, seed, number, catalogue, cache, scratch)
                       for number in range(options.cases)]
            for future in concurrent.futures.as_completed(futures):
                result = future.result()
                verdicts[result["verdict"]] = verdicts.get(result["verdict"], 0) + 1
                slowest = max(slowest, result["seconds"] / result["limit"])
                if result["verdict"] == "ok":
                    os.unlink(result["path"])
                    continue
                kept = keep_failure(result, options.keep)
                failures.append(result)
                print(f"play_fuzz: case {seed}:{result['case']} ({result['source']}, {result['damage']['kind']}): "
                      f"{result['verdict']} (status {result['status']}, {result['seconds']} s); kept as {kept}", flush=True)
        elapsed = time.monotonic() - started
    figures = {"seed": seed, "cases": options.cases, "verdicts": verdicts, "seconds": round(elapsed, 1),
               "slowest_fraction_of_limit": round(slowest, 3),
               "failures": [f"{item['seed']}:{item['case']}" for item in failures]}
    if options.json:
        with open(options.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    print(f"play_fuzz: seed {seed}: {options.cases} cases in {elapsed:.0f} s: "
          + ", ".join(f"{count} {verdict}" for verdict, count in sorted(verdicts.items()))
          + f"; slowest case took {slowest:.0%} of its limit", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
