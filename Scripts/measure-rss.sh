#!/usr/bin/env bash
# The daemon's footprint, from the built binary: its size, the shared
# libraries it needs (fails when any Foundation, FoundationEssentials
# included, or ICU is linked, dynamically or statically), and its memory after 10,000
# notifications through the simulated board's phone endpoint
# (Scripts/measure_rss.py: VmRSS, VmHWM, RssAnon, RssFile, and by mapping).
#
# usage: Scripts/measure-rss.sh [path/to/wristcore] [--notifications N] [--max-rss-mib M] [--max-hwm-mib M]
#   default binary: the Embedded daemon (Scripts/build-embedded.sh:
#   .build-embedded/<arch>/wristcore), else the static executable (make build
#   STATIC=1: .build/static/release/wristcore), else the release build (make build)
#   --max-rss-mib M  also fail when VmRSS after the notifications is above M MiB
#   --max-hwm-mib M  also fail when the peak (VmHWM, start-up included) is above M MiB
#                    Without them the RSS is only reported against the goal
#                    (2 MiB Embedded, 8 MiB a host build)
#
# Works for both kinds of build: the Embedded daemon needs no Swift runtime
# library (the stdlib's parts it uses are compiled in; its symbols are
# mangled $e...), a host build has libswiftCore (dynamic, or linked in with
# --static-swift-stdlib; symbols mangled $s...).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=".build-embedded/$(dpkg --print-architecture 2>/dev/null || echo amd64)/wristcore"
[ -x "$bin" ] || bin=".build/static/release/wristcore"
[ -x "$bin" ] || bin=".build/release/wristcore"
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then bin=$1; shift; fi
[ -x "$bin" ] || { echo "no binary at $bin: run Scripts/build-embedded.sh (or 'make build', 'make build STATIC=1') first"; exit 2; }

echo "== $bin: $(stat -L -c %s "$bin") bytes ($(size "$bin" | awk 'NR == 2 { printf "text %d, data %d, bss %d", $1, $2, $3 }'))"
needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if [ -z "$needed" ]; then
    # make build STATIC=1: one static executable (ldd: "not a dynamic executable").
    echo "NEEDED (0): none, a static executable ($(file -b "$bin" | cut -d, -f1,4))"
else
    echo "NEEDED ($(echo "$needed" | wc -l)): $(echo $needed)"
    echo "ldd ($(ldd "$bin" | grep -c '=>') libraries): $(ldd "$bin" | awk '$2 == "=>" { print $1 }' | tr '\n' ' ')"
fi
if grep -q '^libswiftCore\.so' <<< "$needed"; then
    echo "Swift runtime: shared libraries ($(grep '^libswift' <<< "$needed" | tr '\n' ' '))"
elif grep -q ' swift5_' <<< "$(readelf -S -W "$bin")"; then
    echo "Swift runtime: linked in (--static-swift-stdlib: swift5_* metadata sections)"
else
    echo "Swift runtime: none (Embedded Swift: no runtime library, no runtime metadata)"
fi

failed=0
forbidden='^lib(Foundation|FoundationEssentials|FoundationInternationalization|_FoundationICU|FoundationNetworking|FoundationXML)\.so'
if grep -Eq "$forbidden" <<< "$needed"; then
    echo "FAIL: links $(grep -E "$forbidden" <<< "$needed" | tr '\n' ' ')(the daemon must not use Foundation)"
    failed=1
fi
# Statically linked (--static-swift-stdlib): Foundation's or ICU's own symbols.
symbols=$(nm "$bin" 2>/dev/null | awk '{ print $NF }' || true)
if [ -n "$symbols" ]; then
    # (here-strings, not pipes: grep -q exits early and pipefail would hide the match)
    if grep -Eq '^\$[se](10Foundation|31FoundationInternationalization)[0-9A-Z_]|^u(col|loc|cal|text)_[a-zA-Z]+_[0-9]+$|^swift_ucol_' <<< "$symbols"; then
        echo "FAIL: Foundation or ICU is linked in statically"
        failed=1
    fi
    # FoundationEssentials too: the command line is parsed by CommandLineOptions
    # (stdlib only), so nothing in the daemon needs it.
    essentials=$(grep -c '^\$[se]20FoundationEssentials' <<< "$symbols" || true)
    if [ "$essentials" != 0 ]; then
        echo "FAIL: FoundationEssentials is linked in statically ($essentials symbols; which module imports it? the daemon needs none)"
        failed=1
    else
        echo "FoundationEssentials: 0 symbols"
    fi
else
    echo "note: no symbol table (stripped): static Foundation not checked"
fi
[ "$failed" = 0 ] || exit 1

python3 Scripts/measure_rss.py "$bin" "$@"
