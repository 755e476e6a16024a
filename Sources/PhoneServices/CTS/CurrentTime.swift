import HAL
import TextFormat

/// Current Time characteristic value (0x2A2B, Current Time Service 1.1):
/// Exact Time 256 (Day Date Time + Fractions256) and Adjust Reason, 10 bytes.
public struct CurrentTime: Hashable, Sendable, CustomStringConvertible {
    public var year: UInt16  // 1582...9999, 0 unknown
    public var month: UInt8  // 1...12, 0 unknown
    public var day: UInt8  // 1...31, 0 unknown
    public var hours: UInt8
    public var minutes: UInt8
    public var seconds: UInt8
    /// 1 Monday ... 7 Sunday, 0 unknown.
    public var dayOfWeek: UInt8
    public var fractions256: UInt8
    public var adjustReason: AdjustReason

    public struct AdjustReason: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let manualTimeUpdate = Self(rawValue: 0x01)
        public static let externalReferenceTimeUpdate = Self(rawValue: 0x02)
        public static let changeOfTimeZone = Self(rawValue: 0x04)
        public static let changeOfDST = Self(rawValue: 0x08)
    }

    public init(
        year: UInt16, month: UInt8, day: UInt8, hours: UInt8, minutes: UInt8, seconds: UInt8,
        dayOfWeek: UInt8 = 0, fractions256: UInt8 = 0, adjustReason: AdjustReason = []
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
        self.dayOfWeek = dayOfWeek
        self.fractions256 = fractions256
        self.adjustReason = adjustReason
    }

    /// Decodes the 10-byte value (longer values are accepted: later CTS
    /// versions may append fields). Out-of-range fields are rejected.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 10 else { return nil }
        year = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        month = bytes[2]
        day = bytes[3]
        hours = bytes[4]
        minutes = bytes[5]
        seconds = bytes[6]
        dayOfWeek = bytes[7]
        fractions256 = bytes[8]
        adjustReason = AdjustReason(rawValue: bytes[9])
        guard year == 0 || (1582...9999).contains(year), month <= 12, day <= 31, hours < 24, minutes < 60,
            seconds < 60, dayOfWeek <= 7
        else { return nil }
    }

    public init?(_ bytes: [UInt8]) {
        guard let v = bytes.withUnsafeBytes({ CurrentTime($0) }) else { return nil }
        self = v
    }

    public var bytes: [UInt8] {
        [UInt8(year & 0xFF), UInt8(year >> 8), month, day, hours, minutes, seconds, dayOfWeek, fractions256, adjustReason.rawValue]
    }

    /// Whether year, month and day are known.
    public var isDateKnown: Bool { year != 0 && month != 0 && day != 0 }

    /// The wall-clock time (local, no zone applied); nil when the date is unknown.
    public var civil: CivilTime? {
        guard isDateKnown else { return nil }
        return CivilTime(
            year: Int(year), month: Int(month), day: Int(day),
            hour: Int(hours), minute: Int(minutes), second: Int(seconds))
    }

    /// Seconds since 1970-01-01T00:00:00 of this wall-clock time (as local
    /// time, no zone applied); nil when the date is unknown.
    public var secondsSinceEpoch: Int64? { civil?.secondsSinceEpoch }

    /// The value for a wall-clock time, with its day of the week; a year
    /// outside the field's range is clamped to it.
    public init(_ civil: CivilTime, fractions256: UInt8 = 0, adjustReason: AdjustReason = []) {
        self.init(
            year: UInt16(clamping: civil.year), month: UInt8(clamping: civil.month), day: UInt8(clamping: civil.day),
            hours: UInt8(clamping: civil.hour), minutes: UInt8(clamping: civil.minute),
            seconds: UInt8(clamping: civil.second), dayOfWeek: UInt8(civil.weekday),
            fractions256: fractions256, adjustReason: adjustReason)
    }

    public var description: String {
        NumberText.format(
            "%d-%02d-%02d %02d:%02d:%02d", Int64(year), Int64(month), Int64(day), Int64(hours), Int64(minutes), Int64(seconds))
    }
}

/// Local Time Information value (0x2A0F): time zone and DST offset, 2 bytes.
public struct LocalTimeInformation: Hashable, Sendable {
    /// Offset from UTC in 15-minute steps (-48...56); nil when unknown (-128).
    public var timeZoneQuarterHours: Int8?
    /// DST offset in 15-minute steps (0, 2, 4, 8); nil when unknown (255).
    public var dstQuarterHours: UInt8?

    public init(timeZoneQuarterHours: Int8?, dstQuarterHours: UInt8?) {
        self.timeZoneQuarterHours = timeZoneQuarterHours
        self.dstQuarterHours = dstQuarterHours
    }

    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 2 else { return nil }
        let tz = Int8(bitPattern: bytes[0])
        guard tz == -128 || (-48...56).contains(tz) else { return nil }
        timeZoneQuarterHours = tz == -128 ? nil : tz
        switch bytes[1] {
        case 0, 2, 4, 8: dstQuarterHours = bytes[1]
        case 255: dstQuarterHours = nil
        default: return nil
        }
    }

    public init?(_ bytes: [UInt8]) {
        guard let v = bytes.withUnsafeBytes({ LocalTimeInformation($0) }) else { return nil }
        self = v
    }

    public var bytes: [UInt8] { [UInt8(bitPattern: timeZoneQuarterHours ?? -128), dstQuarterHours ?? 255] }

    /// Total offset from UTC in seconds (zone + DST), when both are known.
    public var utcOffsetSeconds: Int? {
        guard let tz = timeZoneQuarterHours else { return nil }
        return (Int(tz) + Int(dstQuarterHours ?? 0)) * 900
    }
}
