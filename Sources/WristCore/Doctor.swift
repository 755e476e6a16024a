import HAL
import LinuxHAL

/// `wristcore doctor`: checks a board's devices and the system, one line per
/// check, each failure with the way to fix it.
public struct Doctor {
    public let board: Board
    public init(board: Board) { self.board = board }

    public struct Report: Sendable {
        public var lines: [String] = []
        public var failureCount = 0
        public var failed: Bool { failureCount > 0 }
        mutating func ok(_ s: String) { lines.append("ok    \(s)") }
        mutating func warn(_ s: String) { lines.append("WARN  \(s)") }
        mutating func fail(_ s: String) { lines.append("FAIL  \(s)"); failureCount += 1 }
    }

    public func check() -> Report {
        var r = Report()
        r.ok("board \(board.source): \(board.name)")
        if board.simulated {
            r.ok("simulated board: no devices to check")
            return r
        }
        checkI2C(&r)
        checkGPIO(&r)
        checkBluetooth(&r)
        return r
    }

    func checkI2C(_ r: inout Report) {
        let d = board.display
        let path = d.devicePath
        switch SystemProbe.deviceAccess(path) {
        case .ok:
            r.ok("I2C bus \(path) is accessible (display \(d.controller.rawValue) expected at 0x\(String(d.address, radix: 16, uppercase: true)))")
        case .missing:
            r.fail("I2C bus \(path) does not exist. On a Raspberry Pi enable I2C: 'sudo raspi-config nonint do_i2c 0' (or add 'dtparam=i2c_arm=on' to /boot/firmware/config.txt) and reboot; elsewhere load i2c-dev ('sudo modprobe i2c-dev') and enable the board's I2C overlay. 'ls /dev/i2c-*' lists the buses.")
        case .permissionDenied:
            r.fail("I2C bus \(path) exists but this user may not open it: 'sudo usermod -aG i2c $USER' and log in again (or add a udev rule giving the i2c group access).")
        case .other(let e):
            r.fail("I2C bus \(path): \(e)")
        }
    }

    func checkGPIO(_ r: inout Report) {
        var lines: [(String, String, LineSelector)] = board.buttons.map { ("\($0.role.rawValue) button", $0.chip, $0.line) }
        if let m = board.motor { lines.append(("motor", m.chip, m.line)) }
        for (what, chipName, selector) in lines {
            do {
                let chip = try GPIOChip(chipName)
                let offset: Int
                switch selector {
                case .offset(let o): offset = o
                case .name(let n):
                    guard let o = chip.offset(ofLineNamed: n) else {
                        r.fail("\(what): chip \(chipName) (\(chip.name), \(chip.label)) has no line named \"\(n)\"; 'gpioinfo \(chip.name)' lists the names")
                        continue
                    }
                    offset = o
                }
                let info = try chip.lineInfo(offset)
                if info.used {
                    r.fail("\(what): line \(offset) of \(chip.name) (\(chip.label)) is in use by \"\(info.consumer)\"; stop that program or choose a free line ('gpioinfo \(chip.name)')")
                } else {
                    r.ok("\(what): line \(offset)\(info.name.isEmpty ? "" : " (\(info.name))") of \(chip.name) (\(chip.label)) is free")
                }
            } catch {
                r.fail("\(what): \(error)")
            }
        }
    }

    func checkBluetooth(_ r: inout Report) {
        let hci = "hci\(board.bluetooth.hciIndex)"
        if SystemProbe.exists("/sys/class/bluetooth/\(hci)") {
            r.ok("Bluetooth adapter \(hci) exists")
        } else {
            r.fail("Bluetooth adapter \(hci) not found: check 'ls /sys/class/bluetooth', that the adapter is not rfkill-blocked ('rfkill unblock bluetooth'), and the board file's bluetooth.hci")
        }
        if SystemProbe.isProcessRunning("bluetoothd") {
            r.warn("bluetoothd is running and will fight WristCore for the adapter: 'sudo systemctl disable --now bluetooth.service' (or give WristCore's unit Conflicts=bluetooth.service)")
        } else {
            r.ok("bluetoothd is not running")
        }
        if !SystemProbe.isRoot {
            r.warn("not running as root: owning the Bluetooth controller needs CAP_NET_ADMIN and CAP_NET_RAW (run as root or give the binary these capabilities)")
        }
    }
}
