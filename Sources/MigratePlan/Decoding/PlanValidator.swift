/// Cross-reference checks on a decoded plan: duplicate ids, references to features and
/// products that don't exist, bundle cycles, releases on platforms the app doesn't list.
public enum PlanValidator {
    public static func validate(_ plan: MigrationPlan) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let featureIDs = plan.features.map(\.id)
        let productIDs = plan.products.map(\.id)
        let tierIDs = plan.tiers.map(\.id)

        diagnostics += duplicates(plan.features.map { ($0.id, $0.origin) }, kind: "feature")
        diagnostics += duplicates(plan.products.map { ($0.id, $0.origin) }, kind: "product")
        diagnostics += duplicates(plan.tiers.map { ($0.id, $0.origin) }, kind: "tier")

        func reference(_ id: String, to known: [String], kind: String, at path: JSONPath?) {
            guard !known.contains(id) else { return }
            let suggestion = Suggestions.closest(to: id, in: known)
            let hint = suggestion.map { "Did you mean '\($0)'?" }
                ?? (known.isEmpty ? "Declare it in '\(kind)s' first." : "Declare it in '\(kind)s', or use one of: \(known.sorted().prefix(8).joined(separator: ", ")).")
            diagnostics.append(.error("unknown-reference", "unknown \(kind) '\(id)'", at: path, hint: hint))
        }

        var seenReleases: [String: JSONPath?] = [:]
        for release in plan.releases {
            if !plan.app.platforms.contains(release.platform) {
                diagnostics.append(
                    .error(
                        "platform-not-listed", "release \(release.displayName) is for \(release.platform), which 'app.platforms' does not list",
                        at: release.origin.map { $0 / "platform" }, hint: "Add \"\(release.platform)\" to app.platforms."))
            }
            let key = Release.identity(platform: release.platform, version: release.version, build: release.build)
            if let first = seenReleases[key] {
                diagnostics.append(
                    .error(
                        "duplicate-release", "release \(release.platform) \(release.displayName) is listed twice (first at \(first?.description ?? "?"))",
                        at: release.origin))
            } else {
                seenReleases[key] = release.origin
            }
            for (index, feature) in (release.includes ?? []).enumerated() {
                reference(feature, to: featureIDs, kind: "feature", at: release.origin.map { $0 / "includes" / index })
            }
        }

        for product in plan.products {
            for (index, feature) in product.grants.enumerated() {
                reference(feature, to: featureIDs, kind: "feature", at: product.origin.map { $0 / "grants" / index })
            }
            for (index, feature) in product.requires.enumerated() {
                reference(feature, to: featureIDs, kind: "feature", at: product.origin.map { $0 / "requires" / index })
            }
            for (index, contained) in product.contains.enumerated() {
                if contained == product.id {
                    diagnostics.append(.error("bundle-cycle", "product '\(product.id)' contains itself", at: product.origin.map { $0 / "contains" / index }))
                } else {
                    reference(contained, to: productIDs, kind: "product", at: product.origin.map { $0 / "contains" / index })
                }
            }
            if product.grants.isEmpty && product.contains.isEmpty && product.kind != .consumable {
                diagnostics.append(
                    .warning(
                        "product-grants-nothing", "product '\(product.id)' grants no features and contains no products, so owning it changes nothing",
                        at: product.origin, hint: "Add 'grants' with the features it unlocks."))
            }
        }
        diagnostics += bundleCycles(plan)
        diagnostics += validateSimulation(plan)

        for tier in plan.tiers {
            for (index, feature) in (tier.grants ?? []).enumerated() {
                reference(feature, to: featureIDs, kind: "feature", at: tier.origin.map { $0 / "grants" / index })
            }
            for (index, discount) in tier.discounts.enumerated() {
                reference(discount.product, to: productIDs, kind: "product", at: tier.origin.map { $0 / "discounts" / index / "product" })
                if case .legacyProduct(let id) = discount.charge {
                    reference(id, to: productIDs, kind: "product", at: tier.origin.map { $0 / "discounts" / index / PlanKeys.legacyProduct })
                }
                if let product = plan.product(withID: discount.product), discount.price >= product.price {
                    diagnostics.append(
                        .warning(
                            "discount-not-cheaper", "the legacy price \(discount.price) for '\(discount.product)' is not below its price \(product.price)",
                            at: tier.origin.map { $0 / "discounts" / index / "price" }))
                }
            }
        }
        for (index, count) in (plan.installBase?.products ?? []).enumerated() {
            reference(count.product, to: productIDs, kind: "product", at: .root / "installBase" / "products" / index / "product")
        }
        if case .tier(let id) = plan.policies.nonProduction, !plan.tiers.isEmpty {
            reference(id, to: tierIDs, kind: "tier", at: .root / "policies" / "nonProduction" / "tier")
        }
        return diagnostics
    }

    private static func duplicates(_ items: [(id: String, origin: JSONPath?)], kind: String) -> [Diagnostic] {
        var first: [String: JSONPath?] = [:]
        var diagnostics: [Diagnostic] = []
        for item in items {
            if let earlier = first[item.id] {
                diagnostics.append(
                    .error(
                        "duplicate-id", "\(kind) id '\(item.id)' is used twice (first at \(earlier?.description ?? "?"))",
                        at: item.origin.map { $0 / "id" }, hint: "Ids must be unique; rename one of them."))
            } else {
                first[item.id] = item.origin
            }
        }
        return diagnostics
    }

    /// Finds cycles in `contains` with a depth-first search; each cycle is reported once.
    private static func bundleCycles(_ plan: MigrationPlan) -> [Diagnostic] {
        var edges: [String: [String]] = [:]
        for product in plan.products { edges[product.id, default: []] += product.contains.filter { $0 != product.id } }
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var stack: [String] = []
        var reported = Set<String>()
        var diagnostics: [Diagnostic] = []

        func visit(_ id: String) {
            state[id] = 1
            stack.append(id)
            for next in edges[id] ?? [] where edges[next] != nil {
                if state[next] == 1 {
                    let cycle = Array(stack[stack.lastIndex(of: next)!...]) + [next]
                    let key = Set(cycle).sorted().joined(separator: ",")
                    if reported.insert(key).inserted {
                        let origin = plan.product(withID: next)?.origin
                        diagnostics.append(
                            .error(
                                "bundle-cycle", "bundles contain each other: \(cycle.joined(separator: " → "))",
                                at: origin.map { $0 / "contains" }, hint: "A bundle may contain products, but never itself through another bundle."))
                    }
                } else if state[next] == nil {
                    visit(next)
                }
            }
            stack.removeLast()
            state[id] = 2
        }
        for product in plan.products.map(\.id).sorted() where state[product] == nil {
            visit(product)
        }
        return diagnostics
    }
}
