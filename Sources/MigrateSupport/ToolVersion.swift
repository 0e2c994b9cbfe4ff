/// migrate's own version: what `migrate --version` prints and what a generated `Package.swift`
/// depends on from when it names migrate's package for the StoreKit layer.
public enum ToolVersion {
    public static let current = "0.1.0"
}
