/// The controller families WristCore drives. They share the SSD1306 command
/// set for everything but addressing and power.
public enum ControllerFamily: String, Sendable {
    case ssd1306
    case ssd1309
    case sh1106
}

/// How the driver may address display RAM, which decides the flush strategy.
public enum Addressing: Sendable {
    /// Horizontal addressing with column and page windows (0x20 0x00, 0x21, 0x22):
    /// any rectangle of pages x columns is one command run plus one data run.
    case horizontalWindow
    /// Page addressing only (0xB0+page, column low/high nibbles): one command
    /// run plus one data run per page.
    case pageOnly
}

/// A panel variant described as data: what u8g2 calls a display info record.
/// Adding a panel means adding a value here, not a subclass.
public struct ControllerSpec: Sendable, Equatable, CustomStringConvertible {
    /// Name used by board files, e.g. "ssd1306-128x64".
    public var name: String
    public var family: ControllerFamily
    /// Visible pixels.
    public var width: Int
    public var height: Int
    /// Columns of display RAM (132 on SH1106).
    public var ramColumns: Int
    /// First RAM column shown at the panel's left edge (SH1106 modules: 2).
    public var columnOffset: Int
    public var addressing: Addressing
    /// Commands sent after "display off", before orientation, contrast and
    /// invert (which the driver adds from its options).
    public var initCommands: [UInt8]
    /// Contrast used when the options do not say.
    public var defaultContrast: UInt8
    /// The usual I2C address (0x3C; 0x3D when the module's address pad is moved).
    public var defaultAddress: UInt8

    public var pages: Int { height / 8 }

    public var description: String { name }

    public init(name: String, family: ControllerFamily, width: Int, height: Int, ramColumns: Int,
                columnOffset: Int, addressing: Addressing, initCommands: [UInt8],
                defaultContrast: UInt8, defaultAddress: UInt8 = 0x3C) {
        precondition(height % 8 == 0 && width + columnOffset <= ramColumns)
        self.name = name
        self.family = family
        self.width = width
        self.height = height
        self.ramColumns = ramColumns
        self.columnOffset = columnOffset
        self.addressing = addressing
        self.initCommands = initCommands
        self.defaultContrast = defaultContrast
        self.defaultAddress = defaultAddress
    }

    /// The same panel with another column offset (SH1106 clones at 0 or 4).
    public func withColumnOffset(_ offset: Int) -> ControllerSpec {
        var s = self
        precondition(offset >= 0 && offset + width <= ramColumns, "column offset \(offset) leaves the \(ramColumns)-column RAM")
        s.columnOffset = offset
        return s
    }

    // MARK: the panels (init values from the controllers' datasheets)

    /// SSD1306, 128x64, internal charge pump.
    public static let ssd1306_128x64 = ControllerSpec(
        name: "ssd1306-128x64", family: .ssd1306, width: 128, height: 64, ramColumns: 128, columnOffset: 0,
        addressing: .horizontalWindow,
        initCommands: [
            0xD5, 0x80,   // display clock: divide ratio 1, oscillator 8 (reset value)
            0xA8, 0x3F,   // multiplex ratio 64
            0xD3, 0x00,   // display offset 0
            0x40,         // display start line 0
            0x8D, 0x14,   // charge pump on (panel powered from VCC of the module)
            0x20, 0x00,   // horizontal addressing mode
            0xDA, 0x12,   // COM pins: alternative configuration, no left/right remap (64 rows)
            0xD9, 0xF1,   // pre-charge: phase 1 = 1 clock, phase 2 = 15 clocks
            0xDB, 0x30,   // VCOMH deselect ~0.83 x VCC
            0x2E,         // scrolling off
            0xA4,         // show RAM content
        ],
        defaultContrast: 0xCF)

    /// SSD1306, 128x32, internal charge pump.
    public static let ssd1306_128x32 = ControllerSpec(
        name: "ssd1306-128x32", family: .ssd1306, width: 128, height: 32, ramColumns: 128, columnOffset: 0,
        addressing: .horizontalWindow,
        initCommands: [
            0xD5, 0x80,
            0xA8, 0x1F,   // multiplex ratio 32
            0xD3, 0x00,
            0x40,
            0x8D, 0x14,
            0x20, 0x00,
            0xDA, 0x02,   // COM pins: sequential configuration (32 rows)
            0xD9, 0xF1,
            0xDB, 0x30,
            0x2E,
            0xA4,
        ],
        defaultContrast: 0x8F)

    /// SSD1309, 128x64 (external VCC: there is no charge pump command).
    public static let ssd1309_128x64 = ControllerSpec(
        name: "ssd1309-128x64", family: .ssd1309, width: 128, height: 64, ramColumns: 128, columnOffset: 0,
        addressing: .horizontalWindow,
        initCommands: [
            0xFD, 0x12,   // command lock off (reset state, sent in case a previous run locked it)
            0xD5, 0xA0,   // display clock: divide ratio 1, oscillator 10
            0xA8, 0x3F,
            0xD3, 0x00,
            0x40,
            0x20, 0x00,
            0xDA, 0x12,
            0xD9, 0xF1,
            0xDB, 0x34,   // VCOMH deselect ~0.78 x VCC (reset value)
            0x2E,
            0xA4,
        ],
        defaultContrast: 0x8F)

    /// SH1106, 128x64 on a 132-column RAM, page addressing only.
    public static let sh1106_128x64 = ControllerSpec(
        name: "sh1106-128x64", family: .sh1106, width: 128, height: 64, ramColumns: 132, columnOffset: 2,
        addressing: .pageOnly,
        initCommands: [
            0xD5, 0x80,   // display clock (reset value 0x50 is slower; 0x80 = +15 % oscillator)
            0xA8, 0x3F,
            0xD3, 0x00,
            0x40,
            0xAD, 0x8B,   // DC-DC converter on
            0x32,         // pump voltage 8.0 V
            0xDA, 0x12,   // COM pads: alternative (reset value)
            0xD9, 0x22,   // discharge / pre-charge 2 / 2 clocks (reset value)
            0xDB, 0x35,   // VCOM deselect level (reset value)
            0xA4,
        ],
        defaultContrast: 0x80)

    /// Every shipped panel.
    public static let all: [ControllerSpec] = [ssd1306_128x64, ssd1306_128x32, ssd1309_128x64, sh1106_128x64]

    /// Looks a panel up by its board-file name ("ssd1306-128x64", "sh1106", "ssd1306-128x32" ...).
    /// A bare family name means its 128x64 variant.
    public static func named(_ name: String) -> ControllerSpec? {
        let key = name.lowercased()
        if let s = all.first(where: { $0.name == key }) { return s }
        return all.first(where: { $0.family.rawValue == key && $0.height == 64 })
    }
}
