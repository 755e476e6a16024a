import Decode
import HAL
import Testing

// HAL's CivilTime is the tree's one calendar (CTS, the screens, ANCS dates,
// the system clock, capture timestamps). HAL has no test target of its own;
// its heaviest user, capture decoding, hosts these.
@Suite("CivilTime: the one calendar")
struct CivilTimeTests {
    /// An independent oracle: a calendar that steps one day at a time.
    struct SteppedDate: Equatable {
        var year: Int, month: Int, day: Int

        static func length(_ month: Int, _ year: Int) -> Int {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        }

        mutating func next() {
            day += 1
            if day > Self.length(month, year) { day = 1; month += 1 }
            if month > 12 { month = 1; year += 1 }
        }

        mutating func previous() {
            day -= 1
            if day == 0 {
                month -= 1
                if month == 0 { month = 12; year -= 1 }
                day = Self.length(month, year)
            }
        }
    }

    func check(_ d: SteppedDate, _ n: Int64) {
        let c = CivilTime(daysSinceEpoch: n)
        #expect(SteppedDate(year: c.year, month: c.month, day: c.day) == d, "day \(n)")
        #expect(CivilTime.days(year: d.year, month: d.month, day: d.day) == n, "\(d)")
    }

    @Test("days from civil and back agree with a day-by-day calendar from -400 to 2400")
    func everyDay() {
        var d = SteppedDate(year: 1970, month: 1, day: 1)
        var n: Int64 = 0
        while d.year < 2400 {
            check(d, n)
            d.next()
            n += 1
        }
        d = SteppedDate(year: 1970, month: 1, day: 1)
        n = 0
        while d.year >= -400 {
            check(d, n)
            d.previous()
            n -= 1
        }
    }

