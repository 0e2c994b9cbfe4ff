import Foundation
import MigratePlan

/// How imported releases are sold: sources never say, so the user's flags or a stated default decide.
public enum ReleaseModelChoice: Sendable, Hashable {
    /// Paid at this price, or at the price of the nearest earlier paid release in the plan.
    case paid(Price?)
    case free
}

/// Options for merging an import into a plan.
public struct MergeOptions: Sendable, Hashable {
    /// Take the source's value where it disagrees with the plan. Without it the plan's value wins.
    public var overwrite: Bool
    /// How new releases are sold; nil means "paid, with a warning".
    public var model: ReleaseModelChoice?

    public init(overwrite: Bool = false, model: ReleaseModelChoice? = nil) {
        self.overwrite = overwrite
        self.model = model
    }
}

/// One change a merge made: the value it had, and the value it has now when one replaced another, kept apart so
/// a narrow terminal can put the new value under the old one without looking for the arrow in the text.
public struct MergeChange: Sendable, Hashable, CustomStringConvertible {
    /// `product com.example.pro: price: 3.99`; the whole change when nothing was replaced (`…: build 42 added`).
    public var before: String
    /// `4.99`: what replaced it, nil when nothing was replaced.
    public var after: String?

    public init(_ before: String, after: String? = nil) {
        self.before = before
        self.after = after
    }

    /// `product com.example.pro: price: 3.99 → 4.99`.
    public var description: String { after.map { "\(before) → \($0)" } ?? before }
}

/// What a merge did, in words the user reads; every list is in a stable order.
public struct MergeReport: Sendable, Hashable {
    public var added: [String] = []
    public var changed: [MergeChange] = []
    /// Values where the plan and the source disagree and the plan's value was kept.
    public var conflicts: [String] = []
    public var ignored: [String] = []
    /// Defaults chosen for what no source knows, such as a release's model.
    public var assumptions: [String] = []

    public init() {}

    public var isEmpty: Bool { added.isEmpty && changed.isEmpty }
}

/// Why a merge cannot go on without more from the user.
public enum MergeError: Error, Sendable, Hashable {
    /// New paid releases need a price and the plan has none to copy.
    case needsPrice(releases: [String])
}

/// Merges what an importer learned into a plan without dropping anything the user wrote.
///
/// Imported facts are matched to the plan's by identity (product id; platform, version and build).
/// New facts are added; where both have a value and they differ, the plan's value wins unless
/// `overwrite` is set, and the disagreement is reported either way. Fields no source knows
/// (grants, tiers, features, a release's includes) are never touched.
public enum PlanMerger {
    public static func merge(
        _ result: ImportResult, into plan: MigrationPlan, options: MergeOptions = MergeOptions()
    ) throws(MergeError) -> (plan: MigrationPlan, report: MergeReport) {
        var plan = plan
        var report = MergeReport()
        report.ignored = result.ignored
        mergeApp(result.app, into: &plan, options: options, report: &report)
        mergeProducts(result.products, into: &plan, options: options, report: &report)
        try mergeReleases(result.releases, into: &plan, options: options, report: &report)
        dateReleases(by: result.firstSales, in: &plan, options: options, report: &report)
        if let base = result.installBase { mergeInstallBase(base, into: &plan, options: options, report: &report) }
        return (plan, report)
    }

    static func conflict(_ what: String, plan: String, source: String, overwrite: Bool, report: inout MergeReport) {
        if overwrite {
            report.changed.append(MergeChange("\(what): \(plan)", after: source))
        } else {
            report.conflicts.append("\(what): the plan says \(plan), the source says \(source); kept the plan's (--overwrite takes the source's)")
        }
    }

    static func mergeApp(_ hints: AppHints, into plan: inout MigrationPlan, options: MergeOptions, report: inout MergeReport) {
        if let bundleID = hints.bundleID, bundleID != plan.app.bundleID {
            conflict("app.bundleID", plan: plan.app.bundleID, source: bundleID, overwrite: options.overwrite, report: &report)
            if options.overwrite { plan.app.bundleID = bundleID }
        }
        if let name = hints.name, name != plan.app.name {
            conflict("app.name", plan: "'\(plan.app.name)'", source: "'\(name)'", overwrite: options.overwrite, report: &report)
            if options.overwrite { plan.app.name = name }
        }
    }

