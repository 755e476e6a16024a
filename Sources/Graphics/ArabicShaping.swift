/// Arabic contextual shaping: each letter takes the form its neighbours
/// call for (isolated, final, initial, medial), and lam followed by alef
/// becomes one ligature (لا), the glyphs coming from the fonts' Arabic
/// Presentation Forms (U+FE70-FEFC, and U+FB50-FBFF for the Persian letters).
///
/// Why on the fly: `TextLayout` measures and draws straight from the
/// caller's UTF-8 bytes and allocates nothing, so there is no shaped copy of
/// the text. Instead, when the walk over the text meets an Arabic letter,
/// `shape` looks at its neighbours in *logical* order (before any
/// right-to-left reordering), skipping transparent marks, and says which
/// glyph to draw. Measuring and drawing ask the same question of the same
/// bytes, so they agree. Lam and its alef stay one cluster (`TextLayout`'s
/// `cluster`), so no line break or reordering separates them.
///
/// The rules are Unicode's (ArabicShaping.txt, chapter 9.2): a letter joins
/// the one before it when that one joins on its left side (dual-joining or
/// join-causing), and the one after it when it is itself dual-joining (or
/// join-causing) and that one joins on its right side (right-joining, dual-
/// joining, join-causing). Marks (harakat, U+064B-065F, U+0670, ...) are
/// transparent: they neither join nor break a join. ZWNJ (U+200C) breaks
/// one; ZWJ (U+200D) and tatweel (U+0640) cause one. A letter whose form a
/// font lacks is drawn as it is (unshaped).
///
/// Tables are static arrays and switches: no allocation, no Dictionary.
public enum ArabicShaping {
    /// How a character joins its neighbours (ArabicShaping.txt's joining types).
    public enum JoiningType: Sendable, Equatable {
        /// U: joins neither side (hamza, spaces, Latin, digits, ZWNJ).
        case nonJoining
        /// R: joins only the letter before it (alef, dal, reh, waw ...).
        case rightJoining
        /// D: joins both sides (beh, seen, lam, meem ...).
        case dualJoining
        /// C: makes its neighbours join without changing itself (tatweel, ZWJ).
        case joinCausing
        /// T: invisible to joining (harakat and other marks, format controls).
        case transparent
    }

    /// The four shapes a letter can take.
    public enum Form: Int, Sendable {
        case isolated = 0, final = 1, initial = 2, medial = 3
    }

    /// What `shape` decided for one scalar.
    public enum Shaped: Sendable, Equatable {
        /// Draw this scalar (a presentation form, or the letter itself).
        case draw(UInt32)
        /// Draw nothing: this alef is part of the lam-alef ligature drawn
        /// for the lam before it.
        case ligated
    }

    // MARK: the tables

    /// The joining type of `c` (ArabicShaping.txt, Unicode 15, for the Arabic
    /// block; marks and format controls elsewhere are transparent, the rest
    /// of Unicode does not join).
    public static func joiningType(_ c: UInt32) -> JoiningType {
        switch c {
        case 0x0622...0x0625, 0x0627, 0x0629, 0x062F...0x0632, 0x0648, 0x0671...0x0673, 0x0675...0x0677,
             0x0688...0x0699, 0x06C0, 0x06C3...0x06CB, 0x06CD, 0x06CF, 0x06D2, 0x06D3, 0x06D5, 0x06EE, 0x06EF:
            return .rightJoining
        case 0x0620, 0x0626, 0x0628, 0x062A...0x062E, 0x0633...0x063F, 0x0641...0x0647, 0x0649, 0x064A,
             0x066E, 0x066F, 0x0678...0x0687, 0x069A...0x06BF, 0x06C1, 0x06C2, 0x06CC, 0x06CE, 0x06D0, 0x06D1,
             0x06FA...0x06FC, 0x06FF:
            return .dualJoining
        case 0x0640, 0x200D:
            return .joinCausing
        case 0x200C:
            return .nonJoining
        case 0x00AD, 0x061C, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF:
            return .transparent  // format controls (Cf)
        default:
            return CharacterClass.isExtending(c) ? .transparent : .nonJoining
        }
    }

