import HAL

/// The request to power the board off (the watch's battery is empty). The
/// daemon, unprivileged, only creates a file in its runtime directory;
/// the package's `wristcore-poweroff.path` unit turns it into `systemctl
/// poweroff` (docs/battery.md). `/run` is empty after a boot, so a request
/// never outlives one.
public enum PowerOffRequest {
    /// `$RUNTIME_DIRECTORY/power-off` (systemd's `RuntimeDirectory=`); nil
    /// when the daemon was not started by systemd.
    public static var defaultPath: String? {
        CurrentProcess.environment("RUNTIME_DIRECTORY")?.split(separator: ":").first.map { String($0) + "/power-off" }
    }

    /// Creates the request at `path`, owner-only, never through a link or
    /// over a file (`O_EXCL|O_NOFOLLOW`); false when it is already there.
    public static func make(at path: String) throws(HALError) -> Bool {
        try FileBytes.createExclusive(Array("battery empty\n".utf8), at: path)
    }
}
