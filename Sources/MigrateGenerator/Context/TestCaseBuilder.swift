import Foundation
import MigrateCore
import MigrateMatrix
import MigratePlan

/// One customer the generated tests play, with what migrate's own model expects for them.
public struct GeneratedTestCase: Sendable {
    public var name: String
    public var customer: Customer
    public var expected: CustomerReport
}

/// Chooses customers that exercise every boundary of a plan: each release's version and the one
/// just below it, beyond the newest, malformed and missing versions, the sandbox and Xcode, failed
/// verification, the original platform under universal purchase, and each product in each state.
///
/// The expected outcomes come from `Advisor`, which runs the layer's own rules (`CohortRules`, `CatalogRules`) over
/// the tables `PlanCatalog` builds. The generated code runs the same rules over the tables the generator writes, so
/// the generated matrix proves that the written tables say what the engine's do, and that the generated glue
/// (receipt reading, the store, the upsell screen's inputs) hands the rules what the engine hands them; it is not a
/// second implementation of the rules, which the layer's own tests and mutants prove.
public enum TestCaseBuilder {
    /// At most this many cases: small plans get every case below; large ones keep the most telling,
    /// so the generated test file still compiles in reasonable time.
    public static let maximumCases = 1_000
    /// At most this many expected values (each case's features and offers) in all. With thousands of
    /// products every case lists thousands of offers, and a thousand such cases would be hundreds of
    /// megabytes of Swift that no compiler finishes; so cases are kept in priority order until the next
    /// would pass this, and working out which costs a few cases' worth, not the whole plan's.
    public static let maximumExpectedValues = 200_000

    /// Buckets in the order they are kept when a plan has more cases than `maximumCases`.
    enum Priority: Int, Comparable {
        case cutoffBoundary, environmentAndProof, ownership, pairwise, otherVersion, purchaseDate, universal, productState, productPair

        static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public static func cases(for catalog: PlanCatalog, maximum: Int = maximumCases, maximumValues: Int = maximumExpectedValues) -> [GeneratedTestCase]
    {
        cases(for: catalog, advisor: Advisor(catalog: catalog), maximum: maximum, maximumValues: maximumValues)
    }

    /// The cases, their expected values from `advisor` (the catalog's, made once by a caller that asks it more).
    static func cases(
        for catalog: PlanCatalog, advisor: Advisor, maximum: Int = maximumCases, maximumValues: Int = maximumExpectedValues
    ) -> [GeneratedTestCase] {
        // A pure function of the plan, and most of `generate`'s time (the pairwise rows): worked out once
        // per process, so a second generation of the same plan (another --only, --dry-run then the write,
        // a test suite) reuses it.
        let key = CacheKey(plan: catalog.plan, maximum: maximum, maximumValues: maximumValues)
        if let known = cache.value(for: key) { return known }
        let cases = build(for: catalog, advisor: advisor, maximum: maximum, maximumValues: maximumValues)
        // A large plan's cases are not kept: with thousands of offers each they are a hundred megabytes, which would
        // stay through rendering, and a process generates once.
        let values = cases.reduce(0) { $0 + $1.expected.entitlements.features.count + $1.expected.upsell.offers.count }
        if values <= maximumCachedValues { cache.store(cases, for: key) }
        return cases
    }

    /// The most expected values (features and offers) of a plan whose cases are kept for the next generation.
    static let maximumCachedValues = 20_000

    private struct CacheKey: Hashable {
        var plan: MigrationPlan
        var maximum: Int
        var maximumValues: Int
    }

    /// The last few plans' cases, behind a lock (commands run in-process from several threads in tests).
    private final class Cache: @unchecked Sendable {
        private var entries: [CacheKey: [GeneratedTestCase]] = [:]
        private let lock = NSLock()
        /// Plans remembered; past it the table starts again, so a long-lived process holds little.
        private let capacity = 16

