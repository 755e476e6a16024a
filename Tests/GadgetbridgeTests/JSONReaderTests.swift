import Gadgetbridge
import Testing

/// Reads `text` with `reader` and hands the root to `body` while the line lives.
func withJSON<R>(_ text: String, reader: JSONReader = JSONReader(), _ body: (JSONValue) throws -> R) throws -> R {
    var bytes = Array(text.utf8)
    return try bytes.withUnsafeMutableBytes { line in try body(try reader.read(line)) }
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

    @Test func unescapesStringsInPlace() throws {
        try withJSON(#"{"m":"a\"b\\c\/d\ne\tf\u00e9\u20ac\ud83d\ude00 \xe9"}"#) { v in
            #expect(string(v["m"]) == "a\"b\\c/d\ne\tfé€😀 é")
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
        (#"{"a":"\q"}"#, .badEscape(at: 6)),
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
            var prefix = Array(bytes[0..<cut])
            let ok = prefix.withUnsafeMutableBytes { line in (try? JSONReader().read(line)) != nil }
            #expect(!ok, "prefix of \(cut) bytes")
        }
        try withJSON(text) { v in #expect(string(v["body"]) == "x\ny") }
    }
}
