/// Remote Commands written and not yet answered, oldest first. ATT answers
/// requests in order, so the oldest one is the one a response is about.
struct RemoteCommandsInFlight {
    static let capacity = 8

    private var ids = InlineArray<8, UInt8>(repeating: 0)
    private var head = 0
    private(set) var count = 0

    var isFull: Bool { count == Self.capacity }

    mutating func push(_ id: RemoteCommandID) {
        precondition(!isFull)
        ids[(head + count) % Self.capacity] = id.rawValue
        count += 1
    }

    mutating func pop() -> RemoteCommandID? {
        guard count > 0 else { return nil }
        let id = ids[head]
        head = (head + 1) % Self.capacity
        count -= 1
        return RemoteCommandID(rawValue: id)
    }

    /// Takes back the command just pushed (its write could not be queued).
    mutating func removeNewest() {
        if count > 0 { count -= 1 }
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}