    /// The isolated form of each letter U+0621 ... U+064A in Arabic
    /// Presentation Forms-B (0: none; tatweel and the letters U+063B-063F,
    /// which have no presentation forms). Its other forms follow it: final,
    /// then initial and medial for the dual-joining letters.
    static let formsB: [UInt16] = [
        0xFE80, 0xFE81, 0xFE83, 0xFE85, 0xFE87, 0xFE89, 0xFE8D, 0xFE8F,   // 0621 hamza ... 0628 beh
        0xFE93, 0xFE95, 0xFE99, 0xFE9D, 0xFEA1, 0xFEA5, 0xFEA9, 0xFEAB,   // 0629 teh marbuta ... 0630 thal
        0xFEAD, 0xFEAF, 0xFEB1, 0xFEB5, 0xFEB9, 0xFEBD, 0xFEC1, 0xFEC5,   // 0631 reh ... 0638 zah
        0xFEC9, 0xFECD, 0, 0, 0, 0, 0, 0,                                 // 0639 ain, 063A ghain, 063B-0640
        0xFED1, 0xFED5, 0xFED9, 0xFEDD, 0xFEE1, 0xFEE5, 0xFEE9, 0xFEED,   // 0641 feh ... 0648 waw
        0xFEEF, 0xFEF1,                                                   // 0649 alef maksura, 064A yeh
    ]

    /// Letters outside U+0621-064A with presentation forms in U+FB50-FBFF,
    /// ascending, each with its isolated form (the others follow it in the
    /// same order): alef wasla and the Persian letters.
    static let formsA: [(letter: UInt16, isolated: UInt16)] = [
        (0x0671, 0xFB50),  // alef wasla
        (0x067E, 0xFB56),  // peh
        (0x0686, 0xFB7A),  // tcheh
        (0x0698, 0xFB8A),  // jeh
        (0x06A9, 0xFB8E),  // keheh
        (0x06AF, 0xFB92),  // gaf
        (0x06CC, 0xFBFC),  // farsi yeh
    ]

