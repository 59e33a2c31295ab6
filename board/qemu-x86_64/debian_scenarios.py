"""Scenarios of the Debian image (issue 20): the package as a kiosk gets it.
One boot of `build --image debian` checks the installed service playing the
packaged configuration's folder on the screen, as the `marquee` user, and
then the package's life: an upgrade keeps a changed conffile, a purge
removes the configuration and keeps the user. Lintian runs on the host.

Imported by `scenarios`, which passes itself as `board`.
"""

import glob
import os
import re
import shutil
import subprocess
import tempfile

import kms_scenarios as kms

BOARD = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(BOARD, "..", "debian-kiosk", "package")
COLOUR = (48, 96, 192)   # the clip's colour, RGB
MARKER = "# changed on this kiosk"

COMMAND = r"""
systemctl is-system-running --wait >/dev/null
echo "system: $(systemctl is-system-running)"
echo "enabled: $(systemctl is-enabled marquee)"
# The packaged configuration plays /srv/marquee/media, watched from its
# nearest existing parent: made now, its clip must come up on the screen.
mkdir -p /srv/marquee/media
cp /mnt/host/clip.mp4 /srv/marquee/clip.part && mv /srv/marquee/clip.part /srv/marquee/media/clip.mp4
i=0
until ls -l /proc/$(pgrep -x marquee)/fd 2>/dev/null | grep -q /srv/marquee/media/clip.mp4; do
    i=$((i + 1)); [ $i -lt 900 ] || { echo "marquee did not open the clip in 90 s"; break; }
    sleep 0.1
done
sleep 3   # its first frames on the screen (decoding is slow under TCG)
shot playing
echo "active: $(systemctl is-active marquee)"
echo "user: $(ps -o user= -C marquee | sort -u)"
echo "groups: $(id -nG marquee)"
echo "blame: $(systemd-analyze blame | grep -w marquee.service)"
dpkg-query -W -f 'status: ${Status}\nversion: ${Version}\n' marquee
echo "journal:"; journalctl -u marquee --no-pager -o cat | tail -n 8 | sed 's/^/  /'
echo "$MARKER" >>/etc/marquee/config.toml
dpkg -i /mnt/host/upgrade/marquee_*.deb </dev/null >/tmp/upgrade.log 2>&1 || sed 's/^/  upgrade: /' /tmp/upgrade.log
echo "upgraded: $(dpkg-query -W -f '${Version}' marquee)"
echo "kept: $(grep -c "$MARKER" /etc/marquee/config.toml)"
echo "after-upgrade: $(systemctl is-active marquee)"
dpkg --purge marquee </dev/null >/tmp/purge.log 2>&1 || sed 's/^/  purge: /' /tmp/purge.log
echo "etc-after-purge: $(test -e /etc/marquee && echo present || echo gone)"
echo "user-after-purge: $(getent passwd marquee | cut -d: -f1)"
echo "running-after-purge: $(pgrep -x marquee || echo none)"
"""


def current_deb(board):
    debs = glob.glob(os.path.join(BOARD, "cache", "deb", "marquee_*.deb"))
    board.check(len(debs) == 1 and os.path.exists(os.path.join(BOARD, "cache", "debian.ext4")),
                "no Debian image: run board/qemu-x86_64/build --image debian first")
    return debs[0]


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", deb, name], check=True, capture_output=True, text=True).stdout.strip()


def lintian(board, deb):
    """Lintian's verdict on the package: no error or warning (overrides
    carry their reasons); the summary counts every tag by kind."""
    board.check(shutil.which("lintian"), "lintian not found (apt-get install lintian; .ci/setup does)")
    result = subprocess.run(["lintian", "--display-info", "--show-overrides", "--tag-display-limit", "0", deb],
                            capture_output=True, text=True)
    # (E error, W warning, I info, P pedantic, X experimental, O overridden;
    # N lines are notes, the overrides' comments among them)
    tags = [line for line in result.stdout.splitlines() if re.match(r"[EWIPXO]: ", line)]
    bad = [line for line in tags if line[0] in "EW"]
    board.check(not bad, "lintian:\n" + "\n".join(bad))
    counts = {kind: sum(1 for line in tags if line[0] == kind) for kind in "EWIPXO"}
    return "lintian " + ", ".join(f"{n} {kind}" for kind, n in counts.items() if n or kind in "EW")


