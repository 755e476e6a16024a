import Foundation
import Graphics
import Testing

/// The Arabic shaper on known words: each letter's form from its
/// neighbours, lam-alef ligatures, transparent harakat, non-joining letters,
/// ZWJ / ZWNJ, the Persian letters, and the fallback when a font lacks a form.
@Suite("Arabic shaping: joining forms and lam-alef, in logical order")
struct ArabicShapingTests {
    static let chain = ShippedFonts.chain

    /// What is drawn for `text`, scalar by scalar in logical order (an alef
    /// inside a lam-alef ligature is left out; marks and other text as they are).
    static func shaped(_ text: String, fonts: FontChain = chain) -> [UInt32] {
        var out: [UInt32] = []
        Array(text.utf8).withUnsafeBytes { buf in
            var i = 0
            while i < buf.count {
                let (s, len) = UTF8Decoder.decode(buf, at: i)
                if ArabicShaping.isShapingCandidate(s) {
                    if case .draw(let g) = ArabicShaping.shape(s, in: buf, start: i, end: i + len, fonts: fonts) { out.append(g) }
                } else {
                    out.append(s)
                }
                i += len
            }
        }
        return out
    }

    /// A copy of the shipped Unifont without the code points in `dropped`
    /// (the WCF file rewritten: header count, code point table, records).
    static func unifont(without dropped: ClosedRange<UInt32>) throws -> BitmapFont {
        let path = FontLoader.packageFontsDirectory + "/unifont-16.wcf"
        let d = try [UInt8](Data(contentsOf: URL(filePath: path)))
        func u32(_ o: Int) -> UInt32 { UInt32(d[o]) | UInt32(d[o + 1]) << 8 | UInt32(d[o + 2]) << 16 | UInt32(d[o + 3]) << 24 }
        let n = Int(u32(8))
        var codes: [UInt8] = [], records: [UInt8] = []
        let recordsStart = 64 + 4 * n
        for k in 0..<n where !dropped.contains(u32(64 + 4 * k)) {
            let code = 64 + 4 * k
            let record = recordsStart + 8 * k
            codes += d[code..<(code + 4)]
            records += d[record..<(record + 8)]
        }
        var header = Array(d[0..<64])
        let kept = UInt32(codes.count / 4)
        for b in 0..<4 { header[8 + b] = UInt8(truncatingIfNeeded: kept >> (8 * UInt32(b))) }
        let bitmaps = Array(d[(64 + 12 * n)...])
        return try BitmapFont(bytes: header + codes + records + bitmaps)
    }

    @Test("سلام: seen initial, lam-alef final, meem isolated")
    func salam() {
        #expect(Self.shaped("سلام") == [0xFEB3, 0xFEFC, 0xFEE1])
    }

    @Test("سلام without the lam-alef ligatures in the font: FEB3 FEE0 FE8E FEE1, each letter shaped")
    func salamWithoutLigatures() throws {
        let chain = FontChain(ShippedFonts.body, try Self.unifont(without: 0xFEF5...0xFEFC))
        #expect(Self.shaped("سلام", fonts: chain) == [0xFEB3, 0xFEE0, 0xFE8E, 0xFEE1])
        #expect(Self.shaped("لا", fonts: chain) == [0xFEDF, 0xFE8E])
    }

    @Test("lam-alef: the four alefs, isolated and final")
    func lamAlef() {
        #expect(Self.shaped("لا") == [0xFEFB])
        #expect(Self.shaped("لآ") == [0xFEF5])
        #expect(Self.shaped("لأ") == [0xFEF7])
        #expect(Self.shaped("لإ") == [0xFEF9])
        // After a letter that joins it: the final forms.
        #expect(Self.shaped("بلا") == [0xFE91, 0xFEFC])
        #expect(Self.shaped("سلآم") == [0xFEB3, 0xFEF6, 0xFEE1])
        // After one that does not (dal): isolated.
        #expect(Self.shaped("دلا") == [0xFEA9, 0xFEFB])
        // A mark between lam and alef keeps the ligature; the mark stays.
        #expect(Self.shaped("لَا") == [0xFEFB, 0x064E])
    }

    @Test("محمد: initial, medial, medial, final")
    func muhammad() {
        #expect(Self.shaped("محمد") == [0xFEE3, 0xFEA4, 0xFEE4, 0xFEAA])
    }

    @Test("harakat are transparent: مُحَمَّد joins as محمد, the marks kept")
    func harakat() {
        // meem damma, hah fatha, meem shadda fatha, dal
        let vocalised = "\u{0645}\u{064F}\u{062D}\u{064E}\u{0645}\u{0651}\u{064E}\u{062F}"
        #expect(Self.shaped(vocalised) == [0xFEE3, 0x064F, 0xFEA4, 0x064E, 0xFEE4, 0x0651, 0x064E, 0xFEAA])
        // Tanwin between beh and alef does not stop them joining: كتابًا.
        #expect(Self.shaped("\u{0643}\u{062A}\u{0627}\u{0628}\u{064B}\u{0627}") == [0xFEDB, 0xFE98, 0xFE8E, 0xFE91, 0x064B, 0xFE8E])
        // The superscript alef neither: هٰذا (heh, U+0670, thal, alef).
        #expect(Self.shaped("\u{0647}\u{0670}\u{0630}\u{0627}") == [0xFEEB, 0x0670, 0xFEAC, 0xFE8D])
    }

