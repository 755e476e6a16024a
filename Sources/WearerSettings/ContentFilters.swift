/// The settings file's `filters`: rules that match a notification by what
/// it says, each with what to do (the same actions as an app's rule:
/// mute, hide its content, its own vibration, always alert). A rule names
/// one or more of the app, title, subtitle and message, each a text that
/// must occur in that field, ignoring ASCII case; all it names must match.
/// The first rule that matches decides, before the app's own rule.
///
/// Built once at load into one byte buffer (the texts, ASCII lower-cased):
/// matching compares the stored notification's bytes with it and
/// allocates nothing.
public struct ContentFilters: Equatable, Sendable {
    /// The fields a rule can match, in the order their texts are kept.
    public enum Field: Int, CaseIterable, Sendable {
        case app, title, subtitle, message
    }

    /// The most rules a settings file may give.
    public static let capacity = 32
    /// The longest text a rule may look for, in bytes of UTF-8.
    public static let textCapacity = 64

    private var textBytes: [UInt8] = []
    /// Four ranges per rule (`Field` order); an empty one matches anything.
    private var textRanges: [Range<Int>] = []
    public private(set) var rules: [AppRule] = []

    public init() {}

    public var count: Int { rules.count }
    public var isEmpty: Bool { rules.isEmpty }
    /// Some rule alerts through Do Not Disturb.
    public var hasAlwaysAlert: Bool { rules.contains { $0.alwaysAlert } }
    /// Some rule mutes.
    public var hasMute: Bool { rules.contains { $0.mute } }

    /// Adds a rule (the loader has checked it: room left, at least one text,
    /// each at most `textCapacity` bytes).
    /// `texts`: one per `Field`, in its order ("" : any).
    public mutating func add(_ texts: [String], _ rule: AppRule) {
        precondition(rules.count < Self.capacity && texts.count == Field.allCases.count && texts.contains { !$0.isEmpty })
        for text in texts {
            let start = textBytes.count
            for b in text.utf8.prefix(Self.textCapacity) { textBytes.append(Self.lower(b)) }
            textRanges.append(start..<textBytes.count)
        }
        rules.append(rule)
    }

    /// The text rule `index` looks for in `field` ("" when it names none).
    public func text(_ field: Field, at index: Int) -> String {
        String(decoding: textBytes[textRanges[index * 4 + field.rawValue]], as: UTF8.self)
    }

    /// The first rule whose every text occurs in its field, if any.
    /// Allocation-free.
    public func index(app: UnsafeRawBufferPointer, title: UnsafeRawBufferPointer, subtitle: UnsafeRawBufferPointer,
                      message: UnsafeRawBufferPointer) -> Int? {
        var r = 0
        while r < rules.count {
            if occurs(r * 4, in: app) && occurs(r * 4 + 1, in: title) && occurs(r * 4 + 2, in: subtitle)
                && occurs(r * 4 + 3, in: message)
            {
                return r
            }
            r += 1
        }
        return nil
    }

    /// Whether text `slot` occurs in `haystack`, ignoring ASCII case.
    private func occurs(_ slot: Int, in haystack: UnsafeRawBufferPointer) -> Bool {
        let needle = textRanges[slot]
        if needle.isEmpty { return true }
        guard haystack.count >= needle.count else { return false }
        var start = 0
        while start + needle.count <= haystack.count {
            var i = 0
            while i < needle.count && Self.lower(haystack[start + i]) == textBytes[needle.lowerBound + i] { i += 1 }
            if i == needle.count { return true }
            start += 1
        }
        return false
    }

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
}
