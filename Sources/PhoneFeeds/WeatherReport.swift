import AMS

/// The weather where the phone is, as its companion app last sent it
/// (Gadgetbridge's `weather`), in the units the watch shows: °C, km/h.
/// A fixed-size value: updating it never allocates.
public struct WeatherReport: Sendable, Equatable {
    /// Degrees Celsius, rounded.
    public var temperature: Int
    public var high: Int?
    public var low: Int?
    /// Relative humidity, percent.
    public var humidity: Int?
    public var windKmh: Int?
    /// Where the wind comes from, degrees clockwise from north.
    public var windDirection: Int?
    /// The condition in the phone's words ("scattered clouds").
    public var summary = MediaText()
    /// The place ("Berlin").
    public var location = MediaText()
    /// When it arrived on the watch's wall clock, local seconds since 1970
    /// (nil: the watch did not know the time).
    public var receivedAt: Int64?

    public init(temperature: Int) {
        self.temperature = temperature
    }

    /// The clock shows a report this long after it arrived (weather apps
    /// update every 30–60 minutes; an old one is only on the weather screen).
    public static let clockFreshnessSeconds: Int64 = 3 * 3_600

    /// Whether the clock shows it at `now` (local seconds since 1970).
    public func isFresh(at now: Int64?) -> Bool {
        guard let receivedAt, let now else { return true }
        return now - receivedAt < Self.clockFreshnessSeconds
    }

    /// Kelvin (what Gadgetbridge sends) to whole degrees Celsius, rounded
    /// half away from zero. Total: the reading is clamped to ±10,000 K first.
    public static func celsius(kelvin: Int64) -> Int {
        let hundredths = min(max(kelvin, -10_000), 10_000) * 100 - 27_315
        return Int(hundredths >= 0 ? (hundredths + 50) / 100 : -((50 - hundredths) / 100))
    }

    /// The compass point the wind comes from ("SW"), of eight.
    public static func compassPoint(degrees: Int) -> StaticString {
        let sector = ((degrees % 360 + 360) % 360 + 22) / 45 % 8
        switch sector {
        case 0: return "N"
        case 1: return "NE"
        case 2: return "E"
        case 3: return "SE"
        case 4: return "S"
        case 5: return "SW"
        case 6: return "W"
        default: return "NW"
        }
    }
}
