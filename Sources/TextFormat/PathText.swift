/// Path strings as start-up code needs them, without Foundation: the
/// directory holding a path, its last component and a path inside a directory. Text only: no
/// file is looked at.
public enum PathText {
    /// The directory holding `path`: trailing slashes ignored, "/" for a
    /// top-level entry, "." for a bare name. `levels` up: 2 is the
    /// directory holding that one, and so on.
    public static func parent(_ path: String, levels: Int = 1) -> String {
        var p = path
        for _ in 0..<levels {
            while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
            guard let slash = p.lastIndex(of: "/") else { return "." }
            if slash == p.startIndex { return "/" }
            p = String(p[..<slash])
        }
        return p
    }

    /// The last component of `path` (`rpi5.json` of `Boards/rpi5.json`), the
    /// path itself when it has no slash.
    public static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `name` inside `directory`, with one slash between them.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The path of a `unix:PATH` endpoint option (`--harness`, `--phone`);
    /// nil when the option was not given.
    public static func unixEndpoint(_ spec: String?, flag: String) throws(WristCoreFailure) -> String? {
        guard let spec else { return nil }
        guard spec.hasPrefix("unix:"), spec.count > 5 else {
            throw WristCoreFailure("\(flag) takes unix:PATH (for example \(flag) unix:/tmp/wristcore-\(flag.dropFirst(2)).sock), not '\(spec)'", exitCode: WristCoreExit.usageOrConfiguration)
        }
        return String(spec.dropFirst(5))
    }
}
