import Foundation
import MigrateCore
import MigrateImport
import MigratePlan

/// Turns the wizard's answers into a plan; the only place that knows how answers map to plan fields.
public enum PlanBuilder {
    /// The plan the answers describe. A `draft` fills what is not answered yet with placeholders,
    /// so the engine can say which cutoff rule it will use as soon as the releases are known.
    public static func plan(_ answers: WizardAnswers, facts: WizardFacts, draft: Bool = false) -> MigrationPlan {
        let platforms = answers.platforms ?? []
        let app = AppInfo(
            name: answers.appName ?? facts.app.name ?? "App", bundleID: answers.bundleID ?? facts.app.bundleID ?? "com.example.app",
            platforms: platforms.isEmpty ? Array(Set(answers.allReleases.map(\.platform))).sorted() : platforms,
            // Asked whenever the platforms span several records; unanswered (a draft), one bundle id is one purchase.
            universalPurchase: answers.universalPurchase ?? Platform.spansStores(platforms))
        // Asked before any plan is written; only a draft (the cutoff lines) is built before it, and its price says nothing.
        let price = answers.price ?? Price(tenThousandths: 0)
        var releases: [Release] = []
        let all = answers.allReleases
        // The planned releases that start selling what the free ones gave away come last.
        let firstFreemium = all.count - answers.freemiumReleases.count
        for (index, imported) in all.enumerated() {
            var imported = imported
            if index == answers.firstFree, index < answers.releases.count, let goLive = answers.freeGoLive {
                imported.date = goLive
                if answers.freeGoLiveConfirmed { imported.provenance = answers.freeGoLivePlanned ? .planned : .appStore }
            }
            if index < answers.releases.count, index == answers.listedFreeRelease(on: imported.platform),
                let own = answers.platformGoLives[imported.platform]
            {
                imported.date = own.date
                if own.confirmed { imported.provenance = own.planned ? .planned : .appStore }
            }
            let paid = answers.isPaid(index)
            var includes: [String]?
            if paid {
                includes = answers.includes(ofRelease: index)
                if draft && includes!.isEmpty { includes = ["draft"] }
            } else if let gave = answers.gaveAway, !gave.isEmpty, index < answers.releases.count {
                // A listed free release of an app free already gave these to everyone who downloaded it.
                includes = gave
            } else if index >= firstFreemium {
                includes = []  // sells what the free releases gave: its downloaders buy it
            }
            releases.append(
                Release(
                    platform: imported.platform, version: imported.version, build: imported.build, released: imported.date,
                    releasedSource: imported.provenance, model: paid ? .paid(price) : .free, includes: includes))
        }
        var features = answers.features ?? []
        if draft && features.isEmpty { features = [Feature(id: "draft", name: "Draft")] }
        var products = answers.products
        for index in products.indices {
            if let grants = answers.grants[products[index].id] { products[index].grants = grants }
            if let duration = answers.durations[products[index].id] { products[index].duration = duration }
            // A product typed here has no .storekit to say; when the plan lets Family Sharing entitle, it is shared, as
            // the family of a paid-app buyer shared the app. An imported product keeps its file's setting.
            if products[index].id == answers.newProduct?.id, products[index].kind != .consumable, answers.familySharing != .ignored {
                products[index].familyShareable = true
            }
        }
        let eras = answers.eras
        var tiers: [LegacyTier] = []
        for (number, era) in eras.enumerated() {
            var tier = LegacyTier(
                id: "era-\(number + 1)", name: "Bought \(era.label)", from: number == 0 ? nil : era.from, until: era.until)
            switch answers.eraTreatments[number] ?? .keepWhatTheyBought {
            case .keepWhatTheyBought:
                break  // no grants: the tier keeps what its buyers had at the switch, free updates included
            case .paidUpgrade:
                tier.grants = era.features
                tier.takesAway = era.hadAtSwitch.filter { !era.features.contains($0) }
            case .everything:
                tier.grants = features.map(\.id)
            case .discount(let product, let price):
                if !product.isEmpty {
                    let (charge, legacy) = legacyCharge(for: product, price: price, tier: tier.id, products: products)
                    tier.discounts = [Discount(product: product, price: price, charge: charge)]
                    if let legacy, !products.contains(where: { $0.id == legacy.id }) { products.append(legacy) }
                }
            }
            tiers.append(tier)
        }
        // The free era's downloaders keep what the free releases gave them, until the release that sells it.
        if let gave = answers.gaveAway, !gave.isEmpty, let from = answers.freeDate, let until = answers.freemiumReleases.map(\.date).min() {
            let listed = answers.releases.indices.filter { !answers.isPaid($0) && $0 >= (answers.firstFree ?? 0) }.map {
                answers.releases[$0].version
            }
            let label = listed.first.map { first in
                listed.last.map { $0.canonical == first.canonical ? first.text : "\(first.text) – \($0.text)" } ?? first.text
            }
            tiers.append(
                LegacyTier(
                    id: "free-era", name: "Downloaded free" + (label.map { " (\($0))" } ?? ""), from: from, until: until, grants: gave))
        }
        var policies = Policies()
        if let value = answers.nonProduction { policies.nonProduction = value }
        if let value = answers.verificationFailure { policies.verificationFailure = value }
        if let value = answers.familySharing { policies.familySharing = value }
        var simulation: SimulationSettings?
        if let downloads = answers.paidDownloads {
            // Beside a short install base too: the answer is the rate now, the reports only its average.
            simulation = SimulationSettings(assumptions: [
                AssumptionValue(name: SimulationAssumption.paidDownloadsPerMonth.rawValue, distribution: downloads.distribution)
            ])
        }
        return MigrationPlan(
            schemaReference: PlanSchema.fileName, app: app, features: features, releases: releases, products: products, tiers: tiers,
            policies: policies, installBase: facts.installBase, simulation: simulation)
    }

