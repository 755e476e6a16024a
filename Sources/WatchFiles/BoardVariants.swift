import BoardConfig
import HAL
import LinuxHAL
import TextFormat

/// A board file and its button variant, side by side in one directory:
/// `rpi-zero2w.json` (four buttons) and `rpi-zero2w-2buttons.json` (the
/// positive and negative ones only). `wristcore setup` offers the choice
/// (`--buttons N`, or a question on a terminal), so a watch with two buttons
/// installs a board file with two, and the self-test asks for those two.
public enum BoardVariants {
    /// The two-button variant of `NAME.json` is `NAME-2buttons.json`.
    public static let twoButtonSuffix = "-2buttons"

    /// A board file as checked: its path, the board, the bytes validated
    /// (what `setup` installs).
    public struct Variant: Sendable {
        public var path: String
        public var board: Board
        public var bytes: [UInt8]

        public init(path: String, board: Board, bytes: [UInt8]) {
            self.path = path
            self.board = board
            self.bytes = bytes
        }

        public var buttonCount: Int { board.buttons.count }
    }

    /// The other variant's path (`X-2buttons.json` for `X.json`, and
    /// `X.json` for `X-2buttons.json`), whether or not it exists.
    public static func siblingPath(of path: String) -> String? {
        guard path.hasSuffix(".json") else { return nil }
        let stem = String(path.dropLast(5))
        guard stem.hasSuffix(twoButtonSuffix) else { return stem + twoButtonSuffix + ".json" }
        return String(stem.dropLast(twoButtonSuffix.count)) + ".json"
    }

    /// `chosen` and its sibling when that exists and loads with another
    /// number of buttons, the one with more buttons first.
    public static func variants(of chosen: Variant) -> [Variant] {
        guard let path = siblingPath(of: chosen.path), FileSystem.isRegularFile(path),
            let checked = try? BoardLoader.loadChecked(argument: path), let bytes = checked.bytes,
            checked.board.buttons.count != chosen.buttonCount
        else { return [chosen] }
        let other = Variant(path: path, board: checked.board, bytes: bytes)
        return other.buttonCount > chosen.buttonCount ? [other, chosen] : [chosen, other]
    }

    /// The variant with `buttons` buttons, or the failure that says which there are (exit code 2).
    public static func choose(buttons: Int, among variants: [Variant]) throws(WristCoreFailure) -> Variant {
        if let v = variants.first(where: { $0.buttonCount == buttons }) { return v }
        let first = variants[0]
        let offered = variants.map { "\($0.buttonCount) (\(PathText.lastComponent($0.path)))" }
        let have = variants.count == 1
            ? "declares \(first.buttonCount) buttons (\(roles(first.board))) and there is no variant of it with \(buttons)"
            : "comes with \(offered.joined(separator: " or ")) buttons, not \(buttons)"
        throw WristCoreFailure(
            "--buttons \(buttons): \(first.path) \(have); write your own board file with the buttons that are wired "
                + "(copy it and delete the others; positive and negative are required: docs/boards.md)",
            exitCode: WristCoreExit.usageOrConfiguration)
    }

    /// "positive, negative, select, back".
    public static func roles(_ board: Board) -> String {
        board.buttons.map { $0.role.rawValue }.joined(separator: ", ")
    }

    /// The question `setup` asks on a terminal, the default (the board named) in brackets.
    public static func question(_ variants: [Variant], default chosen: Variant) -> String {
        let most = variants.map { $0.buttonCount }.max() ?? 0
        var text = "Which buttons are wired?\n"
        for v in variants {
            let what = v.buttonCount == most && v.buttonCount > 2
                ? "all \(numberWord(v.buttonCount)): \(roles(v.board))"
                : v.buttonCount == 2 ? "positive and negative only (long and double presses do the rest)" : roles(v.board)
            text += "  [\(v.buttonCount)] \(what)  (\(PathText.lastComponent(v.path)))\n"
        }
        let counts = variants.map { String($0.buttonCount) }
        return text + "Answer \(counts.joined(separator: " or ")) [\(chosen.buttonCount)]: "
    }

    /// The variant an answer picks: its number of buttons, or nothing for
    /// the default; nil for anything else (ask again).
    public static func answer(_ text: String, among variants: [Variant], default chosen: Variant) -> Variant? {
        var t = Substring(text)
        while let c = t.first, c == " " || c == "\t" || c == "\r" { t = t.dropFirst() }
        while let c = t.last, c == " " || c == "\t" || c == "\r" || c == "\n" { t = t.dropLast() }
        if t.isEmpty { return chosen }
        guard let n = IntegerText.int(t) else { return nil }
        return variants.first { $0.buttonCount == n }
    }

    static func numberWord(_ n: Int) -> String {
        switch n {
        case 2: "two"
        case 3: "three"
        case 4: "four"
        case 5: "five"
        case 6: "six"
        default: String(n)
        }
    }
}
