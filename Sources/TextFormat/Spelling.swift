/// "Did you mean ...?" for a word typed where one of a known set was
/// expected (a command, an option, a board name): the known words within a
/// small edit distance of it. Distances are Damerau-Levenshtein (optimal
/// string alignment: insert, delete, substitute, swap two neighbours),
/// ASCII case ignored, counted over UTF-8 bytes. Bounded: a word or
/// candidate longer than `maxLength` bytes is never compared, and the
/// allowed distance is 1 for words of up to 4 bytes, 2 beyond (so `rnu`
/// finds `run`, `rpi-zer2w` finds `rpi-zero2w`, and `x` finds nothing).
public enum Spelling {
    /// Longest word (in UTF-8 bytes) compared at all.
    public static let maxLength = 64

    /// The largest distance suggested for `word`: 0 (nothing) below 3 bytes.
    public static func allowedDistance(_ word: String) -> Int {
        let n = word.utf8.count
        return n < 3 ? 0 : n <= 4 ? 1 : 2
    }

    /// The candidates nearest to `word` within `allowedDistance(word)`, in
    /// the order given (at most `limit`); empty when none is close, or when
    /// `word` is itself one of them. A candidate differing only in case
    /// (`RUN`) is the nearest of all.
    public static func suggestions(for word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let allowed = allowedDistance(word)
        guard allowed > 0, word.utf8.count <= maxLength else { return [] }
        let typed = folded(word)
        var best = allowed
        var found: [String] = []
        for candidate in candidates where candidate.utf8.count <= maxLength {
            if candidate == word { return [] }
            let d = distance(typed, folded(candidate), bound: best + 1)
            if d > best { continue }
            if d < best || found.isEmpty {
                best = d
                found = [candidate]
            } else if !found.contains(candidate) {
                found.append(candidate)
            }
        }
        return Array(found.prefix(limit))
    }

    /// "did you mean 'run'?" (or "'a' or 'b'"), nil when nothing is close.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String? {
        let near = suggestions(for: word, among: candidates)
        return near.isEmpty ? nil : didYouMean(near)
    }

    /// "did you mean 'a'?", "did you mean 'a' or 'b'?", "did you mean 'a', 'b' or 'c'?".
    public static func didYouMean(_ suggestions: [String]) -> String {
        let quoted = suggestions.map { "'\($0)'" }
        guard let last = quoted.last else { return "" }
        let list = quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
        return "did you mean \(list)?"
    }

    /// The optimal-string-alignment distance between `a` and `b`, or any
    /// value >= `bound` once it is certain to be at least `bound`.
    public static func distance(_ a: [UInt8], _ b: [UInt8], bound: Int = Int.max) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        if abs(a.count - b.count) >= bound { return bound }
        // Three rows of the table: two rows back (for a swap), the previous one, this one.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
                rowMinimum = min(rowMinimum, d)
            }
            if rowMinimum >= bound { return bound }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }

    /// The word's UTF-8 bytes with ASCII letters lower-cased.
    static func folded(_ word: String) -> [UInt8] {
        word.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }
}
