import Glibc
import HAL
import Testing
@testable import LinuxHAL

/// A fresh directory (mode 0700) under /tmp, removed at deinit.
final class ScratchDirectory {
    let path: String
    init() {
        var template = Array("/tmp/wristcore-atomic-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    deinit { _ = system("rm -rf '\(path)'") }
}

func fileStat(_ path: String) -> stat? {
    var s = stat()
    return lstat(path, &s) == 0 ? s : nil
}

func text(_ path: String) -> String? { (try? AtomicFile.read(path)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } }

/// Shell out (the forked helpers run as another user through setpriv).
@discardableResult
func shell(_ command: String) -> Int32 {
    let status = system(command)
    return (status >> 8) & 0xFF
}

let nobody: uid_t = 65534

/// The state directory as root and attackers see it: ownership kept for the
/// service user, no symlink followed, unsafe directories refused, nothing
/// overwritten by a move.
@Suite(.serialized) struct AtomicFileTests {
    /// Issue 14.1: `sudo wristcore forget` rewrote `bonds` as root:root 0600 in
    /// the service user's directory, and the daemon could not read it.
    @Test func rootKeepsTheDirectoryOwnersOwnership() throws {
        guard geteuid() == 0 else {
            print("skipped: needs root (chown of a directory to uid \(nobody))")
            return
        }
        let scratch = ScratchDirectory()
        #expect(chmod(scratch.path, 0o711) == 0)  // the service user may pass through, like /var/lib
        let dir = scratch.path + "/state"
        #expect(mkdir(dir, 0o700) == 0)
        #expect(chown(dir, nobody, nobody) == 0)
        let path = dir + "/bonds"
        // The damage done by today's code: a root-owned file already there.
        try AtomicFile.write(path, Array("old\n".utf8))
        #expect(chown(path, 0, 0) == 0)

        try AtomicFile.write(path, Array("new\n".utf8))
        let s = try #require(fileStat(path))
        #expect(s.st_uid == nobody && s.st_gid == nobody, "bonds is \(s.st_uid):\(s.st_gid), not the directory owner's")
        #expect(s.st_mode & 0o7777 == 0o600)
        #expect(!AtomicFile.exists(path + ".tmp"))
        // The service user (here nobody) reads it.
        #expect(shell("setpriv --reuid \(nobody) --regid \(nobody) --clear-groups cat '\(path)' > /dev/null 2>&1") == 0)
        // A root-owned directory: root's files stay root's.
        let own = scratch.path + "/root-owned"
        #expect(mkdir(own, 0o700) == 0)
        try AtomicFile.write(own + "/bonds", [1])
        #expect(fileStat(own + "/bonds")?.st_uid == 0)
    }

    /// Issue 14.2: a symlink planted at `bonds.tmp` made root overwrite and chmod its target.
    @Test func aSymlinkAtTheTemporaryNameIsNeverFollowed() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.path + "/state"
        #expect(mkdir(dir, 0o700) == 0)
        let target = scratch.path + "/precious"
        try AtomicFile.write(target, Array("precious\n".utf8), mode: 0o644)
        let path = dir + "/bonds"
        try AtomicFile.write(path, Array("bonds v1\n".utf8))
        #expect(symlink(target, path + ".tmp") == 0)

        #expect {
            try AtomicFile.write(path, Array("bonds v2\n".utf8))
        } throws: { error in
            guard let e = error as? HALError else { return false }
            return e.operation == "create \(dir)/bonds.tmp" && e.reason.contains("symbolic link")
                && e.hint == "remove it if you did not put it there: 'sudo rm \(dir)/bonds.tmp'"
        }
        #expect(text(target) == "precious\n")
        #expect(fileStat(target).map { $0.st_mode & 0o7777 } == 0o644)
        #expect(text(path) == "bonds v1\n")
        #expect(fileStat(path + ".tmp").map { $0.st_mode & S_IFMT } == S_IFLNK)  // left for a human to look at

        // A symlink planted at the file itself is replaced, not followed.
        #expect(unlink(path + ".tmp") == 0)
        #expect(unlink(path) == 0)
        #expect(symlink(target, path) == 0)
        try AtomicFile.write(path, Array("bonds v3\n".utf8))
        #expect(text(target) == "precious\n")
        #expect(fileStat(path).map { $0.st_mode & S_IFMT } == S_IFREG)
        #expect(text(path) == "bonds v3\n")
    }

