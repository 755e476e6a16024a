/// One help page, laid out as swift-argument-parser laid it out (so the
/// man page generator, packaging/manpage.py, reads it unchanged):
///
///     OVERVIEW: <abstract>
///
///     <discussion>
///
///     USAGE: <usage>
///
///     OPTIONS:
///       --label <value>         Help text, wrapped at the screen width and
///                               indented to column 26.
///
/// A label as wide as the column or wider puts its text on the next line.
struct HelpPage {
    static let labelColumn = 26

    var abstract: String
    var discussion: String
    var usage: String
    /// Title and (label, text) entries; an empty section is left out.
    var sections: [(title: String, entries: [(String, String)])]
    var footer: String

    func rendered(width: Int) -> String {
        var overview = "OVERVIEW: " + abstract
        if !discussion.isEmpty { overview += "\n\n" + discussion }
        let body = sections.filter { !$0.entries.isEmpty }.map { section in
            section.title + ":\n" + section.entries.map { Self.entry(label: $0.0, text: $0.1, width: width) }.joined()
        }
        return TextWrapping.wrap(overview[...], to: width) + "\n\n" + "USAGE: \(usage)\n\n" + body.joined(separator: "\n") + footer
    }

    static func entry(label: String, text: String, width: Int) -> String {
        let padded = "  " + label
        guard !text.isEmpty else { return padded + "\n" }
        let wrapped = TextWrapping.wrap(text[...], to: width, indent: labelColumn)
        if padded.count < labelColumn { return padded + wrapped.dropFirst(padded.count) + "\n" }
        return padded + "\n" + wrapped + "\n"
    }
}
