"""Picture fidelity on real kernel displays (issue 15): pixel aspect only in
the H.264 VUI, a mirrored and turned display orientation SEI, full range,
and untagged HD, each captured on the screen and compared with ffmpeg's
rendering under the right and the wrong interpretation. The whole matrix
runs on the host (Tests/MarqueePictureTests); this is its subset on bochs
and virtio-gpu, one boot each.

Imported by `scenarios`, which passes itself as `board`.
"""

import os
import shutil
import subprocess
import tempfile

import kms_scenarios as kms

# name: (size, VUI sample aspect, range, tagged matrix (None: untagged), SEI (anticlockwise, flip), wrong reading)
CASES = {
    "sar-8-9": ("320x240", (8, 9), "tv", "bt709", None, {"sar": 1}),
    "sei-270-flip": ("320x240", None, "tv", "bt709", (270, True), {"sei": (270, False)}),
    "full-bt601": ("320x240", None, "pc", "bt601", None, {"range": "tv"}),
    "untagged-hd": ("1280x720", None, "tv", None, None, {"matrix": "bt601"}),
}


def fixture(share, name):
    size, sar, value_range, matrix, sei, _ = CASES[name]
    width, height = map(int, size.split("x"))
    tagged = matrix or ("bt709" if width > 1024 or height > 576 else "bt601")
    bsf = []
    if sar:
        bsf.append(f"sample_aspect_ratio={sar[0]}/{sar[1]}")
    if sei:
        bsf.append(f"display_orientation=insert:rotate={sei[0]}" + (":flip=horizontal" if sei[1] else ""))
    path = os.path.join(share, f"{name}.mp4")
    args = ["-f", "lavfi", "-i", f"testsrc2=size={size}:rate=1:duration=1,fps=25",
            "-vf", f"scale=out_color_matrix={tagged}:out_range={value_range},format=yuv420p",
            "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-frames:v", "25", "-color_range", value_range]
    if matrix:
        args += ["-colorspace", "smpte170m" if matrix == "bt601" else matrix]
    if bsf:
        args += ["-bsf:v", "h264_metadata=" + ":".join(bsf)]
    kms.ffmpeg(*args, path)
    return path


def reading(name, wrong=False):
    size, sar, value_range, matrix, sei, wrong_reading = CASES[name]
    width, height = map(int, size.split("x"))
    read = {"range": value_range, "matrix": matrix or ("bt709" if width > 1024 or height > 576 else "bt601"),
            "sar": sar[0] / sar[1] if sar else 1, "sei": sei}
    if wrong:
        read.update(wrong_reading)
    return read


def rendering(clip, name, read, out_path):
    """ffmpeg's rendering of the clip's first picture as `read` says, placed
    as Marquee places it (resizeAspect) on the board's screen."""
    width, height = map(int, CASES[name][0].split("x"))
    angle, flip = read["sei"] or (0, False)
    turned = angle % 180 == 90
    if turned:
        width, height = height, width
    sar = 1 / read["sar"] if turned else read["sar"]
    _, (dx, dy, dw, dh) = kms.placement(width, height, "resizeAspect", sample_aspect=sar)
    scaled = (dh, dw) if turned else (dw, dh)
    chain = [f"scale={scaled[0]}:{scaled[1]}:in_range={read['range']}:in_color_matrix={read['matrix']}"
             ":out_range=pc:flags=bilinear", "format=rgb24"]
    if flip:
        chain.append("hflip")
    chain += {90: ["transpose=cclock"], 180: ["hflip", "vflip"], 270: ["transpose=clock"]}.get(angle % 360, [])
    chain.append(f"pad={kms.SCREEN[0]}:{kms.SCREEN[1]}:{dx}:{dy}:black")
    kms.ffmpeg("-noautorotate", "-i", clip, "-frames:v", "1", "-vf", ",".join(chain),
               "-f", "rawvideo", "-pix_fmt", "rgb24", out_path)
    return open(out_path, "rb").read()


def fidelity_scenario(board, out, display):
    share = tempfile.mkdtemp(prefix="picture-share-")
    try:
        clips = {name: fixture(share, name) for name in CASES}
        shots = [(name, f"/mnt/host/{name}.mp4") for name in CASES]
        script = ["set -e"]
        for name, clip in shots:
            script += [f"marquee play {clip} --loop item --audio-out null >/dev/null 2>>/mnt/host/errors.txt & pid=$!",
                       f"sleep {kms.SETTLE_S}", f"shot {name}", "kill -TERM $pid", "wait $pid || true"]
        rc, stdout, stderr, _ = board.run_board(out, ["--display", display, "--audio", "none", "--share", share],
                                                "\n".join(script), timeout=400)
        board.expect_ok(rc, stdout, stderr)
        board.check(kms.marquee_errors(share) == "", f"marquee reported: {kms.marquee_errors(share)}")
        results = []
        for name, clip in clips.items():
            png = os.path.join(out, f"{name}.png")
            right = kms.psnr(board, png, rendering(clip, name, reading(name), os.path.join(share, f"{name}-right.rgb")))
            wrong = kms.psnr(board, png, rendering(clip, name, reading(name, wrong=True), os.path.join(share, f"{name}-wrong.rgb")))
            board.check(right >= 35, f"{display} {name}: {right:.1f} dB from the right rendering")
            board.check(right - wrong >= 6, f"{display} {name}: {right:.1f} dB from the right rendering, {wrong:.1f} from the wrong")
            results.append(f"{name} {right:.1f} dB (wrong {wrong:.1f})")
        return f"{display}: " + ", ".join(results)
    finally:
        shutil.rmtree(share, ignore_errors=True)


