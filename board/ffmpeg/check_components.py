#!/usr/bin/env python3
"""Every name Marquee's code asks libav for is in board/ffmpeg/components and
in the slim build, and every line of the list was built (issue 23).

The names are read from the Swift sources, where the code asks for them: the
filters of PictureFilter's graphs and FilterGraph's ends, the encoder
PNGWriter finds, the codecs VADevice+Support maps to VA-API (their decoders
and hwaccels), the URL schemes MediaRoots lets a playlist name and the file
protocol PNGWriter writes with, and the containers the code tells apart by
name. What was built is what the slim ffprobe lists (-decoders, -filters...,
and `-h decoder=NAME` for the hardware it can decode on), and for parsers,
which no program lists, the config_components.h configure wrote (the
recipe keeps it in PREFIX/share/marquee). Exits 1 naming
every name that is missing, and where.

    python3 board/ffmpeg/check_components.py [PREFIX]   # default: board/ffmpeg/build's
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCES = os.path.join(ROOT, "Sources")
COMPONENTS = os.path.join(ROOT, "board", "ffmpeg", "components")

# Filters the code never names but libavfilter inserts on its own: where two
# filters' formats do not meet, avfilter_graph_config adds a "scale" (and
# fails without one).
IMPLICIT_FILTERS = {"scale"}
# A URL scheme is served by a protocol, or by a demuxer that opens its own.
SCHEME_PARTS = {
    "http": [("protocol", "http")],
    "https": [("protocol", "https"), ("protocol", "tls")],
    "rtsp": [("demuxer", "rtsp"), ("protocol", "tcp"), ("protocol", "udp"), ("protocol", "rtp")],
    "rtsps": [("demuxer", "rtsp"), ("protocol", "tls")],
    "rtmp": [("protocol", "rtmp"), ("demuxer", "flv")],
    "srt": [("protocol", "libsrt")],
    "udp": [("protocol", "udp")],
    "rtp": [("protocol", "rtp"), ("demuxer", "rtp")],
    "file": [("protocol", "file")],
}
# libavformat's name for a container the code compares against -> configure's demuxer.
CONTAINER_DEMUXERS = {"mov": "mov", "image2": "image2", "webp_pipe": "image_webp_pipe"}
# libavcodec's codec id -> its decoder and its VA-API hwaccel, as configure names them.
CODEC_DECODERS = {"mpeg2video": ("mpeg2video", "mpeg2_vaapi"), "h264": ("h264", "h264_vaapi"),
                  "hevc": ("hevc", "hevc_vaapi"), "vp8": ("vp8", "vp8_vaapi"),
                  "vp9": ("vp9", "vp9_vaapi"), "av1": ("av1", "av1_vaapi")}
# configure's names where ffprobe's listing names the same part otherwise.
LISTED_AS = {("protocol", "libsrt"): "srt", ("demuxer", "mpegps"): "mpeg"}


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def swift_files():
    for folder, _, names in os.walk(SOURCES):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def asked_by_code():
    """(kind, name) -> the source file that asks for it."""
    asked = {}
    for path in swift_files():
        text = read(path)
        where = os.path.relpath(path, ROOT)
        # Filter graphs are built as a `chain` of "name=options" strings.
        for match in re.finditer(r'chain(?:\.append\(|\s*\+=\s*\[)(.*?)(?:\)\n|\])', text, re.S):
            for name in re.findall(r'"([a-z0-9_]+)=', match.group(1)):
                asked[("filter", name)] = where
        for name in re.findall(r'createFilter\("([a-z0-9_]+)"', text):
            asked[("filter", name)] = where
        for codec in re.findall(r'avcodec_find_encoder\(AV_CODEC_ID_([A-Z0-9_]+)\)', text):
            asked[("encoder", codec.lower())] = where
        # Asked by name (none today; a call added later is checked from its first day).
        for call, kind in (("avcodec_find_decoder_by_name", "decoder"), ("avcodec_find_encoder_by_name", "encoder"),
                           ("av_find_input_format", "demuxer"), ("avfilter_get_by_name", "filter")):
            for name in re.findall(call + r'\("([a-z0-9_]+)"', text):
                asked[(kind, CONTAINER_DEMUXERS.get(name, name) if kind == "demuxer" else name)] = where
        if path.endswith("VADevice+Support.swift"):
            for codec in re.findall(r'case \(AV_CODEC_ID_([A-Z0-9_]+),', text):
                decoder, hwaccel = CODEC_DECODERS[codec.lower()]
                asked[("decoder", decoder)] = where
                asked[("hwaccel", hwaccel)] = where
        schemes = re.search(r'static let schemes = \[(.*?)\]', text)
        if schemes:
            for scheme in re.findall(r'"([a-z0-9+]+)"', schemes.group(1)):
                for part in SCHEME_PARTS[scheme]:
                    asked[part] = where
        if re.search(r'avio_open\([^)]*"file:"', text):
            for part in SCHEME_PARTS["file"]:
                asked[part] = where
        for container in re.findall(r'containerFormat(?: ==|\.hasPrefix\() ?"([a-z0-9_]+)', text):
            asked[("demuxer", CONTAINER_DEMUXERS[container])] = where
    for name in IMPLICIT_FILTERS:
        asked[("filter", name)] = "libavfilter's format negotiation"
    return asked


def listed():
    """(kind, name) of every line of the components list."""
    parts = set()
    for line in read(COMPONENTS).splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            parts.add((fields[0], fields[1]))
    return parts


def ffprobe(prefix, *args):
    # The libraries carry no run path: the slim ffprobe is pointed at them.
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(prefix, "lib"))
    result = subprocess.run([os.path.join(prefix, "bin", "ffprobe"), "-hide_banner", *args],
                            capture_output=True, text=True, check=True, env=env)
    return result.stdout


def built(prefix):
    """(kind, name) of every part the slim ffprobe lists, by its listed name."""
    parts = set()
    for kind, option in [("decoder", "-decoders"), ("encoder", "-encoders"), ("filter", "-filters")]:
        for line in ffprobe(prefix, option).splitlines():
            # " V....D h264    H.264 / ..." after the legend, which ends at a " ------" line.
            match = re.match(r'^ [A-Z.|]{3,6} (\S+)\s', line)
            if match and match.group(1) != "=":
                parts.add((kind, match.group(1)))
    for line in ffprobe(prefix, "-demuxers").splitlines():
        match = re.match(r'^ D[ E] (\S+)\s', line)
        if match:
            parts.add(("demuxer", match.group(1).split(",")[0]))
    protocols = ffprobe(prefix, "-protocols")
    inputs = protocols.split("Input:")[1].split("Output:")[0]
    parts |= {("protocol", name) for name in inputs.split()}
    parts |= {("library", name) for name in ffprobe(prefix, "-buildconf").split()}
    # No program lists parsers; configure's header of what it enabled does.
    config = read(os.path.join(prefix, "share", "marquee", "config_components.h"))
    parts |= {("parser", name.lower()) for name in re.findall(r'#define CONFIG_([A-Z0-9_]+)_PARSER 1', config)}
    return parts


def built_hwaccels(prefix, decoders):
    """decoder -> whether its help names VA-API among its hardware devices."""
    found = {}
    for decoder in decoders:
        help_text = ffprobe(prefix, "-h", f"decoder={decoder}")
        devices = re.search(r'Supported hardware devices:(.*)', help_text)
        found[decoder] = bool(devices and "vaapi" in devices.group(1).split())
    return found


def listed_name(kind, name):
    if (kind, name) in LISTED_AS:
        return LISTED_AS[(kind, name)]
    if kind == "demuxer" and name.startswith("image_") and name.endswith("_pipe"):
        return name[len("image_"):]
    return name


def main():
    prefix = sys.argv[1] if len(sys.argv) > 1 else subprocess.run(
        [os.path.join(ROOT, "board", "ffmpeg", "build")], capture_output=True, text=True, check=True).stdout.strip()
    asked = asked_by_code()
    in_list = listed()
    in_build = built(prefix)
    failures = []

    for (kind, name), where in sorted(asked.items()):
        if (kind, name) not in in_list:
            failures.append(f"{where} asks for {kind} '{name}', which board/ffmpeg/components leaves out")

    # Every line was built (configure drops a part whose dependency is missing, silently).
    hwaccel_decoders = {name.rsplit("_", 1)[0].replace("mpeg2", "mpeg2video"): name
                        for kind, name in in_list if kind == "hwaccel"}
    on_vaapi = built_hwaccels(prefix, sorted(hwaccel_decoders))
    for kind, name in sorted(in_list):
        if kind == "hwaccel":
            decoder = name.rsplit("_", 1)[0].replace("mpeg2", "mpeg2video")
            present = on_vaapi[decoder]
        elif kind == "library":
            present = ("library", f"--enable-{name}") in in_build
        else:
            present = (kind, listed_name(kind, name)) in in_build
        if not present:
            failures.append(f"board/ffmpeg/components lists {kind} '{name}', but the build in {prefix} has none")

    # Nothing beyond the list and what it depends on: the build has no encoder or
    # muxer-side part but the listed ones.
    extra_encoders = {name for kind, name in in_build if kind == "encoder"} - {n for k, n in in_list if k == "encoder"}
    if extra_encoders:
        failures.append(f"the build has encoders board/ffmpeg/components does not list: {', '.join(sorted(extra_encoders))}")

    for failure in failures:
        print(f"check_components: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"check_components: {len(asked)} names the code asks for, {len(in_list)} listed parts, all built in {prefix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
