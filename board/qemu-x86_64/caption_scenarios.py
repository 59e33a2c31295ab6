"""Captions on the board (issue 39): an MP4 with a mov_text track and an
MKV with an SRT file beside it, played on bochs (no overlay planes: the
captions are drawn into the picture's buffer) and paused at three cue
times each after a seek; every capture's caption band against ffmpeg's
`subtitles` filter (libass, the same DejaVu files) on the same frame.
Also across a loop seam, `captions off`, `show-text` on this single
output, and a subtitle file that is not one: a line that says so, and the
picture plays on.

Imported by `scenarios`, which passes itself as `board`.
"""

import os
import tempfile

from kms_scenarios import SCREEN, SETTLE_S, ffmpeg, marquee_errors
from layout_scenarios import crop, psnr

# 640x360 fitted into 1280x800: 1280x720 at y 40; libass draws at that size.
PICTURE = (1280, 720)
PICTURE_Y = 40
BAND = (0, PICTURE_Y + 480, 1280, 240)   # the picture's bottom third, where the cues sit
CUES = {
    "talk": [(0.0, 3.0, "The first caption"), (4.0, 6.0, "Second: <i>slanted</i> words"), (7.0, 9.5, "Third cue,\\Non two lines")],
    "show": [(0.0, 3.0, "Die erste Zeile"), (4.0, 6.0, "Grüße aus der Mitte"), (7.0, 9.5, "Dritte Zeile,\nzweizeilig")],
}
TIMES = (1.5, 5.0, 8.0)


def srt(cues):
    def stamp(seconds):
        ms = round(seconds * 1000)
        return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"
    return "\n".join(f"{n + 1}\n{stamp(a)} --> {stamp(b)}\n{text.replace(chr(92) + 'N', chr(10))}\n" for n, (a, b, text) in enumerate(cues))


def make_clips(share):
    """talk.mp4 (mov_text, English), show.mkv + show.srt, broken.mkv + broken.srt (noise)."""
    for name in CUES:
        with open(os.path.join(share, f"{name}.srt"), "w", encoding="utf-8") as f:
            f.write(srt(CUES[name]))
    bars = ["-f", "lavfi", "-i", "smptebars=size=640x360:rate=25:duration=12"]
    h264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]
    ffmpeg(*bars, "-i", os.path.join(share, "talk.srt"), "-map", "0:v", "-map", "1:s", "-c:s", "mov_text",
           "-metadata:s:s:0", "language=eng", *h264, os.path.join(share, "talk.mp4"))
    os.remove(os.path.join(share, "talk.srt"))
    for name in ("show", "broken"):
        ffmpeg(*bars, *h264, os.path.join(share, f"{name}.mkv"))
    with open(os.path.join(share, "broken.srt"), "wb") as f:
        f.write(bytes((n * 7919) & 0xFF for n in range(4096)))


