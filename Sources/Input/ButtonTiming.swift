/// How long a button's contacts must be stable, and how long the gestures take.
///
/// The defaults are what most tactile switches and most people need; board
/// files override them per board (see `InputTiming` in the board model).
public struct ButtonTiming: Sendable, Equatable {
    /// A level counts once it has been stable this long; bounces inside it are ignored.
    public var debounce: Duration
    /// Held this long (measured from the settled press) → `.longPress`, while still held.
    public var longPress: Duration
    /// A second press starting within this long after a release → `.doublePress`.
    public var doublePress: Duration

    public init(debounce: Duration = .milliseconds(20), longPress: Duration = .milliseconds(600),
                doublePress: Duration = .milliseconds(300)) {
        self.debounce = debounce
        self.longPress = longPress
        self.doublePress = doublePress
    }

    public static let defaults = ButtonTiming()
}
