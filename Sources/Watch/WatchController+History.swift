import HAL
import Log
import Notifications
import PhoneServices
import Screens
import WearerSettings

/// The notification list across restarts (docs/settings.md, "Notification
/// history"): the daemon hands over what the history file kept and where
/// to keep the list from now on.
extension WatchController {
    /// Shows `entries` (the history file's, oldest first) as kept from a
    /// previous session until the first phone's session reconciles them,
    /// and keeps every later change of the list through `storage`. Content
    /// the wearer's rules hide (an app's or a filter's) is written without its text. Call once,
    /// at start-up, before a phone connects.
    public func keepHistory(restoring entries: [NotificationHistory.Entry], storage: NotificationHistoryKeeper.Storage) {
        if !entries.isEmpty, session == nil {
            let restored = RestoredNotifications(entries)
            if restored.count > 0 {
                restoredHistory = restored
                model.restoredListShown(restored.notifications)
                logger.info("notification list restored: \(restored.count) notification(s) from before the restart")
            }
        }
        history = NotificationHistoryKeeper(loop: loop, logger: logger, storage: storage) { [unowned(unsafe) self] in
            let rules = self.model.userSettings
            let anyHidden = rules.hasHideContent  // once per write, not once per notification
            return NotificationHistory.encode(self.model.notifications) { anyHidden && rules.hidesContent($0) }
        }
        afterInput()
    }

    /// Deletes the history file (the harness's `history clear`); the list
    /// restored from it, while no phone has taken it over, goes too. False
    /// without a history kept, or when the file could not be deleted.
    public func clearHistory() -> Bool {
        guard let history else { return false }
        if restoredHistory != nil, session == nil {
            restoredHistory = nil
            model.restoredListShown(NoNotifications())
            afterInput()
        }
        return history.clear()
    }
}

extension WatchModel {
    /// Shows `store` (the list restored from the history file) while no
    /// phone is connected.
    func restoredListShown(_ store: any NotificationSource) {
        guard !isPhoneConnected else { return }
        notifications = store
        notificationsCleared()
        listSelection = 0
        switch screen {
        case .list, .detail, .notificationMenu, .replyPicker:
            screen = store.notificationCount > 0 ? .list(selected: 0) : .waitingForPhone
        default: break
        }
        requestRender()
    }
}
