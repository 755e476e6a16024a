import Gadgetbridge
import Testing

/// Reads `text` with `reader` and hands the root to `body` while the line lives.
func withJSON<R>(_ text: String, reader: JSONReader = JSONReader(), _ body: (JSONValue) throws -> R) throws -> R {
    try withJSON(bytes: Array(text.utf8), reader: reader, body)
}

func withJSON<R>(bytes: [UInt8], reader: JSONReader = JSONReader(), _ body: (JSONValue) throws -> R) throws -> R {
    try bytes.withUnsafeBytes { line in try body(try reader.read(line)) }
}

func string(_ value: JSONValue?) -> String? {
    value?.string.map { String(decoding: $0, as: UTF8.self) }
}

@Suite struct JSONReaderTests {
    @Test func readsAnObjectOfEveryKind() throws {
        try withJSON(#"{"s":"a","n":-12,"f":1.5,"t":true,"F":false,"z":null,"a":[1,[2],{}],"o":{"k":"v"}}"#) { v in
            #expect(v.kind == .object)
            #expect(string(v["s"]) == "a")
            #expect(v["n"]?.integer == -12)
            #expect(v["f"]?.integer == nil)
            #expect(v["f"]?.scaled(byPowerOfTen: 3) == 1500)
            #expect(v["t"]?.bool == true)
            #expect(v["F"]?.bool == false)
            #expect(v["z"]?.isNull == true)
            #expect(v["a"]?.elementCount == 3)
            #expect(string(v["o"]?["k"]) == "v")
            #expect(v["missing"] == nil)
            #expect(v["o"]?["s"] == nil, "members of a nested object are not the outer one's")
        }
    }

    @Test func skipsNestedValuesWhenLookingUpAKey() throws {
        try withJSON(#"{"a":{"t":"inner","b":[{"t":"deep"}]},"t":"outer"}"#) { v in
            #expect(string(v["t"]) == "outer")
        }
    }

    @Test func unescapesStrings() throws {
        try withJSON(#"{"m":"a\"b\\c\/d\ne\tf\u00e9\u20ac\ud83d\ude00 \xe9\v\q"}"#) { v in
            #expect(string(v["m"]) == "a\"b\\c/d\ne\tfé€😀 é\u{0B}q")
        }
    }

