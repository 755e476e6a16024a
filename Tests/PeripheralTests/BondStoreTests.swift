import Glibc
import HAL
import LinuxHAL
import Peripheral
import Testing
@testable import Peripheral

@Suite struct BondStoreTests {
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!
    let other = BluetoothAddress("11:22:33:44:55:66")!

    func ltk(_ a: BluetoothAddress, fill: UInt8 = 0xA0, central: Bool = false) -> LongTermKey {
        LongTermKey(address: a, addressType: .lePublic, keyType: 3, central: central, encryptionSize: 16,
                    ediv: 0xBEEF, rand: 0x0102030405060708, value: [UInt8](repeating: fill, count: 16))
    }

    @Test func fileFormatIsExact() throws {
        let c = BondStore.Contents(
            localIRK: [UInt8](repeating: 0x11, count: 16), longTermKeys: [ltk(phone)],
            irks: [IdentityResolvingKey(address: phone, addressType: .lePublic, value: [UInt8](repeating: 0x22, count: 16))])
        let text = String(decoding: BondStore.encode(c), as: UTF8.self)
        #expect(text == """
            # WristCore Bluetooth bonds (keys: keep private). 'wristcore forget' removes them.
            wristcore-bonds 1
            local-irk 11111111111111111111111111111111
            ltk F0:99:B6:12:34:56 1 3 0 16 48879 72623859790382856 a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0
            irk F0:99:B6:12:34:56 1 22222222222222222222222222222222
            end 3

            """)
        #expect(try BondStore.decode(BondStore.encode(c)).get() == c)
        #expect(try BondStore.decode(BondStore.encode(BondStore.Contents())).get() == BondStore.Contents())
    }

    @Test func incompleteOrDamagedFilesAreRejected() throws {
        let full = BondStore.encode(BondStore.Contents(longTermKeys: [ltk(phone), ltk(other)]))
        // Every prefix of a complete file is rejected (no end line, or a short record / count),
        // except the whole file without its final newline, which holds everything.
        for n in 0..<(full.count - 1) {
            let prefix = Array(full[0..<n])
            if case .success = BondStore.decode(prefix) {
                Issue.record("prefix of \(n) bytes accepted")
            }
        }
        #expect(throws: BondStore.FormatError.self) { try BondStore.decode(Array("hello\n".utf8)).get() }
        #expect(throws: BondStore.FormatError.self) { try BondStore.decode([0xFF, 0xFE]).get() }
        var wrongCount = String(decoding: full, as: UTF8.self)
        wrongCount = wrongCount.replacingOccurrences("end 2", "end 3")
        #expect(throws: BondStore.FormatError.self) { try BondStore.decode(Array(wrongCount.utf8)).get() }
    }

    @Test func roundTripThroughTheDirectoryWithMode0600() throws {
        let dir = TemporaryDirectory()
        let store = BondStore(directory: dir.path + "/state/", files: AtomicFileStore())
        #expect(try store.load() == .missing)
        _ = umask(0o022)
        try store.store(ltk(phone))
        try store.store(ltk(phone, fill: 0xA1, central: true))
        try store.store(ltk(phone, fill: 0xA2))  // replaces the first (same peer and role)
        try store.store(IdentityResolvingKey(address: phone, addressType: .lePublic, value: [UInt8](repeating: 3, count: 16)))
        let irk = try store.ensureLocalIRK()
        #expect(try store.ensureLocalIRK() == irk)
        #expect(store.path == dir.path + "/state/bonds")
        #expect(AtomicFile.mode(of: store.path) == 0o600)
        #expect(AtomicFile.mode(of: dir.path + "/state") == 0o700)
        #expect(!SystemProbe.exists(store.path + ".tmp"))

        let again = BondStore(directory: dir.path + "/state", files: AtomicFileStore())
        #expect(try again.load() == .loaded(bonds: 1))
        #expect(again.contents == store.contents)
        #expect(again.longTermKeys.map(\.value[0]) == [0xA1, 0xA2])
        #expect(again.localIRK == irk)

        try again.store(ltk(other))
        #expect(try again.remove(phone))
        #expect(try !again.remove(phone))
        #expect(again.bondedPeers.map(\.address) == [other])
        #expect(again.irks.isEmpty)
        #expect(try again.removeAll() == [other])
        let last = BondStore(directory: dir.path + "/state", files: AtomicFileStore())
        #expect(try last.load() == .loaded(bonds: 0))
        #expect(last.localIRK == irk)  // the watch's own identity survives 'forget --all'
    }

    @Test func corruptFileIsMovedAsideAndTheStoreStartsEmpty() throws {
        let dir = TemporaryDirectory()
        let store = BondStore(directory: dir.path, files: AtomicFileStore())
        try AtomicFile.write(store.path, Array("wristcore-bonds 1\nltk garbage\n".utf8))
        #expect(try store.load() == .corrupt(reason: "line 2: bad ltk record", keptAs: store.path + ".corrupt.1"))
        #expect(store.longTermKeys.isEmpty)
        #expect(SystemProbe.exists(store.path + ".corrupt.1"))
        #expect(!SystemProbe.exists(store.path))
        try store.store(ltk(phone))  // and it works again
        #expect(try BondStore(directory: dir.path, files: AtomicFileStore()).load() == .loaded(bonds: 1))
    }

    @Test func tornTemporaryFileIsIgnoredAndReplaced() throws {
        let dir = TemporaryDirectory()
        let store = BondStore(directory: dir.path, files: AtomicFileStore())
        try store.store(ltk(phone))
        let full = BondStore.encode(BondStore.Contents(longTermKeys: [ltk(phone), ltk(other)]))
        try AtomicFile.write(store.path + ".tmp.x", [])  // unrelated file
        let fd = open(store.path + ".tmp", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = full.withUnsafeBytes { write(fd, $0.baseAddress, 40) }  // a write cut short
        close(fd)
        let fresh = BondStore(directory: dir.path, files: AtomicFileStore())
        #expect(try fresh.load() == .loaded(bonds: 1))
        try fresh.store(ltk(other))
        #expect(try BondStore(directory: dir.path, files: AtomicFileStore()).load() == .loaded(bonds: 2))
    }

    @Test func unwritableDirectoryFailsWithTheOperation() throws {
        guard geteuid() != 0 else { return }  // root writes anywhere
        let store = BondStore(directory: "/proc/wristcore-no", files: AtomicFileStore())
        #expect(throws: HALError.self) { try store.store(ltk(phone)) }
    }

    /// kill -9 while writing: a forked child rewrites the store in a loop,
    /// alternating two versions; the parent kills it at a different moment
    /// each round and checks the file is always one complete version.
    @Test func survivesKill9DuringAWrite() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/bonds"
        let small = BondStore.encode(BondStore.Contents(longTermKeys: [ltk(phone)]))
        let large = BondStore.encode(BondStore.Contents(
            localIRK: [UInt8](repeating: 9, count: 16),
            longTermKeys: (0..<200).map { ltk(BluetoothAddress(wire: [UInt8($0), 1, 2, 3, 4, 5])!, fill: UInt8($0)) }))
        try AtomicFile.write(path, small)
        let versions = [small, large]
        var sawLarge = false
        var sawSmall = false
        for round in 0..<25 {
            var ready: [Int32] = [-1, -1]
            #expect(pipe(&ready) == 0)
            let child = fork()
            if child == 0 {
                // Child: signal the parent once, then write forever; only syscalls and
                // code the parent already ran (no new allocation patterns).
                var one: UInt8 = 1
                _ = write(ready[1], &one, 1)
                var i = 0
                while true {
                    do { try AtomicFile.write(path, versions[i & 1]) } catch { _exit(3) }
                    i += 1
                }
            }
            #expect(child > 0)
            var byte: UInt8 = 0
            _ = read(ready[0], &byte, 1)
            close(ready[0])
            close(ready[1])
            usleep(useconds_t(500 + (round * 397) % 4000))
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            #expect(status & 0x7F == SIGKILL)  // killed, not exited with an error
            let now = try AtomicFile.read(path)
            #expect(now == small || now == large, "round \(round): the file is neither version")
            if now == large { sawLarge = true } else { sawSmall = true }
            let store = BondStore(directory: dir.path, files: AtomicFileStore())
            let outcome = try store.load()
            #expect(outcome == .loaded(bonds: now == large ? 200 : 1))
        }
        #expect(sawLarge || sawSmall)
    }
}

extension String {
    func replacingOccurrences(_ a: String, _ b: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { $0 == a ? b : String($0) }.joined(separator: "\n")
    }
}
