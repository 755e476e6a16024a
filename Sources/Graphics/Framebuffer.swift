/// A 1-bit-per-pixel picture stored exactly the way SSD1306-family controllers
/// store their display RAM, so a flush copies bytes without converting them.
///
/// Layout: the panel is cut into horizontal *pages* of 8 rows. Page `p` is
/// `panelWidth` consecutive bytes; byte `p * panelWidth + x` holds column `x`
/// of rows `8p ... 8p+7`, least significant bit on top.
///
///     byte index = (y / 8) * panelWidth + x        bit = y % 8
///
/// Every drawing call records, per page, the range of columns it touched
/// (`dirtyColumns(page:)`); the display driver sends only those.
///
/// Coordinates given to drawing calls are *logical*: rotated by `rotation`.
/// 90 and 270 are mapped here (`width`/`height` swap); 0 and 180 keep the same
/// bytes and the display driver mirrors the panel for 180.
///
/// Storage is allocated once, in `init`; nothing here allocates afterwards.
public final class Framebuffer {
    /// The panel's own size in pixels (the controller's view).
    public let panelWidth: Int
    public let panelHeight: Int
    /// `panelHeight / 8`.
    public let pageCount: Int

    /// The rotation applied to logical coordinates. Changing it marks the whole
    /// frame dirty (the content is not redrawn: redraw after changing it).
    public var rotation: Rotation {
        didSet {
            if rotation != oldValue {
                clip = bounds
                markAllDirty()
            }
        }
    }

    /// Drawing outside this logical rectangle is discarded. Reset to `bounds`
    /// by `resetClip()` and whenever the rotation changes.
    public var clip: Rect

    private let bits: UnsafeMutablePointer<UInt8>
    private let dirtyLow: UnsafeMutablePointer<Int16>
    private let dirtyHigh: UnsafeMutablePointer<Int16>

    /// Creates a cleared framebuffer. `height` must be a multiple of 8.
    public init(width: Int, height: Int, rotation: Rotation = .r0) {
        precondition(width > 0 && width <= 256, "Framebuffer: width \(width) out of 1...256")
        precondition(height > 0 && height % 8 == 0 && height <= 256, "Framebuffer: height \(height) must be a multiple of 8 up to 256")
        panelWidth = width
        panelHeight = height
        pageCount = height / 8
        self.rotation = rotation
        let size = width * pageCount
        bits = .allocate(capacity: size)
        bits.initialize(repeating: 0, count: size)
        dirtyLow = .allocate(capacity: pageCount)
        dirtyHigh = .allocate(capacity: pageCount)
        clip = rotation.swapsAxes
            ? Rect(x: 0, y: 0, width: height, height: width)
            : Rect(x: 0, y: 0, width: width, height: height)
        markAllDirty()
    }

    deinit {
        bits.deallocate()
        dirtyLow.deallocate()
        dirtyHigh.deallocate()
    }

    // MARK: geometry

    /// The logical width (the panel's height at 90 / 270).
    @inlinable public var width: Int { rotation.swapsAxes ? panelHeight : panelWidth }
    /// The logical height.
    @inlinable public var height: Int { rotation.swapsAxes ? panelWidth : panelHeight }
    /// `(0, 0, width, height)`.
    @inlinable public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Restores the clip to the whole frame.
    public func resetClip() { clip = bounds }

    /// Runs `body` with the clip narrowed to `rect` (intersected with the current clip).
    public func withClip<R, E: Error>(_ rect: Rect, _ body: () throws(E) -> R) throws(E) -> R {
        let saved = clip
        clip = clip.intersection(rect)
        defer { clip = saved }
        return try body()
    }

