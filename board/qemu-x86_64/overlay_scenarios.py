"""Overlays on the board (issue 39): a PNG logo with alpha and a clock
drawn over a playing clip on bochs (a primary plane only, so both are
blended in software), each checked against ffmpeg: the logo against its
`overlay` filter, the clock against its `ass` filter (libass, the same
fonts) drawing the time the guest read just before and after the capture.
Also `show-text` on stdin and `overlay NAME off`. On vkms, whose overlay
planes blend ARGB8888, the logo goes on a plane of its own and the screen
is the one bochs's software blending makes.

Imported by `scenarios`, which passes itself as `board`.
"""

import os
import tempfile

from kms_scenarios import SCREEN, SETTLE_S, ffmpeg, marquee_errors
from layout_scenarios import crop, plane_blocks, plane_vs_primary, psnr

LOGO_RECT = (24, 24, 160, 90)        # anchor = "top-left", margin 24, the PNG's own size
CLOCK_RECT = (880, 520, 360, 80)    # above the show-text band
OSD_RECT = (0, 640, 1280, 136)       # show-text: the bottom band, 160 px up from the bottom
GREY = "0x808080"


def clock_script(text, width, height, size=56):
    """The ASS script MarqueeOverlays writes for a text in a rect (TextStyle.script):
    white DejaVu Sans, 2 px black outline, centred."""
    return f"""[Script Info]
ScriptType: v4.00+
PlayResX: {width}
PlayResY: {height}
ScaledBorderAndShadow: yes
WrapStyle: 2

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Overlay,DejaVu Sans,{size:.2f},&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2.00,0,5,0,0,0,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.00,9:59:59.99,Overlay,,0,0,0,,{text}
"""


