/// What a template sees: strings, booleans, lists and objects, nothing else.
///
/// Keeping the context this plain makes it a contract that people writing their own
/// templates can read in Templates/CONTEXT.md.
public enum TemplateValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    case string(String)
    case bool(Bool)
    case list([TemplateValue])
    case object([String: TemplateValue])
    case null

    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// False, null and empty lists are falsey, as in the Mustache spec; empty strings are not.
    var isFalsey: Bool {
        switch self {
        case .bool(let flag): !flag
        case .null: true
        case .list(let items): items.isEmpty
        default: false
        }
    }

    subscript(key: String) -> TemplateValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
