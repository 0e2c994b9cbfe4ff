import MigrateSupport

/// Cross-reference checks on a decoded plan: duplicate ids, references to features and
/// products that don't exist, bundle cycles, releases on platforms the app doesn't list.
public enum PlanValidator {
    /// Looks references up in sets, so a catalog of thousands is checked in linear time; one home for the
    /// "unknown reference" message of the plan's and the scenarios' tiers, prices and counts.
    struct References {
        /// What a reference names; its raw value is the word messages use.
        enum Kind: String {
            case feature, product, tier
        }

        /// Each kind's ids in plan order (for suggestions) and as a set (for lookups).
        private let known: [Kind: (list: [String], set: Set<String>)]

        init(_ plan: MigrationPlan) {
            func ids(_ list: [String]) -> (list: [String], set: Set<String>) { (list, Set(list)) }
            known = [.feature: ids(plan.features.map(\.id)), .product: ids(plan.products.map(\.id)), .tier: ids(plan.tiers.map(\.id))]
        }

        /// An error when `id` names no feature, product or tier (`kind`), with a suggestion.
        func check(_ id: String, kind: Kind, at path: JSONPath?) -> Diagnostic? {
            let ids = known[kind] ?? ([], [])
            guard !ids.set.contains(id) else { return nil }
            let hint =
                Suggestions.closest(to: id, in: ids.list).map { "Did you mean '\($0)'?" }
                ?? (ids.list.isEmpty
                    ? "Declare it in '\(kind.rawValue)s' first."
                    : "Declare it in '\(kind.rawValue)s', or use one of: \(ids.list.sorted().prefix(8).joined(separator: ", ")).")
            return .error(.unknownReference, "unknown \(kind.rawValue) '\(id)'", at: path, hint: hint)
        }

        /// A tier's features, and the products its discounts name and charge through.
        func check(_ tier: LegacyTier) -> [Diagnostic] {
            var references: [(id: String, kind: Kind, path: JSONPath?)] = []
            for (index, feature) in (tier.grants ?? []).enumerated() {
                references.append((feature, .feature, tier.origin.map { $0 / PlanKeys.Tier.grants / index }))
            }
            for (index, feature) in tier.takesAway.enumerated() {
                references.append((feature, .feature, tier.origin.map { $0 / PlanKeys.Tier.takesAway / index }))
            }
            for (index, discount) in tier.discounts.enumerated() {
                let path = tier.origin.map { $0 / PlanKeys.Tier.discounts / index }
                references.append((discount.product, .product, path.map { $0 / PlanKeys.Discount.product }))
                if case .legacyProduct(let id) = discount.charge {
                    references.append((id, .product, path.map { $0 / PlanKeys.Discount.legacyProduct }))
                }
            }
            return references.compactMap { check($0.id, kind: $0.kind, at: $0.path) }
        }
    }

