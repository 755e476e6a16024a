import Notifications

/// A band the detail screen shows over its header when the phone refused
/// the wearer's action on that notification (ANCS 0xA3, or the write
/// failed): "Could not clear", "Could not mark as read" — the label of the
/// button pressed, lower-cased. The notification stays, and its buttons
/// still act. The call screen has its own wording (`CallNotice`).
public struct ActionNotice: Sendable, Equatable {
    /// The notification the action was for: the notice shows only on its detail screen.
    public var uid: NotificationID
    public var action: NotificationAction

    public init(uid: NotificationID, action: NotificationAction) {
        self.uid = uid
        self.action = action
    }

    static let prefix: StaticString = "Could not "

    /// Appends "Could not " and `label` with each word lower-cased, except
    /// words written all in capitals ("OK", "SMS"); only ASCII letters
    /// change, other scripts are kept as the phone sent them.
    static func appendText(label: UnsafeRawBufferPointer, to out: TextScratch) {
        out.append(prefix)
        var i = 0
        while i < label.count {
            var end = i
            while end < label.count && label[end] != UInt8(ascii: " ") { end += 1 }
            var capitals = 0, letters = 0
            for k in i..<end where isASCIILetter(label[k]) {
                letters += 1
                if label[k] <= UInt8(ascii: "Z") { capitals += 1 }
            }
            let keep = letters >= 2 && capitals == letters
            for k in i..<end {
                let b = label[k]
                out.append(byte: !keep && b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b + 32 : b)
            }
            if end < label.count { out.append(byte: UInt8(ascii: " ")) }
            i = end + 1
        }
    }

    private static func isASCIILetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
    }
}
