import CLinux
import HAL

/// What the process was started with that start-up code searches by (font
/// and scenario directories): environment variables, the executable's path,
/// the working directory. Read through LinuxHAL so no module above it needs
/// Foundation's ProcessInfo or FileManager.
public enum CurrentProcess {
    /// An environment variable's value, nil when unset.
    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The running executable's absolute path (/proc/self/exe).
    public static var executablePath: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = buffer.withUnsafeMutableBytes { readlink("/proc/self/exe", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    /// The process's name as the kernel keeps it (/proc/self/comm: what
    /// `ps`, `top` and `pgrep` show), at most 15 bytes; nil if unreadable.
    public static var name: String? {
        guard let bytes = try? FileBytes.readIfPresent("/proc/self/comm", limit: 64) else { return nil }
        let text = bytes.prefix { $0 != 0x0A && $0 != 0 }
        return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }

    /// Sets the process's name (PR_SET_NAME; the kernel keeps the first 15 bytes).
    public static func setName(_ name: String) throws(HALError) {
        if wc_set_process_name(name) != 0 { throw Errno.current.halError("set the process name to \(name)") }
    }

    /// The working directory, nil when it cannot be named (deleted, or too long).
    public static var currentDirectory: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let ok = buffer.withUnsafeMutableBytes { getcwd($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) != nil }
        guard ok, let end = buffer.firstIndex(of: 0) else { return nil }
        return String(decoding: buffer[..<end], as: UTF8.self)
    }
}