    public static func validate(_ plan: MigrationPlan) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let platforms = Set(plan.app.platforms)
        let productByID = Dictionary(plan.products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        diagnostics += duplicates(plan.features.map { ($0.id, $0.origin) }, kind: .feature)
        diagnostics += duplicates(plan.products.map { ($0.id, $0.origin) }, kind: .product)
        diagnostics += duplicates(plan.tiers.map { ($0.id, $0.origin) }, kind: .tier)

        let references = References(plan)
        func reference(_ id: String, kind: References.Kind, at path: JSONPath?) {
            if let problem = references.check(id, kind: kind, at: path) { diagnostics.append(problem) }
        }
        diagnostics += directSales(plan, references: references)

        var seenReleases: [String: JSONPath?] = [:]
        for release in plan.releases {
            if !platforms.contains(release.platform) {
                diagnostics.append(
                    .error(
                        .platformNotListed, "release \(release.displayName) is for \(release.platform), which 'app.platforms' does not list",
                        at: release.origin.map { $0 / PlanKeys.Release.platform }, hint: "Add \"\(release.platform)\" to app.platforms."))
            }
            let key = Release.identity(platform: release.platform, version: release.version, build: release.build)
            if let first = seenReleases[key] {
                diagnostics.append(
                    .error(
                        .duplicateRelease,
                        "release \(release.platform) \(release.displayName) is listed twice (first at \(first?.description ?? "?"))",
                        at: release.origin))
            } else {
                seenReleases[key] = release.origin
            }
            for (index, feature) in (release.includes ?? []).enumerated() {
                reference(feature, kind: .feature, at: release.origin.map { $0 / PlanKeys.Release.includes / index })
            }
        }

        for product in plan.products {
            for (index, feature) in product.grants.enumerated() {
                reference(feature, kind: .feature, at: product.origin.map { $0 / PlanKeys.Product.grants / index })
            }
            for (index, feature) in product.requires.enumerated() {
                reference(feature, kind: .feature, at: product.origin.map { $0 / PlanKeys.Product.requires / index })
            }
            for (index, contained) in product.contains.enumerated() {
                if contained == product.id {
                    diagnostics.append(
                        .error(
                            .bundleCycle, "product '\(product.id)' contains itself", at: product.origin.map { $0 / PlanKeys.Product.contains / index }
                        ))
                } else {
                    reference(contained, kind: .product, at: product.origin.map { $0 / PlanKeys.Product.contains / index })
                }
            }
            if product.grants.isEmpty && product.contains.isEmpty && product.kind != .consumable {
                diagnostics.append(
                    .warning(
                        .productGrantsNothing, "product '\(product.id)' grants no features and contains no products, so owning it changes nothing",
                        at: product.origin, hint: "Add 'grants' with the features it unlocks."))
            }
        }
        diagnostics += bundleCycles(plan)
        diagnostics += bundleDepths(plan)
        diagnostics += validateSimulation(plan)

        for tier in plan.tiers {
            diagnostics += references.check(tier)
            for (index, discount) in tier.discounts.enumerated() {
                if let product = productByID[discount.product], discount.price >= product.price {
                    diagnostics.append(
                        .warning(
                            .discountNotCheaper,
                            "the legacy price \(discount.price) for '\(discount.product)' is not below its price \(product.price)",
                            at: tier.origin.map { $0 / PlanKeys.Tier.discounts / index / PlanKeys.Discount.price }))
                }
            }
        }
        for (index, count) in (plan.installBase?.products ?? []).enumerated() {
            reference(
                count.product, kind: .product,
                at: .root / PlanKeys.Root.installBase / PlanKeys.InstallBase.products / index / PlanKeys.ProductCount.product)
        }
        if case .tier(let id) = plan.policies.nonProduction, !plan.tiers.isEmpty {
            reference(
                id, kind: .tier, at: .root / PlanKeys.Root.policies / PlanKeys.Policies.nonProduction / PlanKeys.NonProduction.tier)
        }
        if let grant = plan.policies.provisionalGrant, !plan.tiers.isEmpty {
            reference(
                grant.tier, kind: .tier,
                at: .root / PlanKeys.Root.policies / PlanKeys.Policies.provisionalGrant / PlanKeys.ProvisionalGrant.tier)
        }
        return diagnostics
    }

    private static func duplicates(_ items: [(id: String, origin: JSONPath?)], kind: References.Kind) -> [Diagnostic] {
        var first: [String: JSONPath?] = [:]
        var diagnostics: [Diagnostic] = []
        for item in items {
            if let earlier = first[item.id] {
                diagnostics.append(
                    .error(
                        .duplicateID, "\(kind.rawValue) id '\(item.id)' is used twice (first at \(earlier?.description ?? "?"))",
                        at: item.origin.map { $0 / "id" }, hint: "Ids must be unique; rename one of them."))
            } else {
                first[item.id] = item.origin
            }
        }
        return diagnostics
    }

