"""Screen layouts on the board (issue 38): `[[layer]]` zones, each its own
player, on one display or on two heads. On bochs (a primary plane only) every layer is
composed in software and each zone of a capture is checked against ffmpeg's
rendering of what it plays; on vkms (overlay planes) the video layer goes on
a plane of its own and the screen's CRC is the one of the same layout
composed in software; on virtio-gpu with two outputs each head shows its
own layout, or, mirrored, the same one, and one head unplugged does not
stop the other.

Imported by `scenarios`, which passes itself as `board`.
"""

import json
import math
import os
import tempfile

from kms_scenarios import SCREEN, SETTLE_S, ffmpeg, marquee_errors, placement

# Where the zones are, on bochs's 1280x800 and on vkms's 1024x768 alike.
VIDEO_RECT = (64, 80, 640, 360)     # a 320x180 clip, scaled by 2
PICTURE_RECT = (736, 80, 256, 192)  # 320x240 pictures, scaled by 0.8
SEGMENT_S = 2.0                     # the clip: four still pictures, 2 s each
PICTURE_S = 3.0                     # each picture's duration in its playlist
MINIMUM_DB = 35.0
# The one mode both virtio-gpu heads offer that holds the zones (the second, lit through sysfs, lacks 1280x800).
HEAD_SCREEN = (1024, 768)


def layout_toml(video, pictures, extra=""):
    items = ", ".join(f'{{ path = "{name}", duration = {PICTURE_S} }}' for name in pictures)
    return f"""[playback]
loop = "playlist"
{extra}
[playlists.offers]
items = [{items}]
loop = "playlist"

[[layer]]
name = "video"
rect = {list(VIDEO_RECT)}
items = ["{video}"]

[[layer]]
name = "offers"
rect = {list(PICTURE_RECT)}
playlist = "offers"
"""


def make_segments(share):
    """segments.mp4: testsrc2's pictures at 0, 1, 2 and 3 s, each held for
    SEGMENT_S (lossless, so every frame of a segment is the same), and the
    four pictures as PNGs."""
    stills = []
    for index in range(4):
        png = os.path.join(share, f"segment{index}.png")
        ffmpeg("-f", "lavfi", "-i", f"testsrc2=size=320x180:rate=1:duration=4", "-vf", f"select=eq(n\\,{index})",
               "-frames:v", "1", png)
        stills.append(png)
    listing = os.path.join(share, "segments.txt")
    with open(listing, "w") as f:
        for png in stills:
            f.write(f"file '{png}'\nduration {SEGMENT_S}\n")
        f.write(f"file '{stills[-1]}'\n")
    ffmpeg("-f", "concat", "-safe", "0", "-i", listing, "-vf", "fps=25", "-c:v", "libx264", "-qp", "0",
           "-pix_fmt", "yuv420p", "-t", str(4 * SEGMENT_S), os.path.join(share, "segments.mp4"))
    return stills


def make_pictures(share):
    """Two 320x240 pictures unlike each other and unlike the clip."""
    names = []
    for name, source in (("offer-a.png", "smptebars"), ("offer-b.png", "rgbtestsrc")):
        ffmpeg("-f", "lavfi", "-i", f"{source}=size=320x240:rate=1", "-frames:v", "1", os.path.join(share, name))
        names.append(name)
    return names


def zone_reference(source, size, rect, out_path, at=0.0):
    """`source`'s picture at `at` seconds placed in `rect` as a layer places
    it (resizeAspect), as raw RGB of the rect's size: decoded from the file
    the player plays, 4:2:0 and all, and scaled and converted in one step."""
    _, _, width, height = rect
    (cx, cy, cw, ch), (dx, dy, dw, dh) = placement(*size, "resizeAspect", screen=(width, height))
    chain = f"crop={cw}:{ch}:{cx}:{cy},scale={dw}:{dh}:flags=bilinear,pad={width}:{height}:{dx}:{dy}:black"
    ffmpeg("-ss", str(at), "-i", source, "-frames:v", "1", "-vf", chain, "-f", "rawvideo", "-pix_fmt", "rgb24", out_path)
    return open(out_path, "rb").read()


def crop(rows, rect):
    x, y, width, height = rect
    return b"".join(row[x * 3:(x + width) * 3] for row in rows[y:y + height])


