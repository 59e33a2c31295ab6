# The Debian image of the QEMU board (`build --image debian`): a Debian 12
# root filesystem with systemd, booted from /dev/vda, with the project's
# current .deb installed by dpkg as on a real kiosk. Sourced by ./build,
# whose helpers (log, die, stage_*, fetch_debs, ...) it uses.
#
#   base     mmdebstrap of bookworm from the mirror this machine's own apt
#            configuration names: systemd, udev, the scenario tools and the
#            package's dependencies (its Depends field, resolved by apt).
#            Cached outside the clone by a hash of its recipe, in
#            ${XDG_CACHE_HOME:-~/.cache}/marquee/debian-base/, so a code
#            change never rebuilds it and every clone on the machine shares it.
#   image    each build: the base unpacked, the board's kernel modules, guest
#            scripts and units added, the .deb installed with dpkg -i in a
#            chroot (its maintainer scripts run as apt-get would run them),
#            --media files in /srv/marquee/media, packed with mke2fs -d into
#            cache/debian.ext4 (no loop mount). The runner boots it with
#            snapshot=on, so a run never changes it.
#   initrd   cache/debian-initrd.cpio: busybox and the modules needed to
#            mount /dev/vda (Debian's kernel builds virtio-blk and ext4 as
#            modules), then switch_root to systemd.

# Bump when the base's recipe changes in a way its hash does not see.
RECIPE_DEBIAN_BASE=1
DEBIAN_SUITE=bookworm
# Besides the package's dependencies: an init, udev (loads the display,
# sound and 9p drivers), and what scenarios run in the guest.
# curl: the HTTP client the control scenario drives the player's API with.
DEBIAN_PACKAGES=(systemd systemd-sysv udev kmod dbus procps alsa-utils gpiod libdrm-tests curl)
DEBIAN_INITRD_MODULES=(virtio_pci virtio_blk ext4)
DEBIAN_BASES=${XDG_CACHE_HOME:-$HOME/.cache}/marquee/debian-base

