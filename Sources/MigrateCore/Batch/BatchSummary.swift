import Foundation
import MigratePlan

/// What a whole customer list comes to: cohorts with the rules that decided them, who is offered
/// something, rows that couldn't be read, and warnings that catch a wrong cutoff before launch.
public struct BatchSummary: Sendable {
    /// A row that was skipped, with where it is (`line 17`, a file's name) and why.
    public struct Skipped: Sendable, Hashable {
        public var place: String
        public var message: String
    }

    /// A group of customers: one legacy tier, or the new customers.
    public struct Group: Sendable, Hashable {
        /// The tier's id, or nil for new customers.
        public var tierID: String?
        public var count = 0
        /// How many of them are offered at least one product.
        public var offered = 0
        /// How many each rule decided.
        public var rules: [CutoffRuleKind: Int] = [:]

        mutating func add(offered isOffered: Bool, rule: CutoffRuleKind) {
            count += 1
            if isOffered { offered += 1 }
            rules[rule, default: 0] += 1
        }
    }

    public let catalog: PlanCatalog
    public private(set) var decided = 0
    public private(set) var skippedCount = 0
    /// The first skipped rows, in order (at most `Self.listedSkips`; `skippedCount` counts them all).
    public private(set) var skipped: [Skipped] = []
    public private(set) var groups: [String: Group] = [:]
    public private(set) var environments: [StoreEnvironment: Int] = [:]
    private var productionLegacy = 0
    /// Decided rows with each warning, and the first few places of each, by the warning's position in `allCases`
    /// (a list of a million counts most rows' warnings without hashing).
    private var counts = [Int](repeating: 0, count: BatchRowWarning.allCases.count)
    private var places = [[String]](repeating: [], count: BatchRowWarning.allCases.count)
    /// Decided rows with each warning.
    public var warningCounts: [BatchRowWarning: Int] {
        Dictionary(uniqueKeysWithValues: BatchRowWarning.allCases.enumerated().filter { counts[$0.offset] > 0 }.map { ($1, counts[$0]) })
    }
    /// Decided rows with at least one warning.
    public private(set) var rowsWithWarnings = 0
    /// Production customers whose original version matches no release in the plan, by version.
    public private(set) var unknownVersions: [String: Int] = [:]
    private var unknownVersionsOverflow = 0
    /// Product ids rows name that the plan doesn't list, by id (the first `trackedVersions`).
    public private(set) var unknownProducts: [String: Int] = [:]
    /// What the reading of the list itself showed (a header column that looks like a misspelled fact, blank rows,
    /// stray quotes), said before the warnings about its customers; each makes `--strict` fail.
    public private(set) var listWarnings: [String] = []

    /// Skipped rows listed one by one; the rest are counted.
    public static let listedSkips = 20
    /// Places listed in a warning; the rest are counted.
    public static let listedPlaces = 5
    /// Distinct unknown versions remembered (a list of a million must not hold a million of them).
    public static let trackedVersions = 1_000

    public init(catalog: PlanCatalog) {
        self.catalog = catalog
    }

    public mutating func skip(_ place: String, _ message: String) {
        skippedCount += 1
        if skipped.count < Self.listedSkips { skipped.append(Skipped(place: place, message: message)) }
    }

    /// Notes something about the list as read (not about one customer's decision).
    public mutating func warnAboutList(_ text: String) {
        listWarnings.append(text)
    }