def psnr(a, b):
    mse = sum((p - q) * (p - q) for p, q in zip(a, b)) / len(a)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def best_match(zone, references):
    """(index, dB) of the reference the zone is nearest to."""
    scores = [psnr(zone, reference) for reference in references]
    best = max(range(len(scores)), key=lambda i: scores[i])
    return best, scores[best]


def scenario_kms_layout(board, out):
    """Must-show 1: a looping clip in one zone and a looping pair of
    pictures in another, on bochs. Six captures 1.3 s apart: each zone
    matches one of its content's ffmpeg renderings at >= 35 dB, outside the
    zones the screen is the background, and both zones change on their own
    durations (the clip's segments every 2 s, the pictures every 3 s)."""
    os.makedirs(out, exist_ok=True)
    share = tempfile.mkdtemp(prefix="layout-share-")
    stills = make_segments(share)
    pictures = make_pictures(share)
    with open(os.path.join(share, "layout.toml"), "w") as f:
        f.write(layout_toml("segments.mp4", pictures))
    shots = [f"t{i}" for i in range(6)]
    command = f"""
marquee play --config /mnt/host/layout.toml --audio-out null >/dev/null 2>>/mnt/host/errors.txt & pid=$!
sleep {SETTLE_S}
for name in {' '.join(shots)}; do shot $name; usleep 1300000; done
kill -TERM $pid; wait $pid; echo "exit $?"
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    board.check(marquee_errors(share) == "", f"marquee reported: {marquee_errors(share)}")
    board.check("exit 0" in stdout, f"marquee did not exit 0:\n{stdout}")
    clip = os.path.join(share, "segments.mp4")
    video_refs = [zone_reference(clip, (320, 180), VIDEO_RECT, os.path.join(share, f"v{i}.rgb"), at=(i + 0.5) * SEGMENT_S)
                  for i in range(len(stills))]
    picture_refs = [zone_reference(os.path.join(share, name), (320, 240), PICTURE_RECT, os.path.join(share, f"p{i}.rgb"))
                    for i, name in enumerate(pictures)]
    seen_video, seen_pictures, worst = [], [], math.inf
    for name in shots:
        width, height, rows = board.read_png_rgb(os.path.join(out, f"{name}.png"))
        board.check((width, height) == SCREEN, f"{name}.png is {width}x{height}")
        video, video_db = best_match(crop(rows, VIDEO_RECT), video_refs)
        picture, picture_db = best_match(crop(rows, PICTURE_RECT), picture_refs)
        board.check(video_db >= MINIMUM_DB, f"{name}: the video zone is {video_db:.1f} dB from its nearest segment ({video})")
        board.check(picture_db >= MINIMUM_DB, f"{name}: the picture zone is {picture_db:.1f} dB from its nearest picture ({picture})")
        # Between and around the zones: the background, black.
        for x, y in ((8, 8), (720, 300), (1270, 790), (400, 600)):
            board.check(board.pixel(rows, x, y) == (0, 0, 0), f"{name}: ({x}, {y}) is {board.pixel(rows, x, y)}, not the background")
        seen_video.append(video)
        seen_pictures.append(picture)
        worst = min(worst, video_db, picture_db)
    board.check(len(set(seen_video)) >= 3, f"the video zone showed segments {seen_video}: it did not play on")
    board.check(len(set(seen_pictures)) == 2, f"the picture zone showed {seen_pictures}: its playlist did not advance")
    board.check(seen_video != seen_pictures, "both zones changed in step: they should follow their own durations")
    return (f"6 captures: video zone segments {' '.join(map(str, seen_video))}, picture zone {' '.join(map(str, seen_pictures))}; "
            f"every zone >= {worst:.1f} dB from ffmpeg's rendering")


def plane_blocks(state):
    """debugfs `state`'s planes: {name: {field: value}} for those with a framebuffer."""
    planes, current = {}, None
    for line in state.splitlines():
        if line.startswith("plane["):
            current = planes.setdefault(line.split(":")[0], {})
        elif current is not None and "=" in line and line.startswith(("\t", " ")):
            key, value = (part.strip() for part in line.split("=", 1))
            current.setdefault(key, value)
        elif not line.startswith(("\t", " ")):
            current = None
    return {name: fields for name, fields in planes.items() if fields.get("fb", "0") != "0"}


