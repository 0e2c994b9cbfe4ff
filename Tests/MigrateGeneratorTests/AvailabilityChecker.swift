import Foundation
import MigrateTestSupport

/// Checks Apple-platform availability on Linux, where `@available(iOS …)` is ignored.
///
/// Swift 6.3's experimental `CustomAvailability` feature lets a Clang module declare availability
/// domains (`CLANG_DYNAMIC_AVAILABILITY_DOMAIN(name, query)` from `<availability_domain.h>`), which
/// `@available(name)` and `if #available(name)` then check for real, across module boundaries.
/// (Domains made with `-define-dynamic-availability-domain` don't survive serialization: a client
/// of a module that uses one crashes the compiler with "Invalid availability domain".)
///
/// The checker rewrites the sources for one deployment target:
/// - `@available(iOS 18.4, macOS 15.4, …, *)` becomes `@available(iOS18_4)`, one domain per OS
///   release above the target, and a later release requires every one up to it
///   (`@available(iOS18_4) @available(iOS27_0)`), so a 27 context may use 18.4 API but not the
///   reverse; releases at or below the target become nothing (always available).
/// - `#available(…)` becomes `#available(iOS18_4), #available(iOS27_0)` or `true`;
///   `#unavailable(…)` becomes `#unavailable(iOS27_0)` or `false`.
/// - `@available(iOS, introduced: …, deprecated: …, obsoleted: …)` keeps what applies: the
///   introduction as domains, `@available(*, deprecated)` when that version is at or below the
///   target. `@available(iOS, unavailable)` (or obsoleted at or below the target) becomes
///   `@available(on_iOS, unavailable)`, an always-enabled domain, so unavailable contexts may
///   still use it as on Apple platforms. A later deprecation is dropped (Apple's compiler
///   doesn't warn outside `#available` blocks either). Other platforms' attributes are dropped.
/// - `@backDeployed(before: …)` is removed: the member stays available from its `@available`
///   introduction, which is what back-deployment means.
///
/// Then the shims compile as their own modules, with library evolution (so non-frozen enums
/// need `@unknown default`), and the client sources type-check against them, in each language
/// mode. Rewriting keeps every line where it was, so diagnostics point at the original lines.
enum AvailabilityChecker {
    /// A shim module in Tests/Fixtures.
    enum Module: String, CaseIterable, Sendable {
        case storeKit = "StoreKit"
        case combine = "Combine"
        case security = "Security"
        case uiKit = "UIKit"

        var shim: URL {
            let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/\(rawValue)Shim")
            return folder.appendingPathComponent("\(rawValue).swift")
        }

        /// The module version an SDK gives the module (`-user-module-version`), which
        /// `#if canImport(Module, _version: N)` reads. The StoreKit shim mirrors the 27 SDKs
        /// (`AppTransaction.revocationDate`), whose StoreKit is 816. A module built without one makes
        /// every versioned `canImport` true, with a warning.
        var userModuleVersion: String? {
            self == .storeKit ? "816" : nil
        }
    }

    /// An OS and its oldest supported version.
    struct DeploymentTarget: Sendable, CustomStringConvertible {
        var platform: String
        var version: [Int]

        static let iOS16 = DeploymentTarget(platform: "iOS", version: [16, 0])
        static let macOS13 = DeploymentTarget(platform: "macOS", version: [13, 0])
        static let tvOS16 = DeploymentTarget(platform: "tvOS", version: [16, 0])
        static let watchOS9 = DeploymentTarget(platform: "watchOS", version: [9, 0])
        static let visionOS1 = DeploymentTarget(platform: "visionOS", version: [1, 0])
        static let all = [iOS16, macOS13, tvOS16, watchOS9, visionOS1]

        var description: String { "\(platform) \(version.map(String.init).joined(separator: "."))" }
    }

    enum LanguageMode: String, CaseIterable, Sendable {
        case swift6 = "Swift 6"
        case swift5 = "Swift 5"

        var flags: [String] {
            switch self {
            case .swift6: return ["-swift-version", "6", "-strict-concurrency=complete"]
            case .swift5: return ["-swift-version", "5"]
            }
        }
    }

    /// A source file: a name for diagnostics and its text.
    struct Source: Sendable {
        var name: String
        var text: String

        init(name: String, text: String) {
            self.name = name
            self.text = text
        }