    /// The presentation form of `letter` in `form`; nil when it has none
    /// (a non-Arabic character, a right-joining letter asked for an initial
    /// or medial form, a letter with no presentation forms).
    public static func presentationForm(_ letter: UInt32, _ form: Form) -> UInt32? {
        let type = joiningType(letter)
        guard type == .rightJoining || type == .dualJoining || letter == 0x0621 else { return nil }
        if letter == 0x0621 { return form == .isolated ? 0xFE80 : nil }  // hamza joins nothing
        if type == .rightJoining && (form == .initial || form == .medial) { return nil }
        // Alef maksura is dual-joining, but Forms-B has only its isolated
        // and final forms; the initial and medial are in Forms-A.
        if letter == 0x0649 && form == .initial { return 0xFBE8 }
        if letter == 0x0649 && form == .medial { return 0xFBE9 }
        var isolated: UInt16 = 0
        if letter >= 0x0621 && letter <= 0x064A {
            isolated = formsB[Int(letter - 0x0621)]
        } else {
            // Binary search of the short Forms-A table.
            var lo = 0, hi = formsA.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if UInt32(formsA[mid].letter) < letter { lo = mid + 1 } else { hi = mid }
            }
            if lo < formsA.count && UInt32(formsA[lo].letter) == letter { isolated = formsA[lo].isolated }
        }
        guard isolated != 0 else { return nil }
        return UInt32(isolated) + UInt32(form.rawValue)
    }

    /// Alefs that lam takes into a ligature.
    @inline(__always)
    public static func isLigatingAlef(_ c: UInt32) -> Bool {
        c == 0x0622 || c == 0x0623 || c == 0x0625 || c == 0x0627
    }

    /// The lam-alef ligature for `alef` (U+FEF5-FEFC): isolated, or final
    /// when the lam joins the letter before it.
    public static func lamAlef(_ alef: UInt32, final: Bool) -> UInt32? {
        let isolated: UInt32
        switch alef {
        case 0x0622: isolated = 0xFEF5  // with madda above
        case 0x0623: isolated = 0xFEF7  // with hamza above
        case 0x0625: isolated = 0xFEF9  // with hamza below
        case 0x0627: isolated = 0xFEFB
        default: return nil
        }
        return final ? isolated + 1 : isolated
    }

    /// Whether `c` may need shaping (a quick range test before the work).
    @inline(__always)
    public static func isShapingCandidate(_ c: UInt32) -> Bool { c >= 0x0621 && c <= 0x06FF }

    // MARK: shaping one scalar

    /// What to draw for the Arabic letter `c` found in `text` at bytes
    /// `start ..< end`, from its neighbours in the whole text (logical
    /// order). Forms the fonts lack fall back to the letter itself.
    public static func shape(_ c: UInt32, in text: UnsafeRawBufferPointer, start: Int, end: Int,
                             fonts: FontChain) -> Shaped {
        let before = neighbourBefore(text, start)
        // An alef after a lam: drawn inside the lam's ligature (if the lam made one).
        if isLigatingAlef(c) && before.scalar == 0x0644 {
            let lamJoinsBefore = joinsOnItsLeft(neighbourBefore(text, before.start).type)
            if ligature(alef: c, lamJoinsBefore: lamJoinsBefore, fonts: fonts) != nil { return .ligated }
        }
        let joinsBefore = joinsOnItsLeft(before.type)
        let after = neighbourAfter(text, end)
        if c == 0x0644, let glyph = ligature(alef: after.scalar, lamJoinsBefore: joinsBefore, fonts: fonts) {
            return .draw(glyph)
        }
        let type = joiningType(c)
        let joinsPrevious = joinsBefore && (type == .rightJoining || type == .dualJoining)
        let joinsNext = type == .dualJoining && joinsOnItsRight(after.type)
        let form: Form = joinsPrevious ? (joinsNext ? .medial : .final) : (joinsNext ? .initial : .isolated)
        guard let shaped = presentationForm(c, form), fonts.has(shaped) else { return .draw(c) }
        return .draw(shaped)
    }

    /// The lam-alef ligature a lam followed by `alef` becomes, when the
    /// fonts have it (nil: the two are shaped as letters). The lam and its
    /// alef both ask this, so they agree.
    static func ligature(alef: UInt32, lamJoinsBefore: Bool, fonts: FontChain) -> UInt32? {
        guard let glyph = lamAlef(alef, final: lamJoinsBefore), fonts.has(glyph) else { return nil }
        return glyph
    }

    /// The letter before it can join a letter after it (its left side, in
    /// right-to-left writing).
    @inline(__always)
    static func joinsOnItsLeft(_ t: JoiningType) -> Bool { t == .dualJoining || t == .joinCausing }

    /// The letter after it can join a letter before it.
    @inline(__always)
    static func joinsOnItsRight(_ t: JoiningType) -> Bool {
        t == .rightJoining || t == .dualJoining || t == .joinCausing
    }

    /// The first non-transparent scalar before byte `i` (nothing at the
    /// start of the text: a non-joining 0), with where it starts.
    static func neighbourBefore(_ text: UnsafeRawBufferPointer, _ i: Int)
        -> (scalar: UInt32, type: JoiningType, start: Int) {
        var j = i
        while j > 0 {
            j -= 1
            // Back to the lead byte of the scalar before (UTF-8 continuation bytes are 10xxxxxx).
            while j > 0 && text[j] & 0xC0 == 0x80 { j -= 1 }
            let (s, _) = UTF8Decoder.decode(text, at: j)
            let type = joiningType(s)
            if type != .transparent { return (s, type, j) }
        }
        return (0, .nonJoining, 0)
    }

    /// The first non-transparent scalar from byte `i` on (nothing at the
    /// end of the text: a non-joining 0).
    static func neighbourAfter(_ text: UnsafeRawBufferPointer, _ i: Int) -> (scalar: UInt32, type: JoiningType) {
        var j = i
        while j < text.count {
            let (s, len) = UTF8Decoder.decode(text, at: j)
            let type = joiningType(s)
            if type != .transparent { return (s, type) }
            j += len
        }
        return (0, .nonJoining)
    }
}

extension FontChain {
    /// Whether a font of the chain has a glyph for `c`.
    @inline(__always)
    func has(_ c: UInt32) -> Bool { lookup(c) != nil }
}
