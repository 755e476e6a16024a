import BoardConfig
import Glibc
import HAL
import LinuxHAL
import Testing
@testable import BoardConfig
@testable import WristCore
@testable import LinuxBoard

/// A machine described by the test.
final class FakeDoctorSystem: DoctorSystem {
    var devices: [String: SystemProbe.Access] = ["/dev/i2c-1": .ok]
    var displayError: HALError?
    var lines: [String: GPIOLineStatus] = [:]
    var adapter: BluetoothAdapterStatus = .present(address: BluetoothAddress("B8:27:EB:00:00:01")!, lowEnergy: true)
    var processes: Set<String> = []
    var isRoot = false
    var effectiveCapabilities: UInt64? = (1 << 12) | (1 << 13)
    var writable: Set<String> = ["/var/lib/wristcore"]
    var paths: Set<String> = ["/var/lib/wristcore"]

    func deviceAccess(_ path: String) -> SystemProbe.Access { devices[path] ?? .missing }
    func exists(_ path: String) -> Bool { paths.contains(path) || devices[path] != nil }
    func probeI2C(path: String, address: UInt8) -> HALError? { displayError }
    /// Chips that cannot be opened, as the live system reports it (errno ENOENT).
    var missingChips: Set<String> = []
    /// What /dev holds.
    var chips = ["gpiochip0 [pinctrl-bcm2835]"]
    func gpioChips() -> [String] { chips }
    func i2cBuses() -> [String] { devices.keys.filter { $0.hasPrefix("/dev/i2c-") }.sorted() }
    func gpioLine(chip: String, line: LineSelector) -> GPIOLineStatus {
        if missingChips.contains(chip) {
            return .chipError(HALError(operation: "open GPIO chip \"\(chip)\"", errno: ENOENT, reason: "No such file or directory",
                                       hint: "list the chips with 'gpiodetect' (package gpiod) and use a path, name or label from it"))
        }
        return lines["\(chip):\(line)"] ?? {
            if case .offset(let o) = line { return .free(offset: o, name: "GPIO\(o)", chip: "gpiochip0", label: "pinctrl-bcm2835") }
            return .noSuchLine(chip: "gpiochip0", label: "pinctrl-bcm2835")
        }()
    }
    func bluetoothAdapter(hciIndex: Int) -> BluetoothAdapterStatus { adapter }
    var battery: Result<BatteryReading, HALError> = .success(BatteryReading(percent: 64, charging: false, millivolts: 3861))
    func readBattery(_ wiring: BatteryWiring) -> Result<BatteryReading, HALError> { battery }
    func isProcessRunning(_ command: String) -> Bool { processes.contains(command) }
    func isWritableDirectory(_ path: String) -> Bool { writable.contains(path) }
    var unsafe: [String: HALError] = [:]
    var writeFailures: [String: HALError] = [:]
    var free: [String: UInt64] = [:]
    var owners: [String: FileOwner] = [:]
    func stateDirectoryProblem(_ path: String) -> HALError? { unsafe[path] }
    func probeWrite(_ path: String) -> HALError? {
        if let e = writeFailures[path] { return e }
        return writable.contains(path) ? nil : HALError(operation: "create a file in \(path)", errno: 13, reason: "Permission denied")
    }
    func availableBytes(_ path: String) -> UInt64? { free[path] ?? 12 * 1024 * 1024 * 1024 }
    func owner(_ path: String) -> FileOwner? { owners[path] }
    func userName(_ uid: UInt32) -> String { uid == 0 ? "root (uid 0)" : uid == 999 ? "wristcore (uid 999)" : "uid \(uid)" }
    /// The running watch's status file, and the processes that run.
    var watchStatus: Result<RunningWatchStatus.Report?, HALError> = .success(nil)
    var watchStatusPaths: [String] = []
    var runningPIDs: Set<Int32> = []
    func runningWatch(_ path: String) -> Result<RunningWatchStatus.Report?, HALError> {
        watchStatusPaths.append(path)
        return watchStatus
    }
    func isRunning(pid: Int32) -> Bool { runningPIDs.contains(pid) }
}

