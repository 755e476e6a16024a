import CLinux

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

    /// The working directory, nil when it cannot be named (deleted, or too long).
    public static var currentDirectory: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let ok = buffer.withUnsafeMutableBytes { getcwd($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) != nil }
        guard ok, let end = buffer.firstIndex(of: 0) else { return nil }
        return String(decoding: buffer[..<end], as: UTF8.self)
    }
}
