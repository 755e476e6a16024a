#!/usr/bin/env bash
# The Debian package, tested by installing it (docs/packaging.md):
#   1. builds the amd64 packages (make deb: wristcore and wristcore-fonts) unless
#      DEB=path/to/wristcore_*.deb is given;
#   2. makes a minimal Debian 12 root with debootstrap (cached in .build-deb/roots/,
#      so only the first run needs the mirror), copies it to a fresh root;
#   3. installs both .debs with apt inside the root (chroot), then checks what a user
#      would: --version, doctor on a real board file (the expected FAILs on a
#      machine without the hardware), setup, systemd-analyze verify on the unit,
#      a simulated run, the demo, the missing-fonts error, remove of both packages
#      (only the state directory and /etc/wristcore are left) and purge (nothing is left);
#   4. prints 'N passed, N failed' and exits non-zero when anything failed.
# Needs root (debootstrap, chroot, mounts). Options (environment):
#   DEB=FILE          test this wristcore package instead of building one
#   DEB_FONTS=FILE    its wristcore-fonts package (default: the newest
#                     wristcore-fonts_*_all.deb in DEB's directory)
#   KEEP_ROOT=1       keep the test root (.build-deb/test-root-ARCH) for a look afterwards
#   REFRESH_ROOT=1    rebuild the cached Debian root
#   DEBIAN_MIRROR=URL the mirror for debootstrap (default: the first Debian bookworm
#                     mirror in this machine's apt sources)
#   PACKAGE_ARCH=arm64|armhf  the package's architecture (default amd64): the root is
#                     debootstrapped for it and its programs run under qemu-user
#                     (binfmt_misc, qemu-user-static), so the package is tested on its CPU
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.."
REPO=$PWD
SUITE=bookworm
ARCH=${PACKAGE_ARCH:-amd64}
CACHE=$REPO/.build-deb/roots
BASE=$CACHE/$SUITE-$ARCH
STAMP=$BASE/.wristcore-base-v1
ROOT=$REPO/.build-deb/test-root-$ARCH   # one per architecture: CI tests two at once

passed=0; failed=0; failures=()
pass() { passed=$((passed + 1)); echo "ok    $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "FAIL  $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/      | /'; }
# check NAME COMMAND...: passes when COMMAND exits 0; prints its output when it fails.
check() { local name=$1 out; shift; if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi; }
summary() {
    echo
    [ "$failed" -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
    echo "$passed passed, $failed failed"
}
die() { echo "install-test: $*" >&2; fail "$*"; summary; exit 1; }

[ "$(id -u)" = 0 ] || { echo "install-test: needs root (debootstrap, chroot, mount)"; echo "0 passed, 1 failed"; exit 1; }
for tool in debootstrap chroot dpkg-deb; do command -v $tool >/dev/null || die "$tool is missing (apt-get install debootstrap dpkg-dev)"; done
if [ "$ARCH" != "$(dpkg --print-architecture)" ]; then
    # A foreign root runs its programs through qemu-user, registered with the
    # fix-binary flag so the host's interpreter works inside the chroot.
    qemu=$(case $ARCH in arm64) echo aarch64;; armhf) echo arm;; *) echo "$ARCH";; esac)
    command -v update-binfmts >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static binfmt-support >/dev/null
    [ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ] || update-binfmts --enable "qemu-$qemu" >/dev/null 2>&1 || true
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ] || die "qemu-$qemu is not registered with binfmt_misc (apt-get install qemu-user-static binfmt-support)"
fi

