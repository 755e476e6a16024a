/// UTF-8 decoding straight from bytes, with no allocation.
public enum UTF8Decoder {
    /// U+FFFD, which stands for every invalid sequence.
    public static let replacement: UInt32 = 0xFFFD

    /// Decodes the scalar starting at `i`. Invalid input yields U+FFFD and
    /// consumes the *maximal subpart* of the bad sequence (at least one byte),
    /// as Unicode recommends, so "\u{E2}\u{82}A" gives U+FFFD then "A".
    @inline(__always)
    public static func decode(_ bytes: UnsafeRawBufferPointer, at i: Int) -> (scalar: UInt32, length: Int) {
        let n = bytes.count
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { return (b0, 1) }
        var need: Int
        var value: UInt32
        var lowest: UInt32 = 0x80, highest: UInt32 = 0xBF   // allowed range of the 2nd byte
        switch b0 {
        case 0xC2...0xDF: need = 1; value = b0 & 0x1F
        case 0xE0: need = 2; value = b0 & 0x0F; lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: need = 2; value = b0 & 0x0F
        case 0xED: need = 2; value = b0 & 0x0F; highest = 0x9F        // no surrogates
        case 0xF0: need = 3; value = b0 & 0x07; lowest = 0x90
        case 0xF1...0xF3: need = 3; value = b0 & 0x07
        case 0xF4: need = 3; value = b0 & 0x07; highest = 0x8F        // <= U+10FFFF
        default: return (replacement, 1)                                 // 80-C1, F5-FF
        }
        var j = i + 1
        var first = true
        while need > 0 {
            guard j < n else { return (replacement, j - i) }
            let b = UInt32(bytes[j])
            let lo: UInt32 = first ? lowest : 0x80
            let hi: UInt32 = first ? highest : 0xBF
            guard b >= lo && b <= hi else { return (replacement, j - i) }
            value = value << 6 | (b & 0x3F)
            first = false
            need -= 1
            j += 1
        }
        return (value, j - i)
    }
}

/// The few character properties line breaking and drawing need, as ranges
/// (no tables to load, no allocation).
public enum CharacterClass {
    /// Marks that belong to the preceding character: combining diacritics,
    /// variation selectors, zero-width joiners, emoji skin tones.
    /// (Default-ignorable ones are also `isIgnorableExtender`.)
    @inline(__always)
    public static func isExtending(_ c: UInt32) -> Bool {
        switch c {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7,
             0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06DC, 0x06DF...0x06E4, 0x06E7...0x06E8, 0x06EA...0x06ED,
             0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E,
             0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200C...0x200D, 0x20D0...0x20FF,
             0x302A...0x302F, 0x3099...0x309A, 0xFE00...0xFE0F, 0xFE20...0xFE2F,
             0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF:
            return true
        default:
            return false
        }
    }

    /// Extenders drawn as nothing: joiners, variation selectors, emoji
    /// modifiers and tags (they change how the base looks, which a 1-bit
    /// bitmap font cannot show).
    @inline(__always)
    public static func isIgnorableExtender(_ c: UInt32) -> Bool {
        switch c {
        case 0x200C...0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF:
            return true
        default:
            return false
        }
    }

    /// Invisible characters drawn as nothing (controls, BOM, bidi marks).
    @inline(__always)
    public static func isInvisible(_ c: UInt32) -> Bool {
        switch c {
        case 0x00...0x08, 0x0B...0x1F, 0x7F...0x9F, 0x200B, 0x200E...0x200F, 0x202A...0x202E, 0x2060...0x2064,
             0x2066...0x2069, 0xFEFF:
            return true
        default:
            return false
        }
    }

    /// Spaces at which Latin text may wrap (and which vanish at a line end).
    @inline(__always)
    public static func isSpace(_ c: UInt32) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x3000 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A && c != 0x2007) || c == 0x205F
    }

    /// Characters that can break anywhere: CJK ideographs, kana, Hangul,
    /// fullwidth forms, CJK punctuation, emoji.
    @inline(__always)
    public static func breaksAnywhere(_ c: UInt32) -> Bool {
        switch c {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA960...0xA97F, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF,
             0x1F000...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Closing punctuation that must not start a line (kinsoku shori, plus the
    /// Latin ones so "word." never leaves its full stop behind).
    @inline(__always)
    public static func isClosing(_ c: UInt32) -> Bool {
        switch c {
        case 0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D, 0xBB, 0x2019, 0x201D, 0x203A, 0x2026,
             0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F,
             0x3005, 0x303B, 0x309D, 0x309E, 0x30FB, 0x30FC, 0x30FD, 0x30FE,
             0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
             0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6,
             0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, 0xFF60, 0xFF61, 0xFF63, 0xFF64:
            return true
        default:
            return false
        }
    }

    /// Opening punctuation that must not end a line.
    @inline(__always)
    public static func isOpening(_ c: UInt32) -> Bool {
        switch c {
        case 0x28, 0x5B, 0x7B, 0xAB, 0x2018, 0x201C, 0x2039,
             0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D,
             0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62:
            return true
        default:
            return false
        }
    }

    /// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, NKo, their
    /// presentation forms).
    @inline(__always)
    public static func isRightToLeft(_ c: UInt32) -> Bool {
        switch c {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            return true
        default:
            return false
        }
    }
}
