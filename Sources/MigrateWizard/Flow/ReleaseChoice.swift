import Foundation
import MigrateImport
import MigratePlan
import MigrateSupport

/// Choosing a release from a list that may hold a thousand builds: the list shows a few, and any
/// release is reached by its number (`#N` always means the item), its version, its version and build,
/// or the start of its version.
extension Wizard {
    /// Releases a long list shows: the last ones, which is where the first free release (and the
    /// questions after it) usually are. The default item is shown too, wherever it is.
    public static let releasesShown = 10

    enum ListChoice {
        /// A number from the list, 1-based.
        case item(Int)
        /// A release, by its index in `answers.allReleases` (or `answers.releases`).
        case release(Int)
        case refused(String)
    }

    /// The numbers to show of a list whose first `releases` items are releases and whose later items
    /// (such as "not listed yet") are always shown; nil when the list is short enough to show whole.
    static func shownChoices(releases: Int, total: Int, defaultItem: Int?) -> [Int]? {
        guard releases > releasesShown + 1 else { return nil }
        var shown = Set((releases - releasesShown + 1)...total)
        if let defaultItem, (1...total).contains(defaultItem) { shown.insert(defaultItem) }
        return shown.sorted()
    }

    /// How to answer a long list, whose hidden releases are reached by typing.
    static func searchHint(_ versions: [(index: Int, release: ImportedRelease)]) -> String {
        guard let last = versions.last?.release else { return "" }
        let prefix = last.version.components.first.map { "\($0)." } ?? "1."
        return
            "a number from the list, a version (\(last.version.text)), a version and build (\(last.displayName)), the start of a version to search (\(prefix)), or #N for any item"
    }

    /// An answer to "a number from the list, or a version". `#N` is always the list item; a number
    /// that is also a listed version, or the start of one, is asked about, never guessed; a version
    /// that several builds share, or the start of several versions, lists them to choose from.
    func choose(_ input: String, choices: Int, versions: [(index: Int, release: ImportedRelease)]) -> ListChoice {
        if input.hasPrefix("#") {
            guard let number = Int(input.dropFirst()), (1...choices).contains(number) else {
                return .refused("choose #1 to #\(choices)")
            }
            return .item(number)
        }
        let number = Int(input)
        let item = number.flatMap { (1...choices).contains($0) ? $0 : nil }
        let matches = Self.matches(input, in: versions)
        if matches.isEmpty {
            if let item { return .item(item) }
            if let number { return .refused("choose a number from 1 to \(choices), or a listed version (\(number) is neither)") }
            // Typed with a build, it is compared with versions and builds; else with versions.
            let names = input.contains("(") ? versions.map(\.release.displayName) : Self.uniqueVersionTexts(versions)
            return .refused("'\(input)' is neither a number from the list nor a listed version." + Suggestions.didYouMean(input, in: names))
        }
        // A default is always the list item; the same release either way needs no question.
        if let item, answeringWithDefault || (matches.count == 1 && item <= versions.count && versions[item - 1].index == matches[0].index) {
            return .item(item)
        }
        if matches.count == 1 && item == nil { return .release(matches[0].index) }
        let typed = matches.map { Self.typeable($0.release, among: versions) }
        var listed = zip(matches, typed).prefix(Self.releasesShown).map { match, text in
            "'\(text)' (#\((versions.firstIndex { $0.index == match.index } ?? 0) + 1))"
        }.joined(separator: ", ")
        if matches.count > Self.releasesShown { listed += " and \(matches.count - Self.releasesShown) more" }
        // What the typed text is, besides a list number: one version (of one build or several), or the start of versions.
        let typedVersion = try? Version(input)
        let what: String
        if let typedVersion, matches.allSatisfy({ $0.release.version == typedVersion }) {
            what =
                matches.count == 1
                ? "version \(matches[0].release.displayName)" : "version \(matches[0].release.version.text), which \(matches.count) builds share"
        } else {
            what = matches.count == 1 ? "the start of version \(matches[0].release.displayName)" : "the start of \(matches.count) releases"
        }
        if let item {
            let shown = item <= versions.count ? versions[item - 1].release.displayName : "the last choice"
            if matches.count == 1 {
                return .refused(
                    "'\(input)' is both number \(item) in the list (\(shown)) and \(what); type '#\(item)' for the list item or '\(typed[0])' for the version"
                )
            }
            return .refused(
                "'\(input)' is both number \(item) in the list (\(shown)) and \(what): \(listed); type '#\(item)' for the list item, or one of those")
        }
        return .refused("'\(input)' matches \(matches.count) releases: \(listed); type one of those, or its #number")
    }

    /// The releases an answer names: by version and build (`2.0 (40)`, with or without the platform),
    /// by version (every build of it), or else by the start of the version (`2.` or `2.1`, by components).
    static func matches(_ input: String, in versions: [(index: Int, release: ImportedRelease)]) -> [(index: Int, release: ImportedRelease)] {
        let named = versions.filter { $0.release.displayName == input || "\($0.release.platform) \($0.release.displayName)" == input }
        if !named.isEmpty { return named }
        if let typed = try? Version(input) {
            let same = versions.filter { $0.release.version == typed }
            if !same.isEmpty { return same }
        }
        var text = input
        while text.hasSuffix(".") || text.hasSuffix("*") { text.removeLast() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { UInt64($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return [] }
        let prefix = parts.map { $0! }
        return versions.filter { $0.release.version.components.starts(with: prefix) }
    }

    /// What to type for one release: its version when no other listed build shares it, else version and build.
    static func typeable(_ release: ImportedRelease, among versions: [(index: Int, release: ImportedRelease)]) -> String {
        versions.filter { $0.release.version == release.version }.count == 1 ? release.version.text : release.displayName
    }

    static func uniqueVersionTexts(_ versions: [(index: Int, release: ImportedRelease)]) -> [String] {
        var seen = Set<String>()
        return versions.map(\.release.version.text).filter { seen.insert($0).inserted }
    }
}
