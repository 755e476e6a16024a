// wristcore-fonts: compiles BDF bitmap fonts into WristCore's .wcf format and
// inspects compiled fonts. See Fonts/README.md for the shipped fonts' recipe.
import FontCompiler
import FoundationEssentials
import Graphics

#if canImport(Glibc)
import Glibc
#endif

let usage = """
    usage:
      wristcore-fonts build -o OUT.wcf --name NAME [--subset ITEMS]... [--subset-file FILE]... [--no-crop] IN.bdf...
          Merges the inputs (the first that has a character wins) and keeps the subset:
          items are U+XXXX, U+XXXX-U+YYYY, GB2312, JISX0208, JISX0208-L1, BIG5-L1 or all
          (comma-separated). Without --subset every glyph is kept.
      wristcore-fonts info FONT.wcf
          Prints the header and coverage.
      wristcore-fonts render [--width N] FONT.wcf [FALLBACK.wcf...] TEXT
          Lays TEXT out for a 128-pixel-wide screen and draws it with half blocks.
    """

func fail(_ message: String) -> Never {
    FileHandleStderr.write("wristcore-fonts: \(message)\n")
    exit(1)
}

enum FileHandleStderr {
    static func write(_ s: String) {
        var s = s
        s.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

func readText(_ path: String) -> String {
    do {
        let data = try Data(contentsOf: URL(filePath: path))
        return String(decoding: data, as: UTF8.self)
    } catch {
        fail("cannot read \(path): \(error)")
    }
}

func build(_ args: [String]) {
    var output: String?
    var name: String?
    var subset = Subset()
    var haveSubset = false
    var crop = true
    var inputs: [String] = []
    var i = 0
    while i < args.count {
        let a = args[i]
        func value() -> String {
            i += 1
            guard i < args.count else { fail("\(a) needs a value") }
            return args[i]
        }
        switch a {
        case "-o", "--output": output = value()
        case "--name": name = value()
        case "--subset":
            do { for item in value().split(separator: ",") { try subset.add(String(item)) } } catch { fail("\(error)") }
            haveSubset = true
        case "--subset-file":
            let file = value()
            do {
                let s = try Subset.parse(readText(file))
                if s.everything { try subset.add("all") }
                for r in s.ranges { try subset.add("U+\(String(r.lowerBound, radix: 16))-U+\(String(r.upperBound, radix: 16))") }
            } catch { fail("\(file): \(error)") }
            haveSubset = true
        case "--no-crop": crop = false
        default:
            if a.hasPrefix("-") { fail("unknown option \(a)\n\(usage)") }
            inputs.append(a)
        }
        i += 1
    }
    guard let output else { fail("build needs -o OUT.wcf") }
    guard !inputs.isEmpty else { fail("build needs at least one BDF input") }
    var fonts: [BDFFont] = []
    for path in inputs {
        do {
            fonts.append(try BDFParser.parse(readText(path), fileName: path))
        } catch {
            fail("\(error)")
        }
    }
    let options = FontCompiler.Options(name: name ?? fonts[0].family, subset: haveSubset ? subset : .all, crop: crop)
    do {
        let (bytes, report) = try FontCompiler.compile(fonts, options: options)
        try Data(bytes).write(to: URL(filePath: output))
        print("\(output): \(report.glyphs) glyphs, \(report.bytes) bytes"
              + (report.missing > 0 ? " (\(report.missing) subset code points not in the inputs)" : ""))
    } catch {
        fail("\(error)")
    }
}

func load(_ path: String) -> BitmapFont {
    let bytes: [UInt8]
    do { bytes = [UInt8](try Data(contentsOf: URL(filePath: path))) } catch {
        fail("\(FontError.unreadable(path: path, reason: "\(error)"))")
    }
    do { return try FontLoader.parse(bytes, path: path) } catch { fail("\(error)") }
}

func info(_ args: [String]) {
    guard let path = args.first else { fail(usage) }
    let font = load(path)
    print("\(path): \"\(font.name)\", \(font.glyphCount) glyphs, pixel size \(font.pixelSize), ascent \(font.ascent), descent \(font.descent), default advance \(font.defaultAdvance), \(font.fileBytes.count) bytes")
    // Coverage as ranges.
    var runs: [(UInt32, UInt32)] = []
    for k in 0..<font.glyphCount {
        let c = font.codepoint(at: k)
        if let last = runs.last, last.1 + 1 == c { runs[runs.count - 1].1 = c } else { runs.append((c, c)) }
    }
    print("\(runs.count) ranges; first: " + runs.prefix(12).map { $0.0 == $0.1 ? String($0.0, radix: 16) : "\(String($0.0, radix: 16))-\(String($0.1, radix: 16))" }.joined(separator: " "))
}

func render(_ args: [String]) {
    var width = 128
    var rest = args
    if rest.first == "--width", rest.count > 1, let w = Int(rest[1]) { width = w; rest.removeFirst(2) }
    guard rest.count >= 2 else { fail(usage) }
    let text = rest.removeLast()
    let chain = FontChain(rest.map(load))
    let layout = TextLayout(capacity: 64)
    layout.layout(text, fonts: chain, width: width)
    let height = max(8, (layout.height() + 7) / 8 * 8)
    let fb = Framebuffer(width: width, height: min(256, height))
    layout.draw(text, fonts: chain, into: fb, x: 0, y: 0)
    var out = ""
    var y = 0
    while y < fb.height {
        for x in 0..<fb.width {
            switch (fb.pixel(x: x, y: y), fb.pixel(x: x, y: y + 1)) {
            case (false, false): out += " "
            case (true, false): out += "▀"
            case (false, true): out += "▄"
            case (true, true): out += "█"
            }
        }
        out += "\n"
        y += 2
    }
    print(out, terminator: "")
    print("\(layout.lineCount) lines, line height \(layout.lineHeight)\(layout.truncated ? ", truncated" : "")")
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { print(usage); exit(0) }
arguments.removeFirst()
switch command {
case "build": build(arguments)
case "info": info(arguments)
case "render": render(arguments)
case "-h", "--help", "help": print(usage)
default: fail("unknown command \(command)\n\(usage)")
}
