import Foundation
import MigrateImport
import MigratePlan

/// What the wizard starts from: everything the importers could learn, and what went wrong reading.
public struct WizardFacts: Sendable, Hashable {
    public var app: AppHints
    /// Releases, oldest first, one per platform, version and build.
    public var releases: [ImportedRelease]
    public var products: [Product]
    public var installBase: InstallBase?
    /// The sales reports `installBase` was read from, as the user named them.
    public var salesFiles: [String] = []
    /// One line per source read ("3 products from Store.storekit"), and per source that could not be.
    public var notes: [String]
    /// Product id → the storefront its `.storekit` prices it in (`DEU`), when the file says.
    public var storefronts: [String: String] = [:]
    /// What most paid downloads cost in the sales reports, when they show paid downloads: the price's evidence.
    public var paidDownloadPrice: PaidDownloadPrice?
    /// Version changes the git history shows that no tag marks (left out of the releases), oldest first: an era's name
    /// covers them.
    public var untaggedVersions: [ImportedRelease] = []

    public init(
        app: AppHints = AppHints(), releases: [ImportedRelease] = [], products: [Product] = [], installBase: InstallBase? = nil, notes: [String] = [],
        salesFiles: [String] = []
    ) {
        self.salesFiles = salesFiles
        self.app = app
        self.releases = releases
        self.products = products
        self.installBase = installBase
        self.notes = notes
    }
}

/// Runs the importers over what discovery found (and the files the user pointed to).
public enum ProjectImport {
    /// A file the user named, already read.
    public struct File: Sendable {
        public var displayPath: String
        public var bytes: [UInt8]
        public init(displayPath: String, bytes: [UInt8]) {
            self.displayPath = displayPath
            self.bytes = bytes
        }
    }

