/// Whose product an id in a `.storekit` file is: this app's, or one a project carries without selling it.
///
/// A project's StoreKit configurations are not all its own: Xcode's template fills a new file with placeholder
/// products (`com.temporary.id.nonconsumable.a`), Apple's sample code and SDK examples bring theirs, and a
/// configuration copied from another app keeps that app's ids. None of them is sold by this app, so they are
/// never given its features by default.
public enum ProductOwnership: Sendable, Hashable {
    /// Nothing says it is someone else's.
    case thisApp
    /// One of the placeholders Xcode's StoreKit configuration template writes.
    case placeholder
    /// A product of Apple's sample code.
    case sample
    /// An id under another organisation's reverse domain: that prefix (`com.revenuecat`).
    case otherApp(prefix: String)

    /// The id prefix of the products Xcode's StoreKit configuration template writes.
    public static let placeholderPrefix = "com.temporary.id."
    /// The id prefix of Apple's sample code (`com.example.apple-samplecode.Backyard-Birds…`).
    public static let samplePrefix = "com.example.apple-samplecode."

    /// Judges `id` against the app's `bundleID` (when known). An id under the bundle id, or under its organisation
    /// (its first two parts), is this app's; a reverse-DNS id under another organisation (`com.revenuecat.pro`
    /// beside `com.example.tally`) is another app's. Ids that aren't reverse-DNS (`pro_monthly`, `pass.premium`)
    /// can't be judged and count as this app's.
    /// An id whose organisation part is the app's name run together (`com.pocketcasts.plus` for "Pocket Casts",
    /// whatever its bundle id) is this app's too.
    public static func of(_ id: String, bundleID: String?, appName: String? = nil) -> ProductOwnership {
        let lowered = id.lowercased()
        if lowered.hasPrefix(placeholderPrefix) { return .placeholder }
        if lowered.hasPrefix(samplePrefix) { return .sample }
        guard let bundleID, !bundleID.isEmpty else { return .thisApp }
        let bundle = bundleID.lowercased()
        if lowered.hasPrefix(bundle + ".") { return .thisApp }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        let bundleParts = bundle.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, bundleParts.count >= 2, Self.topLevel.contains(String(parts[0])) else { return .thisApp }
        // The same organisation's ids count as this app's: an app renamed since (com.example.tally.pro beside
        // com.example.tallycounter) can't be told from a sibling app by its id.
        if parts[0] != bundleParts[0] || parts[1] != bundleParts[1] {
            let name = (appName ?? "").lowercased().filter { $0.isLetter || $0.isNumber }
            if name.count >= 4, parts.dropFirst().contains(where: { String($0) == name }) { return .thisApp }
            return .otherApp(prefix: parts.prefix(2).joined(separator: "."))
        }
        return .thisApp
    }

    /// The first parts of reverse-DNS ids (bundle ids and the product ids under them), so that `pass.premium` or
    /// `feature.annualhistory` is not read as an organisation.
    static let topLevel: Set<String> = [
        "com", "org", "net", "io", "co", "app", "dev", "me", "de", "uk", "fr", "nl", "se", "ch", "jp", "it", "es", "ca", "au", "us", "edu",
        "info", "biz", "tv", "ai", "at", "be", "dk", "fi", "no", "pl", "ru", "cn", "kr", "br", "in", "nz", "ie", "pt", "cz", "eu", "xyz",
    ]

    /// Whether this app sells it, as far as the id says.
    public var isThisApp: Bool { self == .thisApp }

    /// Why it is not taken as this app's product, for notes and questions; nil for this app's.
    public var reason: String? {
        switch self {
        case .thisApp: nil
        case .placeholder: "a placeholder Xcode's StoreKit template writes"
        case .sample: "a product of Apple's sample code"
        case .otherApp(let prefix): "another app's product (its id is under \(prefix), not the app's bundle id)"
        }
    }
}
