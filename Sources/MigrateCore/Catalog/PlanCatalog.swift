import Foundation
import MigratePlan

/// A legacy tier with everything derived: its grants, and which releases' buyers belong to it.
public struct ResolvedTier: Sendable, Hashable {
    public var id: String
    public var name: String
    /// Feature ids, in the plan's feature order.
    public var grants: [String]
    public var discounts: [Discount]
    /// True when the plan has no `tiers` and this one was derived from a paid offering.
    public var isDerived: Bool
    /// Indices into `plan.releases` of the releases whose buyers are in this tier.
    public var releases: [Int]
    public var origin: JSONPath?
}

/// Derived facts about a plan that every part of the engine needs: releases per platform in
/// date order, what each release included, what each product grants through bundles, and the tiers.
///
/// Immutable, and a class so that the resolvers share one copy instead of retaining every table.
public final class PlanCatalog: Sendable {
    public let plan: MigrationPlan
    /// Release indices per platform, sorted by release date (ties keep file order).
    public let tracks: [Platform: [Int]]
    /// What each release included, after inheriting omitted `includes`.
    public let includes: [[String]]
    /// Each product's features, including those of the products it contains (transitively).
    public let productFeatures: [String: Set<String>]
    /// Each product's contents, transitively, not including itself.
    public let productContents: [String: Set<String>]
    public let tiers: [ResolvedTier]
    /// The tier of each release's buyers, if any, as an index into `tiers`.
    public let tierOfRelease: [Int?]
    /// Cutoff analysis per platform track.
    public let cutoffs: [Platform: TrackCutoff]

    private let featureOrder: [String: Int]

