import Glibc
import HAL
import LinuxHAL
import Testing

/// `FileSystem`: what a path is, and `mkdir -p` (the demo's PNG folder).
@Suite struct FileSystemTests {
    /// A fresh directory under /tmp.
    static func scratch() -> String {
        var template = Array("/tmp/wc-fs-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func kindOfAFileADirectoryAndNothing() throws {
        let dir = Self.scratch()
        try FileBytes.write([1, 2, 3], to: dir + "/f")
        #expect(FileSystem.kind(of: dir) == .directory)
        #expect(FileSystem.kind(of: dir + "/f") == .regularFile)
        #expect(FileSystem.kind(of: "/dev/null") == .other)
        #expect(FileSystem.kind(of: dir + "/missing") == nil)
        #expect(FileSystem.kind(of: dir + "/f/below") == nil)
    }

    @Test func createsMissingParentsAndAcceptsAnExistingDirectory() throws {
        let dir = Self.scratch()
        let deep = dir + "/a/b/c"
        try FileSystem.createDirectories(deep)
        #expect(FileSystem.kind(of: deep) == .directory)
        try FileSystem.createDirectories(deep)  // again: already there
        try FileBytes.write(Array("x".utf8), to: deep + "/frame.png")
        #expect(try FileBytes.read(deep + "/frame.png") == Array("x".utf8))
    }

    @Test func aFileInTheWayIsAnError() throws {
        let dir = Self.scratch()
        try FileBytes.write([0], to: dir + "/file")
        #expect(throws: HALError.self) { try FileSystem.createDirectories(dir + "/file") }
        #expect(throws: HALError.self) { try FileSystem.createDirectories(dir + "/file/sub") }
    }
}
