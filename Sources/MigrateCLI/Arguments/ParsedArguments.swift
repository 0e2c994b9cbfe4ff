/// The values given on the command line, by argument name.
public struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var specs: [String: ArgumentSpec] = [:]

    /// The single value of an option or positional argument, or its default.
    public func value(_ name: String) -> String? {
        values[name]?.last ?? specs[name]?.defaultValue
    }

    /// Every value of a repeating option or argument, in order.
    public func values(_ name: String) -> [String] {
        values[name] ?? []
    }

    public func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// True when the user gave the option explicitly.
    public func isSet(_ name: String) -> Bool {
        values[name] != nil || flags.contains(name)
    }

    /// A whole number, with a usage error naming the option when it isn't one.
    public func integer(_ name: String, in range: ClosedRange<Int>? = nil) throws(CommandError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.map({ $0.contains(number) }) ?? true else {
            let bounds = range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
            throw .usage("The value '\(text)' is invalid for '--\(name)'. Expected a whole number\(bounds).")
        }
        return number
    }
}
