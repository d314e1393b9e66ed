#!/bin/sh
# guest.sh DISPLAY WORK: the part of the VM tests that runs inside the VM
# (started by run.sh through vm-run.sh). Plays fbanim on the real drivers,
# takes the pictures and collects exit statuses, console modes and stats
# into WORK/DISPLAY/; run.sh judges them on the host.
#
# Process spawns are slow under TCG (~0.2 s, fbanim ~0.5-1.5 s), so each
# step waits for a state (the VT in KD_GRAPHICS) instead of a fixed time.
d=$1
work=$2
B=$work/fbanim
out=$work/$d
mkdir -p "$out"
# The look run.sh renders its references with: the loaders' own colours on virtio.
look="--background 102040 --color 30e0a0"
[ "$d" = virtio ] && look=""

# play NAME DEVICE LOADER SIGNAL: start fbanim, wait until the console is in
# graphics mode (the display is open), let a few frames pass, take the
# picture, stop fbanim with SIGNAL, record its status and the console mode.
play() {
    name=$1 dev=$2 loader=$3 sig=$4
    # shellcheck disable=SC2086
    if [ -z "$loader" ]; then # a user's executable (pulse): DEVICE is its argument
        "$B" "$dev" > "$out/$name.json" 2> "$out/$name.err" &
    else
        "$B" --device "$dev" --duration 30 --stats json $look "$loader" > "$out/$name.json" 2> "$out/$name.err" &
    fi
    pid=$!
    "$work/kdmode" --wait-graphics 10 > "$out/$name.kd-during"
    sleep 0.5
    if [ "$d" = vkms ]; then
        "$work/drm-grab" "$out/$name.ppm" > /dev/null 2>> "$out/$name.err"
    else
        "$VMRUN_SCREENDUMP" "$out/$name.ppm"
    fi
    kill -"$sig" "$pid"
    wait "$pid"
    echo $? > "$out/$name.rc"
    "$work/kdmode" > "$out/$name.kd-after"
}

# unplug NAME DEVICE: play, then remove the display's PCI device (its
# driver unbinds, as when a USB display is pulled): fbanim must stop with
# status 74 and give the console back.
unplug() {
    name=$1 dev=$2
    "$B" --device "$dev" --duration 30 ring > /dev/null 2> "$out/$name.err" &
    pid=$!
    "$work/kdmode" --wait-graphics 10 > "$out/$name.kd-during"
    sleep 0.5
    echo 1 > /sys/class/drm/card0/device/remove
    wait "$pid"
    echo $? > "$out/$name.rc"
    "$work/kdmode" > "$out/$name.kd-after"
}

# status NAME COMMAND...: run COMMAND, keep its exit status and stderr.
status() {
    name=$1
    shift
    "$@" > /dev/null 2> "$out/$name.err"
    echo $? > "$out/$name.rc"
}

case $d in
orient)
    # bochs, booted with video=Virtual-1:panel_orientation=left_side_up: the
    # connector reports Left Side Up, and fbanim turns its picture 270.
    "$B" devices > "$out/devices.txt" 2>&1
    play drm-ring /dev/dri/card0 ring TERM
    "$B" testpattern --device /dev/dri/card0 --duration 30 > /dev/null 2> "$out/testpattern.err" &
    pid=$!
    "$work/kdmode" --wait-graphics 10 > /dev/null
    sleep 0.5
    "$VMRUN_SCREENDUMP" "$out/testpattern.ppm"
    kill -TERM "$pid"
    wait "$pid"
    echo $? > "$out/testpattern.rc"
    ;;
bochs | virtio)
    for loader in ring radar spinner orbit; do
        play "drm-$loader" /dev/dri/card0 "$loader" TERM
    done
    play fb-ring /dev/fb0 ring TERM
    play fb-radar /dev/fb0 radar INT
    play fb-spinner /dev/fb0 spinner HUP
    play fb-orbit /dev/fb0 orbit TERM
    # A loader of a user's own (Examples/, built from docs/write-your-own-loader.md
    # against the FBAnim library) played by the user's own executable.
    if [ "$d" = bochs ]; then
        B=$work/pulse
        play drm-pulse /dev/dri/card0 "" TERM
        play fb-pulse /dev/fb0 "" TERM
        B=$work/fbanim
    fi
    ;;
vkms)
    "$B" --device /dev/dri/card0 --fps 30 --duration 4 --stats json radar > "$out/pace30.json" 2> "$out/pace30.err"
    echo $? > "$out/pace30.rc"
    "$B" --device /dev/dri/card0 --fps 240 --duration 3 --stats json radar > "$out/pace240.json" 2> "$out/pace240.err"
    echo $? > "$out/pace240.rc"
    play drm-ring /dev/dri/card0 ring TERM
    ;;
esac

if [ "$d" = bochs ]; then
    status missing-fb "$B" --device /dev/fb7 ring
    status missing-drm "$B" --device /dev/dri/card9 ring
    status not-a-display "$B" --device /dev/null ring
    nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
    # shellcheck disable=SC2086
    status perm-fb $nobody "$B" --device /dev/fb0 ring
    # shellcheck disable=SC2086
    status perm-drm $nobody "$B" --device /dev/dri/card0 ring
    # shellcheck disable=SC2086
    status perm-default $nobody "$B" ring
    # A /dev/dri the user may not even list (mode 700): still a permission
    # problem (77 and the hint), not "no display".
    chmod 700 /dev/dri
    # shellcheck disable=SC2086
    status perm-dri-folder $nobody "$B" --duration 1 ring
    chmod 755 /dev/dri
    # Another master holds the card: a clear error at once, not a hang.
    "$B" --device /dev/dri/card0 --duration 30 ring > /dev/null 2>&1 &
    pid=$!
    "$work/kdmode" --wait-graphics 10 > /dev/null
    start=$(date +%s%N)
    status busy "$B" --device /dev/dri/card0 --duration 5 ring
    echo $((($(date +%s%N) - start) / 1000000)) > "$out/busy.ms"
    kill -TERM "$pid"
    wait "$pid"
    "$B" devices > "$out/devices.txt" 2>&1
    "$B" --duration 1 --stats json ring > "$out/default.json" 2> "$out/default.err"
    echo $? > "$out/default.rc"
fi

# Last: the device goes away (DRM on virtio, fbdev on bochs).
case $d in
bochs) unplug unplug-fb /dev/fb0 ;;
virtio) unplug unplug-drm /dev/dri/card0 ;;
esac
exit 0
