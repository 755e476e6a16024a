/// The Player's PlaybackInfo value: "PlaybackState,PlaybackRate,ElapsedTime"
/// as decimal text, for example "1,1.0,32.456". Any field may be empty
/// (no player: the whole value is empty); an absent field is nil.
public struct PlaybackInfo: Hashable, Sendable {
    public var state: PlaybackState?
    /// Playback rate in thousandths (1000 = normal, 0 = paused, -1000 rewinding).
    public var rateMilli: Int32?
    /// Elapsed time in milliseconds when the phone sent it.
    public var elapsedMilliseconds: Int64?

    public init(state: PlaybackState? = nil, rateMilli: Int32? = nil, elapsedMilliseconds: Int64? = nil) {
        self.state = state
        self.rateMilli = rateMilli
        self.elapsedMilliseconds = elapsedMilliseconds
    }

    /// Parses the UTF-8 text by hand (no allocation). Garbage, more than
    /// three fields or an undefined state throw; a rate beyond ±1 000 000×
    /// is out of range.
    public init(parsing text: UnsafeRawBufferPointer) throws(AMSParseError) {
        self.init()
        var field = 0
        var start = 0
        var i = 0
        while i <= text.count {
            if i == text.count || text[i] == UInt8(ascii: ",") {
                let part = UnsafeRawBufferPointer(rebasing: text[start..<i])
                switch field {
                case 0:
                    if let s = try DecimalText.parse(part, scale: 0, field: .state) {
                        guard s >= 0, s <= 255, let state = PlaybackState(rawValue: UInt8(s)) else {
                            throw .unknownPlaybackState(s)
                        }
                        self.state = state
                    }
                case 1:
                    if let r = try DecimalText.parse(part, scale: 3, field: .rate) {
                        guard r >= -1_000_000_000, r <= 1_000_000_000 else { throw .outOfRange(field: .rate) }
                        rateMilli = Int32(r)
                    }
                case 2:
                    if let e = try DecimalText.parse(part, scale: 3, field: .elapsed) {
                        guard e >= 0 else { throw .outOfRange(field: .elapsed) }
                        elapsedMilliseconds = e
                    }
                default:
                    var n = field + 1
                    for j in (i..<text.count) where text[j] == UInt8(ascii: ",") { n += 1 }
                    throw .tooManyFields(n)
                }
                field += 1
                start = i + 1
            }
            i += 1
        }
    }

    /// Convenience for tests and tools.
    public init(parsing text: String) throws(AMSParseError) {
        var copy = text
        let result = copy.withUTF8 { buf -> Result<Self, AMSParseError> in
            do throws(AMSParseError) { return .success(try Self(parsing: UnsafeRawBufferPointer(buf))) } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}
