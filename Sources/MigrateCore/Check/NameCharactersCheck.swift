import MigratePlan
import MigrateSupport

/// Names and ids that hold a control character or a bidirectional formatting character (`TextHazards`): such a
/// character acts instead of showing, in a terminal (ESC moves the cursor, BEL rings) and on a page (U+202E turns
/// the text after it around), in everything `migrate` writes and in the App Store's own screens.
enum NameCharactersCheck {
    static func check(_ plan: MigrationPlan) -> [Diagnostic] {
        var fields: [(text: String, path: JSONPath)] = []
        let app = JSONPath.root / PlanKeys.Root.app
        fields.append((plan.app.name, app / PlanKeys.App.name))
        fields.append((plan.app.bundleID, app / PlanKeys.App.bundleID))
        if let sku = plan.app.sku { fields.append((sku, app / PlanKeys.App.sku)) }
        for (index, feature) in plan.features.enumerated() {
            let path = feature.origin ?? (.root / PlanKeys.Root.features / index)
            fields += [(feature.id, path / PlanKeys.Feature.id), (feature.name, path / PlanKeys.Feature.name)]
        }
        for (index, product) in plan.products.enumerated() {
            let path = product.origin ?? (.root / PlanKeys.Root.products / index)
            fields += [(product.id, path / PlanKeys.Product.id), (product.name, path / PlanKeys.Product.name)]
            if let group = product.subscription?.group {
                fields.append((group, path / PlanKeys.Product.subscription / PlanKeys.Subscription.group))
            }
        }
        for (index, tier) in plan.tiers.enumerated() {
            let path = tier.origin ?? (.root / PlanKeys.Root.tiers / index)
            fields += [(tier.id, path / PlanKeys.Tier.id), (tier.name, path / PlanKeys.Tier.name)]
        }
        for (index, edition) in (plan.directSales?.editions ?? []).enumerated() {
            let path = edition.origin ?? (.root / PlanKeys.Root.directSales / PlanKeys.DirectSales.editions / index)
            fields += [(edition.id, path / PlanKeys.DirectEdition.id), (edition.name, path / PlanKeys.DirectEdition.name)]
        }
        return fields.compactMap { field in
            let found = TextHazards.found(in: field.text)
            guard !found.isEmpty else { return nil }
            let kinds =
                field.text.unicodeScalars.contains(where: TextHazards.isBidiControl) ? "a character that reorders text" : "a control character"
            return .error(
                .hazardInName,
                "'\(TextHazards.shown(field.text))' holds \(kinds) (\(found.joined(separator: ", "))), which acts instead of showing: "
                    + "it would reorder or hide the text around it in every screen and page that shows it",
                at: field.path, hint: "Remove \(found.joined(separator: ", ")) from the name: write it as customers should read it.")
        }
    }
}
