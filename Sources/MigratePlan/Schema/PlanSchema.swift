import MigrateSupport

/// The JSON Schema (draft 2020-12) of `migration.json`, for editor completion and validation.
///
/// `PlanKeys` lists the same keys for the decoder; a test keeps the two in step.
public enum PlanSchema {
    /// The file name a plan's `"$schema"` points at, written beside a plan `init` or `import` creates.
    public static let fileName = "migration.schema.json"

    /// The schema as `migrate schema` prints it and as it is written beside a new plan: the same bytes.
    public static var text: String {
        JSONWriter(sortsKeys: true).string(from: document)
    }

    public static var document: JSONValue {
        .object([
            "$schema": .string("https://json-schema.org/draft/2020-12/schema"),
            "$id": .string("https://migrate.invalid/schema/migration-plan-v1.json"),
            "title": .string("migrate: migration plan"),
            "description": .string("One app's move from a paid download to freemium: its releases, features, products, legacy tiers and policies."),
            "type": .string("object"),
            "required": .strings(["app"]),
            "additionalProperties": .bool(false),
            "properties": .object([
                "$schema": string("The URL or path of this schema, for editors."),
                "formatVersion": .object(["description": .string("The plan format; 1."), "const": .integer(1)]),
                "app": app,
                "features": list(feature, "Everything a customer can be entitled to. Ids are stable: generated code and tests use them."),
                "releases": list(release, "Builds that went live, per platform, with how each was sold."),
                "products": list(product, "In-app products, sold now or in the past; retired products keep entitling."),
                "tiers": list(tier, "Legacy tiers: what buyers of each era keep. Leave out to derive one tier per paid offering."),
                "policies": policies,
                "installBase": installBase,
                "simulation": simulation,
            ]),
            "$defs": .object([
                "platform": enumeration(Platform.allCases.map(\.rawValue), "An Apple platform."),
                "version": .object([
                    "type": .string("string"), "pattern": .string("^[0-9]+(\\.[0-9]+)*$"),
                    "description": .string("One to three period-separated non-negative integers, compared numerically (1.10 > 1.9)."),
                ]),
                "price": .object([
                    "type": .string("string"), "pattern": .string("^[0-9]+(\\.[0-9]{1,4})?$"),
                    "description": .string("A decimal string such as \"4.99\"; never a JSON number."),
                ]),
                "dateTime": .object([
                    "type": .string("string"), "format": .string("date-time"),
                    "description": .string("ISO 8601 with a zone, such as \"2012-02-08T17:00:00Z\"; a date alone means midnight UTC."),
                ]),
                "distribution": distribution,
                "featureIDs": .object(["type": .string("array"), "items": .object(["type": .string("string")]), "uniqueItems": .bool(true)]),
            ]),
        ])
    }

    private static func string(_ description: String) -> JSONValue {
        .object(["type": .string("string"), "description": .string(description)])
    }

    private static func reference(_ name: String, _ description: String) -> JSONValue {
        .object(["$ref": .string("#/$defs/\(name)"), "description": .string(description)])
    }

    private static func enumeration(_ values: [String], _ description: String) -> JSONValue {
        .object(["type": .string("string"), "enum": .strings(values), "description": .string(description)])
    }

    private static func list(_ item: JSONValue, _ description: String) -> JSONValue {
        .object(["type": .string("array"), "description": .string(description), "items": item])
    }

    private static func object(_ required: [String], _ properties: KeyValuePairs<String, JSONValue>, _ description: String) -> JSONValue {
        .object([
            "type": .string("object"),
            "description": .string(description),
            "required": .strings(required),
            "additionalProperties": .bool(false),
            "properties": .object(properties),
        ])
    }

    static let app = object(
        ["name", "bundleID", "platforms"],
        [
            "name": string("The app's name."),
            "bundleID": string("CFBundleIdentifier."),
            "platforms": .object([
                "type": .string("array"), "minItems": .integer(1), "uniqueItems": .bool(true),
                "items": .object(["$ref": .string("#/$defs/platform")]), "description": .string("Where the app runs."),
            ]),
            "universalPurchase": .object([
                "type": .string("boolean"),
                "description": .string("True when iOS and macOS share one App Store record (one purchase covers both)."),
            ]),
        ], "The app.")

    static let feature = object(
        ["id"],
        ["id": string("A stable id such as \"dark-mode\"."), "name": string("What customers call it.")],
        "A feature.")

