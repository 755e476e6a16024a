import BoardConfig
import Input

/// What a gesture does on a menu (Do Not Disturb, the watch menu, a
/// notification's menu, the replies): the same on every board
/// (docs/buttons.md). Other gestures do nothing there.
enum MenuGesture {
    case choose, next, previous, cancel

    init?(_ role: ButtonRole, _ gesture: ButtonGesture) {
        switch (role, gesture) {
        case (.positive, .press), (.select, .press): self = .choose
        case (.positive, .longPress), (.down, _): self = .next
        case (.positive, .doublePress), (.up, _): self = .previous
        case (.negative, .press), (.negative, .longPress), (.back, _): self = .cancel
        default: return nil
        }
    }

    /// The entry highlighted after `next` or `previous` from `selected`,
    /// wrapping among `count` (anything else keeps it).
    func moved(_ selected: Int, count: Int) -> Int {
        guard count > 0 else { return selected }
        switch self {
        case .next: return (selected + 1) % count
        case .previous: return (selected + count - 1) % count
        case .choose, .cancel: return selected
        }
    }
}
