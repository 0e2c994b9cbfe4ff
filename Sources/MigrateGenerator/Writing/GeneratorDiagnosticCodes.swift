import MigrateSupport

/// The codes of the problems the generator reports about output already on disk, each declared once.
extension DiagnosticCode {
    /// A copy of the StoreKit layer older than the one this `migrate` generates.
    public static let storeLayerOutdated = DiagnosticCode("store-layer-outdated")

    /// Every code above, for the test that keeps them unique.
    public static let generator: [DiagnosticCode] = [.storeLayerOutdated]
}
