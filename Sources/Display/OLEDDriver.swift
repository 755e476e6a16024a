import Graphics
import HAL

/// Choices a board file makes about the panel.
public struct DisplayOptions: Sendable, Equatable {
    /// 0...255; nil means the panel's default.
    public var contrast: UInt8?
    /// White-on-black (false) or black-on-white (true), done by the controller.
    public var inverted: Bool
    /// Overrides the panel's column offset (SH1106 clones differ).
    public var columnOffset: Int?
    /// When true, `shutdown()` leaves the last picture on the glass; when false
    /// it clears display RAM and switches the panel off.
    public var persist: Bool
    /// Compare with what the panel already shows and send only bytes that differ
    /// (a 1 KiB shadow copy). When false, dirty ranges are sent as they are.
    public var sendOnlyChangedBytes: Bool

    public init(contrast: UInt8? = nil, inverted: Bool = false, columnOffset: Int? = nil,
                persist: Bool = false, sendOnlyChangedBytes: Bool = true) {
        self.contrast = contrast
        self.inverted = inverted
        self.columnOffset = columnOffset
        self.persist = persist
        self.sendOnlyChangedBytes = sendOnlyChangedBytes
    }
}

/// What a flush put on the bus.
public struct FlushStats: Sendable, Equatable {
    /// Windows (rectangles of pages x columns) sent.
    public var windows = 0
    /// Pages that carried data.
    public var pages = 0
    /// I2C transactions (each starts with an address byte).
    public var transactions = 0
    /// Bytes after the address byte: control bytes, commands and data.
    public var busBytes = 0
    /// Display-RAM bytes.
    public var dataBytes = 0

    public init() {}

    static func += (a: inout FlushStats, b: FlushStats) {
        a.windows += b.windows
        a.pages += b.pages
        a.transactions += b.transactions
        a.busBytes += b.busBytes
        a.dataBytes += b.dataBytes
    }
}

/// The SSD1306 / SSD1309 / SH1106 driver: turns a `Framebuffer` into the
/// command and data runs of its `ControllerSpec`, framed by
/// `ControlByteFraming` over any `I2CTransport`.
///
/// Flush strategy: for each page, the dirty column range the framebuffer
/// recorded is narrowed to the columns that really differ from what the panel
/// shows (a shadow copy); unchanged pages are skipped. Controllers with window
/// addressing get adjacent changed pages merged into one rectangle when that
/// costs fewer bytes than separate windows; SH1106 gets one window per page.
/// A full frame is 2 transactions on SSD1306 (7 command bytes, 1 + 1024 data).
///
/// All buffers are allocated in `init`; `flush` allocates nothing.
public final class OLEDDriver {
    public let spec: ControllerSpec
    public let transport: any I2CTransport
    public private(set) var options: DisplayOptions
    /// Statistics of the last flush (or init / shutdown).
    public private(set) var lastFlush = FlushStats()
    /// Running totals since creation.
    public private(set) var totals = FlushStats()
    /// True after `initialize()` until `shutdown()`.
    public private(set) var isInitialized = false
    /// True while the panel is on (not sleeping).
    public private(set) var isOn = false

    private let framing: ControlByteFraming
    private let commands: UnsafeMutablePointer<UInt8>
    private let commandCapacity = 64
    private var commandCount = 0
    private let staging: UnsafeMutablePointer<UInt8>
    private let shadow: UnsafeMutablePointer<UInt8>
    private var shadowValid = false
    private var flipped = false
    private let columnOffset: Int

    public init(spec: ControllerSpec, transport: any I2CTransport, options: DisplayOptions = DisplayOptions()) {
        let offset = options.columnOffset ?? spec.columnOffset
        precondition(offset >= 0 && offset + spec.width <= spec.ramColumns,
                     "column offset \(offset) does not fit \(spec.width) columns in \(spec.ramColumns)")
        self.spec = spec
        self.transport = transport
        framing = ControlByteFraming(transport: transport)
        self.options = options
        self.columnOffset = offset
        commands = .allocate(capacity: commandCapacity)
        staging = .allocate(capacity: spec.ramColumns * spec.pages)
        staging.initialize(repeating: 0, count: spec.ramColumns * spec.pages)
        shadow = .allocate(capacity: spec.width * spec.pages)
        shadow.initialize(repeating: 0, count: spec.width * spec.pages)
    }

    deinit {
        commands.deallocate()
        staging.deallocate()
        shadow.deallocate()
    }

    // MARK: commands