    /// Counts a decided customer and its row's warnings; `place` is read only when a warning lists it.
    public mutating func add(_ customer: Customer, _ decision: BatchDecision, at place: @autoclosure () -> String) {
        decided += 1
        let key = decision.tierID.map { "legacy:" + $0 } ?? "newCustomer"
        // Counted in place: a copy of the group taken out and stored back would copy its rules on every row.
        groups[key, default: Group(tierID: decision.tierID)].add(offered: !decision.offers.isEmpty, rule: decision.rule)
        environments[customer.environment, default: 0] += 1
        if customer.environment == .production && decision.tierID != nil { productionLegacy += 1 }
        guard !decision.warnings.isEmpty else { return }
        rowsWithWarnings += 1
        for warning in decision.warnings {
            let position = warning.position
            counts[position] += 1
            if places[position].count < Self.listedPlaces { places[position].append(place()) }
        }
        if decision.warnings.contains(.unknownProduct) {
            let known = Set(catalog.plan.products.map(\.id))
            for purchase in customer.purchases where !known.contains(purchase.productID) {
                if unknownProducts[purchase.productID] != nil || unknownProducts.count < Self.trackedVersions {
                    unknownProducts[purchase.productID, default: 0] += 1
                }
            }
        }
        if decision.warnings.contains(.unknownVersion), let text = customer.originalAppVersion {
            if unknownVersions[text] != nil || unknownVersions.count < Self.trackedVersions {
                unknownVersions[text, default: 0] += 1
            } else {
                unknownVersionsOverflow += 1
            }
        }
    }

    /// How many production customers were decided.
    public var productionCount: Int { environments[.production] ?? 0 }

    /// A warning about the list, with the kind of row warning it counts (nil: about the list as read, or as a whole).
    public struct Warning: Sendable, Hashable {
        public var kind: BatchRowWarning?
        public var text: String
    }

    /// Warnings about the list as a whole: how it read, then its customers, worst first.
    public var warnings: [String] { classifiedWarnings.map(\.text) }

