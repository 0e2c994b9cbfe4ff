import Foundation
import MigrateCore
import MigratePlan

/// The factors of a migration and the constraints between them, derived from a plan: the
/// original version around every cutoff per platform, the purchase date around every era
/// boundary, the environment, the verification result, one factor per product, the restore
/// outcome, and the platforms. Each row of its matrix is a customer whose outcome `Advisor` decides.
public struct PlanFactorModel: Sendable {
    public let plan: MigrationPlan
    public let catalog: PlanCatalog
    public let model: CoverageModel
    /// Notes about the model for `matrix` to print; none today, since every rule is kept (the wide ones as clauses).
    public let notes: [String]

    /// What a level of each factor means for the customer.
    enum Role: Sendable {
        case platform([Platform])
        case originalPlatform([Platform?])
        case environment([StoreEnvironment])
        case originalVersion([VersionLevel])
        case purchaseDate([Date?])
        case verification([VerificationStatus])
        case product(String, [ProductState])
        case restore([RestoreOutcome])
    }

    struct VersionLevel: Sendable {
        /// Nil: no original version at all.
        var text: String?
        /// The track whose releases give it meaning; nil for values every platform can report.
        var track: Platform?
        var isSandboxValue: Bool
    }

    enum ProductState: String, Sendable, CaseIterable {
        case notOwned, purchased, familyShared, revoked, expired

        var isActive: Bool { self == .purchased || self == .familyShared }
    }

    let roles: [Role]

    /// What sandbox and TestFlight report as the original version and purchase date; Xcode's date.
    static let sandboxVersion = "1.0"
    static let sandboxDate = Timestamp.parse("2013-08-01T07:00:00Z")!
    static let xcodeDate = Timestamp.parse("0001-01-01T00:00:00Z")!
    /// A value the App Store could send that is not a bundle version (Apple, "CFBundleVersion": one to three
    /// period-separated integers).
    static let malformedVersion = "2.0.1b"

    public init(plan: MigrationPlan) {
        self.init(catalog: PlanCatalog(plan))
    }

