import CLinux
import HAL
import TextFormat

/// Small files that must never be seen half-written (the bond store), in a
/// state directory that root may write to as well as the service user.
///
/// Each write goes to `<name>.tmp` in the same directory, created with
/// `O_CREAT|O_EXCL|O_NOFOLLOW` relative to the opened directory (a symlink or
/// any other file planted at that name is never opened, let alone followed),
/// is fsynced, renamed over `<name>`, and the directory is fsynced: after a
/// crash or power loss the file is either the old or the new complete
/// version. A stale `.tmp` left by a crash (a regular file owned by this
/// user or by the directory's owner) is removed first; anything else at that
/// name is refused with the way to fix it.
///
/// The directory must be safe to write into: not group- or world-writable
/// (the sticky bit does not make a shared directory such as /tmp one), and
/// owned by the running user or root. Root may write into any owner's state
/// directory, not into another user's configuration directory
/// (`DirectoryUse`). When root writes, the new file gets the directory
/// owner's uid and gid, so `sudo wristcore forget` leaves a file the service
/// user (User=wristcore) can still read.
public enum AtomicFile {
    /// What a directory written into is for: the rule is one, the words of
    /// a refusal (and whose directory root may write into) differ.
    public enum DirectoryUse: Sendable {
        /// The state directory (bonds, Do Not Disturb): root writes into it
        /// for the service user who owns it.
        case state
        /// Where a configuration file is installed (`wristcore setup --to`):
        /// root's or the running user's own directory only, since whoever
        /// owns or may write the directory decides what the service reads.
        case configuration
    }

    /// The whole file, or nil when it does not exist: `FileBytes`' reader
    /// (a regular file only, opened without blocking, at most `limit` bytes).
    public static func read(_ path: String, limit: Int = 1 << 20) throws(HALError) -> [UInt8]? {
        try FileBytes.readIfPresent(path, limit: limit)
    }

    /// The suffix of the temporary file next to the one being replaced.
    public static let temporarySuffix = ".tmp"

