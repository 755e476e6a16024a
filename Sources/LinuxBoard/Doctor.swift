import BoardConfig
import Display
import HAL
import LinuxHAL
import Peripheral

/// `wristcore doctor`: checks a board's devices and the system, one line per
/// check, each failure with the way to fix it. The system is read through
/// `DoctorSystem`, so tests describe a machine (no Bluetooth, no I2C,
/// bluetoothd running ...) and assert the exact report.
public struct Doctor {
    public let board: Board
    public let system: any DoctorSystem
    /// Where the bond store lives (`BondStore.defaultDirectory` unless overridden).
    public let stateDirectory: String
    /// Where a running watch writes its status (`RunningWatchStatus`).
    public let runtimeDirectory: String

    public init(board: Board, system: any DoctorSystem = LiveDoctorSystem(), stateDirectory: String = BondStore.defaultDirectory,
                runtimeDirectory: String = RunningWatchStatus.defaultDirectory) {
        self.board = board
        self.system = system
        self.stateDirectory = stateDirectory
        self.runtimeDirectory = runtimeDirectory
    }

    public struct Report: Sendable {
        public var lines: [String] = []
        public var failureCount = 0
        public var failed: Bool { failureCount > 0 }
        public init() {}
        public mutating func ok(_ s: String) { lines.append("ok    \(s)") }
        public mutating func warn(_ s: String) { lines.append("WARN  \(s)") }
        public mutating func fail(_ s: String) { lines.append("FAIL  \(s)"); failureCount += 1 }
    }

    public func check() -> Report {
        var r = Report()
        r.ok("board \(board.source): \(board.name)")
        checkI2C(&r)
        checkGPIO(&r)
        checkBattery(&r)
        checkBluetooth(&r)
        checkPrivileges(&r)
        checkStateDirectory(&r)
        checkRunningWatch(&r)
        return r
    }

    /// The running watch's own account (the Status screen's causes, as the
    /// service wrote them): a warning per cause. None running (no file) is
    /// no fault, and says nothing.
    func checkRunningWatch(_ r: inout Report) {
        let path = runtimeDirectory + "/" + RunningWatchStatus.fileName
        switch system.runningWatch(path) {
        case .success(nil):
            return
        case .failure(let e):
            r.warn("running watch: \(e)")
        case .success(let report?):
            guard system.isRunning(pid: report.pid) else {
                r.warn("\(path) names pid \(report.pid), which is not running: the service stopped without removing it (systemd removes it on a clean stop)")
                return
            }
            r.ok("running watch (pid \(report.pid)): \(report.status)")
            for cause in report.causes { r.warn("running watch: \(cause.words)") }
        }
    }

    /// The board's battery gauge, read once (a board without one: nothing).
    /// A failure is a warning: the watch runs without its level.
    func checkBattery(_ r: inout Report) {
        guard let wiring = board.battery else { return }
        switch system.readBattery(wiring) {
        case .success(let b):
            r.ok("battery \(b.percent)%\(b.charging ? ", charging" : "")\(b.millivolts.map { ", \($0) mV" } ?? "")")
        case .failure(let e):
            r.warn("battery: \(e) (the watch runs without its level; docs/battery.md)")
        }
    }

    static func hex(_ a: UInt8) -> String { "0x" + String(a, radix: 16, uppercase: true) }