    public init(_ plan: MigrationPlan) {
        self.plan = plan
        var featureOrder: [String: Int] = [:]
        for (offset, feature) in plan.features.enumerated() where featureOrder[feature.id] == nil {
            featureOrder[feature.id] = offset
        }
        self.featureOrder = featureOrder

        var tracks: [Platform: [Int]] = [:]
        for (index, release) in plan.releases.enumerated() { tracks[release.platform, default: []].append(index) }
        for platform in tracks.keys {
            tracks[platform]!.sort { lhs, rhs in
                let left = plan.releases[lhs].released, right = plan.releases[rhs].released
                return left != right ? left < right : lhs < rhs
            }
        }
        self.tracks = tracks

        var includes = [[String]](repeating: [], count: plan.releases.count)
        for indices in tracks.values {
            var lastPaid: [String] = []
            var lastFree: [String] = []
            for index in indices {
                let release = plan.releases[index]
                let inherited = release.model.isPaid ? lastPaid : lastFree
                let effective = release.includes ?? inherited
                includes[index] = effective
                if release.model.isPaid { lastPaid = effective } else { lastFree = effective }
            }
        }
        self.includes = includes

        var contents: [String: Set<String>] = [:]
        var features: [String: Set<String>] = [:]
        let byID = Dictionary(plan.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func closure(_ id: String, visiting: Set<String>) -> Set<String> {
            if let known = contents[id] { return known }
            guard let product = byID[id] else { return [] }
            var result = Set<String>()
            for child in product.contains where !visiting.contains(child) && byID[child] != nil {
                result.insert(child)
                result.formUnion(closure(child, visiting: visiting.union([child])))
            }
            result.remove(id)
            contents[id] = result
            return result
        }
        for product in plan.products {
            let inner = closure(product.id, visiting: [product.id])
            var granted = Set(product.grants)
            for child in inner { granted.formUnion(byID[child]?.grants ?? []) }
            features[product.id] = granted
        }
        self.productContents = contents
        self.productFeatures = features

        let (tiers, tierOfRelease) = Self.resolveTiers(plan, includes: includes, featureOrder: featureOrder)
        self.tiers = tiers
        self.tierOfRelease = tierOfRelease

        var cutoffs: [Platform: TrackCutoff] = [:]
        for (platform, indices) in tracks {
            cutoffs[platform] = TrackCutoff.analyze(
                platform: platform, releases: indices.map { (index: $0, release: plan.releases[$0]) },
                label: { tierOfRelease[$0].map { tiers[$0].id } ?? Self.untieredLabel })
        }
        self.cutoffs = cutoffs
    }

    /// The label of releases whose buyers are in no tier (new customers).
    static let untieredLabel = "(no tier)"

    /// Sorts feature ids by their order in the plan.
    public func ordered(_ ids: some Sequence<String>) -> [String] {
        ids.map { (featureOrder[$0] ?? Int.max, $0) }.sorted { $0 < $1 }.map(\.1)
    }

    /// The platform whose releases give an original version its meaning for a purchase made on
    /// `platform`: its own, or a platform whose binary it runs (an iPhone app on iPad).
    public func trackPlatform(for platform: Platform) -> Platform? {
        if tracks[platform] != nil { return platform }
        return platform.fallbackPlatforms.first { tracks[$0] != nil }
    }

    public func tier(withID id: String) -> ResolvedTier? { tiers.first { $0.id == id } }

    /// The tier of a release's buyers.
    public func tier(ofRelease index: Int) -> ResolvedTier? {
        tierOfRelease[index].map { tiers[$0] }
    }

    /// Features every customer gets now: what the newest release on the platform's track makes free.
    public func freeFeatures(on platform: Platform) -> [String] {
        guard let track = trackPlatform(for: platform), let newest = tracks[track]?.last else { return [] }
        return plan.releases[newest].model.isPaid ? [] : includes[newest]
    }

    /// The release that was on sale at `date` on a platform's track: the newest that went live
    /// at or before it, or the first one for a date before any release (a pre-order).
    public func release(liveAt date: Date, on platform: Platform) -> Int? {
        guard let indices = tracks[platform], !indices.isEmpty else { return nil }
        return indices.last { plan.releases[$0].released <= date } ?? indices.first
    }

    /// The moments when the business model changed from paid to free on a track.
    public func freeSwitches(on platform: Platform) -> [Int] {
        guard let indices = tracks[platform] else { return [] }
        var result: [Int] = []
        var previousPaid = false
        for index in indices {
            let paid = plan.releases[index].model.isPaid
            if previousPaid && !paid { result.append(index) }
            previousPaid = paid
        }
        return result
    }

    // MARK: - Tiers

    private static func resolveTiers(
        _ plan: MigrationPlan, includes: [[String]], featureOrder: [String: Int]
    ) -> ([ResolvedTier], [Int?]) {
        func ordered(_ ids: Set<String>) -> [String] {
            ids.sorted { (featureOrder[$0] ?? Int.max, $0) < (featureOrder[$1] ?? Int.max, $1) }
        }
        var tierOfRelease = [Int?](repeating: nil, count: plan.releases.count)
        var tiers: [ResolvedTier] = []
        let byDate = plan.releases.indices.sorted {
            (plan.releases[$0].released, $0) < (plan.releases[$1].released, $1)
        }

        if plan.tiers.isEmpty {
            // One tier per distinct paid offering: buyers keep exactly what their release included.
            var groupOfKey: [[String]: Int] = [:]
            for index in byDate where plan.releases[index].model.isPaid {
                let key = ordered(Set(includes[index]))
                if let group = groupOfKey[key] {
                    tiers[group].releases.append(index)
                } else {
                    groupOfKey[key] = tiers.count
                    tiers.append(ResolvedTier(id: "", name: "", grants: key, discounts: [], isDerived: true, releases: [index], origin: nil))
                }
            }
            var usedIDs = Set<String>()
            for position in tiers.indices {
                let members = tiers[position].releases
                let first = plan.releases[members.first!]
                var id = "paid-\(first.version.text)"
                if usedIDs.contains(id) { id += "-\(first.platform.rawValue)" }
                var suffix = 2
                while usedIDs.contains(id) {
                    id = "paid-\(first.version.text)-\(suffix)"
                    suffix += 1
                }
                usedIDs.insert(id)
                tiers[position].id = id
                let versions = members.map { plan.releases[$0].version }
                let low = versions.min()!, high = versions.max()!
                tiers[position].name = low == high ? "Paid buyers of \(low)" : "Paid buyers of \(low)–\(high)"
                for member in members { tierOfRelease[member] = position }
            }
            return (tiers, tierOfRelease)
        }

        for tier in plan.tiers {
            var members: [Int] = []
            for index in byDate {
                let release = plan.releases[index]
                if let from = tier.from, release.released < from { continue }
                if let until = tier.until, release.released >= until { continue }
                if let platforms = tier.platforms, !platforms.contains(release.platform) { continue }
                members.append(index)
            }
            let grants = tier.grants.map { ordered(Set($0)) }
                ?? ordered(Set(members.filter { plan.releases[$0].model.isPaid }.flatMap { includes[$0] }))
            let position = tiers.count
            tiers.append(
                ResolvedTier(
                    id: tier.id, name: tier.name, grants: grants, discounts: tier.discounts, isDerived: false, releases: [],
                    origin: tier.origin))
            for member in members where tierOfRelease[member] == nil {
                tierOfRelease[member] = position
                tiers[position].releases.append(member)
            }
        }
        return (tiers, tierOfRelease)
    }
}
