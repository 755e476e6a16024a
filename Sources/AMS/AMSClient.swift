import HAL

/// The Apple Media Service client (the "Media Remote" of the specification)
/// as a pure state machine, like ANCS's NotificationConsumer: bytes and
/// `now` in, writes and reads out through `sink`, and a `MediaState` it
/// keeps up to date.
///
/// Once the phone session has subscribed Remote Command and Entity Update,
/// `sessionStarted` registers for the Player's name, playback info and
/// volume, then the Track's artist, album, title and duration (one write at
/// a time); `.available` follows. Each Entity Update is applied to `state`
/// and reported as `.changed`. A value the phone cut short (truncated flag)
/// is kept as it came and queued: the client writes Entity Attribute
/// (EntityID, AttributeID), then reads the whole value, one attribute at a
/// time; an update of that attribute meanwhile wins over the read. Remote
/// Command notifications set `state.supportedCommands`.
///
/// Nothing here allocates: the queues are fixed, the values are parsed in
/// place.
public final class AMSClient {
    /// Not retained (the sink owns the client); a sink that goes away first
    /// sets this to nil in its deinit.
    public unowned(unsafe) var sink: AMSClientSink?
    /// What the phone's player is doing.
    public private(set) var state = MediaState()
    /// Values that could not be parsed (bad decimal text, short PDUs), for diagnostics.
    public private(set) var malformedValues = 0

    /// The registrations are written: updates arrive and commands can be sent.
    public var isReady: Bool { phase == .ready }
    /// Between `sessionStarted` and `sessionEnded`.
    public var isSessionActive: Bool { phase != .idle }

    private enum Phase { case idle, registeringPlayer, registeringTrack, ready, failed }
    private var phase = Phase.idle

