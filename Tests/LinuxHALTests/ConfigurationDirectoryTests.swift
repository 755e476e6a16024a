import Glibc
import HAL
import Testing
@testable import LinuxHAL

/// `wristcore setup --to`'s rule (`AtomicFile.DirectoryUse.configuration`):
/// a board file the service runs with is installed only into a directory
/// that its owner alone can write, sticky bit or not, and whose owner is
/// root or the user installing it — root included.
@Suite(.serialized) struct ConfigurationDirectoryTests {
    func problem(uid: uid_t, mode: mode_t, euid: uid_t) -> HALError? {
        AtomicFile.problem(with: FileOwner(uid: uid, gid: uid, mode: mode), directory: "/d", euid: euid, use: .configuration)
    }

    @Test func onlyItsOwnerMayWriteIt() {
        // /etc/wristcore (root, 0755), and a directory of the user's own.
        #expect(problem(uid: 0, mode: 0o755, euid: 0) == nil)
        #expect(problem(uid: 0, mode: 0o755, euid: 999) == nil)
        #expect(problem(uid: 999, mode: 0o700, euid: 999) == nil)
        // /tmp: world-writable with the sticky bit is refused all the same, for root too.
        let shared = problem(uid: 0, mode: 0o1777, euid: 0)
        #expect(shared?.description == "use the directory /d: it is world-writable (owner root (uid 0), mode 1777): "
            + "other users may create files there, and the service could read one of theirs; "
            + "a shared directory such as /tmp is refused even with its sticky bit: choose a directory only root or you can write")
        #expect(shared?.errno == 0)
        let group = problem(uid: 999, mode: 0o775, euid: 999)
        #expect(group?.reason.hasPrefix("it is group-writable (owner ") == true)
        #expect(group?.reason.hasSuffix(", mode 0775): another user could replace the installed file") == true)
        #expect(group?.hint == "'chmod go-w /d' as its owner, or choose a directory only root or you can write")
        #expect(problem(uid: 999, mode: 0o777, euid: 999) != nil)
        #expect(problem(uid: 999, mode: 0o1770, euid: 999) != nil)
    }

    @Test func rootDoesNotInstallIntoAnotherUsersDirectory() {
        // Unlike the state directory, where root writes for the service user.
        #expect(AtomicFile.problem(with: FileOwner(uid: 999, gid: 999, mode: 0o755), directory: "/d", euid: 0) == nil)
        let other = problem(uid: 999, mode: 0o755, euid: 0)
        #expect(other?.reason == "it belongs to another user (owner \(AtomicFile.userName(999)), mode 0755), not to root: they could replace the installed file")
        #expect(other?.hint == "choose a directory of root's or your own")
        let notMine = problem(uid: 999, mode: 0o755, euid: 1000)
        #expect(notMine?.reason.hasSuffix("not to \(AtomicFile.userName(1000)) or root: they could replace the installed file") == true)
    }

    /// The writer checks the directory it writes through: nothing is created
    /// in a sticky world-writable directory, not even the temporary file.
    @Test func nothingIsWrittenIntoASharedDirectory() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.path + "/shared"
        #expect(mkdir(dir, 0o700) == 0)
        #expect(chmod(dir, 0o1777) == 0)
        #expect { try AtomicFile.write(dir + "/board.json", [1], mode: 0o644, use: .configuration) } throws: { error in
            (error as? HALError)?.hint?.contains("refused even with its sticky bit") == true
        }
        #expect(throws: HALError.self) { try AtomicFile.checkDirectory(dir, use: .configuration) }
        #expect(!AtomicFile.exists(dir + "/board.json") && !AtomicFile.exists(dir + "/board.json.tmp"))
        #expect(chmod(dir, 0o755) == 0)
        try AtomicFile.write(dir + "/board.json", [1], mode: 0o644, use: .configuration)
        let s = try #require(fileStat(dir + "/board.json"))
        #expect(s.st_mode & 0o7777 == 0o644 && s.st_uid == geteuid())
    }
}
