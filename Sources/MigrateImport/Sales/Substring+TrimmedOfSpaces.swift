extension Substring {
    /// True for a line of spaces and tabs only (or nothing).
    var isBlank: Bool { trimmedOfSpaces.isEmpty }

    /// Without leading and trailing spaces and tabs (what `CharacterSet.whitespaces` holds: tab and the
    /// Unicode space separators), without Foundation's per-call cost on millions of fields.
    var trimmedOfSpaces: Substring {
        func isSpace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        // Almost every field starts and ends with an ASCII letter or digit: no Unicode lookup then.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return self[...]
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
