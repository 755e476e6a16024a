import Notifications
import Screens

/// How far a notification's detail screen scrolls: a question about text
/// layout, answered by the renderer (tests answer it themselves).
public protocol NotificationDetailLayout: AnyObject {
    /// The last first-body-line index that still fills the screen (0: it fits).
    func detailMaxScroll(_ uid: NotificationID, notifications: any NotificationSource) -> Int
}

extension ScreenRenderer: NotificationDetailLayout {}
