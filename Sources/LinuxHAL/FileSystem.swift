import Glibc

/// What start-up code asks of the file system when it looks for its data
/// (fonts, board files, scenarios): does a path exist, is it a regular
/// file, what does a directory hold. Nothing here opens a file for reading
/// or writing (that is `FileBytes`).
public enum FileSystem {
    /// True when `path` names anything (a file, a directory, a device...).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// True when `path` is a regular file (symlinks followed).
    public static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in a directory (without "." and ".."), unsorted; empty when
    /// it cannot be read.
    public static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
