import MigratePlan

extension Product {
    /// Whether a freemium app can sell this product to unlock features: it is for sale and lasts (a
    /// consumable is used up, so it never unlocks anything for good). `check`'s `nothing-for-sale`
    /// and `init`'s product question decide by this one rule.
    public var canUnlockFeaturesForSale: Bool { forSale && kind != .consumable }
}