    @Test("leap years: every fourth, not centuries, except every fourth century (and year 0)")
    func leapYears() {
        for (year, leap) in [(2024, true), (2023, false), (2000, true), (1900, false), (2100, false), (1600, true),
                             (0, true), (-4, true), (-100, false), (-400, true), (-1, false)] {
            #expect(CivilTime.isLeapYear(year) == leap, "\(year)")
            #expect(CivilTime.daysIn(month: 2, year: year) == (leap ? 29 : 28), "\(year)")
            #expect(CivilTime.days(year: year, month: 3, day: 1) - CivilTime.days(year: year, month: 2, day: 28)
                == (leap ? 2 : 1), "\(year)")
        }
        #expect(CivilTime.daysIn(month: 4, year: 2024) == 30)
        #expect(CivilTime.daysIn(month: 12, year: 2024) == 31)
    }

    @Test("weekdays: 1 Monday ... 7 Sunday, before and after 1970")
    func weekdays() {
        #expect(CivilTime.weekday(year: 1970, month: 1, day: 1) == 4)  // Thursday
        #expect(CivilTime.weekday(year: 2024, month: 3, day: 14) == 4)
        #expect(CivilTime.weekday(year: 2024, month: 3, day: 17) == 7)  // Sunday
        #expect(CivilTime.weekday(year: 2000, month: 2, day: 29) == 2)  // Tuesday
        #expect(CivilTime.weekday(year: 1969, month: 12, day: 29) == 1)  // Monday
        #expect(CivilTime.weekday(year: 1, month: 1, day: 1) == 1)  // proleptic Gregorian: a Monday
        #expect(CivilTime.weekday(year: 0, month: 1, day: 1) == 6)  // Saturday
        // Every day of a few weeks around the epoch and far before it.
        for start: Int64 in [-7, -700_000, 1_000_000] {
            for k: Int64 in 0..<14 {
                let w = CivilTime.weekday(daysSinceEpoch: start + k)
                #expect(w == CivilTime.weekday(daysSinceEpoch: start + k + 7))
                #expect((1...7).contains(w))
                #expect(CivilTime.weekday(daysSinceEpoch: start + k + 1) == w % 7 + 1)
            }
        }
        #expect(CivilTime(year: 2024, month: 3, day: 14, hour: 23).weekday == 4)
    }

    @Test("seconds round-trip over all of Int64, and day counts at both ends")
    func wideRange() {
        var samples: [Int64] = [.min, .min + 1, .max, .max - 1, 0, -1, 1, 86_399, 86_400, -86_400, -86_401]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {  // a fixed xorshift walk over the whole range
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            samples.append(Int64(bitPattern: x))
            samples.append(Int64(bitPattern: x) >> (x % 40))
        }
        for s in samples {
            let c = CivilTime(secondsSinceEpoch: s)
            #expect(c.secondsSinceEpoch == s, "\(s)")
            #expect((1...12).contains(c.month) && (1...CivilTime.daysIn(month: c.month, year: c.year)).contains(c.day))
            #expect((0..<24).contains(c.hour) && (0..<60).contains(c.minute) && (0..<60).contains(c.second))
            let d = CivilTime(daysSinceEpoch: s)
            #expect(d.daysSinceEpoch == s, "day \(s)")
        }
        #expect(CivilTime(secondsSinceEpoch: -1) == CivilTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(CivilTime(secondsSinceEpoch: 1_710_441_005)
            == CivilTime(year: 2024, month: 3, day: 14, hour: 18, minute: 30, second: 5))
        #expect(CivilTime(daysSinceEpoch: -719_528) == CivilTime(year: 0, month: 1, day: 1))
        #expect(CivilTime(daysSinceEpoch: -719_529) == CivilTime(year: -1, month: 12, day: 31))
    }

    @Test("fields outside their range carry over, like mktime")
    func normalising() {
        #expect(CivilTime.days(year: 2023, month: 2, day: 31) == CivilTime.days(year: 2023, month: 3, day: 3))
        #expect(CivilTime.days(year: 2024, month: 13, day: 1) == CivilTime.days(year: 2025, month: 1, day: 1))
        #expect(CivilTime.days(year: 2024, month: 0, day: 1) == CivilTime.days(year: 2023, month: 12, day: 1))
        #expect(CivilTime.days(year: 2024, month: -11, day: 1) == CivilTime.days(year: 2023, month: 1, day: 1))
        #expect(CivilTime.days(year: 2024, month: 3, day: 0) == CivilTime.days(year: 2024, month: 2, day: 29))
        let t = CivilTime(year: 2024, month: 1, day: 1, hour: 25, minute: 0, second: 0)
        #expect(CivilTime(secondsSinceEpoch: t.secondsSinceEpoch) == CivilTime(year: 2024, month: 1, day: 2, hour: 1))
    }

    @Test("floor division and modulo are total over Int64")
    func floorDivision() {
        #expect(CivilTime.floorDivide(7, by: 2) == 3)
        #expect(CivilTime.floorDivide(-7, by: 2) == -4)
        #expect(CivilTime.floorDivide(-8, by: 2) == -4)
        #expect(CivilTime.floorModulo(-7, by: 2) == 1)
        #expect(CivilTime.floorModulo(-8, by: 2) == 0)
        // A negation-based floor division overflows here.
        #expect(CivilTime.floorDivide(.min, by: 1_000_000) == -9_223_372_036_855)
        #expect(CivilTime.floorModulo(.min, by: 1_000_000) == 224_192)
        #expect(CivilTime.floorDivide(.min, by: 1) == .min)
        #expect(CivilTime.floorModulo(.min, by: 1) == 0)
        #expect(CivilTime.floorDivide(.min + 1, by: .max) == -1)
        #expect(CivilTime.floorDivide(.min, by: .max) == -2)
        #expect(CivilTime.floorModulo(.min, by: .max) == .max - 1)
        #expect(CivilTime.floorDivide(.max, by: 86_400) == 106_751_991_167_300)
        for a: Int64 in [.min, .min + 1, -86_401, -1, 0, 1, 86_401, .max] {
            for b: Int64 in [1, 7, 86_400, 1_000_000, .max] {
                let q = CivilTime.floorDivide(a, by: b)
                let r = CivilTime.floorModulo(a, by: b)
                #expect((0..<b).contains(r))
                #expect(q.multipliedReportingOverflow(by: b).partialValue &+ r == a)
            }
        }
    }

    @Test("ISO 8601 text, with a sign and more digits outside 0...9999")
    func description() {
        #expect(CivilTime(year: 2024, month: 3, day: 4, hour: 5, minute: 6, second: 7).description == "2024-03-04T05:06:07")
        #expect(CivilTime(year: 33, month: 1, day: 1).description == "0033-01-01T00:00:00")
        #expect(CivilTime(year: -1, month: 12, day: 31).description == "-0001-12-31T00:00:00")
        #expect(CivilTime(year: 12_345, month: 1, day: 1).description == "12345-01-01T00:00:00")
    }

    @Test("btsnoop's nominal 0 AD epoch: whole days before 1970, 2000-01-01 where BlueZ puts it")
    func btsnoopEpoch() {
        // The tools' constant is 719,540 days, not the 719,528 of a proleptic
        // Gregorian 0000-01-01: "0 AD" is nominal.
        #expect(DecodeTime.btsnoopEpochOffset == 719_540 * 86_400 * 1_000_000)
        #expect(DecodeTime.unixMicroseconds(btsnoop: 0) == -DecodeTime.btsnoopEpochOffset)
        #expect(DecodeTime.iso8601(DecodeTime.unixMicroseconds(btsnoop: 0)) == "-0001-12-20T00:00:00.000000Z")
        #expect(CivilTime.days(year: 0, month: 1, day: 1) == -719_528)
        // BlueZ: 0x00E03AB44A676000 is 2000-01-01T00:00:00Z.
        #expect(DecodeTime.iso8601(DecodeTime.unixMicroseconds(btsnoop: 0x00E0_3AB4_4A67_6000)) == "2000-01-01T00:00:00.000000Z")
        #expect(DecodeTime.timeOfDay(DecodeTime.unixMicroseconds(btsnoop: 0x00E0_3AB4_4A67_6000 + 5_000_042)) == "00:00:05.000042")
        // Every timestamp has a time, in order: those past Int64 (after year
        // 294,000) stop at Int64.max instead of wrapping to before 1970.
        #expect(DecodeTime.unixMicroseconds(btsnoop: 1 << 63) == Int64.max - DecodeTime.btsnoopEpochOffset + 1)
        #expect(DecodeTime.unixMicroseconds(btsnoop: UInt64(Int64.max) + UInt64(DecodeTime.btsnoopEpochOffset)) == .max)
        #expect(DecodeTime.unixMicroseconds(btsnoop: .max) == .max)
        #expect(DecodeTime.iso8601(.min) == "-290308-12-21T19:59:05.224192Z")
        #expect(DecodeTime.iso8601(.max) == "294247-01-10T04:00:54.775807Z")
    }
}
