"""KMS scenarios of the board (issue 5): what `marquee play` puts on a real
kernel display, checked by screen capture against ffmpeg on the host.

Imported by `scenarios`, which passes itself as `board` (run_board, check,
read_png_rgb, ...).
"""

import json
import math
import os
import struct
import subprocess
import tempfile

SCREEN = (1280, 800)  # bochs-display and virtio-gpu's preferred mode here
# Marquee starts in about 6 s under TCG; a capture after this shows its picture.
SETTLE_S = 12


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def make_still(share, name="still.mp4", rotate=False, size="320x240", lossless=False):
    """A 3 s clip of one testsrc2 picture, so any captured moment shows the
    same frame (bit for bit with `lossless`: x264 keeps refining a still
    picture over its first P-frames); with `rotate`, the track's matrix says:
    turn 90 degrees clockwise."""
    png = os.path.join(share, "still.png")
    path = os.path.join(share, name)
    ffmpeg("-f", "lavfi", "-i", f"testsrc2=size={size}:rate=1:duration=1", "-frames:v", "1", png)
    quality = ["-qp", "0"] if lossless else ["-crf", "12"]
    ffmpeg("-loop", "1", "-framerate", "25", "-i", png, "-t", "3", "-c:v", "libx264", *quality, "-pix_fmt", "yuv420p", path)
    if rotate:
        # ffmpeg 5.1 cannot write a display matrix: patch the tkhd matrix in place.
        data = bytearray(open(path, "rb").read())
        at = data.find(b"tkhd")
        version = data[at + 4]
        offset = at + 4 + 4 + (8 + 8 + 4 + 4 + 8 if version == 1 else 4 + 4 + 4 + 4 + 4) + 8 + 8
        one = 1 << 16
        data[offset:offset + 36] = struct.pack(">9I", 0, one, 0, (-one) & 0xFFFFFFFF, 0, 0, 0, 0, 1 << 30)
        open(path, "wb").write(data)
    return path


def even(value):
    """Swift's Placement.fit rounding of a size: half away from zero, to an even number, at least 2."""
    return max(2, int(math.floor(value / 2 + 0.5)) * 2)


def offset(value):
    """Swift's Placement.fit rounding of an offset: to an even number, at least 0."""
    return max(0, int(math.floor(value / 2 + 0.5)) * 2)


def placement(width, height, gravity, screen=SCREEN, sample_aspect=1.0):
    """(source crop, destination) exactly as MarqueeKMS's Placement.fit computes them."""
    sw, sh = screen
    pa, sa = width * sample_aspect / height, sw / sh
    full = (0, 0, width, height)
    if gravity == "resize":
        return full, (0, 0, sw, sh)
    if gravity == "resizeAspect":
        if pa > sa:
            h = even(sw / pa)
            return full, (0, offset((sh - h) / 2), sw, h)
        w = even(sh * pa)
        return full, (offset((sw - w) / 2), 0, w, sh)
    if pa > sa:
        visible = even(width * sa / pa)
        return (offset((width - visible) / 2), 0, visible, height), (0, 0, sw, sh)
    visible = even(height * pa / sa)
    return (0, offset((height - visible) / 2), width, visible), (0, 0, sw, sh)


def reference(clip, gravity, size, out_path, screen=SCREEN):
    """The first frame decoded, turned by its matrix (ffmpeg autorotates) and
    placed like Marquee places it, as raw RGB."""
    (cx, cy, cw, ch), (dx, dy, dw, dh) = placement(*size, gravity, screen)
    chain = f"crop={cw}:{ch}:{cx}:{cy},scale={dw}:{dh}:flags=bilinear,pad={screen[0]}:{screen[1]}:{dx}:{dy}:black"
    ffmpeg("-i", clip, "-frames:v", "1", "-vf", chain, "-f", "rawvideo", "-pix_fmt", "rgb24", out_path)
    return open(out_path, "rb").read()


def psnr(board, png, raw):
    width, height, rows = board.read_png_rgb(png)
    board.check((width, height) == SCREEN, f"{png} is {width}x{height}, expected {SCREEN}")
    captured = b"".join(rows)
    board.check(len(captured) == len(raw), "capture and reference differ in size")
    squared = sum((a - b) * (a - b) for a, b in zip(captured, raw))
    mse = squared / len(raw)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def marquee_errors(share):
    """What marquee wrote on stderr, less its `display:` info line: with the
    default --hwdec auto, decoding in software on a card without a render
    node (this VM) is expected and says nothing (issue 18)."""
    path = os.path.join(share, "errors.txt")
    lines = open(path).read().splitlines() if os.path.exists(path) else []
    return "\n".join(l for l in lines if l.strip() and not l.startswith("marquee: display:"))


def play_and_shoot(names_and_flags, clip="/mnt/host/still.mp4"):
    """Guest script: for each (shot name, flags), start marquee, wait, capture, stop it."""
    lines = ["set -e"]
    for name, flags in names_and_flags:
        lines += [f"marquee play {clip} --loop item --audio-out null {flags} >/dev/null 2>>/mnt/host/errors.txt & pid=$!",
                  f"sleep {SETTLE_S}", f"shot {name}", "kill -TERM $pid", "wait $pid || true"]
    return "\n".join(lines)


