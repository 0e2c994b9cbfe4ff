/// Something a command lists among its arguments: a typed `Argument`.
public protocol DeclaredArgument: Sendable {
    var spec: ArgumentSpec { get }
}

/// An argument declared once with the type of its value, the way swift-argument-parser's `@Option` is: the
/// parser checks the text (a choice, a whole number in range, a date) before the command runs, and the command
/// reads `arguments[Self.draws]` as an `Int`, never a string to unwrap and convert.
///
/// `Value` says what the command gets: `T` for a required positional or an option with a default, `T?` for an
/// option that may be absent, `[T]` for a repeating one, `Bool` for a flag.
public struct Argument<Value: Sendable>: DeclaredArgument {
    public let spec: ArgumentSpec
    let read: @Sendable (ParsedArguments) -> Value

    init(spec: ArgumentSpec, read: @escaping @Sendable (ParsedArguments) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// The same argument naming a file in `role`: read, written, or both (checked before the command runs).
    public func naming(_ role: FileRole) -> Argument {
        var spec = spec
        spec.role = role
        return Argument(spec: spec, read: read)
    }

    /// The same argument with another help text or value name (for one argument shared by several commands).
    public func with(help: String? = nil, valueName: String? = nil) -> Argument {
        var spec = spec
        if let help { spec.help = help }
        if let valueName { spec.valueName = valueName }
        return Argument(spec: spec, read: read)
    }
}

extension ArgumentSpec {
    /// What a conversion made of the text on the command line.
    public enum Conversion: Sendable {
        case value(any Sendable)
        /// What was expected instead, as the end of a usage error: "Expected a whole number from 1 to 4."
        case invalid(expected: String)
    }
}

// MARK: - Text

extension Argument where Value == String {
    /// A required positional argument such as `<plan>`.
    public static func positional(_ name: String, help: String) -> Argument {
        Argument(spec: .positional(name, help: help)) { $0.required(name, as: String.self) }
    }

    /// `--name <value>` with a default.
    public static func option(_ name: String, short: Character? = nil, valueName: String? = nil, help: String, default value: String) -> Argument {
        Argument(spec: .option(name, short: short, valueName: valueName, help: help, defaultValue: value)) { $0.last(name, as: String.self) ?? value }
    }
}

extension Argument where Value == String? {
    /// A positional argument that may be left out.
    public static func optionalPositional(_ name: String, help: String) -> Argument {
        Argument(spec: .positional(name, help: help, required: false)) { $0.last(name, as: String.self) }
    }

    /// `--name <value>`, absent unless given.
    public static func option(_ name: String, short: Character? = nil, valueName: String? = nil, help: String) -> Argument {
        Argument(spec: .option(name, short: short, valueName: valueName, help: help)) { $0.last(name, as: String.self) }
    }
}

extension Argument where Value == [String] {
    /// One or more positional arguments.
    public static func positionals(_ name: String, help: String) -> Argument {
        Argument(spec: .positional(name, help: help, repeating: true)) { $0.all(name, as: String.self) }
    }

    /// `--name <value>`, repeatable, in the order given.
    public static func options(_ name: String, valueName: String? = nil, help: String, choices: [String]? = nil) -> Argument {
        Argument(spec: .option(name, valueName: valueName, help: help, choices: choices, repeating: true)) { $0.all(name, as: String.self) }
    }
}

extension Argument where Value == Bool {
    /// `--name` alone.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> Argument {
        Argument(spec: .flag(name, short: short, help: help)) { $0.flags.contains(name) }
    }
}

// MARK: - Choices

extension ArgumentSpec {
    /// This argument taking one of `Choice`'s cases: help and completions list them, the parser refuses
    /// anything else with a suggestion, and the value is converted to the case.
    func choosing<Choice: CaseIterable & RawRepresentable & Sendable>(_: Choice.Type) -> ArgumentSpec where Choice.RawValue == String {
        var spec = self
        spec.choices = Choice.allCases.map(\.rawValue)
        // The parser refuses anything outside the choices before converting, so the fallback is never used.
        spec.conversion = { text in Choice(rawValue: text).map { .value($0) } ?? .invalid(expected: "Expected one of the listed values.") }
        return spec
    }
}

