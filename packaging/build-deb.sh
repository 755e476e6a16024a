#!/usr/bin/env bash
# make deb [ARCH=amd64|arm64|armhf] [VERSION=x.y.z] [SWIFT_SDK=id] [WRISTCORE_BIN=file] [HELP_BIN=file]
# (HELP_BIN: a binary of the same version that runs here, for the man page; default: the packaged one,
# or for a cross build the native release build)
#
# Builds out/wristcore_<version>_<arch>.deb and out/wristcore-fonts_<version>_all.deb (the
# fonts, architecture-independent; wristcore depends on it) with Debian's tools (docs/packaging.md):
#   1. the release binary with the static Swift stdlib (swift build, with a Swift
#      SDK when ARCH is not this machine's), or WRISTCORE_BIN if given;
#   2. the man page from the binary's --help (packaging/manpage.py: every command's --help);
#   3. a staging tree .build-deb/<arch>/wristcore-<version>/ holding packaging/debian/
#      plus the unit, sysusers and udev files from deploy/ (paths for /usr/bin);
#   4. dpkg-buildpackage -b (debhelper: packaging/debian/rules), then lintian on both.
# The last lines name the packages: 'package: <wristcore .deb>', 'package-fonts: <wristcore-fonts .deb>'.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
SWIFT=${SWIFT:-swift}
HOST_ARCH=$(dpkg --print-architecture)
ARCH=${ARCH:-$HOST_ARCH}
OUT=${OUT:-$REPO/out}
LINTIAN=${LINTIAN:-1}

say() { echo "== $*"; }
die() { echo "make deb: $*" >&2; exit 1; }

# ---- what the architecture needs
case "$ARCH" in
    amd64) TRIPLE=x86_64-unknown-linux-gnu; GNU=x86_64-linux-gnu ;;
    arm64) TRIPLE=aarch64-unknown-linux-gnu; GNU=aarch64-linux-gnu ;;
    armhf) TRIPLE=armv7-unknown-linux-gnueabihf; GNU=arm-linux-gnueabihf ;;
    *) die "ARCH=$ARCH is not one of amd64, arm64, armhf" ;;
esac
CROSS=""; [ "$ARCH" != "$HOST_ARCH" ] && CROSS=1

