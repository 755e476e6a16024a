import Graphics
import Notifications

/// What a notification's menu offers: the requests its phone takes for it
/// (`NotificationSource.offers`), in this order. The model and the
/// renderer both read the entries from here, so they agree.
public enum NotificationMenu {
    /// The entries for `uid`: reply (when there are replies to choose from),
    /// then mute its app.
    public static func entries(for uid: NotificationID, in source: any NotificationSource, hasReplies: Bool)
        -> (count: Int, first: NotificationRequest?)
    {
        let reply = hasReplies && source.offers(.reply, on: uid)
        let mute = source.offers(.muteApp, on: uid)
        return ((reply ? 1 : 0) + (mute ? 1 : 0), reply ? .reply : mute ? .muteApp : nil)
    }

    /// The request at `index` of the menu for `uid`.
    public static func entry(_ index: Int, for uid: NotificationID, in source: any NotificationSource, hasReplies: Bool)
        -> NotificationRequest?
    {
        let (count, first) = entries(for: uid, in: source, hasReplies: hasReplies)
        guard index >= 0, index < count, let first else { return nil }
        return index == 0 ? first : .muteApp
    }

    static func label(_ request: NotificationRequest) -> StaticString {
        request == .reply ? "Reply" : "Mute this app"
    }
}

extension ScreenRenderer {
    static let notificationMenuTitle: StaticString = "Notification"
    static let replyTitle: StaticString = "Reply"

    func drawNotificationMenu(_ uid: NotificationID, selected: Int, notifications: any NotificationSource,
                              replies: [String], status: StatusInfo, into fb: Framebuffer) {
        let hasReplies = !replies.isEmpty
        let count = NotificationMenu.entries(for: uid, in: notifications, hasReplies: hasReplies).count
        guard count > 0 else { return drawNotice(Self.gone.rawBytes, status: status, into: fb) }
        drawMenu(Self.notificationMenuTitle, count: count, selected: selected, status: status, into: fb) {
            NotificationMenu.label(NotificationMenu.entry($0, for: uid, in: notifications, hasReplies: hasReplies) ?? .muteApp)
        }
    }

    func drawReplyPicker(selected: Int, replies: [String], status: StatusInfo, into fb: Framebuffer) {
        drawMenu(Self.replyTitle, count: replies.count, selected: selected, status: status, into: fb) { i, draw in
            var text = replies[i]
            text.withUTF8 { draw(UnsafeRawBufferPointer($0)) }
        }
    }
}
