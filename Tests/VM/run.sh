#!/usr/bin/env bash
# Tests/VM/run.sh: fbanim on real Linux display drivers, in QEMU.
#
# Boots the Debian kernel four times with harness/vm-run.sh (the VM harness
# in this folder): bochs-drm at 480x320 (with --color and --background) and
# virtio-gpu at 320x240 (the loaders' own colours), where fbanim plays
# each loader through DRM (/dev/dri/card0) and fbdev (/dev/fb0) and the
# emulated monitor is dumped while it plays; and vkms (a real 60 Hz vblank),
# for pacing and an in-guest grab of the scanout buffer; and bochs again with
# video=Virtual-1:panel_orientation=left_side_up, where the picture must be
# turned 270 (and `fbanim devices` say so). The pictures are
# checked against `fbanim render` of the same loader (check_frame.py), and
# on bochs a user's own loader (Examples/: `pulse`, played through the FBAnim
# library) against its own renders; the
# VT must be in KD_GRAPHICS while fbanim plays and back in KD_TEXT after
# SIGTERM/SIGINT/SIGHUP; the exit statuses of spec/cli.md are checked for a
# missing device (66), a non-display (69), another DRM master (69, fast),
# an unprivileged user (77) and a device removed while playing (74).
#
# Then boot.sh: fbanim as the boot splash, booted as a user boots (the
# Debian package under systemd, the initramfs hook, hand-over, shutdown;
# see boot.sh), with the same binary; its checks count here too.
#
# Prints `PASS name` / `FAIL name` per check and `N passed, M failed`;
# exits 1 on a failure. Needs root and what harness/install.sh installs
# (Scripts/setup.sh runs it). Environment: FBANIM_BIN (a prebuilt fbanim;
# default: build a static release), FBANIM_VM_DIR (another harness folder),
# FBANIM_VM_KEEP=1 (keep the work folder with the pictures),
# FBANIM_VM_ONLY="bochs virtio vkms orient boot" (boot: boot.sh, whose own
# FBANIM_BOOT_ONLY chooses among its boots).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
vm=${FBANIM_VM_DIR:-$here/harness}
started=$(date +%s)
passed=0 failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { # check NAME DETAIL CONDITION...: PASS when the condition (a command) succeeds
    local name=$1 detail=$2
    shift 2
    if "$@"; then pass "$name${detail:+: $detail}"; else fail "$name${detail:+: $detail}"; fi
}

[ -x "$vm/vm-run.sh" ] || { echo "FAIL vm-harness: no $vm/vm-run.sh"; echo "0 passed, 1 failed"; exit 1; }
command -v qemu-system-x86_64 > /dev/null || {
    echo "FAIL vm-harness: qemu-system-x86_64 missing (run $vm/install.sh as root, or Scripts/setup.sh)"
    echo "0 passed, 1 failed"
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/fbanim-vm.XXXXXX")
chmod 755 "$work"
[ "${FBANIM_VM_KEEP:-0}" = 1 ] && echo "work folder: $work" || trap 'rm -rf "$work"' EXIT

# The binary: static Swift runtime, so it starts faster in the guest (1.4 s
# cold instead of 1.9 s). Its own scratch folder, so it does not undo the
# plain release build of Scripts/test.sh.
bin=${FBANIM_BIN:-}
if [ -z "$bin" ]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product fbanim \
        --scratch-path "$root/.build/vm-static" > "$work/build.log" 2>&1) || {
        cat "$work/build.log"
        echo "FAIL build"
        echo "0 passed, 1 failed"
        exit 1
    }
    bin=$root/.build/vm-static/release/fbanim
fi
install -m 755 "$bin" "$work/fbanim"
# A user's own executable: Examples/ (a loader written from
# docs/write-your-own-loader.md, played with FBAnim.play), as Scripts/test.sh
# builds it; built here when missing. The guest is the host's root, so its
# shared Swift libraries are there.
pulse=${FBANIM_PULSE_BIN:-$root/Examples/.build/debug/pulse}
if [ ! -x "$pulse" ]; then
    swift build --package-path "$root/Examples" > "$work/build-pulse.log" 2>&1 || {
        cat "$work/build-pulse.log"
        echo "FAIL build-pulse"
        echo "0 passed, 1 failed"
        exit 1
    }
fi
install -m 755 "$pulse" "$work/pulse"
gcc -O2 -o "$work/kdmode" "$here/kdmode.c" &&
    gcc -O2 -o "$work/drm-grab" "$vm/drm-grab.c" $(pkg-config --cflags --libs libdrm) || {
    echo "FAIL helpers: cannot compile kdmode.c / drm-grab.c"
    echo "0 passed, 1 failed"
    exit 1
}