        init(contentsOf url: URL) throws {
            self.init(name: url.lastPathComponent, text: try String(contentsOf: url, encoding: .utf8))
        }
    }

    struct Diagnostic: Sendable, CustomStringConvertible {
        enum Severity: String, Sendable { case error, warning }
        var file: String
        var line: Int
        var column: Int
        var severity: Severity
        var message: String
        var mode: LanguageMode

        var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message) [\(mode.rawValue)]" }
    }

    struct CheckError: Error, CustomStringConvertible {
        var description: String
    }

    /// Type-checks `sources` as one client module against the shim `modules`, for the deployment
    /// target, in each language mode, and returns the errors and warnings (notes are left out).
    ///
    /// `replacements` maps exact texts to their replacements in every file, shims included,
    /// before the rewrite; use it to force branches, e.g. `["#if compiler(>=6.1)": "#if true"]`.
    static func check(
        sources: [Source],
        modules: [Module] = [.storeKit],
        deploymentTarget: DeploymentTarget,
        languageModes: [LanguageMode] = LanguageMode.allCases,
        replacements: [String: String] = [:]
    ) async throws -> [Diagnostic] {
        try await check(
            clients: [(name: "Client", sources: sources)], modules: modules, deploymentTarget: deploymentTarget,
            languageModes: languageModes, replacements: replacements)["Client"] ?? []
    }

    /// Like `check(sources:…)` for several client modules at once, keyed by name: the shims are
    /// built once per language mode and each client type-checks against them on its own (which is
    /// what makes checking every example affordable). Shim diagnostics are reported with every client.
    ///
    /// `library`, when given, is one more module built after the shims and before the clients, which
    /// may import it: the StoreKit layer's library, type-checked once for every example that imports it
    /// instead of once in each example's copy. Its diagnostics, like the shims', are every client's.
    static func check(
        clients: [(name: String, sources: [Source])],
        modules: [Module] = [.storeKit],
        library: (name: String, sources: [Source])? = nil,
        deploymentTarget: DeploymentTarget,
        languageModes: [LanguageMode] = LanguageMode.allCases,
        replacements: [String: String] = [:]
    ) async throws -> [String: [Diagnostic]] {
        func replaced(_ text: String) -> String {
            let text = replacements.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            return Self.evaluatingPlatformConditions(in: text, for: deploymentTarget)
        }
        let shims = try modules.map { (module: $0, source: try Source(contentsOf: $0.shim)) }
        var rewriter = AvailabilityRewriter(target: deploymentTarget)
        let shimTexts = shims.map { rewriter.scan(replaced($0.source.text)) }
        let clientTexts = clients.map { client in client.sources.map { rewriter.scan(replaced($0.text)) } }
        let libraryTexts = library.map { $0.sources.map { rewriter.scan(replaced($0.text)) } } ?? []

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("availability-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // The import goes last, so every line keeps its number.
        func rendered(_ scanned: AvailabilityRewriter.Scanned) -> String { rewriter.render(scanned) + "\nimport AvailabilityDomains\n" }
        let header = rewriter.domainHeader()
        let shimSources = zip(shims, shimTexts).map { shim, scanned in
            ShimBuilds.Shim(module: shim.module, name: shim.source.name, text: rendered(scanned))
        }

        // Written once: the rewrite doesn't depend on the language mode.
        var names: [String: String] = [:]
        func write(_ scanned: AvailabilityRewriter.Scanned, name: String, folder: URL) throws -> String {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent(name)
            try rendered(scanned).write(to: url, atomically: true, encoding: .utf8)
            names[url.path] = name
            return url.path
        }
        let libraryPaths = try zip(library?.sources ?? [], libraryTexts).map { source, scanned in
            try write(scanned, name: source.name, folder: root.appendingPathComponent("library"))
        }
        let clientPaths = try zip(clients, clientTexts).enumerated().map { index, client in
            try zip(client.0.sources, client.1).map { source, scanned in
                try write(scanned, name: source.name, folder: root.appendingPathComponent("client-\(index)"))
            }
        }

        var diagnostics: [String: [Diagnostic]] = [:]
        for client in clients { diagnostics[client.name] = [] }
        for mode in languageModes {
            let shimBuild = try await ShimBuilds.shared.build(shimSources, header: header, mode: mode)
            var shimDiagnostics = shimBuild.diagnostics
            let common = commonFlags(domains: shimBuild.domains)
            var built = ["-I", shimBuild.modules.path]
            if let library, !libraryPaths.isEmpty {
                // Built as an app that depends on the library gets it: its own module, without library evolution.
                let folder = root.appendingPathComponent("library-\(mode == .swift6 ? 6 : 5)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let run = try await swiftc(
                    [
                        "-emit-module", "-wmo", "-module-name", library.name,
                        "-emit-module-path", folder.appendingPathComponent("\(library.name).swiftmodule").path,
                    ]
                        + built + common + mode.flags + libraryPaths)
                shimDiagnostics += parse(run.output, names: names, mode: mode)
                if run.status != 0 && !shimDiagnostics.contains(where: { $0.severity == .error }) {
                    throw CheckError(description: "building the \(library.name) library failed:\n\(run.output)")
                }
                built += ["-I", folder.path]
            }
            // Each client type-checks on its own against the shims built above: all at once.
            let names = names
            let found = try await withThrowingTaskGroup(of: (String, [Diagnostic]).self) { [built] group in
                for (client, paths) in zip(clients, clientPaths) where !paths.isEmpty {
                    group.addTask {
                        // One frontend for the whole client (-wmo): without it the driver starts one per file, each
                        // loading the shims and Foundation again, for the same diagnostics at twice the CPU.
                        let run = try await swiftc(["-typecheck", "-wmo", "-module-name", "Client"] + built + common + mode.flags + paths)
                        let found = parse(run.output, names: names, mode: mode)
                        if run.status != 0 && !found.contains(where: { $0.severity == .error }) {
                            throw CheckError(description: "type-checking \(client.name) failed without a diagnostic:\n\(run.output)")
                        }
                        return (client.name, found)
                    }
                }
                var all: [String: [Diagnostic]] = [:]
                for try await (name, diagnostics) in group { all[name] = diagnostics }
                return all
            }
            for client in clients {
                diagnostics[client.name, default: []] += shimDiagnostics + (found[client.name] ?? [])
            }
        }
        return diagnostics
    }

    /// `#if`/`#elseif` conditions as the target's SDK sees them: `os(X)` is `true` for the target's
    /// own OS and `false` for every other (this machine's Linux included), and `canImport(UIKit)` is
    /// `false` on macOS (no Mac Catalyst here) and `canImport(AppKit)` everywhere else, so each
    /// target's branches are the ones type-checked, `#if os(visionOS)` code on visionOS included.
    static func evaluatingPlatformConditions(in text: String, for target: DeploymentTarget) -> String {
        var lines = text.components(separatedBy: "\n")
        for index in lines.indices {
            let trimmed = lines[index].drop { $0 == " " }
            guard trimmed.hasPrefix("#if ") || trimmed.hasPrefix("#elseif ") else { continue }
            var line = lines[index]
            for (name, platform) in AvailabilityRewriter.platformNames.sorted(by: { $0.key < $1.key }) {
                line = line.replacingOccurrences(of: "os(\(name))", with: platform == target.platform ? "true" : "false")
            }
            if target.platform == "macOS" { line = line.replacingOccurrences(of: "canImport(UIKit)", with: "false") }
            if target.platform != "macOS" { line = line.replacingOccurrences(of: "canImport(AppKit)", with: "false") }
            line = line.replacingOccurrences(of: "os(Linux)", with: "false")
            lines[index] = line
        }
        return lines.joined(separator: "\n")
    }

    /// What every shim, library and client compile passes: the availability domains and the feature that reads them.
    static func commonFlags(domains: URL) -> [String] {
        ["-parse-as-library", "-enable-experimental-feature", "CustomAvailability", "-I", domains.path]
    }

    /// Runs swiftc and returns its status and combined output.
    static func swiftc(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await shell(ScratchBuild.yielding + ["swiftc", "-no-color-diagnostics"] + arguments, in: FileManager.default.temporaryDirectory)
    }

    /// Reads `path:line:column: error|warning: message` lines, naming files as the caller did.
    static func parse(_ output: String, names: [String: String], mode: LanguageMode) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for line in output.split(separator: "\n") {
            for severity in [Diagnostic.Severity.error, .warning] {
                guard let marker = line.range(of: ": \(severity.rawValue): ") else { continue }
                let location = line[..<marker.lowerBound].split(separator: ":")
                guard location.count >= 3, let lineNumber = Int(location[location.count - 2]),
                    let column = Int(location[location.count - 1])
                else { continue }
                let path = location[..<(location.count - 2)].joined(separator: ":")
                let message = String(line[marker.upperBound...])
                // Noise: Foundation on Linux isn't built with library evolution.
                if message.contains("was not compiled with library evolution support") { continue }
                let diagnostic = Diagnostic(
                    file: names[path] ?? path, line: lineNumber, column: column, severity: severity,
                    message: message, mode: mode)
                // Each primary diagnostic is printed once, but guard against repeats.
                if !result.contains(where: { $0.description == diagnostic.description }) { result.append(diagnostic) }
            }
        }
        return result
    }
}

