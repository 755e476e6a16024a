import Notifications
import Graphics

/// One 9x9 icon per ANCS category, drawn for a 1-bit OLED: solid shapes
/// with one-pixel gaps read better than thin outlines at this size.
/// `Tests/ScreensTests/Golden/category-icons.pbm` shows all twelve.
public enum CategoryIcons {
    public static let size = 9

    /// A bell: anything the phone does not classify.
    public static let other = Bitmap(rows: [
        "....#....",
        "...###...",
        "..#####..",
        "..#####..",
        "..#####..",
        ".#######.",
        "#########",
        ".........",
        "...###...",
    ])

    /// A handset with an arrow coming in: someone is calling.
    public static let incomingCall = Bitmap(rows: [
        "##......#",
        "###..#.#.",
        "###..##..",
        ".##..###.",
        "..##.....",
        "...##....",
        "....###..",
        ".....####",
        "......###",
    ])

    /// A handset with a cross: a call was missed.
    public static let missedCall = Bitmap(rows: [
        "##...#.#.",
        "###...#..",
        "###..#.#.",
        ".##......",
        "..##.....",
        "...##....",
        "....###..",
        ".....####",
        "......###",
    ])

    /// The voicemail sign: two reels joined at the bottom.
    public static let voicemail = Bitmap(rows: [
        ".........",
        ".........",
        ".##...##.",
        "#..#.#..#",
        "#..#.#..#",
        "#..#.#..#",
        ".#######.",
        ".........",
        ".........",
    ])

    /// A speech bubble: messages, social networks.
    public static let social = Bitmap(rows: [
        ".#######.",
        "#########",
        "##.#.#.##",
        "#########",
        ".#######.",
        "..##.....",
        "..#......",
        ".........",
        ".........",
    ])

    /// A calendar page: events, reminders.
    public static let schedule = Bitmap(rows: [
        ".#.....#.",
        "#########",
        "#########",
        "#.......#",
        "#.#.#.#.#",
        "#.......#",
        "#.#.#.#.#",
        "#.......#",
        "#########",
    ])

    /// An envelope.
    public static let email = Bitmap(rows: [
        ".........",
        "#########",
        "##.....##",
        "#.#...#.#",
        "#..#.#..#",
        "#...#...#",
        "#.......#",
        "#########",
        ".........",
    ])

    /// A newspaper: a picture block and lines of text.
    public static let news = Bitmap(rows: [
        "#########",
        "#.......#",
        "#.###.#.#",
        "#.###...#",
        "#.###.#.#",
        "#.......#",
        "#.#####.#",
        "#.......#",
        "#########",
    ])

    /// A heart.
    public static let healthAndFitness = Bitmap(rows: [
        ".##...##.",
        "####.####",
        "#########",
        "#########",
        ".#######.",
        "..#####..",
        "...###...",
        "....#....",
        ".........",
    ])

    /// A briefcase.
    public static let businessAndFinance = Bitmap(rows: [
        ".........",
        "...###...",
        "..#...#..",
        "#########",
        "#########",
        "....#....",
        "#########",
        "#########",
        "#########",
    ])

    /// A map pin.
    public static let location = Bitmap(rows: [
        "..#####..",
        ".##...##.",
        "##..#..##",
        "##.###.##",
        "##..#..##",
        ".##...##.",
        "..##.##..",
        "...###...",
        "....#....",
    ])

    /// Two beamed notes: music, video, games.
    public static let entertainment = Bitmap(rows: [
        "...######",
        "...######",
        "...#....#",
        "...#....#",
        "...#....#",
        ".###..###",
        "####.####",
        "####.####",
        ".##...##.",
    ])

    /// In NotificationCategory order (0 Other ... 11 Entertainment).
    public static let all: [Bitmap] = [
        other, incomingCall, missedCall, voicemail, social, schedule,
        email, news, healthAndFitness, businessAndFinance, location, entertainment,
    ]

    /// The icon of a category; unknown (reserved) categories get Other's.
    public static func icon(for category: NotificationCategory) -> Bitmap {
        let i = Int(category.rawValue)
        return i < all.count ? all[i] : other
    }
}