    /// Reads every source; a source that fails becomes a note, the others still count.
    /// Fails only for files the user named explicitly (`asc`, `sales`), whose errors they must see.
    /// `taggedOnly` is `GitImporter.Options.taggedOnly`: true reads only tagged commits of the git history, false
    /// every version change, nil the tagged versions when the project tags any (as `import git` does).
    /// `bundleID` is the app's, when the user named it: its versions are read from the history, every other app's left out.
    public static func gather(
        root: String, scan: ProjectScan, asc: [File] = [], sales: [File] = [], taggedOnly: Bool? = nil, bundleID: String? = nil,
        environment: [String: String]
    ) throws(ImportError) -> WizardFacts {
        var combined = ImportResult(source: "init")
        var notes: [String] = []
        var untagged: [ImportedRelease] = []
        // Each .storekit's note, finished once the bundle id is known (it tells this app's products from others').
        var storeKitNotes: [(index: Int, file: String, products: [Product])] = []
        var storefronts: [String: String] = [:]
        for file in scan.storeKitFiles {
            guard let data = FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(file)) else { continue }
            do {
                let result = try StoreKitImporter.read(Array(data), file: file)
                storeKitNotes.append((notes.count, file, result.products))
                if let storefront = result.storefront {
                    for product in result.products where storefronts[product.id] == nil { storefronts[product.id] = storefront }
                }
                notes.append("")
                combined.append(result)
            } catch {
                notes.append("skipped \(error.description)")
            }
        }
        // An Info.plist that a project's app target uses was read with that project's build settings.
        var readThroughProject = Set<String>()
        // The app's own project names the app; a sample's, a demo's or a vendored framework's never does.
        let projects = scan.projectFiles.sorted {
            (XcodeProject.isAuxiliary($0) ? 1 : 0, $0.split(separator: "/").count, $0)
                < (XcodeProject.isAuxiliary($1) ? 1 : 0, $1.split(separator: "/").count, $1)
        }
        for file in projects + scan.infoPlists where !readThroughProject.contains(file) {
            do {
                let version = try XcodeImporter.read(path: (root as NSString).appendingPathComponent(file), displayPath: file)
                if file.hasSuffix(".pbxproj"), let plist = version.infoPlist {
                    let folder = ((file as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                    readThroughProject.insert(((folder.isEmpty ? plist : folder + "/" + plist) as NSString).standardizingPath)
                }
                guard version.bundleID != nil || version.name != nil else { continue }
                guard !XcodeProject.isAuxiliary(file) || (combined.app.bundleID == nil && projects.allSatisfy(XcodeProject.isAuxiliary)) else {
                    notes.append(
                        "left out \(version.name ?? "an app") (\(version.bundleID ?? "no bundle id")) from \(file): a sample, demo or framework's project"
                    )
                    continue
                }
                // Another app the repository builds (the user named this one) gives none of its identity.
                if let bundleID, let other = version.bundleID, other.lowercased() != bundleID.lowercased() { continue }
                combined.app.fill(from: AppHints(name: version.name, bundleID: version.bundleID, platforms: version.platforms))
                notes.append("app \(version.name ?? "?") (\(version.bundleID ?? "no bundle id")) from \(file)")
            } catch {
                notes.append("skipped \(error.description)")
            }
        }
        for note in storeKitNotes {
            notes[note.index] = storeKitNote(note.products, file: note.file, bundleID: combined.app.bundleID, appName: combined.app.name)
        }
        if let repository = scan.gitRepository, !(scan.projectFiles.isEmpty && scan.infoPlists.isEmpty) {
            do {
                let history = try GitImporter.read(
                    repository: (root as NSString).appendingPathComponent(repository), displayPath: repository,
                    options: GitImporter.Options(taggedOnly: taggedOnly, environment: environment, bundleID: bundleID ?? combined.app.bundleID))
                var note =
                    "\(perPlatform(history.result.releases)) from the \(history.fromTags ? "tags" : "git history") of \(repository)"
                if history.untaggedLeftOut > 0 {
                    // Never left out silently: how many, and the flag that takes them.
                    note +=
                        "; \(count(history.untaggedLeftOut, "untagged version change")) left out (TestFlight builds or work in progress;"
                        + (taggedOnly == true ? " leave out --tagged-only and" : "") + " give --all-versions to take them)"
                }
                notes.append(note)
                notes += history.leftOut
                combined.append(history.result)
                untagged = history.untagged.flatMap { change in
                    (change.platforms.isEmpty ? history.result.app.platforms : change.platforms).map { platform in
                        ImportedRelease(
                            platform: platform, version: change.version, build: change.build, date: change.date, dateSource: "untagged commit",
                            origin: "commit \(change.commit.prefix(10))")
                    }
                }
            } catch {
                notes.append("skipped the git history: \(error.description)")
            }
        }
        if !asc.isEmpty {
            let result = try AppStoreConnectImporter.read(asc.map { AppStoreConnectImporter.Page(file: $0.displayPath, bytes: $0.bytes) })
            let files = asc.map(\.displayPath).joined(separator: ", ")
            notes.append("\(perPlatform(result.releases, noun: "release")) from App Store Connect (\(files))")
            combined.append(result)
        }
        // The report covers every app of the account: only the project's app's rows count, when the project names it.
        let scope = combined.app.bundleID.map { bundleID in
            var scope = SalesScope(name: combined.app.name ?? "", bundleID: bundleID, products: Set(combined.products.map(\.id)))
            scope.acceptsSoleApp = true
            return scope
        }
        for file in sales {
            let result = try SalesReportImporter.read(file.bytes, file: file.displayPath, scope: scope)
            var note = "sales figures from \(file.displayPath)"
            if let tally = result.salesTally { note += " (\(tally.sentence(records: ("row", "rows"), decidedVerb: "counted")))" }
            if let setAside = result.salesScope?.note { note += "; \(setAside)" }
            notes.append(note)
            combined.append(result)
        }
        // The first day a version sold dates its first build better than a commit, a tag or a record.
        var releases = deduplicated(combined.releases)
        for sale in combined.firstSales where !sale.isReportStart {
            let matching = releases.indices.filter {
                releases[$0].platform == sale.platform && releases[$0].version.canonical == sale.version.canonical
            }
            guard let first = matching.min(by: { releases[$0].date < releases[$1].date }),
                releases[first].provenance.strength < ReleaseDateSource.sales.strength
            else { continue }
            releases[first].date = sale.liveBy
            releases[first].provenance = .sales
            releases[first].dateSource = "first sold \(Timestamp.formatDate(sale.day)), \(sale.origin)"
        }
        releases.sort { $0.date < $1.date }
        var facts = WizardFacts(
            app: combined.app, releases: releases, products: uniqueProducts(combined.products),
            installBase: combined.installBase, notes: notes, salesFiles: sales.map(\.displayPath))
        facts.storefronts = storefronts
        facts.paidDownloadPrice = combined.paidDownloadPrice
        facts.untaggedVersions = untagged.sorted { $0.date < $1.date }
        return facts
    }

    /// One release per platform, version and build: the earliest date wins, App Store Connect's over git's when equal.
    static func deduplicated(_ releases: [ImportedRelease]) -> [ImportedRelease] {
        var kept: [ImportedRelease] = []
        for release in releases.sorted(by: { ($0.date, $0.platform, $0.version) < ($1.date, $1.platform, $1.version) }) {
            if kept.contains(where: {
                $0.platform == release.platform && $0.version == release.version
                    && ($0.build == release.build || $0.build == nil || release.build == nil)
            }) {
                continue
            }
            kept.append(release)
        }
        return kept
    }

    static func uniqueProducts(_ products: [Product]) -> [Product] {
        var seen = Set<String>()
        return products.filter { seen.insert($0.id).inserted }
    }

    /// "7 products from Store.storekit; 2 with a free trial; not this app's by their ids: 2 Xcode placeholders".
    static func storeKitNote(_ products: [Product], file: String, bundleID: String?, appName: String?) -> String {
        var note = "\(count(products.count, "product")) from \(file)"
        let offers = products.compactMap { $0.subscription?.introductoryOffer }
        let trials = offers.filter { $0.paymentMode == .freeTrial }.count
        if trials > 0 { note += "; \(trials) with a free trial" }
        if offers.count > trials { note += "; \(offers.count - trials) with a paid introductory offer" }
        var doubtful: [String] = []
        let kinds = products.map { ProductOwnership.of($0.id, bundleID: bundleID, appName: appName) }
        let placeholders = kinds.filter { $0 == .placeholder }.count
        let samples = kinds.filter { $0 == .sample }.count
        let others = kinds.filter { if case .otherApp = $0 { true } else { false } }.count
        if placeholders > 0 { doubtful.append("\(placeholders) Xcode placeholder\(placeholders == 1 ? "" : "s")") }
        if samples > 0 { doubtful.append("\(samples) Apple sample\(samples == 1 ? "" : "s")") }
        if others > 0 { doubtful.append("\(count(others, "product")) of another app") }
        if !doubtful.isEmpty { note += "; not this app's by their ids (asked, left out by default): " + doubtful.joined(separator: ", ") }
        return note
    }

    /// Versions counted per platform, each named: "32 versions on iOS", "182 versions on each of iOS, macOS, visionOS",
    /// "12 versions on iOS and 3 on macOS"; never one version counted once per platform.
    public static func perPlatform(_ releases: [ImportedRelease], noun: String = "version") -> String {
        let platforms = Array(Set(releases.map(\.platform))).sorted()
        guard !platforms.isEmpty else { return count(0, noun) }
        let counts = platforms.map { platform in releases.filter { $0.platform == platform }.count }
        if Set(counts).count == 1 {
            let each = platforms.count == 1 ? "on \(platforms[0])" : "on each of " + platforms.map(\.rawValue).joined(separator: ", ")
            return "\(count(counts[0], noun)) \(each)"
        }
        return zip(counts, platforms).enumerated().map { index, pair in
            index == 0 ? "\(count(pair.0, noun)) on \(pair.1)" : "\(pair.0) on \(pair.1)"
        }.joined(separator: ", ")
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
