import BoardConfig
import Glibc
import HAL
import LinuxHAL
import Testing
@testable import WristCore
import TextFormat
@testable import WatchFiles

/// Issue 27.5: "did you mean" for a misspelt command or board.
@Suite struct DidYouMeanTests {
    static let commands = ["run", "demo", "doctor", "setup", "decode", "forget", "screenshot", "motor-off", "selftest"]

    @Test func distances() {
        func d(_ a: String, _ b: String) -> Int { Spelling.distance(Array(a.utf8), Array(b.utf8)) }
        #expect(d("rnu", "run") == 1)  // two neighbours swapped
        #expect(d("rpi-zero2", "rpi-zero2w") == 1)
        #expect(d("rpi-zer2w", "rpi-zero2w") == 1)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("", "abc") == 3 && d("abc", "") == 3 && d("same", "same") == 0)
        // Bounded: once it is certain to reach the bound, the bound comes back.
        #expect(Spelling.distance(Array("aaaaaaaa".utf8), Array("bbbbbbbb".utf8), bound: 3) == 3)
        #expect(Spelling.distance(Array("a".utf8), Array("abcdefgh".utf8), bound: 3) == 3)
    }

    @Test func commands() {
        #expect(Spelling.suggestions(for: "rnu", among: Self.commands) == ["run"])
        #expect(Spelling.suggestions(for: "sefltest", among: Self.commands) == ["selftest"])
        #expect(Spelling.suggestions(for: "doctr", among: Self.commands) == ["doctor"])
        #expect(Spelling.suggestions(for: "RUN", among: Self.commands) == ["run"])
        #expect(Spelling.suggestions(for: "run", among: Self.commands) == [])  // a known word needs no suggestion
        #expect(Spelling.suggestions(for: "xyzzy", among: Self.commands) == [])
        #expect(Spelling.suggestions(for: "ru", among: Self.commands) == [])  // too short to guess
        #expect(Spelling.suggestions(for: String(repeating: "r", count: 65), among: Self.commands) == [])
        #expect(Spelling.didYouMean("rnu", among: Self.commands) == "did you mean 'run'?")
        #expect(Spelling.didYouMean("nothing-like-it", among: Self.commands) == nil)
        #expect(Spelling.didYouMean(["a", "b", "c"]) == "did you mean 'a', 'b' or 'c'?")
    }

    @Test func shippedBoardNames() {
        let boards = ["generic", "orangepi-zero3", "radxa-zero3", "rpi-zero2w", "rpi-zero2w-2buttons", "rpi3", "rpi4", "rpi5", "sim"]
        #expect(ResourcePaths.boardSuggestion("rpi-zero2", shipped: boards) == "did you mean 'rpi-zero2w'?")
        #expect(ResourcePaths.boardSuggestion("rpi-zer2w", shipped: boards) == "did you mean 'rpi-zero2w'?")
        #expect(ResourcePaths.boardSuggestion("rpi-zero2.json", shipped: boards) == "did you mean 'rpi-zero2w'?")
        #expect(ResourcePaths.boardSuggestion("rpi-zero2w-2button", shipped: boards) == "did you mean 'rpi-zero2w-2buttons'?")
        #expect(ResourcePaths.boardSuggestion("rpi", shipped: boards) == "did you mean 'rpi3', 'rpi4' or 'rpi5'?")
        #expect(ResourcePaths.boardSuggestion("orangepi-zero2", shipped: boards) == "did you mean 'orangepi-zero3'?")
        #expect(ResourcePaths.boardSuggestion("beaglebone", shipped: boards) == nil)
    }

    /// The error every command gives for `--board NAME` (run, doctor, selftest, setup, motor-off):
    /// found from the checkout's Boards/.
    @Test func theMissingBoardErrorSuggests() {
        let message = ResourcePaths.boardMissing("rpi-zer2w").problems[0].message
        #expect(message.hasPrefix("no such board (did you mean 'rpi-zero2w'?); shipped boards: "), "\(message)")
        let plain = ResourcePaths.boardMissing("beaglebone").problems[0].message
        #expect(plain.hasPrefix("no such board; shipped boards: "), "\(plain)")
    }

    /// A path: the board files in its directory.
    @Test func aPathSuggestsAFileBesideIt() throws {
        var template = Array("/tmp/wristcore-dym-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(decoding: UnsafeRawBufferPointer(start: mkdtemp($0.baseAddress!), count: strlen($0.baseAddress!)), as: UTF8.self) }
        defer { _ = system("rm -rf '\(dir)'") }
        try FileBytes.write(Array("{}".utf8), to: dir + "/my-watch.json")
        try FileBytes.write(Array("".utf8), to: dir + "/notes.txt")
        #expect(ResourcePaths.boardSuggestion(dir + "/my-wacth.json", shipped: []) == "did you mean '\(dir)/my-watch.json'?")
        #expect(ResourcePaths.boardSuggestion(dir + "/my-watch", shipped: []) == "did you mean '\(dir)/my-watch.json'?")
        #expect(ResourcePaths.boardSuggestion(dir + "/notes.json", shipped: []) == nil)
        #expect(ResourcePaths.boardSuggestion("/no/such/dir/x.json", shipped: []) == nil)
        let message = ResourcePaths.boardMissing(dir + "/my-wacth.json").problems[0].message
        #expect(message.hasPrefix("no such file (did you mean '\(dir)/my-watch.json'?); "), "\(message)")
    }
}