def frame_scenario(board, out, display, gravities, extra="", rotate=False, minimum=30.0):
    os.makedirs(out, exist_ok=True)
    share = tempfile.mkdtemp(prefix="kms-share-")
    clip = make_still(share, rotate=rotate)
    shots = [(gravity, f"--gravity {gravity} {extra}") for gravity in gravities]
    rc, stdout, stderr, _ = board.run_board(out, ["--display", display, "--audio", "none", "--share", share],
                                            play_and_shoot(shots), timeout=400)
    board.expect_ok(rc, stdout, stderr)
    board.check(marquee_errors(share) == "", f"marquee reported: {marquee_errors(share)}")
    size = (240, 320) if rotate else (320, 240)
    results = []
    for gravity in gravities:
        raw = reference(clip, gravity, size, os.path.join(share, f"{gravity}.rgb"))
        value = psnr(board, os.path.join(out, f"{gravity}.png"), raw)
        board.check(value >= minimum, f"{display} {gravity}{' rotated' if rotate else ''}: PSNR {value:.1f} dB < {minimum}")
        results.append(f"{gravity} {value:.1f} dB")
    return f"{display}{' ' + extra if extra else ''}{' rotated 90' if rotate else ''}: " + ", ".join(results)


def scenario_kms_bochs(board, out):
    return frame_scenario(board, out, "bochs", ["resizeAspect", "resizeAspectFill", "resize"])


def scenario_kms_virtio(board, out):
    upright = frame_scenario(board, out, "virtio", ["resizeAspect", "resizeAspectFill", "resize"])
    turned = frame_scenario(board, os.path.join(out, "rotated"), "virtio", ["resizeAspect"], rotate=True)
    return f"{upright}; {turned}"


def scenario_kms_rotation(board, out):
    return frame_scenario(board, out, "bochs", ["resizeAspect", "resizeAspectFill"], rotate=True)


def scenario_kms_legacy(board, out):
    return frame_scenario(board, out, "bochs", ["resizeAspect"], extra="--legacy-kms")


def scenario_kms_prime(board, out):
    """The PRIME import path: each dumb buffer exported as a dmabuf and
    imported back as the framebuffer that is scanned out (virtio-gpu has PRIME)."""
    return frame_scenario(board, out, "virtio", ["resizeAspect"], extra="--kms-prime")


def scenario_kms_playlist(board, out):
    """Three solid-colour items looping: every capture while it plays shows
    one of the three colours in the middle of the screen, never black."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    colours = {"red": (255, 0, 0), "lime": (0, 255, 0), "blue": (0, 0, 255)}
    for name in colours:
        ffmpeg("-f", "lavfi", "-i", f"color=c={name}:size=320x240:rate=25:duration=1", "-c:v", "libx264",
               "-pix_fmt", "yuv420p", os.path.join(share, f"{name}.mp4"))
    items = " ".join(f"/mnt/host/{name}.mp4" for name in colours)
    shots = " ".join(f"s{i}" for i in range(12))
    command = f"""
