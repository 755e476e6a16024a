import Graphics

/// The status bar's small glyphs (9 rows, to sit on the 6x10 font's line).
enum StatusIcons {
    /// The Bluetooth rune.
    static let bluetooth = Bitmap(rows: [
        "..#..",
        "..##.",
        "#.#.#",
        ".###.",
        "..#..",
        ".###.",
        "#.#.#",
        "..##.",
        "..#..",
    ])

    /// Radio waves beside the rune: advertising.
    static let waves = Bitmap(rows: [
        ".#..",
        "..#.",
        "#..#",
        ".#.#",
        ".#.#",
        ".#.#",
        "#..#",
        "..#.",
        ".#..",
    ])

    /// A padlock beside the rune: encrypted (bonded) link.
    static let lock = Bitmap(rows: [
        ".....",
        ".###.",
        "#...#",
        "#...#",
        "#####",
        "##.##",
        "##.##",
        "#####",
        ".....",
    ])

    /// A cross beside the rune: Bluetooth off.
    static let cross = Bitmap(rows: [
        ".....",
        ".....",
        "#...#",
        ".#.#.",
        "..#..",
        ".#.#.",
        "#...#",
        ".....",
        ".....",
    ])

    /// An envelope before the unread count.
    static let unread = Bitmap(rows: [
        ".......",
        ".......",
        "#######",
        "##...##",
        "#.#.#.#",
        "#..#..#",
        "#.....#",
        "#######",
        ".......",
    ])

    /// Beside the Bluetooth state: ANCS health unknown (connected, no
    /// subscription confirmed yet).
    static let healthUnknown = Bitmap(rows: [
        ".###.",
        "#...#",
        "....#",
        "...#.",
        "..#..",
        "..#..",
        ".....",
        "..#..",
        ".....",
    ])

    /// Beside the Bluetooth state: ANCS health failing (a check failed, the
    /// watch is re-subscribing or reconnecting).
    static let healthFailing = Bitmap(rows: [
        "##",
        "##",
        "##",
        "##",
        "##",
        "..",
        "##",
        "##",
        "..",
    ])

    /// Before a list row's text: kept from the previous session (a small clock).
    static let previousSession = Bitmap(rows: [
        "..###..",
        ".#...#.",
        "#..#..#",
        "#..##.#",
        "#.....#",
        ".#...#.",
        "..###..",
    ])

    /// In the status bar while Do Not Disturb is on: a crescent moon.
    static let moon = Bitmap(rows: [
        "...##..",
        "..##...",
        ".##....",
        ".##....",
        ".##....",
        ".##...#",
        "..##.##",
        "...###.",
        ".......",
    ])
}
