import BoardConfig
import Haptics

extension UserSettingsValidator {
    static let filterMatchFields = ["app", "title", "subtitle", "message"]
    static let filterFields = filterMatchFields + appFields

    /// `"filters": [{ "title": "Mum", "alwaysAlert": true }, { "message": "promo code", "mute": true }]`:
    /// at most `ContentFilters.capacity` rules, each naming at least one of
    /// app, title, subtitle, message (1-`textCapacity` bytes, no control
    /// characters) and at least one action.
    mutating func filters(_ value: ConfigJSON, patterns: [VibrationPattern]) -> ContentFilters {
        var filters = ContentFilters()
        guard case .array(let items, _) = value else {
            v.problem(value.line, "filters", "expected an array of rules [{ \"title\": \"...\", \"mute\": true }], found \(value.kindName)")
            return filters
        }
        if items.count > ContentFilters.capacity {
            v.problem(items[ContentFilters.capacity].line, "filters", "\(items.count) rules; allowed: at most \(ContentFilters.capacity)")
            return filters
        }
        let patternNames = patterns.map { $0.name } + Self.reservedPatternNames
        let textAllowed = "1-\(ContentFilters.textCapacity) bytes of UTF-8 without control characters, matched ignoring case"
        for (i, item) in items.enumerated() {
            let path = "filters[\(i)]"
            guard let m = v.members(item, path, allowed: Self.filterFields) else { continue }
            var texts: [String] = []
            var bad = false
            for field in Self.filterMatchFields {
                guard let (t, line) = m[field] else {
                    texts.append("")
                    continue
                }
                guard case .string(let text, _) = t, !text.isEmpty, text.utf8.count <= ContentFilters.textCapacity,
                      !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                    v.problem(line, "\(path).\(field)", "\(BoardValidator.show(t)) is not a text to look for; allowed: \(textAllowed)")
                    bad = true
                    continue
                }
                texts.append(text)
            }
            if bad { continue }
            guard texts.contains(where: { !$0.isEmpty }) else {
                v.problem(item.line, path, "matches nothing; allowed: at least one of \(Self.filterMatchFields.joined(separator: ", "))")
                continue
            }
            guard Self.appFields.contains(where: { m[$0] != nil }) else {
                v.problem(item.line, path, "does nothing; allowed: at least one of \(Self.appFields.joined(separator: ", "))")
                continue
            }
            guard let rule = rule(m, path, patterns: patterns, patternNames: patternNames) else { continue }
            filters.add(texts, rule)
        }
        return filters
    }
}