def upgrade_deb(share, deb, version):
    """The same binary repackaged with a higher version, as a new release."""
    unpacked = tempfile.mkdtemp(prefix="deb-")
    try:
        subprocess.run(["dpkg-deb", "-x", deb, unpacked], check=True)
        subprocess.run([PACKAGE, "--binary", os.path.join(unpacked, "usr/bin/marquee"), "--version", version,
                        "--out", os.path.join(share, "upgrade")], check=True, capture_output=True, text=True)
    finally:
        shutil.rmtree(unpacked)


def scenario_debian(board, out):
    deb = current_deb(board)
    version = field(deb, "Version")
    lint = lintian(board, deb)
    share = tempfile.mkdtemp(prefix="debian-share-")
    try:
        newer = version + "+upgrade1"
        upgrade_deb(share, deb, newer)
        kms.ffmpeg("-f", "lavfi", "-i", "color=c=0x%02x%02x%02x:size=320x240:rate=25:duration=3" % COLOUR,
                   "-c:v", "libx264", "-pix_fmt", "yuv420p", os.path.join(share, "clip.mp4"))
        command = f"MARKER='{MARKER}'\n{COMMAND}"
        rc, stdout, stderr, result = board.run_board(
            out, ["--image", "debian", "--display", "bochs", "--audio", "hda", "--share", share, "--timeout", "400"],
            command, timeout=480)
    finally:
        shutil.rmtree(share)
    board.expect_ok(rc, stdout, stderr)
    said = dict(line.split(": ", 1) for line in stdout.splitlines() if re.match(r"[a-z-]+: ", line))
    context = f"\n--- guest\n{stdout}"
    board.check(said.get("enabled") == "enabled", f"marquee.service is not enabled{context}")
    board.check(said.get("active") == "active", f"marquee.service is not active{context}")
    board.check(said.get("user") == "marquee", f"the player runs as {said.get('user')!r}, not marquee{context}")
    groups = set(said.get("groups", "").split())
    board.check({"video", "render", "audio", "gpio"} <= groups, f"marquee's groups: {sorted(groups)}{context}")
    blame = said.get("blame", "")
    board.check(re.fullmatch(r"(\d+min )?[\d.]+m?s marquee\.service", blame.strip()), f"blame line {blame!r}{context}")
    board.check(said.get("status") == "install ok installed" and said.get("version") == version,
                f"dpkg -s: {said.get('status')!r} {said.get('version')!r}, expected {version}{context}")
    _, _, rows = board.read_png_rgb(os.path.join(out, "playing.png"))
    centre = board.pixel(rows, kms.SCREEN[0] // 2, kms.SCREEN[1] // 2)
    board.check(board.near(centre, COLOUR, 40), f"screen centre {centre}, the clip is {COLOUR}{context}")
    board.check(said.get("upgraded") == newer, f"upgrade to {newer}: {said.get('upgraded')!r}{context}")
    board.check(said.get("kept") == "1", f"the changed conffile was not kept across the upgrade{context}")
    board.check(said.get("after-upgrade") == "active", f"not active after the upgrade{context}")
    board.check(said.get("etc-after-purge") == "gone", f"/etc/marquee after purge: {said.get('etc-after-purge')}{context}")
    board.check(said.get("user-after-purge") == "marquee", f"the marquee user is gone after purge{context}")
    board.check(said.get("running-after-purge") == "none", f"marquee still runs after purge{context}")
    return (f"boot {result.get('boot_s')} s, command {result.get('command_s')} s; system {said.get('system')}; "
            f"{blame.strip()}; screen {centre}; upgrade kept the conffile; purge: /etc/marquee gone, user kept; {lint}")


SCENARIOS = {
    "debian": scenario_debian,
}
