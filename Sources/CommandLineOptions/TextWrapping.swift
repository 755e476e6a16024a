/// Word wrapping as swift-argument-parser does it, so help pages keep their
/// line breaks: lines break at the last space that fits (a word longer than
/// the line stands alone), the text's own newlines are kept, and every
/// non-empty line is indented by `indent`.
enum TextWrapping {
    static func wrap(_ text: Substring, to columns: Int, indent: Int = 0) -> String {
        let width = columns - indent
        let pad = String(repeating: " ", count: indent)
        // Narrower than the indent: no wrapping, only the indent.
        guard width > 0 else { return text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n") }
        var lines: [Substring] = []
        var start = text.startIndex
        while true {
            let chunk = text[start...].prefix(width)
            if let lastBreak = chunk.lastIndex(of: "\n") {
                lines += text[start..<lastBreak].split(separator: "\n", omittingEmptySubsequences: false)
                start = text.index(after: lastBreak)
            } else if chunk.endIndex == text.endIndex {
                lines.append(text[start...])
                break
            } else if let lastSpace = chunk.lastIndex(of: " ") {
                lines.append(text[start..<lastSpace])
                start = text.index(after: lastSpace)
            } else if let nextSpace = text[start...].firstIndex(of: " ") {
                lines.append(text[start..<nextSpace])
                start = text.index(after: nextSpace)
            } else {
                lines.append(text[start...])
                break
            }
        }
        return lines.map { $0.isEmpty ? "" : pad + $0 }.joined(separator: "\n")
    }
}
