#!/usr/bin/python3
"""Rasterises a pixel-outline OpenType font (GNU Unifont's unifont_upper.otf)
at its native pixel size into BDF, for the ranges given, with FreeType's
monochrome renderer. Unifont's outlines are exact pixel squares, so the
result is the original bitmap.

Debian: apt-get install fonts-unifont python3-freetype
usage: otf-to-bdf.py FONT.otf PIXELS OUT.bdf RANGE...   (RANGE like 1F300-1F6FF)
"""
import sys
import freetype

def main():
    path, pixels, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    ranges = []
    for r in sys.argv[4:]:
        a, _, b = r.partition("-")
        ranges.append((int(a, 16), int(b or a, 16)))
    face = freetype.Face(path)
    face.set_pixel_sizes(0, pixels)
    ascent = face.size.ascender // 64
    descent = -face.size.descender // 64
    glyphs = []
    for lo, hi in ranges:
        for cp in range(lo, hi + 1):
            if face.get_char_index(cp) == 0:
                continue
            face.load_char(cp, freetype.FT_LOAD_RENDER | freetype.FT_LOAD_TARGET_MONO | freetype.FT_LOAD_MONOCHROME)
            g = face.glyph
            bm = g.bitmap
            rows = []
            for r in range(bm.rows):
                row = bm.buffer[r * bm.pitch:(r + 1) * bm.pitch]
                nbytes = (bm.width + 7) // 8
                rows.append("".join("%02X" % row[k] for k in range(nbytes)))
            glyphs.append((cp, g.advance.x // 64, bm.width, bm.rows, g.bitmap_left, g.bitmap_top - bm.rows, rows))
    with open(out, "w") as f:
        f.write("STARTFONT 2.1\n")
        f.write("FONT -wristcore-%s-medium-r-normal--%d-%d-75-75-c-80-iso10646-1\n" % (face.family_name.decode().replace(" ", ""), pixels, pixels * 10))
        f.write("SIZE %d 75 75\n" % pixels)
        f.write("FONTBOUNDINGBOX %d %d 0 %d\n" % (pixels, pixels, -descent))
        f.write("STARTPROPERTIES 4\n")
        f.write('FAMILY_NAME "%s"\n' % face.family_name.decode())
        f.write("PIXEL_SIZE %d\n" % pixels)
        f.write("FONT_ASCENT %d\n" % ascent)
        f.write("FONT_DESCENT %d\n" % descent)
        f.write("ENDPROPERTIES\n")
        f.write("CHARS %d\n" % len(glyphs))
        for cp, adv, w, h, x, y, rows in glyphs:
            f.write("STARTCHAR U+%04X\nENCODING %d\nSWIDTH %d 0\nDWIDTH %d 0\nBBX %d %d %d %d\nBITMAP\n" % (cp, cp, adv * 1000 // pixels, adv, w, h, x, y))
            for r in rows:
                f.write(r + "\n")
            f.write("ENDCHAR\n")
        f.write("ENDFONT\n")
    print("%s: %d glyphs" % (out, len(glyphs)))

main()