@Suite struct DoctorTests {
    let board = Board(
        name: "Test board", simulated: false,
        display: DisplayWiring(controller: .ssd1306, bus: 1, address: 0x3C, width: 128, height: 64, columnOffset: 0,
                               rotation: 0, contrast: 0x7F, flip: false),
        buttons: [
            ButtonWiring(role: .positive, chip: "gpiochip0", line: .offset(17), activeLow: true, bias: .pullUp),
            ButtonWiring(role: .negative, chip: "gpiochip0", line: .offset(27), activeLow: true, bias: .pullUp),
        ],
        motor: MotorWiring(chip: "gpiochip0", line: .offset(22), activeLow: false),
        input: .defaults, bluetooth: .defaults, source: "Boards/test.json")

    static let healthy = [
        "ok    board Boards/test.json: Test board",
        "ok    display ssd1306 answers at 0x3C on /dev/i2c-1",
        "ok    positive button: line 17 (GPIO17) of gpiochip0 (pinctrl-bcm2835) is free",
        "ok    negative button: line 27 (GPIO27) of gpiochip0 (pinctrl-bcm2835) is free",
        "ok    motor: line 22 (GPIO22) of gpiochip0 (pinctrl-bcm2835) is free",
        "ok    Bluetooth adapter hci0 (B8:27:EB:00:00:01) supports Low Energy",
        "ok    bluetoothd is not running",
        "ok    capability CAP_NET_ADMIN is effective",
        "ok    state directory /var/lib/wristcore is writable (12.0 GiB free)",
    ]

    @Test func healthyMachinePasses() {
        let report = Doctor(board: board, system: FakeDoctorSystem()).check()
        #expect(report.lines == Self.healthy)
        #expect(!report.failed)
    }

    @Test func aBoardWithABatteryReadsItOnceAndWarnsWhenItCannot() {
        var b = board
        b.battery = BatteryWiring(gauge: .max17048(bus: 1, address: 0x36))
        let system = FakeDoctorSystem()
        var report = Doctor(board: b, system: system).check()
        #expect(report.lines[5] == "ok    battery 64%, 3861 mV")
        #expect(Array(report.lines[6...]) == Array(Self.healthy[5...]))
        system.battery = .failure(HALError(operation: "select 0x36 on /dev/i2c-1", errno: 16, reason: "Device or resource busy",
                                           hint: "a kernel driver already owns this fuel gauge"))
        report = Doctor(board: b, system: system).check()
        #expect(report.lines[5] == "WARN  battery: select 0x36 on /dev/i2c-1: Device or resource busy; a kernel driver already owns this fuel gauge (the watch runs without its level; docs/battery.md)")
        #expect(!report.failed)
    }

    @Test func machineWithoutBluetooth() {
        let system = FakeDoctorSystem()
        system.adapter = .noKernelSupport
        var report = Doctor(board: board, system: system).check()
        #expect(report.lines[5] == "FAIL  this kernel has no Bluetooth support: 'sudo modprobe bluetooth' (and the adapter's driver, e.g. hci_uart or btusb), or use a kernel built with CONFIG_BT")
        #expect(report.failureCount == 1)
        #expect(Array(report.lines[6...]) == Array(Self.healthy[6...]))

        system.adapter = .missing
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[5] == "FAIL  Bluetooth adapter hci0 not found: check 'ls /sys/class/bluetooth', that the adapter is not rfkill-blocked ('rfkill unblock bluetooth'), and the board file's bluetooth.hci")
        #expect(report.failureCount == 1)