    /// Finds cycles in `contains` with a depth-first search; each cycle is reported once. The search keeps
    /// its own stack, so a chain of thousands of bundles can't overflow the thread's.
    private static func bundleCycles(_ plan: MigrationPlan) -> [Diagnostic] {
        var edges: [String: [String]] = [:]
        for product in plan.products { edges[product.id, default: []] += product.contains.filter { $0 != product.id } }
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        var stack: [(id: String, next: Int)] = []
        var reported = Set<String>()
        var diagnostics: [Diagnostic] = []
        var origins: [String: JSONPath] = [:]
        for product in plan.products where origins[product.id] == nil { origins[product.id] = product.origin }

        for product in plan.products.map(\.id).sorted() where state[product] == nil {
            state[product] = 1
            stack.append((product, 0))
            while let top = stack.last {
                let children = edges[top.id] ?? []
                guard top.next < children.count else {
                    stack.removeLast()
                    state[top.id] = 2
                    continue
                }
                stack[stack.count - 1].next += 1
                let next = children[top.next]
                guard edges[next] != nil else { continue }
                if state[next] == 1 {
                    let cycle = stack[stack.lastIndex { $0.id == next }!...].map(\.id) + [next]
                    let key = Set(cycle).sorted().joined(separator: ",")
                    if reported.insert(key).inserted {
                        diagnostics.append(
                            .error(
                                .bundleCycle, "bundles contain each other: \(cycle.joined(separator: " → "))",
                                at: origins[next].map { $0 / PlanKeys.Product.contains },
                                hint: "A bundle may contain products, but never itself through another bundle."))
                    }
                } else if state[next] == nil {
                    state[next] = 1
                    stack.append((next, 0))
                }
            }
        }
        return diagnostics
    }

    /// Bundles nested deeper than `Limits.bundleDepth` (a bundle of products is one level, a bundle holding
    /// such a bundle two), reported at the outermost bundle of each chain that is too deep, with the chain.
    /// Depths come from one pass in topological order, so a chain of thousands costs its length;
    /// products in a cycle are left to `bundle-cycle`.
    static func bundleDepths(_ plan: MigrationPlan) -> [Diagnostic] {
        var index: [String: Int] = [:]
        for (offset, product) in plan.products.enumerated() where index[product.id] == nil { index[product.id] = offset }
        let count = plan.products.count
        var children = [[Int]](repeating: [], count: count)
        var parents = [[Int]](repeating: [], count: count)
        for (offset, product) in plan.products.enumerated() where index[product.id] == offset {
            for id in product.contains where id != product.id {
                guard let child = index[id], !children[offset].contains(child) else { continue }
                children[offset].append(child)
                parents[child].append(offset)
            }
        }
        // Leaves first: a product's depth is known once every product it contains has one.
        var waiting = children.map(\.count)
        var depth = [Int?](repeating: nil, count: count)
        var ready = (0..<count).filter { waiting[$0] == 0 && index[plan.products[$0].id] == $0 }
        while let product = ready.popLast() {
            depth[product] = children[product].isEmpty ? 0 : 1 + children[product].map { depth[$0]! }.max()!
            for parent in parents[product] {
                waiting[parent] -= 1
                if waiting[parent] == 0 { ready.append(parent) }
            }
        }
        var diagnostics: [Diagnostic] = []
        for (offset, product) in plan.products.enumerated() {
            guard let levels = depth[offset], levels > Limits.bundleDepth,
                !parents[offset].contains(where: { (depth[$0] ?? 0) > Limits.bundleDepth })
            else { continue }
            // The chain that makes it so deep: always into the deepest product it contains.
            var chain = [offset]
            while let last = chain.last, let deepest = children[last].max(by: { depth[$0]! < depth[$1]! }) { chain.append(deepest) }
            let names = chain.map { plan.products[$0].id }
            let shown = names.count <= 5 ? names : Array(names.prefix(3)) + ["…", names[names.count - 1]]
            diagnostics.append(
                .error(
                    .bundleTooDeep,
                    "product '\(product.id)' nests bundles \(Limits.grouped(levels)) levels deep (\(shown.joined(separator: " → "))); at most \(Limits.bundleDepth) levels are supported",
                    at: product.origin.map { $0 / PlanKeys.Product.contains },
                    hint:
                        "List the products it unlocks in its own 'contains' rather than through bundles of bundles: contents count transitively, so a flatter bundle grants the same features."
                ))
        }
        return diagnostics
    }
}
