import BoardConfig
import HAL
import LinuxHAL
import Peripheral
import TextFormat

/// The real machine: /dev, libgpiod, the mgmt socket, /proc.
public final class LiveDoctorSystem: DoctorSystem {
    public init() {}

    public func deviceAccess(_ path: String) -> SystemProbe.Access { SystemProbe.deviceAccess(path) }
    public func exists(_ path: String) -> Bool { SystemProbe.exists(path) }

    public func runningWatch(_ path: String) -> Result<RunningWatchStatus.Report?, HALError> {
        do throws(HALError) { return .success(try RunningWatchStatus.read(at: path)) } catch { return .failure(error) }
    }

    public func isRunning(pid: Int32) -> Bool { RunningWatchStatus.isRunning(pid) }

    public func readBattery(_ wiring: BatteryWiring) -> Result<BatteryReading, HALError> {
        do throws(HALError) {
            return .success(try LinuxBoardDevices.openGauge(wiring).read())
        } catch {
            return .failure(error)
        }
    }

    public func probeI2C(path: String, address: UInt8) -> HALError? {
        do {
            let device = try I2CDevice(path: path, address: address)
            defer { device.close() }
            try device.probe()
            return nil
        } catch { return error }
    }

    public func gpioLine(chip chipName: String, line: LineSelector) -> GPIOLineStatus {
        do {
            let chip = try GPIOChip(chipName)
            let offset: Int
            switch line {
            case .offset(let o): offset = o
            case .name(let n):
                guard let o = chip.offset(ofLineNamed: n) else { return .noSuchLine(chip: chip.name, label: chip.label) }
                offset = o
            }
            guard offset < chip.lineCount else { return .noSuchLine(chip: chip.name, label: chip.label) }
            let info = try chip.lineInfo(offset)
            return info.used
                ? .used(offset: offset, consumer: info.consumer, chip: chip.name, label: chip.label)
                : .free(offset: offset, name: info.name, chip: chip.name, label: chip.label)
        } catch { return .chipError(error) }
    }

    public func gpioChips() -> [String] {
        Self.devices(prefix: "gpiochip").map { name in
            guard let chip = try? GPIOChip("/dev/" + name) else { return name }
            return chip.label.isEmpty ? name : "\(name) [\(chip.label)]"
        }
    }

    public func i2cBuses() -> [String] { Self.devices(prefix: "i2c-").map { "/dev/" + $0 } }

    /// The names in /dev starting with `prefix` followed by a number, in numeric order.
    static func devices(prefix: String) -> [String] {
        let numbered = FileSystem.directoryEntries("/dev").compactMap { name -> (Int, String)? in
            guard name.hasPrefix(prefix), let n = IntegerText.int(name.dropFirst(prefix.count)) else { return nil }
            return (n, name)
        }
        return numbered.sorted { $0.0 < $1.0 }.map { $0.1 }
    }

    public func bluetoothAdapter(hciIndex: Int) -> BluetoothAdapterStatus {
        let socket: BluetoothManagementSocket
        do { socket = try BluetoothManagementSocket() } catch {
            return error.errno == 97 /* EAFNOSUPPORT */ ? .noKernelSupport : .unknown(error.description)
        }
        defer { socket.close() }
        do {
            let (status, reply) = try socket.query(ReadControllerInfo(), index: UInt16(hciIndex))
            if status == ManagementStatus.invalidIndex.rawValue { return .missing }
            guard status == 0, let info = reply.withUnsafeBytes({ ControllerInfo.decode($0) }) else {
                return .unknown("Read Controller Information: \(ManagementStatus(rawValue: status).map { "\($0)" } ?? "status \(status)")")
            }
            return .present(address: info.address, lowEnergy: info.supportsLowEnergy)
        } catch { return .unknown(error.description) }
    }

    public func isProcessRunning(_ command: String) -> Bool { SystemProbe.isProcessRunning(command) }
    public var isRoot: Bool { SystemProbe.isRoot }

    public var effectiveCapabilities: UInt64? {
        guard let bytes = try? AtomicFile.read("/proc/self/status") else { return nil }
        return Self.capEff(in: String(decoding: bytes, as: UTF8.self))
    }

    /// The CapEff mask from /proc/PID/status text.
    public static func capEff(in status: String) -> UInt64? {
        for line in status.split(separator: "\n") where line.hasPrefix("CapEff:") {
            return IntegerText.uint64(line.dropFirst("CapEff:".count).trimmingCharacters(in: " \t"), radix: 16)
        }
        return nil
    }

    public func isWritableDirectory(_ path: String) -> Bool { AtomicFile.isWritableDirectory(path) }

    public func stateDirectoryProblem(_ path: String) -> HALError? {
        do { try AtomicFile.checkDirectory(path) } catch { return error }
        return nil
    }

    public func probeWrite(_ path: String) -> HALError? { AtomicFile.probeWrite(path) }
    public func availableBytes(_ path: String) -> UInt64? { AtomicFile.availableBytes(path) }
    public func owner(_ path: String) -> FileOwner? { AtomicFile.owner(of: path) }
    public func userName(_ uid: UInt32) -> String { AtomicFile.userName(uid) }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}