# References: `fbanim render` at every frame time k/30 s of the first 6 s,
# made on the host while the first VM boots.
# Each display has its size and look (guest.sh uses the same).
size_of() { case $1 in bochs | orient) echo 480x320 ;; virtio) echo 320x240 ;; vkms) echo 1024x768 ;; esac; }
look_of() { # the look, and for orient the turn fbanim must give a Left Side Up panel
    case $1 in virtio) ;; orient) echo "--background 102040 --color 30e0a0 --rotate 270" ;;
    *) echo "--background 102040 --color 30e0a0" ;; esac
}
render_refs() { # DISPLAY LOADER
    local d=$1 loader=$2 k ns
    mkdir -p "$work/refs-$d"
    for ((k = 0; k <= 180; k++)); do
        ns=$((k * 1000000000 / 30))
        # shellcheck disable=SC2046
        "$work/fbanim" render "$loader" --size "$(size_of "$d")" $(look_of "$d") \
            --time "$((ns / 1000000000)).$(printf %09d $((ns % 1000000000)))" \
            --output "$work/refs-$d/$loader-$k.ppm" || return 1
    done
}
render_pulse_refs() { # DISPLAY: the example's frames at k/30 s, as render_refs
    local d=$1 k ns
    mkdir -p "$work/refs-$d"
    for ((k = 0; k <= 180; k++)); do
        ns=$((k * 1000000000 / 30))
        "$work/pulse" --ppm "$work/refs-$d/pulse-$k.ppm" --size "$(size_of "$d")" \
            --time "$((ns / 1000000000)).$(printf %09d $((ns % 1000000000)))" || return 1
    done
}
only=${FBANIM_VM_ONLY:-bochs virtio vkms orient boot}
displays=""
for d in $only; do [ "$d" = boot ] || displays+=" $d"; done
refs_job=""
if [ -n "$displays" ]; then
    (for d in bochs virtio; do for l in ring radar spinner orbit; do render_refs $d $l; done; done
        render_pulse_refs bochs
        render_refs vkms ring
        render_refs orient ring) > "$work/refs.log" 2>&1 &
    refs_job=$!
fi

boot() { # NAME [SIZE [DISPLAY [KERNEL-ARGUMENTS]]]: run guest.sh NAME in a VM
    local d=$1 t0=$(date +%s%N)
    "$vm/vm-run.sh" --display "${3:-$d}" ${2:+--size "$2"} ${4:+--append "$4"} --rw "$work" \
        --timeout 240 -- sh "$here/guest.sh" "$d" "$work" > "$work/$d.log" 2>&1
    local rc=$?
    check "vm-$d" "guest script ran ($(( ($(date +%s%N) - t0) / 1000000 )) ms)" test $rc = 0
}
for d in $displays; do
    case $d in
    vkms) boot vkms ;;
    # The kernel gives the emulated connector a panel orientation (harness/README.md).
    orient) boot orient "$(size_of orient)" bochs "video=Virtual-1:panel_orientation=left_side_up" ;;
    *) boot "$d" "$(size_of "$d")" ;;
    esac
done
if [ -n "$refs_job" ]; then
    wait "$refs_job" || { cat "$work/refs.log"; fail "references: fbanim render failed"; }
fi

is() { [ "$(cat "$1" 2> /dev/null)" = "$2" ]; }
json() { # FILE KEY: a number from fbanim's --stats json
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2> /dev/null
}
played() { # DISPLAY NAME LOADER SIGNAL
    local o=$work/$1 n=$1-$2 f=$2 line
    while read -r line; do
        case $line in PASS*) pass "${line#PASS }" ;; *) fail "${line#FAIL }" ;; esac
    # A single-buffered fbdev may be caught between two frames (it tears as a
    # real scanout would); the DRM paths flip or report damage: never torn.
    done < <(python3 "$here/check_frame.py" $([[ $2 == fb-* ]] && echo --tear-ok) "$n" "$o/$2.ppm" \
        "$work/refs-$1"/$3-*.ppm)
    check "$n-console" "KD_GRAPHICS while playing, KD_TEXT after SIG$4 ($(cat "$o/$2.kd-during" "$o/$2.kd-after" 2> /dev/null | tr '\n' ' '))" \
        eval 'is "$o/$f.kd-during" graphics && is "$o/$f.kd-after" text'
    check "$n-exit" "exit 0 after SIG$4 ($(cat "$o/$f.rc" 2> /dev/null) $(head -c 200 "$o/$f.err" 2> /dev/null))" is "$o/$f.rc" 0
}