def scenario_picture_bochs(board, out):
    return fidelity_scenario(board, out, "bochs")


def scenario_picture_virtio(board, out):
    return fidelity_scenario(board, out, "virtio")


# Still pictures (issue 19): the eight EXIF orientations of a real photo,
# a full-range JPEG, a PNG and a WebP, each compared with ffmpeg's
# rendering turned upright and with the picture left as stored.
EXIF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "media", "exif")
# EXIF orientation tag -> ffmpeg filters that turn the stored picture upright.
UPRIGHT = {1: [], 2: ["hflip"], 3: ["hflip", "vflip"], 4: ["vflip"], 5: ["transpose=cclock_flip"],
           6: ["transpose=clock"], 7: ["transpose=clock_flip"], 8: ["transpose=cclock"]}


def stills(share):
    """(name, file in the share, EXIF tag) in play order."""
    pictures = []
    for tag in range(1, 9):
        name = f"Landscape_{tag}.jpg"
        shutil.copy(os.path.join(EXIF, name), os.path.join(share, name))
        pictures.append((name, tag))
    for name, extra in [("full-range.jpg", ["-q:v", "2"]), ("picture.png", []), ("picture.webp", ["-quality", "95"])]:
        kms.ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x480:rate=1", "-frames:v", "1", *extra, os.path.join(share, name))
        pictures.append((name, 1))
    return pictures


def still_rendering(path, turn, out_path):
    """ffmpeg's rendering of the picture as stored, scaled as Marquee places
    it, then turned by `turn`; colour read as libavcodec tags it."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", path],
                           capture_output=True, text=True, check=True)
    width, height = map(int, probe.stdout.strip().split(","))
    swaps = any(f.startswith("transpose") for f in turn)
    shown = (height, width) if swaps else (width, height)
    _, (dx, dy, dw, dh) = kms.placement(*shown, "resizeAspect")
    scaled = (dh, dw) if swaps else (dw, dh)
    chain = [f"scale={scaled[0]}:{scaled[1]}:out_range=pc:flags=bilinear", "format=rgb24"] + turn
    chain.append(f"pad={kms.SCREEN[0]}:{kms.SCREEN[1]}:{dx}:{dy}:black")
    kms.ffmpeg("-noautorotate", "-i", path, "-frames:v", "1", "-vf", ",".join(chain), "-f", "rawvideo", "-pix_fmt", "rgb24", out_path)
    return open(out_path, "rb").read()


def scenario_stills_bochs(board, out):
    """One player shows each picture for an hour; `next` on its control
    channel moves on, and each is captured once it is up."""
    share = tempfile.mkdtemp(prefix="stills-share-")
    try:
        pictures = stills(share)
        names = " ".join(f"/mnt/host/{name}" for name, _ in pictures)
        script = ["mkfifo /tmp/ctl",
                  f"marquee play {names} --image-duration 3600 --loop playlist --audio-out null --control text"
                  " < /tmp/ctl >/dev/null 2>>/mnt/host/errors.txt & pid=$!",
                  "exec 3>/tmp/ctl", f"sleep {kms.SETTLE_S}"]
        for index, (name, _) in enumerate(pictures):
            if index > 0:
                script += ["echo next >&3", "sleep 5"]
            script.append(f"shot still-{index}")
        script += ["echo quit >&3", "wait $pid; echo \"exit $?\""]
        rc, stdout, stderr, _ = board.run_board(out, ["--display", "bochs", "--audio", "none", "--share", share],
                                                "\n".join(script), timeout=400)
        board.expect_ok(rc, stdout, stderr)
        board.check(kms.marquee_errors(share) == "", f"marquee reported: {kms.marquee_errors(share)}")
        board.check("exit 0" in stdout, f"marquee did not exit 0 on quit:\n{stdout}")
        results = []
        for index, (name, tag) in enumerate(pictures):
            png = os.path.join(out, f"still-{index}.png")
            path = os.path.join(share, name)
            right = kms.psnr(board, png, still_rendering(path, UPRIGHT[tag], os.path.join(share, f"{index}-right.rgb")))
            board.check(right >= 35, f"{name}: {right:.1f} dB from ffmpeg's upright rendering")
            if tag != 1:
                stored = kms.psnr(board, png, still_rendering(path, [], os.path.join(share, f"{index}-stored.rgb")))
                board.check(right - stored >= 6, f"{name}: {right:.1f} dB upright, {stored:.1f} dB as stored")
            results.append(f"{name} {right:.1f} dB")
        return "bochs: " + ", ".join(results)
    finally:
        shutil.rmtree(share, ignore_errors=True)


SCENARIOS = {
    "picture-bochs": scenario_picture_bochs,
    "picture-virtio": scenario_picture_virtio,
    "stills-bochs": scenario_stills_bochs,
}
