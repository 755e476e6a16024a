/// The truncated attributes still to be read through Entity Attribute:
/// a small FIFO in fixed storage, each attribute at most once (a newer
/// update of a queued attribute replaces nothing: the read returns the
/// newest value anyway).
struct PendingAttributeQueue {
    /// Player name, artist, album, title and the three numeric values all fit.
    static let capacity = 8

    private var entities = InlineArray<8, UInt8>(repeating: 0)
    private var attributes = InlineArray<8, UInt8>(repeating: 0)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    func contains(entity: UInt8, attribute: UInt8) -> Bool {
        for i in 0..<count where entities[i] == entity && attributes[i] == attribute { return true }
        return false
    }

    /// Appends unless already queued; false when full (the value then stays cut).
    @discardableResult
    mutating func append(entity: UInt8, attribute: UInt8) -> Bool {
        if contains(entity: entity, attribute: attribute) { return true }
        guard count < Self.capacity else { return false }
        entities[count] = entity
        attributes[count] = attribute
        count += 1
        return true
    }

    mutating func remove(entity: UInt8, attribute: UInt8) {
        var j = 0
        for i in 0..<count where !(entities[i] == entity && attributes[i] == attribute) {
            entities[j] = entities[i]
            attributes[j] = attributes[i]
            j += 1
        }
        count = j
    }

    mutating func popFirst() -> (entity: UInt8, attribute: UInt8)? {
        guard count > 0 else { return nil }
        let first = (entities[0], attributes[0])
        for i in 1..<count {
            entities[i - 1] = entities[i]
            attributes[i - 1] = attributes[i]
        }
        count -= 1
        return first
    }

    mutating func removeAll() { count = 0 }
}
