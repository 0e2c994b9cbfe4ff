import FreemiumStoreKit

/// migrate's own version: what `migrate --version` prints, what a generated `Package.swift` depends on
/// from when it names migrate's package for the StoreKit layer, and what the layer's copy in an app says
/// it is. Its one home is `StoreLayer.version` in the layer itself, because the layer is the part
/// copied into apps and must carry it there.
public enum ToolVersion {
    public static let current = StoreLayer.version
    /// The day `current` was released, as the man page's `.Dd` writes it (the CHANGELOG's release
    /// heading gives the same day; a test keeps them together).
    public static let releaseDate = "November 26, 2026"
}