    /// The factor model of a catalog already built, so a command that also checks or generates builds it once.
    public init(catalog: PlanCatalog) {
        let plan = catalog.plan
        self.plan = plan
        self.catalog = catalog
        var factors: [Factor] = []
        var roles: [Role] = []
        let notes: [String] = []
        func add(_ name: String, _ levels: [String], _ role: Role) -> Int {
            factors.append(Factor(name, levels: levels))
            roles.append(role)
            return factors.count - 1
        }

        let platforms = plan.app.platforms.isEmpty ? [Platform.iOS] : plan.app.platforms
        let tracks = Array(Set(platforms.compactMap { catalog.trackPlatform(for: $0) })).sorted()
        let platformFactor = platforms.count > 1 ? add("platform", platforms.map(\.rawValue), .platform(platforms)) : nil
        var originalPlatformFactor: Int?
        if plan.app.universalPurchase && tracks.count > 1 {
            let choices: [Platform?] = [nil] + platforms.map { Optional($0) }
            originalPlatformFactor = add("originalPlatform", choices.map { $0?.rawValue ?? "unknown" }, .originalPlatform(choices))
        }
        let environments = StoreEnvironment.allCases
        let environmentFactor = add("environment", environments.map(\.rawValue), .environment(environments))

        var versions: [VersionLevel] = []
        for track in tracks { versions += Self.versionLevels(catalog: catalog, track: track) }
        versions.append(VersionLevel(text: Self.sandboxVersion, track: nil, isSandboxValue: true))
        versions.append(VersionLevel(text: nil, track: nil, isSandboxValue: false))
        versions.append(VersionLevel(text: Self.malformedVersion, track: nil, isSandboxValue: false))
        let versionNames = versions.map { level -> String in
            if level.isSandboxValue { return "\(Self.sandboxVersion) (sandbox)" }
            guard let text = level.text else { return "(missing)" }
            guard let track = level.track else { return "\(text) (malformed)" }
            return tracks.count > 1 ? "\(track) \(text)" : text
        }
        let versionFactor = add("originalVersion", versionNames, .originalVersion(versions))

        var dates: [Date?] = [nil]
        var realDates = Set<Date>()
        for track in tracks { realDates.formUnion(Self.dateLevels(catalog: catalog, track: track)) }
        dates += realDates.sorted().map { Optional($0) }
        dates += [Self.sandboxDate, Self.xcodeDate]
        let dateNames = dates.map { date -> String in
            guard let date else { return "(missing)" }
            if date == Self.sandboxDate { return Timestamp.format(date) + " (sandbox)" }
            if date == Self.xcodeDate { return Timestamp.format(date) + " (xcode)" }
            return Timestamp.format(date)
        }
        let dateFactor = add("originalPurchaseDate", dateNames, .purchaseDate(dates))

        let statuses: [VerificationStatus]
        let statusNames: [String]
        switch plan.policies.verificationFailure {
        case .deny:
            statuses = [.verified, .failed(lastVerifiedDaysAgo: nil)]
            statusNames = ["verified", "failed"]
        case .keepLastVerified(let days):
            statuses = [.verified, .failed(lastVerifiedDaysAgo: days), .failed(lastVerifiedDaysAgo: days + 1), .failed(lastVerifiedDaysAgo: nil)]
            statusNames = ["verified", "failed, cached \(days) days", "failed, cached \(days + 1) days", "failed, nothing cached"]
        }
        _ = add("verification", statusNames, .verification(statuses))

        var productFactors: [(factor: Int, states: [ProductState], countsForRestore: Bool)] = []
        for product in plan.products {
            var states: [ProductState] = [.notOwned, .purchased]
            if product.kind != .consumable {
                if product.familyShareable { states.append(.familyShared) }
                states.append(.revoked)
                if product.kind == .autoRenewable || product.kind == .nonRenewing { states.append(.expired) }
            }
            let factor = add(product.id, states.map(\.rawValue), .product(product.id, states))
            productFactors.append((factor, states, product.kind != .consumable))
        }
        let restores = RestoreOutcome.allCases
        let restoreFactor = add("restore", restores.map(\.rawValue), .restore(restores))

        // Constraints.
        let versionLevels = versions
        let dateLevels = dates
        let originalFactor = originalPlatformFactor
        var constraints: [Constraint] = []
        let sandboxLevel = versionLevels.firstIndex { $0.isSandboxValue }!
        constraints.append(
            Constraint(
                scope: [environmentFactor, versionFactor],
                label: "the sandbox and Xcode report original version \"1.0\", production never the sandbox value"
            ) { values in
                (environments[values[0]] == .production) == (values[1] != sandboxLevel)
            })
        constraints.append(
            Constraint(scope: [environmentFactor, dateFactor], label: "the sandbox and Xcode report their fixed purchase dates, production never") {
                values in
                let date = dateLevels[values[1]]
                switch environments[values[0]] {
                case .production: return date != Self.sandboxDate && date != Self.xcodeDate
                case .sandbox: return date == Self.sandboxDate
                case .xcode: return date == Self.xcodeDate
                }
            })
        // The original version is read on the track of the original platform (universal purchase) or of the platform now.
        let scope = [platformFactor, originalFactor, versionFactor].compactMap { $0 }
        constraints.append(
            Constraint(scope: scope, label: "a build number or marketing version belongs to the platform whose releases give it meaning") { values in
                var position = 0
                var platform = platforms[0]
                if platformFactor != nil {
                    platform = platforms[values[position]]
                    position += 1
                }
                var original: Platform?
                var originalKnown = false
                if originalFactor != nil {
                    if values[position] > 0 {
                        original = platforms[values[position] - 1]
                        originalKnown = true
                    }
                    position += 1
                }
                guard let track = versionLevels[values[position]].track else { return true }
                if plan.app.universalPurchase && tracks.count > 1 && !originalKnown { return true }
                return catalog.trackPlatform(for: original ?? platform) == track
            })
        // One download gives a receipt both its original version and its original purchase date, so a
        // version is only bought while its release was live: without this rule every version meets
        // every date, and forty tiers make thousands of rows of customers who cannot exist.
        let windows = versionLevels.map { Self.liveWindow(of: $0, catalog: catalog) }
        constraints.append(
            Constraint(scope: [versionFactor, dateFactor], label: "an original version is bought while its release is live") { values in
                guard let window = windows[values[0]], let date = dateLevels[values[1]] else { return true }
                return window.contains(date)
            })
        let missingVersion = versionLevels.firstIndex { $0.text == nil }!
        for product in productFactors {
            constraints.append(
                Constraint(
                    scope: [versionFactor, dateFactor, product.factor],
                    label: "without a receipt ('\(factors[product.factor].name)') nothing is owned or refunded"
                ) { values in
                    !(values[0] == missingVersion && dateLevels[values[1]] == nil) || product.states[values[2]] == .notOwned
                })
        }
        let restorable = productFactors.filter(\.countsForRestore)
        for product in restorable {
            constraints.append(
                Constraint(
                    scope: [restoreFactor, product.factor],
                    label: "\"restored nothing\" means no product ('\(factors[product.factor].name)') is owned"
                ) { values in
                    restores[values[0]] != .nothingRestored || !product.states[values[1]].isActive
                })
        }
        if restorable.isEmpty {
            constraints.append(
                Constraint(scope: [restoreFactor], label: "\"restored\" needs an owned product, and the plan sells none") { values in
                    restores[values[0]] != .restored
                })
        } else {
            // A clause, checked as it is by the generator: enumerating it would cost 3 × states^products.
            let notRestored = Set(restores.indices.filter { restores[$0] != .restored })
            let owned = restorable.map { product in
                Constraint.Literal(factor: product.factor, levels: Set(product.states.indices.filter { product.states[$0].isActive }))
            }
            constraints.append(
                .anyOf([Constraint.Literal(factor: restoreFactor, levels: notRestored)] + owned, label: "\"restored\" needs an owned product"))
        }

        self.model = CoverageModel(factors: factors, constraints: constraints)
        self.roles = roles
        self.notes = notes
    }

