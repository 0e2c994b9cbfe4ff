import Foundation
import MigratePlan
import MigrateSupport

/// Reads App Store Connect API responses (JSON:API documents) into releases.
///
/// Understands `appStoreVersions` (the versions that went live), `builds` joined to their
/// `preReleaseVersion` or `appStoreVersion` through `relationships` and `included`, and
/// `buildUploads`. Several pages can come as several files, or as one file holding an array of
/// pages; `links.next` is followed to say when a page is missing. The API has no release-date
/// attribute, so each release says which date it took.
public enum AppStoreConnectImporter {
    /// States of a version that reached customers, from `appVersionState` and the older `appStoreState`.
    public static let liveStates: Set<String> = [
        "READY_FOR_SALE", "READY_FOR_DISTRIBUTION", "REPLACED_WITH_NEW_VERSION", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE",
        "PREORDER_READY_FOR_SALE",
    ]

    /// One file's bytes and the name messages use.
    public struct Page: Sendable {
        public var file: String
        public var bytes: [UInt8]

        public init(file: String, bytes: [UInt8]) {
            self.file = file
            self.bytes = bytes
        }
    }

    public static func read(_ bytes: [UInt8], file: String) throws(ImportError) -> ImportResult {
        try read([Page(file: file, bytes: bytes)])
    }

    /// Reads every page together, so relationships and `included` resolve across pages.
    public static func read(_ pages: [Page]) throws(ImportError) -> ImportResult {
        var collector = Collector()
        for page in pages {
            let root = try JSONSource.parse(page.bytes, file: page.file, expecting: "the App Store Connect response")
            if let documents = root.arrayValue {
                for (index, document) in documents.enumerated() {
                    try collector.add(document: document, file: page.file, path: .root / index)
                }
            } else {
                try collector.add(document: root, file: page.file, path: .root)
            }
        }
        return collector.finish()
    }

    struct Resource {
        var type: String
        var id: String
        var node: JSONNode
        var file: String
        var path: JSONPath
        var attributes: JSONNode? { node["attributes"] }

        func attribute(_ key: String) -> String? { attributes?[key]?.scalarText }

        /// The `{type, id}` a to-one relationship points at, when the response carries linkage.
        func related(_ name: String) -> ResourceKey? {
            guard let data = node["relationships"]?[name]?["data"], let type = data["type"]?.stringValue,
                let id = data["id"]?.scalarText
            else { return nil }
            return ResourceKey(type: type, id: id)
        }
    }

    struct ResourceKey: Hashable {
        var type: String
        var id: String
    }

    struct Collector {
        var resources: [ResourceKey: Resource] = [:]
        /// Primary data in reading order, for stable output.
        var primary: [ResourceKey] = []
        var selfLinks = Set<String>()
        var nextLinks: [(link: String, file: String, node: JSONNode, path: JSONPath)] = []
        var totals: [(type: String, total: Int, file: String, node: JSONNode, path: JSONPath)] = []
        var issues: [Diagnostic] = []

        mutating func add(document: JSONNode, file: String, path: JSONPath) throws(ImportError) {
            guard document.objectValue != nil else {
                throw ImportError(
                    .badData, file: file, location: document.location, place: path.description,
                    "expected an App Store Connect response object, found \(document.value.kindName)")
            }
            if let errors = document["errors"]?.arrayValue, document["data"] == nil {
                let detail = errors.first.flatMap { $0["detail"]?.stringValue ?? $0["title"]?.stringValue } ?? "an error"
                throw ImportError(
                    .badData, file: file, location: document.location, place: (path / "errors").description,
                    "the response is an error, not data: \(detail)", hint: "Save a successful response.")
            }
            guard let data = document["data"] else {
                throw ImportError(
                    .badData, file: file, location: document.location, place: path.description,
                    "no 'data' member; this is not an App Store Connect API response",
                    hint: "Save the body of a GET /v1/builds, /v1/apps/{id}/appStoreVersions or /v1/buildUploads response.")
            }
            let items = data.arrayValue ?? [data]
            var firstType: String?
            for (index, item) in items.enumerated() {
                let itemPath = data.arrayValue == nil ? path / "data" : path / "data" / index
                if let key = store(item, file: file, path: itemPath) {
                    primary.append(key)
                    firstType = firstType ?? key.type
                }
            }
            for (index, item) in (document["included"]?.arrayValue ?? []).enumerated() {
                _ = store(item, file: file, path: path / "included" / index)
            }
            if let link = document["links"]?["self"]?.stringValue { selfLinks.insert(link) }
            if let next = document["links"]?["next"], let link = next.stringValue {
                nextLinks.append((link, file, next, path / "links" / "next"))
            }
            if let total = document["meta"]?["paging"]?["total"], let count = total.scalarText.flatMap({ Int($0) }), let firstType {
                totals.append((firstType, count, file, total, path / "meta" / "paging" / "total"))
            }
        }

