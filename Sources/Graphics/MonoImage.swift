/// A 1-bit picture, row-major, one Bool per pixel: what a panel shows (the
/// framebuffer's logical picture, or what the display emulator decodes), what
/// golden PBM files hold and what snapshots send as PBM or PNG.
public struct MonoImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var pixels: [Bool]

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        pixels = [Bool](repeating: false, count: width * height)
    }

    public subscript(x: Int, y: Int) -> Bool {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Lit pixels.
    public var litCount: Int { pixels.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// The picture as the user sees it when the framebuffer uses `rotation`:
    /// the glass turned back by that rotation (90/270 swap width and height).
    /// With this, `image.viewed(as: fb.rotation)[x, y] == fb.pixel(x: x, y: y)`.
    public func viewed(as rotation: Rotation) -> MonoImage {
        switch rotation {
        case .r0:
            return self
        case .r180:
            var out = MonoImage(width: width, height: height)
            for y in 0..<height { for x in 0..<width { out[x, y] = self[width - 1 - x, height - 1 - y] } }
            return out
        case .r90:
            var out = MonoImage(width: height, height: width)
            for v in 0..<width { for u in 0..<height { out[u, v] = self[width - 1 - v, u] } }
            return out
        case .r270:
            var out = MonoImage(width: height, height: width)
            for v in 0..<width { for u in 0..<height { out[u, v] = self[v, height - 1 - u] } }
            return out
        }
    }

    /// The logical picture of a framebuffer (for comparisons).
    public init(_ fb: Framebuffer) {
        self.init(width: fb.width, height: fb.height)
        for y in 0..<fb.height { for x in 0..<fb.width where fb.pixel(x: x, y: y) { self[x, y] = true } }
    }

    /// Where two pictures differ, for test failure messages.
    public func differences(from other: MonoImage, limit: Int = 8) -> String {
        guard width == other.width && height == other.height else {
            return "size \(width)x\(height) vs \(other.width)x\(other.height)"
        }
        var count = 0
        var first: [String] = []
        for y in 0..<height {
            for x in 0..<width where self[x, y] != other[x, y] {
                count += 1
                if first.count < limit { first.append("(\(x),\(y))") }
            }
        }
        return count == 0 ? "identical" : "\(count) pixels differ, first at \(first.joined(separator: " "))"
    }
}
