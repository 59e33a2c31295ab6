"""The library as an app uses it (issue 14): docs/library.md's program,
built as a package of its own that depends on Marquee's products, plays a
playlist on the board's display and sound card.

Imported by `scenarios`, which passes itself as `board`.
"""

import os
import re
import shutil
import subprocess
import tempfile

BOARD = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(BOARD))
DOC = os.path.join(REPO, "docs", "library.md")
# The app's package and build folder, kept between runs so a rebuild is incremental.
WORK = os.path.join(BOARD, "cache", "library-app")


def doc_block(doc, label):
    """The ```swift block that follows the line `LABEL`: in the doc."""
    match = re.search(r"^`" + re.escape(label) + r"`:\n\n```swift\n(.*?)\n```", doc, re.M | re.S)
    if not match:
        raise ValueError(f"docs/library.md has no block for {label}")
    return match.group(1) + "\n"


def build_app(board):
    """Writes the doc's Package.swift and main.swift beside a `marquee` link
    to this checkout (the layout the doc's `.package(path: "../marquee")`
    names) and builds the release binary with the Swift runtime inside."""
    with open(DOC) as f:
        doc = f.read()
    package = os.path.join(WORK, "playlist-app")
    sources = os.path.join(package, "Sources", "playlist-app")
    os.makedirs(sources, exist_ok=True)
    link = os.path.join(WORK, "marquee")
    if os.path.islink(link) and os.readlink(link) != REPO:
        os.unlink(link)
    if not os.path.islink(link):
        os.symlink(REPO, link)
    for name, label in [(os.path.join(package, "Package.swift"), "Package.swift"),
                        (os.path.join(sources, "main.swift"), "Sources/playlist-app/main.swift")]:
        text = doc_block(doc, label)
        if not os.path.exists(name) or open(name).read() != text:
            with open(name, "w") as f:
                f.write(text)
    # SwiftPM's incremental build does not follow a change of Marquee's target
    # graph (a new dependency: "no such module"); a new Package.swift starts afresh.
    build = os.path.join(WORK, "build")
    manifest = open(os.path.join(REPO, "Package.swift")).read()
    stamp = os.path.join(WORK, "marquee-Package.swift")
    if not os.path.exists(stamp) or open(stamp).read() != manifest:
        shutil.rmtree(build, ignore_errors=True)
        with open(stamp, "w") as f:
            f.write(manifest)
    proc = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib",
                           "--package-path", package, "--scratch-path", build],
                          capture_output=True, text=True)
    board.check(proc.returncode == 0, "the docs/library.md program did not build as an outside package:\n"
                + "\n".join(l for l in (proc.stdout + proc.stderr).splitlines() if "error" in l)[-3000:])
    return os.path.join(build, "release", "playlist-app")


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def colour_clip(path, colour, freq, seconds):
    """320x240 25 fps H.264 of one colour, with a sine tone in AAC."""
    ffmpeg("-f", "lavfi", "-i", f"color=c={colour}:size=320x240:rate=25:duration={seconds}",
           "-f", "lavfi", "-i", f"sine=frequency={freq}:duration={seconds}:sample_rate=48000",
           "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path)


GUEST = r"""
/mnt/host/playlist-app --corner /mnt/host/green.mp4 /mnt/host/blue.mp4 /mnt/host/broken.mp4 /mnt/host/red.mp4 >/tmp/app.log 2>/tmp/app.err &
pid=$!
# shoot NAME PATTERN: a capture one second after the app's log says PATTERN.
shoot() {
    i=0
    while [ $i -lt 600 ] && ! grep -q "$2" /tmp/app.log; do usleep 100000; i=$((i + 1)); done
    usleep 1000000
    shot $1
}
shoot blue 'timeControlStatus playing'
shoot red 'playing /mnt/host/red.mp4'
wait $pid
echo "@@APP exit $?"
cat /tmp/app.log
echo "@@ERR"
cat /tmp/app.err
echo "@@END"
"""


def scenario_library_app(board, out):
    """Issue 14 must-show 1 and issue 38 must-show 5: docs/library.md's
    program, built as an outside package on Marquee's products, plays a
    playlist (a blue clip, a broken file, a red clip) on the display with
    sound, and a green clip looping in a second layer in the top right
    corner: each capture shows its clip's colour in the middle and green in
    the corner, the broken file is skipped with its name, the recorded
    sound is the clips' tones, and the program prints its time-control
    changes and a periodic observer's times."""
    binary = build_app(board)
    share = tempfile.mkdtemp(prefix="mq-library-app-")
    os.chmod(share, 0o777)
    try:
        shutil.copy2(binary, os.path.join(share, "playlist-app"))
        colour_clip(os.path.join(share, "blue.mp4"), "0x2040e0", 440, 6)
        colour_clip(os.path.join(share, "red.mp4"), "0xe02020", 660, 5)
        colour_clip(os.path.join(share, "green.mp4"), "0x20c040", 880, 2)
        with open(os.path.join(share, "broken.mp4"), "wb") as f:
            f.write(b"\x00\x00\x00\x18ftypmp42" + os.urandom(4096))
        rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "hda", "--share", share],
                                                GUEST, timeout=300)
    finally:
        shutil.rmtree(share, ignore_errors=True)
    board.expect_ok(rc, stdout, stderr)
    check = board.check
    check("@@END" in stdout, f"the guest script did not finish:\n{stdout[-3000:]}")
    log = stdout.split("@@APP", 1)[1].split("@@ERR", 1)[0]
    errors = stdout.split("@@ERR", 1)[1].split("@@END", 1)[0].strip()
    check("exit 0" in log.splitlines()[0], f"the program did not exit cleanly:\n{log}\n{errors}")
    lines = [l.strip() for l in log.splitlines()[1:] if l.strip()]
    control = [l for l in lines if l.startswith("timeControlStatus")]
    check(control[:2] == ["timeControlStatus waitingToPlayAtSpecifiedRate (toMinimizeStalls)",
                          "timeControlStatus playing"],
          f"time control went {control}, expected waiting (toMinimizeStalls) then playing first")
    check(control[-1] == "timeControlStatus paused", f"time control ended {control[-1:]}, expected paused")
    skipped = [l for l in lines if l.startswith("skipped: ")]
    check(len(skipped) == 1 and "/mnt/host/broken.mp4" in skipped[0], f"skipped lines: {skipped}")
    playing = [l for l in lines if l.startswith("playing ")]
    check(playing[-1:] == ["playing /mnt/host/red.mp4"], f"items played: {playing}")
    times = [float(l.split()[1]) for l in lines if l.startswith("time ")]
    whole = [t for t in times if abs(t - round(t)) < 0.05 and t >= 1]
    check(len(whole) >= 4, f"the periodic observer printed {times}, expected whole seconds of both clips")
    check(lines[-1] == "finished; the corner layer was on screen",
          f"the program's last line is {lines[-1:]}, not that it finished with the corner layer shown")
    # stderr: the program's own lines only (the sound card it opened), no libav log.
    stray = [l for l in errors.splitlines() if not l.startswith("playlist-app: audio device default:")]
    check(not stray, f"unexpected lines on stderr: {stray}")

    shots = {}
    for name, expected in [("blue", (0x20, 0x40, 0xE0)), ("red", (0xE0, 0x20, 0x20))]:
        path = os.path.join(out, f"{name}.png")
        check(os.path.exists(path), f"no capture {name}")
        width, height, rows = board.read_png_rgb(path)
        centre = board.pixel(rows, width // 2, height // 2)
        check(board.near(centre, expected, 40), f"capture {name}: the centre is {centre}, expected about {expected}")
        # The corner layer: 70-95 % across, 5-30 % down.
        inset = board.pixel(rows, int(width * 0.825), int(height * 0.175))
        check(board.near(inset, (0x20, 0xC0, 0x40), 40), f"capture {name}: the corner layer is {inset}, expected green")
        outside = board.pixel(rows, int(width * 0.825), int(height * 0.4))
        check(board.near(outside, expected, 40), f"capture {name}: below the corner layer is {outside}, expected {expected}")
        shots[name] = centre
    frequency, rms, loud = board.analyse_tone(os.path.join(out, "sound.wav"))
    check(rms > 1000, f"the recorded sound is silent (RMS {rms:.0f})")
    check(loud >= 5, f"only {loud:.1f} s of the recording is sound, expected most of 11 s")
    check(abs(frequency - 440) < 15 or abs(frequency - 660) < 15, f"the loudest tone is {frequency:.0f} Hz")
    return (f"built from docs/library.md as an outside package; captures blue {shots['blue']}, red {shots['red']}, "
            f"the green corner layer over both; "
            f"sound {loud:.1f} s, loudest {frequency:.0f} Hz at RMS {rms:.0f}; time control {control}; "
            f"{len(times)} observer times; broken file skipped")


SCENARIOS = {"library-app": scenario_library_app}