    /// `warnings`, each with the kind of row warning it counts.
    public var classifiedWarnings: [Warning] {
        var warnings = listWarnings.map { Warning(kind: nil, text: $0) }
        func places(_ listed: [String], _ count: Int) -> String {
            listed.joined(separator: ", ") + (count > listed.count ? " and \(Limits.grouped(count - listed.count)) more" : "")
        }
        let paidButNewCount = counts[BatchRowWarning.paidButNew.position]
        let freeButLegacyCount = counts[BatchRowWarning.freeButLegacy.position]
        let undeterminedCount = counts[BatchRowWarning.undetermined.position]
        let beforeFirstCount = counts[BatchRowWarning.beforeFirstRelease.position]
        let incompleteCount = counts[BatchRowWarning.incompleteHistory.position]
        let unknownProductCount = counts[BatchRowWarning.unknownProduct.position]
        let duplicateCount = counts[BatchRowWarning.duplicateCustomer.position]
        func listed(_ warning: BatchRowWarning) -> String { places(self.places[warning.position], counts[warning.position]) }
        if paidButNewCount > 0 {
            warnings.append(
                Warning(
                    kind: .paidButNew,
                    text:
                        "\(Limits.grouped(paidButNewCount)) production \(paidButNewCount == 1 ? "customer" : "customers") bought while a paid release was on sale (by originalPurchaseDate) but \(paidButNewCount == 1 ? "is a new customer" : "are new customers") who would see a paywall (\(listed(.paidButNew))): check the plan's releases and cutoff before launch"
                )
            )
        }
        if freeButLegacyCount > 0 {
            warnings.append(
                Warning(
                    kind: .freeButLegacy,
                    text:
                        "\(Limits.grouped(freeButLegacyCount)) production \(freeButLegacyCount == 1 ? "customer" : "customers") downloaded while the app was free (by originalPurchaseDate) but \(freeButLegacyCount == 1 ? "is" : "are") legacy (\(listed(.freeButLegacy))): the cutoff may be too late, or the releases' dates wrong"
                )
            )
        }
        if undeterminedCount > 0 {
            warnings.append(
                Warning(
                    kind: .undetermined,
                    text:
                        "\(Limits.grouped(undeterminedCount)) production \(undeterminedCount == 1 ? "customer has" : "customers have") neither an original version nor a purchase date the plan can judge (\(listed(.undetermined))), so \(undeterminedCount == 1 ? "it is" : "they are") decided as new customers: fill in originalAppVersion from AppTransaction"
                )
            )
        }
        if beforeFirstCount > 0 {
            warnings.append(
                Warning(
                    kind: .beforeFirstRelease,
                    text:
                        "\(Limits.grouped(beforeFirstCount)) production \(beforeFirstCount == 1 ? "customer" : "customers") bought before the first release the plan lists (\(listed(.beforeFirstRelease))): a pre-order, or releases missing from the plan; add the app's first releases so their era is known"
                )
            )
        }
        if incompleteCount > 0 {
            warnings.append(
                Warning(
                    kind: .incompleteHistory,
                    text:
                        "\(Limits.grouped(incompleteCount)) \(incompleteCount == 1 ? "customer's transaction history has" : "customers' transaction histories have") more pages than given (hasMore: true) (\(listed(.incompleteHistory))): products on the missing pages are not counted, so offers may be wrong; fetch every page (the revision each response gives) into the customer's folder"
                )
            )
        }
        if unknownProductCount > 0 {
            let ids = unknownProducts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.listedPlaces)
                .map { "'\($0.key)' (\($0.value))" }.joined(separator: ", ")
            let joined = unknownProducts.keys.contains { $0.contains(",") || $0.contains(";") }
            warnings.append(
                Warning(
                    kind: .unknownProduct,
                    text:
                        "\(Limits.grouped(unknownProductCount)) \(unknownProductCount == 1 ? "row names a product" : "rows name products") the plan doesn't list: \(ids) (\(listed(.unknownProduct))), so \(unknownProductCount == 1 ? "it is" : "they are") decided as owning nothing of \(unknownProducts.count == 1 ? "it" : "them"): use the plan's product ids\(joined ? ", separated by spaces, not commas" : "")"
                )
            )
        }
        if duplicateCount > 0 {
            warnings.append(
                Warning(
                    kind: .duplicateCustomer,
                    text:
                        "\(Limits.grouped(duplicateCount)) \(duplicateCount == 1 ? "row repeats the customer id of an earlier row" : "rows repeat the customer ids of earlier rows") (\(listed(.duplicateCustomer))): one customer listed twice may be decided two ways; keep one row per customer"
                )
            )
        }
        let production = productionCount
        if decided > 0 && production == 0 {
            let kinds = environments.keys.map(\.rawValue).sorted().joined(separator: " and ")
            warnings.append(
                Warning(
                    kind: nil,
                    text:
                        "every row is \(kinds): in the sandbox and TestFlight originalAppVersion is always \"1.0\", and in Xcode it is the tested build's, so these rows show policies.nonProduction, not what customers in production get; list production customers to rehearse the launch"
                )
            )
        } else if production >= 20 {
            let share = Double(productionLegacy) / Double(production)
            let percent = Int((share * 100).rounded())
            if share >= 0.95 {
                warnings.append(
                    Warning(
                        kind: nil,
                        text:
                            "\(percent)% of listed production customers are legacy: right if the list holds only people who paid, but if it includes people who downloaded the app for free, the cutoff is too late"
                    )
                )
            } else if share <= 0.05 {
                warnings.append(
                    Warning(
                        kind: nil,
                        text:
                            "\(percent)% of listed production customers are legacy: if the list holds people who paid for the app, the cutoff is too early or the original versions are read wrongly (a build number on iOS, a marketing version on macOS)"
                    )
                )
            }
        }
        if !unknownVersions.isEmpty {
            let total = unknownVersions.values.reduce(0, +) + unknownVersionsOverflow
            let listed = unknownVersions.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.listedPlaces)
                .map { "\"\($0.key)\" (\($0.value))" }
            let more = unknownVersions.count > Self.listedPlaces || unknownVersionsOverflow > 0 ? " and more" : ""
            warnings.append(
                Warning(
                    kind: .unknownVersion,
                    text:
                        "\(Limits.grouped(total)) production \(total == 1 ? "customer's" : "customers'") original version is no release in the plan: \(listed.joined(separator: ", "))\(more). They are still compared numerically with the releases around them; if they are real builds, add those releases (with their build numbers on iOS) so the plan holds the app's real history, and if they are not, the list's versions are not what AppTransaction.originalAppVersion says"
                )
            )
        }
        return warnings
    }
}