    /// The orientation bytes: segment remap and COM scan direction. Modules
    /// are wired so that A1 / C8 shows the picture upright.
    private func appendOrientation(flip: Bool) {
        append(flip ? 0xA0 : 0xA1)
        append(flip ? 0xC0 : 0xC8)
    }

    @inline(__always)
    private func append(_ b: UInt8) {
        precondition(commandCount < commandCapacity)
        commands[commandCount] = b
        commandCount += 1
    }

    private func sendCommands(_ stats: inout FlushStats) throws(HALError) {
        let raw = UnsafeRawBufferPointer(start: commands, count: commandCount)
        commandCount = 0
        try send(.commands, raw, &stats)
    }

    private func send(_ run: I2CRun, _ payload: UnsafeRawBufferPointer, _ stats: inout FlushStats) throws(HALError) {
        if payload.isEmpty { return }
        let n = framing.transactions(payload: payload.count)
        do {
            try framing.write(run, payload)
        } catch {
            shadowValid = false
            throw error
        }
        stats.transactions += n
        stats.busBytes += payload.count + n
        if run == .data { stats.dataBytes += payload.count }
    }

    private func finish(_ stats: FlushStats) {
        lastFlush = stats
        totals += stats
    }

    /// Runs `body`, recording its statistics even when it throws.
    private func recording(_ body: (inout FlushStats) throws(HALError) -> Void) throws(HALError) {
        var stats = FlushStats()
        defer { finish(stats) }
        try body(&stats)
    }

    /// Sends the init sequence, clears display RAM (all 132 columns on SH1106)
    /// and switches the panel on. `rotation` 180 mirrors the panel.
    public func initialize(rotation: Rotation = .r0) throws(HALError) {
        try recording { (stats) throws(HALError) in
            flipped = rotation.usesControllerFlip
            append(0xAE)
            for b in spec.initCommands { append(b) }
            appendOrientation(flip: flipped)
            append(0x81); append(options.contrast ?? spec.defaultContrast)
            append(options.inverted ? 0xA7 : 0xA6)
            try sendCommands(&stats)
            try clearRAM(&stats)
            append(0xAF)
            try sendCommands(&stats)
            isInitialized = true
            isOn = true
        }
    }

    /// Writes zeros to all of display RAM.
    private func clearRAM(_ stats: inout FlushStats) throws(HALError) {
        let pages = spec.pages
        staging.update(repeating: 0, count: spec.ramColumns * pages)
        switch spec.addressing {
        case .horizontalWindow:
            for b: UInt8 in [0x21, 0x00, UInt8(spec.ramColumns - 1), 0x22, 0x00, UInt8(pages - 1)] { append(b) }
            try sendCommands(&stats)
            try send(.data, UnsafeRawBufferPointer(start: staging, count: spec.ramColumns * pages), &stats)
        case .pageOnly:
            for p in 0..<pages {
                append(0xB0 | UInt8(p)); append(0x00); append(0x10)
                try sendCommands(&stats)
                try send(.data, UnsafeRawBufferPointer(start: staging, count: spec.ramColumns), &stats)
            }
        }
        shadow.update(repeating: 0, count: spec.width * pages)
        shadowValid = true
    }

    /// Sets the contrast (0...255).
    public func setContrast(_ value: UInt8) throws(HALError) {
        options.contrast = value
        try recording { (stats) throws(HALError) in
            append(0x81); append(value)
            try sendCommands(&stats)
        }
    }

    /// Inverts the panel (done by the controller; RAM is unchanged).
    public func setInverted(_ inverted: Bool) throws(HALError) {
        options.inverted = inverted
        try recording { (stats) throws(HALError) in
            append(inverted ? 0xA7 : 0xA6)
            try sendCommands(&stats)
        }
    }

    /// Switches the panel on or off (sleep). RAM is kept while off.
    public func setDisplayOn(_ on: Bool) throws(HALError) {
        try recording { (stats) throws(HALError) in
            append(on ? 0xAF : 0xAE)
            try sendCommands(&stats)
            isOn = on
        }
    }

    /// Ends the session: with `persist` the picture stays; otherwise display
    /// RAM is cleared and the panel switched off.
    public func shutdown() throws(HALError) {
        guard isInitialized else { return }
        isInitialized = false
        if options.persist { finish(FlushStats()); return }
        try recording { (stats) throws(HALError) in
            try clearRAM(&stats)
            append(0xAE)
            try sendCommands(&stats)
            isOn = false
        }
    }

    // MARK: flush

