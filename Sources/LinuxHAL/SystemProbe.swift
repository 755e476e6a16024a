import CLinux
import HAL

/// Read-only checks of the system that `wristcore doctor` reports on.
public enum SystemProbe {
    public enum Access: Equatable, Sendable {
        case ok
        case missing
        case permissionDenied
        case other(Errno)
    }

    /// Whether `path` exists and can be opened for reading and writing by this process.
    public static func deviceAccess(_ path: String) -> Access {
        if access(path, F_OK) != 0 { return .missing }
        if access(path, R_OK | W_OK) != 0 {
            let e = Errno.current
            return e == .permissionDenied ? .permissionDenied : .other(e)
        }
        return .ok
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether a process with this command name (as in /proc/PID/comm) is running.
    public static func isProcessRunning(_ command: String) -> Bool {
        guard let dir = opendir("/proc") else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard let first = name.utf8.first, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"), let f = fopen("/proc/\(name)/comm", "r") else { continue }
            var buf = [CChar](repeating: 0, count: 64)
            let got = fgets(&buf, 64, f) != nil
            fclose(f)
            if got, String(decoding: buf.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == command { return true }
        }
        return false
    }

    public static var isRoot: Bool { geteuid() == 0 }
}
