#!/usr/bin/env python3
"""What deinterlacing and tone mapping cost (issue 15). Run through bench/run --filters.

CPU per frame of marquee playing untimed to a null display that takes only
XRGB8888 (so every picture is converted as for a KMS plane without YUV), on
interlaced clips with bwdif at frame and at field rate and without
deinterlacing, and on HDR10 (PQ) clips tone mapped to SDR and the same
bitstream tagged SDR BT.709 (decoded alike, only converted). Beside it the
ffmpeg CLI doing the same: decode, the same filters, bgr0. Written as ratios:
each filter's cost over plain conversion, and marquee over ffmpeg. CPU time
and runs come from bench.py's `measure` (wait4), interleaved and rotated the
same way. Standard library only.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (measuring, summaries, metadata)
from bench import CLIPS, OUT, log, measure, ratio, rotated, summary  # noqa: E402

GRAIN = bench.GRAIN
FIELDS = "60000/1001"  # the interlaced clips are shot at 59.94 fields a second

# name -> (size, seconds, how the picture is made interlaced or HDR, encoder arguments)
INTERLACED = {
    # DVD and SD broadcast: MPEG-2 4:2:0, top field first.
    "mpeg2-480i": ("720x480", 10, ["-c:v", "mpeg2video", "-b:v", "6M", "-maxrate", "8M", "-bufsize", "2M",
                                    "-flags", "+ilme+ildct", "-top", "1", "-field_order", "tt"]),
    # HD broadcast: H.264 interlaced (x264's PAFF/MBAFF), top field first.
    "h264-1080i": ("1920x1080", 5, ["-c:v", "libx264", "-preset", "veryfast", "-b:v", "12M", "-maxrate", "12M",
                                     "-bufsize", "24M", "-flags", "+ilme+ildct", "-top", "1", "-field_order", "tt"]),
}
HDR = {
    "hevc-pq-480p": ("720x480", 10),
    "hevc-pq-1080p": ("1920x1080", 5),
}
PQ_TAGS = ["-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc"]
SDR_TAGS = ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]

# The operator marquee applies (PictureFilters+Graph.swift), as ffmpeg's filters.
TONEMAP = ("zscale=tin=smpte2084:min=2020_ncl:pin=2020:rin=tv:t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,"
           "tonemap=tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p")


def cached(name, recipe, make):
    """`make(path)` once per recipe; the clip and its frame count are cached in bench/out/clips."""
    os.makedirs(CLIPS, exist_ok=True)
    digest = hashlib.sha1(json.dumps(recipe, sort_keys=True).encode()).hexdigest()[:10]
    path = os.path.join(CLIPS, f"{name}-{digest}.mkv")
    if not os.path.exists(path):
        log(f"  making {name} ...")
        partial = path + ".partial.mkv"
        make(partial)
        os.replace(partial, path)
    return path


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *arguments], check=True)


def frame_count(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                          "stream=nb_read_frames", "-of", "default=noprint_wrappers=1:nokey=1", path],
                         check=True, capture_output=True, text=True)
    return int(out.stdout.split()[0])


def make_clips():
    clips = {}
    for name, (size, seconds, encoder) in INTERLACED.items():
        source = f"testsrc2=size={size}:rate={FIELDS}:duration={seconds},{GRAIN}"
        path = cached(name, {"source": source, "encoder": encoder, "version": 1}, lambda out: ffmpeg(
            "-f", "lavfi", "-i", source, "-vf", "tinterlace=interleave_top,setfield=tff", *encoder, "-pix_fmt", "yuv420p", out))
        clips[name] = {"kind": "interlaced", "path": path, "frames": frame_count(path)}
    for name, (size, seconds) in HDR.items():
        source = f"testsrc2=size={size}:rate=30:duration={seconds},{GRAIN}"
        encoder = ["-c:v", "libx265", "-preset", "ultrafast", "-b:v", "8M", "-pix_fmt", "yuv420p10le",
                   "-x265-params", "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc", *PQ_TAGS]
        path = cached(name, {"source": source, "encoder": encoder, "version": 1},
                      lambda out: ffmpeg("-f", "lavfi", "-i", source, *encoder, out))
        # The same bitstream, its VUI and container tags rewritten to SDR BT.709: decoded alike, never tone mapped.
        plain = cached(name + "-as-sdr", {"from": path}, lambda out: ffmpeg(
            "-i", path, "-c", "copy", "-bsf:v", "hevc_metadata=colour_primaries=1:transfer_characteristics=1:matrix_coefficients=1",
            *SDR_TAGS, out))
        clips[name] = {"kind": "hdr", "path": path, "plain": plain, "frames": frame_count(path)}
    return clips


def cases(clip, marquee):
    """(case, marquee command, ffmpeg command) for one clip; the first case is plain conversion."""
    def player(path, *flags):
        return [marquee, "play", path, "--untimed", "--threads", "2", "--no-audio", "--video-out", "null:xrgb8888", *flags]

    def cli(path, *filters):
        chain = ["-vf", ",".join(filters)] if filters else []
        return ["ffmpeg", "-nostdin", "-threads", "2", "-i", path, "-an", *chain, "-pix_fmt", "bgr0", "-f", "null", "-"]

    path = clip["path"]
    if clip["kind"] == "interlaced":
        return [("plain", player(path, "--deinterlace", "off"), cli(path)),
                ("bwdif frame", player(path), cli(path, "bwdif=mode=send_frame:parity=auto:deint=interlaced")),
                ("bwdif field", player(path, "--deinterlace-rate", "field"),
                 cli(path, "bwdif=mode=send_field:parity=auto:deint=interlaced"))]
    return [("plain", player(clip["plain"]), cli(clip["plain"])),
            ("tonemap PQ->SDR", player(path), cli(path, TONEMAP))]


def bench_filters(clips, marquee, reps):
    rows = []
    for name, clip in clips.items():
        runs = {}
        jobs = [(case, tool, command) for case, mine, theirs in cases(clip, marquee)
                for tool, command in (("marquee", mine), ("ffmpeg", theirs))]
        for rep in range(reps):
            for case, tool, command in rotated(jobs, rep):
                run = measure(command)
                runs.setdefault((case, tool), []).append(run.cpu * 1000 / clip["frames"])
        plain = {tool: summary(runs[("plain", tool)]) for tool in ("marquee", "ffmpeg")}
        for case, _, _ in cases(clip, marquee):
            mine, theirs = summary(runs[(case, "marquee")]), summary(runs[(case, "ffmpeg")])
            rows.append({"clip": name, "frames": clip["frames"], "case": case,
                         "marquee_cpu_ms_per_frame": mine, "ffmpeg_cpu_ms_per_frame": theirs,
                         "marquee_over_ffmpeg": ratio(mine, theirs),
                         "marquee_over_plain": ratio(mine, plain["marquee"]),
                         "ffmpeg_over_plain": ratio(theirs, plain["ffmpeg"])})
        log(f"  {name} done")
    return rows


def print_report(rows):
    lines = ["CPU ms per decoded frame (median of the repetitions), to XRGB8888; ratios of medians",
             f"  {'clip':<15} {'case':<16} {'marquee':>8} {'ffmpeg':>8} {'m/ffmpeg':>9} {'m/plain':>8} {'ff/plain':>9}"]
    for row in rows:
        def cell(value, width, digits=2):
            return f"{'-' if value is None else f'{value:.{digits}f}':>{width}}"
        lines.append(f"  {row['clip']:<15} {row['case']:<16} {cell(row['marquee_cpu_ms_per_frame']['median'], 8)} "
                     f"{cell(row['ffmpeg_cpu_ms_per_frame']['median'], 8)} {cell(row['marquee_over_ffmpeg'], 9)} "
                     f"{cell(row['marquee_over_plain'], 8)} {cell(row['ffmpeg_over_plain'], 9)}")
    text = "\n".join(lines)
    print(text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--marquee", default=os.path.join(bench.ROOT, ".build", "release", "marquee"))
    parser.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "3")))
    parser.add_argument("--json", default=os.path.join(OUT, "filters.json"))
    args = parser.parse_args()
    if not os.access(args.marquee, os.X_OK):
        sys.exit(f"bench: {args.marquee} not found (bench/run builds it)")
    revision, cpu = bench.revision_and_cpu()
    results = {"meta": {"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "marquee_revision": revision, "cpu": cpu,
                        "cores": os.cpu_count(), "reps": args.reps,
                        "ffmpeg": subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.split(" Copyright")[0],
                        "load_before": " ".join(f"{x:.2f}" for x in os.getloadavg())}}
    started = time.monotonic()
    log("filters: clips")
    clips = make_clips()
    log("filters: runs")
    results["filters"] = bench_filters(clips, args.marquee, args.reps)
    results["meta"]["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    results["meta"]["bench_seconds"] = round(time.monotonic() - started)
    results["table"] = print_report(results["filters"])
    bench.write_results(results, args.json, "filters")


if __name__ == "__main__":
    main()
