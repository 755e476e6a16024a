import Glibc
import HAL
import LinuxHAL
import Peripheral
import Testing
@testable import Peripheral

/// Issue 14, bond store: root's `forget` keeps the service user's ownership,
/// CRLF files are read, a read-only load never changes a file, damaged files
/// are kept as numbered, bounded copies, and a full disk fails cleanly.
@Suite(.serialized) struct BondStoreHardeningTests {
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!
    let other = BluetoothAddress("11:22:33:44:55:66")!
    let nobody: uid_t = 65534

    func ltk(_ a: BluetoothAddress, fill: UInt8 = 0xA0) -> LongTermKey {
        LongTermKey(address: a, addressType: .lePublic, keyType: 3, central: false, encryptionSize: 16,
                    ediv: 1, rand: 2, value: [UInt8](repeating: fill, count: 16))
    }

    func owner(_ path: String) -> (uid: uid_t, gid: gid_t, mode: mode_t)? {
        var s = stat()
        return lstat(path, &s) == 0 ? (s.st_uid, s.st_gid, s.st_mode & 0o7777) : nil
    }

    /// 14.1: `sudo wristcore forget --all` in the service user's 0700 directory.
    @Test func rootForgetLeavesAFileTheServiceUserReads() throws {
        guard geteuid() == 0 else {
            print("skipped: needs root")
            return
        }
        let tmp = TemporaryDirectory()
        #expect(chmod(tmp.path, 0o711) == 0)  // the service user may pass through, like /var/lib
        let dir = tmp.path + "/wristcore"
        #expect(mkdir(dir, 0o700) == 0)
        // The daemon (here uid 65534) bonded two phones.
        let daemon = BondStore(directory: dir, files: AtomicFileStore())
        try daemon.store(ltk(phone))
        try daemon.store(ltk(other))
        _ = try daemon.ensureLocalIRK()
        #expect(system("chown -R \(nobody):\(nobody) '\(dir)'") == 0)

        // root: wristcore forget --address, then --all
        let root = BondStore(directory: dir, files: AtomicFileStore())
        #expect(try root.load() == .loaded(bonds: 2))
        #expect(try root.remove(phone))
        #expect(owner(root.path)?.uid == nobody && owner(root.path)?.gid == nobody)
        #expect(try root.removeAll() == [other])
        let after = try #require(owner(root.path))
        #expect(after.uid == nobody && after.gid == nobody && after.mode == 0o600)
        #expect(owner(dir)?.uid == nobody && owner(dir)?.mode == 0o700)
        // The service user can read what root wrote.
        #expect(system("setpriv --reuid \(nobody) --regid \(nobody) --clear-groups cat '\(root.path)' > /dev/null 2>&1") == 0)
        let reread = BondStore(directory: dir, files: AtomicFileStore())
        #expect(try reread.load() == .loaded(bonds: 0))
        #expect(reread.localIRK == daemon.localIRK)
    }

    /// `forget --all` with nobody to forget writes nothing (no root-owned directory appears).
    @Test func forgetAllWithNothingToForgetWritesNothing() throws {
        let tmp = TemporaryDirectory()
        let store = BondStore(directory: tmp.path + "/not-yet", files: AtomicFileStore())
        #expect(try store.load() == .missing)
        #expect(try store.removeAll() == [])
        #expect(!AtomicFile.exists(tmp.path + "/not-yet"))
    }

    /// 14.2 through the store: a symlink planted at bonds.tmp is not followed.
    @Test func plantedSymlinkLeavesItsTargetAlone() throws {
        let tmp = TemporaryDirectory()
        let target = tmp.path + "/etc-shadow"
        try AtomicFile.write(target, Array("root:secret\n".utf8), mode: 0o640)
        let dir = tmp.path + "/state"
        #expect(mkdir(dir, 0o700) == 0)
        let store = BondStore(directory: dir, files: AtomicFileStore())
        try store.store(ltk(phone))
        #expect(symlink(target, store.path + ".tmp") == 0)
        #expect(throws: HALError.self) { try store.removeAll() }
        #expect(try AtomicFile.read(target) == Array("root:secret\n".utf8))
        #expect(owner(target)?.mode == 0o640)
        #expect(store.isBonded(phone))  // the failed write changed nothing
        #expect(try BondStore(directory: dir, files: AtomicFileStore()).load() == .loaded(bonds: 1))
    }

