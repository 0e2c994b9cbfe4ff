import Foundation
import MigrateGenerator
import MigrateSupport

/// Where a command's text goes: a file descriptor, or a buffer in tests.
public final class TextOutput: @unchecked Sendable {
    private let descriptor: Int32?
    private var buffer = ""
    private let lock = NSLock()
    /// True when this output is a terminal, so colour and progress may be shown.
    public let isTerminal: Bool
    /// The first error a write met (ENOSPC writing to /dev/full, EIO): nothing more is written after it, and the
    /// command ends with exit 74 saying so, never a trap.
    public private(set) var failure: Int32 = 0
    /// For a buffer, a failure to pretend (tests of a full standard output).
    public var failsWith: Int32 = 0

    /// Standard output or standard error of this process.
    public init(handle: FileHandle, isTerminal: Bool) {
        descriptor = handle.fileDescriptor
        self.isTerminal = isTerminal
    }

    /// A buffer that collects what is written, for tests.
    public init(isTerminal: Bool = false) {
        descriptor = nil
        self.isTerminal = isTerminal
    }

    public func write(_ raw: String) {
        let text = Self.escapingControls(raw)
        emit(Array(text.utf8), text: text)
    }

    /// Writes data meant for a program (CSV, JSON Lines) as it is when the output is not a terminal; on a
    /// terminal its control characters are shown escaped, as `write(_:)` does.
    public func write(data bytes: [UInt8]) {
        if descriptor != nil, !isTerminal {
            emit(bytes, text: nil)
        } else {
            write(String(decoding: bytes, as: UTF8.self))
        }
    }

    private func emit(_ bytes: [UInt8], text: String?) {
        lock.lock()
        defer { lock.unlock() }
        guard failure == 0 else { return }
        if let descriptor {
            failure = StreamOutput.writeAll(bytes, to: descriptor)
        } else if failsWith != 0 {
            failure = failsWith
        } else {
            buffer += text ?? String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Control characters from input (C0 but newline and tab, DEL, C1) and bidirectional formatting characters
    /// (`TextHazards`) become `\u{1B}`, `\u{202E}`, so a name in a plan or receipt can't move the cursor, retitle the
    /// window, hide text or turn the line around; `Style`'s stand-ins become the ESC and carriage return migrate itself means.
    public static func escapingControls(_ text: String) -> String {
        let needsWork = text.unicodeScalars.contains { scalar in
            (TextHazards.isHazard(scalar) && scalar != "\n" && scalar != "\t") || scalar.value == 0xE01B || scalar.value == 0xE00D
        }
        guard needsWork else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xE01B: result.append("\u{1B}")
            case 0xE00D: result.append("\r")
            case 0x0A, 0x09: result.append(scalar)
            case _ where TextHazards.isHazard(scalar): result.append(contentsOf: TextHazards.visible(scalar).unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Everything written so far, for a buffer.
    public var text: String {
        lock.lock()
        defer { lock.unlock() }
        return buffer
    }
}

/// Reads lines of input: standard input, or scripted lines in tests.
public final class TextInput: @unchecked Sendable {
    private var lines: [String]?
    public let isTerminal: Bool

    public init(isTerminal: Bool) {
        self.lines = nil
        self.isTerminal = isTerminal
    }

    public init(lines: [String], isTerminal: Bool = false) {
        self.lines = lines
        self.isTerminal = isTerminal
    }

    /// The next line without its newline, or nil at end of input.
    public func readLine() -> String? {
        if lines != nil {
            return lines!.isEmpty ? nil : lines!.removeFirst()
        }
        return Swift.readLine(strippingNewline: true)
    }
}

/// Everything a command may touch, injected so tests run commands in-process.
public struct CommandContext: Sendable {
    public var standardOutput: TextOutput
    public var standardError: TextOutput
    public var standardInput: TextInput
    public var environment: [String: String]
    /// Relative paths are resolved against this directory.
    public var currentDirectory: String
    /// The current time; tests pin it.
    public var now: Date
    /// How `generate` writes its files; tests inject faults here. Nil: the real file system.
    public var fileTransaction: FileTransaction?

    public init(
        standardOutput: TextOutput, standardError: TextOutput, standardInput: TextInput, environment: [String: String],
        currentDirectory: String, now: Date
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardInput = standardInput
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.now = now
    }

    /// The real process: stdio, environment, working directory and clock.
    public static func process() -> CommandContext {
        CommandContext(
            standardOutput: TextOutput(handle: .standardOutput, isTerminal: isatty(1) == 1),
            standardError: TextOutput(handle: .standardError, isTerminal: isatty(2) == 1),
            standardInput: TextInput(isTerminal: isatty(0) == 1),
            environment: processEnvironment(),
            currentDirectory: FileManager.default.currentDirectoryPath,
            now: Date())
    }

    /// The process's environment. On Linux it is read from `environ` directly: `ProcessInfo`'s dictionary, made on
    /// every run, took a third of `migrate --version`'s work. A name given twice keeps its first value, as `getenv`.
    static func processEnvironment() -> [String: String] {
        #if canImport(Glibc)
            var environment: [String: String] = [:]
            var entry = environ
            while let pointer = entry.pointee {
                let text = String(cString: pointer)
                if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    let name = String(text[..<equals])
                    if environment[name] == nil { environment[name] = String(text[text.utf8.index(after: equals)...]) }
                }
                entry += 1
            }
            return environment
        #else
            return ProcessInfo.processInfo.environment
        #endif
    }

    /// A context for tests: buffers, an empty environment and a fixed clock.
    public static func testing(
        input: [String] = [], directory: String = FileManager.default.currentDirectoryPath,
        now: Date = Date(timeIntervalSince1970: 1_795_000_000), environment: [String: String] = [:], terminal: Bool = false
    ) -> CommandContext {
        CommandContext(
            standardOutput: TextOutput(isTerminal: terminal), standardError: TextOutput(isTerminal: terminal),
            standardInput: TextInput(lines: input, isTerminal: terminal), environment: environment,
            currentDirectory: directory, now: now)
    }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    public func style(for output: TextOutput) -> Style {
        let disabled = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Style(enabled: output.isTerminal && !disabled && environment["TERM"] != "dumb")
    }

    /// An absolute path for a path the user typed.
    public func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/"), let home = environment["HOME"] { return home + path.dropFirst() }
        return (currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/") + path
    }
}