    /// The AMS characteristics a phone offers: the specification allows any
    /// subset, and the client uses what is there.
    public struct Characteristics: OptionSet, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let remoteCommand = Characteristics(rawValue: 1)
        public static let entityUpdate = Characteristics(rawValue: 2)
        public static let entityAttribute = Characteristics(rawValue: 4)
        public static let all: Characteristics = [.remoteCommand, .entityUpdate, .entityAttribute]
    }
    /// What this session's phone offers.
    public private(set) var characteristics = Characteristics.all

    private enum FetchStage { case writing, reading }
    private var pending = PendingAttributeQueue()
    private var fetching: (entity: UInt8, attribute: UInt8, stage: FetchStage)?
    /// A newer Entity Update of the attribute being fetched arrived: drop the read.
    private var fetchIsStale = false
    private var commands = RemoteCommandsInFlight()

    /// Bytes asked of an Entity Attribute read: one more than MediaText
    /// holds, so a longer value is still known to be cut.
    public static let readLimit = MediaText.capacity + 1

    public init() {}

    // MARK: - session

    /// The characteristics the phone offers are subscribed: register for
    /// updates when there is Entity Update; with Remote Command alone the
    /// buttons work at once (`state.remoteOnly`); without Remote Command
    /// Now Playing only shows.
    public func sessionStarted(now: MonotonicInstant, characteristics: Characteristics = .all) {
        // The supported commands may already have come (Remote Command is subscribed first).
        let commands = state.supportedCommands
        let known = state.supportedCommandsKnown
        resetSession()
        self.characteristics = characteristics
        state.supportedCommands = commands
        state.supportedCommandsKnown = known
        guard characteristics.contains(.entityUpdate) else {
            state.remoteOnly = characteristics.contains(.remoteCommand)
            phase = .ready
            sink?.amsEvent(.available)
            return
        }
        phase = .registeringPlayer
        writeRegistration(entity: .player)
    }

    /// AMS went away or the link closed: forget everything.
    public func sessionEnded() {
        let wasActive = phase != .idle
        resetSession()
        if wasActive { sink?.amsEvent(.unavailable) }
    }

    private func resetSession() {
        phase = .idle
        state.reset()
        pending.removeAll()
        fetching = nil
        fetchIsStale = false
        commands.removeAll()
    }

    private func writeRegistration(entity: EntityID) {
        let ok = withScratch { buf -> Bool in
            let attrs: (UInt8, UInt8, UInt8, UInt8, count: Int) =
                entity == .player ? (0, 1, 2, 0, 3) : (0, 1, 2, 3, 4)
            buf[0] = entity.rawValue
            buf[1] = attrs.0
            buf[2] = attrs.1
            buf[3] = attrs.2
            buf[4] = attrs.3
            return sink?.amsWriteEntityUpdate(UnsafeRawBufferPointer(rebasing: buf[0..<(1 + attrs.count)])) ?? false
        }
        if !ok { registrationFailed() }
    }

    /// The outcome of an Entity Update registration write (nil: success;
    /// otherwise the ATT error code, or nil-less failure as `unlikelyError`).
    public func entityUpdateWritten(attErrorCode: UInt8?, now: MonotonicInstant) {
        guard attErrorCode == nil else { return registrationFailed() }
        switch phase {
        case .registeringPlayer:
            phase = .registeringTrack
            writeRegistration(entity: .track)
        case .registeringTrack:
            phase = .ready
            sink?.amsEvent(.available)
            fetchNext()
        default:
            break
        }
    }

    private func registrationFailed() {
        guard phase == .registeringPlayer || phase == .registeringTrack else { return }
        phase = .failed
        sink?.amsEvent(.unavailable)
    }

    // MARK: - notifications

    /// An Entity Update notification.
    public func entityUpdateReceived(_ bytes: UnsafeRawBufferPointer, now: MonotonicInstant) {
        guard phase != .idle else { return }
        let update: EntityUpdateNotification
        do { update = try EntityUpdateNotification(parsing: bytes) } catch {
            malformedValues += 1
            return
        }
        let e = update.entityIDRaw
        let a = update.attributeIDRaw
        guard Self.isShown(entity: e, attribute: a) else { return }
        // The newest value wins over a queued or running read of the same attribute.
        pending.remove(entity: e, attribute: a)
        if let f = fetching, f.entity == e, f.attribute == a { fetchIsStale = true }
        let change = apply(entity: e, attribute: a, value: update.value, truncated: update.isTruncated, now: now)
        if update.isTruncated {
            pending.append(entity: e, attribute: a)
            fetchNext()
        }
        if !change.isEmpty { sink?.amsEvent(.changed(change)) }
    }

    /// A Remote Command notification: the commands the player supports now.
    /// Accepted before `sessionStarted` too: the phone sends it as soon as
    /// Remote Command is subscribed.
    public func remoteCommandReceived(_ bytes: UnsafeRawBufferPointer, now: MonotonicInstant) {
        let set = RemoteCommand.supportedCommands(parsing: bytes)
        guard set != state.supportedCommands || !state.supportedCommandsKnown else { return }
        state.supportedCommands = set
        state.supportedCommandsKnown = true
        sink?.amsEvent(.changed(.commands))
    }

    /// The Player and Track attributes the client registers for.
    static func isShown(entity: UInt8, attribute: UInt8) -> Bool {
        switch EntityID(rawValue: entity) {
        case .player: PlayerAttributeID(rawValue: attribute) != nil
        case .track: TrackAttributeID(rawValue: attribute) != nil
        default: false
        }
    }

    /// Stores one attribute's value; returns what changed. A cut numeric
    /// value is not applied (its whole value is read instead).
    private func apply(
        entity: UInt8, attribute: UInt8, value: UnsafeRawBufferPointer, truncated: Bool, now: MonotonicInstant
    ) -> MediaChange {
        func setText(_ text: inout MediaText) {
            text.set(value)
            if truncated { text.isTruncated = true }
        }
        switch (EntityID(rawValue: entity), attribute) {
        case (.player, PlayerAttributeID.name.rawValue):
            setText(&state.playerName)
            return .player
        case (.player, PlayerAttributeID.playbackInfo.rawValue):
            guard !truncated else { return [] }
            let info: PlaybackInfo
            do { info = try PlaybackInfo(parsing: value) } catch {
                malformedValues += 1
                return []
            }
            if info.state == nil && info.rateMilli == nil && info.elapsedMilliseconds == nil {
                // Empty: no player is playing anything.
                state.playbackState = .paused
                state.playbackRateMilli = 0
                state.elapsedMilliseconds = 0
                state.elapsedAt = nil
                return .playback
            }
            if let s = info.state { state.playbackState = s }
            if let r = info.rateMilli { state.playbackRateMilli = r }
            if let e = info.elapsedMilliseconds {
                state.elapsedMilliseconds = e
                state.elapsedAt = now
            }
            return .playback
        case (.player, PlayerAttributeID.volume.rawValue):
            guard !truncated else { return [] }
            do { state.volumePercent = try VolumeValue.percent(parsing: value) } catch {
                malformedValues += 1
                return []
            }
            return .volume
        case (.track, TrackAttributeID.artist.rawValue):
            setText(&state.artist)
            return .track
        case (.track, TrackAttributeID.album.rawValue):
            setText(&state.album)
            return .track
        case (.track, TrackAttributeID.title.rawValue):
            setText(&state.title)
            return .track
        case (.track, TrackAttributeID.duration.rawValue):
            guard !truncated else { return [] }
            do { state.durationMilliseconds = try DurationValue.milliseconds(parsing: value) } catch {
                malformedValues += 1
                return []
            }
            return .track
        default:
            return []
        }
    }

    // MARK: - Entity Attribute (whole values of truncated ones)

    /// Truncated attributes waiting for their Entity Attribute read.
    public var pendingAttributeReads: Int { pending.count + (fetching == nil ? 0 : 1) }

    private func fetchNext() {
        guard phase == .ready, fetching == nil, characteristics.contains(.entityAttribute), let next = pending.popFirst() else { return }
        fetching = (next.entity, next.attribute, .writing)
        fetchIsStale = false
        let command = EntityAttributeCommand(entity: next.entity, attribute: next.attribute)
        let ok = withScratch { buf -> Bool in
            let n = command.encode(into: buf)!
            return sink?.amsWriteEntityAttribute(UnsafeRawBufferPointer(rebasing: buf[0..<n])) ?? false
        }
        if !ok {
            // Not even queued (queue full): leave it for the next update.
            fetching = nil
        }
    }

    /// The outcome of the Entity Attribute write (nil: success, then the read follows).
    public func entityAttributeWritten(attErrorCode: UInt8?, now: MonotonicInstant) {
        guard let f = fetching, f.stage == .writing else { return }
        guard attErrorCode == nil else {
            // 0xA2 absent attribute (or any failure): nothing more to learn.
            fetching = nil
            return fetchNext()
        }
        fetching = (f.entity, f.attribute, .reading)
        if !(sink?.amsReadEntityAttribute(limit: Self.readLimit) ?? false) {
            fetching = nil
        }
    }

    /// The value read from Entity Attribute (nil: the read failed).
    public func entityAttributeRead(_ value: UnsafeRawBufferPointer?, now: MonotonicInstant) {
        guard let f = fetching, f.stage == .reading else { return }
        fetching = nil
        if let value, !fetchIsStale {
            let change = apply(entity: f.entity, attribute: f.attribute, value: value, truncated: false, now: now)
            if !change.isEmpty { sink?.amsEvent(.changed(change)) }
        }
        fetchIsStale = false
        fetchNext()
    }

    // MARK: - Remote Commands

    /// Writes a Remote Command. False when the registrations are not done,
    /// the phone has no Remote Command, it said the player does not support
    /// `id` (before it has said anything, every command is tried), or it
    /// could not be queued; the phone's refusal comes later as `.commandFailed`.
    public func sendRemoteCommand(_ id: RemoteCommandID) -> Bool {
        guard phase == .ready, characteristics.contains(.remoteCommand), state.mayTry(id), !commands.isFull else { return false }
        // In flight before the write, in case its outcome is reported from inside it.
        commands.push(id)
        let ok = withScratch { buf -> Bool in
            let n = RemoteCommand.encode(id, into: buf)!
            return sink?.amsWriteRemoteCommand(UnsafeRawBufferPointer(rebasing: buf[0..<n])) ?? false
        }
        if !ok { commands.removeNewest() }
        return ok
    }

    /// Remote Commands written and not answered yet.
    public var remoteCommandsInFlight: Int { commands.count }

    /// The outcome of the oldest Remote Command write: nil on success,
    /// otherwise the ATT error code (AMS: 0xA0 invalid state, 0xA1 invalid
    /// command), or `failed` when no answer came (link closed, timeout).
    public func remoteCommandWritten(attErrorCode: UInt8?, failed: Bool = false, now: MonotonicInstant) {
        guard let id = commands.pop() else { return }
        if let code = attErrorCode {
            sink?.amsEvent(.commandFailed(id, AMSErrorCode(rawValue: code)))
        } else if failed {
            sink?.amsEvent(.commandFailed(id, nil))
        }
    }

    /// A few bytes on the stack to encode a command into (a local, so a
    /// sink that answers from inside the call can encode the next one).
    private func withScratch<R>(_ body: (UnsafeMutableRawBufferPointer) -> R) -> R {
        var scratch = InlineArray<8, UInt8>(repeating: 0)
        return withUnsafeMutableBytes(of: &scratch) { body($0) }
    }
}