for d in $displays; do
    case $d in
    bochs | virtio)
        for l in ring radar spinner orbit; do played "$d" "drm-$l" "$l" TERM; done
        played "$d" fb-ring ring TERM
        played "$d" fb-radar radar INT
        played "$d" fb-spinner spinner HUP
        played "$d" fb-orbit orbit TERM
        if [ "$d" = bochs ]; then
            # The example's loader, played by its own executable (FBAnim.play).
            played "$d" drm-pulse pulse TERM
            played "$d" fb-pulse pulse TERM
        fi
        u=$([ "$d" = bochs ] && echo unplug-fb || echo unplug-drm)
        o=$work/$d
        check "$d-$u" "device removed while playing: exit 74, console back in KD_TEXT ($(cat "$o/$u.rc" "$o/$u.kd-after" "$o/$u.err" 2> /dev/null | tr '\n' ' '))" \
            eval 'is "$o/$u.rc" 74 && is "$o/$u.kd-after" text'
        ;;
    orient)
        # The ring at fbanim's 270 clockwise: its arc starts at 9 o'clock, no time of an upright ring.
        played orient drm-ring ring TERM
        o=$work/orient
        check orient-devices "Left Side Up and the turn fbanim gives it ($(grep -m1 'orientation' "$o/devices.txt"))" \
            grep -q "panel orientation Left Side Up: fbanim turns its picture 270 clockwise" "$o/devices.txt"
        check orient-testpattern "arrow, TOP and text at the left edge ($(python3 "$here/check_top.py" "$o/testpattern.ppm" left 2>&1))" \
            eval 'is "$o/testpattern.rc" 0 && python3 "$here/check_top.py" "$o/testpattern.ppm" left > /dev/null'
        ;;
    vkms)
        played vkms drm-ring ring TERM
        o=$work/vkms
        fps=$(json "$o/pace30.json" fps_achieved) dropped=$(json "$o/pace30.json" frames_dropped)
        check vkms-pacing-30fps "radar: fps_achieved $fps, frames_dropped $dropped (want 27-31, at most 6 of 120)" \
            python3 -c "import sys; f, d = float(sys.argv[1]), int(sys.argv[2]); sys.exit(not (27 <= f <= 31 and d <= 6))" "$fps" "$dropped"
        fps=$(json "$o/pace240.json" fps_achieved)
        check vkms-vblank-bound "radar at --fps 240 achieves $fps fps: flips wait for the 60 Hz vblank (want 20-62)" \
            python3 -c "import sys; sys.exit(not (20 <= float(sys.argv[1]) <= 62))" "$fps"
        ;;
    esac
done

if [[ " $only " == *" bochs "* ]]; then
    o=$work/bochs
    check exit-missing-fbdev "66 ($(cat "$o/missing-fb.rc") $(cat "$o/missing-fb.err"))" is "$o/missing-fb.rc" 66
    check exit-missing-drm "66 ($(cat "$o/missing-drm.rc") $(cat "$o/missing-drm.err"))" is "$o/missing-drm.rc" 66
    check exit-not-a-display "/dev/null: 69 ($(cat "$o/not-a-display.rc") $(cat "$o/not-a-display.err"))" \
        is "$o/not-a-display.rc" 69
    check exit-unprivileged-dri-folder "77 naming /dev/dri, not \"no display\" ($(cat "$o/perm-dri-folder.rc") $(head -c 160 "$o/perm-dri-folder.err"))" \
        eval 'is "$o/perm-dri-folder.rc" 77 && grep -q "cannot list /dev/dri" "$o/perm-dri-folder.err"'
    for p in perm-fb perm-drm perm-default perm-dri-folder; do
        check "exit-unprivileged-${p#perm-}" "77 with the video group hint ($(cat "$o/$p.rc") $(head -c 160 "$o/$p.err"))" \
            eval 'is "$o/$p.rc" 77 && grep -q "video" "$o/$p.err"'
    done
    check exit-busy "another master: 69 in $(cat "$o/busy.ms") ms ($(cat "$o/busy.rc") $(cat "$o/busy.err"))" \
        eval 'is "$o/busy.rc" 69 && grep -q "another program" "$o/busy.err" && [ "$(cat "$o/busy.ms")" -lt 10000 ]'
    check devices-listing "stable names, connector type and status, fb:ID, the pick" \
        eval 'grep -q "names: drm:bochs-drm" "$o/devices.txt" &&
              grep -q "Virtual-1 (Virtual): connected, drm:bochs-drm:Virtual-1, [0-9]* modes: 480x320@" "$o/devices.txt" &&
              grep -q "/dev/fb0: fb:bochs-drmdrmfb, 480x320 xrgb8888 (32 bpp, r 16/8 g 8/8 b 0/8)" "$o/devices.txt" &&
              grep -q "would use: /dev/dri/card0" "$o/devices.txt" && ! grep -q "orientation" "$o/devices.txt"'
    check default-device "plays on /dev/dri/card0 without --device ($(head -c 300 "$o/default.json" "$o/default.err" 2> /dev/null | tr '\n' ' '))" \
        eval 'is "$o/default.rc" 0 && grep -q "/dev/dri/card0" "$o/default.json"'
fi

# The boot splash, booted as a user boots (boot.sh): its PASS and FAIL lines
# count here; its other lines (figures, the time it took) pass through.
if [[ " $only " == *" boot "* ]]; then
    while IFS= read -r line; do
        case $line in
        PASS\ *) pass "${line#PASS }" ;;
        FAIL\ *) fail "${line#FAIL }" ;;
        *\ passed,\ *\ failed) ;;
        *) echo "$line" ;;
        esac
    done < <(FBANIM_BIN=$bin "$here/boot.sh" 2>&1)
fi

echo "VM tests took $(( $(date +%s) - started )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