    /// Sends what changed in `fb` since the last flush; with `full`, the
    /// whole frame. Clears the framebuffer's dirty state on success.
    @discardableResult
    public func flush(_ fb: Framebuffer, full: Bool = false) throws(HALError) -> FlushStats {
        precondition(fb.panelWidth == spec.width && fb.panelHeight == spec.height,
                     "framebuffer \(fb.panelWidth)x\(fb.panelHeight) does not match \(spec.name)")
        var stats = FlushStats()
        defer { finish(stats) }
        let flip = fb.rotation.usesControllerFlip
        if flip != flipped {
            // SSD1306 applies segment remap to subsequent writes only, and the
            // SH1106 offset moves: the whole frame must be written again.
            appendOrientation(flip: flip)
            try sendCommands(&stats)
            flipped = flip
            shadowValid = false
        }
        let everything = full || !shadowValid
        let compare = options.sendOnlyChangedBytes && !everything
        let w = spec.width
        let storage = fb.storage.baseAddress!

        // Pending window for horizontal addressing.
        var gFirst = -1, gLast = -1, gLo = 0, gHi = 0
        let overhead = 10   // 6 command bytes, 2 control bytes, 2 address bytes

        for p in 0..<spec.pages {
            var lo: Int, hi: Int
            if everything {
                lo = 0; hi = w - 1
            } else if let d = fb.dirtyColumns(page: p) {
                lo = d.lowerBound; hi = d.upperBound
                if compare {
                    let row = storage + p * w, old = shadow + p * w
                    while lo <= hi && row[lo] == old[lo] { lo += 1 }
                    while hi >= lo && row[hi] == old[hi] { hi -= 1 }
                    if lo > hi { continue }
                }
            } else {
                continue
            }
            switch spec.addressing {
            case .pageOnly:
                try sendPage(p, lo, hi, storage, &stats)
            case .horizontalWindow:
                if gFirst >= 0 && p == gLast + 1 {
                    let mLo = min(gLo, lo), mHi = max(gHi, hi)
                    let merged = (p - gFirst + 1) * (mHi - mLo + 1)
                    let separate = (gLast - gFirst + 1) * (gHi - gLo + 1) + (hi - lo + 1) + overhead
                    if merged <= separate {
                        gLast = p; gLo = mLo; gHi = mHi
                        continue
                    }
                }
                if gFirst >= 0 { try sendWindow(gFirst, gLast, gLo, gHi, storage, &stats) }
                gFirst = p; gLast = p; gLo = lo; gHi = hi
            }
        }
        if gFirst >= 0 { try sendWindow(gFirst, gLast, gLo, gHi, storage, &stats) }
        shadow.update(from: storage, count: w * spec.pages)
        shadowValid = true
        fb.clearDirty()
        return stats
    }

    /// Horizontal addressing: one column/page window, one data run.
    private func sendWindow(_ p0: Int, _ p1: Int, _ lo: Int, _ hi: Int,
                            _ storage: UnsafePointer<UInt8>, _ stats: inout FlushStats) throws(HALError) {
        let offset = flipped ? spec.ramColumns - spec.width - columnOffset : columnOffset
        let c0 = lo + offset, c1 = hi + offset
        append(0x21); append(UInt8(c0)); append(UInt8(c1))
        append(0x22); append(UInt8(p0)); append(UInt8(p1))
        try sendCommands(&stats)
        let w = spec.width, n = hi - lo + 1
        let payload: UnsafeRawBufferPointer
        if n == w {
            // Whole rows: the framebuffer bytes are already in order.
            payload = UnsafeRawBufferPointer(start: storage + p0 * w, count: (p1 - p0 + 1) * w)
        } else {
            var k = 0
            for p in p0...p1 {
                (staging + k).update(from: storage + p * w + lo, count: n)
                k += n
            }
            payload = UnsafeRawBufferPointer(start: staging, count: k)
        }
        try send(.data, payload, &stats)
        stats.windows += 1
        stats.pages += p1 - p0 + 1
    }

    /// Page addressing: page and start column, then the bytes.
    private func sendPage(_ p: Int, _ lo: Int, _ hi: Int,
                          _ storage: UnsafePointer<UInt8>, _ stats: inout FlushStats) throws(HALError) {
        // With the segment remap off (180) the visible window sits at the
        // other end of the 132-column RAM.
        let offset = flipped ? spec.ramColumns - spec.width - columnOffset : columnOffset
        let c = lo + offset
        append(0xB0 | UInt8(p)); append(UInt8(c & 0x0F)); append(0x10 | UInt8(c >> 4))
        try sendCommands(&stats)
        try send(.data, UnsafeRawBufferPointer(start: storage + p * spec.width + lo, count: hi - lo + 1), &stats)
        stats.windows += 1
        stats.pages += 1
    }
}
