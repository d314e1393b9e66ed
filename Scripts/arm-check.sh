#!/usr/bin/env bash
# The pure core (FBRaster, FBScheduler, FBAnimation) on ARM: builds the
# checksum program of Tests/ARM twice from the same sources, as Embedded
# Swift for ARM (linked statically against Debian's cross glibc, run under
# qemu-user) and as ordinary Swift for this machine (the reference), and
# compares their lines: one FNV-1a 64 checksum per (loader, pixel format)
# over 30 frames. Exits 0 only when every line matches; prints
# "N passed, M failed" last.
#
#     Scripts/arm-check.sh [aarch64] [armv7] [armv6] [armv6hf]
#         (default: aarch64 armv7 armv6)
#
# aarch64: aarch64-none-none-elf against Debian's arm64 C library, run as a
#     Cortex-A53 (Pi 3/4/Zero 2 W, 64-bit).
# armv7: armv7-none-none-eabi with the hard-float ABI of Debian's armhf
#     (-mfloat-abi=hard, VFPv3-D16), run as a Cortex-A7 (Pi 2; a Pi 3 in
#     32-bit mode).
# armv6: armv6-none-none-eabi with VFPv2 instructions and the soft-float
#     calling convention (-mfloat-abi=softfp) of Debian's armel, run as an
#     ARM1176 (Pi 1/Zero): every instruction ARMv6.
# armv6hf: armv6-none-none-eabi with the hard-float ABI of Raspberry Pi
#     OS against Debian's armhf. Links and matches, but Debian's armhf C
#     library is ARMv7 (Thumb-2): its _start is an illegal instruction to an
#     ARM1176, so this one runs on QEMU's default CPU.
#
# Installs what it needs (Debian packages, with sudo when not root); the
# same packages are in Scripts/setup.sh. Builds into .build/arm-check.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(aarch64 armv7 armv6)
for a in "${arches[@]}"; do
    case "$a" in
    aarch64 | armv7 | armv6 | armv6hf) ;;
    *)
        echo "usage: Scripts/arm-check.sh [aarch64] [armv7] [armv6] [armv6hf]" >&2
        exit 64
        ;;
    esac
done

# GNU ld refuses the Embedded objects (a copy relocation against a protected
# symbol); the toolchain's ld.lld links them. Only the cross C library, the
# cross libgcc (crt files) and QEMU come from Debian: no cross gcc needed.
packages=(qemu-user)
for a in "${arches[@]}"; do
    case "$a" in
    aarch64) packages+=(libc6-dev-arm64-cross libgcc-12-dev-arm64-cross) ;;
    armv7 | armv6hf) packages+=(libc6-dev-armhf-cross libgcc-12-dev-armhf-cross) ;;
    armv6) packages+=(libc6-dev-armel-cross libgcc-12-dev-armel-cross) ;;
    esac
done
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "arm-check: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

swiftc=$(command -v swiftc) || {
    echo "arm-check: swiftc is not on the PATH; install Swift 6 (swift.org) first" >&2
    exit 69
}
toolchain=$(dirname "$(readlink -f "$swiftc")")
clang="$toolchain/clang"
embedded="$toolchain/../lib/swift/embedded"
if [ ! -x "$clang" ] || [ ! -x "$toolchain/ld.lld" ]; then
    echo "arm-check: no clang and ld.lld beside $swiftc" >&2
    exit 69
fi

out="$root/.build/arm-check"
mkdir -p "$out"
# The modules in dependency order, then the program.
modules=(FBRaster FBScheduler FBAnimation)

# build NAME LINK-COMMAND... -- SWIFTC-FLAGS...: compiles the three modules
# and the program with the flags into $out/NAME, then links with the
# command (the objects are appended). Output goes to $out/NAME.log.
build() {
    local name=$1
    shift
    local link=()
    while [ "$1" != -- ]; do
        link+=("$1")
        shift
    done
    shift
    local dir="$out/$name"
    rm -rf "$dir"
    mkdir -p "$dir"
    local objects=()
    local sources
    for m in "${modules[@]}"; do
        # Every source of the module, its subfolders too (as SwiftPM takes them).
        mapfile -t sources < <(find "$root/Sources/$m" -name '*.swift' | LC_ALL=C sort)
        # One package name for all (as SwiftPM gives): `package` symbols
        # (the renderer's RasterCache) cross the module boundary.
        "$swiftc" "$@" -wmo -parse-as-library -O -swift-version 6 -module-name "$m" -I "$dir" \
            -package-name fbanim -emit-module -emit-module-path "$dir/$m.swiftmodule" \
            -c "${sources[@]}" -o "$dir/$m.o"
        objects+=("$dir/$m.o")
    done
    "$swiftc" "$@" -wmo -parse-as-library -O -swift-version 6 -module-name ArmCheck -I "$dir" \
        -package-name fbanim -c "$root/Tests/ARM/main.swift" -o "$dir/main.o"
    "${link[@]}" "$dir/main.o" "${objects[@]}" -o "$dir/arm-check"
}

