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
    /// On an SSD1306 / SSD1309 whose adapter takes long messages, send each
    /// window's commands and data as one transaction, and leave out the
    /// window commands when the controller's window already fits (see
    /// `OLEDDriver.oneTransactionPerWindow`). False: a command transaction
    /// and a data transaction per window, as on an SMBus adapter.
    public var oneTransactionPerWindow: Bool

    public init(contrast: UInt8? = nil, inverted: Bool = false, columnOffset: Int? = nil,
                persist: Bool = false, sendOnlyChangedBytes: Bool = true, oneTransactionPerWindow: Bool = true) {
        self.contrast = contrast
        self.inverted = inverted
        self.columnOffset = columnOffset
        self.persist = persist
        self.sendOnlyChangedBytes = sendOnlyChangedBytes
        self.oneTransactionPerWindow = oneTransactionPerWindow
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
///
/// One transaction per window (`oneTransactionPerWindow`): on an SSD1306 /
/// SSD1309 whose adapter takes a message of a full frame and its framing
/// (plain I2C through I2C_RDWR), a window's commands and data go out as one
/// transaction. The driver remembers the controller's window: after a
/// window is written to its end, horizontal addressing has wrapped the
/// pointer back to the window's start, so a window with the same columns
/// (pages) needs no 0x21 (0x22) command; a window that lies inside the known
/// one is widened to it when that costs fewer bytes than the commands. A
/// full frame after another full frame is then one transaction of 1,025
/// bytes. On an SMBus adapter (33-byte messages) nothing changes: a command
/// transaction, then 32-byte data transactions.
///
/// Burn-in shift: `setShift` moves the picture on the glass (`PanelShift`):
/// down through the display start line (one command byte, RAM unchanged),
/// right by writing every column further right, which the driver does only
/// with a flush that rewrites the screen anyway.
///
/// All buffers are allocated in `init`; `flush` allocates nothing.
public final class OLEDDriver {
    public let spec: ControllerSpec
    public let transport: any I2CTransport
    public private(set) var options: DisplayOptions
    /// Statistics of the last `flush`.
    public private(set) var lastFlush = FlushStats()
    /// Running totals since creation: every byte the driver put on the bus
    /// (init, contrast, power, flushes, shutdown).
    public private(set) var totals = FlushStats()
    /// True after `initialize()` until `shutdown()`.
    public private(set) var isInitialized = false
    /// True while the panel is on (not sleeping).
    public private(set) var isOn = false
    /// A window's commands and data share one transaction (SSD1306 / SSD1309,
    /// the option on, and an adapter message of a full frame: 1,039 bytes
    /// for 128 columns); otherwise each window is a command transaction and
    /// data transactions.
    public let oneTransactionPerWindow: Bool
    /// The shift asked for with `setShift`.
    public private(set) var requestedShift = PanelShift.zero
    /// The shift the glass shows (after the last flush).
    public private(set) var appliedShift = PanelShift.zero

    private let framing: ControlByteFraming
    private let commands: UnsafeMutablePointer<UInt8>
    private let commandCapacity = 64
    private var commandCount = 0
    /// A window's rows gathered for sending, or zeros (RAM clear).
    private let staging: UnsafeMutablePointer<UInt8>
    /// The picture as RAM holds it (the framebuffer moved by the applied shift).
    private let image: UnsafeMutablePointer<UInt8>
    private let shadow: UnsafeMutablePointer<UInt8>
    private var shadowValid = false
    private var flipped = false
    private let columnOffset: Int
    /// The controller's column / page window with its pointer at the start
    /// (one-transaction mode only; nil when unknown).
    private var knownWindow: ControllerWindow?
    /// Page addressing (SH1106): the RAM column the pointer is at after the
    /// last page write (nil when unknown), so the next page's column high
    /// nibble (0x1H) is left out when it is the same.
    private var knownColumn: Int?
    /// The start line still has to be sent for `appliedShift.y`.
    private var startLinePending = false

    /// Display RAM pages of these controllers, whatever the panel's height.
    static let ramPages = 8
    /// Commands a window may carry: the start line and the two windows.
    static let maxWindowCommands = 7

    public init(spec: ControllerSpec, transport: any I2CTransport, options: DisplayOptions = DisplayOptions()) {
        let offset = options.columnOffset ?? spec.columnOffset
        precondition(offset >= 0 && offset + spec.width <= spec.ramColumns,
                     "column offset \(offset) does not fit \(spec.width) columns in \(spec.ramColumns)")
        self.spec = spec
        self.transport = transport
        framing = ControlByteFraming(transport: transport)
        self.options = options
        self.columnOffset = offset
        let longest = ControlByteFraming.windowMessageLength(
            commands: Self.maxWindowCommands, data: spec.ramColumns * Self.ramPages)
        oneTransactionPerWindow = options.oneTransactionPerWindow && spec.addressing == .horizontalWindow
            && transport.maxMessageLength >= longest
        commands = .allocate(capacity: commandCapacity)
        staging = .allocate(capacity: spec.ramColumns * Self.ramPages)
        staging.initialize(repeating: 0, count: spec.ramColumns * Self.ramPages)
        image = .allocate(capacity: spec.width * spec.pages)
        image.initialize(repeating: 0, count: spec.width * spec.pages)
        shadow = .allocate(capacity: spec.width * spec.pages)
        shadow.initialize(repeating: 0, count: spec.width * spec.pages)
    }

    deinit {
        commands.deallocate()
        staging.deallocate()
        image.deallocate()
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

    /// The start line that shows the picture `appliedShift.y` rows lower:
    /// glass row y shows RAM row y - shift (mod 64).
    private func appendStartLineIfPending() {
        guard startLinePending else { return }
        append(0x40 | UInt8((64 - appliedShift.y) & 63))
        startLinePending = false
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
            lostTrack()
            throw error
        }
        stats.transactions += n
        stats.busBytes += payload.count + n
        if run == .data { stats.dataBytes += payload.count }
    }

    /// The pending commands and `data` as one transaction.
    private func sendCombined(_ data: UnsafeRawBufferPointer, _ stats: inout FlushStats) throws(HALError) {
        let raw = UnsafeRawBufferPointer(start: commands, count: commandCount)
        commandCount = 0
        do {
            try framing.writeWindow(commands: raw, data: data)
        } catch {
            lostTrack()
            throw error
        }
        stats.transactions += 1
        stats.busBytes += ControlByteFraming.windowMessageLength(commands: raw.count, data: data.count)
        stats.dataBytes += data.count
    }

    /// A write failed part way: what RAM holds and where the pointer is are unknown.
    private func lostTrack() {
        shadowValid = false
        knownWindow = nil
        knownColumn = nil
    }

    /// Runs `body` (not a flush), adding its statistics to the totals even when it throws.
    private func recording(_ body: (inout FlushStats) throws(HALError) -> Void) throws(HALError) {
        var stats = FlushStats()
        defer { totals += stats }
        try body(&stats)
    }

    /// Sends the init sequence, clears display RAM (all of it: 132 columns
    /// on SH1106, 8 pages on a 32-row panel, whose hidden rows the vertical
    /// shift brings into view) and switches the panel on. `rotation` 180
    /// mirrors the panel.
    public func initialize(rotation: Rotation = .r0) throws(HALError) {
        try recording { (stats) throws(HALError) in
            flipped = rotation.usesControllerFlip
            knownWindow = nil
            knownColumn = nil
            appliedShift = .zero
            startLinePending = false
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
        let pages = Self.ramPages
        staging.update(repeating: 0, count: spec.ramColumns * pages)
        switch spec.addressing {
        case .horizontalWindow:
            let all = ControllerWindow(c0: 0, c1: spec.ramColumns - 1, p0: 0, p1: pages - 1)
            appendWindowCommands(all)
            let zeros = UnsafeRawBufferPointer(start: staging, count: all.area)
            if oneTransactionPerWindow {
                try sendCombined(zeros, &stats)
                knownWindow = all
            } else {
                try sendCommands(&stats)
                try send(.data, zeros, &stats)
            }
        case .pageOnly:
            for p in 0..<pages {
                append(0xB0 | UInt8(p)); append(0x00); append(0x10)
                try sendCommands(&stats)
                try send(.data, UnsafeRawBufferPointer(start: staging, count: spec.ramColumns), &stats)
            }
            knownColumn = nil   // at the end of RAM
        }
        shadow.update(repeating: 0, count: spec.width * spec.pages)
        shadowValid = true
    }

    /// 0x21 and 0x22 for `w`, leaving out a window the controller already has.
    private func appendWindowCommands(_ w: ControllerWindow) {
        if knownWindow.map({ !$0.sameColumns(w) }) ?? true {
            append(0x21); append(UInt8(w.c0)); append(UInt8(w.c1))
        }
        if knownWindow.map({ !$0.samePages(w) }) ?? true {
            append(0x22); append(UInt8(w.p0)); append(UInt8(w.p1))
        }
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
        if options.persist { return }
        try recording { (stats) throws(HALError) in
            try clearRAM(&stats)
            append(0xAE)
            try sendCommands(&stats)
            isOn = false
        }
    }

    // MARK: burn-in shift

    /// Moves the picture on the glass from the next flush on: a vertical
    /// change at once (the start line), a horizontal one with the first
    /// flush that rewrites the screen anyway (or a full one).
    public func setShift(_ shift: PanelShift) {
        requestedShift = shift
    }

    /// RAM rows that would wrap into view at the top when the picture moves
    /// `y` rows down are cut: on a 64-row panel they are the frame's last
    /// rows; a shorter panel's are its hidden RAM rows, cleared at init.
    @inline(__always)
    private func rowMask(page p: Int, y: Int) -> UInt8 {
        spec.pages == Self.ramPages && p == Self.ramPages - 1 ? 0xFF >> UInt8(y) : 0xFF
    }

    /// Display-RAM bytes that differ from the shadow if the framebuffer is
    /// written `x` columns further right (rows masked for `appliedShift.y`).
    private func differences(_ storage: UnsafePointer<UInt8>, x dx: Int) -> Int {
        let w = spec.width
        var n = 0
        for p in 0..<spec.pages {
            let mask = rowMask(page: p, y: appliedShift.y)
            let row = storage + p * w, old = shadow + p * w
            for x in 0..<w {
                let b = x >= dx ? row[x - dx] & mask : 0
                if b != old[x] { n += 1 }
            }
        }
        return n
    }

    /// The framebuffer moved by `appliedShift` into `image`.
    private func buildImage(_ storage: UnsafePointer<UInt8>) {
        let w = spec.width, dx = appliedShift.x
        for p in 0..<spec.pages {
            let mask = rowMask(page: p, y: appliedShift.y)
            let row = image + p * w, src = storage + p * w
            if dx > 0 { row.update(repeating: 0, count: dx) }
            var x = dx
            while x < w {
                row[x] = src[x - dx] & mask
                x += 1
            }
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
        defer {
            lastFlush = stats
            totals += stats
        }
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

        // The shift: a vertical step now, a horizontal one when it costs
        // little more than this flush sends anyway.
        var shiftChanged = false
        if requestedShift.y != appliedShift.y {
            appliedShift.y = requestedShift.y
            startLinePending = true
            shiftChanged = true
        }
        if requestedShift.x != appliedShift.x {
            var take = everything
            if !take {
                let now = differences(storage, x: appliedShift.x)
                take = differences(storage, x: requestedShift.x) <= now + now / 4
            }
            if take {
                appliedShift.x = requestedShift.x
                shiftChanged = true
            }
        }
        let source: UnsafePointer<UInt8>
        if appliedShift == .zero {
            source = storage
        } else {
            buildImage(storage)
            source = UnsafePointer(image)
        }
        let dx = appliedShift.x

        // Pending window for horizontal addressing.
        var gFirst = -1, gLast = -1, gLo = 0, gHi = 0
        // Bytes a separate window costs beyond its data: commands, control
        // bytes and address bytes.
        let overhead = oneTransactionPerWindow ? 14 : 10

        for p in 0..<spec.pages {
            var lo: Int, hi: Int
            if everything {
                lo = 0; hi = w - 1
            } else {
                if shiftChanged {
                    lo = 0; hi = w - 1
                } else if let d = fb.dirtyColumns(page: p) {
                    lo = d.lowerBound + dx; hi = min(d.upperBound + dx, w - 1)
                    if lo > hi { continue }
                } else {
                    continue
                }
                if compare {
                    let row = source + p * w, old = shadow + p * w
                    while lo <= hi && row[lo] == old[lo] { lo += 1 }
                    while hi >= lo && row[hi] == old[hi] { hi -= 1 }
                    if lo > hi { continue }
                }
            }
            switch spec.addressing {
            case .pageOnly:
                try sendPage(p, lo, hi, source, &stats)
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
                if gFirst >= 0 { try sendWindow(gFirst, gLast, gLo, gHi, source, &stats) }
                gFirst = p; gLast = p; gLo = lo; gHi = hi
            }
        }
        if gFirst >= 0 { try sendWindow(gFirst, gLast, gLo, gHi, source, &stats) }
        if startLinePending {
            // Nothing else to send: the start line alone.
            appendStartLineIfPending()
            try sendCommands(&stats)
        }
        shadow.update(from: source, count: w * spec.pages)
        shadowValid = true
        fb.clearDirty()
        return stats
    }

    /// The RAM column of picture column 0. With the segment remap off (180)
    /// the visible columns sit at the other end of a wider RAM (SH1106).
    private var ramColumnOfFirstPixel: Int {
        flipped ? spec.ramColumns - spec.width - columnOffset : columnOffset
    }

    /// Horizontal addressing: one column/page window, one data run.
    private func sendWindow(_ p0: Int, _ p1: Int, _ lo: Int, _ hi: Int,
                            _ source: UnsafePointer<UInt8>, _ stats: inout FlushStats) throws(HALError) {
        let offset = ramColumnOfFirstPixel
        var window = ControllerWindow(c0: lo + offset, c1: hi + offset, p0: p0, p1: p1)
        if oneTransactionPerWindow { window = cheapestWindow(covering: window) }
        appendStartLineIfPending()
        if oneTransactionPerWindow {
            appendWindowCommands(window)
        } else {
            append(0x21); append(UInt8(window.c0)); append(UInt8(window.c1))
            append(0x22); append(UInt8(window.p0)); append(UInt8(window.p1))
        }
        let w = spec.width, n = window.columns, first = window.c0 - offset
        let payload: UnsafeRawBufferPointer
        if n == w {
            // Whole rows: the picture's bytes are already in order.
            payload = UnsafeRawBufferPointer(start: source + window.p0 * w, count: window.pageCount * w)
        } else {
            var k = 0
            for p in window.p0...window.p1 {
                (staging + k).update(from: source + p * w + first, count: n)
                k += n
            }
            payload = UnsafeRawBufferPointer(start: staging, count: k)
        }
        if oneTransactionPerWindow {
            try sendCombined(payload, &stats)
            knownWindow = window
        } else {
            try sendCommands(&stats)
            try send(.data, payload, &stats)
        }
        stats.windows += 1
        stats.pages += window.pageCount
    }

    /// `change`, or a window the controller already has (in columns, pages
    /// or both) that contains it, whichever costs fewer bytes: the extra
    /// data against 6 bytes (3 commands and their control bytes) per
    /// window command left out.
    private func cheapestWindow(covering change: ControllerWindow) -> ControllerWindow {
        guard let known = knownWindow else { return change }
        let offset = ramColumnOfFirstPixel
        // The data comes from the picture: only visible columns and pages.
        let visible = ControllerWindow(c0: offset, c1: offset + spec.width - 1, p0: 0, p1: spec.pages - 1)
        var best = change, bestCost = windowCost(change, known: known)
        // Known columns, known pages, or both (no array: flush allocates nothing).
        for k in 0..<3 {
            var c = change
            if k != 1 { c.c0 = known.c0; c.c1 = known.c1 }
            if k != 0 { c.p0 = known.p0; c.p1 = known.p1 }
            guard c.contains(change) && visible.contains(c) else { continue }
            let cost = windowCost(c, known: known)
            if cost < bestCost { best = c; bestCost = cost }
        }
        return best
    }

    /// Data bytes plus 6 per window command (3 bytes with their control bytes).
    private func windowCost(_ w: ControllerWindow, known: ControllerWindow) -> Int {
        w.area + (w.sameColumns(known) ? 0 : 6) + (w.samePages(known) ? 0 : 6)
    }

    /// Page addressing: page and start column, then the bytes. The column's
    /// high nibble is left out when the pointer already has it (the page
    /// command does not move the column).
    private func sendPage(_ p: Int, _ lo: Int, _ hi: Int,
                          _ source: UnsafePointer<UInt8>, _ stats: inout FlushStats) throws(HALError) {
        let c = lo + ramColumnOfFirstPixel
        appendStartLineIfPending()
        append(0xB0 | UInt8(p)); append(UInt8(c & 0x0F))
        if knownColumn.map({ $0 >> 4 != c >> 4 }) ?? true { append(0x10 | UInt8(c >> 4)) }
        try sendCommands(&stats)
        try send(.data, UnsafeRawBufferPointer(start: source + p * spec.width + lo, count: hi - lo + 1), &stats)
        // The pointer stops at the RAM's last column: past it, unknown.
        let next = c + hi - lo + 1
        knownColumn = next < spec.ramColumns ? next : nil
        stats.windows += 1
        stats.pages += 1
    }
}