VERSION=${VERSION:-$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/WristCore/Version.swift)}
[ -n "$VERSION" ] || die "no VERSION given and none found in Sources/WristCore/Version.swift"
[[ "$VERSION" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "VERSION=$VERSION is not a Debian native version (digits first; letters, digits, . + ~)"
BINARY_VERSION=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/WristCore/Version.swift)

missing=()
for tool in dpkg-buildpackage dh python3; do command -v $tool >/dev/null || missing+=("$tool"); done
[ ${#missing[@]} = 0 ] || die "missing ${missing[*]}: sudo apt-get install dpkg-dev debhelper python3 lintian (make deb installs them when it can)"

if [ -n "$CROSS" ]; then
    # Everything a cross build needs, checked up front and reported together.
    problems=()
    if [ -z "${WRISTCORE_BIN:-}" ]; then
        sdks=$($SWIFT sdk list 2>&1 || true)
        if [ -n "${SWIFT_SDK:-}" ]; then
            grep -qxF "$SWIFT_SDK" <<<"$sdks" || problems+=("the Swift SDK '$SWIFT_SDK' is not installed ('swift sdk list' shows: $(tr '\n' ' ' <<<"$sdks"))")
        elif ! $SWIFT build --swift-sdk "$TRIPLE" --show-bin-path >/dev/null 2>&1; then
            problems+=("a Swift SDK for $TRIPLE (Debian 12 / glibc, with the static Swift stdlib): 'swift sdk list' shows: $(tr '\n' ' ' <<<"$sdks" | sed 's/[ .]*$//'). Install one ('swift sdk install BUNDLE'; docs/cross-compiling.md), then: make deb ARCH=$ARCH EMBEDDED=0 SWIFT_SDK=<its id>; or build the Embedded daemon: make deb ARCH=$ARCH")
        fi
    fi
    command -v "$GNU-strip" >/dev/null || problems+=("$GNU-strip and $GNU-objcopy, to strip the binary: sudo apt-get install binutils-$GNU")
    if [ -n "${WRISTCORE_SYSROOT:-}" ]; then
        # The Embedded build's sysroot (Scripts/build-embedded.sh): the target's libraries
        # and their shlibs lines give Depends without installing anything for $ARCH.
        [ -f "$WRISTCORE_SYSROOT/shlibs" ] || problems+=("WRISTCORE_SYSROOT=$WRISTCORE_SYSROOT has no shlibs file: run Scripts/build-embedded.sh --arch $ARCH")
    else
        if ! dpkg --print-foreign-architectures | grep -qx "$ARCH"; then
            problems+=("dpkg does not know the $ARCH architecture, so dpkg-shlibdeps cannot compute Depends: sudo dpkg --add-architecture $ARCH && sudo apt-get update")
        fi
        for lib in libgpiod2 libi2c0 libbluetooth3 libstdc++6 libgcc-s1 libc6; do
            dpkg -s "$lib:$ARCH" >/dev/null 2>&1 || { problems+=("the $ARCH run-time libraries, for dpkg-shlibdeps: sudo apt-get install libgpiod2:$ARCH libi2c0:$ARCH libbluetooth3:$ARCH libstdc++6:$ARCH"); break; }
        done
    fi
    if [ ${#problems[@]} -gt 0 ]; then
        echo "make deb ARCH=$ARCH: this machine is $HOST_ARCH; building the $ARCH package needs:" >&2
        for p in "${problems[@]}"; do echo "  - $p" >&2; done
        echo "See docs/cross-compiling.md (section 'A Debian package for the board')." >&2
        exit 1
    fi
fi

# ---- 1. the binary
if [ -n "${WRISTCORE_BIN:-}" ]; then
    BIN=$(readlink -f "$WRISTCORE_BIN"); [ -x "$BIN" ] || die "WRISTCORE_BIN=$WRISTCORE_BIN is not an executable"
    say "binary: $BIN (given)"
else
    SDK_ARGS=()
    [ -n "$CROSS" ] && SDK_ARGS=(--swift-sdk "${SWIFT_SDK:-$TRIPLE}")
    # Full RELRO (bind now), as Debian's hardening flags give C programs: a link flag only.
    # Then the footprint flags of `make build STATIC=1` that keep glibc shared: every
    # function in its own section and the ones the daemon runs placed first
    # (Scripts/wristcore.order), so fewer pages of the binary become resident
    # (11.5 -> 9.6 MiB after 10,000 notifications; docs/performance.md, "Footprint").
    LINK_ARGS=(-Xlinker -z -Xlinker now
        -Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections
        -Xlinker "--symbol-ordering-file=$REPO/Scripts/wristcore.order" -Xlinker --no-warn-symbol-ordering)
    say "swift build -c release --product wristcore --static-swift-stdlib ${SDK_ARGS[*]} ${LINK_ARGS[*]}"
    mkdir -p .build-deb
    if ! $SWIFT build -c release --product wristcore --static-swift-stdlib "${SDK_ARGS[@]}" "${LINK_ARGS[@]}" >.build-deb/swift-build.log 2>&1; then
        tail -40 .build-deb/swift-build.log; die "swift build failed (log: .build-deb/swift-build.log)"
    fi
    tail -1 .build-deb/swift-build.log
    BIN=$($SWIFT build -c release --static-swift-stdlib "${SDK_ARGS[@]}" "${LINK_ARGS[@]}" --show-bin-path)/wristcore
    [ -x "$BIN" ] || die "the build did not produce $BIN"
fi
want_machine=$(case $ARCH in amd64) echo "X86-64";; arm64) echo "AArch64";; armhf) echo "ARM";; esac)
machine=$(LC_ALL=C readelf -h "$BIN" | sed -n 's/^ *Machine: *//p')
[[ "$machine" == *"$want_machine"* ]] || die "$BIN is built for '$machine', not $ARCH ($want_machine)"
if LC_ALL=C readelf -d "$BIN" | grep -q 'NEEDED.*libswift'; then
    die "$BIN links the Swift runtime dynamically (libswiftCore.so): build it with --static-swift-stdlib"
fi

# ---- 2. the man page, from --help (packaging/manpage.py; the host must run the binary: for a cross
# build, a native build's help is the same text)
HELP_BIN=${HELP_BIN:-$BIN}
if ! "$HELP_BIN" --version >/dev/null 2>&1; then
    HELP_BIN=$($SWIFT build -c release --show-bin-path)/wristcore
    if ! "$HELP_BIN" --version >/dev/null 2>&1; then
        say "the $ARCH binary does not run here: building the native one for the man page's --help"
        $SWIFT build -c release --product wristcore >/dev/null
    fi
fi
"$HELP_BIN" --version | grep -qx "wristcore $BINARY_VERSION" \
    || die "$HELP_BIN --version says '$("$HELP_BIN" --version)', not 'wristcore $BINARY_VERSION': rebuild it"

STAGE_ROOT=$REPO/.build-deb/$ARCH
SRC=$STAGE_ROOT/wristcore-$VERSION
say "staging $SRC"
rm -rf "$STAGE_ROOT"; mkdir -p "$SRC/stage/doc" "$SRC/stage/doc-fonts"
cp -r packaging/debian "$SRC/debian"
if [ -n "${WRISTCORE_SYSROOT:-}" ]; then
    # Depends for a cross build: the target packages' own shlibs lines (debian/shlibs.local),
    # the libraries found in the sysroot (dh_shlibdeps -l, packaging/debian/rules).
    grep -v '^udeb:' "$WRISTCORE_SYSROOT/shlibs" >"$SRC/debian/shlibs.local"
    export WRISTCORE_SYSROOT
fi
install -m 0755 "$BIN" "$SRC/stage/wristcore"
python3 packaging/manpage.py "$HELP_BIN" "$VERSION" >"$SRC/stage/wristcore.1"

# ---- 3. the data and the system files
mkdir -p "$SRC/stage/Fonts" "$SRC/stage/Boards" "$SRC/stage/Scenarios"
cp Fonts/*.wcf "$SRC/stage/Fonts/"
cp Boards/*.json "$SRC/stage/Boards/"
cp Scenarios/*.scenario "$SRC/stage/Scenarios/"
cp deploy/wristcore.environment "$SRC/stage/environment"
cp README.md "$SRC/stage/doc/README.md"
cp docs/boards.md docs/pairing.md docs/troubleshooting.md "$SRC/stage/doc/"
# wristcore-fonts' documentation: the fonts' README and any licence files under Fonts/.
cp Fonts/README.md "$SRC/stage/doc-fonts/README.md"
while IFS= read -r f; do cp "$f" "$SRC/stage/doc-fonts/"; done < <(find Fonts -type f \( -iname 'licen[cs]e*' -o -iname 'copying*' -o -iname 'ofl*' \) | sort)
# The unit from deploy/, for /usr/bin (deploy/ is for a hand install in /usr/local/bin).
sed 's|/usr/local/bin/wristcore|/usr/bin/wristcore|g; s|^# Install: see deploy/README.md.*|# Installed by the wristcore package; choose a board with: wristcore setup --board NAME|' \
    deploy/wristcore.service >"$SRC/debian/wristcore.service"
grep -q '^ExecStart=/usr/bin/wristcore ' "$SRC/debian/wristcore.service" || die "deploy/wristcore.service: no ExecStart= on /usr/local/bin/wristcore to adapt"
grep -qx 'ConditionPathExists=/etc/wristcore/board.json' "$SRC/debian/wristcore.service" || die "deploy/wristcore.service lost ConditionPathExists=/etc/wristcore/board.json"
# The empty-battery power-off units (dh_installsystemd --name=wristcore-poweroff).
for unit in path service; do
    grep -v -E '^# Install: see deploy/README.md' "deploy/wristcore-poweroff.$unit" >"$SRC/debian/wristcore.wristcore-poweroff.$unit"
done
grep -v -E '^# (Install to|and run)' deploy/wristcore.sysusers >"$SRC/debian/wristcore.sysusers"
grep -v -E '^# (without root\. Install|  sudo udevadm|\(Raspberry Pi OS)' deploy/99-wristcore.rules >"$SRC/debian/wristcore.udev"

# The changelog: the version asked for, dated by the last commit (reproducible).
EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
DIRTY=$(git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo ", with local changes" || true)
MAINTAINER="${DEBFULLNAME:-WristCore maintainers} <${DEBEMAIL:-wristcore@users.noreply.github.com}>"
sed -i "s|@MAINTAINER@|$MAINTAINER|" "$SRC/debian/control"
cat >"$SRC/debian/changelog" <<EOF
wristcore ($VERSION) unstable; urgency=medium

  * Built from the WristCore source tree, commit $COMMIT$DIRTY
    (wristcore $BINARY_VERSION, Swift $($SWIFT --version 2>&1 | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -1)).

 -- $MAINTAINER  $(LC_ALL=C date -u -R -d "@$EPOCH")
EOF

# ---- 4. the package
say "dpkg-buildpackage -b -a$ARCH (debhelper)"
export SOURCE_DATE_EPOCH=$EPOCH
(cd "$SRC" && dpkg-buildpackage -b -us -uc -d --host-arch="$ARCH" >"$STAGE_ROOT/build.log" 2>&1) \
    || { tail -40 "$STAGE_ROOT/build.log"; die "dpkg-buildpackage failed (log: $STAGE_ROOT/build.log)"; }
DEB=$STAGE_ROOT/wristcore_${VERSION}_$ARCH.deb
DEB_FONTS=$STAGE_ROOT/wristcore-fonts_${VERSION}_all.deb
[ -f "$DEB" ] || die "dpkg-buildpackage made no $DEB"
[ -f "$DEB_FONTS" ] || die "dpkg-buildpackage made no $DEB_FONTS"
mkdir -p "$OUT"; cp "$DEB" "$DEB_FONTS" "$OUT/"
DEB=$OUT/$(basename "$DEB")
DEB_FONTS=$OUT/$(basename "$DEB_FONTS")

for d in "$DEB" "$DEB_FONTS"; do
    dpkg-deb --field "$d" Package Version Architecture Multi-Arch Depends Installed-Size
    echo "size: $(basename "$d"): $(stat -c %s "$d") bytes, $(du -k "$d" | cut -f1) KiB (.deb), $(dpkg-deb --field "$d" Installed-Size) KiB installed"
done
if [ "$LINTIAN" = 1 ]; then
    if command -v lintian >/dev/null; then
        say "lintian (both packages)"
        set +e
        lintian --fail-on error --display-info --show-overrides "$DEB" "$DEB_FONTS" >"$STAGE_ROOT/lintian.txt" 2>&1; rc=$?
        set -e
        grep -v -E '^(N:|running with root)' "$STAGE_ROOT/lintian.txt" | grep -v '^O: .*spelling-error-in-binary' || true
        echo "lintian: exit $rc; $(grep -c '^E:' "$STAGE_ROOT/lintian.txt") errors, $(grep -c '^W:' "$STAGE_ROOT/lintian.txt") warnings, $(grep -c '^I:' "$STAGE_ROOT/lintian.txt") info; $(grep -c '^O:' "$STAGE_ROOT/lintian.txt") overridden (packaging/debian/*.lintian-overrides)"
        [ "$rc" = 0 ] || die "lintian found errors ($STAGE_ROOT/lintian.txt)"
    else
        echo "lintian is not installed: sudo apt-get install lintian (skipped)"
    fi
fi
echo "package-fonts: $DEB_FONTS"
echo "package: $DEB"
