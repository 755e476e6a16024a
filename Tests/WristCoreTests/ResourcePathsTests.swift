import BoardConfig
import Glibc
import HAL
import LinuxHAL
import Testing
@testable import WristCore
import TextFormat
@testable import WatchFiles

/// Where fonts, boards and scenarios are looked for: installed, another prefix, a checkout.
@Suite struct ResourcePathsTests {
    @Test func installedBinaryLooksInUsrShareFirst() {
        let path = ResourcePaths.fontSearchPath(environment: [:], executablePath: "/usr/bin/wristcore")
        #expect(path.first == "/usr/share/wristcore/Fonts")
        #expect(path.contains("/usr/share/wristcore/fonts"))  // the older lower-case name still works
    }

    @Test func environmentComesFirstAndUsrShareLast() {
        let path = ResourcePaths.fontSearchPath(environment: ["WRISTCORE_FONTS": "/a:/b"], executablePath: "/opt/wc/bin/wristcore")
        #expect(Array(path.prefix(3)) == ["/a", "/b", "/opt/wc/share/wristcore/Fonts"])
        #expect(path.last == "/usr/share/wristcore/Fonts")
        #expect(Set(path).count == path.count)
    }

    @Test func checkoutBinaryPrefersTheCheckout() {
        let path = ResourcePaths.fontSearchPath(environment: [:], executablePath: "/src/wc/.build/release/wristcore")
        let checkout = path.firstIndex { $0.hasSuffix("/Fonts") && !$0.contains("share/wristcore") }
        let installed = path.firstIndex(of: "/usr/share/wristcore/Fonts")
        #expect(checkout != nil && installed != nil && checkout! < installed!)
    }

    @Test func boardsByNameFileOrSim() throws {
        let dir = try temporaryDirectory()
        defer { remove(dir) }
        try write(dir + "/myboard.json", "{}")
        #expect(ResourcePaths.locateBoard("sim", searchPath: [dir]) == .simulator)
        #expect(ResourcePaths.locateBoard("myboard", searchPath: [dir]) == .file(dir + "/myboard.json"))
        #expect(ResourcePaths.locateBoard("myboard.json", searchPath: [dir]) == .file(dir + "/myboard.json"))
        #expect(ResourcePaths.locateBoard(dir + "/myboard.json", searchPath: []) == .file(dir + "/myboard.json"))
        #expect(ResourcePaths.locateBoard("nope", searchPath: [dir]) == .notFound(argument: "nope", searched: [dir]))
        #expect(ResourcePaths.locateBoard("/no/such.json", searchPath: [dir]) == .notFound(argument: "/no/such.json", searched: []))
    }

    @Test func shippedBoardsAreListedByName() throws {
        let a = try temporaryDirectory(), b = try temporaryDirectory()
        defer { remove(a); remove(b) }
        try write(a + "/rpi5.json", "{}")
        try write(b + "/rpi5.json", "{}")
        try write(b + "/generic.json", "{}")
        try write(b + "/notes.txt", "")
        let boards = ResourcePaths.shippedBoards(searchPath: [a, b])
        #expect(boards.map(\.name) == ["generic", "rpi5"])
        #expect(boards.first { $0.name == "rpi5" }?.path == a + "/rpi5.json")  // the first directory wins
    }

    @Test func aMissingBoardIsAConfigurationErrorNamingTheBoards() {
        let error = ResourcePaths.boardMissing("/nonexistent.json")
        #expect(error.problems.count == 1)
        let problem = error.problems[0]
        #expect(problem.file == "/nonexistent.json" && problem.field == "board")
        #expect(problem.message.hasPrefix("no such file; "))
        // Run from the package's checkout, the shipped boards are found.
        #expect(problem.message.contains("rpi-zero2w"))
    }

    @Test func missingFontsSayWhereAndHow() {
        let failure = ResourcePaths.fontsMissing(.notFound(name: "fixed-6x13.wcf", searched: []), searched: ["/x", "/y"])
        #expect(failure.message.contains("fixed-6x13.wcf not found; looked in: /x, /y"))
        #expect(failure.message.contains("/usr/share/wristcore/Fonts"))
        #expect(failure.message.contains("WRISTCORE_FONTS"))
        #expect(failure.exitCode == WristCoreExit.runtimeFailure)
    }

    @Test func paths() {
        #expect(ResourcePaths.installPrefix("/usr/bin/wristcore") == "/usr")
        #expect(PathText.parent("/wristcore") == "/")
        #expect(PathText.parent("wristcore") == ".")
        #expect(PathText.parent("/usr/share/wristcore/", levels: 2) == "/usr")
        #expect(PathText.parent("/usr/bin/wristcore", levels: 5) == "/")
        #expect(PathText.join("/etc/", "wristcore") == "/etc/wristcore")
        #expect(ResourcePaths.colonList(":/a::/b:") == ["/a", "/b"])
    }

    // MARK: helpers

    func temporaryDirectory() throws -> String {
        var template = Array("/tmp/wristcore-paths-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw WristCoreFailure("mkdtemp failed")
        }
        return String(decoding: UnsafeBufferPointer(start: made, count: strlen(made)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func write(_ path: String, _ text: String) throws {
        guard let file = fopen(path, "w") else { throw WristCoreFailure("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
    }

    func remove(_ dir: String) {
        for name in FileSystem.directoryEntries(dir) { unlink(dir + "/" + name) }
        rmdir(dir)
    }
}
