import TextFormat

/// A controller family by the name board files use ("ssd1306"). The
/// families WristCore drives share the SSD1306 command set for everything
/// but addressing and power, which each panel's `ControllerSpec` states as
/// data. A family exists when a panel of it is in the registry,
/// `ControllerSpec.all`: each is declared in its own file under
/// `Display/Controllers/` (docs/display.md, "Adding a controller").
public struct ControllerFamily: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// A registered family; nil for a name no panel in `ControllerSpec.all` has.
    public init?(rawValue: String) {
        guard ControllerSpec.all.contains(where: { $0.family.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// Declares a family (its controller file does, once).
    init(declaring name: String) { rawValue = name }

    /// Every registered family, in registry order.
    public static var allCases: [ControllerFamily] {
        var families: [ControllerFamily] = []
        for spec in ControllerSpec.all where !families.contains(spec.family) { families.append(spec.family) }
        return families
    }

    public var description: String { rawValue }
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

    /// The registry: every panel WristCore drives, one line each. Board files,
    /// the daemon, the self-test and the emulator's coverage test all read it.
    public static let all: [ControllerSpec] = [
        ssd1306_128x64, ssd1306_128x32,  // Controllers/SSD1306.swift
        sh1106_128x64,                   // Controllers/SH1106.swift
        ssd1309_128x64,                  // Controllers/SSD1309.swift
    ]

    /// The registered panel of `family` with this glass, if there is one.
    public static func panel(_ family: ControllerFamily, width: Int, height: Int) -> ControllerSpec? {
        all.first { $0.family == family && $0.width == width && $0.height == height }
    }

    /// Looks a panel up by its board-file name ("ssd1306-128x64", "sh1106", "ssd1306-128x32" ...).
    /// A bare family name means its 128x64 variant.
    public static func named(_ name: String) -> ControllerSpec? {
        let key = name.asciiLowercased()
        if let s = all.first(where: { $0.name == key }) { return s }
        return all.first(where: { $0.family.rawValue == key && $0.height == 64 })
    }
}