    // MARK: - Levels

    /// Boundary values of the original version on one track: below, at and above every version where
    /// the cohort changes, one older and one newer than every release.
    static func versionLevels(catalog: PlanCatalog, track: Platform) -> [VersionLevel] {
        let meaning = track.originalVersionMeaning
        let entries = (catalog.tracks[track] ?? []).compactMap { index -> (version: Version, label: String)? in
            let release = catalog.plan.releases[index]
            guard let key = release.receiptVersion(meaning) else { return nil }
            return (key, catalog.tier(ofRelease: index)?.id ?? "")
        }.sorted { $0.version < $1.version }
        guard !entries.isEmpty else { return [] }
        var values: [Version] = []
        if let older = decrement(entries[0].version) { values.append(older) }
        for index in entries.indices.dropFirst() where entries[index].label != entries[index - 1].label {
            let boundary = entries[index].version
            values.append(decrement(boundary) ?? entries[index - 1].version)
            values.append(boundary)
            values.append(increment(boundary))
        }
        values.append(increment(entries[entries.count - 1].version))
        var unique: [Version] = []
        for value in values.sorted() where !unique.contains(value) { unique.append(value) }
        return unique.map { VersionLevel(text: $0.text, track: track, isSandboxValue: false) }
    }

    /// When a version level could have been bought: from the go-live of the newest release at or below it
    /// on its track (a day earlier for the first release, a pre-order) until the next release went live.
    /// Nil (any date) for the values no release gives: the sandbox's, a missing or malformed version, and
    /// one older than every release.
    static func liveWindow(of level: VersionLevel, catalog: PlanCatalog) -> Range<Date>? {
        guard let text = level.text, let track = level.track, !level.isSandboxValue, let version = try? Version(text) else { return nil }
        let meaning = track.originalVersionMeaning
        let releases = (catalog.tracks[track] ?? []).map { catalog.plan.releases[$0] }.sorted { $0.released < $1.released }
        guard let first = releases.first,
            let current = releases.filter({ ($0.receiptVersion(meaning)).map { $0 <= version } ?? false }).max(by: {
                ($0.receiptVersion(meaning)!, $0.released) < ($1.receiptVersion(meaning)!, $1.released)
            })
        else { return nil }
        let start = current == first ? current.released.addingTimeInterval(-86_400) : current.released
        let end = releases.first { $0.released > current.released }?.released ?? .distantFuture
        return start..<max(end, start.addingTimeInterval(1))
    }

    static func decrement(_ version: Version) -> Version? {
        guard let last = version.components.last, last > 0 else { return nil }
        return try? Version(
            version.components.dropLast().map(String.init).joined(separator: ".") + (version.components.count > 1 ? "." : "") + String(last - 1))
    }

    static func increment(_ version: Version) -> Version {
        var components = version.components
        components[components.count - 1] += 1
        return (try? Version(components.map(String.init).joined(separator: "."))) ?? version
    }

    /// Purchase dates around every moment the cohort changes on a track (a go-live, or a tier
    /// window's bound): a second before and the moment itself, and a day before the first release
    /// (a pre-order).
    static func dateLevels(catalog: PlanCatalog, track: Platform) -> [Date] {
        let indices = catalog.tracks[track] ?? []
        guard let first = indices.first else { return [] }
        var dates = [catalog.plan.releases[first].released.addingTimeInterval(-86_400)]
        func label(_ index: Int) -> String { catalog.tier(ofRelease: index)?.id ?? "" }
        for position in indices.indices.dropFirst() where label(indices[position]) != label(indices[position - 1]) {
            let moment = catalog.plan.releases[indices[position]].released
            dates += [moment.addingTimeInterval(-1), moment]
        }
        // A written tier's window that begins or ends while a release is on sale changes the cohort
        // at that moment too.
        let goLives = Set(indices.map { catalog.plan.releases[$0].released })
        for window in catalog.windows(on: track) {
            for bound in [window.from, window.until].compactMap({ $0 }) where !goLives.contains(bound) && bound > dates[0] {
                dates += [bound.addingTimeInterval(-1), bound]
            }
        }
        return dates
    }