def plane_vs_primary(board, out, share, config, wait_s):
    """Plays `config` (in `share`) on vkms twice in one boot: with planes
    (`--plane auto`) and with everything composed into the primary plane
    (`--plane primary`); checks both exit 0 with nothing on stderr. Returns
    the screen's CRCs over 3 s, wait_s after it settled, for each; those
    taken as it settled; and debugfs's state of each."""
    crc = "/sys/kernel/debug/dri/0/crtc-0/crc"
    command = f"""
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
crcs() {{ echo auto > {crc}/control; timeout 3 cat {crc}/data > /tmp/crc.txt; tail -n 8 /tmp/crc.txt | cut -d' ' -f2 | sort -u | tr '\\n' ' '; }}
for plane in auto primary; do
  marquee play --config /mnt/host/{config} --audio-out null --plane $plane >/dev/null 2>>/mnt/host/errors.txt & pid=$!
  sleep {SETTLE_S}
  echo "early $plane: $(crcs)"
  sleep {wait_s}
  echo "crc $plane: $(crcs)"
  cp /sys/kernel/debug/dri/0/state /mnt/host/state-$plane.txt
  kill -TERM $pid; wait $pid; echo "exit $plane $?"
done
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "vkms", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    board.check(marquee_errors(share) == "", f"marquee reported: {marquee_errors(share)}")
    for plane in ("auto", "primary"):
        board.check(f"exit {plane} 0" in stdout, f"marquee --plane {plane} did not exit 0:\n{stdout}")
    lines = dict(l.split(": ", 1) for l in stdout.splitlines() if l.startswith("crc ") and ": " in l)
    auto, primary = (lines.get(f"crc {k}", "").split() for k in ("auto", "primary"))
    early = {k: v for k, v in (l.split(": ", 1) for l in stdout.splitlines() if l.startswith("early ") and ": " in l)}
    states = {k: open(os.path.join(share, f"state-{k}.txt")).read() for k in ("auto", "primary")}
    return auto, primary, early, states


def scenario_kms_layout_vkms(board, out):
    """Must-show 2: the same layout (a still clip and one picture, so the
    screen does not change) on vkms, whose overlay planes take a layer at
    its size: the video layer is on an overlay plane of its own, at its
    rect, with a buffer marquee allocated (debugfs state); and the composed
    screen's CRC equals the CRC of the same layout with every layer composed
    in software (`--plane primary`), the path kms-layout checks against
    ffmpeg on bochs."""
    os.makedirs(out, exist_ok=True)
    share = tempfile.mkdtemp(prefix="layout-share-")
    stills = make_segments(share)
    ffmpeg("-loop", "1", "-framerate", "25", "-i", stills[1], "-t", "3", "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p",
           os.path.join(share, "still.mp4"))
    pictures = make_pictures(share)
    with open(os.path.join(share, "layout.toml"), "w") as f:
        f.write(layout_toml("still.mp4", pictures[:1]))
    auto, primary, early, states = plane_vs_primary(board, out, share, "layout.toml", 6)
    board.check(len(auto) == 1 and len(primary) == 1,
                f"a still layout should give one CRC each: auto {auto}, primary {primary} (6 s earlier: {early})")
    board.check(auto == primary, f"with planes the screen's CRC {auto} differs from the software composition's {primary}")
    x, y, width, height = VIDEO_RECT
    position = f"{width}x{height}+{x}+{y}"
    with_planes, composed = (plane_blocks(states[k]) for k in ("auto", "primary"))
    video_plane = [name for name, fields in with_planes.items() if fields.get("crtc-pos") == position]
    board.check(video_plane, f"no plane at the video's rect {position}: {with_planes}")
    board.check(with_planes[video_plane[0]].get("allocated by", "").startswith("marquee"),
                f"{video_plane[0]} at the video's rect does not show marquee's buffer: {with_planes[video_plane[0]]}")
    board.check(len(composed) == 1, f"--plane primary should leave one plane in use, the primary: {composed}")
    return (f"video layer on {video_plane[0]} at {position}, {len(with_planes)} planes in use; CRC {auto[0]} = "
            f"all layers composed in software")


def heads_toml(video, pictures):
    """The video zone on the first head, the pictures on the second."""
    items = ", ".join(f'{{ path = "{name}", duration = {PICTURE_S} }}' for name in pictures)
    return f"""[playback]
