import Graphics
import TextFormat

/// The OLED module being emulated. This is the emulator's own description of
/// the hardware, written from the datasheets independently of the Display
/// module's driver tables, so a wrong driver table shows up as a wrong picture
/// or a reported fault instead of agreeing with itself.
public struct EmulatedPanel: Sendable, Equatable, CustomStringConvertible {
    public enum Chip: String, Sendable {
        case ssd1306, ssd1309, sh1106

        /// Columns of display RAM in the chip.
        public var ramColumns: Int { self == .sh1106 ? 132 : 128 }
    }

    public var chip: Chip
    /// Pixels on the glass.
    public var width: Int
    public var height: Int
    /// The first segment pin wired to the glass (SH1106 modules: 2, the glass
    /// is centred on the 132 segments).
    public var firstSegment: Int

    public init(chip: Chip, width: Int, height: Int, firstSegment: Int = 0) {
        precondition(height == 32 || height == 64, "emulated panels are 32 or 64 rows")
        precondition(firstSegment + width <= chip.ramColumns)
        self.chip = chip
        self.width = width
        self.height = height
        self.firstSegment = firstSegment
    }

    public static let ssd1306_128x64 = EmulatedPanel(chip: .ssd1306, width: 128, height: 64)
    public static let ssd1306_128x32 = EmulatedPanel(chip: .ssd1306, width: 128, height: 32)
    public static let ssd1309_128x64 = EmulatedPanel(chip: .ssd1309, width: 128, height: 64)
    public static let sh1106_128x64 = EmulatedPanel(chip: .sh1106, width: 128, height: 64, firstSegment: 2)

    /// By the board-file name ("ssd1306-128x64", "sh1106-128x64", ...).
    public static func named(_ name: String) -> EmulatedPanel? {
        switch name.asciiLowercased() {
        case "ssd1306-128x64", "ssd1306": return .ssd1306_128x64
        case "ssd1306-128x32": return .ssd1306_128x32
        case "ssd1309-128x64", "ssd1309": return .ssd1309_128x64
        case "sh1106-128x64", "sh1106": return .sh1106_128x64
        default: return nil
        }
    }

    public var description: String { "\(chip.rawValue)-\(width)x\(height)" }
}

/// Something the emulated controller would not accept, or a setting that
/// leaves the glass dark or garbled.
public struct EmulatorFault: Error, Equatable, Sendable, CustomStringConvertible {
    /// Index of the transaction (counted from 0 since the emulator was created).
    public var transaction: Int
    /// Offset of the offending byte inside that transaction.
    public var offset: Int
    public var message: String

    public var description: String { "transaction \(transaction), byte \(offset): \(message)" }
}

/// A byte-exact model of an SSD1306 / SSD1309 / SH1106 on I2C: it decodes the
/// control bytes, commands and display data a driver sends and keeps the
/// controller's registers and display RAM, from which `image()` computes what
/// the glass shows.
///
/// It is strict: an unknown command, a parameter out of its datasheet range,
/// data while a command still waits for parameters, a command from another
/// chip (0x21 on an SH1106, 0x8D on an SSD1309), a write past the end of SH1106
/// RAM, a malformed control byte — each is recorded in `faults` (and thrown by
/// `receive` when `strict`).
///
/// Receiving allocates nothing unless a fault is recorded.
public final class DisplayEmulator {
    public let panel: EmulatedPanel
    /// Throw the first fault of each transaction from `receive`.
    public var strict: Bool
    /// Every fault so far.
    public private(set) var faults: [EmulatorFault] = []