    static func mergeProducts(_ products: [Product], into plan: inout MigrationPlan, options: MergeOptions, report: inout MergeReport) {
        for product in products {
            guard let index = plan.products.firstIndex(where: { $0.id == product.id }) else {
                // Xcode's placeholders, Apple's samples and other apps' products are never added: the app doesn't sell them.
                if let reason = ProductOwnership.of(product.id, bundleID: plan.app.bundleID, appName: plan.app.name).reason {
                    report.ignored.append("product \(product.id): \(reason); not added (write it into the plan if the app sells it)")
                    continue
                }
                plan.products.append(product)
                report.added.append("product \(product.id) (\(product.kind.rawValue), \(product.price))")
                continue
            }
            var existing = plan.products[index]
            let before = existing
            let conflictsBefore = report.conflicts.count
            func compare<T: Equatable>(_ field: String, _ keyPath: WritableKeyPath<Product, T>, _ show: (T) -> String) {
                guard existing[keyPath: keyPath] != product[keyPath: keyPath] else { return }
                conflict(
                    "product \(product.id): \(field)", plan: show(existing[keyPath: keyPath]), source: show(product[keyPath: keyPath]),
                    overwrite: options.overwrite, report: &report)
                if options.overwrite { existing[keyPath: keyPath] = product[keyPath: keyPath] }
            }
            compare("name", \.name) { "'\($0)'" }
            compare("type", \.kind) { $0.rawValue }
            compare("price", \.price) { $0.description }
            compare("familyShareable", \.familyShareable) { String($0) }
            // The introductory offer is compared on its own: one the plan lacks is added, never a conflict.
            var incoming = product
            if let offer = product.subscription?.introductoryOffer, existing.subscription != nil, existing.subscription?.introductoryOffer == nil {
                existing.subscription?.introductoryOffer = offer
                report.changed.append(MergeChange("product \(product.id): introductory offer \(offer.spoken)"))
            }
            if existing.subscription != nil, incoming.subscription != nil, incoming.subscription?.introductoryOffer == nil {
                incoming.subscription?.introductoryOffer = existing.subscription?.introductoryOffer
            }
            let offerBefore = existing.subscription?.introductoryOffer
            if existing.subscription?.introductoryOffer != incoming.subscription?.introductoryOffer, existing.subscription != nil,
                incoming.subscription != nil
            {
                conflict(
                    "product \(product.id): introductory offer", plan: offerBefore?.spoken ?? "none",
                    source: incoming.subscription?.introductoryOffer?.spoken ?? "none", overwrite: options.overwrite, report: &report)
                if options.overwrite { existing.subscription?.introductoryOffer = incoming.subscription?.introductoryOffer }
            }
            let withoutOffer = { (info: SubscriptionInfo?) in info.map { SubscriptionInfo(group: $0.group, level: $0.level, period: $0.period) } }
            if withoutOffer(existing.subscription) != withoutOffer(incoming.subscription) {
                conflict(
                    "product \(product.id): subscription", plan: existing.subscription.map { "\($0.group) level \($0.level) \($0.period)" } ?? "none",
                    source: incoming.subscription.map { "\($0.group) level \($0.level) \($0.period)" } ?? "none", overwrite: options.overwrite,
                    report: &report)
                if options.overwrite {
                    let offer = existing.subscription?.introductoryOffer
                    existing.subscription = incoming.subscription
                    if existing.subscription?.introductoryOffer == nil { existing.subscription?.introductoryOffer = offer }
                }
            }
            plan.products[index] = existing
            if existing == before && report.conflicts.count == conflictsBefore {
                report.ignored.append("product \(product.id): already in the plan, unchanged")
            }
        }
    }

    static func matches(_ release: Release, _ imported: ImportedRelease) -> Bool {
        guard release.platform == imported.platform, release.version == imported.version else { return false }
        guard let build = release.build, let other = imported.build else { return true }
        return build == other
    }

