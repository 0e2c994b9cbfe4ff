import MigrateSupport

/// Writes a plan back to `migration.json`, deterministically and in the order people read it:
/// the same plan always gives the same bytes, so importers and the wizard produce clean diffs.
public enum PlanEncoder {
    public static func encode(_ plan: MigrationPlan) -> String {
        JSONWriter.plan.string(from: json(plan))
    }

    public static func json(_ plan: MigrationPlan) -> JSONValue {
        PlanKeys.Root.members([
            (.schema, plan.schemaReference.map { .string($0) }),
            (.formatVersion, .integer(plan.formatVersion)),
            (
                .app,
                PlanKeys.App.members([
                    (.name, .string(plan.app.name)),
                    (.bundleID, .string(plan.app.bundleID)),
                    (.platforms, .strings(plan.app.platforms.map(\.rawValue))),
                    (.universalPurchase, .bool(plan.app.universalPurchase)),
                    (.sku, plan.app.sku.map { .string($0) }),
                    (.appleID, plan.app.appleID.map { .string($0) }),
                ])
            ),
            (.features, .array(plan.features.map { PlanKeys.Feature.object([.id: .string($0.id), .name: .string($0.name)]) })),
            (.releases, .array(plan.releases.map(json))),
            (.products, .array(plan.products.map(json))),
            (.tiers, plan.tiers.isEmpty ? nil : .array(plan.tiers.map(json))),
            (.policies, json(plan.policies)),
            (.installBase, plan.installBase.map(json)),
            (.simulation, plan.simulation.map(json)),
            (.directSales, plan.directSales.map(json)),
        ])
    }

    static func json(_ simulation: SimulationSettings) -> JSONValue {
        PlanKeys.Simulation.members([
            (.horizonMonths, simulation.horizonMonths.map { .integer($0) }),
            (.commission, simulation.commission.map { .string($0.rawValue) }),
            (.assumptions, simulation.assumptions.isEmpty ? nil : json(simulation.assumptions)),
            (.scenarios, simulation.scenarios.isEmpty ? nil : .array(simulation.scenarios.map(json))),
            (.seasonality, simulation.seasonality.map { .array($0.weights.map { .number(PlanDecoder.format($0)) }) }),
        ])
    }

    static func json(_ scenario: SimulationScenario) -> JSONValue {
        PlanKeys.Scenario.members([
            (.id, .string(scenario.id)),
            (.name, scenario.name == scenario.id ? nil : .string(scenario.name)),
            (.commission, scenario.commission.map { .string($0.rawValue) }),
            (.assumptions, scenario.assumptions.isEmpty ? nil : json(scenario.assumptions)),
            (
                .prices,
                scenario.prices.isEmpty
                    ? nil
                    : .array(
                        scenario.prices.map { PlanKeys.ScenarioPrice.object([.product: .string($0.product), .price: .string($0.price.description)]) })
            ),
            (.tiers, scenario.tiers.map { .array($0.map(json)) }),
        ])
    }

    /// Assumptions in the order `SimulationAssumption` lists them, so rewriting a plan gives one form.
    static func json(_ assumptions: [AssumptionValue]) -> JSONValue {
        let order = Dictionary(uniqueKeysWithValues: SimulationAssumption.names.enumerated().map { ($1, $0) })
        let sorted = assumptions.sorted { (order[$0.name] ?? Int.max) < (order[$1.name] ?? Int.max) }
        return .members(sorted.map { ($0.name, json($0.distribution)) })
    }

    public static func json(_ distribution: Distribution) -> JSONValue {
        func number(_ value: Double) -> JSONValue { .number(PlanDecoder.format(value)) }
        switch distribution {
        case .point(let value): return number(value)
        case .uniform(let low, let high):
            return PlanKeys.Distribution.object([.distribution: .string("uniform"), .low: number(low), .high: number(high)])
        case .triangular(let low, let mode, let high):
            return PlanKeys.Distribution.object([.distribution: .string("triangular"), .low: number(low), .mode: number(mode), .high: number(high)])
        case .logNormal(let low, let high):
            return PlanKeys.Distribution.object([.distribution: .string("logNormal"), .low: number(low), .high: number(high)])
        }
    }

    static func json(_ release: Release) -> JSONValue {
        var price: JSONValue?
        if case .paid(let amount) = release.model { price = .string(amount.description) }
        return PlanKeys.Release.members([
            (.platform, .string(release.platform.rawValue)),
            (.version, .string(release.version.text)),
            (.build, release.build.map { .string($0.text) }),
            (.released, .string(Timestamp.format(release.released))),
            (.releasedSource, release.releasedSource.map { .string($0.rawValue) }),
            (.model, .string(release.model.isPaid ? "paid" : "free")),
            (.price, price),
            (.includes, release.includes.map { .strings($0) }),
        ])
    }