    @Test func worldWritableStateDirectoryIsRefused() throws {
        let tmp = TemporaryDirectory()
        let dir = tmp.path + "/state"
        #expect(mkdir(dir, 0o700) == 0)
        #expect(chmod(dir, 0o777) == 0)
        let store = BondStore(directory: dir, files: AtomicFileStore())
        #expect {
            try store.store(ltk(phone))
        } throws: { error in
            let e = error as? HALError
            return e?.operation == "use the state directory \(dir)" && e?.reason.contains("mode 0777") == true && e?.hint == "'sudo chmod 700 \(dir)'"
        }
        #expect(!AtomicFile.exists(store.path))
    }

    /// 14.3: CRLF line ends (a file edited on Windows or sent through a CRLF tool).
    @Test func crlfBondFileIsRead() throws {
        let c = BondStore.Contents(
            localIRK: [UInt8](repeating: 0x11, count: 16), longTermKeys: [ltk(phone), ltk(other, fill: 0xB0)],
            irks: [IdentityResolvingKey(address: phone, addressType: .lePublic, value: [UInt8](repeating: 0x22, count: 16))])
        let lf = String(decoding: BondStore.encode(c), as: UTF8.self)
        let crlf = Array(lf.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n").utf8)
        #expect(crlf.contains(0x0D))
        #expect(try BondStore.decode(crlf).get() == c)
        // Mixed line ends too.
        let mixed = Array(lf.replacingOccurrences("wristcore-bonds 1", "wristcore-bonds 1\r").utf8)
        #expect(try BondStore.decode(mixed).get() == c)

        let tmp = TemporaryDirectory()
        let store = BondStore(directory: tmp.path, files: AtomicFileStore())
        try AtomicFile.write(store.path, crlf)
        #expect(try store.load() == .loaded(bonds: 2))
        #expect(store.contents == c)
        #expect(!AtomicFile.exists(store.corruptCopy(1)))
        #expect(AtomicFile.exists(store.path))
    }

    /// 14.3: `forget --list` (a read-only load) never moves or overwrites a file.
    @Test func readOnlyLoadChangesNothing() throws {
        let tmp = TemporaryDirectory()
        let store = BondStore(directory: tmp.path, files: AtomicFileStore())
        let damaged = Array("wristcore-bonds 1\nltk garbage\n".utf8)
        let earlier = Array("an earlier damaged file\n".utf8)
        try AtomicFile.write(store.path, damaged)
        try AtomicFile.write(store.path + ".corrupt", earlier)
        try AtomicFile.write(store.corruptCopy(1), earlier)
        #expect(try store.load(readOnly: true) == .corrupt(reason: "line 2: bad ltk record", keptAs: nil))
        #expect(store.bondedPeers.isEmpty)
        #expect(try AtomicFile.read(store.path) == damaged)
        #expect(try AtomicFile.read(store.path + ".corrupt") == earlier)
        #expect(try AtomicFile.read(store.corruptCopy(1)) == earlier)
        #expect(!AtomicFile.exists(store.corruptCopy(2)))

        // In memory: not one write, removal or move.
        let files = InMemoryStateFiles()
        try files.writeAtomically("/s/bonds", damaged, mode: 0o600)
        let before = files.changes
        let memory = BondStore(directory: "/s", files: files)
        #expect(try memory.load(readOnly: true) == .corrupt(reason: "line 2: bad ltk record", keptAs: nil))
        #expect(files.changes == before && files.moves.isEmpty && files.directories.isEmpty)
        #expect(try memory.load(readOnly: true) == .corrupt(reason: "line 2: bad ltk record", keptAs: nil))
    }

    /// 14.3: damaged files are kept as bonds.corrupt.1 (newest) … .10; an
    /// earlier copy is never overwritten, the 11th oldest is dropped.
    @Test func corruptCopiesAreNumberedAndBounded() throws {
        let tmp = TemporaryDirectory()
        let store = BondStore(directory: tmp.path, files: AtomicFileStore())
        try AtomicFile.write(store.path + ".corrupt", Array("legacy".utf8))  // from an older version: left alone
        func damaged(_ n: Int) -> [UInt8] { Array("wristcore-bonds 1\nend \(n + 100)\n".utf8) }
        for n in 1...12 {
            try AtomicFile.write(store.path, damaged(n))
            let outcome = try store.load()
            #expect(outcome == .corrupt(reason: "line 2: record count does not match (incomplete file)", keptAs: store.corruptCopy(1)))
            #expect(!AtomicFile.exists(store.path))
            // After n damaged files: copies 1...min(n, 10), newest first.
            for k in 1...BondStore.keptCorruptCopies {
                let expected = k <= n ? damaged(n - k + 1) : nil
                #expect(try AtomicFile.read(store.corruptCopy(k)) == expected, "round \(n), copy \(k)")
            }
            #expect(!AtomicFile.exists(store.corruptCopy(11)))
        }
        #expect(try AtomicFile.read(store.path + ".corrupt") == Array("legacy".utf8))
        #expect(BondStore.keptCorruptCopies == 10)
    }

    /// 14.4 on a real (tiny, full) filesystem through the store.
    @Test func fullDiskFailsTheStoreWithOutOfSpaceAndKeepsTheOldBonds() throws {
        guard geteuid() == 0 else {
            print("skipped: mounting a tmpfs needs root")
            return
        }
        let tmp = TemporaryDirectory()
        let dir = tmp.path + "/disk"
        #expect(mkdir(dir, 0o700) == 0)
        guard mount("tmpfs", dir, "tmpfs", 0, "size=8k,mode=0700") == 0 else {
            print("skipped: cannot mount a tmpfs here")
            return
        }
        defer { _ = umount2(dir, Int32(MNT_DETACH)) }
        let store = BondStore(directory: dir, files: AtomicFileStore())
        try store.store(ltk(phone))
        let fd = open(dir + "/filler", O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0, count: 1024)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        // Enough keys that the new file needs a block of its own.
        var failure: HALError?
        for i in 0..<40 {
            do { try store.store(ltk(BluetoothAddress(wire: [UInt8(i), 9, 9, 9, 9, 9])!)) } catch {
                failure = error
                break
            }
        }
        let e = try #require(failure)
        #expect(e.isOutOfSpace)
        #expect(BondSaveFailure(address: phone, error: e, directory: dir).notice == "Bond not saved: disk full. Free space or pair again after a restart")
        #expect(!AtomicFile.exists(store.path + ".tmp"))
        let reread = BondStore(directory: dir, files: AtomicFileStore())
        #expect(try reread.load() == .loaded(bonds: reread.bondedPeers.count))
        #expect(reread.contents == store.contents)
        #expect(reread.isBonded(phone))
    }

    @Test func fixHintsByErrno() {
        let full = HALError(operation: "write /s/bonds.tmp", errno: 28, reason: "No space left on device")
        #expect(BondStore.fixHint(for: full, directory: "/s").hasPrefix("the filesystem holding /s is full: free some space ('df -h /s'"))
        let ro = HALError(operation: "create /s/bonds.tmp", errno: 30, reason: "Read-only file system")
        #expect(BondStore.fixHint(for: ro, directory: "/s") == "the filesystem holding /s is read-only: remount it read-write or pass --state-dir on a writable one")
        let other = HALError(operation: "fsync /s/bonds.tmp", errno: 5, reason: "Input/output error")
        #expect(BondStore.fixHint(for: other, directory: "/s") == "'wristcore doctor' checks the state directory /s")
    }
}
