import CLinux
import HAL
import TextFormat

/// Bytes one image of the daemon hands to the next across a restart in
/// place (SIGHUP, `execv`): the board and settings files exactly as the old
/// image read and validated them, so a file replaced in the milliseconds
/// between the check and the exec cannot stop the watch. Each is a memfd
/// left open across `execv`, named by an environment variable
/// (`WRISTCORE_HANDOFF_BOARD=7`); "absent" says there was no such file.
public enum RestartHandoff {
    public static let boardVariable = "WRISTCORE_HANDOFF_BOARD"
    public static let settingsVariable = "WRISTCORE_HANDOFF_SETTINGS"
    /// The process's name (/proc/self/comm) before the restart, so the new
    /// image keeps it whatever path it was started through.
    public static let nameVariable = "WRISTCORE_HANDOFF_NAME"

    /// What the previous image handed over for one file.
    public enum Handed: Equatable {
        /// Nothing handed over (a first start): read the file.
        case nothing
        /// The file did not exist when it was checked.
        case absent
        case bytes([UInt8])
    }

    /// Hands `bytes` (nil: the file was absent) to the next image as `variable`.
    public static func hand(_ bytes: [UInt8]?, as variable: String) throws(HALError) {
        guard let bytes else {
            if setenv(variable, "absent", 1) != 0 { throw Errno.current.halError("setenv \(variable)") }
            return
        }
        // No MFD_CLOEXEC: the descriptor must survive execv.
        let fd = wc_memfd_create(memfdName, 0)
        if fd < 0 { throw Errno.current.halError("memfd_create") }
        do throws(HALError) { try FileBytes.writeAll(fd, bytes, path: "the handoff of \(variable)") } catch {
            _ = CLinux.close(fd)
            throw error
        }
        if setenv(variable, String(fd), 1) != 0 {
            let e = Errno.current
            _ = CLinux.close(fd)
            throw e.halError("setenv \(variable)")
        }
    }

    /// Takes what the previous image handed over as `variable`, once: the
    /// variable is removed and the descriptor closed (a child started later
    /// sees neither). At most `limit` bytes; anything that is not a memfd
    /// this process holds (a variable set by hand) is `.nothing`.
    public static func take(_ variable: String, limit: Int) -> Handed {
        guard let raw = getenv(variable) else { return .nothing }
        let value = String(cString: raw)
        _ = unsetenv(variable)
        if value == "absent" { return .absent }
        // Only a descriptor that is one of ours (a variable set by hand could
        // name any inherited one): left alone otherwise.
        guard let fd = IntegerText.integer(value, in: 3...Int64(Int32.max)).map({ Int32($0) }), isHandoff(fd) else { return .nothing }
        defer { _ = CLinux.close(fd) }
        guard lseek(fd, 0, SEEK_SET) == 0,
            let status = try? FileBytes.regularFileStatus(fd, variable),
            let bytes = try? FileBytes.readAll(fd, status, path: variable, limit: limit)
        else {
            return .nothing
        }
        return .bytes(bytes)
    }

    /// Hands this process's name (`wristcore`, as `ps` shows it) to the next image.
    public static func handName() {
        guard let name = CurrentProcess.name else { return }
        _ = setenv(nameVariable, name, 1)
    }

    /// Gives this image the name the previous one had (`handName`), once:
    /// an exec names a process after the file it started (`exe` for
    /// /proc/self/exe). Nothing to do on a first start.
    public static func takeName() {
        guard let raw = getenv(nameVariable) else { return }
        let name = String(cString: raw)
        _ = unsetenv(nameVariable)
        guard !name.isEmpty, name.utf8.count <= 15, name != CurrentProcess.name else { return }
        try? CurrentProcess.setName(name)
    }

    private static let memfdName = "wristcore-handoff"

    /// Whether `fd` is a memfd `hand` made ("/memfd:wristcore-handoff (deleted)").
    private static func isHandoff(_ fd: Int32) -> Bool {
        var target = [UInt8](repeating: 0, count: 128)
        let n = target.withUnsafeMutableBytes {
            readlink("/proc/self/fd/\(fd)", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1)
        }
        guard n > 0 else { return false }
        return target[0..<n].starts(with: Array("/memfd:\(memfdName)".utf8))
    }
}
