/// An Apple platform an app ships on.
public enum Platform: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case iOS
    case iPadOS
    case macOS
    case tvOS
    case watchOS
    case visionOS

    /// What `AppTransaction.originalAppVersion` (and the receipt's `original_application_version`)
    /// holds for a purchase first made on this platform.
    public enum VersionMeaning: String, Sendable, Hashable {
        /// `CFBundleVersion`, the build number: iOS, iPadOS, tvOS, watchOS and visionOS.
        case buildNumber
        /// `CFBundleShortVersionString`, the marketing version: macOS.
        case marketingVersion

        public var infoPlistKey: String {
            switch self {
            case .buildNumber: "CFBundleVersion"
            case .marketingVersion: "CFBundleShortVersionString"
            }
        }

        public var displayName: String {
            switch self {
            case .buildNumber: "build number"
            case .marketingVersion: "marketing version"
            }
        }
    }

    public var originalVersionMeaning: VersionMeaning {
        self == .macOS ? .marketingVersion : .buildNumber
    }

    /// Platforms that run this platform's binary when it has no releases of its own
    /// (an iPhone app on iPad or Apple Vision Pro).
    public var fallbackPlatforms: [Platform] {
        switch self {
        case .iPadOS, .visionOS: [.iOS]
        default: []
        }
    }

    /// The platform whose App Store record an app on this one is sold from: an iPad app is the iOS app.
    public var storeRecord: Platform { self == .iPadOS ? .iOS : self }

    /// Whether one bundle id on these platforms is sold from more than one platform's record, so that universal
    /// purchase decides whether a purchase on one counts on the others (Apple's "Offering a universal purchase").
    public static func spansStores(_ platforms: some Sequence<Platform>) -> Bool {
        Set(platforms.map(\.storeRecord)).count > 1
    }

    public var description: String { rawValue }

    public static func < (lhs: Platform, rhs: Platform) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Case-insensitive lookup, so `ios` and `macos` are understood.
    public init?(named name: String) {
        if let exact = Platform(rawValue: name) {
            self = exact
            return
        }
        guard let match = Platform.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }
}
