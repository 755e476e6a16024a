import BoardConfig
import SimBoard

/// The keys that press the simulated board's buttons, in the demo and in
/// `selftest --board sim`: one key (or three) per button for a press, the
/// capital letter (or Shift with the arrow) for a long press, and `2` before
/// the key for a double press:
///
/// | button | press | long press | double press |
/// | --- | --- | --- | --- |
/// | positive | y, Enter, → | Y, Shift+→ | 2 y, 2 → |
/// | negative | n, Backspace, ← | N, Shift+← | 2 n |
/// | up | k, ↑ | K, Shift+↑ | 2 k |
/// | down | j, ↓ | J, Shift+↓ | 2 j |
/// | select | s, space | S | 2 s |
/// | back | b, Esc | B | 2 b |
///
/// q quits (Ctrl-C too: the terminal still raises SIGINT).
public enum DemoKey: Equatable, Sendable {
    case button(ButtonRole, ButtonPress)
    /// `2`: the next button key is a double press.
    case doubleNext
    case quit
    /// A key that presses nothing (printable ASCII, else nil).
    case other(UInt8?)
}

/// Turns typed bytes into keys. A value: it remembers a `2` typed at the end
/// of one read for the next one.
public struct DemoKeyDecoder: Sendable {
    private var doublePending = false

    public init() {}

    /// Decodes what one read returned. Arrow keys are ESC [ A..D (ESC O A..D
    /// in application mode), Shift+arrow ESC [ 1 ; 2 A..D; a lone ESC is back.
    public mutating func decode(_ bytes: [UInt8]) -> [DemoKey] {
        var out: [DemoKey] = []
        var i = 0
        func emit(_ role: ButtonRole, long: Bool) {
            out.append(.button(role, long ? .long : doublePending ? .double : .press))
            doublePending = false
        }
        func arrow(_ b: UInt8) -> ButtonRole? {
            switch b {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .positive
            case UInt8(ascii: "D"): .negative
            default: nil
            }
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                // A CSI / SS3 sequence: parameters, then a final byte (0x40-0x7E).
                var j = i + 2
                while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                guard j < bytes.count else { break }
                let parameters = Array(bytes[(i + 2)..<j])
                if let role = arrow(bytes[j]) {
                    // ESC [ 1 ; 2 C: Shift (modifier 2; 4 Shift+Alt, 6 Shift+Ctrl also count).
                    let shifted = parameters.count == 3 && parameters[0] == UInt8(ascii: "1") && parameters[1] == UInt8(ascii: ";")
                        && [UInt8(ascii: "2"), UInt8(ascii: "4"), UInt8(ascii: "6")].contains(parameters[2])
                    emit(role, long: shifted)
                }
                i = j + 1
                continue
            }
            switch b {
            case 0x1B, UInt8(ascii: "b"): emit(.back, long: false)
            case UInt8(ascii: "B"): emit(.back, long: true)
            case 0x0D, 0x0A, UInt8(ascii: "y"), UInt8(ascii: "p"): emit(.positive, long: false)
            case UInt8(ascii: "Y"), UInt8(ascii: "P"): emit(.positive, long: true)
            case 0x7F, 0x08, UInt8(ascii: "n"): emit(.negative, long: false)
            case UInt8(ascii: "N"): emit(.negative, long: true)
            case UInt8(ascii: " "), UInt8(ascii: "s"): emit(.select, long: false)
            case UInt8(ascii: "S"): emit(.select, long: true)
            case UInt8(ascii: "k"): emit(.up, long: false)
            case UInt8(ascii: "K"): emit(.up, long: true)
            case UInt8(ascii: "j"): emit(.down, long: false)
            case UInt8(ascii: "J"): emit(.down, long: true)
            case UInt8(ascii: "2"):
                doublePending = true
                out.append(.doubleNext)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): out.append(.quit)
            default:
                doublePending = false
                out.append(.other((0x21...0x7E).contains(b) ? b : nil))
            }
            i += 1
        }
        return out
    }
}

/// What the keys are called on the screen: with arrows in a UTF-8 terminal,
/// in plain ASCII words otherwise.
public enum DemoKeyNames {
    /// The keys that press `role` (a short press), e.g. "y/Enter/→".
    public static func keys(_ role: ButtonRole, ascii: Bool) -> String {
        switch role {
        case .positive: ascii ? "y/Enter/Right" : "y/Enter/→"
        case .negative: ascii ? "n/Bksp/Left" : "n/Bksp/←"
        case .up: ascii ? "k/Up" : "k/↑"
        case .down: ascii ? "j/Down" : "j/↓"
        case .select: "s/space"
        case .back: "b/Esc"
        }
    }

    /// The legend's pieces, most important first; `short` for a narrow
    /// or low terminal. `answers` adds "= yes" / "= no" (the self-test).
    public static func legend(ascii: Bool, short: Bool, gestures: Bool, answers: Bool = false) -> [String] {
        var items: [String] = []
        for role in [ButtonRole.positive, .negative, .up, .down, .select, .back] {
            var name = role.rawValue
            if answers && role == .positive { name += "=yes" }
            if answers && role == .negative { name += "=no" }
            items.append(short ? (shortKey(role) + " " + name) : (keys(role, ascii: ascii) + " " + name))
        }
        if gestures {
            items.append(short ? "Shift+key: long" : "Shift+key = long press (Y N K J S B)")
            items.append(short ? "2+key: double" : "2 then a key = double press")
        }
        items.append("q quit")
        return items
    }

    private static func shortKey(_ role: ButtonRole) -> String {
        switch role {
        case .positive: "y"
        case .negative: "n"
        case .up: "k"
        case .down: "j"
        case .select: "s"
        case .back: "b"
        }
    }

    /// How the footer names one key: "Y: positive (long)", "2: double press of the next button key".
    public static func describe(_ key: DemoKey, timing: InputTiming) -> String {
        switch key {
        case .button(let role, let press): role.rawValue + press.suffix(timing)
        case .doubleNext: "2: the next button key is a double press"
        case .quit: "quit"
        case .other(let b): (b.map { "'" + String(UnicodeScalar($0)) + "'" } ?? "that key") + " presses nothing (keys below)"
        }
    }
}
