import HAL
import LinuxHAL
import Log
import Timekeeping

/// The wearer's alarms (`AlarmList`'s own rows), kept in the state
/// directory as `alarms` so a restart or a reboot keeps them: one line per
/// alarm, `HH:MM DAYS on|off`, DAYS seven places Monday to Sunday, each the
/// day's letter or `-` ("MTWTF--": Monday to Friday; "-------": once).
/// A `StateFile` (read once, at most `maxFileBytes`; replaced whole, 0600)
/// whenever the wearer changes one or a one-time alarm rings. A line that
/// is not an alarm is skipped and logged; the phone's alarms are not kept
/// here (the phone sends them again).
public struct AlarmsFile {
    public static let fileName = "alarms"
    public static let maxFileBytes = 4 * 1024
    let file: StateFile
    public var path: String { file.path }

    public init(stateDirectory: String) { file = StateFile(stateDirectory: stateDirectory, name: Self.fileName) }

    /// The alarms kept (at most `AlarmList.capacity`).
    public func load(logger: Logger) -> [Alarm] {
        guard let bytes = file.read(limit: Self.maxFileBytes, logger: logger, otherwise: "no alarm is kept from before the restart") else { return [] }
        let (alarms, skipped) = Self.decode(bytes)
        if skipped > 0 { logger.warning("\(path): \(skipped) line(s) that are not an alarm skipped") }
        return alarms
    }

    /// Replaces the file with the wearer's alarms (removes it when there are none).
    public func save(_ alarms: AlarmList) throws(HALError) { try file.replace(with: Self.encode(alarms)) }

    static let dayLetters: [UInt8] = Array("MTWTFSS".utf8)

    static func encode(_ alarms: AlarmList) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<alarms.ownCount {
            let a = alarms[i]
            out += [0x30 + UInt8(a.hour / 10), 0x30 + UInt8(a.hour % 10), 0x3A, 0x30 + UInt8(a.minute / 10), 0x30 + UInt8(a.minute % 10), 0x20]
            for d in 1...7 { out.append(a.days.contains(weekday: d) ? dayLetters[d - 1] : 0x2D) }
            out += Array(a.enabled ? " on\n".utf8 : " off\n".utf8)
        }
        return out
    }

    static func decode(_ bytes: [UInt8]) -> (alarms: [Alarm], skipped: Int) {
        var alarms: [Alarm] = []
        var skipped = 0
        for line in bytes.split(separator: 0x0A) {
            guard alarms.count < AlarmList.capacity, let alarm = Self.alarm(Array(line)) else {
                skipped += 1
                continue
            }
            alarms.append(alarm)
        }
        return (alarms, skipped)
    }

    /// `HH:MM DAYS on|off`, exactly.
    static func alarm(_ l: [UInt8]) -> Alarm? {
        guard l.count == 16 || l.count == 17, l[2] == 0x3A, l[5] == 0x20, l[13] == 0x20 else { return nil }
        func digit(_ i: Int) -> Int? { (0x30...0x39).contains(l[i]) ? Int(l[i] - 0x30) : nil }
        guard let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4) else { return nil }
        var days: UInt8 = 0
        for d in 0..<7 {
            switch l[6 + d] {
            case dayLetters[d]: days |= 1 << UInt8(d)
            case 0x2D: break
            default: return nil
            }
        }
        let state = Array(l[14...])
        guard state == Array("on".utf8) || state == Array("off".utf8) else { return nil }
        let alarm = Alarm(hour: h1 * 10 + h2, minute: m1 * 10 + m2, days: AlarmDays(rawValue: days), enabled: state == Array("on".utf8))
        return alarm.isValid ? alarm : nil
    }
}