    /// Gadgetbridge's own encoding (jsonToStringInternal): control
    /// characters as octal (`\20` is DLE), Latin-1 as raw single bytes, and
    /// 0xC2-0xF4 as `\xNN` (docs/android.md; the research's exact lines).
    @Test func readsGadgetbridgesLatin1AndOctal() throws {
        // "Grüße °C": 'ü' and '°' raw (0xFC, 0xB0), 'ß' as \xdf.
        var line = Array(#"{"m":"Gr"#.utf8) + [0xFC] + Array(#"\xdfe "#.utf8) + [0xB0] + Array(#"C","c":"\0\1\x07\20\377\400"}"#.utf8)
        try withJSON(bytes: line) { v in
            #expect(string(v["m"]) == "Grüße °C")
            #expect(string(v["c"]) == "\u{0}\u{1}\u{7}\u{10}ÿ\u{20}0")
        }
        // "René", and a title in Cyrillic as \u escapes.
        line = Array(#"{"t":"notify","id":1234,"src":"WhatsApp","title":"Ren\xe9","body":"Caf\xe9 at 5?\nOK","c":"\u0417\u0434"}"#.utf8)
        try withJSON(bytes: line) { v in
            #expect(string(v["title"]) == "René")
            #expect(string(v["body"]) == "Café at 5?\nOK")
            #expect(string(v["c"]) == "Зд")
        }
    }

    @Test func takesAtobAsALatin1String() throws {
        // Gadgetbridge's atob() for accent-heavy text: "àéèêëïîôùç".
        try withJSON(#"{"body":atob("4Ono6uvv7vT55w=="),"e":atob(''),"x":1}"#) { v in
            #expect(string(v["body"]) == "àéèêëïîôùç")
            #expect(string(v["e"]) == "")
            #expect(v["x"]?.integer == 1)
        }
        #expect(throws: JSONError.unexpectedByte(UInt8(ascii: "!"), at: 6)) { try withJSON(#"atob("!")"#) { _ in } }
        #expect(throws: JSONError.unexpectedByte(UInt8(ascii: "x"), at: 1)) { try withJSON(#"ax"#) { _ in } }
    }

    @Test func rawUTF8IsTakenAsUTF8AndStrayBytesAsLatin1() throws {
        // A UTF-8 sender: 'é' is C3 A9 (Gadgetbridge never sends 0xC3 raw).
        try withJSON(bytes: Array(#"["é€😀", ""#.utf8) + [0xC3, 0x41, 0xE0, 0x80, 0x80, 0xF4, 0x90, 0x80, 0x80] + Array(#""]"#.utf8)) { v in
            var seen: [String] = []
            v.forEachElement { seen.append(string($0) ?? "?") }
            #expect(seen == ["é€😀", "ÃAà\u{80}\u{80}ô\u{90}\u{80}\u{80}"])
        }
    }

    @Test func aLoneSurrogateBecomesTheReplacementCharacter() throws {
        try withJSON(#"["\ud83d", "\ude00x"]"#) { v in
            var seen: [String] = []
            v.forEachElement { seen.append(string($0) ?? "?") }
            #expect(seen == ["\u{FFFD}", "\u{FFFD}x"])
        }
    }

    @Test func takesJavaScriptObjectSyntax() throws {
        try withJSON(#"{t:"notify", id:7, $x_1:'single \'q\''}"#) { v in
            #expect(v["t"]?.equals("notify") == true)
            #expect(v["id"]?.integer == 7)
            #expect(string(v["$x_1"]) == "single 'q'")
            #expect(string(v["t"]) == "notify")
        }
    }

    @Test func passesUTF8Through() throws {
        try withJSON(#"{"m":"Grüße, مرحبا"}"#) { v in
            #expect(string(v["m"]) == "Grüße, مرحبا")
        }
    }

    @Test func scalesNumbersTowardZero() throws {
        try withJSON("[5.5, -3.25, 1e3, 2.5e-1, 12345678901234567890, 0.0001]") { v in
            var values: [Int64?] = []
            v.forEachElement { values.append($0.scaled(byPowerOfTen: 2)) }
            #expect(values == [550, -325, 100_000, 25, nil, 0])
        }
    }

    @Test(arguments: [
        (#"{"a":1"#, JSONError.unexpectedEnd),
        (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"), at: 5)),
        (#"{"a":1} x"#, .trailingBytes(at: 8)),
        (#"{"a":"\x4"}"#, .badEscape(at: 6)),
        (#"{"a":"\u12"}"#, .badEscape(at: 6)),
        (#"{"a":"abc"#, .unexpectedEnd),
        (#"{"a":tru}"#, .unexpectedByte(UInt8(ascii: "}"), at: 8)),
        (#"{"a":-}"#, .unexpectedByte(UInt8(ascii: "}"), at: 6)),
        (#"{"a":1.}"#, .unexpectedByte(UInt8(ascii: "}"), at: 7)),
        ("", .unexpectedEnd),
        ("@", .unexpectedByte(UInt8(ascii: "@"), at: 0)),
    ])
    func refusesMalformedLines(text: String, error: JSONError) {
        #expect(throws: error) { try withJSON(text) { _ in } }
    }

    @Test func limitsLength() throws {
        let reader = JSONReader(maxLength: 8)
        #expect(throws: JSONError.tooLong(limit: 8)) { try withJSON(#"{"a":123}"#, reader: reader) { _ in } }
        #expect(throws: Never.self) { try withJSON(#"{"a":12}"#, reader: reader) { _ in } }
        // The worst case: every byte Latin-1 (two UTF-8 bytes each) fits the text buffer.
        let latin = [UInt8(ascii: "\"")] + [UInt8](repeating: 0xFC, count: 6) + [UInt8(ascii: "\"")]
        try withJSON(bytes: latin, reader: reader) { v in #expect(string(v) == "üüüüüü") }
    }

    @Test func limitsDepthAndValueCount() {
        let deep = String(repeating: "[", count: 9) + String(repeating: "]", count: 9)
        #expect(throws: JSONError.tooDeep(limit: 8)) { try withJSON(deep) { _ in } }
        let eight = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        #expect(throws: Never.self) { try withJSON(eight) { _ in } }
        let small = JSONReader(maxValues: 4)
        #expect(throws: JSONError.tooManyValues(limit: 4)) { try withJSON("[1,2,3,4]", reader: small) { _ in } }
        #expect(throws: Never.self) { try withJSON("[1,2,3]", reader: small) { _ in } }
    }

    @Test func oneReaderServesLineAfterLine() throws {
        let reader = JSONReader()
        for n in 0..<100 {
            try withJSON(#"{"id":\#(n)}"#, reader: reader) { v in #expect(v["id"]?.integer == Int64(n)) }
        }
    }

    /// Every prefix of a valid line either fails cleanly or (only the whole line) reads.
    @Test func everyPrefixFailsCleanly() throws {
        let text = #"{t:"notify",id:1,src:"Chat",title:"A \u00e9",body:"x\ny",a:[1,2.5,true,null]}"#
        let bytes = Array(text.utf8)
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[0..<cut])
            let ok = prefix.withUnsafeBytes { line in (try? JSONReader().read(line)) != nil }
            #expect(!ok, "prefix of \(cut) bytes")
        }
        try withJSON(text) { v in #expect(string(v["body"]) == "x\ny") }
    }
}
