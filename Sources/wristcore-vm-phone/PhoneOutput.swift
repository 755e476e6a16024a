import LinuxLoop
import CLinux

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
///     AMS subscribed characteristic=remote-command|entity-update
///     AMS registered entity=2 attributes=0,1,2,3     (an Entity Update registration)
///     AMS truncated entity=2 attribute=2 sent=179 of=207   (a value cut to fit a notification)
///     AMS selected entity=2 attribute=2   (an Entity Attribute write)
///     AMS read bytes=207                  (the watch read Entity Attribute)
///     AMS command name=toggle             (a Remote Command; refused: AMS command-refused bytes=3 error=0xA0)
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
        var out = "\""
        for c in s {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
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
        if log.hasPrefix("ams ") { return translateAMS(log, words) }
        return nil
    }

    /// The Media Source's log entries (SimulatedPhone+AMS.swift) as `AMS ...` lines.
    static func translateAMS(_ log: String, _ words: [Substring]) -> String? {
        switch log {
        case "ams remote command subscribed": return "AMS subscribed characteristic=remote-command"
        case "ams entity update subscribed": return "AMS subscribed characteristic=entity-update"
        case "ams remote command unsubscribed": return "AMS unsubscribed characteristic=remote-command"
        case "ams entity update unsubscribed": return "AMS unsubscribed characteristic=entity-update"
        default: break
        }
        // ams registered entity 2 attributes 0,1,2,3
        if log.hasPrefix("ams registered entity "), words.count == 6 { return "AMS registered entity=\(words[3]) attributes=\(words[5])" }
        // ams entity update 2 2 truncated at 179 of 207 bytes
        if log.hasPrefix("ams entity update "), words.count == 11, words[5] == "truncated" {
            return "AMS truncated entity=\(words[3]) attribute=\(words[4]) sent=\(words[7]) of=\(words[9])"
        }
        // ams entity attribute read 207 bytes
        if log.hasPrefix("ams entity attribute read "), words.count == 6 { return "AMS read bytes=\(words[4])" }
        // ams entity attribute 2 2
        if log.hasPrefix("ams entity attribute "), words.count == 5 { return "AMS selected entity=\(words[3]) attribute=\(words[4])" }
        // ams remote command 3 -> error 0xA0
        if log.hasPrefix("ams remote command "), let arrow = words.firstIndex(of: "->"), words.count == arrow + 3 {
            return "AMS command-refused bytes=\(words[3..<arrow].joined(separator: ",")) error=\(words[arrow + 2])"
        }
        // ams remote command toggle
        if log.hasPrefix("ams remote command "), words.count == 4 { return "AMS command name=\(words[3])" }
        return nil
    }
}
