/// One track in the simulated iPhone's queue.
public struct SimulatedTrack: Equatable, Sendable {
    public var artist: String
    public var album: String
    public var title: String
    /// Seconds as the phone writes them ("213.42").
    public var duration: String

    public init(artist: String, album: String, title: String, duration: String) {
        self.artist = artist
        self.album = album
        self.title = title
        self.duration = duration
    }
}

/// The Media Source side of the Apple Media Service: a player with a queue,
/// the registrations the watch wrote, the Remote Command handling and the
/// attribute values as text. Written from Apple's specification
/// independently of the `AMS` module (the client), so the two check each
/// other in end-to-end tests.
public struct AMSProvider {
    public enum ErrorCode: UInt8, Sendable {
        case invalidState = 0xA0, invalidCommand = 0xA1, absentAttribute = 0xA2
    }

    /// An (EntityID, AttributeID) pair whose value changed.
    public struct Attribute: Hashable, Sendable {
        public var entity: UInt8
        public var attribute: UInt8
        public init(_ entity: UInt8, _ attribute: UInt8) {
            self.entity = entity
            self.attribute = attribute
        }
    }

    /// The default queue: the second title is far longer than one
    /// notification at the default MTU (the truncated flag's case).
    public static let defaultQueue = [
        SimulatedTrack(artist: "The Beatles", album: "Past Masters", title: "Hey Jude", duration: "431.333"),
        SimulatedTrack(
            artist: "Sufjan Stevens", album: "Illinois",
            title: "Come On! Feel the Illinoise! Part I: The World's Columbian Exposition / Part II: Carl Sandburg Visits Me in a Dream",
            duration: "405.12"),
        SimulatedTrack(artist: "Daft Punk", album: "Discovery", title: "One More Time", duration: "320.357"),
    ]

    /// The commands the simulated player answers (iOS Music supports these and more).
    public static let supportedCommands: [UInt8] = [0, 1, 2, 3, 4, 5, 6]

    public var playerName = "Music"
    public var queue: [SimulatedTrack]
    public private(set) var index = 0
    public private(set) var playing = false
    /// The volume in sixteenths (iOS volume steps).
    public private(set) var volumeSteps = 8
    /// Elapsed milliseconds at `elapsedSince` (the phone's monotonic milliseconds).
    private var elapsedMs: Int64 = 0
    private var elapsedSince: Int64 = 0
    /// What the watch registered for, per entity (a registration replaces the earlier one).
    public private(set) var registrations: [UInt8: [UInt8]] = [:]
    /// The attribute the last Entity Attribute write selected.
    public private(set) var selected: Attribute?
    /// Remote Commands received, in order (for tests).
    public private(set) var commandsReceived: [UInt8] = []

    public init(queue: [SimulatedTrack] = AMSProvider.defaultQueue) {
        self.queue = queue
    }

    public var track: SimulatedTrack? { queue.isEmpty ? nil : queue[index] }

    // MARK: - writes from the watch

    /// An Entity Update write: EntityID then attribute IDs.
    public mutating func register(_ bytes: [UInt8]) -> ErrorCode? {
        guard bytes.count >= 2, bytes[0] <= 2 else { return .invalidCommand }
        registrations[bytes[0]] = Array(bytes.dropFirst())
        return nil
    }

    /// The attributes registered now, with their values, for the notifications after a registration.
    public func registered(_ entity: UInt8) -> [Attribute] {
        (registrations[entity] ?? []).map { Attribute(entity, $0) }
    }

    public func isRegistered(_ a: Attribute) -> Bool { registrations[a.entity]?.contains(a.attribute) ?? false }

    /// An Entity Attribute write: EntityID, AttributeID.
    public mutating func select(_ bytes: [UInt8]) -> ErrorCode? {
        guard bytes.count == 2, bytes[0] <= 2 else { return .invalidCommand }
        guard value(Attribute(bytes[0], bytes[1])) != nil else { return .absentAttribute }
        selected = Attribute(bytes[0], bytes[1])
        return nil
    }

    /// What a read of Entity Attribute returns: the whole selected value.
    public func selectedValue(nowMs: Int64) -> [UInt8] {
        selected.flatMap { value($0, nowMs: nowMs) } ?? []
    }

    /// A Remote Command write: the AMS error to answer with, or the
    /// attributes whose values changed.
    public mutating func perform(_ bytes: [UInt8], nowMs: Int64) -> (error: ErrorCode?, changed: [Attribute]) {
        guard bytes.count == 1, Self.supportedCommands.contains(bytes[0]) else { return (.invalidCommand, []) }
        guard !registrations.isEmpty else { return (.invalidState, []) }
        commandsReceived.append(bytes[0])
        switch bytes[0] {
        case 0: return (nil, setPlaying(true, nowMs: nowMs))
        case 1: return (nil, setPlaying(false, nowMs: nowMs))
        case 2: return (nil, setPlaying(!playing, nowMs: nowMs))
        case 3: return (nil, skip(+1, nowMs: nowMs))
        case 4: return (nil, skip(-1, nowMs: nowMs))
        case 5: return (nil, changeVolume(+1))
        case 6: return (nil, changeVolume(-1))
        default: return (nil, [])
        }
    }

    // MARK: - the player

    public mutating func setPlaying(_ on: Bool, nowMs: Int64) -> [Attribute] {
        elapsedMs = elapsed(nowMs: nowMs)
        elapsedSince = nowMs
        playing = on
        return [Attribute(0, 1)]
    }

    /// Next (+1) or previous (-1) track, wrapping around the queue.
    public mutating func skip(_ by: Int, nowMs: Int64) -> [Attribute] {
        guard !queue.isEmpty else { return [] }
        index = (index + by + queue.count) % queue.count
        elapsedMs = 0
        elapsedSince = nowMs
        return [Attribute(2, 0), Attribute(2, 1), Attribute(2, 2), Attribute(2, 3), Attribute(0, 1)]
    }

    public mutating func changeVolume(_ by: Int) -> [Attribute] {
        volumeSteps = max(0, min(16, volumeSteps + by))
        return [Attribute(0, 2)]
    }

    private func elapsed(nowMs: Int64) -> Int64 {
        playing ? elapsedMs + (nowMs - elapsedSince) : elapsedMs
    }

    /// An attribute's value as the phone writes it (nil: absent).
    public func value(_ a: Attribute, nowMs: Int64 = 0) -> [UInt8]? {
        let text: String
        switch (a.entity, a.attribute) {
        case (0, 0): text = playerName
        case (0, 1):
            let ms = elapsed(nowMs: nowMs)
            let frac = String(ms % 1000)
            text = "\(playing ? 1 : 0),\(playing ? "1.0" : "0.0"),\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
        case (0, 2):
            // Sixteenths are exact in four decimals.
            let tenThousandths = String(volumeSteps * 625)
            text = volumeSteps == 16 ? "1.0" : "0.\(String(repeating: "0", count: 4 - tenThousandths.count))\(tenThousandths)"
        case (1, 0): text = String(index)
        case (1, 1): text = String(queue.count)
        case (1, 2), (1, 3): text = "0"
        case (2, 0): text = track?.artist ?? ""
        case (2, 1): text = track?.album ?? ""
        case (2, 2): text = track?.title ?? ""
        case (2, 3): text = track?.duration ?? ""
        default: return nil
        }
        return Array(text.utf8)
    }

    /// A Remote Command notification's value: the supported command IDs.
    public var supportedCommandsValue: [UInt8] { Self.supportedCommands }
}
