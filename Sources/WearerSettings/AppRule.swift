import Haptics

/// What the wearer asked for one app's notifications (the settings file's
/// `apps`), matched by the AppIdentifier the phone sends with the
/// attributes (`com.apple.MobileSMS`).
public struct AppRule: Equatable, Sendable {
    /// No vibration and no pop-up (the notification is still listed); a
    /// muted call does not ring.
    public var mute = false
    /// The list, the detail and the pop-up show the app's name and
    /// "Notification" instead of the title and message.
    public var hideContent = false
    /// The pattern instead of the category's (nil: the category's).
    public var vibrate: VibrationPattern?
    /// "vibrate": "none": this app never vibrates, but still pops up.
    public var vibrateNone = false
    /// Vibrates and pops up even during Do Not Disturb and quiet hours.
    public var alwaysAlert = false

    public init(mute: Bool = false, hideContent: Bool = false, vibrate: VibrationPattern? = nil, vibrateNone: Bool = false,
                alwaysAlert: Bool = false) {
        self.mute = mute
        self.hideContent = hideContent
        self.vibrate = vibrate
        self.vibrateNone = vibrateNone
        self.alwaysAlert = alwaysAlert
    }
}

/// The per-app rules as a small fixed table built once at load: every
/// identifier's bytes in one buffer, so finding the rule of a notification
/// compares bytes against the stored notification's AppIdentifier and
/// allocates nothing.
public struct AppRules: Equatable, Sendable {
    /// The most apps a settings file may name.
    public static let capacity = 64
    /// The longest AppIdentifier accepted, in bytes of UTF-8.
    public static let identifierCapacity = 128

    private var identifierBytes: [UInt8] = []
    private var identifierRanges: [Range<Int>] = []
    public private(set) var rules: [AppRule] = []

    public init() {}

    public var count: Int { rules.count }
    public var isEmpty: Bool { rules.isEmpty }
    /// Some app may alert through Do Not Disturb: the decision waits for the AppIdentifier.
    public var hasAlwaysAlert: Bool { rules.contains { $0.alwaysAlert } }
    /// Some app is muted: a call's ring waits for its AppIdentifier.
    public var hasMute: Bool { rules.contains { $0.mute } }

    /// Adds the rule of `identifier` (the loader has checked it: not empty,
    /// at most `identifierCapacity` bytes, not named twice, room left).
    public mutating func add(_ identifier: String, _ rule: AppRule) {
        precondition(rules.count < Self.capacity && !identifier.utf8.isEmpty && identifier.utf8.count <= Self.identifierCapacity)
        let start = identifierBytes.count
        identifierBytes.append(contentsOf: identifier.utf8)
        identifierRanges.append(start..<identifierBytes.count)
        rules.append(rule)
    }

    /// The identifier of rule `index` (logs, tests).
    public func identifier(at index: Int) -> String {
        String(decoding: identifierBytes[identifierRanges[index]], as: UTF8.self)
    }

    /// The index of the rule for the AppIdentifier `id`, compared byte for byte.
    public func index(of id: UnsafeRawBufferPointer) -> Int? {
        guard !id.isEmpty else { return nil }
        var r = 0
        while r < identifierRanges.count {
            let range = identifierRanges[r]
            if range.count == id.count {
                var i = 0
                while i < id.count && identifierBytes[range.lowerBound + i] == id[i] { i += 1 }
                if i == id.count { return r }
            }
            r += 1
        }
        return nil
    }

    /// The rule for the AppIdentifier `id`, if the settings name it.
    public func rule(for id: UnsafeRawBufferPointer) -> AppRule? {
        index(of: id).map { rules[$0] }
    }

    /// Whether the notifications of `id` hide their content.
    public func hidesContent(_ id: UnsafeRawBufferPointer) -> Bool {
        guard let i = index(of: id) else { return false }
        return rules[i].hideContent
    }
}
