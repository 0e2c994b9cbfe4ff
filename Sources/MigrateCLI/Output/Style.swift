/// ANSI styling that disappears when colour is off.
public struct Style: Sendable {
    public var enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Stands for ESC in text migrate builds; `TextOutput` turns it into ESC after escaping every
    /// control character that came from input (an id with a terminal sequence prints as `\u{1B}`).
    public static let escape: Character = "\u{E01B}"
    /// Stands for a carriage return migrate means (the progress line), for the same reason.
    public static let carriageReturn: Character = "\u{E00D}"

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\(Self.escape)[\(code)m\(text)\(Self.escape)[0m" : text
    }

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }
}