def make_grey_and_logo(share, size, alpha):
    """grey.mp4, a lossless 3 s clip of one grey picture of `size`, and
    logo.png, testsrc2 at 160x90 with `alpha` (a geq expression)."""
    ffmpeg("-f", "lavfi", "-i", f"color={GREY}:size={size}:rate=25", "-t", "3", "-c:v", "libx264", "-qp", "0",
           "-pix_fmt", "yuv420p", os.path.join(share, "grey.mp4"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x90:rate=1", "-vf",
           f"format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='{alpha}'", "-frames:v", "1", os.path.join(share, "logo.png"))


LOGO_TOML = """[playback]
playlist = ["grey.mp4"]
loop = "playlist"

[[overlay]]
name = "logo"
kind = "image"
path = "logo.png"
anchor = "top-left"
"""


def raw(*args, out):
    ffmpeg(*args, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", out)
    return open(out, "rb").read()


def scenario_kms_overlays(board, out):
    """Must-show 2 and 4 on bochs: the logo's rectangle of a capture is
    ffmpeg's overlay of the PNG on the same clip (>= 35 dB); the clock's
    rectangle is ffmpeg's libass rendering of the time the guest read
    around the capture (>= 30 dB); the clock shows another time 2 s later;
    `show-text` puts its text up and takes it down after its seconds;
    `overlay logo off` leaves the clip there."""
    os.makedirs(out, exist_ok=True)
    share = tempfile.mkdtemp(prefix="overlay-share-")
    make_grey_and_logo(share, "320x200", "255*X/(W-1)")
    x, y, w, h = CLOCK_RECT
    with open(os.path.join(share, "overlays.toml"), "w") as f:
        f.write(LOGO_TOML + f"""
[[overlay]]
name = "clock"
kind = "clock"
format = "%H:%M:%S"
rect = [{x}, {y}, {w}, {h}]
size = 56
""")
    command = f"""
cd /mnt/host
mkfifo /tmp/ctl
marquee play --config overlays.toml --audio-out null < /tmp/ctl >/dev/null 2>>errors.txt & pid=$!
exec 3>/tmp/ctl
sleep {SETTLE_S}
echo "before $(date +%H:%M:%S)"; shot first; echo "after $(date +%H:%M:%S)"
sleep 2
echo "before2 $(date +%H:%M:%S)"; shot second; echo "after2 $(date +%H:%M:%S)"
echo "show-text Doors open at 9 2" >&3
sleep 1; shot osd
sleep 3; shot osd-gone
echo "overlay logo off" >&3
sleep 1; shot logo-off
echo quit >&3
wait $pid; echo "exit $?"
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share], command, timeout=300)
    board.expect_ok(rc, stdout, stderr)
    board.check(marquee_errors(share) == "", f"marquee reported: {marquee_errors(share)}")
    board.check("exit 0" in stdout, f"marquee did not exit 0:\n{stdout}")
    marks = dict(l.split() for l in stdout.splitlines() if len(l.split()) == 2 and l.split()[0] in ("before", "after", "before2", "after2"))

    screen = f"{SCREEN[0]}:{SCREEN[1]}"
    grey = os.path.join(share, "grey.mp4")
    logo = os.path.join(share, "logo.png")
    with_logo = raw("-i", grey, "-i", logo, "-filter_complex", f"[0]scale={screen}:flags=bilinear[v];[v][1]overlay=24:24",
                    out=os.path.join(share, "logo.rgb"))
    bare = raw("-i", grey, "-vf", f"scale={screen}:flags=bilinear", out=os.path.join(share, "bare.rgb"))
    rows_of = lambda data: [data[i * SCREEN[0] * 3:(i + 1) * SCREEN[0] * 3] for i in range(SCREEN[1])]

    def clock_reference(text):
        script = os.path.join(share, "clock.ass")
        with open(script, "w") as f:
            f.write(clock_script(text, w, h))
        return raw("-i", grey, "-vf", f"scale={screen}:flags=bilinear,crop={w}:{h}:{x}:{y},ass={script}",
                   out=os.path.join(share, "clock.rgb"))

    def shot(name):
        width, height, rows = board.read_png_rgb(os.path.join(out, f"{name}.png"))
        board.check((width, height) == SCREEN, f"{name}.png is {width}x{height}")
        return rows

    first, second = shot("first"), shot("second")
    logo_db = psnr(crop(first, LOGO_RECT), crop(rows_of(with_logo), LOGO_RECT))
    board.check(logo_db >= 35, f"the logo is {logo_db:.1f} dB from ffmpeg's overlay of it")
    clock_db = {}
    for rows, (before, after) in ((first, ("before", "after")), (second, ("before2", "after2"))):
        candidates = {marks.get(before, ""), marks.get(after, "")} - {""}
        scores = {text: psnr(crop(rows, CLOCK_RECT), clock_reference(text)) for text in candidates}
        best = max(scores, key=scores.get) if scores else "?"
        board.check(scores and scores[best] >= 30, f"the clock is {scores} dB from libass's rendering of the times read around the capture")
        clock_db[best] = scores.get(best, 0)
    board.check(len(clock_db) == 2, f"the clock showed the same time 2 s apart: {clock_db}")
    osd, gone, off = shot("osd"), shot("osd-gone"), shot("logo-off")
    board.check(psnr(crop(osd, OSD_RECT), crop(rows_of(bare), OSD_RECT)) < 25, "show-text drew nothing in the bottom band")
    board.check(psnr(crop(gone, OSD_RECT), crop(rows_of(bare), OSD_RECT)) >= 35, "show-text's text stayed up after its 2 s")
    off_db = psnr(crop(off, LOGO_RECT), crop(rows_of(bare), LOGO_RECT))
    board.check(off_db >= 35, f"after `overlay logo off` its rectangle is {off_db:.1f} dB from the bare clip")
    return (f"logo {logo_db:.1f} dB from ffmpeg's overlay; clock {', '.join(f'{t} {d:.1f} dB' for t, d in clock_db.items())} "
            f"from libass via ffmpeg; show-text up and gone after 2 s; overlay off leaves the clip ({off_db:.1f} dB)")


def scenario_kms_overlays_vkms(board, out):
    """Must-show 4 on vkms: with planes, the logo is on an overlay plane of
    its own in ARGB8888 at its rect, with marquee's framebuffer (debugfs
    state), the clip on another; and the screen's CRC equals the CRC with
    the clip and the logo blended in software (`--plane primary`), the path
    kms-overlays checks against ffmpeg. The logo's alpha here is 0 or 255
    (a checkerboard): where alpha is partial, vkms rounds its blend its own
    way, a unit here and there, which a CRC cannot tell from a wrong picture."""
    os.makedirs(out, exist_ok=True)
    share = tempfile.mkdtemp(prefix="overlay-share-")
    make_grey_and_logo(share, "320x240", "255*mod(floor(X/8)+floor(Y/8),2)")
    with open(os.path.join(share, "overlays.toml"), "w") as f:
        f.write(LOGO_TOML)
    auto, primary, _, states = plane_vs_primary(board, out, share, "overlays.toml", 4)
    board.check(len(auto) == 1 and len(primary) == 1, f"a still screen should give one CRC each: auto {auto}, primary {primary}")
    board.check(auto == primary, f"with planes the screen's CRC {auto} differs from the software blending's {primary}")
    with_planes, composed = (plane_blocks(states[k]) for k in ("auto", "primary"))
    logo = [name for name, fields in with_planes.items() if fields.get("crtc-pos") == "160x90+24+24"]
    board.check(logo, f"no plane at the logo's rect 160x90+24+24: {with_planes}")
    fields = with_planes[logo[0]] if logo else {}
    board.check(fields.get("allocated by", "").startswith("marquee") and "AR24" in fields.get("format", ""),
                f"the logo's plane does not show marquee's ARGB8888 buffer: {fields}")
    board.check(len(with_planes) == 3, f"the primary, the clip and the logo should each have a plane: {with_planes}")
    board.check(len(composed) == 1, f"--plane primary should leave one plane in use, the primary: {composed}")
    return (f"logo on {logo[0] if logo else '?'} (ARGB8888), {len(with_planes)} planes in use; CRC {auto[0] if auto else '?'} = "
            f"everything blended in software")


SCENARIOS = {
    "kms-overlays": scenario_kms_overlays,
    "kms-overlays-vkms": scenario_kms_overlays_vkms,
}