/// Rewrites availability attributes and conditions for one deployment target, keeping line numbers.
struct AvailabilityRewriter {
    let target: AvailabilityChecker.DeploymentTarget
    /// Every release above the target that some source names, so later ones can imply earlier ones.
    private(set) var releases: Set<[Int]> = []

    init(target: AvailabilityChecker.DeploymentTarget) {
        self.target = target
    }

    /// A source split into code and the availability constructs found in it.
    struct Scanned {
        enum Piece {
            case text(String)
            case attribute(kind: String, arguments: [String], original: String)
        }
        var pieces: [Piece]
    }

    static let platformNames: [String: String] = [
        "iOS": "iOS", "macOS": "macOS", "OSX": "macOS", "tvOS": "tvOS", "watchOS": "watchOS", "visionOS": "visionOS",
    ]

    /// Finds `@available(…)`, `#available(…)`, `#unavailable(…)` and `@backDeployed(…)` outside
    /// comments and string literals, and records the releases they name.
    mutating func scan(_ text: String) -> Scanned {
        let chars = Array(text.unicodeScalars)
        var pieces: [Scanned.Piece] = []
        var pending = String.UnicodeScalarView()
        var index = 0
        let kinds = ["@available", "#available", "#unavailable", "@backDeployed"]

        func matches(_ word: String, at position: Int) -> Bool {
            let scalars = Array(word.unicodeScalars)
            guard position + scalars.count <= chars.count else { return false }
            for (offset, scalar) in scalars.enumerated() where chars[position + offset] != scalar { return false }
            return true
        }
        func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || CharacterSet.alphanumerics.contains(scalar)
        }