    // MARK: registers (public for tests and the harness)
    public private(set) var displayOn = false
    public private(set) var contrast: UInt8 = 0x7F
    public private(set) var inverted = false
    public private(set) var entireDisplayOn = false
    public private(set) var segmentRemap = false
    public private(set) var comScanReversed = false
    public private(set) var multiplex = 64
    public private(set) var startLine = 0
    public private(set) var displayOffset = 0
    public private(set) var comPinsAlternative = true
    public private(set) var comLeftRightRemap = false
    public private(set) var chargePump = false
    public private(set) var dcdc = true
    public private(set) var locked = false
    /// 0 horizontal, 1 vertical, 2 page (SSD130x). The SH1106 is always 2.
    public private(set) var addressingMode = 2
    public private(set) var columnStart = 0
    public private(set) var columnEnd = 127
    public private(set) var pageStart = 0
    public private(set) var pageEnd = 7
    public private(set) var column = 0
    public private(set) var page = 0

    // MARK: counters
    /// Transactions received.
    public private(set) var transactions = 0
    /// Bytes received (control bytes included).
    public private(set) var bytesReceived = 0
    /// Display-RAM bytes written.
    public private(set) var dataBytes = 0
    /// Command bytes (opcodes and parameters).
    public private(set) var commandBytes = 0

    private let ram: UnsafeMutablePointer<UInt8>
    private let ramColumns: Int
    private var pendingOpcode: UInt8 = 0
    private var pendingNeeded = 0
    private var pendingCount = 0
    private var pendingParams: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
    private var currentTransaction = 0
    private var currentOffset = 0
    private var firstFaultInTransaction: EmulatorFault?

