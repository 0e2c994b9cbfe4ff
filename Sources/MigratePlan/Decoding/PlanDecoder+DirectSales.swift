import Foundation
import MigrateSupport

extension PlanDecoder {
    /// `directSales`: the stores, the editions (counts and dates only) and the offer codes' settings.
    static func decodeDirectSales(_ reader: ObjectReader<PlanKeys.DirectSales>) -> DirectSales {
        var sales = DirectSales(origin: reader.path)
        for (index, store) in (reader.strings(.stores) ?? []).enumerated() {
            let path = reader.path(.stores) / index
            guard PlanKeys.licenseStores.contains(store) else {
                let hint =
                    Suggestions.closest(to: store, in: PlanKeys.licenseStores).map { "Did you mean '\($0)'?" }
                    ?? "Use one of: \(PlanKeys.licenseStores.joined(separator: ", "))."
                reader.sink.error(.invalidValue, "unknown store '\(store)'", at: path, hint: hint)
                continue
            }
            sales.stores.append(store)
        }
        for item in reader.array(.editions) ?? [] {
            guard
                let row = ObjectReader(
                    item.node, at: item.path, sink: reader.sink, describing: "A direct-sale edition", keys: PlanKeys.DirectEdition.self)
            else { continue }
            guard let id = row.identifier(.id) else { continue }
            var edition = DirectEdition(id: id, name: row.identifier(.name, required: false) ?? id, origin: item.path)
            edition.sources = row.strings(.sources) ?? []
            edition.soldFrom = readDate(row, .soldFrom, required: false)
            edition.soldUntil = readDate(row, .soldUntil, required: false)
            if let from = edition.soldFrom, let until = edition.soldUntil, from > until {
                reader.sink.error(.invalidWindow, "'soldFrom' must not be after 'soldUntil'", at: row.path(.soldUntil))
            }
            edition.tier = row.identifier(.tier, required: false)
            edition.legacyProduct = row.identifier(.legacyProduct, required: false)
            func count(_ key: PlanKeys.DirectEdition) -> Int {
                guard let value = row.integer(key) else { return 0 }
                if value < 0 { reader.sink.error(.invalidValue, "'\(key)' must not be negative, found \(value)", at: row.path(key)) }
                return max(0, value)
            }
            edition.holders = count(.holders)
            edition.seats = count(.seats)
            edition.refunded = count(.refunded)
            if edition.seats < edition.holders {
                reader.sink.error(
                    .invalidValue, "'seats' (\(edition.seats)) is less than 'holders' (\(edition.holders)); every license has at least one seat",
                    at: row.path(.seats), hint: "Run 'migrate import licenses' again to recount, or correct the numbers.")
            }
            sales.editions.append(edition)
        }
        if let codes = reader.object(.offerCodes, as: PlanKeys.OfferCodes.self) {
            var settings = OfferCodeSettings()
            if let appID = codes.string(.appID) {
                if OfferCodeSettings.isAppID(appID) {
                    settings.appID = appID
                } else {
                    reader.sink.error(
                        .invalidValue, "'\(appID)' is not an app's Apple ID", at: codes.path(.appID),
                        hint: "Give the number in the app's App Store URL (apps.apple.com/app/id1234567890 → \"1234567890\"), as a string.")
                }
            }
            settings.expires = readDate(codes, .expires, required: false)
            sales.offerCodes = settings
        }
        return sales
    }
}

extension PlanEncoder {
    static func json(_ sales: DirectSales) -> JSONValue {
        PlanKeys.DirectSales.members([
            (.stores, sales.stores.isEmpty ? nil : .strings(sales.stores)),
            (.editions, .array(sales.editions.map(json))),
            (
                .offerCodes,
                sales.offerCodes.map { codes in
                    PlanKeys.OfferCodes.members([
                        (.appID, codes.appID.map { .string($0) }),
                        (.expires, codes.expires.map { .string(Timestamp.format($0)) }),
                    ])
                }
            ),
        ])
    }

    static func json(_ edition: DirectEdition) -> JSONValue {
        PlanKeys.DirectEdition.members([
            (.id, .string(edition.id)),
            (.name, edition.name == edition.id ? nil : .string(edition.name)),
            (.sources, edition.sources.isEmpty ? nil : .strings(edition.sources)),
            (.soldFrom, edition.soldFrom.map { .string(Timestamp.format($0)) }),
            (.soldUntil, edition.soldUntil.map { .string(Timestamp.format($0)) }),
            (.tier, edition.tier.map { .string($0) }),
            (.legacyProduct, edition.legacyProduct.map { .string($0) }),
            (.holders, .integer(edition.holders)),
            (.seats, .integer(edition.seats)),
            (.refunded, .integer(edition.refunded)),
        ])
    }
}

