import FreemiumStoreKit
import MigratePlan

extension GenerationContext {
    /// What `AppStoreModel` shares with a family member: a product marked shareable, of a type Family
    /// Sharing shares (the layer's `InAppPurchaseType.isSharedByFamily`).
    enum AppStoreModelRules {
        static func isShared(_ product: Product) -> Bool {
            product.familyShareable && inAppPurchaseType(product.kind).isSharedByFamily
        }

        static func inAppPurchaseType(_ kind: Product.Kind) -> InAppPurchaseType {
            switch kind {
            case .consumable: .consumable
            case .nonConsumable: .nonConsumable
            case .nonRenewing: .nonRenewable
            case .autoRenewable: .autoRenewable
            }
        }
    }
}
