import ANCS
import Notifications

/// The list the history file kept (`NotificationHistory`), taken up at
/// start before any phone connected: a store of "previous session"
/// notifications that the watch shows, and that the first phone session's
/// ANCS store adopts to reconcile (`PhoneSession.adoptRestoredHistory`).
public final class RestoredNotifications {
    let consumer: NotificationConsumer

    /// The restored list, as the screens read it.
    public var notifications: any NotificationSource { consumer }
    /// Entries taken (calls, entries with nothing to show and those beyond
    /// the store's capacity are left out).
    public var count: Int { consumer.notificationCount }

    /// - Parameter configuration: the phone sessions' consumer configuration
    ///   (the store's capacities); subtitles are kept whatever it says.
    public init(_ entries: [NotificationHistory.Entry], configuration: NotificationConsumer.Configuration = .init()) {
        var c = configuration
        c.fetchSubtitle = true
        c.liveness = nil
        consumer = NotificationConsumer(configuration: c)
        consumer.restorePreviousSession(entries)
    }
}

extension PhoneSession {
    /// This session's store takes over the list restored from the history
    /// file (before the session starts, as with `adoptPreviousSession`).
    public func adoptRestoredHistory(_ restored: RestoredNotifications) {
        ancs.adoptPreviousSession(from: restored.consumer)
    }
}
