#!/usr/bin/env bash
# The shipped daemon: an Embedded Swift build of the same sources the host
# build (swift build / swift test) uses, for amd64, arm64 or armhf, from any
# Debian 12 PC with Debian's packages and the Swift toolchain.
#
#   Scripts/build-embedded.sh [--arch amd64|arm64|armhf] [--product wristcore|wristcore-vm-phone|modules]
#                             [--out DIR] [--no-install]
#
# Each module is compiled once, whole-module, in Embedded mode
# (-enable-experimental-feature Embedded) for the target's Embedded stdlib
# (toolchain: lib/swift/embedded/<triple>), in dependency order; then Debian's
# gcc for the target (cross gcc for arm64 / armhf) links a dynamic glibc
# executable against libgpiod, libi2c and libbluetooth. No Swift runtime
# library ships: Embedded Swift compiles what it needs into the binary.
#
# Targets (docs/cross-compiling.md):
#   amd64  x86_64-unknown-linux-gnu   gcc
#   arm64  aarch64-none-none-elf      aarch64-linux-gnu-gcc  (Pi Zero 2 W, Pi 3/4/5 64-bit, Orange Pi, Radxa)
#   armhf  armv7-none-none-eabi, hard-float (VFPv3-D16)  arm-linux-gnueabihf-gcc  (32-bit Raspberry Pi OS on a Pi 2/3/4)
# The target's C libraries (headers to import, .so files to link) come from
# Debian's arm64 / armhf packages, downloaded with `apt-get download` and
# unpacked into a sysroot (.build-embedded/sysroot-ARCH): nothing is installed
# for a foreign architecture, so a mirror whose arm64 index lags the amd64 one
# cannot break the build.
#
# --product modules compiles every module the daemon links and links nothing:
# `make embedded-check` runs it so nothing host-only creeps back in.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD

ARCH=$(dpkg --print-architecture)
PRODUCT=wristcore
OUT=""
INSTALL=1
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) ARCH=$2; shift 2 ;;
        --product) PRODUCT=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --no-install) INSTALL=0; shift ;;
        -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-embedded: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

die() { echo "build-embedded: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

case "$ARCH" in
    amd64) TRIPLE=x86_64-unknown-linux-gnu; GNU=x86_64-linux-gnu; CC=gcc; CROSS_PKGS=(gcc) ;;
    arm64) TRIPLE=aarch64-none-none-elf; GNU=aarch64-linux-gnu; CC=aarch64-linux-gnu-gcc
           CROSS_PKGS=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu) ;;
    armhf) TRIPLE=armv7-none-none-eabi; GNU=arm-linux-gnueabihf; CC=arm-linux-gnueabihf-gcc
           CROSS_PKGS=(gcc-arm-linux-gnueabihf libc6-dev-armhf-cross binutils-arm-linux-gnueabihf) ;;
    *) die "--arch $ARCH is not one of amd64, arm64, armhf" ;;
esac
HOST_ARCH=$(dpkg --print-architecture)
# The module check builds unoptimised (faster, and every generic use stays
# visible to the printing check below) in a directory of its own.
[ "$PRODUCT" = modules ] && OUT=${OUT:-$REPO/.build-embedded/check-$ARCH}
OUT=${OUT:-$REPO/.build-embedded/$ARCH}
mkdir -p "$OUT"

SWIFTC=${SWIFTC:-$(command -v swiftc)} || die "swiftc not found: install Swift 6.3 (swift.org) and put it on PATH"
TOOLCHAIN_LIB=$(cd "$(dirname "$(readlink -f "$SWIFTC")")/../lib/swift" && pwd)
EMBEDDED_LIB=$TOOLCHAIN_LIB/embedded/$TRIPLE
[ -f "$EMBEDDED_LIB/libswiftUnicodeDataTables.a" ] || die "this Swift toolchain has no Embedded Swift stdlib for $TRIPLE ($EMBEDDED_LIB): Swift 6.3 or later ships it"

