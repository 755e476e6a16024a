import Graphics
import HAL
import Notifications

/// What the "Muted apps" screen lists: the wrist's mutes as they stand at
/// `now` (the model's clock; the renderer has none of its own).
public struct MutedAppsView {
    public var mutes: AppMutes
    public var now: MonotonicInstant
    public init(mutes: AppMutes, now: MonotonicInstant) {
        self.mutes = mutes
        self.now = now
    }
}

extension ScreenRenderer {
    static let mutedAppsTitle: StaticString = "Muted apps"
    static let noMutedApps: StaticString = "No muted apps. A notification's menu mutes its app."

    /// One row per mute: "Chat: 59 min", "Mail: 5 h", "Facebook: always";
    /// the positive button undoes the highlighted one.
    func drawMutedApps(_ view: MutedAppsView?, selected: Int, status: StatusInfo, into fb: Framebuffer) {
        guard let view, view.mutes.count(now: view.now) > 0 else {
            return drawNotice(Self.noMutedApps.rawBytes, status: status, into: fb)
        }
        drawMenu(Self.mutedAppsTitle, count: view.mutes.count(now: view.now), selected: selected, status: status, into: fb) { i, draw in
            var row = 0
            view.mutes.forEach(now: view.now) { _, name, until in
                defer { row += 1 }
                guard row == i else { return }
                scratch.clear().append(name).append(": ")
                if let until {
                    let minutes = Int((until.duration(since: view.now).components.seconds + 59) / 60)
                    if minutes <= 60 { scratch.append(decimal: minutes).append(" min") } else { scratch.append(decimal: (minutes + 59) / 60).append(" h") }
                } else {
                    scratch.append("always")
                }
                draw(scratch.bytes)
            }
        }
    }
}