    /// Replaces `path` with `bytes` atomically and durably, with `mode`
    /// (default 0600), owned by the directory's owner when written by root.
    /// The directory is checked for `use` on the descriptor the file is
    /// then created in (no window to swap it).
    public static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600, use: DirectoryUse = .state) throws(HALError) {
        let (directory, name) = split(path)
        let dfd = try openDirectory(directory)
        defer { _ = CLinux.close(dfd) }
        let owner = try checkedDirectory(dfd, directory, use: use)
        let temporary = name + temporarySuffix
        let temporaryPath = PathText.join(directory, temporary)
        let fd = try createExclusively(temporary, in: dfd, directory: directory, owner: owner, mode: mode)
        var ok = false
        defer {
            if !ok {
                _ = CLinux.close(fd)
                _ = unlinkat(dfd, temporary, 0)
            }
        }
        // Root writing into the service user's directory: the file is theirs.
        // Only when it is someone else's: a chown is a privileged call the
        // unit's system call filter refuses (root's own directory needs none).
        if geteuid() == 0 && (owner.uid != 0 || owner.gid != getegid()) && fchown(fd, owner.uid, owner.gid) != 0 {
            throw Errno.current.halError("chown \(temporaryPath) to \(userName(owner.uid)):\(owner.gid)")
        }
        // The umask may have cleared bits.
        if fchmod(fd, mode) != 0 { throw Errno.current.halError("chmod \(temporaryPath)") }
        try FileBytes.writeAll(fd, bytes, path: temporaryPath)
        if fsync(fd) != 0 { throw Errno.current.halError("fsync \(temporaryPath)") }
        let closed = CLinux.close(fd)
        ok = true
        if closed != 0 {
            let e = Errno.current
            _ = unlinkat(dfd, temporary, 0)
            throw e.halError("close \(temporaryPath)")
        }
        if renameat(dfd, temporary, dfd, name) != 0 {
            let e = Errno.current
            _ = unlinkat(dfd, temporary, 0)
            throw e.halError("rename \(temporaryPath) to \(path)")
        }
        if fsync(dfd) != 0 { throw Errno.current.halError("fsync directory \(directory)") }
    }

    /// Removes `path` (missing is fine) durably; its directory must pass `checkDirectory`.
    public static func remove(_ path: String) throws(HALError) {
        try checkDirectory(split(path).directory)
        if unlink(path) != 0 {
            let e = Errno.current
            if e == .noEntry { return }
            throw e.halError("remove \(path)")
        }
        try syncDirectory(of: path)
    }

    /// Whether something (a file, a directory, a symlink, even a dangling one) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var s = stat()
        return lstat(path, &s) == 0
    }

    /// Renames a file (for keeping a corrupt file aside), never replacing an
    /// existing `to` (that fails with EEXIST); the directory of `to` must
    /// pass `checkDirectory`.
    public static func move(_ from: String, to: String) throws(HALError) {
        try checkDirectory(split(to).directory)
        // link(2) refuses an existing destination atomically; filesystems
        // without hard links (and protected_hardlinks on a file of another
        // user) fall back to a check and rename(2).
        if link(from, to) == 0 {
            if unlink(from) != 0 { throw Errno.current.halError("remove \(from) (kept as \(to))") }
        } else {
            let e = Errno.current
            if e.rawValue == EEXIST || e == .noEntry { throw e.halError("rename \(from) to \(to)") }
            if exists(to) { throw Errno(EEXIST).halError("rename \(from) to \(to)") }
            if rename(from, to) != 0 { throw Errno.current.halError("rename \(from) to \(to)") }
        }
        try syncDirectory(of: to)
    }

    /// Creates `path` (and missing parents) with `mode` when it does not exist.
    public static func ensureDirectory(_ path: String, mode: mode_t = 0o700) throws(HALError) {
        try FileSystem.createDirectories(path, mode: mode)
    }

    /// Whether this process may create files in `path` (an existing directory).
    public static func isWritableDirectory(_ path: String) -> Bool {
        var s = stat()
        return stat(path, &s) == 0 && (s.st_mode & wc_s_ifmt()) == wc_s_ifdir() && access(path, W_OK | X_OK) == 0
    }

    /// The permission bits of `path`, or nil when it does not exist.
    public static func mode(of path: String) -> mode_t? {
        var s = stat()
        return stat(path, &s) == 0 ? s.st_mode & 0o7777 : nil
    }

    /// Owner and permission bits of `path` (symlinks followed), or nil when it does not exist.
    public static func owner(of path: String) -> FileOwner? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        return FileOwner(uid: s.st_uid, gid: s.st_gid, mode: s.st_mode & 0o7777)
    }

    // MARK: - the state directory's safety

    /// Checks that files may safely be written into `directory` (see the
    /// type's documentation); the error names the directory, its owner and
    /// mode, and how to fix it.
    public static func checkDirectory(_ directory: String, use: DirectoryUse = .state) throws(HALError) {
        let dfd = try openDirectory(directory)
        defer { _ = CLinux.close(dfd) }
        _ = try checkedDirectory(dfd, directory, use: use)
    }

    /// The rule on an opened directory's owner and mode; returns them.
    static func checkedDirectory(_ dfd: Int32, _ directory: String, use: DirectoryUse = .state) throws(HALError) -> FileOwner {
        var s = stat()
        if fstat(dfd, &s) != 0 { throw Errno.current.halError("stat \(directory)") }
        let owner = FileOwner(uid: s.st_uid, gid: s.st_gid, mode: s.st_mode & 0o7777)
        if let problem = problem(with: owner, directory: directory, euid: geteuid(), use: use) { throw problem }
        return owner
    }

    /// Pure: what is wrong with a directory owned and moded so, for a
    /// process running as `euid` writing into it for `use` (nil when it is
    /// fine). One rule, its words by use: writable by its owner only (for a
    /// configuration directory the sticky bit is no exception: in /tmp
    /// anyone may take the name first, or again after a reboot empties it),
    /// and owned by the running user or root; root writes into the service
    /// user's state directory for them, never into another user's
    /// configuration directory.
    public static func problem(with owner: FileOwner, directory: String, euid: uid_t, use: DirectoryUse = .state) -> HALError? {
        // Names are looked up (NSS) only when something is wrong.
        var who: String { "owner \(userName(owner.uid)), mode \(octal(owner.mode))" }
        let state = use == .state
        let operation = state ? "use the state directory \(directory)" : "use the directory \(directory)"
        if owner.mode & 0o022 != 0 {
            let shared = !state && owner.mode & 0o1002 == 0o1002
            let risk =
                state ? "another user could replace the bond file"
                : shared ? "other users may create files there, and the service could read one of theirs"
                : "another user could replace the installed file"
            let hint =
                state ? "'sudo chmod 700 \(directory)'"
                : shared ? "a shared directory such as /tmp is refused even with its sticky bit: choose a directory only root or you can write"
                : "'chmod go-w \(directory)' as its owner, or choose a directory only root or you can write"
            return HALError(
                operation: operation, errno: 0, reason: "it is \(owner.mode & 0o002 != 0 ? "world" : "group")-writable (\(who)): \(risk)", hint: hint)
        }
        guard owner.uid != euid && owner.uid != 0 && (euid != 0 || !state) else { return nil }
        let notTo = euid == 0 ? "root" : userName(euid) + " or root"
        return HALError(
            operation: operation, errno: 0,
            reason: "it belongs to another user (\(who)), not to \(notTo)" + (state ? "" : ": they could replace the installed file"),
            hint: state
                ? "run as \(userName(owner.uid)) (the service's User=), as root, or pass --state-dir with a directory of your own"
                : "choose a directory of root's or your own")
    }

    // MARK: - free space

    /// Bytes an unprivileged user may still write on the filesystem holding
    /// `path` (statvfs f_bavail × f_frsize), or nil when it cannot be read.
    public static func availableBytes(_ path: String) -> UInt64? {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        return UInt64(s.f_bavail) &* UInt64(s.f_frsize)
    }

    /// Tries what the bond store does, as the running user: creates a small
    /// file in `directory` (exclusively, unique name), writes, fsyncs and
    /// removes it. nil when that worked.
    public static func probeWrite(_ directory: String) -> HALError? {
        let dfd: Int32
        do { dfd = try openDirectory(directory) } catch { return error }
        defer { _ = CLinux.close(dfd) }
        let name = ".wristcore-doctor-\(getpid())"
        let fd = wc_openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 { return Errno.current.halError("create a file in \(directory)") }
        defer {
            _ = CLinux.close(fd)
            _ = unlinkat(dfd, name, 0)
        }
        let block = [UInt8](repeating: 0x0A, count: 512)
        let n = block.withUnsafeBytes { CLinux.write(fd, $0.baseAddress, $0.count) }
        if n < 0 { return Errno.current.halError("write a file in \(directory)") }
        if fsync(fd) != 0 { return Errno.current.halError("fsync a file in \(directory)") }
        return nil
    }

    // MARK: - helpers

    static func openDirectory(_ directory: String) throws(HALError) -> Int32 {
        let dfd = wc_open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        if dfd < 0 { throw Errno.current.halError("open directory \(directory)") }
        return dfd
    }

    /// Creates `name` in the directory `dfd` exclusively, never through a
    /// symlink. Something already there is removed only when it is a
    /// regular file this user (or the directory's owner) left, e.g. by a
    /// crash in the middle of a write.
    static func createExclusively(_ name: String, in dfd: Int32, directory: String, owner: FileOwner, mode: mode_t) throws(HALError) -> Int32 {
        let path = PathText.join(directory, name)
        for _ in 0..<3 {
            let fd = wc_openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            let e = Errno.current
            if e == .interrupted { continue }
            guard e.rawValue == EEXIST else { throw e.halError("create \(path)") }
            var s = stat()
            if fstatat(dfd, name, &s, AT_SYMLINK_NOFOLLOW) != 0 {
                if Errno.current == .noEntry { continue }  // gone meanwhile
                throw Errno.current.halError("stat \(path)")
            }
            let regular = (s.st_mode & wc_s_ifmt()) == wc_s_ifreg()
            guard regular && (s.st_uid == geteuid() || s.st_uid == owner.uid) else {
                throw HALError(
                    operation: "create \(path)", errno: EEXIST,
                    reason: "a \(kind(of: s.st_mode)) owned by \(userName(s.st_uid)) is in the way; not writing through it",
                    hint: "remove it if you did not put it there: 'sudo rm \(path)'")
            }
            // A temporary file left by an interrupted write.
            if unlinkat(dfd, name, 0) != 0 && Errno.current != .noEntry {
                throw Errno.current.halError("remove the stale \(path)")
            }
        }
        throw Errno(EEXIST).halError("create \(path)", hint: "something keeps re-creating it; look at \(directory)")
    }

    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    static func syncDirectory(of path: String) throws(HALError) {
        let directory = split(path).directory
        let fd = try openDirectory(directory)
        defer { _ = CLinux.close(fd) }
        if fsync(fd) != 0 { throw Errno.current.halError("fsync directory \(directory)") }
    }

    static func kind(of mode: mode_t) -> String {
        switch mode & wc_s_ifmt() {
        case wc_s_ifreg(): "regular file"
        case wc_s_ifdir(): "directory"
        case wc_s_iflnk(): "symbolic link"
        case wc_s_ififo(): "FIFO"
        case wc_s_ifsock(): "socket"
        case wc_s_ifchr(): "character device"
        case wc_s_ifblk(): "block device"
        default: "special file"
        }
    }

    /// "wristcore (uid 999)", or "uid 999" without a passwd entry.
    public static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1024)
        let rc = buffer.withUnsafeMutableBufferPointer { getpwuid_r(uid, &entry, $0.baseAddress!, $0.count, &result) }
        guard rc == 0, result != nil, let name = entry.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }

    static func octal(_ mode: mode_t) -> String {
        let s = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

/// Who owns a file, and its permission bits.
public struct FileOwner: Equatable, Sendable {
    public var uid: uid_t
    public var gid: gid_t
    public var mode: mode_t
    public init(uid: uid_t, gid: gid_t, mode: mode_t) {
        self.uid = uid
        self.gid = gid
        self.mode = mode
    }
}
