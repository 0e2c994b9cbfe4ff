/// The rows of a sales report that count the same thing on different days: a provider's SKU (the app's, or an in-app
/// product's id) in one country and of one product type. Two reports that count one series over overlapping days
/// count the same sales. The importer keeps periods by series, and `simulate --actuals` compares them.
public struct SalesSeries: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var provider: String
    public var sku: String
    public var country: String
    public var productType: String

    public init(provider: String, sku: String, country: String, productType: String) {
        self.provider = provider
        self.sku = sku
        self.country = country
        self.productType = productType
    }

    /// SKU, then country, product type and provider: the same order on every run.
    public static func < (left: SalesSeries, right: SalesSeries) -> Bool {
        [left.sku, left.country, left.productType, left.provider].lexicographicallyPrecedes([
            right.sku, right.country, right.productType, right.provider,
        ])
    }

    /// `SKU 'tilttolivehd' (US, type 1, provider APPLE)`.
    public var description: String {
        let parts = [country.isEmpty ? nil : country, "type \(productType)", provider.isEmpty ? nil : "provider \(provider)"]
        return "SKU '\(sku)' (\(parts.compactMap { $0 }.joined(separator: ", ")))"
    }
}
