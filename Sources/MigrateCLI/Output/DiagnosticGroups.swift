import Foundation
import MigratePlan
import MigrateSupport

/// Repeated diagnostics gathered under their first: `check` on a thousand releases that all lack one
/// thing says it once, in full, then "…and 1,035 more releases with the same error" and where.
///
/// Two diagnostics are alike when they have the same severity and code, sit at the same place in the
/// plan but for array indexes (`releases[0].includes`, `releases[1].includes`), and say the same
/// thing but for the numbers in it (versions, builds, dates). Text and GitHub output group; JSON
/// lists every diagnostic.
struct DiagnosticGroup {
    var first: Diagnostic
    /// The others like it, in display order.
    var others: [Diagnostic]

    /// Fewer alike than this are printed each in full: two lines of "and 1 more" save nothing.
    static let smallest = 3
    /// Runs of indexes named in a group's summary before "…".
    static let runsNamed = 4

    /// Groups diagnostics (already in display order), in the order of each group's first.
    static func grouping(_ diagnostics: [Diagnostic]) -> [DiagnosticGroup] {
        // Members by shape, as positions in the display order.
        var members: [[Int]] = []
        var byShape: [String: Int] = [:]
        for (position, diagnostic) in diagnostics.enumerated() {
            let key = shape(of: diagnostic)
            if let group = byShape[key] {
                members[group].append(position)
            } else {
                byShape[key] = members.count
                members.append([position])
            }
        }
        // Each group at its first member's place; small groups are printed as they came.
        var placed: [(position: Int, group: DiagnosticGroup)] = []
        for positions in members {
            if positions.count >= smallest {
                placed.append(
                    (positions[0], DiagnosticGroup(first: diagnostics[positions[0]], others: positions.dropFirst().map { diagnostics[$0] })))
            } else {
                placed += positions.map { ($0, DiagnosticGroup(first: diagnostics[$0], others: [])) }
            }
        }
        return placed.sorted { $0.position < $1.position }.map(\.group)
    }

    /// What makes diagnostics alike (see the type's documentation).
    static func shape(of diagnostic: Diagnostic) -> String {
        let place =
            diagnostic.path.map { path in
                path.components.map { component in
                    switch component {
                    case .key(let key): key
                    case .index: "[*]"
                    }
                }.joined(separator: "/")
            } ?? diagnostic.place ?? "-"
        return [
            diagnostic.file ?? "", diagnostic.severity.rawValue, diagnostic.code.rawValue, place, masked(diagnostic.message),
            masked(diagnostic.hint ?? ""),
        ]
        .joined(separator: "\u{1F}")
    }

    // Timestamps and dates first (their digits touch letters: 2015-01-03T04:26:40Z), then numbers
    // that stand alone (1.0, (2), 1036) but not digits inside a word such as an id (theme1).
    private static let timestamp = try! NSRegularExpression(pattern: #"\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?"#)
    private static let number = try! NSRegularExpression(pattern: #"(?<![A-Za-z_\-])\d+(\.\d+)*(?![A-Za-z_])"#)

    static func masked(_ text: String) -> String {
        var result = timestamp.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "<date>")
        result = number.stringByReplacingMatches(in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "#")
        return result
    }

    /// `…and 1,035 more releases with the same error: releases[1…1035], lines 8–1042`; nil for a single diagnostic.
    var summary: String? {
        guard !others.isEmpty else { return nil }
        let all = [first] + others
        let paths = all.compactMap(\.path)
        // The first array index that differs between them says what repeats (`releases`) and which.
        var noun: String?
        var places = ""
        if paths.count == all.count, let varying = Self.varyingIndex(paths) {
            let container = paths[0].components[..<varying]
            if case .key(let key)? = container.last { noun = key }
            let indexes = others.compactMap { path -> Int? in
                guard let path = path.path, case .index(let index) = path.components[varying] else { return nil }
                return index
            }
            let prefix = JSONPath(Array(container)).description
            places = prefix + "[" + Self.runs(indexes) + "]"
        }
        let lines = others.compactMap { $0.location?.line }
        if let low = lines.min(), let high = lines.max() {
            let span = low == high ? "line \(low)" : "lines \(low)–\(high)"
            places += places.isEmpty ? span : ", " + span
        }
        let count = Limits.grouped(others.count)
        let what = noun.map { "\(count) more \($0)" } ?? "\(count) more"
        return "…and \(what) with the same \(first.severity.rawValue)" + (places.isEmpty ? "" : ": \(places)")
    }

    /// The position of the first index component whose value is not the same in every path (all
    /// paths have one shape), or nil.
    static func varyingIndex(_ paths: [JSONPath]) -> Int? {
        guard let first = paths.first else { return nil }
        for (position, component) in first.components.enumerated() {
            guard case .index = component else { continue }
            if paths.contains(where: { $0.components.count <= position || $0.components[position] != component }) { return position }
        }
        return nil
    }

    /// `1…40, 42, 50…60, …` from indexes, ascending, at most `runsNamed` runs.
    static func runs(_ indexes: [Int]) -> String {
        var runs: [(Int, Int)] = []
        for index in Set(indexes).sorted() {
            if let last = runs.last, last.1 + 1 == index { runs[runs.count - 1].1 = index } else { runs.append((index, index)) }
        }
        var parts = runs.prefix(runsNamed).map { $0.0 == $0.1 ? "\($0.0)" : "\($0.0)…\($0.1)" }
        if runs.count > runsNamed { parts.append("…") }
        return parts.joined(separator: ", ")
    }
}