        func value(for key: CacheKey) -> [GeneratedTestCase]? {
            lock.lock()
            defer { lock.unlock() }
            return entries[key]
        }

        func store(_ cases: [GeneratedTestCase], for key: CacheKey) {
            lock.lock()
            defer { lock.unlock() }
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = cases
        }
    }

    private static let cache = Cache()

    private static func build(for catalog: PlanCatalog, advisor: Advisor, maximum: Int, maximumValues: Int) -> [GeneratedTestCase] {
        let plan = catalog.plan
        var customers: [(name: String, customer: Customer, priority: Priority, order: Int)] = []
        var seen = Set<Customer>()
        var priority = Priority.cutoffBoundary
        func add(_ name: String, _ customer: Customer) {
            if seen.insert(customer).inserted { customers.append((name, customer, priority, customers.count)) }
        }

        let appPlatforms = plan.app.platforms
        // Boundary versions per platform track, with a date that matches the release they name.
        var representatives: [(String, Customer)] = []
        for platform in catalog.tracks.keys.sorted() {
            guard let cutoff = catalog.cutoffs[platform], let indices = catalog.tracks[platform] else { continue }
            let runsOn = appPlatforms.contains(platform) ? platform : (appPlatforms.first { catalog.trackPlatform(for: $0) == platform } ?? platform)
            let original: Platform? = plan.app.universalPurchase ? platform : nil
            var versions: [(Version, Date, Bool)] = []
            func tier(_ position: Int) -> String? { catalog.tier(ofRelease: indices[position])?.id }
            for (position, index) in indices.enumerated() {
                let release = plan.releases[index]
                guard let key = release.receiptVersion(cutoff.meaning) else { continue }
                // A release where the era changes (or the first and last) is a cutoff boundary.
                let boundary =
                    position == 0 || position == indices.count - 1 || tier(position) != tier(position - 1) || tier(position) != tier(position + 1)
                versions.append((key, release.released, boundary))
                if let below = decrement(key) { versions.append((below, release.released.addingTimeInterval(-1), boundary)) }
            }
            if let last = indices.last.map({ plan.releases[$0] }), let key = last.receiptVersion(cutoff.meaning) {
                versions.append((increment(key), last.released.addingTimeInterval(86_400), true))
            }
            for (version, date, boundary) in versions {
                let customer = Customer(platform: runsOn, originalPlatform: original, originalAppVersion: version.text, originalPurchaseDate: date)
                priority = boundary ? .cutoffBoundary : .otherVersion
                add("\(platform) \(version.text)", customer)
                representatives.append(("\(platform) \(version.text)", customer))
            }
            priority = .purchaseDate
            // Dates alone, for the date rule: just before and at each go-live moment.
            for index in indices {
                let release = plan.releases[index]
                add(
                    "\(platform) no version, 1 s before \(release.displayName)",
                    Customer(platform: runsOn, originalPlatform: original, originalPurchaseDate: release.released.addingTimeInterval(-1)))
                add(
                    "\(platform) no version, at \(release.displayName)",
                    Customer(platform: runsOn, originalPlatform: original, originalPurchaseDate: release.released))
            }
            priority = .environmentAndProof
            add("\(platform) malformed 2.0.1b", Customer(platform: runsOn, originalPlatform: original, originalAppVersion: "2.0.1b"))
            add("\(platform) nothing known", Customer(platform: runsOn, originalPlatform: original))
        }

        priority = .universal
        if plan.app.universalPurchase {
            // The same purchase seen from every platform, without the original platform.
            for (name, customer) in representatives {
                for platform in appPlatforms where platform != customer.platform {
                    var moved = customer
                    moved.platform = platform
                    moved.originalPlatform = nil
                    add("\(name) on \(platform), original platform unknown", moved)
                    var withoutDate = moved
                    withoutDate.originalPurchaseDate = nil
                    add("\(name) on \(platform), original platform and date unknown", withoutDate)
                }
            }
        }

        // Testers, refunds, failed verification and VPP, on a paid-era and a free-era customer.
        let eraCustomers = pickEraRepresentatives(representatives, resolver: CohortResolver(catalog: catalog))
        let pairs = interactingPairs(catalog, limit: maximumPairs)
        for (name, base) in eraCustomers {
            priority = .environmentAndProof
            for environment in [StoreEnvironment.sandbox, .xcode] {
                var tester = base
                tester.environment = environment
                tester.originalAppVersion = "1.0"
                tester.originalPurchaseDate =
                    environment == .sandbox ? Timestamp.parse("2013-08-01T07:00:00Z") : Timestamp.parse("0001-01-01T00:00:00Z")
                add("\(environment.rawValue) tester (like \(name))", tester)
            }
            var refunded = base
            refunded.isAppPurchaseRevoked = true
            add("\(name), paid download refunded", refunded)
            for age: Int? in [nil, 1, 8, 31] {
                var failed = base
                failed.appTransaction = .failed(lastVerifiedDaysAgo: age)
                add("\(name), verification failed, cache \(age.map { "\($0) days old" } ?? "empty")", failed)
            }
            var vpp = base
            vpp.isVolumePurchase = true
            add("\(name), VPP install", vpp)

            // Each product in each state that matters.
            for product in plan.products {
                var states: [(String, OwnedProduct)] = [("owns", OwnedProduct(productID: product.id))]
                if product.kind != .consumable {
                    states.append(("family-shared", OwnedProduct(productID: product.id, ownership: .familyShared)))
                    states.append(("refunded", OwnedProduct(productID: product.id, isRevoked: true)))
                    states.append(("unverified", OwnedProduct(productID: product.id, isVerified: false)))
                    if product.kind == .autoRenewable || product.kind == .nonRenewing {
                        states.append(("expired", OwnedProduct(productID: product.id, isExpired: true)))
                    }
                }
                for (state, owned) in states {
                    priority = state == "owns" ? .ownership : .productState
                    var customer = base
                    customer.purchases = [owned]
                    add("\(name), \(state) \(product.id)", customer)
                }
            }
            // Pairs of products that interact: a bundle and what it contains, products that share a
            // feature, an add-on and what grants its requirement. Others add nothing a single-product
            // case doesn't, so large catalogs stay a manageable size.
            priority = .productPair
            for (first, second) in pairs {
                var customer = base
                customer.purchases = [OwnedProduct(productID: first), OwnedProduct(productID: second)]
                add("\(name), owns \(first) and \(second)", customer)
            }
        }
        // Every pair of factor values that can occur together (migrate matrix), so interactions
        // between platform, environment, verification and each product's state are all tried.
        // Past the limit larger plans keep the boundary cases, and `migrate matrix` still gives the
        // pairwise set on its own.
        priority = .pairwise
        let factors = includesPairwise(plan) ? PlanFactorModel(catalog: catalog) : nil
        if let factors, let array = try? factors.matrix() {
            for row in factors.rows(of: array) {
                guard let customer = row.customer else { continue }
                add("pairwise row \(row.number)", customer)
            }
        }

        var unknown = eraCustomers.first?.1 ?? Customer(platform: appPlatforms.first ?? .iOS)
        unknown.purchases = [OwnedProduct(productID: "com.example.not-in-the-plan")]
        add("a product that is not in the plan", unknown)

        var kept: [(order: Int, testCase: GeneratedTestCase)] = []
        var values = 0
        let ordered = Array(customers.sorted(by: { ($0.priority, $0.order) < ($1.priority, $1.order) }).prefix(maximum))
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var next = 0
        // The reports of a few cases at a time, worked out at once: as many as the values still allowed seem to
        // leave room for, judged by the cases kept so far (at least one a core, at most 256), so that few are
        // worked out and then dropped.
        deciding: while next < ordered.count {
            let room = kept.isEmpty ? cores : (maximumValues - values) / max(values / kept.count, 1) + 1
            let batch = ordered[next..<min(ordered.count, next + max(cores, min(room, 256)))]
            let reports = ParallelReports.reports(for: batch.map(\.customer), advisor: advisor)
            for (entry, expected) in zip(batch, reports) {
                values += expected.entitlements.features.count + expected.upsell.offers.count
                if values > maximumValues && !kept.isEmpty { break deciding }
                kept.append((entry.order, GeneratedTestCase(name: entry.name, customer: entry.customer, expected: expected)))
            }
            next = batch.endIndex
        }
        return kept.sorted { $0.order < $1.order }.map(\.testCase)
    }