# The cross C library's folders: the gcc-cross one holds crtbegin.o and libgcc.
gcc_dir() {
    local d
    d=$(find /usr/lib/gcc-cross/"$1" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort -V | tail -1)
    [ -n "$d" ] || {
        echo "arm-check: no /usr/lib/gcc-cross/$1 (libgcc-12-dev cross package)" >&2
        exit 69
    }
    echo "$d"
}

cross_link() { # TRIPLE EMBEDDED-TARGET
    local g
    g=$(gcc_dir "$1")
    echo "$clang" --target="$1" --sysroot="/usr/$1" -fuse-ld=lld -static -B"$g" -L"$g" \
        "$embedded/$2/libswiftUnicodeDataTables.a" -lm
}

start=$(date +%s)
pids=()
names=()
# The reference: ordinary Swift, as the package builds it.
build host "$swiftc" -lm -- >"$out/host.log" 2>&1 &
pids+=($!)
names+=(host)
for a in "${arches[@]}"; do
    case "$a" in
    aarch64)
        # shellcheck disable=SC2046
        build aarch64 $(cross_link aarch64-linux-gnu aarch64-none-none-elf) -- \
            -target aarch64-none-none-elf -enable-experimental-feature Embedded \
            >"$out/aarch64.log" 2>&1 &
        ;;
    armv7)
        # shellcheck disable=SC2046
        build armv7 $(cross_link arm-linux-gnueabihf armv7-none-none-eabi) -- \
            -target armv7-none-none-eabi -enable-experimental-feature Embedded \
            -Xcc -mfloat-abi=hard -Xcc -mfpu=vfpv3-d16 >"$out/armv7.log" 2>&1 &
        ;;
    armv6)
        # shellcheck disable=SC2046
        build armv6 $(cross_link arm-linux-gnueabi armv6-none-none-eabi) -- \
            -target armv6-none-none-eabi -enable-experimental-feature Embedded \
            -Xcc -mfloat-abi=softfp -Xcc -mfpu=vfp >"$out/armv6.log" 2>&1 &
        ;;
    armv6hf)
        # shellcheck disable=SC2046
        build armv6hf $(cross_link arm-linux-gnueabihf armv6-none-none-eabi) -- \
            -target armv6-none-none-eabi -enable-experimental-feature Embedded \
            -Xcc -mfloat-abi=hard -Xcc -mfpu=vfp >"$out/armv6hf.log" 2>&1 &
        ;;
    esac
    pids+=($!)
    names+=("$a")
done
failed_builds=0
for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
        echo "arm-check: the ${names[$i]} build failed:" >&2
        grep -E "error" "$out/${names[$i]}.log" | head -20 >&2 || tail -20 "$out/${names[$i]}.log" >&2
        failed_builds=$((failed_builds + 1))
    fi
done
built=$(date +%s)
if [ ! -x "$out/host/arm-check" ]; then
    echo "0 passed, 1 failed"
    exit 1
fi

"$out/host/arm-check" >"$out/host.txt" || {
    echo "arm-check: the reference build found damage frames unlike full redraws" >&2
}
expected=$(wc -l <"$out/host.txt")

passed=0
failed=0
for a in "${arches[@]}"; do
    if [ ! -x "$out/$a/arm-check" ]; then
        failed=$((failed + expected))
        continue
    fi
    case "$a" in
    aarch64) run=(qemu-aarch64 -cpu cortex-a53) ;;
    armv7) run=(qemu-arm -cpu cortex-a7) ;;
    armv6) run=(qemu-arm -cpu arm1176) ;;
    armv6hf) run=(qemu-arm) ;;
    esac
    "${run[@]}" "$out/$a/arm-check" >"$out/$a.txt" || true
    arch_failed=0
    # Line by line: the same lines in the same order.
    mapfile -t want <"$out/host.txt"
    mapfile -t got <"$out/$a.txt"
    for i in "${!want[@]}"; do
        if [ "${got[$i]:-}" = "${want[$i]}" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            arch_failed=$((arch_failed + 1))
            echo "arm-check: $a: want '${want[$i]}', got '${got[$i]:-<nothing>}'"
        fi
    done
    if [ ${#got[@]} -gt ${#want[@]} ]; then
        failed=$((failed + ${#got[@]} - ${#want[@]}))
        arch_failed=$((arch_failed + ${#got[@]} - ${#want[@]}))
        echo "arm-check: $a: $((${#got[@]} - ${#want[@]})) lines more than the reference"
    fi
    echo "arm-check: $a (${run[*]}): $((${#want[@]} - arch_failed)) of ${#want[@]} checksums equal the host's"
done
ran=$(date +%s)
echo "arm-check: built in $((built - start)) s, ran in $((ran - built)) s; checksums in $out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
