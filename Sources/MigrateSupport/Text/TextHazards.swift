/// Characters in a name that act instead of showing: C0 controls, DEL and C1 controls (which move a terminal's cursor,
/// retitle its window or ring its bell), and the bidirectional formatting characters of Unicode's UAX #9 (marks,
/// embeddings, overrides and isolates), which reorder the text around them: an app name ending in U+202E RIGHT-TO-LEFT
/// OVERRIDE turns "should it go free?" into "?eerf og ti dluohs". One list for `check`, the report and the terminal.
public enum TextHazards {
    /// The bidirectional formatting characters: ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// C0 controls (tab and newline included), DEL and C1 controls.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// A character no name should hold: a control character or a bidirectional formatting character.
    public static func isHazard(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || isBidiControl(scalar) }

    /// How a hazard is shown instead of acting: `\u{202E}`, as Swift writes it.
    public static func visible(_ scalar: Unicode.Scalar) -> String { "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" }

    /// `text` with every hazard but tab and newline shown as `visible(_:)`; unchanged (the same storage) when it has none.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isHazard($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isHazard(scalar) && scalar != "\n" && scalar != "\t" {
                result.append(contentsOf: visible(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The hazards in `text`, each once in the order met, as `visible(_:)` writes them, for a message: `\u{1B}, \u{202E}`.
    public static func found(in text: String) -> [String] {
        var seen: [String] = []
        for scalar in text.unicodeScalars where isHazard(scalar) {
            let shown = visible(scalar)
            if !seen.contains(shown) { seen.append(shown) }
        }
        return seen
    }
}