def reference(share, video, subtitles, seconds, name):
    """ffmpeg's frame of `video` at `seconds` at the picture's size on screen, captions by `subtitles` (or none)."""
    out = os.path.join(share, f"{name}.rgb")
    filters = f"scale={PICTURE[0]}:{PICTURE[1]}:flags=bilinear" + (f",subtitles={subtitles}" if subtitles else "")
    ffmpeg("-i", video, "-vf", filters, "-ss", str(seconds), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", out)
    data = open(out, "rb").read()
    width = PICTURE[0] * 3
    # As screen rows: the picture's rows placed at its offset, so BAND crops both alike.
    return [b""] * PICTURE_Y + [data[i * width:(i + 1) * width] for i in range(PICTURE[1])]


def scenario_kms_captions(board, out):
    """Must-show 1: three cue times of each file after a seek, >= 30 dB
    from ffmpeg's subtitles over the caption band (and that band in
    ffmpeg's frame not the bare bars); the first cue up again after the
    loop seam; `captions off` leaves the bars; a broken subtitle file is
    one line and its video plays."""
    os.makedirs(out, exist_ok=True)
    share = tempfile.mkdtemp(prefix="caption-share-")
    make_clips(share)
    with open(os.path.join(share, "captions.toml"), "w") as f:
        f.write('[playback]\nplaylist = ["talk.mp4", "show.mkv", "broken.mkv"]\nloop = "item"\n')
    seeks = "\n".join(f'echo "seek {t}" >&3; sleep 3; shot NAME-{t}' for t in TIMES)
    command = f"""
cd /mnt/host
mkfifo /tmp/ctl
marquee play --config captions.toml --audio-out null --control text < /tmp/ctl > /tmp/replies 2>>errors.txt & pid=$!
exec 3>/tmp/ctl
sleep {SETTLE_S}
echo pause >&3; sleep 1
{seeks.replace("NAME", "talk")}
echo "seek 10.5" >&3; sleep 2; echo play >&3; sleep 4; echo pause >&3; sleep 2
echo "get time" >&3; sleep 1; shot talk-seam
echo next >&3; sleep 4; echo pause >&3; sleep 1
{seeks.replace("NAME", "show")}
echo "captions off" >&3; sleep 1; echo "seek 5.2" >&3; sleep 3; shot show-off
echo "show-text Doors open at 9 3" >&3; sleep 1; shot osd; sleep 4; shot osd-gone
echo "captions on" >&3; echo next >&3; sleep 5; shot broken
echo quit >&3; exec 3>&-
wait $pid; echo "exit $?"
sed "s/^/reply: /" /tmp/replies
"""
    rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share], command, timeout=400)
    board.expect_ok(rc, stdout, stderr)
    board.check("exit 0" in stdout, f"marquee did not exit 0:\n{stdout}")
    errors = marquee_errors(share).splitlines()
    board.check(len(errors) == 1 and "broken.srt" in errors[0] and "captions not shown" in errors[0],
                f"the broken subtitle file should be one line, marquee said: {errors}")

    def shot(name):
        width, height, rows = board.read_png_rgb(os.path.join(out, f"{name}.png"))
        board.check((width, height) == SCREEN, f"{name}.png is {width}x{height}")
        return rows

    results = []

    def compare(name, video, subtitles, seconds):
        ours = crop(shot(name), BAND)
        captioned = crop(reference(share, video, subtitles, seconds, name), BAND)
        bare = crop(reference(share, video, None, seconds, name + "-bare"), BAND)
        match, drawn = psnr(ours, captioned), psnr(captioned, bare)
        board.check(match >= 30, f"{name}: {match:.1f} dB from ffmpeg's subtitles")
        board.check(drawn < 25, f"{name}: ffmpeg drew no caption there ({drawn:.1f} dB from the bare bars)")
        results.append(f"{name} {match:.1f}")

    talk, show = os.path.join(share, "talk.mp4"), os.path.join(share, "show.mkv")
    for seconds in TIMES:
        compare(f"talk-{seconds}", talk, talk, seconds)
        compare(f"show-{seconds}", show, os.path.join(share, "show.srt"), seconds)
    times = [float(l.split()[2]) for l in stdout.splitlines() if l.startswith("reply: ok ") and len(l.split()) == 3
             and l.split()[2].replace(".", "", 1).isdigit()]
    seam = times[0] if times else -1
    board.check(0.2 < seam < 2.8, f"after the loop seam the paused time should be inside the first cue (0-3 s): {seam}")
    if 0.2 < seam < 2.8:
        compare("talk-seam", talk, talk, 1.0)
    off = psnr(crop(shot("show-off"), BAND), crop(reference(share, show, None, 5.2, "off"), BAND))
    board.check(off >= 30, f"after `captions off` the band is {off:.1f} dB from the bare bars")
    # show-text on this single output: drawn by the presenter into the paused picture's bottom band, then gone.
    osd_band = (0, PICTURE_Y + 720 - 136 - 24, 1280, 136)
    bars = reference(share, show, None, 5.2, "osd")
    osd, osd_gone = (psnr(crop(shot(name), osd_band), crop(bars, osd_band)) for name in ("osd", "osd-gone"))
    board.check(osd < 25, f"show-text drew nothing over the paused picture ({osd:.1f} dB from the bars)")
    board.check(osd_gone >= 30, f"show-text's text stayed after its 3 s ({osd_gone:.1f} dB from the bars)")
    broken = psnr(crop(shot("broken"), (0, PICTURE_Y, 1280, 720)),
                  crop(reference(share, os.path.join(share, "broken.mkv"), None, 0, "broken"), (0, PICTURE_Y, 1280, 720)))
    board.check(broken >= 25, f"broken.mkv (its subtitles unreadable) is {broken:.1f} dB from its bars: not playing")
    return (f"dB from ffmpeg's subtitles over the caption band: {', '.join(results)}; seam paused at {seam} s; "
            f"captions off {off:.1f} dB from the bars; show-text up ({osd:.1f} dB) and gone ({osd_gone:.1f} dB); "
            f"broken.srt one line, its video up ({broken:.1f} dB)")


SCENARIOS = {
    "kms-captions": scenario_kms_captions,
}
