# The board's set-up and command protocol, shared by both guests: sourced by
# the initramfs's PID 1 (/init, busybox ash) and by the Debian image's
# marquee-board service (dash). POSIX sh plus `local`, nothing else.
#
# The runner's choices come on the kernel command line (mq.display=bochs|
# virtio|virtio2|vkms|none mq.audio=hda|none mq.gpio=N mq.share=0|1). Console (ttyS0)
# lines starting with "[board]" come from here. Control port (ttyS1)
# protocol, one line each way, guest first:
#   hello            -> cmd BASE64      the command to run
#   shot NAME        -> ok NAME | err NAME MESSAGE   (see /usr/bin/shot)
#   exit STATUS      (no answer; the guest powers off next)

CTL=/dev/ttyS1

log() { echo "[board] $*"; }
# Boot timeline on the console, to see where boot time goes.
step() { echo "[board $(cut -d' ' -f1 /proc/uptime)] $*"; }

# Value of mq.NAME=VALUE on the kernel command line, or DEFAULT.
param() {
    local w
    for w in $(cat /proc/cmdline); do
        case "$w" in "mq.$1="*) echo "${w#*=}"; return ;; esac
    done
    echo "$2"
}

# Waits up to SECONDS for PATH to exist (drivers probe asynchronously).
wait_for() {
    local path=$1 tries=$(($2 * 20))
    while [ ! -e "$path" ]; do
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || { log "ERROR: $path did not appear"; return 1; }
        sleep 0.05
    done
}

load() { modprobe "$@" || log "ERROR: modprobe $* failed"; }

setup_display() {
    case "$1" in
        bochs) load bochs ;;
        virtio | virtio2) load virtio_pci; load virtio-gpu ;;
        vkms) load vkms enable_overlay=1 enable_writeback=1 ;;
        none) return ;;
        *) log "ERROR: unknown display $1"; return ;;
    esac
    wait_for /dev/dri/card0 10
}

# The codec's mixer boots muted at volume 0 (no saved ALSA state on a fresh
# board): unmute, or everything played records as silence.
setup_audio() {
    [ "$1" = hda ] || return
    load snd-hda-codec-generic
    load snd-hda-intel
    wait_for /dev/snd/pcmC0D0p 10 || return
    local ctl ok=0
    for ctl in Master PCM; do
        amixer -q -c0 sset "$ctl" 100% unmute 2>/dev/null && ok=1
    done
    [ "$ok" = 1 ] || log "ERROR: no Master/PCM mixer control to unmute"
}

# One gpio-sim chip with N lines, made through configfs; its sysfs folder
# (where gpio-press writes line pulls) goes to /run/gpio-sim.env.
setup_gpio() {
    local n=$1 cfg=/sys/kernel/config/gpio-sim/board
    [ "$n" -gt 0 ] 2>/dev/null || return
    load gpio-sim
    grep -q " /sys/kernel/config " /proc/mounts || mount -t configfs configfs /sys/kernel/config
    mkdir "$cfg" "$cfg/bank0" || { log "ERROR: gpio-sim configfs"; return; }
    echo "$n" >"$cfg/bank0/num_lines"
    echo marquee-sim >"$cfg/bank0/label"
    echo 1 >"$cfg/live"
    local chip dev
    chip=$(cat "$cfg/bank0/chip_name")
    dev=$(cat "$cfg/dev_name")
    wait_for "/dev/$chip" 5 || return
    cat >/run/gpio-sim.env <<ENV
GPIO_SIM_CHIP=$chip
GPIO_SIM_LINES=$n
GPIO_SIM_SYSFS=/sys/devices/platform/$dev/$chip
ENV
    export MARQUEE_GPIOCHIP=/dev/$chip
}

# virtio-9p share from the host at /mnt/host (the virtio device may probe
# after the module loads, so the mount is retried).
setup_share() {
    [ "$1" = 1 ] || return
    load virtio_pci
    load 9pnet_virtio
    load 9p
    local tries=40
    until mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 host /mnt/host 2>/dev/null; do
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || { log "ERROR: cannot mount the 9p share"; return; }
        sleep 0.05
    done
}

# Everything the runner asked for on the command line.
setup_board() {
    step "display $(param display bochs)"; setup_display "$(param display bochs)"
    step "audio $(param audio none)"; setup_audio "$(param audio none)"
    step "gpio $(param gpio 0)"; setup_gpio "$(param gpio 0)"
    step "share $(param share 0)"; setup_share "$(param share 0)"
    step "ready"
}

# Opens the control port as fd 3, held open so no host answer is lost
# between readers.
open_control() {
    stty -F "$CTL" raw -echo
    exec 3<>"$CTL"
}

# Asks the host for the command; prints it.
fetch_command() {
    local kind payload
    echo hello >&3
    while read -r kind payload <&3; do
        [ "$kind" = cmd ] && { echo "$payload" | base64 -d; return; }
    done
    log "ERROR: no command from the host"
}

# Fetches the command, runs it with `sh -c` as root in /, stdin /dev/null,
# between the console markers, and reports its status on the control port.
run_command() {
    fetch_command >/run/cmd
    export MARQUEE_BOARD=qemu-x86_64
    cd /
    echo "@@MARQUEE-BEGIN@@"
    sh -c "$(cat /run/cmd)" </dev/null
    local status=$?
    echo "@@MARQUEE-END $status@@"
    grep -q " /mnt/host " /proc/mounts && umount /mnt/host
    sync
    echo "exit $status" >&3
}
