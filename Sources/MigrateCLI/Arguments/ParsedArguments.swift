/// The values given on the command line, by argument name, already converted to the types their `Argument`s
/// declare. Commands read them with `arguments[Self.someArgument]`.
public struct ParsedArguments: Sendable {
    /// Each argument's values in order, as its `ArgumentSpec.conversion` made them (the text when it has none).
    var values: [String: [any Sendable]] = [:]
    var flags: Set<String> = []

    /// The typed value of a declared argument: its default, nil or empty when the command line left it out.
    public subscript<Value>(argument: Argument<Value>) -> Value {
        argument.read(self)
    }

    /// True when the user gave the argument explicitly (an option with a default reads the same either way).
    public func isSet(_ argument: some DeclaredArgument) -> Bool {
        values[argument.spec.name] != nil || flags.contains(argument.spec.name)
    }

    /// The converted values of the argument named `name`; the parser stored each as the type its declaration
    /// converts to, so none is dropped here.
    func all<T>(_ name: String, as type: T.Type) -> [T] {
        (values[name] ?? []).compactMap { $0 as? T }
    }

    /// The last value given (an option given once, or a positional argument).
    func last<T>(_ name: String, as type: T.Type) -> T? {
        all(name, as: type).last
    }

    /// The value of a required positional argument, which the parser never lets a command run without.
    func required<T>(_ name: String, as type: T.Type) -> T {
        guard let value = last(name, as: type) else {
            preconditionFailure("The parser runs a command only when its required argument <\(name)> is given.")
        }
        return value
    }
}
