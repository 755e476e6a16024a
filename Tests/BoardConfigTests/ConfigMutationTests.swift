import BoardConfig
import WearerSettings
import HAL
import Testing

/// Mutator suites (issue 28): every shipped board file and a full settings
/// file, each mutated thousands of ways (bytes flipped, inserted, deleted,
/// runs duplicated, cut short; NUL, quotes, braces, control and non-UTF-8
/// bytes). Each input either loads or is refused with problems that are
/// bounded in number and length: never a crash, never an unbounded report.
@Suite("Board and settings files, mutated")
struct ConfigMutationTests {
    /// A small deterministic generator (xorshift64*), so a failure repeats.
    struct Mutator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

        static let interesting: [UInt8] = [0x00, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x2C, 0x2F, 0x2A, 0x0A, 0x1B, 0x7F, 0xC2, 0x80, 0xFF, 0x30, 0x39, 0x2D, 0x2E, 0x65]

        mutating func mutate(_ input: [UInt8]) -> [UInt8] {
            var b = input
            for _ in 0..<(1 + below(4)) {
                let at = below(b.count + 1)
                switch below(6) {
                case 0 where !b.isEmpty: b[min(at, b.count - 1)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
                case 1: b.insert(Self.interesting[below(Self.interesting.count)], at: at)
                case 2 where !b.isEmpty: b.remove(at: min(at, b.count - 1))
                case 3 where at < b.count:
                    let end = min(b.count, at + 1 + below(40))
                    b.insert(contentsOf: b[at..<end], at: at)
                case 4: b.removeSubrange(min(at, b.count)...)
                default: b.insert(UInt8(truncatingIfNeeded: next()), at: at)
                }
            }
            return b
        }
    }

    static let settings = Array("""
        // The wearer's settings
        {
          "patterns": { "heartbeat": [80, 120, 80], "long": [400] },
          "apps": {
            "com.apple.MobileSMS": { "vibrate": "heartbeat", "alwaysAlert": true },
            "com.facebook.Messenger": { "mute": true },
            "com.apple.mobilemail": { "hideContent": true, "vibrate": "none" }
          },
          "quietHours": "22:30-07:00",
          "doNotDisturb": { "calls": "silent" }
        }
        """.utf8)

    static func check(_ error: BoardError) -> Bool {
        error.problems.count <= 1000 && error.description.split(separator: "\n").count <= BoardError.reportedProblems + 1
            && error.problems.allSatisfy { $0.description.utf8.count < 1024 }
    }

    @Test("every shipped board file, 1,500 mutations each: a board or bounded problems")
    func boardFiles() throws {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
        var loaded = 0, refused = 0, unbounded = 0
        for name in ["rpi-zero2w", "rpi-zero2w-2buttons", "rpi3", "rpi4", "rpi5", "orangepi-zero3", "radxa-zero3", "generic", "sim"] {
            let original = try #require(try readTestFile(root + "/Boards/\(name).json"))
            _ = try BoardLoader.parse(original, file: name)
            var m = Mutator(state: 0x9E37_79B9_7F4A_7C15 ^ UInt64(original.count))
            for _ in 0..<1500 {
                do {
                    _ = try BoardLoader.parse(m.mutate(original), file: name)
                    loaded += 1
                } catch {
                    refused += 1
                    if !Self.check(error) { unbounded += 1 }
                }
            }
        }
        #expect(unbounded == 0)
        #expect(loaded > 0 && refused > 0, "both kinds of outcome were exercised (\(loaded) loaded, \(refused) refused)")
    }

    @Test("a settings file, 5,000 mutations: settings or bounded problems")
    func settingsFile() throws {
        _ = try UserSettingsLoader.parse(Self.settings, file: "settings.json", motorCap: .seconds(20))
        var m = Mutator(state: 0xD1B5_4A32_D192_ED03)
        var loaded = 0, refused = 0, unbounded = 0
        for _ in 0..<5000 {
            do {
                _ = try UserSettingsLoader.parse(m.mutate(Self.settings), file: "settings.json", motorCap: .seconds(20))
                loaded += 1
            } catch {
                refused += 1
                if !Self.check(error) { unbounded += 1 }
            }
        }
        #expect(unbounded == 0)
        #expect(loaded > 0 && refused > 0, "\(loaded) loaded, \(refused) refused")
    }
}
