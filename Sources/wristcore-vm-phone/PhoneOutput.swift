import LinuxLoop
import Glibc

/// The emulator's machine-readable output: one event per line on stdout,
/// `WORD key=value ...`, flushed at once so the test driver sees it live.
///
///     READY hci=1 addr=00:AA:01:01:00:01
///     SCANNING
///     FOUND addr=4A:.. type=random name="WristCore VM"
///     CONNECTED addr=4A:.. type=random
///     PAIRING passkey=123456 hint=0      (User Confirmation Request; auto-confirmed)
///     BONDED addr=00:AA:01:00:00:00 type=public
///     SECURITY level=secure-connections
///     SESSION started
///     ATTRS uid=1                         (the watch fetched a notification's attributes)
///     APPATTRS                            (the watch fetched an app's display name)
///     DATASOURCE bytes=57 fragments=1
///     ACTION uid=1 action=positive        (Perform Notification Action)
///     DISCONNECTED reason=...
///     LOG <anything the simulated phone logged>
///     ERROR <message>
enum PhoneOutput {
    static func emit(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// Quotes a value for `key="value"` (backslash-escapes quotes and backslashes).
    static func quoted(_ s: String) -> String {
        "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// Machine-readable lines for the simulated phone's log entries the tests wait for.
    static func translate(_ log: String) -> String? {
        let words = log.split(separator: " ")
        if log == "ancs session started" { return "SESSION started" }
        if log == "ancs session ended" { return "SESSION ended" }
        if log.hasPrefix("control point get notification attributes "), let uid = words.last { return "ATTRS uid=\(uid)" }
        if log.hasPrefix("control point get app attributes") { return "APPATTRS" }
        if log.hasPrefix("action "), words.count == 3 { return "ACTION uid=\(words[2]) action=\(words[1])" }
        if log.hasPrefix("data source "), words.count >= 6 { return "DATASOURCE bytes=\(words[2]) fragments=\(words[5])" }
        if log.hasPrefix("add "), words.count >= 2 { return "NOTIFIED uid=\(words[1])" }
        return nil
    }
}
