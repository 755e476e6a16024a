import Graphics
import Notifications

/// What a notification's menu offers, in this order: what its phone takes
/// for it (`NotificationSource.offers`: a canned reply, muting the app on
/// the phone), then the watch's own mutes of its app (for 1 hour, until
/// tomorrow while the time is known, always; not for a call). The model
/// and the renderer both read the entries from here, so they agree.
/// Counting and picking allocate nothing.
public enum NotificationMenu {
    public enum Entry: Int, Sendable, Equatable {
        case reply, muteOnPhone, muteHour, muteUntilTomorrow, muteAlways
    }
    static let entryKinds = 5

    /// Whether `entry` is offered for `uid`; `timeKnown`: the watch knows
    /// the local time ("until tomorrow" needs it).
    public static func offers(_ entry: Entry, for uid: NotificationID, in source: any NotificationSource, hasReplies: Bool,
                              timeKnown: Bool) -> Bool {
        switch entry {
        case .reply: return hasReplies && source.offers(.reply, on: uid)
        case .muteOnPhone: return source.offers(.muteApp, on: uid)
        case .muteHour, .muteAlways, .muteUntilTomorrow:
            guard entry != .muteUntilTomorrow || timeKnown, let n = source.notification(uid) else { return false }
            return n.category != .incomingCall && !n.bytes(.appIdentifier).isEmpty
        }
    }

    /// How many entries the menu for `uid` has.
    public static func count(for uid: NotificationID, in source: any NotificationSource, hasReplies: Bool, timeKnown: Bool) -> Int {
        var n = 0
        for raw in 0..<entryKinds where offers(Entry(rawValue: raw)!, for: uid, in: source, hasReplies: hasReplies, timeKnown: timeKnown) {
            n += 1
        }
        return n
    }

    /// The entry at `index` of the menu for `uid`.
    public static func entry(_ index: Int, for uid: NotificationID, in source: any NotificationSource, hasReplies: Bool,
                             timeKnown: Bool) -> Entry? {
        var n = 0
        for raw in 0..<entryKinds {
            let e = Entry(rawValue: raw)!
            guard offers(e, for: uid, in: source, hasReplies: hasReplies, timeKnown: timeKnown) else { continue }
            if n == index { return e }
            n += 1
        }
        return nil
    }

    static func label(_ entry: Entry) -> StaticString {
        switch entry {
        case .reply: "Reply"
        case .muteOnPhone: "Mute on phone"
        case .muteHour: "Mute 1 hour"
        case .muteUntilTomorrow: "Mute today"
        case .muteAlways: "Mute always"
        }
    }
}

extension ScreenRenderer {
    static let notificationMenuTitle: StaticString = "Notification"
    static let replyTitle: StaticString = "Reply"

    func drawNotificationMenu(_ uid: NotificationID, selected: Int, notifications: any NotificationSource,
                              replies: [String], status: StatusInfo, into fb: Framebuffer) {
        let hasReplies = !replies.isEmpty
        let timeKnown = status.time != nil
        let count = NotificationMenu.count(for: uid, in: notifications, hasReplies: hasReplies, timeKnown: timeKnown)
        guard count > 0 else { return drawNotice(Self.gone.rawBytes, status: status, into: fb) }
        drawMenu(Self.notificationMenuTitle, count: count, selected: selected, status: status, into: fb) {
            NotificationMenu.label(NotificationMenu.entry($0, for: uid, in: notifications, hasReplies: hasReplies, timeKnown: timeKnown) ?? .muteAlways)
        }
    }

    func drawReplyPicker(selected: Int, replies: [String], status: StatusInfo, into fb: Framebuffer) {
        drawMenu(Self.replyTitle, count: replies.count, selected: selected, status: status, into: fb) { i, draw in
            var text = replies[i]
            text.withUTF8 { draw(UnsafeRawBufferPointer($0)) }
        }
    }
}