marquee play {items} --loop playlist --audio-out null >/dev/null 2>>/mnt/host/errors.txt & pid=$!
sleep {SETTLE_S}
for name in {shots}; do shot $name; usleep 250000; done
kill -TERM $pid; wait $pid || true
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    seen = []
    for index in range(12):
        _, _, rows = board.read_png_rgb(os.path.join(out, f"s{index}.png"))
        centre = board.pixel(rows, SCREEN[0] // 2, SCREEN[1] // 2)
        match = [name for name, rgb in colours.items() if board.near(centre, rgb, 48)]
        board.check(match, f"capture s{index}: centre {centre} is none of the items' colours (a black or torn frame?)")
        seen.append(match[0])
    changes = sum(1 for a, b in zip(seen, seen[1:]) if a != b)
    board.check(len(set(seen)) >= 2, f"only {set(seen)} seen: the playlist did not advance")
    return f"12 captures over the loop, all an item's colour ({changes} transitions: {' '.join(seen)})"


def scenario_kms_restore(board, out):
    """After SIGTERM the console's framebuffer is back on the plane."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    make_still(share)
    command = f"""
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
marquee play /mnt/host/still.mp4 --loop item --audio-out null >/dev/null 2>&1 & pid=$!
sleep {SETTLE_S}
echo "playing: $(grep -A3 '^plane' /sys/kernel/debug/dri/0/state | grep 'allocated by')"
shot playing
kill -TERM $pid; wait $pid; echo "exit $?"
sleep 1
echo "after: $(grep -A3 '^plane' /sys/kernel/debug/dri/0/state | grep 'allocated by')"
shot after
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    playing = next((l for l in stdout.splitlines() if l.startswith("playing:")), "")
    after = next((l for l in stdout.splitlines() if l.startswith("after:")), "")
    board.check("allocated by" in playing and "fbcon" not in playing, f"marquee's buffer was not on the plane: {playing!r}")
    board.check("fbcon" in after, f"the console's framebuffer is not back after SIGTERM: {after!r}")
    board.check("exit 0" in stdout, f"marquee did not exit 0 on SIGTERM:\n{stdout}")
    _, _, rows = board.read_png_rgb(os.path.join(out, "after.png"))
    centre = board.pixel(rows, SCREEN[0] // 2, SCREEN[1] // 2)
    board.check(centre == (0, 0, 0), f"the picture is still on screen after exit: centre {centre}")
    return "plane back on fbcon's framebuffer, picture gone, exit 0"


def scenario_kms_hotplug(board, out):
    """A TV switched off and on again (the connector forced off, then on,
    through sysfs), playing and then paused: one line each way; nothing is
    committed while it is gone; once it is back the mode is set again (a
    commit the kernel's atomic log shows, even while paused), flips resume
    when playing, and the picture is right."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    clip = make_still(share)
    status = "/sys/class/drm/card0-Virtual-1/status"
    fb = "grep -A3 '^plane' /sys/kernel/debug/dri/0/state | grep -m1 'fb='"
    command = f"""
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
mkfifo /tmp/ctl
marquee play /mnt/host/still.mp4 --loop item --audio-out null --control text < /tmp/ctl >/dev/null 2>>/mnt/host/errors.txt & pid=$!
exec 3>/tmp/ctl
sleep {SETTLE_S}
echo off > {status}
sleep 3
echo "off: $({fb}) $(sleep 1; {fb})"
echo on > {status}
sleep 4
echo "back: $({fb}) $(usleep 300000; {fb}) $(usleep 300000; {fb})"
shot back
echo pause >&3
sleep 2
echo off > {status}
sleep 3
dmesg -c > /dev/null
echo 0x10 > /sys/module/drm/parameters/debug
echo on > {status}
sleep 3
echo 0 > /sys/module/drm/parameters/debug
echo "paused commits: $(dmesg | grep -c 'drm_atomic_check_only.*checking')"
echo "paused: $({fb}) $(sleep 1; {fb})"
shot paused
echo quit >&3
wait $pid; echo "exit $?"
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    errors = open(os.path.join(share, "errors.txt")).read()
    lines = [l for l in errors.splitlines() if "display Virtual-1" in l]
    expected = ["disconnected", "is back: 1280x800", "disconnected", "is back: 1280x800"]
    board.check(len(lines) == 4 and all(e in l for e, l in zip(expected, lines)),
                f"expected one line for each loss and return:\n{errors}")
    board.check(marquee_errors(share) == "\n".join(lines), f"marquee reported more: {marquee_errors(share)}")

    def fields(prefix):
        return next((l for l in stdout.splitlines() if l.startswith(prefix)), "").split()

    off, back, paused = fields("off:"), fields("back:"), fields("paused:")
    board.check(len(off) == 3 and off[1] == off[2], f"frames were committed while the display was gone: {off}")
    board.check(len(back) == 4 and len(set(back[1:])) >= 2, f"no flips after the display came back: {back}")
    board.check(len(paused) == 3 and paused[1] == paused[2], f"flips while paused: {paused}")
    commits = int(fields("paused commits:")[-1] or 0)
    board.check(commits >= 2, f"paused, the returning display got {commits} atomic commits (TEST_ONLY + modeset expected)")
    board.check("exit 0" in stdout, f"marquee did not exit 0:\n{stdout}")
    raw = reference(clip, "resizeAspect", (320, 240), os.path.join(share, "ref.rgb"))
    values = [psnr(board, os.path.join(out, f"{name}.png"), raw) for name in ("back", "paused")]
    board.check(min(values) >= 30, f"the picture after the display came back: PSNR {values} dB < 30")
    return (f"playing and paused: one line each way, no commits while gone, {commits} commits on return while paused, "
            f"flips after; {values[0]:.1f} / {values[1]:.1f} dB")


def scenario_kms_splash(board, out):
    """Issue 20: `[display] splash` is on the display before any playlist
    item, and stays while nothing can play (an empty folder at boot, one
    line saying what is waited for); a clip copied in then plays. Without a
    splash the empty display shows the background colour, not the console."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    clip = make_still(share)
    splash = os.path.join(share, "splash.png")
    ffmpeg("-f", "lavfi", "-i", "smptebars=size=640x400", "-frames:v", "1", splash)
    with open(os.path.join(share, "splash.toml"), "w") as f:
        f.write('[display]\nsplash = "splash.png"\n\n[playback]\nplaylist = ["/tmp/media"]\nloop = "playlist"\n')
    with open(os.path.join(share, "plain.toml"), "w") as f:
        f.write('[display]\nbackground = "#203040"\n\n[playback]\nplaylist = ["/tmp/empty"]\n')
    command = f"""
set -e
mkdir -p /tmp/media /tmp/empty
marquee play --config /mnt/host/splash.toml --audio-out null --control off >/dev/null 2>>/mnt/host/errors.txt & pid=$!
sleep {SETTLE_S}
shot splash
cp /mnt/host/still.mp4 /tmp/media/
sleep 6
shot playing
kill -TERM $pid; wait $pid || true
marquee play --config /mnt/host/plain.toml --audio-out null --control off >/dev/null 2>>/mnt/host/errors.txt & pid=$!
sleep {SETTLE_S}
shot background
kill -TERM $pid; wait $pid || true
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    errors = marquee_errors(share).splitlines()
    expected = [f"marquee: playlist: {line}" for folder in ("/tmp/media", "/tmp/empty")
                for line in (f"folder '{folder}' has no files", f"waiting for files in '{folder}'")]
    board.check(errors == expected, "expected the empty folder and the wait, one line each a run:\n" + "\n".join(errors))
    splash_db = psnr(board, os.path.join(out, "splash.png"),
                     reference(splash, "resizeAspect", (640, 400), os.path.join(share, "splash.rgb")))
    board.check(splash_db >= 30, f"the splash while waiting: PSNR {splash_db:.1f} dB < 30")
    playing_db = psnr(board, os.path.join(out, "playing.png"),
                      reference(clip, "resizeAspect", (320, 240), os.path.join(share, "clip.rgb")))
    board.check(playing_db >= 30, f"the clip copied in: PSNR {playing_db:.1f} dB < 30")
    _, _, rows = board.read_png_rgb(os.path.join(out, "background.png"))
    corners = [board.pixel(rows, x, y) for x, y in ((5, 5), (SCREEN[0] - 5, SCREEN[1] - 5), (SCREEN[0] // 2, SCREEN[1] // 2))]
    board.check(all(board.near(c, (0x20, 0x30, 0x40), 2) for c in corners), f"an empty show without a splash: {corners}")
    return f"splash while waiting {splash_db:.1f} dB, then the clip {playing_db:.1f} dB; background #203040 without a splash"


def scenario_kms_display_wait(board, out):
    """Issue 20: a display that is off when marquee starts (the connector
    forced off through sysfs first) is waited for: marquee keeps running,
    says so in one line, plays the sound, and sets the mode and shows the
    picture once the connector is forced on (one line more)."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    clip = make_still(share)
    ffmpeg("-i", clip, "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3",
           "-c:v", "copy", "-c:a", "aac", "-shortest", os.path.join(share, "tone.mp4"))
    status = "/sys/class/drm/card0-Virtual-1/status"
    command = f"""
echo off > {status}
marquee play /mnt/host/tone.mp4 --loop item --audio-out alsa:default --control off >/dev/null 2>>/mnt/host/errors.txt & pid=$!
sleep {SETTLE_S}
kill -0 $pid && echo "running while off"
shot off
echo on > {status}
sleep 5
shot on
kill -TERM $pid; wait $pid; echo "exit $?"
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "hda", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    errors = marquee_errors(share).splitlines()
    board.check(len(errors) == 2 and "no card with a connected display" in errors[0] and errors[0].endswith("waiting for a display (sound plays meanwhile)")
                and errors[1].startswith("marquee: display Virtual-1 connected: Virtual-1 1280x800"),
                "expected a waiting line and a connected line:\n" + "\n".join(errors))
    board.check("running while off" in stdout, f"marquee did not keep running without a display:\n{stdout}")
    board.check("exit 0" in stdout, f"marquee did not exit 0:\n{stdout}")
    on_db = psnr(board, os.path.join(out, "on.png"), reference(clip, "resizeAspect", (320, 240), os.path.join(share, "ref.rgb")))
    board.check(on_db >= 30, f"the picture once the display is on: PSNR {on_db:.1f} dB < 30")
    freq, rms, loud_s = board.analyse_tone(os.path.join(out, "sound.wav"))
    # The display is on for the last 5 s: more sound than that was heard while it was off.
    board.check(abs(freq - 440) <= 10 and loud_s >= 8, f"sound while waiting: {freq:.0f} Hz, {loud_s:.1f} s loud")
    return f"one line off, one on; picture {on_db:.1f} dB once on; {freq:.0f} Hz for {loud_s:.1f} s"


def scenario_kms_displays(board, out):
    return "; ".join(displays_match_modetest(board, os.path.join(out, display), display, driver)
                     for display, driver in (("bochs", "bochs-drm"), ("vkms", "vkms")))


def displays_match_modetest(board, out, display, driver):
    """`marquee displays --json` agrees with modetest on connectors, modes and planes."""
    os.makedirs(out, exist_ok=True)
    command = f"marquee displays --json > /tmp/d.json && cat /tmp/d.json && echo '--- modetest' && modetest -M {driver} -c -p"
    rc, stdout, stderr, _ = board.run_board(out, ["--display", display, "--audio", "none"], command, timeout=200)
    board.expect_ok(rc, stdout, stderr)
    listing, modetest = stdout.split("--- modetest", 1)
    connectors_part = modetest.split("CRTCs:", 1)[0]
    start = listing.index("[")
    inventory = json.loads(listing[start:listing.rindex("]") + 1])
    board.check(len(inventory) == 1, f"expected one card, got {len(inventory)}")
    card = inventory[0]
    board.check(card["driver"] == driver, f"driver {card['driver']}")
    connector = card["connectors"][0]
    rows = [l.split() for l in modetest.splitlines()]
    theirs = next((r for r in rows if len(r) >= 4 and r[0] == str(connector["id"])), None)
    board.check(theirs is not None, f"modetest does not list connector {connector['id']}")
    board.check(theirs[2] == "connected" and connector["isConnected"], "connection status differs")
    board.check(theirs[3] == connector["name"], f"name {connector['name']} vs modetest {theirs[3]}")
    mode_rows = [r for r in (l.split() for l in connectors_part.splitlines()) if len(r) > 2 and r[0].startswith("#") and "x" in r[1]]
    board.check(len(connector["modes"]) == len(mode_rows),
                f"{len(connector['modes'])} modes vs modetest's {len(mode_rows)}")
    plane_ids = {p["id"] for p in card["planes"]}
    planes_part = modetest.split("Planes:", 1)[1] if "Planes:" in modetest else ""
    # modetest's plane rows: "id crtc fb CRTC-x,y x,y gamma-size possible-crtcs".
    their_planes = {int(r[0]) for r in (l.split() for l in planes_part.splitlines())
                    if len(r) >= 6 and r[0].isdigit() and "," in r[3]}
    board.check(plane_ids == their_planes, f"planes {plane_ids} vs modetest {their_planes}")
    # Each plane row is followed by "  formats: XR24 ...".
    plane_lines = planes_part.splitlines()
    their_formats = {int(row.split()[0]): next.split(":", 1)[1].split()
                     for row, next in zip(plane_lines, plane_lines[1:])
                     if row.split() and row.split()[0].isdigit() and next.strip().startswith("formats:")}
    for plane in card["planes"]:
        board.check(plane["formats"] == their_formats.get(plane["id"]),
                    f"plane {plane['id']} formats {plane['formats']} vs modetest {their_formats.get(plane['id'])}")
    kinds = sorted(p["kind"] for p in card["planes"])
    # TEST_ONLY probing: vkms's overlays position but do not scale (DRM_PLANE_NO_SCALING), its primary
    # must cover the screen; bochs has its primary only.
    probe = card.get("probe")
    board.check(probe is not None, f"{driver}: planes were not probed")
    probed = {p["plane"]: p for p in probe["planes"]}
    overlays = [p for p in probe["planes"] if p["kind"] == "overlay"]
    primary = next(p for p in probe["planes"] if p["kind"] == "primary")
    board.check(not primary["canPosition"] and not primary["canScale"], f"{driver} primary probed as {primary}")
    if driver == "vkms":
        board.check(len(overlays) == 8 and all(p["canPosition"] and not p["canScale"] for p in overlays),
                    f"vkms overlays probed as {overlays}")
        board.check(probed[probe["videoPlane"]]["kind"] == "overlay", f"video plane {probe['videoPlane']} is not an overlay")
    else:
        board.check(not overlays and probe["videoPlane"] == primary["plane"], f"{driver}: {probe}")
    return (f"{driver}: {connector['name']} connected, {len(connector['modes'])} modes, planes {sorted(plane_ids)} "
            f"({', '.join(f'{kinds.count(k)} {k}' for k in sorted(set(kinds)))}) as modetest lists; "
            f"probed: {len(overlays)} overlays position{'' if overlays and overlays[0]['canScale'] else ' without scaling'}, "
            f"video plane {probe['videoPlane']}")


def scenario_kms_vkms_overlay(board, out):
    """On vkms (8 overlay planes that position but do not scale) the video
    goes on the overlay plane TEST_ONLY probing picks, with the borders on the
    primary plane in the background colour. vkms's CRC of the composed screen
    equals the CRC with the whole picture drawn into one full-screen primary
    buffer (the path kms-bochs checks against ffmpeg), and differs from the
    console's."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    make_still(share, size="320x180", lossless=True)  # letterboxed on 1024x768: borders above and below
    crc = "/sys/kernel/debug/dri/0/crtc-0/crc"
    command = f"""
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
crcs() {{ echo auto > {crc}/control; timeout 3 cat {crc}/data > /tmp/crc.txt; tail -n 8 /tmp/crc.txt | cut -d' ' -f2 | sort -u | tr '\\n' ' '; }}
echo "crc console: $(crcs)"
for plane in auto primary; do
  marquee play /mnt/host/still.mp4 --loop item --audio-out null --plane $plane --background 204080 >/dev/null 2>>/mnt/host/errors.txt &
  pid=$!
  sleep {SETTLE_S}
  echo "crc $plane: $(crcs)"
  echo "planes $plane: $(grep -A3 '^plane' /sys/kernel/debug/dri/0/state | grep -E '^plane|allocated by' | tr '\\n' ' ')"
  kill -TERM $pid; wait $pid; echo "exit $plane $?"
done
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "vkms", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    lines = dict(l.split(": ", 1) for l in stdout.splitlines() if l.startswith(("crc ", "planes ")) and ": " in l)
    errors = open(os.path.join(share, "errors.txt")).read()
    chosen = [l for l in errors.splitlines() if l.startswith("marquee: display:")]
    board.check(len(chosen) == 2, f"expected two display lines:\n{errors}")
    board.check("overlay plane" in chosen[0] and "positioned" in chosen[0], f"auto did not probe its way to an overlay: {chosen[0]!r}")
    board.check("primary plane" in chosen[1] and "fullScreen" in chosen[1], f"--plane primary: {chosen[1]!r}")
    board.check(marquee_errors(share) == "", f"marquee reported: {marquee_errors(share)}")
    for plane in ("auto", "primary"):
        board.check(f"exit {plane} 0" in stdout, f"marquee --plane {plane} did not exit 0:\n{stdout}")
    overlay_planes = lines.get("planes auto", "")
    # "allocated by" names the allocating thread, one of marquee's; fbcon's buffer is the console's.
    board.check(overlay_planes.count("allocated by") == 2 and "fbcon" not in overlay_planes,
                f"--plane auto: marquee's buffers should be on the primary (background) and one overlay: {overlay_planes}")
    console, auto, primary = (lines.get(f"crc {k}", "").split() for k in ("console", "auto", "primary"))
    board.check(len(auto) == 1 and len(primary) == 1, f"the still picture should give one CRC each: auto {auto}, primary {primary}")
    board.check(auto == primary, f"overlay composition {auto} differs from the full-screen picture {primary}")
    board.check(auto != console, "the CRC did not change from the console's: nothing was shown")
    plane_id = chosen[0].split("overlay plane ", 1)[1].split()[0]
    return f"video on overlay plane {plane_id} (positioned); CRC {auto[0]} = full-screen primary's, console {' '.join(console)}"


# The guest's shell for the screen-power scenarios: debugfs, the composed
# screen's CRCs (`crcs`), the CRTC's `active=`, and `measure STATE PREFIX`:
# $pid's wake-ups and CPU ticks over 5 s, counted as bench/wakeups.py counts
# them (per thread, sampled every 0.5 s; a thread there at the start counts
# its difference, one started inside the window its whole count, one that
# ended its count up to its last sample). Ends with the FIFO /tmp/ctl made.
CRC_DIR = "/sys/kernel/debug/dri/0/crtc-0/crc"
POWER_SHELL = f"""
mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
crcs() {{ echo auto > {CRC_DIR}/control; timeout 3 cat {CRC_DIR}/data > /tmp/crc.txt; tail -n 8 /tmp/crc.txt | cut -d' ' -f2 | sort -u | tr '\\n' ' '; }}
active() {{ grep -A3 '^crtc' /sys/kernel/debug/dri/0/state | grep -m1 -o 'active=[01]'; }}
sample() {{ for f in /proc/$pid/task/*/status; do task=${{f%/status}}; awk -v i=$1 -v t=${{task##*/}} '/^voluntary_ctxt_switches/ {{ print i, t, $2 }}' $f 2>/dev/null; done; }}
ticks() {{ awk '{{ print $14 + $15 }}' /proc/$pid/stat; }}
measure() {{
  before=$(ticks); : > /tmp/samples
  for i in 0 1 2 3 4 5 6 7 8 9 10; do sample $i >> /tmp/samples; [ $i = 10 ] || usleep 500000; done
  w=$(awk '!($2 in first) {{ first[$2] = ($1 == 0 ? $3 : 0) }} {{ last[$2] = $3 }} END {{ for (t in last) s += last[t] - first[t]; print s }}' /tmp/samples)
  echo "$2 $1 window: wakeups=$w ticks=$(( $(ticks) - before ))"
}}
mkfifo /tmp/ctl
"""


def scenario_kms_screen_power(board, out):
    """Issue 36: `screen off` on the control channel (stdin) turns vkms's CRTC
    off (debugfs state `active=0`; atomic: ACTIVE 0 with the mode kept,
    `--legacy-kms`: the connector's DPMS) and the process is no busier than
    paused (voluntary context switches and CPU ticks of all its threads over
    5 s, measured paused and off in one run); `screen on` lights it again
    (`active=1`) with the clip on screen (the composed screen's CRC equals
    the one while playing), and play resumes."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    make_still(share, size="320x180", lossless=True)
    command = POWER_SHELL + f"""
for path in atomic legacy; do
  flags=""; [ $path = legacy ] && flags=--legacy-kms
  marquee play /mnt/host/still.mp4 --loop item --audio-out null --control text $flags < /tmp/ctl > /tmp/replies-$path 2>>/mnt/host/errors.txt & pid=$!
  exec 3>/tmp/ctl
  sleep {SETTLE_S}
  echo "$path playing: $(active) crc $(crcs)"
  echo pause >&3; sleep 2
  measure paused $path
  echo play >&3; sleep 2
  echo "-- $path screen off" >> /mnt/host/errors.txt
  echo "screen off" >&3; sleep 2
  echo "$path off: $(active)"
  echo "$path off lines: $(grep -A3 '^crtc' /sys/kernel/debug/dri/0/state | tr '\\n\\t' '  ')"
  echo status >&3
  measure off $path
  echo "-- $path screen on" >> /mnt/host/errors.txt
  echo "screen on" >&3; sleep 3
  echo "$path on: $(active) crc $(crcs)"
  echo status >&3; sleep 1
  echo quit >&3; exec 3>&-
  wait $pid; echo "$path exit $?"
  sed "s/^/$path reply: /" /tmp/replies-$path
done
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "vkms", "--audio", "none", "--share", share], command, timeout=400)
    board.expect_ok(rc, stdout, stderr)
    # The guest marks when the screen went off and on ("-- PATH screen off") among marquee's lines.
    errors = [l for l in marquee_errors(share).splitlines() if not l.startswith("-- ")]
    board.check(not errors, "marquee reported:\n" + marquee_errors(share))
    lines = dict(l.split(": ", 1) for l in stdout.splitlines() if ": " in l and l.split(" ", 1)[0] in ("atomic", "legacy"))
    results = []
    for path in ("atomic", "legacy"):
        board.check(f"{path} exit 0" in stdout, f"{path}: marquee did not exit 0:\n{stdout}")
        playing, on = lines.get(f"{path} playing", ""), lines.get(f"{path} on", "")
        board.check(playing.startswith("active=1"), f"{path}: the CRTC was not on while playing: {playing!r}")
        board.check(lines.get(f"{path} off") == "active=0", f"{path}: `screen off` left the CRTC {lines.get(f'{path} off')!r}")
        board.check(on.startswith("active=1"), f"{path}: `screen on` left the CRTC {on!r}")
        playing_crc, on_crc = playing.split("crc", 1)[-1].split(), on.split("crc", 1)[-1].split()
        board.check(len(playing_crc) == 1 and on_crc == playing_crc,
                    f"{path}: the screen after `screen on` (CRC {on_crc}) is not the clip's (CRC {playing_crc})")
        replies = [l.split(": ", 1)[1] for l in stdout.splitlines() if l.startswith(f"{path} reply: ")]
        statuses = [r for r in replies if r.startswith("ok state=")]
        board.check(len(statuses) == 2 and "state=paused" in statuses[0] and "screen=off" in statuses[0]
                    and "state=playing" in statuses[1] and "screen=on" in statuses[1],
                    f"{path}: status while off should be paused and screen=off, then playing and screen=on: {statuses}")
        counts = {}
        for state in ("paused", "off"):
            fields = dict(f.split("=") for f in lines.get(f"{path} {state} window", "").split())
            counts[state] = (int(fields.get("wakeups", -1)), int(fields.get("ticks", -1)))
        (paused_wakeups, paused_ticks), (off_wakeups, off_ticks) = counts["paused"], counts["off"]
        board.check(paused_wakeups >= 0 and off_wakeups >= 0, f"{path}: no measurement: {counts}")
        # Same state of the threads but for the presenter's maintain (once a second, paused only); noise allowance 10 %.
        board.check(off_wakeups <= paused_wakeups * 1.1 + 2 and off_ticks <= paused_ticks + 2,
                    f"{path}: screen off is busier than paused: {off_wakeups} wake-ups / {off_ticks} ticks "
                    f"against {paused_wakeups} / {paused_ticks} in 5 s")
        results.append(f"{path}: active 1 -> 0 -> 1, CRC {on_crc[0]} back; 5 s wake-ups paused {paused_wakeups} "
                       f"({paused_ticks} ticks), off {off_wakeups} ({off_ticks} ticks)")
    return "; ".join(results)


def scenario_kms_schedule(board, out):
    """Issue 36: a `screen = "off"` window of the schedule turns vkms's CRTC
    off (`active=0`) with the process no busier than paused, and at its end
    the playlist scheduled next is on screen: the composed screen's CRC is
    the one of that clip played on its own, not the default playlist's. The
    player's real time is the guest's shifted (MARQUEE_TEST_WALL_CLOCK_SHIFT)
    so the window 08:00-08:01 UTC starts 20 s after the start (after
    the pause measured first: a `play` in the window would turn the screen on)."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    make_still(share, size="320x180", lossless=True)
    make_still(share, name="later.mp4", size="320x240", lossless=True)
    with open(os.path.join(share, "marquee.toml"), "w") as config:
        config.write("""[playback]
playlist = ["still.mp4"]
loop = "playlist"

[playlists.later]
items = ["later.mp4"]

[[schedule]]
screen = "off"
from = "08:00"
until = "08:01"

[[schedule]]
playlist = "later"
from = "08:01"
until = "09:00"

[controls.stdin]
format = "text"
""")
    boundary = 1_772_438_400  # 2026-03-02T08:00:00Z
    command = POWER_SHELL + f"""
start=$(date +%s)
export TZ=UTC MARQUEE_TEST_WALL_CLOCK_SHIFT=$(( {boundary} - start - 20 ))
marquee play --config /mnt/host/marquee.toml --audio-out null < /tmp/ctl > /tmp/replies 2>>/mnt/host/errors.txt & pid=$!
exec 3>/tmp/ctl
sleep 4
echo "default: $(active) crc $(crcs)"
echo pause >&3; sleep 1
measure paused schedule
echo play >&3
while [ $(( $(date +%s) - start )) -lt 22 ]; do usleep 200000; done
echo "window: $(active)"
echo status >&3
measure off schedule
while [ $(( $(date +%s) - start )) -lt 84 ]; do sleep 1; done
echo "after: $(active) crc $(crcs)"
echo status >&3; sleep 1
echo quit >&3; exec 3>&-
wait $pid; echo "exit $?"
sed "s/^/reply: /" /tmp/replies
unset MARQUEE_TEST_WALL_CLOCK_SHIFT
marquee play /mnt/host/later.mp4 --loop item --audio-out null --control off 2>>/mnt/host/errors.txt & pid=$!
sleep 4
echo "alone: $(active) crc $(crcs)"
kill $pid; wait $pid
"""
    # About 100 s of command: more than the runner's default limit leaves.
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "vkms", "--audio", "none", "--share", share, "--timeout", "300"],
                                            command, timeout=400)
    board.expect_ok(rc, stdout, stderr)
    errors = [l for l in marquee_errors(share).splitlines() if "schedule:" not in l]
    board.check(not errors, "marquee reported:\n" + marquee_errors(share))
    lines = dict(l.split(": ", 1) for l in stdout.splitlines() if ": " in l)
    board.check("exit 0" in stdout, f"marquee did not exit 0:\n{stdout}")
    default, window, after, alone = (lines.get(k, "") for k in ("default", "window", "after", "alone"))
    board.check(default.startswith("active=1"), f"the CRTC was not on at the start: {default!r}")
    board.check(window == "active=0", f"the screen-off window left the CRTC {window!r}")
    board.check(after.startswith("active=1"), f"after the window the CRTC is {after!r}")
    default_crc, after_crc, alone_crc = (v.split("crc", 1)[-1].split() for v in (default, after, alone))
    board.check(len(alone_crc) == 1 and after_crc == alone_crc,
                f"after the window the screen (CRC {after_crc}) is not the scheduled clip's (CRC {alone_crc})")
    board.check(after_crc != default_crc, f"after the window the default playlist is still on screen (CRC {after_crc})")
    statuses = [l for l in stdout.splitlines() if l.startswith("reply: ok state=")]
    board.check(len(statuses) == 2 and "screen=off" in statuses[0] and "screen=on" in statuses[1]
                and "next_change=2026-03-02T08:01:00+00:00" in statuses[0],
                f"status in the window should say screen=off and the next change at 08:01, then screen=on: {statuses}")
    counts = {}
    for state in ("paused", "off"):
        fields = dict(f.split("=") for f in lines.get(f"schedule {state} window", "").split())
        counts[state] = (int(fields.get("wakeups", -1)), int(fields.get("ticks", -1)))
    (paused_wakeups, paused_ticks), (off_wakeups, off_ticks) = counts["paused"], counts["off"]
    board.check(paused_wakeups >= 0 and off_wakeups >= 0, f"no measurement: {counts}")
    board.check(off_wakeups <= paused_wakeups * 1.1 + 2 and off_ticks <= paused_ticks + 2,
                f"the screen-off window is busier than paused: {off_wakeups} wake-ups / {off_ticks} ticks "
                f"against {paused_wakeups} / {paused_ticks} in 5 s")
    return (f"window: active 1 -> 0 -> 1, CRC after {after_crc[0]} = the scheduled clip's alone; 5 s wake-ups paused "
            f"{paused_wakeups} ({paused_ticks} ticks), off {off_wakeups} ({off_ticks} ticks)")


def scenario_kms_vblank_off(board, out):
    """The board's vkms is patched (vkms-vblank-off.patch): as Debian's
    source has it, turning vblank off waited for a running vblank timer
    that itself waited for the lock held by the turning off, and the whole
    guest froze (kms-schedule stopped mid-run in CI). Here vblank goes off
    about one frame after each of two processes' waits
    (drm.vblankoffdelay=16, tools/vblank-churn.c), at every phase of the
    timer: unpatched, the guest froze within 10-30 s in 3 boots of 3;
    the guest must stay alive for the whole 40 s and both must finish."""
    share = tempfile.mkdtemp(prefix="kms-share-")
    tool = os.path.join(share, "vblank-churn")
    subprocess.run(["gcc-12", "-O2", "-I/usr/include/libdrm", "-o", tool,
                    os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools", "vblank-churn.c")], check=True)
    command = """
/mnt/host/vblank-churn 40 & a=$!
/mnt/host/vblank-churn 40 & b=$!
wait $a; echo "first exit $?"; wait $b; echo "second exit $?"
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "vkms", "--audio", "none", "--share", share,
                                                  "--kernel-args", "drm.vblankoffdelay=16", "--timeout", "100"],
                                            command, timeout=160)
    board.expect_ok(rc, stdout, stderr)
    waits = [int(l.split()[1]) for l in stdout.splitlines() if l.startswith("done ")]
    board.check("first exit 0" in stdout and "second exit 0" in stdout and len(waits) == 2,
                f"the churn did not finish:\n{stdout}{stderr}")
    # A wait and its sleep take about two frames: 40 s is about 1,100 of them each.
    board.check(min(waits) > 500, f"vblank waits {waits} in 40 s: the vblank stalled")
    return f"40 s of vblank turned off at every phase: {waits[0]} and {waits[1]} waits, the guest alive"


SCENARIOS = {
    "kms-bochs": scenario_kms_bochs,
    "kms-virtio": scenario_kms_virtio,
    "kms-rotation": scenario_kms_rotation,
    "kms-legacy": scenario_kms_legacy,
    "kms-prime": scenario_kms_prime,
    "kms-playlist": scenario_kms_playlist,
    "kms-restore": scenario_kms_restore,
    "kms-displays": scenario_kms_displays,
    "kms-vkms-overlay": scenario_kms_vkms_overlay,
    "kms-hotplug": scenario_kms_hotplug,
    "kms-splash": scenario_kms_splash,
    "kms-display-wait": scenario_kms_display_wait,
    "kms-screen-power": scenario_kms_screen_power,
    "kms-schedule": scenario_kms_schedule,
    "kms-vblank-off": scenario_kms_vblank_off,
}