        mutating func store(_ node: JSONNode, file: String, path: JSONPath) -> ResourceKey? {
            guard let type = node["type"]?.stringValue, let id = node["id"]?.scalarText else {
                issues.append(
                    Diagnostic(
                        .warning, code: .entrySkipped, "a resource without 'type' and 'id'; skipped", at: path, location: node.location, file: file)
                )
                return nil
            }
            let key = ResourceKey(type: type, id: id)
            // The same resource on two pages (or as data and as included) is one resource.
            if resources[key] == nil || resources[key]?.attributes == nil {
                resources[key] = Resource(type: type, id: id, node: node, file: file, path: path)
            }
            return key
        }

        mutating func warn(_ code: DiagnosticCode, _ resource: Resource, _ key: String?, _ message: String, hint: String? = nil) {
            let node = key.flatMap { resource.attributes?[$0] } ?? resource.node
            let path = key.map { resource.path / "attributes" / $0 } ?? resource.path
            issues.append(Diagnostic(.warning, code: code, message, at: path, location: node.location, hint: hint, file: resource.file))
        }

        mutating func date(_ resource: Resource, _ key: String) -> Date? {
            guard let text = resource.attribute(key) else { return nil }
            guard let date = Timestamp.parse(text) else {
                warn(.invalidDate, resource, key, "'\(text)' is not an ISO 8601 date-time")
                return nil
            }
            return date
        }

        mutating func version(_ resource: Resource, _ key: String, what: String) -> Version? {
            guard let text = resource.attribute(key) else { return nil }
            do {
                return try Version(text)
            } catch {
                warn(.invalidVersion, resource, key, "\(what): \(error.description); skipped")
                return nil
            }
        }

        static func platform(_ text: String?) -> Platform? {
            guard let text else { return nil }
            return Platform(named: text.replacingOccurrences(of: "_", with: ""))
        }

