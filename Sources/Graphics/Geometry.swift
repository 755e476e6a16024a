/// A rectangle in pixels. `x`/`y` is the top-left corner; empty when either
/// side is zero or negative.
public struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    @inlinable
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    @inlinable public var maxX: Int { x + width }
    @inlinable public var maxY: Int { y + height }
    @inlinable public var isEmpty: Bool { width <= 0 || height <= 0 }

    @inlinable
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && py >= y && px < maxX && py < maxY
    }

    /// The overlap of two rectangles (empty when they do not overlap).
    @inlinable
    public func intersection(_ other: Rect) -> Rect {
        let x0 = Swift.max(x, other.x)
        let y0 = Swift.max(y, other.y)
        let x1 = Swift.min(maxX, other.maxX)
        let y1 = Swift.min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: Swift.max(0, x1 - x0), height: Swift.max(0, y1 - y0))
    }

    /// Shrinks every side by `d` pixels.
    @inlinable
    public func insetBy(_ d: Int) -> Rect {
        Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}

/// How the logical picture is turned relative to the panel's own orientation.
///
/// 0 and 180 keep the panel's width and height; 180 is done by the controller
/// (segment and COM remap), so drawing costs nothing extra. 90 and 270 swap
/// width and height and are done in software, pixel by pixel.
public enum Rotation: Int, Sendable, CaseIterable {
    case r0 = 0
    case r90 = 90
    case r180 = 180
    case r270 = 270

    /// True for 90 and 270, where the logical width is the panel's height.
    @inlinable public var swapsAxes: Bool { self == .r90 || self == .r270 }

    /// True when the controller must mirror both axes (180).
    @inlinable public var usesControllerFlip: Bool { self == .r180 }

    /// Parses "0", "90", "180", "270".
    public init?(degrees: Int) {
        self.init(rawValue: ((degrees % 360) + 360) % 360)
    }
}

/// What drawing does to a pixel.
public enum Ink: Sendable, Equatable {
    /// Lights the pixel.
    case on
    /// Darkens the pixel.
    case off
    /// Flips the pixel (for highlighted rows, cursors, selection).
    case invert

    /// `.on` for true, `.off` for false.
    @inlinable public init(_ lit: Bool) { self = lit ? .on : .off }
}
