// libFuzzer target for the Current Time Service values the phone sends
// (PhoneServices' CurrentTime and LocalTimeInformation) and the calendar
// arithmetic the watch applies to them (HAL's CivilTime).
//
// Input: the value's bytes; the bytes after the first 10 also pick how long
// after the value arrived the watch asks for the phone's time.
// Invariants:
// - parsing never traps; an accepted value re-encodes to its first bytes;
// - a known date turns into seconds and back without loss, with a weekday;
// - a valid calendar date comes back field for field;
// - the phone's time at any later instant is defined (no overflow).

import HAL
import PhoneServices

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)

    if let lti = LocalTimeInformation(input) {
        precondition(input.count >= 2)
        precondition(lti.bytes.elementsEqual(input.prefix(2)), "Local Time Information does not re-encode")
        if let offset = lti.utcOffsetSeconds { precondition(abs(offset) <= 64 * 900) }
    }

    guard let time = CurrentTime(input) else {
        precondition(input.count < 10 || !isInRange(input), "a valid Current Time was rejected")
        return 0
    }
    precondition(time.bytes.elementsEqual(input.prefix(10)), "Current Time does not re-encode")
    guard let seconds = time.secondsSinceEpoch, let civil = time.civil else {
        precondition(!time.isDateKnown)
        return 0
    }
    let back = CivilTime(secondsSinceEpoch: seconds)
    precondition(back.secondsSinceEpoch == seconds, "seconds do not round-trip")
    precondition((1...7).contains(back.weekday))
    if civil.day <= CivilTime.daysIn(month: civil.month, year: civil.year) {
        precondition(back == civil, "a valid date does not come back: \(civil) → \(back)")
        let value = CurrentTime(back)
        precondition(value.year == time.year && value.month == time.month && value.day == time.day)
        precondition(value.hours == time.hours && value.minutes == time.minutes && value.seconds == time.seconds)
    }

    var elapsed: UInt64 = 0
    for b in input.dropFirst(10).prefix(8) { elapsed = elapsed << 8 | UInt64(b) }
    let clock = PhoneClock(time: time, receivedAt: .zero)
    let later = clock.localTime(at: MonotonicInstant(nanoseconds: elapsed))
    precondition(later != nil && later!.isDateKnown)
    if elapsed < 1_000_000_000 - UInt64(time.fractions256) * 1_000_000_000 / 256 {
        precondition(later!.secondsSinceEpoch == seconds, "under a second later is the same second")
    }
    return 0
}

/// Whether the 10 bytes hold fields a Current Time accepts.
private func isInRange(_ b: UnsafeRawBufferPointer) -> Bool {
    let year = UInt16(b[0]) | UInt16(b[1]) << 8
    return (year == 0 || (1582...9999).contains(year)) && b[2] <= 12 && b[3] <= 31 && b[4] < 24 && b[5] < 60
        && b[6] < 60 && b[7] <= 7
}