# ---- what the target needs: its gcc, its C library headers and .so files
install_packages() {
    local missing=() p
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} = 0 ] && return 0
    [ "$INSTALL" = 1 ] || die "missing packages: ${missing[*]} (apt-get install them, or drop --no-install)"
    say "installing ${missing[*]} (apt)"
    $SUDO apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
}
# The Debian packages a target's sysroot is made of (runtime + headers).
TARGET_LIBS=(libgpiod-dev libgpiod2 libi2c-dev libi2c0 libbluetooth-dev libbluetooth3 libgcc-s1)
SYSROOT=""
if [ "$ARCH" = "$HOST_ARCH" ]; then
    install_packages "${CROSS_PKGS[@]}" libgpiod-dev libi2c-dev libbluetooth-dev pkg-config
else
    install_packages "${CROSS_PKGS[@]}" dpkg-dev
    SYSROOT=$REPO/.build-embedded/sysroot-$ARCH
    stamp="$SYSROOT/.packages"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "${TARGET_LIBS[*]} libc6" ]; then
        # apt with its own lists for $ARCH: the host's dpkg and apt state are not
        # touched (no dpkg --add-architecture), so a mirror whose $ARCH index is
        # mid-sync cannot break anyone's apt-get update.
        APT=(apt-get -q -o Dir::State::Lists="$SYSROOT/.apt/lists" -o Dir::Cache="$SYSROOT/.apt/cache"
            -o APT::Architecture="$ARCH" -o APT::Architectures::="$ARCH" -o Debug::NoLocking=1)
        rm -rf "$SYSROOT"; mkdir -p "$SYSROOT/debs" "$SYSROOT/.apt/lists/partial" "$SYSROOT/.apt/cache/archives/partial"
        pkgs=(); for p in "${TARGET_LIBS[@]}" libc6; do pkgs+=("$p:$ARCH"); done
        say "downloading ${pkgs[*]} into $SYSROOT"
        "${APT[@]}" update >"$SYSROOT/.apt/update.log" 2>&1 || say "apt-get update for $ARCH reported errors (see $SYSROOT/.apt/update.log); trying the download anyway"
        (cd "$SYSROOT/debs" && "${APT[@]}" download "${pkgs[@]}" >"$SYSROOT/.apt/download.log" 2>&1) \
            || { cat "$SYSROOT/.apt/update.log" "$SYSROOT/.apt/download.log" >&2; die "apt-get download ${pkgs[*]} failed"; }
        for d in "$SYSROOT"/debs/*.deb; do
            dpkg-deb -x "$d" "$SYSROOT"
            # Each package's shlibs line (for the .deb's Depends: packaging/build-deb.sh).
            dpkg-deb -I "$d" shlibs >>"$SYSROOT/shlibs" 2>/dev/null || true
        done
        echo "${TARGET_LIBS[*]} libc6" >"$stamp"
    fi
fi

# ---- the modules the daemon links, in dependency order (Package.swift)
COMMON_MODULES=(TextFormat HAL Log ATTCodec Loop Graphics Display Input Haptics Power Notifications Timekeeping ANCS AMS Gadgetbridge PhoneFeeds GATT Screens PhoneServices
    LinuxHAL LinuxLoop Peripheral BoardConfig WearerSettings Watch Decode SimBoard Harness)
# The daemon's own: the command line, its files, the Linux board, systemd, the composition root, the bench tools.
DAEMON_MODULES=(CommandLineOptions WatchFiles LinuxBoard Systemd WristCore BenchTools WristCoreCLI)
case "$PRODUCT" in
    wristcore) MODULES=("${COMMON_MODULES[@]}" "${DAEMON_MODULES[@]}"); MAIN=WristCoreCLI ;;
    wristcore-vm-phone) MODULES=("${COMMON_MODULES[@]}" wristcore-vm-phone); MAIN=wristcore-vm-phone ;;
    modules) MODULES=("${COMMON_MODULES[@]}" "${DAEMON_MODULES[@]}" wristcore-vm-phone); MAIN="" ;;
    # The float ABI test (Tests/Embedded/FloatABI): Swift calling libm's float and double functions.
    float-abi-check) MODULES=(FloatABI); MAIN=FloatABI ;;
    *) die "--product $PRODUCT is not wristcore, wristcore-vm-phone, modules or float-abi-check" ;;
esac
# Debugging aid: EMBEDDED_MODULES="HAL Loop" compiles just those (in that order).
if [ -n "${EMBEDDED_MODULES:-}" ]; then read -r -a MODULES <<<"$EMBEDDED_MODULES"; MAIN=""; fi

OPT=-Osize; [ "$PRODUCT" = modules ] && OPT=-Onone
# Link-time optimisation (LTO=0 turns it off): the modules are compiled to
# LLVM bitcode and lld optimises the program as one, so code no command can
# reach goes and what is left is folded; 1.94 -> 1.49 MB stripped on arm64.
LTO=${LTO:-1}; [ "$PRODUCT" = modules ] && LTO=0
LTO_FLAGS=(); [ "$LTO" = 1 ] && LTO_FLAGS=(-lto=llvm-full)
SWIFT_FLAGS=(-target "$TRIPLE" -enable-experimental-feature Embedded -wmo $OPT "${LTO_FLAGS[@]}"
    -package-name WristCore -Xfrontend -function-sections -Xllvm -relocation-model=pic
    -I "$OUT/modules" -I Tests/Embedded/FloatABI/CMath -I Sources/CLinux -I Sources/CGPIOD -I Sources/CI2C -I Sources/CBluetooth)
if [ -n "$SYSROOT" ]; then
    # A bare-metal triple: the C importer gets Linux's predefines and the
    # target's glibc headers (Debian's cross libc6-dev), then the libraries'.
    SWIFT_FLAGS+=(-Xcc -D__linux__ -Xcc -D__linux -Xcc -Dlinux -Xcc -D__unix__ -Xcc -D__unix -Xcc -Dunix -Xcc -D__gnu_linux__
        -Xcc -isystem -Xcc "/usr/$GNU/include" -Xcc -isystem -Xcc "$SYSROOT/usr/include/$GNU" -Xcc -isystem -Xcc "$SYSROOT/usr/include")
fi
if [ "$ARCH" = armhf ]; then
    # Debian's armhf ABI: ARMv7-A, VFPv3-D16, floats in VFP registers.
    SWIFT_FLAGS+=(-Xcc -mfloat-abi=hard -Xcc -mfpu=vfpv3-d16 -Xcc -march=armv7-a)
fi

mkdir -p "$OUT/modules" "$OUT/obj"
# Objects are reused while the compiler and its flags are the same: a change
# of either (this script, a toolchain update) rebuilds every module.
FLAGS_STAMP="$OUT/obj/.flags"
flags_now="$("$SWIFTC" --version 2>&1 | head -1) ${SWIFT_FLAGS[*]} ${LTO_FLAGS[*]}"
if [ ! -f "$FLAGS_STAMP" ] || [ "$(cat "$FLAGS_STAMP")" != "$flags_now" ]; then
    rm -f "$OUT"/obj/*.o "$OUT"/modules/*.swiftmodule
    printf '%s' "$flags_now" >"$FLAGS_STAMP"
fi
compile() {
    local m=$1 kind=-parse-as-library
    local dir=Sources/$m
    [ "$m" = FloatABI ] && dir=Tests/Embedded/FloatABI
    [ -d "$dir" ] || die "no $dir"
    [ "$m" = "$MAIN" ] && [ -f "$dir/main.swift" ] && kind=""
    local name=${m//-/_}
    local files; files=$(find "$dir" -name '*.swift' | sort)
    local obj="$OUT/obj/$name.o"
    # Rebuild only when one of its sources, a C module's header or a module
    # compiled before it (the only ones it can import: MODULES is in
    # dependency order) is newer than the object. Not every module in
    # $OUT/modules: the ones after it are always newer, which rebuilt the
    # whole program on every run.
    local stale=""
    if [ -f "$obj" ]; then
        stale=$(find "$dir" -name "*.swift" -newer "$obj" -print -quit 2>/dev/null)$(find Sources/C*/shim.h Sources/C*/module.modulemap -newer "$obj" -print -quit 2>/dev/null)
        for dep in "${COMPILED[@]}"; do [ "$dep" -nt "$obj" ] && { stale=$dep; break; }; done
    fi
    COMPILED+=("$OUT/modules/$name.swiftmodule")
    if [ -f "$obj" ] && [ -z "$stale" ]; then
        return 0
    fi
    say "swiftc $m ($ARCH, Embedded)"
    # shellcheck disable=SC2086
    if ! "$SWIFTC" "${SWIFT_FLAGS[@]}" $kind -module-name "$name" \
        -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" -c -o "$obj.tmp" $files 2>"$OUT/obj/$name.log"; then
        grep -E 'error:' "$OUT/obj/$name.log" | sort -u | head -40 >&2
        die "$m does not compile in Embedded mode for $ARCH (full log: $OUT/obj/$name.log)"
    fi
    mv "$obj.tmp" "$obj"
    touch "$obj"  # after its .swiftmodule, which swiftc may write last
}
COMPILED=()
for m in "${MODULES[@]}"; do compile "$m"; done
if [ "$PRODUCT" = modules ] && [ -z "${EMBEDDED_MODULES:-}" ]; then
    # Embedded Swift has no reflection: "\(value)" of a type that is not
    # CustomStringConvertible prints "(cannot print value in embedded Swift)"
    # without a warning. Unoptimised, each such use leaves a specialisation of
    # the unconstrained appendInterpolation<A>(A) in the object: none may.
    unprintable=$(for o in "$OUT"/obj/*.o; do
        nm "$o" | awk '{ print $NF }' | swift demangle --compact \
            | sed -n 's/^generic specialization <\(.*\)> of Swift.DefaultStringInterpolation.appendInterpolation<A>(A) -> ()$/\1/p' \
            | sed "s|^|$(basename "$o" .o): |"
    done | sort -u)
    if [ -n "$unprintable" ]; then
        echo "build-embedded: these types are interpolated into strings but have no description (Embedded Swift would print '(cannot print value in embedded Swift)'); make them CustomStringConvertible or interpolate a field:" >&2
        echo "$unprintable" | sed 's/^/  /' >&2
        exit 1
    fi
fi
[ -z "$MAIN" ] && [ "$PRODUCT" != modules ] && { say "every daemon module compiles in Embedded mode for $ARCH"; exit 0; }

# ---- link: a dynamic glibc PIE, RELRO, unused sections dropped
runtime_objs=()
# The few hooks the Embedded stdlib expects from the platform (Sources/EmbeddedRuntime).
for c in Sources/EmbeddedRuntime/*.c; do
    o="$OUT/obj/runtime-$(basename "$c" .c).o"
    [ -f "$o" ] && [ "$o" -nt "$c" ] || "$CC" -O2 -fPIC -ffunction-sections -fdata-sections -Wall -Werror -c "$c" -o "$o"
    runtime_objs+=("$o")
done
ORDER=$REPO/Scripts/wristcore-embedded.order
link() { # link PRODUCT MODULE...
    local product=$1; shift
    local objs=() m
    for m in "$@"; do objs+=("$OUT/obj/${m//-/_}.o"); done
    # Up to date: no object, order file or link recipe newer than the binary.
    if [ -f "$OUT/$product" ] && [ -z "$(find "${objs[@]}" "${runtime_objs[@]}" "$0" ${ORDER:+"$ORDER"} -newer "$OUT/$product" -print -quit 2>/dev/null)" ]; then
        say "$product is up to date"
        return 0
    fi
    local cmd=("$CC" -o "$OUT/$product.tmp" "${objs[@]}" "${runtime_objs[@]}" -pie -Wl,--gc-sections -Wl,-z,relro -Wl,-z,now -Wl,--as-needed)
    # lld (the Swift toolchain's) for the bitcode: link-time optimisation, identical
    # code folded; relative relocations packed (DT_RELR, glibc 2.36): 36 KB less on arm64.
    [ "$LTO" = 1 ] && cmd+=(-fuse-ld=lld -B "$(dirname "$(readlink -f "$SWIFTC")")" -Wl,--icf=all -Wl,--lto-O2 -Wl,-z,pack-relative-relocs)
    # The machine outliner run again over its own output (arm64 and armhf outline
    # -Osize code by default, once): 14 KB less on arm64. (LLVM's MergeFunctions
    # would save 4 KB more but renames merged hot functions out of the order
    # below: amd64 VmRSS 2.0 -> 2.4-2.6 MiB.)
    [ "$LTO" = 1 ] && cmd+=(-Wl,-mllvm,-machine-outliner-reruns=3)
    # The daemon's hot code side by side (Scripts/wristcore-embedded.order, made by
    # Scripts/hot_text_order.py): only those pages are resident (RSS 2.36 -> 1.90 MiB).
    # lld orders the functions LTO made local too; its "unable to order undefined
    # symbol" warnings are about their bitcode symbols only, hence not shown. (They
    # were once kept global with an EXTERN script: that kept copies of functions
    # inlined everywhere, and 10 KB on arm64, for the same order.)
    if [ "$product" = wristcore ] && [ "$LTO" = 1 ] && [ -f "$ORDER" ]; then
        cmd+=(-Wl,--symbol-ordering-file="$ORDER" -Wl,--no-warn-symbol-ordering)
    fi
    if [ -n "$SYSROOT" ]; then
        cmd+=(-L "$SYSROOT/usr/lib/$GNU" -Wl,-rpath-link,"$SYSROOT/usr/lib/$GNU" -Wl,-rpath-link,"$SYSROOT/lib/$GNU")
    fi
    cmd+=(-lgpiod -li2c -lbluetooth -lm "$EMBEDDED_LIB/libswiftUnicodeDataTables.a")
    say "linking $product with $CC"
    "${cmd[@]}" || die "linking $product failed"
    mv "$OUT/$product.tmp" "$OUT/$product"
}

if [ "$PRODUCT" = modules ]; then
    # Members Embedded Swift compiled as traps (an extension member reached
    # through an existential): linked unoptimised and without LTO, each is
    # still a stub of its own, and nothing may call one
    # (Scripts/check-embedded-traps.py; x86_64 disassembly).
    if [ "$ARCH" = amd64 ] && [ -z "${EMBEDDED_MODULES:-}" ]; then
        link wristcore "${COMMON_MODULES[@]}" "${DAEMON_MODULES[@]}"
        link wristcore-vm-phone "${COMMON_MODULES[@]}" wristcore-vm-phone
        python3 Scripts/check-embedded-traps.py "$OUT/wristcore" || die "the daemon calls members Embedded Swift compiled as traps (above)"
        python3 Scripts/check-embedded-traps.py "$OUT/wristcore-vm-phone" || die "wristcore-vm-phone calls members Embedded Swift compiled as traps (above)"
    fi
    say "every daemon module compiles in Embedded mode for $ARCH; every interpolated value can be printed; no call reaches a trap stub"
    exit 0
fi
link "$PRODUCT" "${MODULES[@]}"
size=$(stat -c %s "$OUT/$PRODUCT")
say "$OUT/$PRODUCT ($ARCH, $size bytes unstripped)"
echo "$OUT/$PRODUCT"