    /// The raw controller-layout bytes (`panelWidth * pageCount`).
    public var storage: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bits, count: panelWidth * pageCount)
    }

    /// The bytes of one page.
    public func page(_ p: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(p >= 0 && p < pageCount)
        return UnsafeBufferPointer(start: bits + p * panelWidth, count: panelWidth)
    }

    /// Maps a logical point to the panel (for 0 and 180 they are the same).
    @inline(__always)
    func panelPoint(_ x: Int, _ y: Int) -> (Int, Int) {
        switch rotation {
        case .r0, .r180: return (x, y)
        case .r90: return (panelWidth - 1 - y, x)
        case .r270: return (y, panelHeight - 1 - x)
        }
    }

    /// Maps a logical rectangle (already clipped) to the panel.
    @inline(__always)
    func panelRect(_ r: Rect) -> Rect {
        switch rotation {
        case .r0, .r180: return r
        case .r90: return Rect(x: panelWidth - r.maxY, y: r.x, width: r.height, height: r.width)
        case .r270: return Rect(x: r.y, y: panelHeight - r.maxX, width: r.height, height: r.width)
        }
    }

    // MARK: dirty tracking

    /// The column range changed in page `p` since the last `clearDirty()`.
    public func dirtyColumns(page p: Int) -> ClosedRange<Int>? {
        precondition(p >= 0 && p < pageCount)
        let lo = Int(dirtyLow[p]), hi = Int(dirtyHigh[p])
        return lo <= hi ? lo...hi : nil
    }

    /// True when anything was drawn since the last `clearDirty()`.
    public var isDirty: Bool {
        for p in 0..<pageCount where dirtyLow[p] <= dirtyHigh[p] { return true }
        return false
    }

    /// Forgets what changed (the driver calls this after a successful flush).
    public func clearDirty() {
        for p in 0..<pageCount {
            dirtyLow[p] = Int16(panelWidth)
            dirtyHigh[p] = -1
        }
    }

    /// Marks every byte as changed.
    public func markAllDirty() {
        for p in 0..<pageCount {
            dirtyLow[p] = 0
            dirtyHigh[p] = Int16(panelWidth - 1)
        }
    }

    /// Marks a panel-coordinate rectangle (already inside the panel) as changed.
    @inline(__always)
    func markPanelDirty(_ r: Rect) {
        if r.isEmpty { return }
        let p0 = r.y >> 3, p1 = (r.maxY - 1) >> 3
        let lo = Int16(r.x), hi = Int16(r.maxX - 1)
        for p in p0...p1 {
            if lo < dirtyLow[p] { dirtyLow[p] = lo }
            if hi > dirtyHigh[p] { dirtyHigh[p] = hi }
        }
    }

    /// Marks a logical rectangle as changed (clipped to the frame, not to `clip`).
    public func markDirty(_ rect: Rect) {
        markPanelDirty(panelRect(rect.intersection(bounds)))
    }

    // MARK: pixels

    /// Writes one panel pixel without bounds checks or dirty marking.
    @inline(__always)
    func plotPanel(_ px: Int, _ py: Int, _ ink: Ink) {
        let i = (py >> 3) &* panelWidth &+ px
        let m = UInt8(1) << UInt8(py & 7)
        switch ink {
        case .on: bits[i] |= m
        case .off: bits[i] &= ~m
        case .invert: bits[i] ^= m
        }
    }

    /// Writes one logical pixel, clipped, without dirty marking.
    @inline(__always)
    func plot(_ x: Int, _ y: Int, _ ink: Ink) {
        guard clip.contains(x: x, y: y), x >= 0, y >= 0, x < width, y < height else { return }
        let (px, py) = panelPoint(x, y)
        plotPanel(px, py, ink)
    }

    /// Sets, clears or inverts one pixel.
    public func setPixel(x: Int, y: Int, _ ink: Ink = .on) {
        guard clip.contains(x: x, y: y), x >= 0, y >= 0, x < width, y < height else { return }
        let (px, py) = panelPoint(x, y)
        plotPanel(px, py, ink)
        markPanelDirty(Rect(x: px, y: py, width: 1, height: 1))
    }

    /// True when the logical pixel is lit (false outside the frame).
    public func pixel(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        let (px, py) = panelPoint(x, y)
        return bits[(py >> 3) * panelWidth + px] & (1 << UInt8(py & 7)) != 0
    }

    /// True when the panel pixel (controller coordinates, no rotation) is lit.
    public func panelPixel(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < panelWidth, y < panelHeight else { return false }
        return bits[(y >> 3) * panelWidth + x] & (1 << UInt8(y & 7)) != 0
    }

    // MARK: areas

    /// Fills the whole frame (ignores the clip) and marks it dirty.
    public func clear(_ ink: Ink = .off) {
        let n = panelWidth * pageCount
        switch ink {
        case .off: bits.update(repeating: 0, count: n)
        case .on: bits.update(repeating: 0xFF, count: n)
        case .invert: for i in 0..<n { bits[i] = ~bits[i] }
        }
        markAllDirty()
    }

    /// Fills a rectangle (clipped).
    public func fill(_ rect: Rect, _ ink: Ink = .on) {
        let r = rect.intersection(clip).intersection(bounds)
        if r.isEmpty { return }
        let pr = panelRect(r)
        // Work in panel space, a page at a time, with byte masks.
        let p0 = pr.y >> 3, p1 = (pr.maxY - 1) >> 3
        for p in p0...p1 {
            let top = p == p0 ? pr.y & 7 : 0
            let bottom = p == p1 ? ((pr.maxY - 1) & 7) : 7
            let mask = UInt8(truncatingIfNeeded: (0xFF << top) & (0xFF >> (7 - bottom)))
            let row = bits + p * panelWidth
            switch ink {
            case .on: for x in pr.x..<pr.maxX { row[x] |= mask }
            case .off: for x in pr.x..<pr.maxX { row[x] &= ~mask }
            case .invert: for x in pr.x..<pr.maxX { row[x] ^= mask }
            }
        }
        markPanelDirty(pr)
    }

    /// Inverts a rectangle (a highlighted row, a selected button).
    public func invert(_ rect: Rect) { fill(rect, .invert) }

    /// Draws a rectangle's 1-pixel outline (clipped).
    public func strokeRect(_ rect: Rect, _ ink: Ink = .on) {
        if rect.isEmpty { return }
        hline(x0: rect.x, x1: rect.maxX - 1, y: rect.y, ink)
        if rect.height > 1 { hline(x0: rect.x, x1: rect.maxX - 1, y: rect.maxY - 1, ink) }
        if rect.height > 2 {
            vline(x: rect.x, y0: rect.y + 1, y1: rect.maxY - 2, ink)
            if rect.width > 1 { vline(x: rect.maxX - 1, y0: rect.y + 1, y1: rect.maxY - 2, ink) }
        }
    }

    /// A horizontal line from x0 to x1 inclusive.
    public func hline(x0: Int, x1: Int, y: Int, _ ink: Ink = .on) {
        let a = min(x0, x1), b = max(x0, x1)
        fill(Rect(x: a, y: y, width: b - a + 1, height: 1), ink)
    }

    /// A vertical line from y0 to y1 inclusive.
    public func vline(x: Int, y0: Int, y1: Int, _ ink: Ink = .on) {
        let a = min(y0, y1), b = max(y0, y1)
        fill(Rect(x: x, y: a, width: 1, height: b - a + 1), ink)
    }

    /// A line between two points, both included (Bresenham). With `.invert`
    /// every pixel is flipped exactly once.
    public func line(x0: Int, y0: Int, x1: Int, y1: Int, _ ink: Ink = .on) {
        if y0 == y1 { hline(x0: x0, x1: x1, y: y0, ink); return }
        if x0 == x1 { vline(x: x0, y0: y0, y1: y1, ink); return }
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var err = dx + dy
        var x = x0, y = y0
        while true {
            plot(x, y, ink)
            if x == x1 && y == y1 { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x += sx }
            if e2 <= dx { err += dx; y += sy }
        }
        let box = Rect(x: min(x0, x1), y: min(y0, y1), width: dx + 1, height: -dy + 1)
        markDirty(box.intersection(clip))
    }

    // MARK: bitmaps

    /// Draws a bit-packed bitmap: rows top to bottom, pixels left to right,
    /// most significant bit first, with no padding between rows (the format of
    /// glyphs in WristCore fonts and of `Bitmap`). Set bits are drawn with
    /// `ink`; clear bits are left alone unless `opaque`, when they are cleared.
    public func drawBits(_ packed: UnsafeRawBufferPointer, bitOffset: Int = 0, width w: Int, height h: Int,
                         x: Int, y: Int, ink: Ink = .on, opaque: Bool = false) {
        if w <= 0 || h <= 0 { return }
        let target = Rect(x: x, y: y, width: w, height: h).intersection(clip).intersection(bounds)
        if target.isEmpty { return }
        let needed = (bitOffset + w * h + 7) >> 3
        precondition(packed.count >= needed, "drawBits: \(packed.count) bytes for a \(w)x\(h) bitmap")
        let background: Ink = ink == .off ? .on : .off
        for row in (target.y - y)..<(target.maxY - y) {
            var bit = bitOffset + row * w + (target.x - x)
            for col in (target.x - x)..<(target.maxX - x) {
                let set = packed[bit >> 3] & (0x80 >> UInt8(bit & 7)) != 0
                if set {
                    let (px, py) = panelPoint(x + col, y + row)
                    plotPanel(px, py, ink)
                } else if opaque && ink != .invert {
                    let (px, py) = panelPoint(x + col, y + row)
                    plotPanel(px, py, background)
                }
                bit += 1
            }
        }
        markPanelDirty(panelRect(target))
    }

    /// Draws an icon.
    public func draw(_ bitmap: Bitmap, x: Int, y: Int, ink: Ink = .on, opaque: Bool = false) {
        bitmap.bits.withUnsafeBytes {
            drawBits($0, width: bitmap.width, height: bitmap.height, x: x, y: y, ink: ink, opaque: opaque)
        }
    }
}

/// A small 1-bit picture (an icon): rows top to bottom, MSB first, bit-packed
/// with no padding between rows. Create icons once (as `static let`).
public struct Bitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let bits: [UInt8]

    /// From packed bits (see the type's description).
    public init(width: Int, height: Int, bits: [UInt8]) {
        precondition(bits.count * 8 >= width * height, "Bitmap: \(bits.count) bytes for \(width)x\(height)")
        self.width = width
        self.height = height
        self.bits = bits
    }

    /// From rows of text art: `#` (or any character but `.` and space) is lit.
    public init(rows: [String]) {
        let h = rows.count
        let w = rows.map { $0.count }.max() ?? 0
        var packed = [UInt8](repeating: 0, count: (w * h + 7) / 8)
        for (y, row) in rows.enumerated() {
            for (x, ch) in row.enumerated() where ch != "." && ch != " " {
                let bit = y * w + x
                packed[bit >> 3] |= 0x80 >> UInt8(bit & 7)
            }
        }
        self.init(width: w, height: h, bits: packed)
    }
}
