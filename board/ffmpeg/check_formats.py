#!/usr/bin/env python3
"""The slim FFmpeg plays what docs/formats.md says, and everything Debian's
plays (issue 23).

1. Each row of the supported formats table in docs/formats.md names a
   fixture of ../shared/media (or generated/NAME: a picture, or an HLS
   stream served over loopback HTTP, made here with Debian's ffmpeg):
   `marquee play` built against the slim prefix plays it (exit 0, no error
   line) and presents its pictures or writes its sound.
2. Every file of ../shared/media/MANIFEST.tsv is played by both binaries,
   the one on Debian's libav* and the one on the slim build: wherever the
   first presents frames or writes sound, the second presents as many
   frames, writes as much sound and shows the picture alike (size,
   orientation, colour, the deinterlacing and tone mapping applied: --stats'
   "picture"), unless docs/formats.md lists the file as out of scope, with
   its reason. A file listed there that plays the same on both
   is an error too (the list would be stale).

Untimed, on the null outputs, software decoding; a clip longer than 30 s is
played from 10 s before its end (its container and codecs are what is
checked, not its length).

    python3 board/ffmpeg/check_formats.py --debian .build/debug/marquee --slim .build/slim/debug/marquee
"""

import argparse
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MEDIA = os.path.abspath(os.path.join(ROOT, "..", "shared", "media"))
FORMATS = os.path.join(ROOT, "docs", "formats.md")
LONG_S = 30
TAIL_S = 10


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def supported_fixtures():
    """(format, fixture) of each row of the table under '## Supported'."""
    section = re.search(r'^## Supported\n(.*?)(?=^## )', read(FORMATS), re.S | re.M).group(1)
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        fixture = re.search(r'`([^`]+)`', cells[-1]) if line.startswith("|") else None
        if fixture:
            rows.append((cells[0], fixture.group(1)))
    return rows


def out_of_scope():
    """Files of the manifest docs/formats.md leaves out, each with its reason."""
    section = re.search(r'^## Out of scope\n(.*?)(?=^## |\Z)', read(FORMATS), re.S | re.M).group(1)
    return dict(re.findall(r'^- `([^`]+)`: (.+)$', section, re.M))


def generated(fixture, folder, server):
    """What ../shared/media has none of, made with Debian's ffmpeg: a picture
    ("generated/picture.png", one testsrc2 frame), or an HLS stream
    ("generated/stream.m3u8", 2 s of H.264 and AAC in MPEG-TS segments),
    whose URL on the loopback HTTP server is returned."""
    name = os.path.basename(fixture)
    path = os.path.join(folder, name)
    ffmpeg = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
    if name.endswith(".m3u8"):
        subprocess.run([*ffmpeg, "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
                        "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-g", "25", "-c:a", "aac",
                        "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_playlist_type", "vod", path],
                       check=True)
        return f"http://127.0.0.1:{server.server_address[1]}/{name}"
    subprocess.run([*ffmpeg, "-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", path], check=True)
    return path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_):
        pass  # the check's output is its verdict, not the requests


def serve(folder):
    """An HTTP server on a loopback port for the files of `folder`, on a thread of its own."""
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def manifest():
    lines = read(os.path.join(MEDIA, "MANIFEST.tsv")).splitlines()[1:]
    return [line.split("\t")[0] for line in lines if line.strip()]


def duration(path):
    result = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                            capture_output=True, text=True)
    try:
        return float(result.stdout.strip())
    except ValueError:
        return None


def play(marquee, path):
    """(exit status, frames presented, audio frames written, stderr, the picture as
    shown: size, orientation, colour and the filters applied) of one untimed play."""
    arguments = [marquee, "play", path, "--untimed", "--video-out", "null", "--audio-out", "null",
                 "--hwdec", "software", "--image-duration", "1"]
    seconds = duration(path)
    if seconds and seconds > LONG_S:
        arguments += ["--start", f"{seconds - TAIL_S:.3f}"]
    with tempfile.NamedTemporaryFile(suffix=".json") as stats:
        result = subprocess.run([*arguments, "--stats", stats.name], capture_output=True, text=True, timeout=120)
        try:
            counters = json.loads(read(stats.name))
        except ValueError:
            counters = {}
    return (result.returncode, counters.get("framesPresented", 0), counters.get("audioFramesWritten", 0),
            result.stderr.strip(), counters.get("picture"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--debian", required=True, help="marquee built against Debian's libav*")
    parser.add_argument("--slim", required=True, help="marquee built against board/ffmpeg/build's prefix")
    args = parser.parse_args()
    failures = []

    fixtures = supported_fixtures()
    if not fixtures:
        failures.append(f"{FORMATS}: no fixtures found in the table under '## Supported'")
    scratch = tempfile.mkdtemp(prefix="check-formats-")
    server = serve(scratch)
    for name, fixture in fixtures:
        path = generated(fixture, scratch, server) if fixture.startswith("generated/") else os.path.join(MEDIA, fixture)
        status, frames, samples, errors, _ = play(args.slim, path)
        if status != 0 or errors or (frames == 0 and samples == 0):
            failures.append(f"{name}: {fixture} does not play on the slim build (exit {status}, {frames} frames, "
                            f"{samples} audio frames): {errors or 'nothing shown or heard'}")

    server.shutdown()
    shutil.rmtree(scratch)

    excluded = out_of_scope()
    files = manifest()
    for path in sorted(set(excluded) - set(files)):
        failures.append(f"{FORMATS} lists {path} as out of scope, but ../shared/media/MANIFEST.tsv has no such file")
    played = 0
    for path in files:
        debian = play(args.debian, os.path.join(MEDIA, path))
        slim = play(args.slim, os.path.join(MEDIA, path))
        plays_today = debian[1] > 0 or debian[2] > 0
        same = debian[1:3] == slim[1:3] and debian[4] == slim[4] and (debian[0] == 0) == (slim[0] == 0)
        played += plays_today
        if plays_today and not same and path not in excluded:
            failures.append(f"{path}: Debian's libav* {debian[1]} frames, {debian[2]} audio frames, picture "
                            f"'{debian[4]}'; the slim build {slim[1]}, {slim[2]}, '{slim[4]}' "
                            f"(exit {slim[0]}: {slim[3] or 'no error line'}); "
                            "list it in docs/formats.md's out of scope with the reason, or add what it needs to "
                            "board/ffmpeg/components")
        if path in excluded and (same or not plays_today):
            failures.append(f"{path}: listed as out of scope in docs/formats.md, but the slim build plays it as "
                            "Debian's does" if same else f"{path}: listed as out of scope, but it does not play on "
                            "Debian's libav* either")

    for failure in failures:
        print(f"check_formats: {failure}", file=sys.stderr)
    if failures:
        return 1
    exceptions = f" but the {len(excluded)} out of scope" if excluded else ""
    print(f"check_formats: {len(fixtures)} formats play on the slim build; {played} of {len(files)} files of "
          f"../shared/media play on Debian's libav*, all alike on the slim build{exceptions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