    func checkI2C(_ r: inout Report) {
        let d = board.display
        let path = d.devicePath
        switch system.deviceAccess(path) {
        case .ok:
            if let error = system.probeI2C(path: path, address: d.address) {
                r.fail("display \(d.controller.rawValue) does not answer at \(Self.hex(d.address)) on \(path): \(error.reason). Check the wiring (SDA, SCL, 3.3 V, GND), that 'i2cdetect -y \(d.bus)' shows it, and the board file's display.address (usually 0x3C or 0x3D)")
            } else {
                r.ok("display \(d.controller.rawValue) answers at \(Self.hex(d.address)) on \(path)")
            }
        case .missing:
            let buses = system.i2cBuses()
            let enable = "On a Raspberry Pi enable I2C: 'sudo raspi-config nonint do_i2c 0' (or add 'dtparam=i2c_arm=on' to /boot/firmware/config.txt) and reboot; elsewhere load i2c-dev ('sudo modprobe i2c-dev') and enable the board's I2C overlay."
            if buses.isEmpty {
                r.fail("I2C bus \(path) does not exist, and this machine has no I2C buses at all (no /dev/i2c-*): I2C is not enabled, or this is not the board the file is for. \(enable) To try WristCore without hardware: --board sim")
            } else {
                r.fail("I2C bus \(path) does not exist; this machine has \(Self.listed(Array(buses.prefix(8)), more: buses.count - 8)). \(enable) Or, if the display is on one of those, set display.bus in the board file ('i2cdetect -y N' shows what answers on bus N).")
            }
        case .permissionDenied:
            r.fail("I2C bus \(path) exists but this user may not open it: install deploy/99-wristcore.rules (group i2c) and 'sudo usermod -aG i2c $USER', then log in again")
        case .other(let e):
            r.fail("I2C bus \(path): \(e)")
        }
    }

    /// One line per button and the motor, except that a chip which cannot be
    /// opened (missing, not permitted) is one line for all the lines that use
    /// it, naming them: five lines on a missing chip said the same thing five
    /// times. A missing chip on a machine without any GPIO chip says so.
    func checkGPIO(_ r: inout Report) {
        var lines: [(what: String, chip: String, line: LineSelector)] = board.buttons.map { ("\($0.role.rawValue) button", $0.chip, $0.line) }
        if let m = board.motor { lines.append(("motor", m.chip, m.line)) }
        enum Entry {
            case ok(String)
            case fail(String)
            /// A chip that could not be opened: `chipFailures[index]`.
            case chip(Int)
        }
        // Chip-level failures, by chip as written and error; reported where the first one was met.
        var chipFailures: [(chip: String, error: HALError, users: [String])] = []
        var entries: [Entry] = []
        for (what, chip, selector) in lines {
            switch system.gpioLine(chip: chip, line: selector) {
            case .free(let offset, let name, let chipName, let label):
                entries.append(.ok("\(what): line \(offset)\(name.isEmpty ? "" : " (\(name))") of \(chipName) (\(label)) is free"))
            case .used(let offset, let consumer, let chipName, let label):
                entries.append(.fail("\(what): line \(offset) of \(chipName) (\(label)) is in use by \"\(consumer)\"; stop that program or choose a free line ('gpioinfo \(chipName)')"))
            case .noSuchLine(let chipName, let label):
                entries.append(.fail("\(what): chip \(chip) (\(chipName), \(label)) has no line \(selector); 'gpioinfo \(chipName)' lists the lines"))
            case .chipError(let error):
                if let i = chipFailures.firstIndex(where: { $0.chip == chip && $0.error == error }) {
                    chipFailures[i].users.append(what)
                } else {
                    entries.append(.chip(chipFailures.count))
                    chipFailures.append((chip, error, [what]))
                }
            }
        }
        var present: [String]?
        for entry in entries {
            switch entry {
            case .ok(let line): r.ok(line)
            case .fail(let line): r.fail(line)
            case .chip(let i):
                let (chip, error, users) = chipFailures[i]
                let who = Self.gpioUsers(users)
                guard Self.chipIsMissing(error) else {
                    r.fail("\(who): \(error)")
                    continue
                }
                let chips = present ?? system.gpioChips()
                present = chips
                if chips.isEmpty {
                    r.fail("GPIO chip \"\(chip)\" (used by \(who)) does not exist, and this machine has no GPIO chips at all (no /dev/gpiochip*): is this the board the file is for? Run the doctor on the watch's own board with its board file ('wristcore setup --list' shows the shipped ones), or try WristCore without hardware with --board sim")
                } else {
                    r.fail("GPIO chip \"\(chip)\" (used by \(who)) does not exist; this machine has \(Self.listed(Array(chips.prefix(8)), more: chips.count - 8)). If this is the board the file is for, set \"chip\" in the board file to one of them (a path, a name or a label; 'gpiodetect' lists them); if not, use this board's own file ('wristcore setup --list' shows the shipped ones)")
                }
            }
        }
    }

