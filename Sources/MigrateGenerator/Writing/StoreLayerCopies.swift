import Foundation
import MigratePlan
import MigrateSupport

/// Copies of the StoreKit layer that an earlier `migrate generate` wrote into an app, found so that
/// `check` and `generate` can say when one comes from another `migrate` than this one: a fix to the
/// layer reaches an app only when its team generates again.
public enum StoreLayerCopies {
    /// Folders deeper than this below the searched one aren't looked into.
    public static let maximumDepth = 6
    /// Entries looked at before the search gives up, so a huge tree can't stall `check`.
    public static let maximumEntries = 20_000

    /// One copy: where it is (relative to the searched folder) and its layer version, or nil when it
    /// predates the library (the templates of migrate before the layer had a version).
    public struct Copy: Sendable, Hashable {
        public var path: String
        public var version: String?
    }

    /// Each copy under `folder` whose version isn't `StoreLayerSources.version`, sorted by path. A copy from
    /// a later `migrate` counts too, and so does one labelled with the layer's own numbering of earlier
    /// releases (3.0.0, before the package, the tool and the layer had one version).
    public static func outdated(under folder: String) -> [Copy] {
        find(under: folder).filter { copy in copy.version.map { !isSame($0, as: StoreLayerSources.version) } ?? true }
    }

    /// `Diagnostic` warnings for `outdated(under:)`, each naming the copy's `StoreFront.swift`.
    public static func diagnostics(under folder: String, displayPrefix: String) -> [Diagnostic] {
        outdated(under: folder).map { copy in
            let file = displayPrefix.isEmpty ? copy.path : (displayPrefix as NSString).appendingPathComponent(copy.path)
            return Diagnostic(
                .warning, code: .storeLayerOutdated,
                "the StoreKit layer generated here is \(copy.version.map { "version \($0)" } ?? "from before the library"), not this migrate's \(StoreLayerSources.version): this migrate's fixes don't reach the app until it is generated again",
                hint: "Run migrate generate again into the same folder (then migrate generate --prune for files it no longer writes).",
                file: file, place: "the generated StoreKit layer")
        }
    }

    /// Every generated `StoreFront.swift` under `folder`: the library's copies (`FreemiumStoreKit/`) and the
    /// older generated ones beside a `FreemiumStore.swift`.
    static func find(under folder: String) -> [Copy] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var copies: [Copy] = []
        var seen = 0
        while let path = enumerator.nextObject() as? String {
            seen += 1
            if seen > maximumEntries { break }
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "DerivedData" || name == "Pods" {
                enumerator.skipDescendants()
                continue
            }
            if path.split(separator: "/").count > maximumDepth {
                enumerator.skipDescendants()
                continue
            }
            guard name == "StoreFront.swift",
                let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(path)),
                let text = String(data: data, encoding: .utf8)
            else { continue }
            if let version = version(in: text) {
                copies.append(Copy(path: path, version: version))
            } else if GeneratedFileHeader.isUnedited(text) != nil, text.contains("protocol StoreFront") {
                copies.append(Copy(path: path, version: nil))
            }
        }
        return copies.sorted { $0.path < $1.path }
    }

    /// The version a layer's `StoreFront.swift` declares.
    public static func version(in source: String) -> String? {
        guard source.hasPrefix("// FreemiumStoreKit"), let start = source.range(of: "public static let version = \"") else { return nil }
        return String(source[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Compares versions numerically (`Version`); one that doesn't parse is never the same.
    static func isSame(_ version: String, as other: String) -> Bool {
        guard let current = try? Version(other), let copy = try? Version(version) else { return false }
        return copy == current
    }
}