ensure_debian_tools() {
    local -A need=([mmdebstrap]=mmdebstrap [mke2fs]=e2fsprogs [dpkg-shlibdeps]=dpkg-dev [strip]=binutils)
    local cmd pkgs=()
    for cmd in "${!need[@]}"; do
        command -v "$cmd" >/dev/null || pkgs+=("${need[$cmd]}")
    done
    if [ ${#pkgs[@]} -gt 0 ]; then
        log "installing host tools: ${pkgs[*]}"
        apt_update_once
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
    fi
}

# The machine's own Debian sources for the suite (entries naming
# $DEBIAN_SUITE or its -updates/-security) as mmdebstrap's mirror
# arguments, written in FOLDER: host.sources (deb822 stanzas) and host.list
# (one-line entries), whichever has any. The repository names no mirror.
debian_sources() {
    local folder=$1 f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk -v suite="$DEBIAN_SUITE" 'BEGIN { RS = ""; ORS = "\n\n" }
            { for (i = 1; i <= NF; i++) if ($i ~ "^" suite "(-|$)") { print; next } }' "$f"
    done >"$folder/host.sources"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        grep -E "^deb\s.*\s$DEBIAN_SUITE(-[a-z]+)?\s" "$f" || true
    done >"$folder/host.list"
    for f in "$folder"/host.{sources,list}; do
        if [ -s "$f" ]; then echo "$f"; else rm "$f"; fi
    done
}

# The host's apt options that downloading needs too (a snapshot mirror's
# old Release files), as apt.conf lines.
debian_apt_options() {
    apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date) ' || true
}

# The package's Depends field, which the base satisfies.
deb_depends() { dpkg-deb -f "$1" Depends; }

# Prints the cached base tarball for this recipe, building it if missing.
debian_base() {
    local deb=$1 work mirrors options key tar
    work=$(mktemp -d)
    mapfile -t mirrors < <(debian_sources "$work")
    [ ${#mirrors[@]} -gt 0 ] || die "no $DEBIAN_SUITE entry in /etc/apt/sources.list{,.d}: nowhere to bootstrap from"
    options=$(debian_apt_options)
    key=$(printf '%s\n' "$RECIPE_DEBIAN_BASE" "$DEBIAN_SUITE" "${DEBIAN_PACKAGES[*]}" "$(deb_depends "$deb")" \
          "$(cat "${mirrors[@]}")" "$options" | sha256sum | cut -c1-16)
    tar=$DEBIAN_BASES/$key.tar
    if [ -f "$tar" ]; then rm -rf "$work"; log "debian base $key: cached" >&2; echo "$tar"; return; fi
    log "debian base $key: mmdebstrap $DEBIAN_SUITE (a few minutes)" >&2
    mkdir -p "$DEBIAN_BASES"
    printf '%s\n' "$options" >"$work/apt.conf"
    # apt-get satisfy reads the Depends field as apt-get install ./marquee.deb would.
    mmdebstrap --quiet --variant=apt --aptopt="$work/apt.conf" \
        --include="$(IFS=,; echo "${DEBIAN_PACKAGES[*]}")" \
        --customize-hook="chroot \"\$1\" apt-get satisfy -y -qq --no-install-recommends '$(deb_depends "$deb")' >/dev/null" \
        --customize-hook='chroot "$1" apt-get clean' \
        "$DEBIAN_SUITE" "$tar.part.tar" "${mirrors[@]}" >&2 || { rm -rf "$work" "$tar.part.tar"; die "mmdebstrap failed"; }
    rm -rf "$work"
    mv "$tar.part.tar" "$tar"   # (mmdebstrap picks its format from the name)
    find "$DEBIAN_BASES" -name '*.tar' ! -name "$key.tar" -delete   # one base per machine
    echo "$tar"
}

# The .deb of the marquee just built, in cache/deb/; made again only when
# the binary or the package's files change.
build_package() {
    local key debs
    key=$(find "$REPO/board/debian-kiosk" -type f -print0 | LC_ALL=C sort -z | xargs -0 cat "$MARQUEE_BIN" | sha256sum)
    debs=("$OUT"/deb/marquee_*.deb)
    if stage_done package "$key" && [ -f "${debs[0]}" ]; then echo "${debs[0]}"; return; fi
    rm -rf "$OUT/deb"
    log "package: board/debian-kiosk/package" >&2
    "$REPO/board/debian-kiosk/package" --binary "$MARQUEE_BIN" --out "$OUT/deb" | tail -n1
    stage_mark package "$key"
}

# The board's own files in the image: its scripts, the service that runs
# the host's command, and a console that only the board writes to.
stage_debian_board() {
    local root=$1 f
    install -D -m 0644 "$BOARD/guest/lib/board.sh" "$root/usr/lib/marquee-board/board.sh"
    install -m 0755 "$BOARD/guest/debian/marquee-board" "$root/usr/lib/marquee-board/"
    for f in "$BOARD"/guest/bin/*; do install -D -m 0755 "$f" "$root/usr/local/bin/$(basename "$f")"; done
    install -m 0644 "$BOARD"/guest/debian/marquee-board.{service,target} "$root/etc/systemd/system/"
    ln -sfn marquee-board.target "$root/etc/systemd/system/default.target"
    # A getty would hang up the console the command writes to.
    ln -sfn /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
    ln -sfn /dev/null "$root/etc/systemd/system/getty@tty1.service"
    mkdir -p "$root/mnt/host"
    echo marquee-board >"$root/etc/hostname"
    # Not a first boot (no systemd-firstboot prompt on the console).
    tr -d - </proc/sys/kernel/random/uuid >"$root/etc/machine-id"
}

# dpkg -i in the image, with the kernel filesystems its scripts may read.
install_deb() {
    local root=$1 deb=$2
    cp "$deb" "$root/tmp/marquee.deb"
    mount -t proc proc "$root/proc"
    local rc=0
    chroot "$root" dpkg -i /tmp/marquee.deb >"$OUT/dpkg-i.log" 2>&1 || rc=$?
    umount "$root/proc"
    rm -f "$root/tmp/marquee.deb"
    [ "$rc" = 0 ] || die "dpkg -i $(basename "$deb") failed in the image: $(cat "$OUT/dpkg-i.log")"
}

stage_debian_media() {
    local root=$1 p
    [ ${#MEDIA[@]} -gt 0 ] || return 0
    mkdir -p "$root/srv/marquee/media"
    for p in "${MEDIA[@]}"; do
        [ -e "$p" ] || die "--media $p: no such file"
        cp -a "$p" "$root/srv/marquee/media/"
    done
}

# cache/debian.ext4 from the base, the board's files and the .deb.
debian_image() {
    local abi=$1 deb=$2 base key root=$OUT/stage/debian
    base=$(debian_base "$deb")
    key="$(basename "$base") $(sha256sum "$deb" | cut -c1-16) $(cat "$OUT/.stamp-modules") ${MEDIA[*]:-} \
$(cat "$0" "$BOARD/debian-image.sh" "$BOARD"/guest/lib/* "$BOARD"/guest/debian/* "$BOARD"/guest/bin/* | sha256sum)"
    if stage_done debian-image "$key" && [ -f "$OUT/debian.ext4" ]; then log "debian.ext4: unchanged"; return; fi
    log "debian.ext4: base + modules + board + $(basename "$deb")"
    rm -rf "$root"; mkdir -p "$root"
    tar -xf "$base" -C "$root" --numeric-owner
    stage_modules "$abi" "$root"
    stage_debian_board "$root"
    install_deb "$root" "$deb"
    stage_debian_media "$root"
    # Room for a scenario to install another .deb, and the journal.
    local size=$(( $(du -sm "$root" | cut -f1) * 5 / 4 + 512 ))
    rm -f "$OUT/debian.ext4.tmp"
    mke2fs -q -F -t ext4 -L marquee-root -d "$root" "$OUT/debian.ext4.tmp" "${size}M" >/dev/null || die "mke2fs failed"
    mv "$OUT/debian.ext4.tmp" "$OUT/debian.ext4"
    rm -rf "$root"
    stage_mark debian-image "$key"
}

# The initramfs that mounts the image: busybox, virtio-blk and ext4.
debian_initrd() {
    local abi=$1 root=$OUT/stage/debian-initrd
    rm -rf "$root"; make_skeleton "$root"
    stage_busybox "$root"
    stage_modules "$abi" "$root" "${DEBIAN_INITRD_MODULES[@]}"
    install -m 0755 "$BOARD/guest/debian/init" "$root/init"
    pack_cpio "$root" "$OUT/debian-initrd.cpio"
}

build_debian() {
    local abi=$1 deb
    ensure_debian_tools
    build_marquee
    deb=$(build_package)
    [ -f "$deb" ] || die "no .deb from board/debian-kiosk/package"
    log "package: $(basename "$deb")"
    debian_initrd "$abi"
    debian_image "$abi" "$deb"
    ln -sfn "$KEEP/kernel/vmlinux" "$OUT/vmlinux"
    log "done: $OUT/vmlinux, $OUT/debian-initrd.cpio, $OUT/debian.ext4 ($(du -h --apparent-size "$OUT/debian.ext4" | cut -f1), $(du -h "$OUT/debian.ext4" | cut -f1) used)"
}