    /// Whether opening a chip failed because there is no such chip.
    static func chipIsMissing(_ error: HALError) -> Bool { error.errno == 2 /* ENOENT */ || error.errno == 19 /* ENODEV */ }

    /// "the positive button", "the positive and negative buttons and the motor".
    static func gpioUsers(_ users: [String]) -> String {
        let buttons = users.filter { $0.hasSuffix(" button") }.map { String($0.dropLast(" button".count)) }
        var parts: [String] = []
        if !buttons.isEmpty { parts.append("the " + listed(buttons) + (buttons.count == 1 ? " button" : " buttons")) }
        parts += users.filter { !$0.hasSuffix(" button") }.map { "the " + $0 }
        return listed(parts)
    }

    /// "a", "a and b", "a, b and c"; "a, b and 3 more".
    static func listed(_ items: [String], more: Int = 0) -> String {
        let items = more > 0 ? items + ["\(more) more"] : items
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    func checkBluetooth(_ r: inout Report) {
        let hci = "hci\(board.bluetooth.hciIndex)"
        switch system.bluetoothAdapter(hciIndex: board.bluetooth.hciIndex) {
        case .noKernelSupport:
            r.fail("this kernel has no Bluetooth support: 'sudo modprobe bluetooth' (and the adapter's driver, e.g. hci_uart or btusb), or use a kernel built with CONFIG_BT")
        case .missing:
            r.fail("Bluetooth adapter \(hci) not found: check 'ls /sys/class/bluetooth', that the adapter is not rfkill-blocked ('rfkill unblock bluetooth'), and the board file's bluetooth.hci")
        case .present(let address, let lowEnergy):
            if lowEnergy {
                r.ok("Bluetooth adapter \(hci) (\(address)) supports Low Energy")
            } else {
                r.fail("Bluetooth adapter \(hci) (\(address)) does not support Low Energy: use a Bluetooth 4.0+ adapter and set bluetooth.hci in the board file")
            }
        case .unknown(let why):
            if system.exists("/sys/class/bluetooth/\(hci)") {
                r.warn("Bluetooth adapter \(hci) exists, but its capabilities could not be read (\(why))")
            } else {
                r.fail("Bluetooth adapter \(hci) not found (\(why)): check 'ls /sys/class/bluetooth' and the board file's bluetooth.hci")
            }
        }
        if system.isProcessRunning("bluetoothd") {
            r.fail("bluetoothd is running and holds the Bluetooth adapter: 'sudo systemctl disable --now bluetooth.service' (deploy/wristcore.service has Conflicts=bluetooth.service)")
        } else {
            r.ok("bluetoothd is not running")
        }
    }

    /// CAP_NET_ADMIN (12) in CapEff: the management socket needs it; nothing
    /// the daemon does needs CAP_NET_RAW (proved in the VM: docs/service-hardening.md).
    static let neededCapabilities: [(bit: UInt64, name: String)] = [(12, "CAP_NET_ADMIN")]

    func checkPrivileges(_ r: inout Report) {
        if system.isRoot {
            r.ok("running as root")
            return
        }
        guard let caps = system.effectiveCapabilities else {
            r.fail("cannot read this process's capabilities (/proc/self/status CapEff); run as root or through deploy/wristcore.service")
            return
        }
        let missing = Self.neededCapabilities.filter { caps & (1 << $0.bit) == 0 }.map { $0.name }
        if missing.isEmpty {
            r.ok("capability CAP_NET_ADMIN is effective")
        } else {
            r.fail("missing \(missing.joined(separator: " and ")) (needed to own the Bluetooth controller): run through deploy/wristcore.service (AmbientCapabilities=CAP_NET_ADMIN), or as root")
        }
    }

    /// Below this much free space the doctor warns: a new bond could not be saved.
    public static let lowSpaceWarning: UInt64 = 64 * 1024
    /// Below this much (one filesystem block) it fails.
    public static let noSpaceFailure: UInt64 = 4 * 1024

    static func installHint(_ dir: String) -> String {
        "'sudo install -d -o wristcore -g wristcore -m 700 \(dir)' (deploy/wristcore.service's StateDirectory= does this), or pass --state-dir"
    }

    /// Whether the bond store can be written, as the user the doctor runs as:
    /// the directory's owner and mode (not group/world-writable), a real
    /// write (create, write, fsync, remove), the bond file's owner (the
    /// directory's, or the daemon cannot read it), and free space.
    func checkStateDirectory(_ r: inout Report) {
        let dir = stateDirectory
        let install = Self.installHint(dir)
        var spaceChecked = dir
        if system.exists(dir) {
            if let problem = system.stateDirectoryProblem(dir) {
                r.fail("state directory \(dir) is unsafe: \(problem.reason)\(problem.hint.map { "; fix: \($0)" } ?? "")")
            } else if let error = system.probeWrite(dir) {
                if error.isOutOfSpace {
                    r.fail("state directory \(dir): \(error.reason); new bonds cannot be saved (the phone would have to pair again after a restart). \(Self.freeSpaceHint(dir))")
                    return
                } else if error.errno == HALError.FileErrno.permissionDenied || error.errno == HALError.FileErrno.notPermitted {
                    r.fail("state directory \(dir) is not writable by this user: \(install)")
                } else {
                    r.fail("state directory \(dir) is not writable by this user (\(error.operation): \(error.reason)): \(install)")
                }
            } else {
                r.ok("state directory \(dir) is writable\(system.availableBytes(dir).map { " (\(Self.size($0)) free)" } ?? "")")
            }
            checkBondFileOwner(&r)
        } else {
            let parent = "/" + dir.split(separator: "/").dropLast().joined(separator: "/")
            spaceChecked = parent
            if system.isWritableDirectory(parent) {
                r.ok("state directory \(dir) will be created")
            } else {
                r.fail("state directory \(dir) does not exist and cannot be created: \(install)")
            }
        }
        if let free = system.availableBytes(spaceChecked) {
            if free < Self.noSpaceFailure {
                r.fail("the filesystem holding \(spaceChecked) is full (\(Self.size(free)) free): new bonds cannot be saved (the phone would have to pair again after a restart). \(Self.freeSpaceHint(spaceChecked))")
            } else if free < Self.lowSpaceWarning {
                r.warn("the filesystem holding \(spaceChecked) has only \(Self.size(free)) free: a new bond may not fit. \(Self.freeSpaceHint(spaceChecked))")
            }
        }
    }

    /// A `bonds` file of another owner than the directory's (root's, after an
    /// older `sudo wristcore forget`): the daemon cannot read it.
    func checkBondFileOwner(_ r: inout Report) {
        let dir = stateDirectory
        let file = (dir.hasSuffix("/") ? dir : dir + "/") + BondStore.fileName
        guard let d = system.owner(dir), let f = system.owner(file), f.uid != d.uid || f.gid != d.gid else { return }
        r.fail("\(file) belongs to \(system.userName(f.uid)), not to the state directory's owner \(system.userName(d.uid)), so the daemon cannot read it (an older 'sudo wristcore forget' did this): 'sudo chown \(d.uid):\(d.gid) \(file)'")
    }

    static func freeSpaceHint(_ dir: String) -> String {
        "Free space: 'df -h \(dir)', then e.g. 'sudo journalctl --vacuum-size=50M', 'sudo apt-get clean', or delete old files"
    }

    /// "512 bytes", "12.5 KiB", "3.0 MiB", "1.2 GiB".
    static func size(_ bytes: UInt64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