    static func mergeReleases(
        _ releases: [ImportedRelease], into plan: inout MigrationPlan, options: MergeOptions, report: inout MergeReport
    ) throws(MergeError) {
        var needingPrice: [String] = []
        var defaulted: [String] = []
        var copiedPrice: [String] = []
        // The plan's releases as the user wrote them, for choosing a model and price for new ones.
        let written = plan.releases
        for imported in releases.sorted(by: { ($0.date, $0.platform) < ($1.date, $1.platform) }) {
            if let index = plan.releases.firstIndex(where: { matches($0, imported) }) {
                var existing = plan.releases[index]
                let label = "release \(imported.platform) \(existing.displayName)"
                if existing.build == nil, let build = imported.build, existing.platform != .macOS {
                    report.changed.append(MergeChange("\(label): build \(build) added"))
                    existing.build = build
                }
                if existing.released != imported.date {
                    let shown = "\(Timestamp.format(imported.date)) (\(imported.dateSource))"
                    if let source = existing.releasedSource, imported.provenance.strength > source.strength {
                        // Better evidence replaces a weaker date without --overwrite: that is what it is for.
                        report.changed.append(
                            MergeChange(
                                "\(label): released \(Timestamp.format(existing.released)) (\(source.rawValue))", after: "\(shown), better evidence"))
                        existing.released = imported.date
                        existing.releasedSource = imported.provenance
                    } else if let source = existing.releasedSource, imported.provenance.strength < source.strength, !options.overwrite {
                        report.ignored.append("\(label): released \(shown) is weaker evidence than the plan's (\(source.rawValue)); kept the plan's")
                    } else {
                        conflict(
                            "\(label): released", plan: Timestamp.format(existing.released), source: shown, overwrite: options.overwrite,
                            report: &report)
                        if options.overwrite {
                            existing.released = imported.date
                            existing.releasedSource = imported.provenance
                        }
                    }
                } else if existing.releasedSource == nil || imported.provenance.strength > existing.releasedSource!.strength {
                    if existing.releasedSource != imported.provenance {
                        existing.releasedSource = imported.provenance
                        report.changed.append(MergeChange("\(label): releasedSource \(imported.provenance.rawValue) (\(imported.dateSource))"))
                    }
                } else if existing == plan.releases[index] {
                    report.ignored.append("\(label): already in the plan, unchanged")
                }
                plan.releases[index] = existing
                continue
            }
            if imported.build == nil && imported.platform.originalVersionMeaning == .buildNumber {
                // An iOS release without its build number would make the plan unreadable, and it is
                // the build that receipts carry: better left out and said.
                report.ignored.append(
                    "release \(imported.platform) \(imported.version): the source has no build number for it; add it by hand with its \"build\"")
                continue
            }
            let model: BusinessModel
            switch options.model {
            case .free:
                model = .free
            case .paid(let price?):
                model = .paid(price)
            case .paid(nil), nil:
                let earlier = written.filter { $0.platform == imported.platform && $0.released <= imported.date && $0.model.isPaid }
                let nearest = earlier.max { $0.released < $1.released } ?? written.filter { $0.model.isPaid }.min { $0.released < $1.released }
                if let nearest, case .paid(let price) = nearest.model {
                    model = .paid(price)
                    copiedPrice.append("\(imported.displayName) at \(price) from \(nearest.displayName)")
                } else {
                    needingPrice.append("\(imported.platform) \(imported.displayName)")
                    continue
                }
                if options.model == nil { defaulted.append("\(imported.platform) \(imported.displayName)") }
            }
            plan.releases.append(
                Release(
                    platform: imported.platform, version: imported.version, build: imported.build, released: imported.date,
                    releasedSource: imported.provenance, model: model))
            var line =
                "release \(imported.platform) \(imported.displayName), \(model.isPaid ? "paid" : "free"), released \(Timestamp.format(imported.date)) (\(imported.dateSource))"
            if case .paid(let price) = model { line = line.replacingOccurrences(of: ", paid,", with: ", paid \(price),") }
            report.added.append(line)
            if !plan.app.platforms.contains(imported.platform) {
                plan.app.platforms.append(imported.platform)
                plan.app.platforms.sort()
                report.added.append("platform \(imported.platform) in app.platforms")
            }
        }
        if !needingPrice.isEmpty { throw .needsPrice(releases: needingPrice) }
        if !defaulted.isEmpty {
            report.assumptions.append(
                "\(defaulted.count) new release\(defaulted.count == 1 ? " is" : "s are") marked paid (the source cannot say how they were sold); "
                    + "set \"model\": \"free\" from the first free release on, or import with --model free")
        }
        if !copiedPrice.isEmpty {
            report.assumptions.append("prices copied from the nearest earlier paid release: " + copiedPrice.joined(separator: "; "))
        }
        if releases.contains(where: { imported in !written.contains { matches($0, imported) } }) {
            let sources = Set(releases.map(\.provenance)).sorted { $0.strength > $1.strength }
            if sources.contains(where: { !$0.isEvidence }) {
                report.assumptions.append(
                    "release dates come from \(sources.map(\.origins).joined(separator: " and ")), not from when the App Store released each build (which no source records); "
                        + "confirm the first free release's go-live and set its \"releasedSource\" to \"appStore\"")
            }
        }
        sortByDate(&plan)
    }

