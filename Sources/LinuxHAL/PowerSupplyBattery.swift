import CLinux
import HAL

/// The watch's battery through Linux's power-supply class: any fuel gauge or
/// UPS HAT with a kernel driver publishes `/sys/class/power_supply/NAME/`
/// with `capacity` (percent) and `status` ("Charging", "Discharging",
/// "Full", "Not charging"), and often `voltage_now` (µV).
///
/// The attribute files are opened once, checked to be regular files, and
/// re-read with `pread` at offset 0 (sysfs produces the value anew on every
/// read) into a fixed buffer: a reading allocates nothing and never blocks
/// on anything but the driver.
public final class PowerSupplyBattery: BatteryGauge {
    public static let classDirectory = "/sys/class/power_supply"

    public let location: String
    private let capacity: Int32
    private let status: Int32
    private let voltage: Int32

    /// Opens `directory` (a power supply's folder). Throws, naming the file,
    /// when it has no readable `capacity`.
    public init(directory: String) throws(HALError) {
        location = directory
        capacity = try Self.openAttribute(directory + "/capacity", required: true)
        status = (try? Self.openAttribute(directory + "/status", required: false)) ?? -1
        voltage = (try? Self.openAttribute(directory + "/voltage_now", required: false)) ?? -1
    }

    /// The power supply `name`, or with nil the first one whose `type` is
    /// "Battery" (a board with one gauge needs no name).
    public convenience init(name: String?) throws(HALError) {
        if let name {
            try self.init(directory: Self.classDirectory + "/" + name)
            return
        }
        // The first by name, so the choice does not depend on readdir's order.
        var chosen: String?
        for entry in FileSystem.directoryEntries(Self.classDirectory) {
            guard let type = try? FileBytes.readIfPresent(Self.classDirectory + "/" + entry + "/type", limit: 64),
                type.withUnsafeBytes({ Self.trimmed($0).elementsEqual("Battery".utf8) })
            else { continue }
            if let c = chosen, !entry.utf8.lexicographicallyPrecedes(c.utf8) { continue }
            chosen = entry
        }
        if let chosen {
            try self.init(directory: Self.classDirectory + "/" + chosen)
            return
        }
        throw HALError(
            operation: "find a battery in \(Self.classDirectory)", errno: 0,
            reason: "no power supply there has type Battery",
            hint: "load the fuel gauge's kernel driver (its device-tree overlay), or read a MAX17048/MAX17043 directly "
                + "with \"battery\": {\"gauge\": \"max17048\", \"bus\": 1}; `ls \(Self.classDirectory)` lists what the kernel has")
    }

    deinit {
        _ = CLinux.close(capacity)
        if status >= 0 { _ = CLinux.close(status) }
        if voltage >= 0 { _ = CLinux.close(voltage) }
    }

    public func read() throws(HALError) -> BatteryReading {
        // On the stack: a reading allocates nothing.
        try withUnsafeTemporaryAllocation(byteCount: 32, alignment: 1) { (raw) throws(HALError) -> BatteryReading in
            try read(using: raw)
        }
    }

    private func read(using raw: UnsafeMutableRawBufferPointer) throws(HALError) -> BatteryReading {
        let text = try pread(capacity, raw, "capacity")
        guard let percent = Self.integer(text), percent >= 0, percent <= 100 else {
            throw HALError(operation: "read \(location)/capacity", errno: 0, reason: "not a percentage (0-100)")
        }
        var charging = false
        if status >= 0 {
            let state = try pread(status, raw, "status")
            // "Full" and "Not charging" are still on external power.
            charging = state.elementsEqual("Charging".utf8) || state.elementsEqual("Full".utf8)
                || state.elementsEqual("Not charging".utf8)
        }
        var millivolts: Int?
        if voltage >= 0, let text = try? pread(voltage, raw, "voltage_now"), let microvolts = Self.integer(text) {
            millivolts = microvolts / 1000
        }
        return BatteryReading(percent: percent, charging: charging, millivolts: millivolts)
    }

    // MARK: - Files

    /// Opens an attribute as `FileBytes` opens any outside file (non-blocking,
    /// refused unless a regular file).
    private static func openAttribute(_ path: String, required: Bool) throws(HALError) -> Int32 {
        guard let fd = try FileBytes.openIfPresent(path) else {
            throw Errno.noEntry.halError("open \(path)", hint: required
                ? "the power supply has no state of charge here; `ls \(classDirectory)` lists the supplies the kernel has" : nil)
        }
        do throws(HALError) { _ = try FileBytes.regularFileStatus(fd, path) } catch {
            _ = CLinux.close(fd)
            throw error
        }
        return fd
    }

    /// The attribute's value now, without its trailing newline.
    private func pread(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ attribute: StaticString) throws(HALError)
        -> UnsafeRawBufferPointer
    {
        let n: Int
        do { n = try retryingOnInterrupt { CLinux.pread(fd, buffer.baseAddress, buffer.count, 0) } } catch {
            throw error.halError("read \(location)/\(attribute)")
        }
        return Self.trimmed(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }

    /// The text without its trailing newline and spaces.
    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0D { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[0..<end])
    }

    /// A decimal integer, optionally negative.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var value = 0, negative = false, digits = 0
        for (i, b) in bytes.enumerated() {
            if i == 0 && b == UInt8(ascii: "-") { negative = true; continue }
            // Nine digits at most: no overflow where Int is 32 bits (armhf).
            guard b >= 0x30 && b <= 0x39, digits < 9 else { return nil }
            value = value * 10 + Int(b - 0x30)
            digits += 1
        }
        return digits == 0 ? nil : negative ? -value : value
    }
}
