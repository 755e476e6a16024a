import Glibc
import HAL
import LinuxHAL
import Testing

/// `MappedFile`: a whole file mapped read-only (the daemon's fonts).
@Suite struct MappedFileTests {
    @Test func mapsTheSameBytesARead() throws {
        let dir = FileSystemTests.scratch()
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try FileBytes.write(bytes, to: dir + "/data")
        let mapped = try #require(try MappedFile.mapIfPresent(dir + "/data"))
        #expect(mapped.count == bytes.count)
        #expect(Array(mapped.bytes) == bytes)
        // Letting go of the resident pages changes nothing that is read.
        mapped.releaseResidentPages()
        #expect(Array(mapped.bytes) == bytes)
        #expect(mapped.bytes[199_999] == bytes[199_999])
    }

    @Test func aMissingFileIsNilAndADirectoryIsAnError() throws {
        let dir = FileSystemTests.scratch()
        #expect(try MappedFile.mapIfPresent(dir + "/missing") == nil)
        #expect(try MappedFile.mapIfPresent(dir + "/missing/below") == nil)
        #expect(throws: HALError.self) { try MappedFile.mapIfPresent(dir) }
    }

    @Test func anEmptyFileIsZeroBytes() throws {
        let dir = FileSystemTests.scratch()
        try FileBytes.write([], to: dir + "/empty")
        let mapped = try #require(try MappedFile.mapIfPresent(dir + "/empty"))
        #expect(mapped.count == 0 && mapped.bytes.isEmpty)
        mapped.releaseResidentPages()
    }

    @Test func anUnreadableFileIsAnError() throws {
        guard geteuid() != 0 else { return }  // root reads anything
        let dir = FileSystemTests.scratch()
        try FileBytes.write([1], to: dir + "/secret")
        chmod(dir + "/secret", 0)
        #expect(throws: HALError.self) { try MappedFile.mapIfPresent(dir + "/secret") }
    }
}
