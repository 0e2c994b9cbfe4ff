import MigrateSupport

/// The JSON Schema (draft 2020-12) of `migration.json`, for editor completion and validation.
///
/// Every object's properties are the cases of its `PlanKeys` enum, described in an exhaustive switch, so the
/// schema lists exactly the keys the decoder accepts.
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
            "required": .strings([PlanKeys.Root.app.rawValue]),
            "additionalProperties": .bool(false),
            "properties": properties(PlanKeys.Root.self) { key in
                switch key {
                case .schema: string("The URL or path of this schema, for editors.")
                case .formatVersion: .object(["description": .string("The plan format; 1."), "const": .integer(1)])
                case .app: app
                case .features: list(feature, "Everything a customer can be entitled to. Ids are stable: generated code and tests use them.")
                case .releases: list(release, "Builds that went live, per platform, with how each was sold.")
                case .products: list(product, "In-app products, sold now or in the past; retired products keep entitling.")
                case .tiers: list(tier, "Legacy tiers: what buyers of each era keep. Leave out to derive one tier per paid offering.")
                case .policies: policies
                case .installBase: installBase
                case .simulation: simulation
                case .directSales: directSales
                }
            },
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
                    "description": .string(
                        "ISO 8601 with a zone, such as \"2012-02-08T17:00:00Z\"; a date alone means midnight UTC, except in a go-live ('released'): the end of that day everywhere on Earth."
                    ),
                ]),
                "distribution": distribution,
                "featureIDs": .object(["type": .string("array"), "items": .object(["type": .string("string")]), "uniqueItems": .bool(true)]),
            ]),
        ])
    }

    static func string(_ description: String) -> JSONValue {
        .object(["type": .string("string"), "description": .string(description)])
    }

    static func reference(_ name: String, _ description: String) -> JSONValue {
        .object(["$ref": .string("#/$defs/\(name)"), "description": .string(description)])
    }

    static func enumeration(_ values: [String], _ description: String) -> JSONValue {
        .object(["type": .string("string"), "enum": .strings(values), "description": .string(description)])
    }

    static func list(_ item: JSONValue, _ description: String) -> JSONValue {
        .object(["type": .string("array"), "description": .string(description), "items": item])
    }

    /// An object whose properties are `Key`'s cases, each described by `property`: the switch there is exhaustive, so
    /// a key the decoder accepts can't be missing from the schema.
    static func object<Key: PlanObjectKeys>(
        _ keys: Key.Type, required: [Key], _ description: String, property: (Key) -> JSONValue
    ) -> JSONValue {
        .object([
            "type": .string("object"),
            "description": .string(description),
            "required": .strings(required.map(\.rawValue)),
            "additionalProperties": .bool(false),
            "properties": properties(Key.self, property),
        ])
    }

    private static func properties<Key: PlanObjectKeys>(_ keys: Key.Type, _ property: (Key) -> JSONValue) -> JSONValue {
        .object(Key.allCases.map { JSONMember(key: $0.rawValue, value: JSONNode(property($0))) })
    }

    static let app = object(PlanKeys.App.self, required: [.name, .bundleID, .platforms], "The app.") { key in
        switch key {
        case .name: string("The app's name.")
        case .bundleID: string("CFBundleIdentifier.")
        case .platforms:
            .object([
                "type": .string("array"), "minItems": .integer(1), "uniqueItems": .bool(true),
                "items": .object(["$ref": .string("#/$defs/platform")]), "description": .string("Where the app runs."),
            ])
        case .universalPurchase:
            .object([
                "type": .string("boolean"),
                "description": .string("True when iOS and macOS share one App Store record (one purchase covers both)."),
            ])
        case .sku:
            string(
                "The SKU chosen in App Store Connect (App Information), as sales reports name the app: needed only when it is neither the bundle id nor found through the plan's products."
            )
        case .appleID:
            .object([
                "type": .string("string"), "pattern": .string("^[0-9]{1,20}$"),
                "description": .string("The app's Apple ID, the number in its App Store URL; sales reports name the app by it (Apple Identifier)."),
            ])
        }
    }

    static let feature = object(PlanKeys.Feature.self, required: [.id], "A feature.") { key in
        switch key {
        case .id: string("A stable id such as \"dark-mode\".")
        case .name: string("What customers call it.")
        }
    }

    static let release = object(
        PlanKeys.Release.self, required: [.platform, .version, .released, .model], "A build that went live on the App Store."
    ) { key in
        switch key {
        case .platform: .object(["$ref": .string("#/$defs/platform")])
        case .version: reference("version", "CFBundleShortVersionString, the marketing version.")
        case .build: reference("version", "CFBundleVersion, the build number; required except on macOS.")
        case .released: reference("dateTime", "When the build went live (UTC); the date rule compares purchases with it.")
        case .releasedSource:
            enumeration(
                PlanKeys.releasedSources,
                "Where 'released' came from: appStore (confirmed in App Store Connect), sales (first day sold), ascCreated, tag, commit, or planned (a go-live still to come)."
            )
        case .model: enumeration(PlanKeys.models, "How this release was sold.")
        case .price: reference("price", "The download price of a paid release.")
        case .includes:
            reference(
                "featureIDs", "Paid: what the price bought. Free: what is free to everyone. Omitted: as the previous release of the same model.")
        }
    }

    static let product = object(PlanKeys.Product.self, required: [.id, .type, .price], "An in-app product.") { key in
        switch key {
        case .id: string("The App Store product id.")
        case .name: string("The display name.")
        case .type: enumeration(PlanKeys.productTypes, "The in-app purchase type.")
        case .price: reference("price", "The price in the app's main storefront.")
        case .grants: reference("featureIDs", "Features this product unlocks.")
        case .contains:
            .object([
                "type": .string("array"), "items": .object(["type": .string("string")]),
                "description": .string("Products this bundle contains; owning the bundle entitles theirs."),
            ])
        case .requires: reference("featureIDs", "Offer this add-on only to customers who already have these features.")
        case .trial:
            .object([
                "type": .string("string"), "pattern": .string("^P(?:[0-9]{1,4}Y)?(?:[0-9]{1,4}M)?(?:[0-9]{1,4}W)?(?:[0-9]{1,4}D)?$"),
                "description": .string(
                    "A free trial's length (ISO 8601, such as \"P14D\"): a nonConsumable at price 0 that grants for this long after its purchase."),
            ])
        case .duration:
            .object([
                "type": .string("string"), "pattern": .string("^P(?:[0-9]{1,5}Y)?(?:[0-9]{1,5}M)?(?:[0-9]{1,5}W)?(?:[0-9]{1,5}D)?$"),
                "description": .string(
                    "How long one purchase of a nonRenewing subscription lasts (ISO 8601, such as \"P1Y\"; at most P100Y, for a lifetime pass): it grants for this long after its purchase date, then no more."
                ),
            ])
        case .forSale: .object(["type": .string("boolean"), "description": .string("False for retired products, which keep entitling.")])
        case .familyShareable: .object(["type": .string("boolean"), "description": .string("Family Sharing is on in App Store Connect.")])
        case .subscription:
            object(PlanKeys.Subscription.self, required: [.group, .period], "Required for autoRenewable products.") { key in
                switch key {
                case .group: string("The subscription group.")
                case .level: .object(["type": .string("integer"), "minimum": .integer(1), "description": .string("1 is the highest level.")])
                case .period: enumeration(PlanKeys.subscriptionPeriods, "The renewal period.")
                case .introductoryOffer:
                    object(
                        PlanKeys.IntroductoryOffer.self, required: [.paymentMode, .period],
                        "The introductory offer new subscribers of the group get, as in App Store Connect."
                    ) { key in
                        switch key {
                        case .paymentMode:
                            enumeration(
                                PlanKeys.paymentModes,
                                "freeTrial (nothing for 'period'), payUpFront ('price' once for 'period') or payAsYouGo ('price' a period for 'periods' periods)."
                            )
                        case .period: enumeration(PlanKeys.introductoryPeriods, "How long it lasts; for payAsYouGo, one period.")
                        case .periods:
                            .object([
                                "type": .string("integer"), "minimum": .integer(PlanKeys.introductoryPeriodCounts.lowerBound),
                                "maximum": .integer(PlanKeys.introductoryPeriodCounts.upperBound),
                                "description": .string("payAsYouGo: how many periods. Default 1."),
                            ])
                        case .price: reference("price", "What it charges (payUpFront, payAsYouGo); none for a free trial.")
                        }
                    }
                }
            }
        }
    }

    static let tier = object(PlanKeys.Tier.self, required: [.id], "A legacy tier.") { key in
        switch key {
        case .id: string("A stable id such as \"paid-era\".")
        case .name: string("What the tier is called in reports.")
        case .from: reference("dateTime", "Buyers of releases that went live at or after this moment…")
        case .until: reference("dateTime", "…and before this one.")
        case .platforms:
            .object([
                "type": .string("array"), "items": .object(["$ref": .string("#/$defs/platform")]),
                "description": .string("Only purchases first made on these platforms."),
            ])
        case .grants:
            reference(
                "featureIDs", "What the tier keeps; omitted: what its buyers had when the app went free, free updates included.")
        case .takesAway:
            reference(
                "featureIDs",
                "Features free updates brought the tier's buyers that 'grants' leaves out on purpose; check refuses a take-away not listed here.")
        case .discounts:
            .object([
                "type": .string("array"), "description": .string("Legacy prices instead of (or on top of) free access."),
                "items": object(
                    PlanKeys.Discount.self, required: [.product, .price], "A legacy price and the mechanism that makes the App Store charge it."
                ) { key in
                    switch key {
                    case .product: string("A product id.")
                    case .price: reference("price", "The legacy price.")
                    case .promotionalOffer:
                        .object([
                            "type": .string("string"), "pattern": .string("^[A-Za-z0-9._-]{1,\(LegacyCharge.maximumOfferIDLength)}$"),
                            "description": .string(
                                "For an autoRenewable product: the App Store Connect identifier of the promotional offer that charges the legacy price. Give this or legacyProduct."
                            ),
                        ])
                    case .legacyProduct:
                        string(
                            "A separate product sold only to this tier at the legacy price, granting what the regular one does (for a subscription, in a group of its own). Give one mechanism."
                        )
                    case .introductoryOffer:
                        .object([
                            "type": .string("boolean"),
                            "description": .string(
                                "Refused by check (introductory-offer-for-everyone): the App Store gives a subscription's introductory offer to every customer new to its group, so the legacy price would reach new subscribers. Use legacyProduct."
                            ),
                        ])
                    }
                },
            ])
        }
    }

    static let installBase = object(
        PlanKeys.InstallBase.self, required: [], "Who bought what, from sales reports (migrate import sales); sizes cohorts in simulations."
    ) { key in
        switch key {
        case .from: reference("dateTime", "The first day the sales reports cover.")
        case .until: reference("dateTime", "The last day they cover, inclusive.")
        case .downloads:
            list(
                object(PlanKeys.DownloadCount.self, required: [], "Downloads of one marketing version.") { key in
                    switch key {
                    case .platform: .object(["$ref": .string("#/$defs/platform")])
                    case .version: reference("version", "The marketing version (sales reports never carry the build).")
                    case .paid:
                        .object([
                            "type": .string("integer"), "minimum": .integer(0), "description": .string("Paid downloads, net of refunds."),
                        ])
                    case .free: .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Free first-time downloads.")])
                    case .refunds: .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Refunded downloads.")])
                    }
                }, "App downloads per platform and marketing version.")
        case .products:
            list(
                object(PlanKeys.ProductCount.self, required: [.product, .units], "Sales of one product.") { key in
                    switch key {
                    case .product: string("A product id.")
                    case .units: .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Units sold, net of refunds.")])
                    case .refunds: .object(["type": .string("integer"), "minimum": .integer(0), "description": .string("Refunded units.")])
                    }
                }, "In-app purchases per product.")
        case .months:
            list(
                object(PlanKeys.MonthlyDownloads.self, required: [.month, .paid], "Paid downloads in one month.") { key in
                    switch key {
                    case .month:
                        .object([
                            "type": .string("string"), "pattern": .string("^[0-9]{4}-(0[1-9]|1[0-2])$"),
                            "description": .string("A calendar month, UTC: 2011-03."),
                        ])
                    case .paid:
                        .object([
                            "type": .string("integer"), "minimum": .integer(0), "description": .string("Paid downloads that month, net of refunds."),
                        ])
                    }
                }, "Paid downloads per month, oldest first: simulate fits its staying-paid trend to them.")
        }
    }

    static let policies = object(PlanKeys.Policies.self, required: [], "Decisions for cases the App Store leaves open.") { key in
        switch key {
        case .nonProduction:
            object(PlanKeys.NonProduction.self, required: [.treatAs], "What a tester is.") { key in
                switch key {
                case .treatAs: enumeration(PlanKeys.nonProductionChoices, "Sandbox, TestFlight and Xcode report \"1.0\" for everyone.")
                case .tier: string("The tier testers belong to, with treatAs \"tier\".")
                }
            }
        case .verificationFailure:
            object(PlanKeys.VerificationFailure.self, required: [.action], "Never let your own bug lock out payers.") { key in
                switch key {
                case .action: enumeration(PlanKeys.verificationFailureChoices, "What to do when a signature doesn't verify.")
                case .days:
                    .object([
                        "type": .string("integer"), "minimum": .integer(PlanKeys.keepLastVerifiedDays.lowerBound),
                        "maximum": .integer(PlanKeys.keepLastVerifiedDays.upperBound),
                    ])
                }
            }
        case .familySharing: enumeration(PlanKeys.familySharingChoices, "Whether family-shared purchases entitle.")
        case .cutoffRule: enumeration(PlanKeys.cutoffRuleChoices, "automatic uses the version unless it is ambiguous, then the purchase date.")
        case .provisionalGrant:
            object(
                PlanKeys.ProvisionalGrant.self, required: [.tier, .days],
                "Absent: a first launch offline is checked, nothing granted. Set: the app's own evidence grants a tier for a few days."
            ) { key in
                switch key {
                case .tier: string("The legacy tier granted until the App Store answers.")
                case .days:
                    .object([
                        "type": .string("integer"), "minimum": .integer(PlanKeys.provisionalGrantDays.lowerBound),
                        "maximum": .integer(PlanKeys.provisionalGrantDays.upperBound),
                    ])
                }
            }
        }
    }

    static let distribution = JSONValue.object([
        "description": .string("A number, or a distribution to draw it from in Monte Carlo runs."),
        "oneOf": .array([
            .object(["type": .string("number")]),
            object(PlanKeys.Distribution.self, required: [.distribution], "A distribution.") { key in
                switch key {
                case .distribution:
                    enumeration(
                        PlanKeys.distributions,
                        "point: value; uniform: low, high; triangular: low, mode, high; logNormal: low and high are the 10th and 90th percentiles.")
                case .value: .object(["type": .string("number")])
                case .low: .object(["type": .string("number")])
                case .mode: .object(["type": .string("number")])
                case .high: .object(["type": .string("number")])
                }
            },
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
        object(PlanKeys.Simulation.self, required: [], "What migrate simulate assumes, and the scenarios it compares.") { key in
            switch key {
            case .horizonMonths:
                .object([
                    "type": .string("integer"), "minimum": .integer(1), "maximum": .integer(120),
                    "description": .string("Months to simulate; default 24."),
                ])
            case .commission: enumeration(PlanKeys.commissions, "standard (30%) or smallBusiness (15%, App Store Small Business Program).")
            case .assumptions: assumptions
            case .seasonality:
                .object([
                    "type": .string("array"), "minItems": .integer(12), "maxItems": .integer(12),
                    "items": .object(["type": .string("number"), "minimum": .integer(0)]),
                    "description": .string(
                        "Twelve relative weights of the calendar months, January first: how downloads and sales rise and fall over the year. Default: from installBase.months when they cover a year, else every month alike."
                    ),
                ])
            case .scenarios:
                list(
                    object(PlanKeys.Scenario.self, required: [.id], "A named variation of the plan.") { key in
                        switch key {
                        case .id: string("A stable id, such as \"unlock-9.99\".")
                        case .name: string("What reports call it.")
                        case .assumptions: assumptions
                        case .prices:
                            .object([
                                "type": .string("array"), "description": .string("Other prices for products in this scenario."),
                                "items": object(PlanKeys.ScenarioPrice.self, required: [.product, .price], "A price.") { key in
                                    switch key {
                                    case .product: string("A product id.")
                                    case .price: reference("price", "The price.")
                                    }
                                },
                            ])
                        case .tiers: list(tier, "Replaces the plan's tiers in this scenario.")
                        case .commission: enumeration(PlanKeys.commissions, "Overrides the simulation's commission.")
                        }
                    }, "Scenarios compared side by side.")
            }
        }
    }
}