    static let release = object(
        ["platform", "version", "released", "model"],
        [
            "platform": .object(["$ref": .string("#/$defs/platform")]),
            "version": reference("version", "CFBundleShortVersionString, the marketing version."),
            "build": reference("version", "CFBundleVersion, the build number; required except on macOS."),
            "released": reference("dateTime", "When the build went live (UTC); the date rule compares purchases with it."),
            "releasedSource": enumeration(
                PlanKeys.releasedSources,
                "Where 'released' came from: appStore (confirmed in App Store Connect), sales (first day sold), ascCreated, tag or commit."),
            "model": enumeration(PlanKeys.models, "How this release was sold."),
            "price": reference("price", "The download price of a paid release."),
            "includes": reference(
                "featureIDs", "Paid: what the price bought. Free: what is free to everyone. Omitted: as the previous release of the same model."),
        ], "A build that went live on the App Store.")

    static let product = object(
        ["id", "type", "price"],
        [
            "id": string("The App Store product id."),
            "name": string("The display name."),
            "type": enumeration(PlanKeys.productTypes, "The in-app purchase type."),
            "price": reference("price", "The price in the app's main storefront."),
            "grants": reference("featureIDs", "Features this product unlocks."),
            "contains": .object([
                "type": .string("array"), "items": .object(["type": .string("string")]),
                "description": .string("Products this bundle contains; owning the bundle entitles theirs."),
            ]),
            "requires": reference("featureIDs", "Offer this add-on only to customers who already have these features."),
            "trial": .object([
                "type": .string("string"), "pattern": .string("^P(?:[0-9]{1,4}Y)?(?:[0-9]{1,4}M)?(?:[0-9]{1,4}W)?(?:[0-9]{1,4}D)?$"),
                "description": .string(
                    "A free trial's length (ISO 8601, such as \"P14D\"): a nonConsumable at price 0 that grants for this long after its purchase."),
            ]),
            "forSale": .object(["type": .string("boolean"), "description": .string("False for retired products, which keep entitling.")]),
            "familyShareable": .object(["type": .string("boolean"), "description": .string("Family Sharing is on in App Store Connect.")]),
            "subscription": object(
                ["group", "period"],
                [
                    "group": string("The subscription group."),
                    "level": .object(["type": .string("integer"), "minimum": .integer(1), "description": .string("1 is the highest level.")]),
                    "period": enumeration(PlanKeys.subscriptionPeriods, "The renewal period."),
                ], "Required for autoRenewable products."),
        ], "An in-app product.")

    static let tier = object(
        ["id"],
        [
            "id": string("A stable id such as \"paid-era\"."),
            "name": string("What the tier is called in reports."),
            "from": reference("dateTime", "Buyers of releases that went live at or after this moment…"),
            "until": reference("dateTime", "…and before this one."),
            "platforms": .object([
                "type": .string("array"), "items": .object(["$ref": .string("#/$defs/platform")]),
                "description": .string("Only purchases first made on these platforms."),
            ]),
            "grants": reference("featureIDs", "What the tier keeps; omitted: what its paid releases included."),
            "discounts": .object([
                "type": .string("array"), "description": .string("Legacy prices instead of (or on top of) free access."),
                "items": object(
                    ["product", "price"],
                    [
                        "product": string("A product id."), "price": reference("price", "The legacy price."),
                        PlanKeys.promotionalOffer: .object([
                            "type": .string("string"), "pattern": .string("^[A-Za-z0-9._-]{1,\(LegacyCharge.maximumOfferIDLength)}$"),
                            "description": .string(
                                "For an autoRenewable product: the App Store Connect identifier of the promotional offer that charges the legacy price. Give this or legacyProduct."
                            ),
                        ]),
                        PlanKeys.legacyProduct: string(
                            "For a non-consumable: a separate product sold only to this tier at the legacy price, granting what the regular one does. Give this or promotionalOffer."
                        ),
                    ], "A legacy price and the mechanism that makes the App Store charge it."),
            ]),
        ], "A legacy tier.")

