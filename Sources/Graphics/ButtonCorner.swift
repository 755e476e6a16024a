/// A corner of the panel, as the wearer looks at it: where a board file
/// places a button (`"position": "top-left"`) and where the screens draw
/// its label (one type for both).
public enum ButtonCorner: String, Sendable, Equatable, CaseIterable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    public var isTop: Bool { self == .topLeft || self == .topRight }
    public var isLeft: Bool { self == .topLeft || self == .bottomLeft }
}