    static func json(_ product: Product) -> JSONValue {
        PlanKeys.Product.members([
            (.id, .string(product.id)),
            (.name, product.name == product.id ? nil : .string(product.name)),
            (.type, .string(product.kind.rawValue)),
            (.price, .string(product.price.description)),
            (.grants, product.grants.isEmpty ? nil : .strings(product.grants)),
            (.contains, product.contains.isEmpty ? nil : .strings(product.contains)),
            (.requires, product.requires.isEmpty ? nil : .strings(product.requires)),
            (.forSale, product.forSale ? nil : .bool(false)),
            (.familyShareable, product.familyShareable ? .bool(true) : nil),
            (
                .subscription,
                product.subscription.map {
                    PlanKeys.Subscription.members([
                        (.group, .string($0.group)), (.level, .integer($0.level)), (.period, .string($0.period)),
                        (.introductoryOffer, $0.introductoryOffer.map { offer in json(offer) }),
                    ])
                }
            ),
            (.trial, product.trial.map { .string($0.description) }),
            (.duration, product.duration.map { .string($0.description) }),
        ])
    }

    static func json(_ offer: IntroductoryOffer) -> JSONValue {
        PlanKeys.IntroductoryOffer.members([
            (.paymentMode, .string(offer.paymentMode.rawValue)),
            (.period, .string(offer.period)),
            (.periods, offer.paymentMode == .payAsYouGo ? .integer(offer.periods) : nil),
            (.price, offer.price.map { .string($0.description) }),
        ])
    }

    static func json(_ tier: LegacyTier) -> JSONValue {
        PlanKeys.Tier.members([
            (.id, .string(tier.id)),
            (.name, tier.name == tier.id ? nil : .string(tier.name)),
            (.from, tier.from.map { .string(Timestamp.format($0)) }),
            (.until, tier.until.map { .string(Timestamp.format($0)) }),
            (.platforms, tier.platforms.map { .strings($0.map(\.rawValue)) }),
            (.grants, tier.grants.map { .strings($0) }),
            (.takesAway, tier.takesAway.isEmpty ? nil : .strings(tier.takesAway)),
            (
                .discounts,
                tier.discounts.isEmpty
                    ? nil
                    : .array(
                        tier.discounts.map { discount in
                            PlanKeys.Discount.members([
                                (.product, .string(discount.product)), (.price, .string(discount.price.description)),
                                (
                                    .promotionalOffer,
                                    discount.charge.flatMap { if case .promotionalOffer(let id) = $0 { .string(id) } else { nil } }
                                ),
                                (
                                    .legacyProduct,
                                    discount.charge.flatMap { if case .legacyProduct(let id) = $0 { .string(id) } else { nil } }
                                ),
                                (.introductoryOffer, discount.charge == .introductoryOffer ? .bool(true) : nil),
                            ])
                        })
            ),
        ])
    }

    static func json(_ policies: Policies) -> JSONValue {
        let nonProduction: JSONValue
        switch policies.nonProduction {
        case .newCustomer: nonProduction = PlanKeys.NonProduction.object([.treatAs: .string("newCustomer")])
        case .tier(let id): nonProduction = PlanKeys.NonProduction.object([.treatAs: .string("tier"), .tier: .string(id)])
        }
        let failure: JSONValue
        switch policies.verificationFailure {
        case .deny: failure = PlanKeys.VerificationFailure.object([.action: .string("deny")])
        case .keepLastVerified(let days):
            failure = PlanKeys.VerificationFailure.object([.action: .string("keepLastVerified"), .days: .integer(days)])
        }
        let grant = policies.provisionalGrant.map {
            PlanKeys.ProvisionalGrant.object([.tier: .string($0.tier), .days: .integer($0.days)])
        }
        return PlanKeys.Policies.members([
            (.nonProduction, nonProduction),
            (.verificationFailure, failure),
            (.familySharing, .string(policies.familySharing.rawValue)),
            (.cutoffRule, .string(policies.cutoffRule.rawValue)),
            (.provisionalGrant, grant),
        ])
    }

    static func json(_ base: InstallBase) -> JSONValue {
        let months: JSONValue? =
            base.months.isEmpty
            ? nil : .array(base.months.map { PlanKeys.MonthlyDownloads.members([(.month, .string($0.month)), (.paid, .integer($0.paid))]) })
        return PlanKeys.InstallBase.members([
            (.from, base.from.map { .string(Timestamp.format($0)) }),
            (.until, base.until.map { .string(Timestamp.format($0)) }),
            (
                .downloads,
                .array(
                    base.downloads.map { count in
                        PlanKeys.DownloadCount.members([
                            (.platform, count.platform.map { .string($0.rawValue) }),
                            (.version, count.version.map { .string($0.text) }),
                            (.paid, .integer(count.paid)),
                            (.free, .integer(count.free)),
                            (.refunds, count.refunds == 0 ? nil : .integer(count.refunds)),
                        ])
                    })
            ),
            (
                .products,
                .array(
                    base.products.map { count in
                        PlanKeys.ProductCount.members([
                            (.product, .string(count.product)),
                            (.units, .integer(count.units)),
                            (.refunds, count.refunds == 0 ? nil : .integer(count.refunds)),
                        ])
                    })
            ),
            (.months, months),
        ])
    }
}