    static let installBase = object(
        [],
        [
            "from": reference("dateTime", "The first day the sales reports cover."),
            "until": reference("dateTime", "The last day they cover, inclusive."),
            "downloads": list(
                object(
                    [],
                    [
                        "platform": .object(["$ref": .string("#/$defs/platform")]),
                        "version": reference("version", "The marketing version (sales reports never carry the build)."),
                        "paid": .object([
                            "type": .string("integer"), "minimum": .integer(0), "description": .string("Paid downloads, net of refunds."),
                        ]),
                        "free": .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Free first-time downloads.")]),
                        "refunds": .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Refunded downloads.")]),
                    ], "Downloads of one marketing version."), "App downloads per platform and marketing version."),
            "products": list(
                object(
                    ["product", "units"],
                    [
                        "product": string("A product id."),
                        "units": .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Units sold, net of refunds.")]),
                        "refunds": .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Refunded units.")]),
                    ], "Sales of one product."), "In-app purchases per product."),
            "months": list(
                object(
                    ["month", "paid"],
                    [
                        "month": .object([
                            "type": .string("string"), "pattern": .string("^[0-9]{4}-(0[1-9]|1[0-2])$"),
                            "description": .string("A calendar month, UTC: 2011-03."),
                        ]),
                        "paid": .object([
                            "type": .string("integer"), "minimum": .integer(0), "description": .string("Paid downloads that month, net of refunds."),
                        ]),
                    ], "Paid downloads in one month."), "Paid downloads per month, oldest first: simulate fits its staying-paid trend to them."),
        ], "Who bought what, from sales reports (migrate import sales); sizes cohorts in simulations.")

    static let policies = object(
        [],
        [
            "nonProduction": object(
                ["treatAs"],
                [
                    "treatAs": enumeration(PlanKeys.nonProductionChoices, "Sandbox, TestFlight and Xcode report \"1.0\" for everyone."),
                    "tier": string("The tier testers belong to, with treatAs \"tier\"."),
                ], "What a tester is."),
            "verificationFailure": object(
                ["action"],
                [
                    "action": enumeration(PlanKeys.verificationFailureChoices, "What to do when a signature doesn't verify."),
                    "days": .object([
                        "type": .string("integer"), "minimum": .integer(PlanKeys.keepLastVerifiedDays.lowerBound),
                        "maximum": .integer(PlanKeys.keepLastVerifiedDays.upperBound),
                    ]),
                ], "Never let your own bug lock out payers."),
            "familySharing": enumeration(PlanKeys.familySharingChoices, "Whether family-shared purchases entitle."),
            "cutoffRule": enumeration(PlanKeys.cutoffRuleChoices, "automatic uses the version unless it is ambiguous, then the purchase date."),
        ], "Decisions for cases the App Store leaves open.")

    static let distribution = JSONValue.object([
        "description": .string("A number, or a distribution to draw it from in Monte Carlo runs."),
        "oneOf": .array([
            .object(["type": .string("number")]),
            object(
                ["distribution"],
                [
                    "distribution": enumeration(
                        PlanKeys.distributions,
                        "point: value; uniform: low, high; triangular: low, mode, high; logNormal: low and high are the 10th and 90th percentiles."),
                    "value": .object(["type": .string("number")]),
                    "low": .object(["type": .string("number")]),
                    "mode": .object(["type": .string("number")]),
                    "high": .object(["type": .string("number")]),
                ], "A distribution."),
        ]),
    ])

    static var assumptions: JSONValue {
        .object([
            "type": .string("object"),
            "description": .string("Numbers the simulation assumes; each a number or a distribution. Leave out for the documented defaults."),
            "additionalProperties": .bool(false),
            "properties": .object(
                SimulationAssumption.allCases.map { assumption in
                    JSONMember(
                        key: assumption.rawValue,
                        value: JSONNode(.object(["$ref": .string("#/$defs/distribution"), "description": .string(assumption.meaning)])))
                }),
        ])
    }

    static var simulation: JSONValue {
        object(
            [],
            [
                "horizonMonths": .object([
                    "type": .string("integer"), "minimum": .integer(1), "maximum": .integer(120),
                    "description": .string("Months to simulate; default 24."),
                ]),
                "commission": enumeration(PlanKeys.commissions, "standard (30%) or smallBusiness (15%, App Store Small Business Program)."),
                "assumptions": assumptions,
                "scenarios": list(
                    object(
                        ["id"],
                        [
                            "id": string("A stable id, such as \"unlock-9.99\"."),
                            "name": string("What reports call it."),
                            "assumptions": assumptions,
                            "prices": .object([
                                "type": .string("array"), "description": .string("Other prices for products in this scenario."),
                                "items": object(
                                    ["product", "price"], ["product": string("A product id."), "price": reference("price", "The price.")],
                                    "A price."),
                            ]),
                            "tiers": list(tier, "Replaces the plan's tiers in this scenario."),
                            "commission": enumeration(PlanKeys.commissions, "Overrides the simulation's commission."),
                        ], "A named variation of the plan."), "Scenarios compared side by side."),
            ], "What migrate simulate assumes, and the scenarios it compares.")
    }
}
