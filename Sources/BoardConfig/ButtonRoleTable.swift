/// A value for each button role: what a `[ButtonRole: Value]` held, in six
/// slots indexed by the role, with no hashing. Each Dictionary key and value
/// type compiles a hash table of its own into the Embedded daemon (about
/// 1 KB); a role table costs an array of optionals.
public struct ButtonRoleTable<Value> {
    private var slots: [Value?] = Array(repeating: nil, count: ButtonRole.allCases.count)

    public init() {}

    public subscript(role: ButtonRole) -> Value? {
        get { slots[role.slot] }
        set { slots[role.slot] = newValue }
    }

    /// The values held, in role order.
    public var values: [Value] { slots.compactMap { $0 } }
}

extension ButtonRole {
    /// Its place in `allCases`.
    var slot: Int {
        switch self {
        case .positive: 0
        case .negative: 1
        case .select: 2
        case .up: 3
        case .down: 4
        case .back: 5
        }
    }
}

extension ButtonRoleTable: Sendable where Value: Sendable {}
