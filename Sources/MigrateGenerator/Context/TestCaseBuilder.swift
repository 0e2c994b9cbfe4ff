import Foundation
import MigrateCore
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
/// The expected outcomes come from `Advisor`, so the generated code is checked against an
/// independent implementation of the same rules.
public enum TestCaseBuilder {
    public static func cases(for catalog: PlanCatalog) -> [GeneratedTestCase] {
        let plan = catalog.plan
        let advisor = Advisor(catalog: catalog)
        var customers: [(String, Customer)] = []
        var seen = Set<Customer>()
        func add(_ name: String, _ customer: Customer) {
            if seen.insert(customer).inserted { customers.append((name, customer)) }
        }

        let appPlatforms = plan.app.platforms
        // Boundary versions per platform track, with a date that matches the release they name.
        var representatives: [(String, Customer)] = []
        for platform in catalog.tracks.keys.sorted() {
            guard let cutoff = catalog.cutoffs[platform], let indices = catalog.tracks[platform] else { continue }
            let runsOn = appPlatforms.contains(platform) ? platform : (appPlatforms.first { catalog.trackPlatform(for: $0) == platform } ?? platform)
            let original: Platform? = plan.app.universalPurchase ? platform : nil
            var versions: [(Version, Date)] = []
            for index in indices {
                let release = plan.releases[index]
                guard let key = cutoff.meaning == .buildNumber ? release.build : release.version else { continue }
                versions.append((key, release.released))
                if let below = decrement(key) { versions.append((below, release.released.addingTimeInterval(-1))) }
            }
            if let last = indices.last.map({ plan.releases[$0] }), let key = cutoff.meaning == .buildNumber ? last.build : last.version {
                versions.append((increment(key), last.released.addingTimeInterval(86_400)))
            }
            for (version, date) in versions {
                let customer = Customer(platform: runsOn, originalPlatform: original, originalAppVersion: version.text, originalPurchaseDate: date)
                add("\(platform) \(version.text)", customer)
                representatives.append(("\(platform) \(version.text)", customer))
            }
            // Dates alone, for the date rule: just before and at each go-live moment.
            for index in indices {
                let release = plan.releases[index]
                add("\(platform) no version, 1 s before \(release.displayName)", Customer(platform: runsOn, originalPlatform: original, originalPurchaseDate: release.released.addingTimeInterval(-1)))
                add("\(platform) no version, at \(release.displayName)", Customer(platform: runsOn, originalPlatform: original, originalPurchaseDate: release.released))
            }
            add("\(platform) malformed 2.0.1b", Customer(platform: runsOn, originalPlatform: original, originalAppVersion: "2.0.1b"))
            add("\(platform) nothing known", Customer(platform: runsOn, originalPlatform: original))
        }

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
        let eraCustomers = pickEraRepresentatives(representatives, advisor: advisor)
        for (name, base) in eraCustomers {
            for environment in [StoreEnvironment.sandbox, .xcode] {
                var tester = base
                tester.environment = environment
                tester.originalAppVersion = "1.0"
                tester.originalPurchaseDate = environment == .sandbox ? Timestamp.parse("2013-08-01T07:00:00Z") : Timestamp.parse("0001-01-01T00:00:00Z")
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
                    var customer = base
                    customer.purchases = [owned]
                    add("\(name), \(state) \(product.id)", customer)
                }
            }
            // Pairs of products, where bundles and add-ons interact.
            let lasting = plan.products.filter { $0.kind != .consumable }
            for (offset, first) in lasting.enumerated() {
                for second in lasting[(offset + 1)...] {
                    var customer = base
                    customer.purchases = [OwnedProduct(productID: first.id), OwnedProduct(productID: second.id)]
                    add("\(name), owns \(first.id) and \(second.id)", customer)
                }
            }
        }
        var unknown = eraCustomers.first?.1 ?? Customer(platform: appPlatforms.first ?? .iOS)
        unknown.purchases = [OwnedProduct(productID: "com.example.not-in-the-plan")]
        add("a product that is not in the plan", unknown)

        return customers.map { name, customer in
            GeneratedTestCase(name: name, customer: customer, expected: advisor.report(for: customer))
        }
    }

    /// One customer per distinct cohort among the boundary customers, so that product states are
    /// tried in every era without multiplying every version by every product.
    private static func pickEraRepresentatives(_ customers: [(String, Customer)], advisor: Advisor) -> [(String, Customer)] {
        var seen = Set<Cohort>()
        var result: [(String, Customer)] = []
        for (name, customer) in customers {
            let cohort = advisor.report(for: customer).decision.cohort
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
