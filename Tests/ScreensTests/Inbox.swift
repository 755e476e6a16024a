import ANCS
import Notifications
import Screens

/// The notifications most screen tests show, newest first:
/// 5 WeChat (CJK, yesterday), 4 Calendar, 3 Mail (subtitle, long message),
/// 2 Messages (Vietnamese + emoji), 1 Messages.
enum Inbox {
    static func make() -> Fixture {
        let f = Fixture()
        f.post(1, category: .social, title: "Mom", message: "Dinner at 7? Bring the salad.", date: "20240314T183005")
        f.post(2, category: .social, title: "Bà ngoại 🎂", message: "Chúc mừng sinh nhật!", date: "20240314T180000")
        f.post(3, category: .email, app: "com.apple.mobilemail", title: "Weekly report",
               subtitle: "From: Alice Martin",
               message: "Hi all, the numbers for this week are in. Sales are up 4% and returns are down. "
                   + "Please review the attached sheet before Friday's meeting and send me your notes.",
               date: "20240314T174000")
        f.post(4, category: .schedule, app: "com.apple.mobilecal", title: "Standup in 10 minutes",
               message: "Room 2, level 3", date: "20240314T184100")
        f.post(5, category: .social, app: "com.tencent.xin", title: "妈妈：晚饭好了，快回家",
               message: "今天做了你最喜欢的红烧肉。", date: "20240313T200000")
        return f
    }

    static let mom = NotificationUID(1)
    static let grandma = NotificationUID(2)
    static let report = NotificationUID(3)
    static let standup = NotificationUID(4)
    static let wechat = NotificationUID(5)
}
