import Display
import FoundationEssentials
import Graphics
import HAL
import SimBoard
import Testing

/// Golden files live next to this source file. Set WRISTCORE_UPDATE_GOLDEN=1
/// to rewrite them from the current output (then review the diff).
enum Golden {
    static let directory: String = {
        var path = #filePath
        path = String(path[..<path.lastIndex(of: "/")!])
        return path + "/Golden"
    }()

    static var updating: Bool { ProcessInfo.processInfo.environment["WRISTCORE_UPDATE_GOLDEN"] == "1" }

    static func read(_ name: String) -> [UInt8]? {
        try? [UInt8](Data(contentsOf: URL(filePath: directory + "/" + name)))
    }

    static func write(_ name: String, _ bytes: [UInt8]) {
        try! Data(bytes).write(to: URL(filePath: directory + "/" + name))
    }

    /// Transactions as hex text: one transaction per line.
    static func hex(_ transactions: [[UInt8]]) -> String {
        transactions.map { tx in
            tx.map { b in
                let s = String(b, radix: 16, uppercase: true)
                return s.count == 1 ? "0" + s : s
            }.joined(separator: " ")
        }.joined(separator: "\n") + "\n"
    }

    static func parseHex(_ text: String) -> [[UInt8]] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line in
            line.split(separator: " ").map { UInt8($0, radix: 16)! }
        }
    }

    /// Compares a byte stream with `<name>.hex`.
    static func check(stream transactions: [[UInt8]], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = name + ".hex"
        if updating { write(file, Array(hex(transactions).utf8)) }
        guard let stored = read(file) else {
            Issue.record("missing golden file Golden/\(file); run with WRISTCORE_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        let expected = parseHex(String(decoding: stored, as: UTF8.self))
        #expect(transactions.count == expected.count, "\(file): transaction count", sourceLocation: sourceLocation)
        for (i, (a, e)) in zip(transactions, expected).enumerated() where a != e {
            let at = Array(zip(a, e)).firstIndex { $0.0 != $0.1 } ?? min(a.count, e.count)
            Issue.record("\(file): transaction \(i) differs at byte \(at) (got \(a.count) bytes, expected \(e.count))", sourceLocation: sourceLocation)
            break
        }
    }

    /// Compares a picture with `<name>.pbm`.
    static func check(image: MonoImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = name + ".pbm"
        if updating { write(file, Array(image.pbmPlain(comment: name).utf8)) }
        guard let stored = read(file) else {
            Issue.record("missing golden file Golden/\(file); run with WRISTCORE_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        do {
            let expected = try MonoImage(pbm: stored)
            #expect(image == expected, "\(file): \(image.differences(from: expected))", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(file): \(error)", sourceLocation: sourceLocation)
        }
    }
}

/// A test picture made of shapes only (no fonts), so golden files do not
/// change when fonts are regenerated. Asymmetric, so flips show.
enum Scene {
    static let bell = Bitmap(rows: [
        "...##...",
        "..####..",
        ".######.",
        ".######.",
        ".######.",
        "########",
        "...##...",
    ])

    static func draw(_ fb: Framebuffer) {
        fb.clear()
        let w = fb.width, h = fb.height
        fb.strokeRect(Rect(x: 0, y: 0, width: w, height: h))
        fb.fill(Rect(x: 2, y: 2, width: 20, height: 9))
        fb.draw(bell, x: 8, y: 3, ink: .off)
        fb.line(x0: 24, y0: 2, x1: w - 3, y1: h - 3)
        for i in 0..<10 { fb.setPixel(x: 30 + 2 * i, y: h - 6 - i) }
        for y in stride(from: h / 2, to: h - 2, by: 2) {
            for x in stride(from: 4 + (y / 2) % 2, to: 20, by: 2) { fb.setPixel(x: x, y: y) }
        }
        fb.invert(Rect(x: w - 30, y: 4, width: 24, height: 12))
    }
}

/// A driver with an emulated panel on the other side of the bus.
struct Rig {
    let spec: ControllerSpec
    let bus: EmulatedI2CDisplay
    let driver: OLEDDriver
    let fb: Framebuffer

    init(_ spec: ControllerSpec, panel: EmulatedPanel, smbusOnly: Bool = false, options: DisplayOptions = DisplayOptions(),
         rotation: Rotation = .r0, maxMessageLength: Int = 4096) {
        self.spec = spec
        bus = EmulatedI2CDisplay(panel: panel, smbusOnly: smbusOnly, maxMessageLength: maxMessageLength)
        bus.recording = true
        driver = OLEDDriver(spec: spec, transport: bus, options: options)
        fb = Framebuffer(width: spec.width, height: spec.height, rotation: rotation)
    }

    /// The transactions since the last call.
    func take() -> [[UInt8]] {
        let log = bus.log
        bus.resetCounters()
        return log
    }

    var image: MonoImage { bus.emulator.image() }
}

/// The panels, as the driver and (independently) the emulator know them.
let panels: [(ControllerSpec, EmulatedPanel)] = [
    (.ssd1306_128x64, .ssd1306_128x64),
    (.ssd1306_128x32, .ssd1306_128x32),
    (.ssd1309_128x64, .ssd1309_128x64),
    (.sh1106_128x64, .sh1106_128x64),
]