extension Argument where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// A required positional argument that is one of an enum's cases, such as `<shell>`.
    public static func positionalChoice(_ name: String, help: String) -> Argument {
        Argument(spec: ArgumentSpec.positional(name, help: help).choosing(Value.self)) { $0.required(name, as: Value.self) }
    }

    /// `--name <choice>` from an enum's cases, with a default.
    public static func choice(_ name: String, valueName: String? = nil, help: String, default value: Value) -> Argument {
        let spec = ArgumentSpec.option(name, valueName: valueName, help: help, defaultValue: value.rawValue).choosing(Value.self)
        return Argument(spec: spec) { $0.last(name, as: Value.self) ?? value }
    }
}

extension Argument {
    /// `--name <choice>` from an enum's cases, absent unless given.
    public static func choice<Choice: CaseIterable & RawRepresentable & Sendable>(
        _ name: String, valueName: String? = nil, help: String
    ) -> Argument where Value == Choice?, Choice.RawValue == String {
        Argument(spec: ArgumentSpec.option(name, valueName: valueName, help: help).choosing(Choice.self)) { $0.last(name, as: Choice.self) }
    }

    /// `--name <choice>` from an enum's cases, repeatable.
    public static func choices<Choice: CaseIterable & RawRepresentable & Sendable>(
        _ name: String, valueName: String? = nil, help: String
    ) -> Argument where Value == [Choice], Choice.RawValue == String {
        let spec = ArgumentSpec.option(name, valueName: valueName, help: help, repeating: true).choosing(Choice.self)
        return Argument(spec: spec) { $0.all(name, as: Choice.self) }
    }
}

// MARK: - Numbers

extension Argument where Value: FixedWidthInteger {
    /// `--name <n>`: a whole number in `range`, with a default.
    public static func number(_ name: String, valueName: String = "n", help: String, in range: ClosedRange<Value>, default value: Value) -> Argument {
        var spec = ArgumentSpec.option(name, valueName: valueName, help: help, defaultValue: String(value))
        spec.conversion = numberConversion(range)
        return Argument(spec: spec) { $0.last(name, as: Value.self) ?? value }
    }
}

extension Argument {
    /// `--name <n>`: a whole number in `range`, absent unless given.
    public static func number<Number: FixedWidthInteger & Sendable>(
        _ name: String, valueName: String = "n", help: String, in range: ClosedRange<Number>
    ) -> Argument where Value == Number? {
        var spec = ArgumentSpec.option(name, valueName: valueName, help: help)
        spec.conversion = numberConversion(range)
        return Argument(spec: spec) { $0.last(name, as: Number.self) }
    }

    static func numberConversion<Number: FixedWidthInteger & Sendable>(_ range: ClosedRange<Number>) -> @Sendable (String) -> ArgumentSpec.Conversion
    {
        { text in
            guard let number = Number(text), range.contains(number) else {
                return .invalid(expected: "Expected a whole number from \(range.lowerBound) to \(range.upperBound).")
            }
            return .value(number)
        }
    }

    /// `--name <value>` that `convert` turns into a `T`, with a default; `expected` says what a refused text
    /// should have been.
    public static func converted(
        _ name: String, short: Character? = nil, valueName: String, help: String, default value: Value, expected: String,
        _ convert: @escaping @Sendable (String) -> Value?
    ) -> Argument where Value: CustomStringConvertible {
        var spec = ArgumentSpec.option(name, short: short, valueName: valueName, help: help, defaultValue: value.description)
        spec.conversion = { text in convert(text).map { .value($0) } ?? .invalid(expected: expected) }
        return Argument(spec: spec) { $0.last(name, as: Value.self) ?? value }
    }

    /// `--name <value>` that `convert` turns into a `T`, absent unless given; `expected` says what a refused
    /// text should have been ("Expected an ISO 8601 date-time such as 2017-10-08T02:47:56Z.").
    public static func converted<T: Sendable>(
        _ name: String, valueName: String, help: String, expected: String, _ convert: @escaping @Sendable (String) -> T?
    ) -> Argument where Value == T? {
        var spec = ArgumentSpec.option(name, valueName: valueName, help: help)
        spec.conversion = { text in convert(text).map { .value($0) } ?? .invalid(expected: expected) }
        return Argument(spec: spec) { $0.last(name, as: T.self) }
    }
}
