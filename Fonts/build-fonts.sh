#!/bin/sh
# Regenerates the compiled fonts in Fonts/ from Debian's font packages.
#
#   sudo apt-get install xfonts-base xfonts-unifont fonts-unifont pcf2bdf python3-freetype
#   Fonts/build-fonts.sh            (from the repository root)
#
# The output is deterministic: the same packages give the same bytes.
set -eu
cd "$(dirname "$0")/.."
MISC=/usr/share/fonts/X11/misc
UPPER=/usr/share/fonts/opentype/unifont/unifont_upper.otf
for f in "$MISC/6x10.pcf.gz" "$MISC/6x13.pcf.gz" "$MISC/10x20.pcf.gz" "$MISC/unifont.pcf.gz" "$UPPER"; do
    [ -e "$f" ] || { echo "missing $f: apt-get install xfonts-base xfonts-unifont fonts-unifont" >&2; exit 1; }
done
command -v pcf2bdf >/dev/null || { echo "missing pcf2bdf: apt-get install pcf2bdf" >&2; exit 1; }
/usr/bin/python3 -c "import freetype" 2>/dev/null || { echo "missing python3-freetype: apt-get install python3-freetype" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in 6x10 6x13 10x20 unifont; do
    zcat "$MISC/$f.pcf.gz" > "$work/$f.pcf"
    pcf2bdf -o "$work/$f.bdf" "$work/$f.pcf"
done
/usr/bin/python3 Fonts/tools/otf-to-bdf.py "$UPPER" 16 "$work/unifont-upper.bdf" \
    1F000-1F2FF 1F300-1F6FF 1F900-1F9FF 1FA70-1FAFF

swift build -c release --scratch-path "${SCRATCH:-.build-fonts}" --product wristcore-fonts >/dev/null
TOOL="${SCRATCH:-.build-fonts}/release/wristcore-fonts"
"$TOOL" build -o Fonts/fixed-6x10.wcf --name "Fixed 6x10" --subset-file Fonts/subsets/western.txt "$work/6x10.bdf"
"$TOOL" build -o Fonts/fixed-6x13.wcf --name "Fixed 6x13" --subset-file Fonts/subsets/western.txt "$work/6x13.bdf"
"$TOOL" build -o Fonts/fixed-10x20.wcf --name "Fixed 10x20" --subset-file Fonts/subsets/western.txt "$work/10x20.bdf"
"$TOOL" build -o Fonts/unifont-16.wcf --name "Unifont 16" --subset-file Fonts/subsets/cjk-fallback.txt \
    "$work/unifont.bdf" "$work/unifont-upper.bdf"
ls -l Fonts/*.wcf