loop = "playlist"
[display]
mode = "1024x768"
[playlists.offers]
items = [{items}]
loop = "playlist"

[[layer]]
name = "video"
display = "Virtual-1"
rect = {list(VIDEO_RECT)}
items = ["{video}"]

[[layer]]
name = "offers"
display = "Virtual-2"
rect = {list(PICTURE_RECT)}
playlist = "offers"
"""


def frames_between(log, start, end):
    """(frames shown, gaps of more than one frame) in the presentation log
    between two guest uptimes (CLOCK_MONOTONIC, as the log's times)."""
    times = [(r["displayTime"], r["pts"]) for r in log if start <= r["displayTime"] < end]
    gaps = sum(1 for (_, a), (_, b) in zip(times, times[1:]) if 0 < b - a > 1.5 / 25)
    return len(times), gaps


def scenario_kms_layout_heads(board, out):
    """Must-show 3, on virtio-gpu with two outputs (QEMU lights only the
    first without a UI; the second is forced on through sysfs). One layout
    per head: the video zone on Virtual-1 and the pictures on Virtual-2,
    each matching ffmpeg's rendering (>= 35 dB) and black where the other
    head's zone is. Virtual-2 unplugged (its connector forced off) for 6 s:
    one line, and Virtual-1's player shows as many frames, with no more
    gaps, as in the 6 s before; plugged back, its layout is shown again.
    Then `[display] mirror`: the same layout on both heads, the two
    captures >= 35 dB from each other. Last, a layer on a connector the
    card lacks: one line, waited for, and the other display plays."""
    os.makedirs(out, exist_ok=True)
    share = tempfile.mkdtemp(prefix="heads-share-")
    stills = make_segments(share)
    pictures = make_pictures(share)
    ffmpeg("-loop", "1", "-framerate", "25", "-i", stills[1], "-t", "3", "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p",
           os.path.join(share, "still.mp4"))
    with open(os.path.join(share, "heads.toml"), "w") as f:
        f.write(heads_toml("segments.mp4", pictures))
    with open(os.path.join(share, "unknown.toml"), "w") as f:
        f.write(heads_toml("segments.mp4", pictures).replace('"Virtual-2"', '"HDMI-A-9"'))
    with open(os.path.join(share, "mirror.toml"), "w") as f:
        f.write(layout_toml("still.mp4", pictures[:1], extra='[display]\nmode = "1024x768"\nmirror = true'))
    second = "/sys/class/drm/card0-Virtual-2/status"
    command = f"""
echo on > {second}
uptime() {{ cut -d' ' -f1 /proc/uptime; }}
cd /mnt/host
marquee play --config heads.toml --audio-out null --presentation-log present.jsonl >/dev/null 2>>errors.txt & pid=$!
sleep {SETTLE_S}
shot own0 0; shot own1 1
echo "before $(uptime)"; sleep 6
echo "off $(uptime)"; echo off > {second}; sleep 6
shot gone0 0
echo "on $(uptime)"; echo on > {second}; sleep 4
shot back0 0; shot back1 1
kill -TERM $pid; wait $pid; echo "exit own $?"
marquee play --config mirror.toml --audio-out null >/dev/null 2>>errors-mirror.txt & pid=$!
sleep {SETTLE_S}
shot mirror0 0; shot mirror1 1
kill -TERM $pid; wait $pid; echo "exit mirror $?"
marquee play --config unknown.toml --audio-out null >/dev/null 2>>errors-unknown.txt & pid=$!
sleep {SETTLE_S}
shot unknown0 0
kill -TERM $pid; wait $pid; echo "exit unknown $?"
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "virtio2", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    for run in ("own", "mirror", "unknown"):
        board.check(f"exit {run} 0" in stdout, f"marquee ({run}) did not exit 0:\n{stdout}")
    errors = marquee_errors(share).splitlines()
    expected = ["display Virtual-2 disconnected", "display Virtual-2 is back: 1024x768"]
    board.check(len(errors) == 2 and all(e in l for e, l in zip(expected, errors)),
                f"expected one line as Virtual-2 goes and one as it comes back: {errors}")
    mirror_errors = [l for l in open(os.path.join(share, "errors-mirror.txt")).read().splitlines() if "display:" not in l]
    board.check(not mirror_errors, f"marquee (mirror) reported: {mirror_errors}")

    clip = os.path.join(share, "segments.mp4")
    video_refs = [zone_reference(clip, (320, 180), VIDEO_RECT, os.path.join(share, f"v{i}.rgb"), at=(i + 0.5) * SEGMENT_S)
                  for i in range(len(stills))]
    picture_refs = [zone_reference(os.path.join(share, name), (320, 240), PICTURE_RECT, os.path.join(share, f"p{i}.rgb"))
                    for i, name in enumerate(pictures)]

    def shot(name):
        width, height, rows = board.read_png_rgb(os.path.join(out, f"{name}.png"))
        board.check((width, height) == HEAD_SCREEN, f"{name}.png is {width}x{height}")
        return rows

    def black(rows, rect):
        return all(value == 0 for value in crop(rows, rect))

    unknown = [l for l in open(os.path.join(share, "errors-unknown.txt")).read().splitlines() if "display:" not in l]
    board.check(len(unknown) == 1 and "no connector 'HDMI-A-9' (have: Virtual-1, Virtual-2); waiting for it" in unknown[0],
                f"a layer on an unknown connector should be one line, waited for: {unknown}")

    worst = math.inf
    for name in ("own0", "gone0", "back0", "unknown0"):
        rows = shot(name)
        _, db = best_match(crop(rows, VIDEO_RECT), video_refs)
        board.check(db >= MINIMUM_DB, f"{name}: Virtual-1's video zone is {db:.1f} dB from its nearest segment")
        board.check(black(rows, PICTURE_RECT), f"{name}: Virtual-2's zone shows on Virtual-1")
        worst = min(worst, db)
    for name in ("own1", "back1"):
        rows = shot(name)
        _, db = best_match(crop(rows, PICTURE_RECT), picture_refs)
        board.check(db >= MINIMUM_DB, f"{name}: Virtual-2's picture zone is {db:.1f} dB from its nearest picture")
        board.check(black(rows, VIDEO_RECT), f"{name}: Virtual-1's zone shows on Virtual-2")
        worst = min(worst, db)

    marks = dict(l.split() for l in stdout.splitlines() if l.split()[:1] in (["before"], ["off"], ["on"]) and len(l.split()) == 2)
    log = [json.loads(line) for line in open(os.path.join(share, "present.jsonl")) if line.strip()]
    before = frames_between(log, float(marks["before"]), float(marks["off"]))
    gone = frames_between(log, float(marks["off"]), float(marks["on"]))
    board.check(gone[0] >= before[0] - 3, f"Virtual-1 showed {gone[0]} frames while Virtual-2 was gone, {before[0]} in the 6 s before")
    board.check(gone[1] <= before[1] + 1, f"Virtual-1 had {gone[1]} gaps while Virtual-2 was gone, {before[1]} in the 6 s before")

    mirror = [shot("mirror0"), shot("mirror1")]
    between = psnr(b"".join(mirror[0]), b"".join(mirror[1]))
    board.check(between >= MINIMUM_DB, f"mirrored, the two heads are {between:.1f} dB apart")
    _, mirror_db = best_match(crop(mirror[1], VIDEO_RECT), video_refs)
    board.check(mirror_db >= MINIMUM_DB, f"mirrored, Virtual-2's video zone is {mirror_db:.1f} dB from the clip")
    return (f"own layouts: every zone >= {worst:.1f} dB, the other head's zone black; Virtual-2 gone 6 s: Virtual-1 showed "
            f"{gone[0]} frames ({gone[1]} gaps) against {before[0]} ({before[1]}) before, Virtual-2's layout back; "
            f"mirrored: heads {between:.1f} dB apart; an unknown connector one line, the other head playing")


SCENARIOS = {
    "kms-layout": scenario_kms_layout,
    "kms-layout-vkms": scenario_kms_layout_vkms,
    "kms-layout-heads": scenario_kms_layout_heads,
}