    @Test("non-joining letters break the word: دار is three isolated letters; بيت joins")
    func nonJoining() {
        #expect(Self.shaped("دار") == [0xFEA9, 0xFE8D, 0xFEAD])
        #expect(Self.shaped("بيت") == [0xFE91, 0xFEF4, 0xFE96])
        // Hamza joins nothing; waw joins only the letter before it.
        #expect(Self.shaped("ماء") == [0xFEE3, 0xFE8E, 0xFE80])
        #expect(Self.shaped("نور") == [0xFEE7, 0xFEEE, 0xFEAD])
        // A digit, a space or Latin between letters: each side stands alone.
        #expect(Self.shaped("ب1ب") == [0xFE8F, 0x31, 0xFE8F])
        #expect(Self.shaped("بب ب") == [0xFE91, 0xFE90, 0x20, 0xFE8F])
        #expect(Self.shaped("بxب") == [0xFE8F, 0x78, 0xFE8F])
    }

    @Test("ZWNJ breaks a join, ZWJ and tatweel cause one")
    func joiners() {
        // Persian "می‌خواهم" (I want): the ZWNJ ends the first part.
        #expect(Self.shaped("می\u{200C}خواهم") == [0xFEE3, 0xFBFD, 0x200C, 0xFEA7, 0xFEEE, 0xFE8D, 0xFEEB, 0xFEE2])
        #expect(Self.shaped("ب\u{200D}") == [0xFE91, 0x200D])
        #expect(Self.shaped("\u{200D}ب") == [0x200D, 0xFE90])
        #expect(Self.shaped("بـ") == [0xFE91, 0x0640])
        #expect(Self.shaped("ـبـ") == [0x0640, 0xFE92, 0x0640])
    }

    @Test("Persian letters: peh, tcheh, jeh, gaf, keheh, farsi yeh; alef maksura's initial form")
    func persian() {
        #expect(Self.shaped("چپ") == [0xFB7C, 0xFB57])
        #expect(Self.shaped("پچ") == [0xFB58, 0xFB7B])
        #expect(Self.shaped("مژده") == [0xFEE3, 0xFB8B, 0xFEA9, 0xFEE9])
        #expect(Self.shaped("سگ") == [0xFEB3, 0xFB93])
        #expect(Self.shaped("گل") == [0xFB94, 0xFEDE])
        #expect(Self.shaped("کیک") == [0xFB90, 0xFBFF, 0xFB8F])
        #expect(Self.shaped("على") == [0xFECB, 0xFEE0, 0xFEF0])
        #expect(Self.shaped("ىب") == [0xFBE8, 0xFE90])
    }

    @Test("a font without the forms: the letters are drawn as they are")
    func fallback() {
        let latinOnly = FontChain(ShippedFonts.body)
        #expect(Self.shaped("سلام", fonts: latinOnly) == [0x0633, 0x0644, 0x0627, 0x0645])
        // Letters with no presentation forms at all keep their nominal glyph
        // but still join their neighbours (U+063B keheh with two dots, dual-joining).
        #expect(Self.shaped("\u{063B}ب") == [0x063B, 0xFE90])
    }

    @Test("joining types and forms from the tables")
    func tables() {
        #expect(ArabicShaping.joiningType(0x0627) == .rightJoining)
        #expect(ArabicShaping.joiningType(0x0628) == .dualJoining)
        #expect(ArabicShaping.joiningType(0x0621) == .nonJoining)
        #expect(ArabicShaping.joiningType(0x0640) == .joinCausing)
        #expect(ArabicShaping.joiningType(0x064E) == .transparent)
        #expect(ArabicShaping.joiningType(0x0670) == .transparent)
        #expect(ArabicShaping.joiningType(0x200C) == .nonJoining)
        #expect(ArabicShaping.joiningType(0x200D) == .joinCausing)
        #expect(ArabicShaping.joiningType(0x41) == .nonJoining)
        // Every letter U+0621-064A with forms: they exist in the shipped fallback font.
        for c: UInt32 in 0x0621...0x064A {
            for form in [ArabicShaping.Form.isolated, .final, .initial, .medial] {
                guard let f = ArabicShaping.presentationForm(c, form) else { continue }
                #expect(Self.chain.lookup(f) != nil, "U+\(String(c, radix: 16)) \(form) U+\(String(f, radix: 16))")
            }
        }
        #expect(ArabicShaping.presentationForm(0x0627, .initial) == nil, "alef joins only on its right")
        #expect(ArabicShaping.presentationForm(0x0640, .medial) == nil, "tatweel has no forms")
        #expect(ArabicShaping.presentationForm(0x41, .isolated) == nil)
    }
}