extension PlanSchema {
    static var directSales: JSONValue {
        object(
            PlanKeys.DirectSales.self, required: [.editions],
            "Licenses sold outside the App Store (Paddle, FastSpring, Gumroad, a plain CSV), grandfathered through one-time offer codes for a legacy product. Counts and dates only: who bought stays in your exports (migrate import licenses)."
        ) { key in
            switch key {
            case .stores:
                JSONValue.object([
                    "type": JSONValue.string("array"), "items": JSONValue.object(["enum": JSONValue.strings(PlanKeys.licenseStores)]),
                    "uniqueItems": JSONValue.bool(true), "description": JSONValue.string("The stores the licenses were sold through."),
                ])
            case .editions: list(directEdition, "The editions sold, each mapped to the tier its holders join and the product a code gives them.")
            case .offerCodes:
                object(PlanKeys.OfferCodes.self, required: [], "The App Store Connect offer behind the one-time codes.") { key in
                    switch key {
                    case .appID:
                        .object([
                            "type": .string("string"), "pattern": .string("^[0-9]{1,20}$"),
                            "description": .string("The app's Apple ID (the number in its App Store URL), for the redemption URL."),
                        ])
                    case .expires: reference("dateTime", "When the one-time codes expire (App Store Connect allows at most six months).")
                    }
                }
            }
        }
    }

    static func count(_ text: String) -> JSONValue {
        .object(["type": .string("integer"), "minimum": .integer(0), "description": .string(text)])
    }

    static var directEdition: JSONValue {
        object(PlanKeys.DirectEdition.self, required: [.id], "One edition sold directly.") { key in
            switch key {
            case .id: string("A stable id for the edition.")
            case .name: string("The edition's name; defaults to its id.")
            case .sources:
                JSONValue.object([
                    "type": JSONValue.string("array"), "items": JSONValue.object(["type": JSONValue.string("string")]),
                    "uniqueItems": JSONValue.bool(true),
                    "description": JSONValue.string(
                        "The product labels the exports give this edition's rows (Product Name, or Item Name (Variant))."),
                ])
            case .soldFrom: reference("dateTime", "The first purchase seen.")
            case .soldUntil: reference("dateTime", "The last purchase seen.")
            case .tier: string("The tier the edition's holders join.")
            case .legacyProduct: string("The in-app product an offer code gives them for free (a non-consumable, or an auto-renewable subscription).")
            case .holders: count("Licenses that count: not refunded, not duplicated.")
            case .seats: count("Seats of those licenses: one offer code each.")
            case .refunded: count("Refunded licenses, left out of holders.")
            }
        }
    }
}

extension PlanValidator {
    /// The editions' ids are unique, and their tiers and legacy products exist.
    static func directSales(_ plan: MigrationPlan, references: References) -> [Diagnostic] {
        guard let sales = plan.directSales else { return [] }
        var diagnostics: [Diagnostic] = []
        var seen: [String: JSONPath?] = [:]
        var sources: [String: String] = [:]
        for edition in sales.editions {
            if seen[edition.id] != nil {
                diagnostics.append(
                    .error(.duplicateID, "edition '\(edition.id)' is listed twice", at: edition.origin.map { $0 / PlanKeys.DirectEdition.id }))
            }
            seen[edition.id] = edition.origin
            for (index, source) in edition.sources.enumerated() {
                if let other = sources[source], other != edition.id {
                    diagnostics.append(
                        .error(
                            .duplicate, "'\(source)' is a source of editions '\(other)' and '\(edition.id)'; a row can belong to one only",
                            at: edition.origin.map { $0 / PlanKeys.DirectEdition.sources / index }))
                }
                sources[source] = edition.id
            }
            if let tier = edition.tier, let problem = references.check(tier, kind: .tier, at: edition.origin.map { $0 / PlanKeys.DirectEdition.tier })
            {
                diagnostics.append(problem)
            }
            if let product = edition.legacyProduct,
                let problem = references.check(product, kind: .product, at: edition.origin.map { $0 / PlanKeys.DirectEdition.legacyProduct })
            {
                diagnostics.append(problem)
            }
        }
        return diagnostics
    }
}