    /// A hard link at the temporary name: today's O_TRUNC open wrote through it.
    @Test func aHardLinkAtTheTemporaryNameIsUnlinkedNotWrittenThrough() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.path + "/state"
        #expect(mkdir(dir, 0o700) == 0)
        let outside = scratch.path + "/outside"
        try AtomicFile.write(outside, Array("outside\n".utf8), mode: 0o644)
        #expect(link(outside, dir + "/bonds.tmp") == 0)
        try AtomicFile.write(dir + "/bonds", Array("bonds\n".utf8))
        #expect(text(outside) == "outside\n")
        #expect(fileStat(outside).map { $0.st_mode & 0o7777 } == 0o644)
        #expect(text(dir + "/bonds") == "bonds\n")
        #expect(!AtomicFile.exists(dir + "/bonds.tmp"))
    }

    /// A stale temporary file (a crash in the middle of a write) is replaced.
    @Test func aStaleRegularTemporaryFileIsReplaced() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path + "/bonds"
        let fd = open(path + ".tmp", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = write(fd, "torn", 4)
        close(fd)
        try AtomicFile.write(path, Array("whole\n".utf8))
        #expect(text(path) == "whole\n")
        #expect(fileStat(path).map { $0.st_mode & 0o7777 } == 0o600)
        #expect(!AtomicFile.exists(path + ".tmp"))
        // Something else at that name (a directory) is refused, with the way out.
        #expect(mkdir(path + ".tmp", 0o700) == 0)
        #expect(throws: HALError.self) { try AtomicFile.write(path, [1]) }
        #expect(text(path) == "whole\n")
    }

    /// Issue 14.2: a group- or world-writable state directory is refused, naming it, its owner and mode.
    @Test func groupOrWorldWritableDirectoryIsRefused() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.path + "/state"
        #expect(mkdir(dir, 0o700) == 0)
        #expect(chmod(dir, 0o777) == 0)
        let me = AtomicFile.userName(geteuid())
        #expect {
            try AtomicFile.write(dir + "/bonds", [1])
        } throws: { error in
            (error as? HALError)?.description == "use the state directory \(dir): it is world-writable (owner \(me), mode 0777): another user could replace the bond file; 'sudo chmod 700 \(dir)'"
        }
        #expect(!AtomicFile.exists(dir + "/bonds") && !AtomicFile.exists(dir + "/bonds.tmp"))
        #expect(chmod(dir, 0o770) == 0)
        #expect(throws: HALError.self) { try AtomicFile.write(dir + "/bonds", [1]) }
        #expect(throws: HALError.self) { try AtomicFile.checkDirectory(dir) }
        // Moving or removing files there is refused as well.
        #expect(chmod(dir, 0o700) == 0)
        try AtomicFile.write(dir + "/bonds", [1])
        #expect(chmod(dir, 0o777) == 0)
        #expect(throws: HALError.self) { try AtomicFile.move(dir + "/bonds", to: dir + "/bonds.corrupt.1") }
        #expect(throws: HALError.self) { try AtomicFile.remove(dir + "/bonds") }
        #expect(AtomicFile.exists(dir + "/bonds") && !AtomicFile.exists(dir + "/bonds.corrupt.1"))
        #expect(chmod(dir, 0o700) == 0)
        try AtomicFile.checkDirectory(dir)
        try AtomicFile.write(dir + "/bonds", [1])
    }

    @Test func directoryOwnershipRule() {
        let mine = FileOwner(uid: 999, gid: 999, mode: 0o700)
        #expect(AtomicFile.problem(with: mine, directory: "/s", euid: 999) == nil)
        #expect(AtomicFile.problem(with: mine, directory: "/s", euid: 0) == nil)  // root writes for the owner
        #expect(AtomicFile.problem(with: FileOwner(uid: 0, gid: 0, mode: 0o755), directory: "/s", euid: 999) == nil)
        let other = AtomicFile.problem(with: mine, directory: "/s", euid: 1000)
        #expect(other?.reason.hasPrefix("it belongs to another user (owner ") == true)
        #expect(other?.reason.hasSuffix(", mode 0700), not to \(AtomicFile.userName(1000)) or root") == true)
        #expect(other?.hint == "run as \(AtomicFile.userName(999)) (the service's User=), as root, or pass --state-dir with a directory of your own")
        #expect(AtomicFile.problem(with: FileOwner(uid: 999, gid: 999, mode: 0o1777), directory: "/s", euid: 0) != nil)
        #expect(AtomicFile.problem(with: FileOwner(uid: 999, gid: 999, mode: 0o750), directory: "/s", euid: 999) == nil)
        #expect(AtomicFile.userName(0) == "root (uid 0)")
        #expect(AtomicFile.userName(4_000_000) == "uid 4000000")
    }

    @Test func moveNeverReplacesAnExistingFile() throws {
        let scratch = ScratchDirectory()
        let a = scratch.path + "/a", b = scratch.path + "/b"
        try AtomicFile.write(a, Array("a".utf8))
        try AtomicFile.write(b, Array("b".utf8))
        #expect { try AtomicFile.move(a, to: b) } throws: { ($0 as? HALError)?.errno == EEXIST }
        #expect(text(a) == "a" && text(b) == "b")
        #expect { try AtomicFile.move(scratch.path + "/none", to: scratch.path + "/c") } throws: { ($0 as? HALError)?.errno == ENOENT }
        try AtomicFile.move(a, to: scratch.path + "/c")
        #expect(!AtomicFile.exists(a) && text(scratch.path + "/c") == "a")
    }

    @Test func readRefusesWhatIsNotARegularFile() throws {
        let scratch = ScratchDirectory()
        #expect(mkfifo(scratch.path + "/fifo", 0o600) == 0)
        #expect(throws: HALError.self) { try AtomicFile.read(scratch.path + "/fifo") }
        #expect(throws: HALError.self) { try AtomicFile.read(scratch.path) }
        #expect(try AtomicFile.read(scratch.path + "/missing") == nil)
    }

    /// Issue 14.4 on a real filesystem: a full tmpfs (8 KiB) fails the write
    /// with ENOSPC, keeps the old file whole and leaves no temporary file.
    @Test func fullDiskFailsTheWriteAndKeepsTheOldFile() throws {
        guard let disk = try TinyDisk() else { return }
        let path = disk.path + "/bonds"
        try AtomicFile.write(path, Array("old bonds\n".utf8))
        disk.fill()
        #expect(AtomicFile.availableBytes(disk.path) == 0)
        #expect {
            try AtomicFile.write(path, [UInt8](repeating: 0x41, count: 6000))
        } throws: { error in
            guard let e = error as? HALError else { return false }
            return e.isOutOfSpace && e.operation.hasSuffix("bonds.tmp")
        }
        #expect(text(path) == "old bonds\n")
        #expect(!AtomicFile.exists(path + ".tmp"))
        #expect(AtomicFile.probeWrite(disk.path)?.isOutOfSpace == true)
        disk.free()
        #expect(AtomicFile.probeWrite(disk.path) == nil)
        #expect((AtomicFile.availableBytes(disk.path) ?? 0) > 0)
        try AtomicFile.write(path, [UInt8](repeating: 0x41, count: 2000))
    }

    @Test func freeSpaceAndWriteProbe() throws {
        let scratch = ScratchDirectory()
        #expect((AtomicFile.availableBytes(scratch.path) ?? 0) > 0)
        #expect(AtomicFile.availableBytes(scratch.path + "/missing") == nil)
        #expect(AtomicFile.probeWrite(scratch.path) == nil)
        #expect(AtomicFile.probeWrite(scratch.path + "/missing") != nil)
        let left = try #require(opendir(scratch.path))
        var names: [String] = []
        while let e = readdir(left) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(left)
        #expect(names.isEmpty, "the probe left \(names)")
    }
}

/// An 8 KiB tmpfs mounted on a scratch directory (root only; nil, with a
/// note, where mounting is not allowed).
final class TinyDisk {
    let scratch = ScratchDirectory()
    var path: String { scratch.path + "/disk" }

    init?() throws {
        guard geteuid() == 0 else {
            print("skipped: mounting a tiny tmpfs needs root")
            return nil
        }
        #expect(mkdir(scratch.path + "/disk", 0o700) == 0)
        guard mount("tmpfs", path, "tmpfs", 0, "size=8k,mode=0700") == 0 else {
            print("skipped: cannot mount a tmpfs here (\(Errno.current))")
            return nil
        }
    }

    /// Fills the filesystem to the last byte.
    func fill() {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let block = [UInt8](repeating: 0, count: 1024)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
    }

    func free() { _ = unlink(path + "/filler") }

    deinit { _ = umount2(path, Int32(MNT_DETACH)) }
}
