import MigrateSupport

/// The codes of the problems the generator reports about output already on disk, each declared once, as a case.
extension DiagnosticCode {
    /// The codes, each a case, so the list of them is complete by construction.
    public enum Generator: String, DiagnosticCodes {
        /// A copy of the StoreKit layer from another `migrate` than this one.
        case storeLayerOutdated = "store-layer-outdated"
    }

    public static let storeLayerOutdated = DiagnosticCode(Generator.storeLayerOutdated)
}
