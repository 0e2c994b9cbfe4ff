/// migrate's own version: what `migrate --version` prints and what a generated `Package.swift`
/// depends on from when it names migrate's package for the StoreKit layer.
public enum ToolVersion {
    public static let current = "0.1.0"
    /// The day `current` was released, as the man page's `.Dd` writes it (the CHANGELOG's release
    /// heading gives the same day; a test keeps them together).
    public static let releaseDate = "November 26, 2026"
}