    static func mergeInstallBase(_ base: InstallBase, into plan: inout MigrationPlan, options: MergeOptions, report: inout MergeReport) {
        var base = base
        // The plan only counts products it knows; the rest are reported, not silently kept or lost.
        let known = Set(plan.products.map(\.id))
        for count in base.products where !known.contains(count.product) {
            report.ignored.append(
                "installBase: \(count.units) units of '\(count.product)', which is not a product in the plan (import the .storekit file first)")
        }
        base.products.removeAll { !known.contains($0.product) }
        let summary = InstallBaseBuilder.summary(base)
        guard let existing = plan.installBase else {
            plan.installBase = base
            report.added.append("installBase: \(summary)")
            return
        }
        if existing == base {
            report.ignored.append("installBase: the same figures are already in the plan")
            return
        }
        // Reports for separate periods add up; overlapping ones would count sales twice.
        if let from = existing.from, let until = existing.until, let newFrom = base.from, let newUntil = base.until,
            newUntil < from || newFrom > until
        {
            plan.installBase = InstallBaseBuilder.combine(existing, base)
            report.changed.append(MergeChange("installBase: added \(summary)"))
            return
        }
        conflict(
            "installBase", plan: InstallBaseBuilder.summary(existing), source: summary + " (the periods overlap)", overwrite: options.overwrite,
            report: &report)
        if options.overwrite { plan.installBase = base }
    }
}

extension PlanMerger {
    /// Dates each version's first release by the first day a sales report shows it selling, where the plan's
    /// date is weaker evidence (a commit, a tag, an App Store Connect record). A date the user wrote or
    /// confirmed is kept, and a disagreement of more than a day is reported.
    static func dateReleases(by sales: [FirstSale], in plan: inout MigrationPlan, options: MergeOptions, report: inout MergeReport) {
        for sale in sales {
            let candidates = plan.releases.indices.filter {
                plan.releases[$0].platform == sale.platform && plan.releases[$0].version.canonical == sale.version.canonical
            }
            guard let index = candidates.min(by: { plan.releases[$0].released < plan.releases[$1].released }) else { continue }
            var release = plan.releases[index]
            let label = "release \(release.platform) \(release.displayName)"
            if sale.isReportStart {
                report.ignored.append(
                    "\(label): sold on the report's first day (\(sale.origin)), so it may have gone live earlier; not dated by sales")
                continue
            }
            let date = sale.liveBy
            let shown = "\(Timestamp.format(date)) (first sold \(Timestamp.formatDate(sale.day)), \(sale.origin))"
            guard release.released != date else {
                if release.releasedSource.map({ $0.strength < ReleaseDateSource.sales.strength }) ?? true {
                    release.releasedSource = .sales
                    report.changed.append(MergeChange("\(label): releasedSource sales (\(sale.origin))"))
                }
                plan.releases[index] = release
                continue
            }
            switch release.releasedSource {
            case let source? where source.strength < ReleaseDateSource.sales.strength:
                report.changed.append(MergeChange("\(label): released \(Timestamp.format(release.released)) (\(source.rawValue))", after: shown))
                release.released = date
                release.releasedSource = .sales
            case .appStore?, .sales?, nil:
                // Within a day is the same day read in another time zone; more is a real disagreement.
                guard abs(release.released.timeIntervalSince(date)) > Timestamp.dayEndsEverywhere || options.overwrite else { continue }
                conflict("\(label): released", plan: Timestamp.format(release.released), source: shown, overwrite: options.overwrite, report: &report)
                if options.overwrite {
                    release.released = date
                    release.releasedSource = .sales
                }
            default:
                continue
            }
            plan.releases[index] = release
        }
        sortByDate(&plan)
    }

    /// Date order reads best and is what the date rule compares; ties keep a stable order.
    static func sortByDate(_ plan: inout MigrationPlan) {
        plan.releases = plan.releases.enumerated().sorted { lhs, rhs in
            if lhs.element.released != rhs.element.released { return lhs.element.released < rhs.element.released }
            if lhs.element.platform != rhs.element.platform { return lhs.element.platform < rhs.element.platform }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
