import AMS
import Graphics

/// The glyphs of the Now Playing screen (7x7, on the 6x10 font's digit
/// rows): the play state, what the player is doing now, not what a press
/// does; and the speaker of the volume bar.
enum MediaIcons {
    static let playing = Bitmap(rows: [
        "##.....",
        "####...",
        "######.",
        "#######",
        "######.",
        "####...",
        "##.....",
    ])

    static let paused = Bitmap(rows: [
        "##...##",
        "##...##",
        "##...##",
        "##...##",
        "##...##",
        "##...##",
        "##...##",
    ])

    static let fastForwarding = Bitmap(rows: [
        "#...#..",
        "##..##.",
        "###.###",
        "#######",
        "###.###",
        "##..##.",
        "#...#..",
    ])

    static let rewinding = Bitmap(rows: [
        "..#...#",
        ".##..##",
        "###.###",
        "#######",
        "###.###",
        ".##..##",
        "..#...#",
    ])

    /// A speaker cone and one sound wave.
    static let speaker = Bitmap(rows: [
        "...#...",
        "..##.#.",
        "####..#",
        "####..#",
        "####..#",
        "..##.#.",
        "...#...",
    ])

    static func glyph(_ state: PlaybackState) -> Bitmap {
        switch state {
        case .playing: playing
        case .paused: paused
        case .fastForwarding: fastForwarding
        case .rewinding: rewinding
        }
    }
}