    // MARK: - Rows

    /// The customer and restore outcome a row of level indices describes.
    public func customer(for row: [Int]) -> (customer: Customer, restore: RestoreOutcome) {
        var customer = Customer(platform: plan.app.platforms.first ?? .iOS)
        var restore = RestoreOutcome.failed
        for (factor, role) in roles.enumerated() {
            let level = row[factor]
            switch role {
            case .platform(let platforms): customer.platform = platforms[level]
            case .originalPlatform(let platforms): customer.originalPlatform = platforms[level]
            case .environment(let environments): customer.environment = environments[level]
            case .originalVersion(let versions): customer.originalAppVersion = versions[level].text
            case .purchaseDate(let dates): customer.originalPurchaseDate = dates[level]
            case .verification(let statuses): customer.appTransaction = statuses[level]
            case .product(let id, let states):
                switch states[level] {
                case .notOwned: break
                case .purchased: customer.purchases.append(OwnedProduct(productID: id))
                case .familyShared: customer.purchases.append(OwnedProduct(productID: id, ownership: .familyShared))
                case .revoked: customer.purchases.append(OwnedProduct(productID: id, isRevoked: true))
                case .expired: customer.purchases.append(OwnedProduct(productID: id, isExpired: true))
                }
            case .restore(let outcomes): restore = outcomes[level]
            }
        }
        return (customer, restore)
    }

    /// `migrate explain` arguments that describe the same customer.
    public func explainArguments(for customer: Customer) -> [String] {
        var arguments = ["--platform", customer.platform.rawValue]
        if let original = customer.originalPlatform { arguments += ["--original-platform", original.rawValue] }
        arguments += ["--environment", customer.environment.rawValue]
        if let version = customer.originalAppVersion { arguments += ["--original-version", version] }
        if let date = customer.originalPurchaseDate { arguments += ["--original-purchase-date", Timestamp.format(date)] }
        if case .failed(let age) = customer.appTransaction {
            arguments += ["--verification", "failed"]
            if let age { arguments += ["--cache-age", String(age)] }
        }
        for purchase in customer.purchases {
            var states: [String] = []
            if purchase.ownership == .familyShared { states.append("familyShared") }
            if purchase.isRevoked { states.append("revoked") }
            if purchase.isExpired { states.append("expired") }
            if !purchase.isVerified { states.append("unverified") }
            arguments += ["--owns", ([purchase.productID] + states).joined(separator: ":")]
        }
        return arguments
    }

    /// The outcome `Advisor` decides for a customer.
    public func expectedOutcome(for customer: Customer, restore: RestoreOutcome, advisor: Advisor) -> ExpectedOutcome {
        let report = advisor.report(for: customer)
        var cohort = "newCustomer"
        var tier: String?
        if case .legacy(let id) = report.decision.cohort {
            cohort = "legacy"
            tier = id
        }
        return ExpectedOutcome(
            cohort: cohort, tier: tier, rule: report.decision.rule.rawValue, features: report.entitlements.features.map(\.featureID),
            offers: report.upsell.offers.map(\.productID), restoreShown: report.upsell.showsRestore, restoreMessage: restore.message(in: .english))
    }

    /// Rows with their customers, expected outcomes and `explain` arguments.
    public func rows(of array: CoveringArray) -> [MatrixRow] {
        let advisor = Advisor(catalog: catalog)
        return array.rows.enumerated().map { index, row in
            let (customer, restore) = customer(for: row)
            let values = row.enumerated().map {
                FactorValue(factor: model.factors[$0.offset].name, value: model.factors[$0.offset].levels[$0.element])
            }
            return MatrixRow(
                number: index + 1, values: values, customer: customer, restore: restore,
                expected: expectedOutcome(for: customer, restore: restore, advisor: advisor), explainArguments: explainArguments(for: customer))
        }
    }

    /// Generates the plan's covering array.
    public func matrix(options: GeneratorOptions = GeneratorOptions(), seedRows: [[Int?]] = []) throws(ModelError) -> CoveringArray {
        try CoveringArrayGenerator(model: model, options: options).generate(seedRows: seedRows)
    }
}