    public init(panel: EmulatedPanel, strict: Bool = true) {
        self.panel = panel
        self.strict = strict
        ramColumns = panel.chip.ramColumns
        ram = .allocate(capacity: ramColumns * 8)
        // Power-on RAM content is undefined; a fixed pattern makes a driver
        // that forgets to clear RAM visible.
        for i in 0..<(ramColumns * 8) { ram[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
        if panel.chip == .sh1106 {
            addressingMode = 2
            columnEnd = 131
            dcdc = true
            comPinsAlternative = true
        }
    }

    deinit { ram.deallocate() }

    /// The display RAM byte at (page, RAM column).
    public func ramByte(page p: Int, column c: Int) -> UInt8 {
        precondition(p >= 0 && p < 8 && c >= 0 && c < ramColumns)
        return ram[p * ramColumns + c]
    }

    /// Forgets recorded faults.
    public func clearFaults() { faults.removeAll(keepingCapacity: true) }

    /// True when the last command has all its parameters.
    public var isIdle: Bool { pendingNeeded == 0 }

    // MARK: receiving

    /// One I2C write transaction as it appears after the address byte:
    /// control byte(s), commands and data.
    public func receive(_ bytes: UnsafeRawBufferPointer) throws(EmulatorFault) {
        currentTransaction = transactions
        transactions += 1
        bytesReceived += bytes.count
        firstFaultInTransaction = nil
        var i = 0
        let n = bytes.count
        if n == 0 { fault(0, "empty transaction (address only)") }
        while i < n {
            let control = bytes[i]
            currentOffset = i
            i += 1
            if control & 0x3F != 0 {
                fault(i - 1, "control byte 0x\(hex(control)) has non-zero low bits (expected 0x00, 0x40, 0x80 or 0xC0)")
                break
            }
            let isData = control & 0x40 != 0
            if control & 0x80 != 0 {
                // Co = 1: exactly one byte, then another control byte.
                guard i < n else { fault(i - 1, "control byte 0x\(hex(control)) (Co=1) ends the transaction"); break }
                currentOffset = i
                isData ? dataByte(bytes[i]) : commandByte(bytes[i])
                i += 1
            } else {
                if i == n { fault(i - 1, "control byte 0x\(hex(control)) is followed by nothing") }
                while i < n {
                    currentOffset = i
                    isData ? dataByte(bytes[i]) : commandByte(bytes[i])
                    i += 1
                }
            }
        }
        if strict, let f = firstFaultInTransaction { throw f }
    }

    /// Convenience for tests: one transaction from an array.
    public func receive(_ bytes: [UInt8]) throws(EmulatorFault) {
        let r: Result<Void, EmulatorFault> = bytes.withUnsafeBytes { raw in
            do throws(EmulatorFault) { try receive(raw); return .success(()) } catch { return .failure(error) }
        }
        try r.get()
    }

    /// Reports a command left waiting for parameters (call at the end of a stream).
    public func checkIdle() throws(EmulatorFault) {
        if pendingNeeded > 0 {
            let f = EmulatorFault(transaction: transactions - 1, offset: -1,
                                  message: "command 0x\(hex(pendingOpcode)) still waits for \(pendingNeeded - pendingCount) parameter byte(s)")
            faults.append(f)
            throw f
        }
    }

    private func fault(_ offset: Int, _ message: String) {
        let f = EmulatorFault(transaction: currentTransaction, offset: offset, message: message)
        faults.append(f)
        if firstFaultInTransaction == nil { firstFaultInTransaction = f }
    }

    private func fault(_ message: String) { fault(currentOffset, message) }

    // MARK: data

    private func dataByte(_ b: UInt8) {
        dataBytes += 1
        if pendingNeeded > 0 {
            fault("display data while command 0x\(hex(pendingOpcode)) still waits for \(pendingNeeded - pendingCount) parameter byte(s)")
            pendingNeeded = 0
            pendingCount = 0
        }
        switch panel.chip {
        case .sh1106:
            guard column < ramColumns else {
                fault("data written past column \(ramColumns - 1) of page \(page) (the SH1106 does not wrap)")
                return
            }
            ram[page * ramColumns + column] = b
            column += 1
        case .ssd1306, .ssd1309:
            guard column < 128 else {
                fault("data written at column \(column), past column 127")
                return
            }
            // The segment remap of SSD130x applies when RAM is written.
            let c = segmentRemap ? 127 - column : column
            ram[page * ramColumns + c] = b
            switch addressingMode {
            case 0:
                if column >= columnEnd {
                    column = columnStart
                    page = page >= pageEnd ? pageStart : page + 1
                } else {
                    column += 1
                }
            case 1:
                if page >= pageEnd {
                    page = pageStart
                    column = column >= columnEnd ? columnStart : column + 1
                } else {
                    page += 1
                }
            default:
                column = column >= 127 ? 0 : column + 1
            }
        }
    }

    // MARK: commands

    private func commandByte(_ b: UInt8) {
        commandBytes += 1
        if pendingNeeded > 0 {
            switch pendingCount {
            case 0: pendingParams.0 = b
            case 1: pendingParams.1 = b
            case 2: pendingParams.2 = b
            case 3: pendingParams.3 = b
            case 4: pendingParams.4 = b
            default: pendingParams.5 = b
            }
            pendingCount += 1
            if pendingCount == pendingNeeded {
                pendingNeeded = 0
                pendingCount = 0
                execute(pendingOpcode, pendingParams)
            }
            return
        }
        if locked && b != 0xFD {
            fault("command 0x\(hex(b)) ignored: the SSD1309 command lock is on (0xFD 0x16)")
            return
        }
        let needed = parameterCount(b)
        if needed < 0 { return }   // unknown: already reported
        if needed == 0 {
            execute(b, (0, 0, 0, 0, 0, 0))
        } else {
            pendingOpcode = b
            pendingNeeded = needed
            pendingCount = 0
        }
    }

    /// Parameter bytes an opcode takes on this chip; -1 (after reporting) for
    /// a byte that is not a command of this chip.
    private func parameterCount(_ b: UInt8) -> Int {
        let chip = panel.chip
        switch b {
        case 0x00...0x0F, 0x10...0x1F, 0x40...0x7F, 0xA0, 0xA1, 0xA4...0xA7, 0xAE, 0xAF, 0xB0...0xB7, 0xC0, 0xC8, 0xE3:
            return 0
        case 0x81, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB:
            return 1
        case 0x20 where chip != .sh1106: return 1
        case 0x21, 0x22: if chip != .sh1106 { return 2 }
        case 0x26, 0x27: if chip != .sh1106 { return 6 }
        case 0x29, 0x2A: if chip != .sh1106 { return 5 }
        case 0xA3: if chip != .sh1106 { return 2 }
        case 0x2E: if chip != .sh1106 { return 0 }
        case 0x2F: if chip != .sh1106 { return 0 }
        case 0x8D: if chip == .ssd1306 { return 1 }
        case 0xFD: if chip == .ssd1309 { return 1 }
        case 0x30...0x33: if chip == .sh1106 { return 0 }
        case 0xAD: if chip == .sh1106 { return 1 }
        case 0xE0, 0xEE: if chip == .sh1106 { return 0 }
        default: break
        }
        fault("0x\(hex(b)) is not a \(chip.rawValue.asciiUppercased()) command")
        return -1
    }

    private func execute(_ op: UInt8, _ p: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) {
        let chip = panel.chip
        switch op {
        case 0x00...0x0F:
            if chip != .sh1106 && addressingMode != 2 {
                fault("0x\(hex(op)) (column low nibble) only works in page addressing mode; mode is \(addressingMode)")
            }
            column = (column & 0xF0) | Int(op & 0x0F)
        case 0x10...0x1F:
            if chip != .sh1106 && addressingMode != 2 {
                fault("0x\(hex(op)) (column high nibble) only works in page addressing mode; mode is \(addressingMode)")
            }
            if Int(op & 0x0F) << 4 >= ramColumns {
                fault("0x\(hex(op)) sets a column beyond \(ramColumns - 1)")
            }
            column = (column & 0x0F) | Int(op & 0x0F) << 4
        case 0x20:
            if p.0 > 2 { fault("0x20 addressing mode \(p.0) is invalid (0 horizontal, 1 vertical, 2 page)") } else { addressingMode = Int(p.0) }
        case 0x21:
            if p.0 > 127 || p.1 > 127 || p.0 > p.1 {
                fault("0x21 column window \(p.0)...\(p.1) is invalid (0...127, start <= end)")
            } else {
                columnStart = Int(p.0); columnEnd = Int(p.1); column = columnStart
            }
        case 0x22:
            if p.0 > 7 || p.1 > 7 || p.0 > p.1 {
                fault("0x22 page window \(p.0)...\(p.1) is invalid (0...7, start <= end)")
            } else {
                pageStart = Int(p.0); pageEnd = Int(p.1); page = pageStart
            }
        case 0x26, 0x27, 0x29, 0x2A, 0xA3:
            break   // scroll set-up: only takes effect with 0x2F
        case 0x2E:
            break
        case 0x2F:
            fault("0x2F (start scrolling) is not emulated: the picture would move on real hardware")
        case 0x30...0x33:
            break   // SH1106 pump voltage
        case 0x40...0x7F:
            startLine = Int(op & 0x3F)
        case 0x81:
            contrast = p.0
        case 0x8D:
            if p.0 & 0xFB != 0x10 { fault("0x8D charge pump parameter 0x\(hex(p.0)) is invalid (0x10 off, 0x14 on)") } else { chargePump = p.0 & 0x04 != 0 }
        case 0xA0, 0xA1:
            segmentRemap = op == 0xA1
        case 0xA4, 0xA5:
            entireDisplayOn = op == 0xA5
        case 0xA6, 0xA7:
            inverted = op == 0xA7
        case 0xA8:
            let minimum = chip == .sh1106 ? 0 : 15
            if p.0 > 63 || Int(p.0) < minimum {
                fault("0xA8 multiplex ratio \(p.0) is invalid (\(minimum)...63)")
            } else {
                multiplex = Int(p.0) + 1
                if multiplex != panel.height {
                    fault("0xA8 multiplex ratio \(multiplex) does not match the \(panel.height)-row panel")
                }
            }
        case 0xAD:
            if p.0 & 0xFE != 0x8A { fault("0xAD DC-DC parameter 0x\(hex(p.0)) is invalid (0x8A off, 0x8B on)") } else { dcdc = p.0 & 1 != 0 }
        case 0xAE:
            displayOn = false
        case 0xAF:
            displayOn = true
            if chip == .ssd1306 && !chargePump {
                fault("display switched on with the charge pump off (0x8D 0x14 missing): a module powered from VCC stays dark")
            }
        case 0xB0...0xB7:
            if chip != .sh1106 && addressingMode != 2 {
                fault("0x\(hex(op)) (page start) only works in page addressing mode; mode is \(addressingMode)")
            }
            page = Int(op & 0x07)
        case 0xC0, 0xC8:
            comScanReversed = op == 0xC8
        case 0xD3:
            if p.0 > 63 { fault("0xD3 display offset \(p.0) is invalid (0...63)") } else { displayOffset = Int(p.0) }
        case 0xD5:
            break   // clock: no effect on the picture
        case 0xD9:
            if chip != .sh1106 && (p.0 & 0x0F == 0 || p.0 >> 4 == 0) {
                fault("0xD9 pre-charge 0x\(hex(p.0)) is invalid: neither phase may be 0")
            }
        case 0xDA:
            let valid: Bool
            switch chip {
            case .sh1106: valid = p.0 == 0x02 || p.0 == 0x12
            case .ssd1306, .ssd1309: valid = p.0 & 0xCF == 0x02
            }
            if !valid {
                fault("0xDA COM pins parameter 0x\(hex(p.0)) is invalid")
            } else {
                comPinsAlternative = p.0 & 0x10 != 0
                comLeftRightRemap = p.0 & 0x20 != 0
                let wanted = panel.height == 64
                if comPinsAlternative != wanted {
                    fault("0xDA 0x\(hex(p.0)): a \(panel.height)-row panel needs the \(wanted ? "alternative (0x12)" : "sequential (0x02)") COM pin configuration; every other row would be wrong")
                }
            }
        case 0xDB:
            if chip == .ssd1306 && (p.0 & 0x8F != 0) { fault("0xDB VCOMH level 0x\(hex(p.0)) is invalid") }
            if chip == .ssd1309 && (p.0 & 0xC3 != 0) { fault("0xDB VCOMH level 0x\(hex(p.0)) is invalid") }
        case 0xE0, 0xEE, 0xE3:
            break
        case 0xFD:
            if p.0 & 0xFB != 0x12 { fault("0xFD lock parameter 0x\(hex(p.0)) is invalid (0x12 unlock, 0x16 lock)") } else { locked = p.0 & 0x04 != 0 }
        default:
            fault("0x\(hex(op)) is not handled")
        }
    }

    // MARK: the picture

    /// Whether the glass pixel (x, y) is lit, with the module held the way its
    /// maker intends (the orientation that segment remap + reversed COM scan,
    /// A1 / C8, shows upright).
    public func isLit(x: Int, y: Int) -> Bool {
        guard displayOn else { return false }
        if panel.chip == .ssd1306 && !chargePump { return false }
        if entireDisplayOn { return true }
        let segment = panel.firstSegment + (panel.width - 1 - x)
        let com = panel.height - 1 - y
        let scan = comScanReversed ? multiplex - 1 - com : com
        // The display offset (0xD3) moves the `multiplex` active rows along
        // the COM outputs (SSD1306 Table 10-1): COM k shows row k + offset,
        // and a COM whose row is past the multiplex ratio stays dark. The
        // start line (0x40 | n) says which RAM row is row 0, wrapping at 64.
        let row = (scan + displayOffset) & 63
        var lit = false
        if scan >= 0 && row < multiplex {
            let line = (row + startLine) & 63
            let c: Int
            switch panel.chip {
            case .sh1106: c = segmentRemap ? ramColumns - 1 - segment : segment
            case .ssd1306, .ssd1309: c = segment   // remap already applied on write
            }
            lit = ram[(line >> 3) * ramColumns + c] & (1 << UInt8(line & 7)) != 0
        }
        return lit != inverted
    }

    /// The whole glass as a picture.
    public func image() -> MonoImage {
        var img = MonoImage(width: panel.width, height: panel.height)
        for y in 0..<panel.height {
            for x in 0..<panel.width where isLit(x: x, y: y) { img[x, y] = true }
        }
        return img
    }

    private func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}