    /// What makes the App Store charge an era's legacy price, so the plan passes `check`: a promotional
    /// offer (`legacy.<tier>`) for a subscription, else a legacy product (`<product>.legacy`) at that price,
    /// sold only to the tier and containing the regular product. Its App Store Connect setup is the developer's.
    static func legacyCharge(for id: String, price: Price, tier: String, products: [Product]) -> (LegacyCharge, Product?) {
        guard let regular = products.first(where: { $0.id == id }) else { return (.legacyProduct(id + ".legacy"), nil) }
        if regular.kind == .autoRenewable {
            return (
                .promotionalOffer(
                    id: String(("legacy." + tier).filter { LegacyCharge.offerIDProblem(String($0)) == nil }.prefix(LegacyCharge.maximumOfferIDLength))
                ), nil
            )
        }
        let legacy = Product(
            id: id + ".legacy", name: regular.name + " (legacy price)", kind: regular.kind == .nonRenewing ? .nonRenewing : .nonConsumable,
            price: price,
            contains: [id], familyShareable: regular.familyShareable)
        return (.legacyProduct(legacy.id), legacy)
    }

    /// The columns a summary line's label takes, padded, before its value (`Policies   `): a printer that wraps a
    /// line continues it under its value.
    public static let summaryLabelWidth = 11

    /// The summary shown before writing: one line per decision, a label padded to `summaryLabelWidth` and its value.
    public static func summary(_ answers: WizardAnswers, facts: WizardFacts) -> [String] {
        let plan = plan(answers, facts: facts)
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append(label + String(repeating: " ", count: max(1, summaryLabelWidth - label.count)) + value)
        }
        add(
            "App",
            "\(plan.app.name) (\(plan.app.bundleID)) on \(plan.app.platforms.map(\.rawValue).joined(separator: ", "))\(plan.app.universalPurchase ? ", universal purchase" : "")"
        )
        // Counted per platform with its name, never one version once per platform; each platform's own free release.
        let paid = answers.paidReleases.map { answers.allReleases[$0] }
        let frees = answers.firstFreeReleases.enumerated().map { position, free in
            // The first is dated by its go-live as answered (a listed release's own date may be a tag's).
            let date = position == 0 ? answers.freeDate ?? free.date : free.date
            return "\(free.platform) \(free.displayName) on \(Wizard.goLiveDay(date))"
        }
        if !frees.isEmpty {
            let counted = paid.isEmpty ? "no paid releases" : ProjectImport.perPlatform(paid, noun: "paid release")
            add("Releases", "\(counted); free from \(frees.joined(separator: ", "))")
        }
        add("Features", plan.features.map(\.id).joined(separator: ", "))
        for product in plan.products where product.kind != .consumable {
            var terms = ""
            if let duration = product.duration { terms += ", one purchase lasting \(duration.spoken)," }
            if let offer = product.subscription?.introductoryOffer { terms += " (first \(offer.spoken))" }
            add(
                "Product",
                "\(product.id) \(product.price)\(terms) unlocks \(product.grants.isEmpty ? "nothing" : product.grants.joined(separator: ", "))"
            )
        }
        let leftOut = facts.products.filter { answers.sells[$0.id] == false }.map(\.id)
        if !leftOut.isEmpty { add("Left out", leftOut.joined(separator: ", ") + " (not this app's; not sold)") }
        for (number, era) in answers.eras.enumerated() {
            let treatment: String
            switch answers.eraTreatments[number] ?? .keepWhatTheyBought {
            case .keepWhatTheyBought: treatment = "keep " + (era.hadAtSwitch.isEmpty ? "what they had" : era.hadAtSwitch.joined(separator: ", "))
            case .paidUpgrade:
                treatment =
                    "keep " + era.features.joined(separator: ", ") + " (a paid upgrade brought "
                    + era.hadAtSwitch.filter { !era.features.contains($0) }.joined(separator: ", ") + ")"
            case .everything: treatment = "get everything"
            case .discount(let product, let price): treatment = "keep " + era.hadAtSwitch.joined(separator: ", ") + ", \(product) at \(price)"
            }
            add("Era \(number + 1)", "buyers of \(era.label) \(treatment)")
        }
        let policies = plan.policies
        var testers = "new customers"
        if case .tier(let id) = policies.nonProduction { testers = "tier \(id)" }
        var failure = "deny"
        if case .keepLastVerified(let days) = policies.verificationFailure { failure = "keep last verified for \(days) days" }
        add("Policies", "testers as \(testers); unverified: \(failure); family sharing \(policies.familySharing.rawValue)")
        if let downloads = answers.paidDownloads { add("Simulation", downloads.description) }
        return lines
    }
}