    static let maximumPairs = 60

    /// Whether the cases include the pairwise rows of `migrate matrix`: up to `Limits.pairwiseTestProducts`
    /// products and `Limits.pairwiseTestReleases` releases.
    public static func includesPairwise(_ plan: MigrationPlan) -> Bool {
        plan.products.count <= Limits.pairwiseTestProducts && plan.releases.count <= Limits.pairwiseTestReleases
    }

    /// The first `limit` pairs of lasting products, in plan order, that interact: one contains the other,
    /// they share a feature, or one grants what the other requires. Partners are found through indexes by
    /// feature and by bundle, so a catalog of thousands is not compared pair by pair.
    static func interactingPairs(_ catalog: PlanCatalog, limit: Int) -> [(String, String)] {
        let lasting = catalog.plan.products.filter { $0.kind != .consumable }
        var position: [String: [Int]] = [:]
        var granting: [String: [Int]] = [:]
        var requiring: [String: [Int]] = [:]
        var containedBy: [String: [Int]] = [:]
        for (offset, product) in lasting.enumerated() {
            position[product.id, default: []].append(offset)
            for feature in catalog.productFeatures[product.id] ?? [] { granting[feature, default: []].append(offset) }
            for feature in Set(product.requires) { requiring[feature, default: []].append(offset) }
            for inner in catalog.productContents[product.id] ?? [] { containedBy[inner, default: []].append(offset) }
        }
        var pairs: [(String, String)] = []
        for (offset, first) in lasting.enumerated() where pairs.count < limit {
            let features = catalog.productFeatures[first.id] ?? []
            var partners = Set<Int>()
            for inner in catalog.productContents[first.id] ?? [] { partners.formUnion(position[inner] ?? []) }
            partners.formUnion(containedBy[first.id] ?? [])
            for feature in features {
                partners.formUnion(granting[feature] ?? [])
                partners.formUnion(requiring[feature] ?? [])
            }
            for feature in first.requires { partners.formUnion(granting[feature] ?? []) }
            for partner in partners.filter({ $0 > offset }).sorted() { pairs.append((first.id, lasting[partner].id)) }
        }
        return Array(pairs.prefix(limit))
    }

    /// One customer per distinct cohort among the boundary customers, so that product states are
    /// tried in every era without multiplying every version by every product.
    private static func pickEraRepresentatives(_ customers: [(String, Customer)], resolver: CohortResolver) -> [(String, Customer)] {
        var seen = Set<Cohort>()
        var result: [(String, Customer)] = []
        for (name, customer) in customers {
            let cohort = resolver.decide(customer).cohort
            if seen.insert(cohort).inserted { result.append((name, customer)) }
        }
        return result
    }

    static func decrement(_ version: Version) -> Version? {
        var components = version.components
        guard let last = components.last, last > 0 else { return nil }
        components[components.count - 1] = last - 1
        return try? Version(components.map(String.init).joined(separator: "."))
    }

    static func increment(_ version: Version) -> Version {
        var components = version.components
        components[components.count - 1] += 1
        return (try? Version(components.map(String.init).joined(separator: "."))) ?? version
    }
}