        while index < chars.count {
            let scalar = chars[index]
            // Comments.
            if scalar == "/" && index + 1 < chars.count && chars[index + 1] == "/" {
                while index < chars.count && chars[index] != "\n" {
                    pending.append(chars[index])
                    index += 1
                }
                continue
            }
            if scalar == "/" && index + 1 < chars.count && chars[index + 1] == "*" {
                var depth = 0
                repeat {
                    if matches("/*", at: index) {
                        depth += 1
                        pending.append(contentsOf: "/*".unicodeScalars)
                        index += 2
                    } else if matches("*/", at: index) {
                        depth -= 1
                        pending.append(contentsOf: "*/".unicodeScalars)
                        index += 2
                    } else {
                        pending.append(chars[index])
                        index += 1
                    }
                } while depth > 0 && index < chars.count
                continue
            }
            // String literals (raw strings and multi-line ones included).
            if scalar == "\"" || (scalar == "#" && skipHashes(chars, from: index).map { $0 < chars.count && chars[$0] == "\"" } == true) {
                let end = Self.endOfString(chars, from: index)
                pending.append(contentsOf: chars[index..<end])
                index = end
                continue
            }
            // Availability constructs.
            if scalar == "@" || scalar == "#", index == 0 || !isIdentifier(chars[index - 1]),
                let kind = kinds.first(where: { matches($0, at: index) })
            {
                var open = index + kind.unicodeScalars.count
                if open < chars.count && isIdentifier(chars[open]) {
                    pending.append(scalar)
                    index += 1
                    continue
                }
                while open < chars.count && (chars[open] == " " || chars[open] == "\t") { open += 1 }
                if open < chars.count && chars[open] == "(", let close = Self.matchingParenthesis(chars, open: open) {
                    pieces.append(.text(String(pending)))
                    pending = String.UnicodeScalarView()
                    let original = String(String.UnicodeScalarView(chars[index...close]))
                    let inner = Array(chars[(open + 1)..<close])
                    let arguments = Self.splitArguments(inner)
                    pieces.append(.attribute(kind: kind, arguments: arguments, original: original))
                    record(kind: kind, arguments: arguments)
                    index = close + 1
                    continue
                }
            }
            pending.append(scalar)
            index += 1
        }
        pieces.append(.text(String(pending)))
        return Scanned(pieces: pieces)
    }

    private func skipHashes(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index < chars.count && chars[index] == "#" { index += 1 }
        return index
    }

    /// The index after the string literal starting at `start` (`"`, `"""`, `#"…"#`).
    private static func endOfString(_ chars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        var hashes = 0
        while index < chars.count && chars[index] == "#" {
            hashes += 1
            index += 1
        }
        var quotes = 0
        while index < chars.count && chars[index] == "\"" && quotes < 3 {
            quotes += 1
            index += 1
        }
        if quotes == 2 { return index }  // ""
        let delimiter = quotes == 3 ? 3 : 1
        while index < chars.count {
            if chars[index] == "\\" && hashes == 0 {
                index += 2
                continue
            }
            if chars[index] == "\"" {
                var run = 0
                while index + run < chars.count && chars[index + run] == "\"" && run < delimiter { run += 1 }
                if run == delimiter {
                    var closing = index + run
                    var count = 0
                    while closing < chars.count && chars[closing] == "#" && count < hashes {
                        count += 1
                        closing += 1
                    }
                    if count == hashes { return closing }
                }
                index += 1
                continue
            }
            if delimiter == 1 && chars[index] == "\n" { return index }
            index += 1
        }
        return index
    }

    private static func matchingParenthesis(_ chars: [Unicode.Scalar], open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < chars.count {
            let scalar = chars[index]
            if scalar == "\"" {
                index = endOfString(chars, from: index)
                continue
            }
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    private static func splitArguments(_ chars: [Unicode.Scalar]) -> [String] {
        var arguments: [String] = []
        var current = String.UnicodeScalarView()
        var depth = 0
        var index = 0
        while index < chars.count {
            let scalar = chars[index]
            if scalar == "\"" {
                let end = endOfString(chars, from: index)
                current.append(contentsOf: chars[index..<end])
                index = end
                continue
            }
            if scalar == "(" { depth += 1 }
            if scalar == ")" { depth -= 1 }
            if scalar == "," && depth == 0 {
                arguments.append(String(current).trimmingCharacters(in: .whitespacesAndNewlines))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
            index += 1
        }
        let last = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
        if !last.isEmpty { arguments.append(last) }
        return arguments
    }

    // MARK: Reading the attributes

    static func version(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".").map { Int($0) }
        guard !parts.isEmpty, !parts.contains(nil) else { return nil }
        var version = parts.compactMap { $0 }
        while version.count < 2 { version.append(0) }
        return version
    }

    static func compare(_ lhs: [Int], _ rhs: [Int]) -> Int {
        for position in 0..<max(lhs.count, rhs.count) {
            let a = position < lhs.count ? lhs[position] : 0
            let b = position < rhs.count ? rhs[position] : 0
            if a != b { return a < b ? -1 : 1 }
        }
        return 0
    }

    /// The target platform's version in a shorthand list (`iOS 16.0, macOS 13.0, *`): nil when
    /// the list doesn't name it.
    private func shorthandVersion(_ arguments: [String]) -> (named: Bool, version: [Int]?) {
        for argument in arguments {
            let words = argument.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            guard words.count == 2, Self.platformNames[String(words[0])] == target.platform else { continue }
            return (true, Self.version(String(words[1])))
        }
        return (false, nil)
    }

    private func isShorthand(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        return first == "*" && arguments.count == 1 || first.contains(" ") && !first.contains(":")
    }

    /// Long form `@available(iOS, introduced: 16.0, deprecated: 18.4, …)`: the labelled versions.
    private func longForm(_ arguments: [String]) -> [String: String] {
        var fields: [String: String] = [:]
        for argument in arguments.dropFirst() {
            if let colon = argument.firstIndex(of: ":") {
                fields[String(argument[..<colon]).trimmingCharacters(in: .whitespaces)] =
                    String(argument[argument.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            } else {
                fields[argument] = ""
            }
        }
        return fields
    }

    private mutating func note(_ version: [Int]?) {
        if let version, Self.compare(version, target.version) > 0 { releases.insert(version) }
    }

    private mutating func record(kind: String, arguments: [String]) {
        switch kind {
        case "@backDeployed":
            return
        case "#available", "#unavailable":
            note(shorthandVersion(arguments).version)
        default:
            if isShorthand(arguments) {
                note(shorthandVersion(arguments).version)
            } else if let platform = arguments.first, Self.platformNames[platform] == target.platform {
                let fields = longForm(arguments)
                note(fields["introduced"].flatMap(Self.version))
            }
        }
    }

    // MARK: Writing

    func domain(_ version: [Int]) -> String {
        var parts = version
        while parts.count > 2 && parts.last == 0 { parts.removeLast() }
        return target.platform + parts.map(String.init).joined(separator: "_")
    }

    /// The domains a release needs: every release above the target up to it.
    func domains(upTo version: [Int]) -> [String] {
        releases.filter { Self.compare($0, version) <= 0 }.sorted { Self.compare($0, $1) < 0 }.map(domain)
    }

    /// The always-enabled domain that `@available(<target platform>, unavailable)` becomes.
    var unavailableDomain: String { "on_\(target.platform)" }

    /// The Clang module header that declares one dynamic domain per release, and the domain of
    /// the target platform itself.
    func domainHeader() -> String {
        var lines = ["#include <availability_domain.h>", "", "CLANG_ALWAYS_ENABLED_AVAILABILITY_DOMAIN(\(unavailableDomain));"]
        for release in releases.sorted(by: { Self.compare($0, $1) < 0 }) {
            let name = domain(release)
            lines.append("int \(name)_query(void);")
            lines.append("CLANG_DYNAMIC_AVAILABILITY_DOMAIN(\(name), \(name)_query);")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func render(_ scanned: Scanned) -> String {
        var output = ""
        for piece in scanned.pieces {
            switch piece {
            case .text(let text):
                output += text
            case .attribute(let kind, let arguments, let original):
                let replacement = rewrite(kind: kind, arguments: arguments, original: original)
                // Keep the line count: pad with the newlines the original spanned.
                let newlines = original.filter { $0 == "\n" }.count - replacement.filter { $0 == "\n" }.count
                output += replacement + String(repeating: "\n", count: max(0, newlines))
            }
        }
        return output
    }

    private func rewrite(kind: String, arguments: [String], original: String) -> String {
        switch kind {
        case "@backDeployed":
            return ""
        case "#available":
            guard let version = shorthandVersion(arguments).version, Self.compare(version, target.version) > 0 else { return "true" }
            return domains(upTo: version).map { "#available(\($0))" }.joined(separator: ", ")
        case "#unavailable":
            guard let version = shorthandVersion(arguments).version, Self.compare(version, target.version) > 0 else { return "false" }
            return "#unavailable(\(domain(version)))"
        default:
            if isShorthand(arguments) {
                guard let version = shorthandVersion(arguments).version, Self.compare(version, target.version) > 0 else { return "" }
                return domains(upTo: version).map { "@available(\($0))" }.joined(separator: " ")
            }
            guard let platform = arguments.first else { return original }
            if platform == "*" || platform == "swift" || platform == "_PackageDescription" { return original }
            guard Self.platformNames[platform] == target.platform else { return "" }
            let fields = longForm(arguments)
            var attributes: [String] = []
            // Unavailable on this platform: an always-enabled domain, so an unavailable context may
            // still use it, as on Apple platforms (`*` would be unavailable everywhere, even there).
            if fields["unavailable"] != nil { return "@available(\(unavailableDomain), unavailable)" }
            if let introduced = fields["introduced"].flatMap(Self.version), Self.compare(introduced, target.version) > 0 {
                attributes += domains(upTo: introduced).map { "@available(\($0))" }
            }
            let extras = ["message", "renamed"].compactMap { key in fields[key].map { "\(key): \($0)" } }
            if let obsoleted = fields["obsoleted"].flatMap(Self.version), Self.compare(obsoleted, target.version) <= 0 {
                attributes.append((["@available(\(unavailableDomain), unavailable"] + extras).joined(separator: ", ") + ")")
            } else if let deprecated = fields["deprecated"] {
                if deprecated.isEmpty || Self.version(deprecated).map({ Self.compare($0, target.version) <= 0 }) == true {
                    attributes.append((["@available(*, deprecated"] + extras).joined(separator: ", ") + ")")
                }
            }
            return attributes.joined(separator: " ")
        }
    }
}