        system.adapter = .present(address: BluetoothAddress("00:1A:7D:DA:71:13")!, lowEnergy: false)
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[5] == "FAIL  Bluetooth adapter hci0 (00:1A:7D:DA:71:13) does not support Low Energy: use a Bluetooth 4.0+ adapter and set bluetooth.hci in the board file")
    }

    @Test func machineWithoutI2C() {
        let system = FakeDoctorSystem()
        system.devices = [:]
        var report = Doctor(board: board, system: system).check()
        #expect(report.lines[1] == "FAIL  I2C bus /dev/i2c-1 does not exist, and this machine has no I2C buses at all (no /dev/i2c-*): I2C is not enabled, or this is not the board the file is for. On a Raspberry Pi enable I2C: 'sudo raspi-config nonint do_i2c 0' (or add 'dtparam=i2c_arm=on' to /boot/firmware/config.txt) and reboot; elsewhere load i2c-dev ('sudo modprobe i2c-dev') and enable the board's I2C overlay. To try WristCore without hardware: --board sim")
        #expect(report.failureCount == 1)
        #expect(Array(report.lines[2...]) == Array(Self.healthy[2...]))

        // Other buses exist: they are named (the display may be on one of them).
        system.devices = ["/dev/i2c-20": .ok, "/dev/i2c-21": .ok]
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[1] == "FAIL  I2C bus /dev/i2c-1 does not exist; this machine has /dev/i2c-20 and /dev/i2c-21. On a Raspberry Pi enable I2C: 'sudo raspi-config nonint do_i2c 0' (or add 'dtparam=i2c_arm=on' to /boot/firmware/config.txt) and reboot; elsewhere load i2c-dev ('sudo modprobe i2c-dev') and enable the board's I2C overlay. Or, if the display is on one of those, set display.bus in the board file ('i2cdetect -y N' shows what answers on bus N).")
        #expect(report.failureCount == 1)
    }

    /// Issue 27.3: a chip that does not exist is one line naming it and every
    /// line that uses it (it was five identical lines on a four-button board),
    /// and says so when the machine has no GPIO chip at all.
    @Test func aMissingChipIsOneLine() {
        let fourButtons = Board(
            name: "Four buttons", simulated: false, display: board.display,
            buttons: [
                ButtonWiring(role: .positive, chip: "gpiochip0", line: .offset(17), activeLow: true, bias: .pullUp),
                ButtonWiring(role: .negative, chip: "gpiochip0", line: .offset(27), activeLow: true, bias: .pullUp),
                ButtonWiring(role: .select, chip: "gpiochip0", line: .offset(22), activeLow: true, bias: .pullUp),
                ButtonWiring(role: .back, chip: "gpiochip0", line: .offset(23), activeLow: true, bias: .pullUp),
            ],
            motor: MotorWiring(chip: "gpiochip0", line: .offset(18), activeLow: false),
            input: .defaults, bluetooth: .defaults, source: "Boards/test.json")
        let system = FakeDoctorSystem()
        system.missingChips = ["gpiochip0"]
        system.chips = []
        var report = Doctor(board: fourButtons, system: system).check()
        var gpio = report.lines.filter { $0.contains("gpiochip") }
        #expect(gpio == [
            "FAIL  GPIO chip \"gpiochip0\" (used by the positive, negative, select and back buttons and the motor) does not exist, and this machine has no GPIO chips at all (no /dev/gpiochip*): is this the board the file is for? Run the doctor on the watch's own board with its board file ('wristcore setup --list' shows the shipped ones), or try WristCore without hardware with --board sim"
        ])
        #expect(report.failureCount == 1)
        #expect(report.lines.count == Self.healthy.count - 2)  // five GPIO lines became one

        // Chips exist, just not this one: they are named.
        system.chips = ["gpiochip0 [pinctrl-rp1]", "gpiochip10 [rp1-gpio]"]
        system.missingChips = ["gpiochip4"]
        var mixed = fourButtons
        mixed.buttons[2].chip = "gpiochip4"
        mixed.buttons[3].chip = "gpiochip4"
        report = Doctor(board: mixed, system: system).check()
        gpio = report.lines.filter { $0.contains("gpiochip") }
        #expect(gpio == [
            "ok    positive button: line 17 (GPIO17) of gpiochip0 (pinctrl-bcm2835) is free",
            "ok    negative button: line 27 (GPIO27) of gpiochip0 (pinctrl-bcm2835) is free",
            "FAIL  GPIO chip \"gpiochip4\" (used by the select and back buttons) does not exist; this machine has gpiochip0 [pinctrl-rp1] and gpiochip10 [rp1-gpio]. If this is the board the file is for, set \"chip\" in the board file to one of them (a path, a name or a label; 'gpiodetect' lists them); if not, use this board's own file ('wristcore setup --list' shows the shipped ones)",
            "ok    motor: line 18 (GPIO18) of gpiochip0 (pinctrl-bcm2835) is free",
        ])
        #expect(report.failureCount == 1)

        // Another failure to open a chip (permission) is folded too, with its own words.
        system.missingChips = []
        let denied = HALError(operation: "open GPIO chip \"gpiochip0\"", errno: EACCES, reason: "Permission denied", hint: "add your user to the 'gpio' group")
        for offset in [17, 27, 22, 23, 18] { system.lines["gpiochip0:\(offset)"] = .chipError(denied) }
        report = Doctor(board: fourButtons, system: system).check()
        gpio = report.lines.filter { $0.contains("gpiochip") }
        #expect(gpio == ["FAIL  the positive, negative, select and back buttons and the motor: \(denied)"])
    }

    @Test func displayNotAnswering() {
        let system = FakeDoctorSystem()
        system.displayError = HALError(operation: "write to 0x3C on /dev/i2c-1", errno: 121, reason: "Remote I/O error")
        let report = Doctor(board: board, system: system).check()
        #expect(report.lines[1] == "FAIL  display ssd1306 does not answer at 0x3C on /dev/i2c-1: Remote I/O error. Check the wiring (SDA, SCL, 3.3 V, GND), that 'i2cdetect -y 1' shows it, and the board file's display.address (usually 0x3C or 0x3D)")
    }

    @Test func machineWithBluetoothdRunning() {
        let system = FakeDoctorSystem()
        system.processes = ["bluetoothd"]
        let report = Doctor(board: board, system: system).check()
        #expect(report.lines[6] == "FAIL  bluetoothd is running and holds the Bluetooth adapter: 'sudo systemctl disable --now bluetooth.service' (deploy/wristcore.service has Conflicts=bluetooth.service)")
        #expect(report.failureCount == 1)
    }

    @Test func privileges() {
        let system = FakeDoctorSystem()
        system.effectiveCapabilities = 1 << 13  // CAP_NET_RAW alone does not help
        var report = Doctor(board: board, system: system).check()
        #expect(report.lines[7] == "FAIL  missing CAP_NET_ADMIN (needed to own the Bluetooth controller): run through deploy/wristcore.service (AmbientCapabilities=CAP_NET_ADMIN), or as root")
        system.effectiveCapabilities = 1 << 12  // CAP_NET_ADMIN alone is enough
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[7] == "ok    capability CAP_NET_ADMIN is effective")
        system.isRoot = true
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[7] == "ok    running as root")
        #expect(LiveDoctorSystem.capEff(in: "Name:\tx\nCapInh:\t0000000000000000\nCapEff:\t000001fffeffffff\n") == 0x1fffeffffff)
        #expect(LiveDoctorSystem.capEff(in: "Name:\tx\n") == nil)
    }

    @Test func gpioLineInUseAndStateDirectory() {
        let system = FakeDoctorSystem()
        system.lines["gpiochip0:27"] = .used(offset: 27, consumer: "gpio-keys", chip: "gpiochip0", label: "pinctrl-bcm2835")
        system.writable = []
        let report = Doctor(board: board, system: system, stateDirectory: "/var/lib/wristcore").check()
        #expect(report.lines[3] == "FAIL  negative button: line 27 of gpiochip0 (pinctrl-bcm2835) is in use by \"gpio-keys\"; stop that program or choose a free line ('gpioinfo gpiochip0')")
        #expect(report.lines[8] == "FAIL  state directory /var/lib/wristcore is not writable by this user: 'sudo install -d -o wristcore -g wristcore -m 700 /var/lib/wristcore' (deploy/wristcore.service's StateDirectory= does this), or pass --state-dir")
        #expect(report.failureCount == 2)

        system.paths = []
        system.writable = ["/var/lib"]
        #expect(Doctor(board: board, system: system).check().lines[8] == "ok    state directory /var/lib/wristcore will be created")
    }

    /// Issue 14.4: free space of the state directory (a full disk loses new bonds).
    @Test func stateDirectoryFreeSpace() {
        let system = FakeDoctorSystem()
        system.free["/var/lib/wristcore"] = 40 * 1024
        var report = Doctor(board: board, system: system).check()
        #expect(report.lines[8] == "ok    state directory /var/lib/wristcore is writable (40.0 KiB free)")
        #expect(report.lines[9] == "WARN  the filesystem holding /var/lib/wristcore has only 40.0 KiB free: a new bond may not fit. Free space: 'df -h /var/lib/wristcore', then e.g. 'sudo journalctl --vacuum-size=50M', 'sudo apt-get clean', or delete old files")
        #expect(!report.failed && report.lines.count == 10)

        system.free["/var/lib/wristcore"] = 0
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[9] == "FAIL  the filesystem holding /var/lib/wristcore is full (0 bytes free): new bonds cannot be saved (the phone would have to pair again after a restart). Free space: 'df -h /var/lib/wristcore', then e.g. 'sudo journalctl --vacuum-size=50M', 'sudo apt-get clean', or delete old files")
        #expect(report.failureCount == 1)

        // The write probe itself hits the full disk: one line says so.
        system.writeFailures["/var/lib/wristcore"] = HALError(operation: "write a file in /var/lib/wristcore", errno: 28, reason: "No space left on device")
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[8] == "FAIL  state directory /var/lib/wristcore: No space left on device; new bonds cannot be saved (the phone would have to pair again after a restart). Free space: 'df -h /var/lib/wristcore', then e.g. 'sudo journalctl --vacuum-size=50M', 'sudo apt-get clean', or delete old files")
        #expect(report.lines.count == 9 && report.failureCount == 1)

        // A directory still to be created: the parent's filesystem is checked.
        system.paths = []
        system.writable = ["/var/lib"]
        system.free["/var/lib"] = 10 * 1024
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[8] == "ok    state directory /var/lib/wristcore will be created")
        #expect(report.lines[9].hasPrefix("WARN  the filesystem holding /var/lib has only 10.0 KiB free"))
        #expect(Doctor.size(512) == "512 bytes" && Doctor.size(1536) == "1.5 KiB" && Doctor.size(3 << 30) == "3.0 GiB")
    }

    /// Issue 14.1/14.2: an unsafe directory, and a bond file root took over.
    @Test func stateDirectoryOwnershipAndSafety() {
        let system = FakeDoctorSystem()
        system.unsafe["/var/lib/wristcore"] = HALError(
            operation: "use the state directory /var/lib/wristcore", errno: 0,
            reason: "it is world-writable (owner wristcore (uid 999), mode 0777): another user could replace the bond file",
            hint: "'sudo chmod 700 /var/lib/wristcore'")
        var report = Doctor(board: board, system: system).check()
        #expect(report.lines[8] == "FAIL  state directory /var/lib/wristcore is unsafe: it is world-writable (owner wristcore (uid 999), mode 0777): another user could replace the bond file; fix: 'sudo chmod 700 /var/lib/wristcore'")
        #expect(report.failureCount == 1)

        system.unsafe = [:]
        system.owners["/var/lib/wristcore"] = FileOwner(uid: 999, gid: 998, mode: 0o700)
        system.owners["/var/lib/wristcore/bonds"] = FileOwner(uid: 0, gid: 0, mode: 0o600)
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[8] == "ok    state directory /var/lib/wristcore is writable (12.0 GiB free)")
        #expect(report.lines[9] == "FAIL  /var/lib/wristcore/bonds belongs to root (uid 0), not to the state directory's owner wristcore (uid 999), so the daemon cannot read it (an older 'sudo wristcore forget' did this): 'sudo chown 999:998 /var/lib/wristcore/bonds'")
        system.owners["/var/lib/wristcore/bonds"] = FileOwner(uid: 999, gid: 998, mode: 0o600)
        #expect(Doctor(board: board, system: system).check().lines == Self.healthy)

        system.writeFailures["/var/lib/wristcore"] = HALError(operation: "create a file in /var/lib/wristcore", errno: 30, reason: "Read-only file system")
        report = Doctor(board: board, system: system).check()
        #expect(report.lines[8] == "FAIL  state directory /var/lib/wristcore is not writable by this user (create a file in /var/lib/wristcore: Read-only file system): 'sudo install -d -o wristcore -g wristcore -m 700 /var/lib/wristcore' (deploy/wristcore.service's StateDirectory= does this), or pass --state-dir")
    }

    /// The live system on a real directory: writable, with space, safe; a 0777 one is not.
    @Test func liveStateDirectoryChecks() {
        var template = Array("/tmp/wristcore-doctor-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = system("rm -rf '\(dir)'") }
        let live = LiveDoctorSystem()
        #expect(live.stateDirectoryProblem(dir) == nil)
        #expect(live.probeWrite(dir) == nil)
        #expect((live.availableBytes(dir) ?? 0) > 0)
        #expect(live.owner(dir)?.mode == 0o700)
        _ = chmod(dir, 0o777)
        #expect(live.stateDirectoryProblem(dir)?.reason.contains("mode 0777") == true)
    }

    @Test func simulatedBoardChecksNothing() throws {
        let sim = try BoardLoader.load(argument: "sim")
        let report = BoardDevicesFactory.doctorReport(for: sim, stateDirectory: "/nonexistent", runtimeDirectory: "/nonexistent")
        #expect(report.lines == ["ok    board Boards/sim.json: Simulated watch", "ok    simulated board: no devices to check"])
        #expect(!report.failed)
    }
}