mounted=()
unmount_all() {
    local m
    for ((i=${#mounted[@]}-1; i>=0; i--)); do m=${mounted[$i]}; umount -l "$m" 2>/dev/null; done
    mounted=()
}
cleanup() {
    unmount_all
    if [ -z "${KEEP_ROOT:-}" ] && [ -d "$ROOT" ]; then rm -rf --one-file-system "$ROOT"; fi
}
trap cleanup EXIT
mount_into() { # mount_into ROOT: /proc, /sys and /dev for tools that need them
    local r=$1
    mount -t proc proc "$r/proc" && mounted+=("$r/proc")
    mount -t sysfs sysfs "$r/sys" && mounted+=("$r/sys")
    mount --bind /dev "$r/dev" && mounted+=("$r/dev")
    mount -t tmpfs tmpfs "$r/run" && mounted+=("$r/run")
}
# in ROOT COMMAND: runs a shell command inside the test root.
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "$1"; }

# The mirror: this machine's own apt sources (never a name written here).
mirror() {
    [ -n "${DEBIAN_MIRROR:-}" ] && { echo "$DEBIAN_MIRROR"; return; }
    local m
    m=$(grep -hs -A3 -E '^URIs:' /etc/apt/sources.list.d/*.sources | awk '
        /^URIs:/ { uri=$2 } /^Suites:/ { for (i=2;i<=NF;i++) if ($i=="bookworm") { print uri; exit } }')
    [ -z "$m" ] && m=$(awk '$1=="deb" && $3=="bookworm" { print $2; exit }' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
    echo "$m"
}

# ---- 1. the package
t0=$(date +%s)
if [ -z "${DEB:-}" ]; then
    echo "== make deb ARCH=$ARCH"
    make --no-print-directory deb ARCH=$ARCH >.build-deb-make.log 2>&1 || { cat .build-deb-make.log; die "make deb failed"; }
    tail -n 25 .build-deb-make.log
    DEB=$(sed -n 's/^package: //p' .build-deb-make.log | tail -1)
    DEB_FONTS=$(sed -n 's/^package-fonts: //p' .build-deb-make.log | tail -1)
    rm -f .build-deb-make.log
fi
[ -f "$DEB" ] || die "no package at '$DEB'"
DEB=$(readlink -f "$DEB")
# The fonts package (Architecture: all) that wristcore depends on: given, or the newest one next to DEB.
[ -n "${DEB_FONTS:-}" ] || DEB_FONTS=$(ls -t "$(dirname "$DEB")"/wristcore-fonts_*_all.deb 2>/dev/null | head -1)
[ -n "$DEB_FONTS" ] && [ -f "$DEB_FONTS" ] || die "no wristcore-fonts_*_all.deb next to $DEB (set DEB_FONTS=FILE)"
DEB_FONTS=$(readlink -f "$DEB_FONTS")
pass "package built: $(basename "$DEB") ($(du -k "$DEB" | cut -f1) KiB)"
pass "package built: $(basename "$DEB_FONTS") ($(du -k "$DEB_FONTS" | cut -f1) KiB)"
VERSION=$(dpkg-deb --field "$DEB" Version)
check "wristcore depends on wristcore-fonts (= $VERSION)" grep -qF "wristcore-fonts (= $VERSION)" <<<"$(dpkg-deb --field "$DEB" Depends)"
check "wristcore-fonts: Architecture all, Multi-Arch foreign, version $VERSION" \
    test "$(dpkg-deb --field "$DEB_FONTS" Architecture Multi-Arch Version | tr '\n' ' ')" = "Architecture: all Multi-Arch: foreign Version: $VERSION "
for d in "$DEB" "$DEB_FONTS"; do
    size=$(stat -c %s "$d")
    check "$(basename "$d") is at most 1 MB ($size bytes)" test "$size" -le 1000000
done

# ---- 2. a Debian 12 root (cached)
if [ -n "${REFRESH_ROOT:-}" ] || [ ! -f "$STAMP" ]; then
    M=$(mirror); [ -n "$M" ] || die "no Debian bookworm mirror in /etc/apt/sources*; set DEBIAN_MIRROR"
    echo "== debootstrap $SUITE ($ARCH, minbase + systemd) into $BASE (once; cached)"
    rm -rf --one-file-system "$BASE"; mkdir -p "$CACHE"
    debootstrap --variant=minbase --arch=$ARCH --include=systemd,ca-certificates $SUITE "$BASE" "$M" >"$CACHE/debootstrap.log" 2>&1 \
        || { tail -20 "$CACHE/debootstrap.log"; die "debootstrap failed (log: $CACHE/debootstrap.log)"; }
    # The package's dependencies are fetched now, into the root's apt cache (not
    # installed): each test run then installs them through apt without the network.
    r=$ROOT; ROOT=$BASE; mount_into "$BASE"
    in_root "apt-get clean && apt-get update -qq && apt-get install -y -qq --download-only libgpiod2 libi2c0 libbluetooth3" >>"$CACHE/debootstrap.log" 2>&1 \
        || { unmount_all; tail -20 "$CACHE/debootstrap.log"; die "apt-get --download-only in the root failed"; }
    unmount_all; ROOT=$r
    touch "$STAMP"
fi
echo "== a fresh root from the cached $SUITE root"
rm -rf --one-file-system "$ROOT"
cp -a "$BASE" "$ROOT" || die "copy of the cached root failed"
mount_into "$ROOT"
cp "$DEB" "$DEB_FONTS" "$ROOT/tmp/"
PKG=/tmp/$(basename "$DEB")
PKG_FONTS=/tmp/$(basename "$DEB_FONTS")
snapshot() { # every path in the root except the virtual file systems, caches and logs
    (cd "$ROOT" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
        -o -path ./var/cache -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./var/lib/systemd/deb-systemd-helper-enabled \) -prune -o -print | sort)
}
snapshot >"$ROOT.before"
# new_unowned: paths added since the snapshot that no installed package owns
# (the user database changes too, but in place; no file is added for it).
new_unowned() {
    comm -13 "$ROOT.before" <(snapshot) | sed 's/^\.//' \
        | grep -v -x -F -f <(in_root "dpkg-query -W -f='\${db:Status-Abbrev} \${Package}\n' | awk '\$1==\"ii\" {print \$2}' | xargs dpkg-query -L 2>/dev/null" | sort -u) || true
}

# ---- 3. install, and what a user does next
echo "== apt install $PKG $PKG_FONTS (in the root)"
check "wristcore alone does not install (it needs wristcore-fonts)" in_root "! apt-get install -y --no-install-recommends $PKG >/dev/null 2>&1 && ! dpkg -s wristcore >/dev/null 2>&1"
out=$(in_root "apt-get install -y --no-install-recommends $PKG $PKG_FONTS" 2>&1); rc=$?
name="apt-get install ./$(basename "$DEB") ./$(basename "$DEB_FONTS")"
if [ $rc = 0 ]; then pass "$name"; else fail "$name" "$out"; summary; exit 1; fi
echo "$out" | sed -n '/wristcore: /,$p' | sed 's/^/      > /' | head -12
check "postinst says how to pick a board" grep -q "wristcore setup --board rpi-zero2w" <<<"$out"

check "wristcore --version" in_root "wristcore --version | grep -qx 'wristcore [0-9].*'"
echo "      $(in_root 'wristcore --version')"
in_root "ldd /usr/bin/wristcore" | sed 's/ (0x[0-9a-f]*)//; s/^\s*/      ldd: /'
check "the binary needs only the declared libraries (ldd: nothing 'not found')" in_root "! ldd /usr/bin/wristcore | grep -q 'not found'"
check "no Swift runtime library is needed (static stdlib)" in_root "! ldd /usr/bin/wristcore | grep -q swift"
check "user wristcore exists (systemd-sysusers)" in_root "id wristcore | grep -q 'i2c' && id wristcore | grep -q 'gpio'"
check "state directory /var/lib/wristcore (tmpfiles.d): wristcore, 0700" in_root "stat -c '%U %a' /var/lib/wristcore | grep -qx 'wristcore 700'"
check "fonts in /usr/share/wristcore/Fonts, from wristcore-fonts" in_root "dpkg-query -S /usr/share/wristcore/Fonts/unifont-16.wcf | grep -qx 'wristcore-fonts: /usr/share/wristcore/Fonts/unifont-16.wcf'"
check "the fonts' README and copyright in /usr/share/doc/wristcore-fonts" in_root "test -s /usr/share/doc/wristcore-fonts/README.md.gz && grep -q Unifont /usr/share/doc/wristcore-fonts/copyright"
check "wristcore ships no font" in_root "! dpkg-query -L wristcore | grep -q '\\.wcf\$'"
check "boards in /usr/share/wristcore/Boards" in_root "ls /usr/share/wristcore/Boards/rpi-zero2w.json"
check "the two-button Zero 2 W board too" in_root "ls /usr/share/wristcore/Boards/rpi-zero2w-2buttons.json"
check "man page" in_root "test -s /usr/share/man/man1/wristcore.1.gz && zcat /usr/share/man/man1/wristcore.1.gz | grep -q 'setup'"
check "udev rules installed" in_root "grep -q gpiochip /lib/udev/rules.d/60-wristcore.rules"
check "conffile /etc/wristcore/environment" in_root "dpkg-query --showformat='\${Conffiles}' --show wristcore | grep -q /etc/wristcore/environment"

# doctor on a real board file: no I2C bus, no GPIO chip named like the board's, no
# Bluetooth adapter in this root: each check says so with its fix; exit code 1.
out=$(in_root "wristcore doctor --board /usr/share/wristcore/Boards/rpi-zero2w.json" 2>&1); rc=$?
echo "$out" | sed 's/^/      > /'
check "doctor exits 1 (checks failed), not 2 (board file fine)" test "$rc" = 1
check "doctor: the board file is ok" grep -q '^ok .*board /usr/share/wristcore/Boards/rpi-zero2w.json' <<<"$out"
check "doctor: I2C bus missing, with the fix" grep -q 'FAIL .*I2C bus /dev/i2c-1 does not exist.*raspi-config' <<<"$out"
check "doctor: GPIO chip missing, with the fix" grep -q -E 'FAIL .*GPIO chip.*(gpiodetect|no GPIO chips at all)' <<<"$out"
check "doctor: the missing chip is one line for the four buttons and the motor" test "$(grep -c 'GPIO chip' <<<"$out")" = 1
check "doctor: Bluetooth checked" grep -q -E '^(ok|WARN|FAIL) .*Bluetooth' <<<"$out"
check "doctor as the service's user: capabilities missing, with the fix" in_root "runuser -u wristcore -- wristcore doctor --board rpi-zero2w 2>&1 | grep -q 'FAIL .*missing CAP_NET_ADMIN .*AmbientCapabilities=CAP_NET_ADMIN)'"
check "doctor by name (rpi-zero2w) finds the shipped board" in_root "wristcore doctor --board rpi-zero2w 2>&1 | grep -q '^ok .*board /usr/share/wristcore/Boards/rpi-zero2w.json'"

check "unit: systemd-analyze verify" in_root "systemd-analyze verify /lib/systemd/system/wristcore.service"
check "unit: runs /usr/bin/wristcore" in_root "grep -q '^ExecStart=/usr/bin/wristcore run --board /etc/wristcore/board.json' /lib/systemd/system/wristcore.service"
check "unit: waits for a board (ConditionPathExists)" in_root "grep -qx 'ConditionPathExists=/etc/wristcore/board.json' /lib/systemd/system/wristcore.service"
check "unit: not enabled by the install" in_root "! systemctl is-enabled --quiet wristcore.service"
check "unit: the empty-battery power-off path and service, verified" in_root "systemd-analyze verify /lib/systemd/system/wristcore-poweroff.path /lib/systemd/system/wristcore-poweroff.service"
check "unit: the path watches /run/wristcore/power-off, pulled in by wristcore.service" in_root "grep -qx 'PathExists=/run/wristcore/power-off' /lib/systemd/system/wristcore-poweroff.path && grep -qx 'Wants=wristcore-poweroff.path' /lib/systemd/system/wristcore.service && grep -qx 'RuntimeDirectory=wristcore' /lib/systemd/system/wristcore.service"

out=$(in_root "wristcore run --board sim --duration 1" 2>&1); rc=$?
if [ $rc = 0 ] && grep -q 'ANCS' <<<"$out"; then pass "wristcore run --board sim --duration 1"; else fail "wristcore run --board sim --duration 1 (exit $rc)" "$out"; fi
check "wristcore demo (scenario and fonts from /usr/share/wristcore)" in_root "cd / && wristcore demo --frames 3 --png /tmp/frames --log-level warning && ls /tmp/frames | grep -q png"
check "a missing board: exit 2 naming the shipped boards" in_root "wristcore run --board /nonexistent.json 2>&1 | grep -q 'shipped boards: .*rpi-zero2w.*/usr/share/wristcore/Boards'; wristcore run --board /nonexistent.json >/dev/null 2>&1; test \$? = 2"
mv "$ROOT/usr/share/wristcore/Fonts" "$ROOT/usr/share/wristcore/Fonts.away"
out=$(in_root "cd / && wristcore run --board sim --duration 1" 2>&1); rc=$?
mv "$ROOT/usr/share/wristcore/Fonts.away" "$ROOT/usr/share/wristcore/Fonts"
if [ $rc = 1 ] && grep -q 'not found; looked in: .*/usr/share/wristcore/Fonts.*WRISTCORE_FONTS' <<<"$out"; then pass "fonts missing: a clear error (exit 1)"; else fail "fonts missing: a clear error (exit $rc)" "$out"; fi

check "setup refuses a broken board file (exit 2, nothing written)" in_root "printf '{ \"name\": 1 }' >/tmp/bad.json; wristcore setup --board /tmp/bad.json; test \$? = 2 && test ! -e /etc/wristcore/board.json"
check "setup --board rpi-zero2w writes /etc/wristcore/board.json" in_root "wristcore setup --board rpi-zero2w && cmp /etc/wristcore/board.json /usr/share/wristcore/Boards/rpi-zero2w.json"
check "setup --list" in_root "wristcore setup --list | grep -q '^rpi5 ' && wristcore setup --list | grep -q '^rpi-zero2w-2buttons '"
check "setup --board rpi-zero2w --buttons 2 installs the two-button board" in_root "wristcore setup --board rpi-zero2w --buttons 2 </dev/null && cmp /etc/wristcore/board.json /usr/share/wristcore/Boards/rpi-zero2w-2buttons.json"
check "setup --board rpi-zero2w --buttons 4 the four-button one" in_root "wristcore setup --board rpi-zero2w --buttons 4 </dev/null && cmp /etc/wristcore/board.json /usr/share/wristcore/Boards/rpi-zero2w.json"
check "motor-off on the configured board fails cleanly without a GPIO chip" in_root "wristcore motor-off --board /etc/wristcore/board.json 2>&1 | grep -q 'motor-off: '"

# ---- 4. remove: only the state directory (and the board the user chose) stay
echo "== apt remove"
out=$(in_root "apt-get remove -y wristcore wristcore-fonts" 2>&1) && pass "apt-get remove wristcore wristcore-fonts" || fail "apt-get remove wristcore wristcore-fonts" "$out"
check "remove: the fonts are gone" test ! -e "$ROOT/usr/share/wristcore/Fonts"
check "remove: the binary is gone" test ! -e "$ROOT/usr/bin/wristcore"
check "remove: /usr/share/wristcore is gone" test ! -e "$ROOT/usr/share/wristcore"
check "remove: the state directory stays" test -d "$ROOT/var/lib/wristcore"
check "remove: the conffile and the chosen board stay (until purge)" test -f "$ROOT/etc/wristcore/environment" -a -f "$ROOT/etc/wristcore/board.json"
left=$(new_unowned)
# The runs above kept their notification list (an empty one) in the state directory: the daemon's state, kept until purge.
expected=$'/etc/wristcore\n/etc/wristcore/board.json\n/etc/wristcore/environment\n/var/lib/wristcore\n/var/lib/wristcore/notification-history'
if [ "$left" = "$expected" ]; then pass "remove: nothing else left"; else fail "remove: what is left" "$left"; fi

echo "== apt purge"
out=$(in_root "apt-get purge -y wristcore wristcore-fonts" 2>&1) && pass "apt-get purge wristcore wristcore-fonts" || fail "apt-get purge wristcore wristcore-fonts" "$out"
left=$(new_unowned)
if [ -z "$left" ]; then pass "purge: nothing left"; else fail "purge: left behind" "$left"; fi
check "purge: dpkg has forgotten both packages" in_root "! dpkg -s wristcore >/dev/null 2>&1 && ! dpkg -s wristcore-fonts >/dev/null 2>&1"
rm -f "$ROOT.before"

echo "== $(( $(date +%s) - t0 )) s"
summary
[ "$failed" = 0 ]
