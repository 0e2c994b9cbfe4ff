import Foundation
import MigratePlan
import MigrateSupport

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
    /// What the buyers of each paid release had when the app went free, in the plan's feature order: what it
    /// included and what every later paid release on its track included, up to the next free release, since
    /// updates were free. What a tier keeps unless the plan says otherwise; empty for a free release.
    public let hadAtSwitch: [[String]]
    /// Each product's features, including those of the products it contains (transitively).
    public let productFeatures: [String: Set<String>]
    /// Each product's contents, transitively, not including itself.
    public let productContents: [String: Set<String>]
    public let tiers: [ResolvedTier]
    /// The tier of each release's buyers, if any, as an index into `tiers`.
    public let tierOfRelease: [Int?]
    /// Cutoff analysis per platform track.
    public let cutoffs: [Platform: TrackCutoff]
    /// The written tiers' windows per track (`windows(on:)`), worked out once: a customer's tier is asked
    /// for many times, and each would otherwise walk the track again.
    private let windowsByTrack: [Platform: [TierWindow]]

    private let featureOrder: [String: Int]
    /// Index into `plan.products` of each id (the first, if an id is repeated), so that looking a product
    /// up costs the same in a catalog of ten products or ten thousand.
    private let productIndex: [String: Int]
    /// Index into `tiers` of each tier id.
    private let tierIndex: [String: Int]
    /// Indices into `plan.products` of the products whose features (with their bundles' contents)
    /// include each feature, in the plan's order.
    private let productsGranting: [String: [Int]]

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
                let left = plan.releases[lhs].released
                let right = plan.releases[rhs].released
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
        var hadAtSwitch = [[String]](repeating: [], count: plan.releases.count)
        for indices in tracks.values {
            var later = Set<String>()
            for index in indices.reversed() {
                guard plan.releases[index].model.isPaid else {
                    later = []
                    continue
                }
                later.formUnion(includes[index])
                hadAtSwitch[index] = later.map { (featureOrder[$0] ?? Int.max, $0) }.sorted { $0 < $1 }.map(\.1)
            }
        }
        self.hadAtSwitch = hadAtSwitch

        var productIndex: [String: Int] = [:]
        for (offset, product) in plan.products.enumerated() where productIndex[product.id] == nil { productIndex[product.id] = offset }
        self.productIndex = productIndex
        let (contents, features) = Self.bundleClosures(plan, index: productIndex)
        self.productContents = contents
        self.productFeatures = features
        var granting: [String: [Int]] = [:]
        for (offset, product) in plan.products.enumerated() where productIndex[product.id] == offset {
            for feature in features[product.id] ?? [] { granting[feature, default: []].append(offset) }
        }
        self.productsGranting = granting

        var windowsByTrack: [Platform: [TierWindow]] = [:]
        for track in tracks.keys { windowsByTrack[track] = Self.windows(plan, tracks: tracks, on: track) }
        self.windowsByTrack = windowsByTrack
        let (tiers, tierOfRelease) = Self.resolveTiers(
            plan, tracks: tracks, hadAtSwitch: hadAtSwitch, featureOrder: featureOrder, windowsByTrack: windowsByTrack)
        self.tiers = tiers
        self.tierOfRelease = tierOfRelease
        var tierIndex: [String: Int] = [:]
        for (offset, tier) in tiers.enumerated() where tierIndex[tier.id] == nil { tierIndex[tier.id] = offset }
        self.tierIndex = tierIndex

        var cutoffs: [Platform: TrackCutoff] = [:]
        for (platform, indices) in tracks {
            cutoffs[platform] = TrackCutoff.analyze(
                platform: platform, releases: indices.map { (index: $0, release: plan.releases[$0]) },
                label: { tierOfRelease[$0].map { tiers[$0].id } ?? Self.untieredLabel })
        }
        self.cutoffs = cutoffs
    }

    /// Each product's contents (transitively, not itself) and features (its own and its contents'), found
    /// breadth-first from each product and never deeper than `Limits.bundleDepth` levels: a deeper plan
    /// is refused by `check` (`bundle-too-deep`), and the catalog of one stays bounded on the way there.
    /// Work is the size of the closures, not the square of the nesting depth.
    static func bundleClosures(_ plan: MigrationPlan, index: [String: Int]) -> (contents: [String: Set<String>], features: [String: Set<String>]) {
        var contents: [String: Set<String>] = [:]
        var features: [String: Set<String>] = [:]
        for (offset, product) in plan.products.enumerated() where index[product.id] == offset {
            var reached = Set<String>()
            var granted = Set(product.grants)
            var level = [offset]
            var depth = 0
            while !level.isEmpty && depth < Limits.bundleDepth {
                var next: [Int] = []
                for member in level {
                    for child in plan.products[member].contains where child != product.id {
                        guard let position = index[child], reached.insert(child).inserted else { continue }
                        granted.formUnion(plan.products[position].grants)
                        next.append(position)
                    }
                }
                level = next
                depth += 1
            }
            contents[product.id] = reached
            features[product.id] = granted
        }
        return (contents, features)
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

    public func tier(withID id: String) -> ResolvedTier? { tierIndex[id].map { tiers[$0] } }

    /// The plan's product with this id (the first, if the id is repeated), found through an index.
    public func product(withID id: String) -> Product? { productIndex[id].map { plan.products[$0] } }

    /// Where the product with this id (the first, if the id is repeated) is in `plan.products`.
    public func index(ofProduct id: String) -> Int? { productIndex[id] }

    /// The products whose features (their own, and their bundles' contents') include `feature`, in the plan's order.
    public func products(granting feature: String) -> [Product] {
        (productsGranting[feature] ?? []).map { plan.products[$0] }
    }

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

    /// The later paid release on the track of paid release `index` that first brought `feature` to its buyers as
    /// a free update (before the app went free), or nil when the release itself included it or no update did.
    public func freeUpdate(bringing feature: String, toBuyersOf index: Int) -> Int? {
        let release = plan.releases[index]
        guard release.model.isPaid, !includes[index].contains(feature), let track = tracks[release.platform],
            let position = track.firstIndex(of: index)
        else { return nil }
        for later in track[(position + 1)...] {
            guard plan.releases[later].model.isPaid else { return nil }
            if includes[later].contains(feature) { return later }
        }
        return nil
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

    /// A written tier's window on one platform's track: purchases at or after `from` and before
    /// `until`. A tier without `until` ends when the first free release at or after its `from` went
    /// live on that track, so it never takes in people who downloaded the app for free.
    public struct TierWindow: Sendable, Hashable {
        /// Index into `tiers` (and `plan.tiers`).
        public var tier: Int
        public var from: Date?
        public var until: Date?

        public func contains(_ date: Date) -> Bool {
            (from.map { date >= $0 } ?? true) && (until.map { date < $0 } ?? true)
        }
    }

    /// The windows of the plan's written tiers that apply on a track, in the plan's order; empty
    /// when the tiers are derived (those follow releases, not dates).
    public func windows(on track: Platform) -> [TierWindow] {
        windowsByTrack[track] ?? Self.windows(plan, tracks: tracks, on: track)
    }

    private static func windows(_ plan: MigrationPlan, tracks: [Platform: [Int]], on track: Platform) -> [TierWindow] {
        plan.tiers.enumerated().compactMap { position, tier in
            if let platforms = tier.platforms, !platforms.contains(track) { return nil }
            let until =
                tier.until
                ?? tracks[track]?.lazy.map { plan.releases[$0] }.first { release in
                    !release.model.isPaid && (tier.from.map { release.released >= $0 } ?? true)
                }?.released
            return TierWindow(tier: position, from: tier.from, until: until)
        }
    }

    /// Whether a written tier's window begins or ends while release `index` was on sale (after it
    /// went live, before the next release on its track did). Only then can buyers of one version be
    /// in different tiers, and the purchase date has to decide even where the version rule holds;
    /// a window that meets a go-live is left to the version, which App Store roll-outs don't blur.
    public func windowSplits(release index: Int) -> Bool {
        let platform = plan.releases[index].platform
        guard let track = tracks[platform], let position = track.firstIndex(of: index) else { return false }
        let start = plan.releases[index].released
        let end = position + 1 < track.count ? plan.releases[track[position + 1]].released : Date.distantFuture
        return windows(on: platform).contains { window in
            [window.from, window.until].contains { bound in bound.map { start < $0 && $0 < end } ?? false }
        }
    }

    private static func resolveTiers(
        _ plan: MigrationPlan, tracks: [Platform: [Int]], hadAtSwitch: [[String]], featureOrder: [String: Int],
        windowsByTrack: [Platform: [TierWindow]]
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
            // One tier per distinct paid offering: buyers keep what they had when the app went free, their
            // release's features and those its free updates brought.
            var groupOfKey: [[String]: Int] = [:]
            for index in byDate where plan.releases[index].model.isPaid {
                let key = ordered(Set(hadAtSwitch[index]))
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
                let low = versions.min()!
                let high = versions.max()!
                tiers[position].name = low == high ? "Paid buyers of \(low)" : "Paid buyers of \(low)–\(high)"
                for member in members { tierOfRelease[member] = position }
            }
            return (tiers, tierOfRelease)
        }

        for (position, tier) in plan.tiers.enumerated() {
            var members: [Int] = []
            for index in byDate {
                let release = plan.releases[index]
                guard let window = windowsByTrack[release.platform]?.first(where: { $0.tier == position }),
                    window.contains(release.released)
                else { continue }
                members.append(index)
            }
            let grants =
                tier.grants.map { ordered(Set($0)) }
                ?? ordered(Set(members.filter { plan.releases[$0].model.isPaid }.flatMap { hadAtSwitch[$0] }))
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