        mutating func finish() -> ImportResult {
            var result = ImportResult(source: "asc")
            var releases: [ImportedRelease] = []
            var usedBuilds = Set<ResourceKey>()
            var notLive = 0
            let keys = primary.filter { resources[$0] != nil }
            var uniqueKeys: [ResourceKey] = []
            var seenKeys = Set<ResourceKey>()
            for key in keys where seenKeys.insert(key).inserted { uniqueKeys.append(key) }
            let versionKeys = uniqueKeys.filter { $0.type == "appStoreVersions" }

            for key in versionKeys {
                let resource = resources[key]!
                let state = resource.attribute("appVersionState") ?? resource.attribute("appStoreState")
                let label = resource.attribute("versionString") ?? key.id
                guard let state, AppStoreConnectImporter.liveStates.contains(state) else {
                    notLive += 1
                    continue
                }
                guard let version = version(resource, "versionString", what: "version \(label)") else { continue }
                guard let platform = Self.platform(resource.attribute("platform")) else {
                    warn(
                        .unknownPlatform, resource, "platform",
                        "version \(label): unknown platform '\(resource.attribute("platform") ?? "none")'; skipped")
                    continue
                }
                var build: Version?
                var buildDate: Date?
                if let buildKey = resource.related("build"), let buildResource = resources[buildKey] {
                    usedBuilds.insert(buildKey)
                    build = self.version(buildResource, "version", what: "build of \(label)")
                    buildDate = date(buildResource, "uploadedDate")
                } else if platform != .macOS {
                    warn(
                        .buildMissing, resource, nil, "version \(label): its build is not in the response, so the build number is unknown",
                        hint: "Request it with include=build, or add the build number to the plan by hand.")
                }
                let (date, source): (Date?, String)
                if let earliest = self.date(resource, "earliestReleaseDate") {
                    (date, source) = (earliest, "earliestReleaseDate")
                } else if let created = self.date(resource, "createdDate") {
                    (date, source) = (created, "createdDate")
                } else {
                    (date, source) = (buildDate, "build uploadedDate")
                }
                guard let date else {
                    warn(
                        .entrySkipped, resource, nil,
                        "version \(label) has no date (earliestReleaseDate, createdDate or its build's uploadedDate); skipped")
                    continue
                }
                releases.append(
                    ImportedRelease(
                        platform: platform, version: version, build: build, date: date, dateSource: source, provenance: .ascCreated,
                        origin: "\(resource.file) \(resource.path)"))
            }

            // Builds and build uploads are every upload, most of which never went live: they are
            // releases only when the response has no App Store versions to say which did.
            let buildKeys = uniqueKeys.filter { ($0.type == "builds" || $0.type == "buildUploads") && !usedBuilds.contains($0) }
            if !versionKeys.isEmpty {
                if !buildKeys.isEmpty {
                    result.ignored.append("\(buildKeys.count) builds not attached to an App Store version that went live")
                }
            } else {
                for key in buildKeys {
                    if let release = buildRelease(resources[key]!) { releases.append(release) }
                }
                if !releases.isEmpty {
                    result.ignored.append("note: every uploaded build was imported as a release; remove those that never went live")
                }
            }
            if notLive > 0 { result.ignored.append("\(notLive) App Store version\(notLive == 1 ? "" : "s") that never went live") }

            for next in nextLinks where !selfLinks.contains(next.link) {
                issues.append(
                    Diagnostic(
                        .warning, code: .responseIncomplete, "the response continues on another page that was not given; releases on it are missing",
                        at: next.path, location: next.node.location,
                        hint: "Fetch \(next.link) and pass that file too (or a file holding every page as a JSON array).", file: next.file))
            }
            for total in totals {
                let count = uniqueKeys.filter { $0.type == total.type }.count
                if count < total.total && nextLinks.allSatisfy({ selfLinks.contains($0.link) }) {
                    issues.append(
                        Diagnostic(
                            .warning, code: .responseIncomplete, "meta.paging.total says \(total.total) \(total.type) but the pages hold \(count)",
                            at: total.path, location: total.node.location, file: total.file))
                }
            }
            for app in resources.values.filter({ $0.type == "apps" }).sorted(by: { $0.id < $1.id }) {
                result.app.fill(from: AppHints(name: app.attribute("name"), bundleID: app.attribute("bundleId")))
            }
            // One release per platform, version and build, the first source winning.
            var seen = Set<String>()
            result.releases = releases.filter { seen.insert("\($0.platform) \($0.version.canonical) \($0.build?.canonical ?? "")").inserted }
            result.app.platforms = Array(Set(result.releases.map(\.platform))).sorted()
            result.issues = issues
            return result
        }

        mutating func buildRelease(_ resource: Resource) -> ImportedRelease? {
            let buildText = resource.type == "builds" ? resource.attribute("version") : resource.attribute("cfBundleVersion")
            let label = "build \(buildText ?? resource.id)"
            var marketing: Version?
            var platform: Platform?
            if resource.type == "buildUploads" {
                marketing = version(resource, "cfBundleShortVersionString", what: label)
                platform = Self.platform(resource.attribute("platform"))
            } else {
                for name in ["preReleaseVersion", "appStoreVersion"] {
                    guard let key = resource.related(name), let related = resources[key] else { continue }
                    marketing = version(related, related.type == "appStoreVersions" ? "versionString" : "version", what: label)
                    platform = Self.platform(related.attribute("platform"))
                    break
                }
                if marketing == nil {
                    warn(
                        .entrySkipped, resource, nil, "\(label): its marketing version is not in the response; skipped",
                        hint: "Request builds with include=preReleaseVersion so each build names its version.")
                    return nil
                }
            }
            guard let marketing else { return nil }
            let build = version(resource, resource.type == "builds" ? "version" : "cfBundleVersion", what: label)
            guard let date = date(resource, "uploadedDate") ?? date(resource, "createdDate") else {
                warn(.entrySkipped, resource, nil, "\(label) has no uploadedDate; skipped")
                return nil
            }
            return ImportedRelease(
                platform: platform ?? .iOS, version: marketing, build: build, date: date, dateSource: "build uploadedDate", provenance: .ascCreated,
                origin: "\(resource.file) \(resource.path)")
        }
    }
}
