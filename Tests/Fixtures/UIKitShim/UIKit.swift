// A shim of the one UIKit declaration the StoreKit layer names (Apple's UIKit documentation), so the
// layer's UIKit branch (a purchase confirmed in a scene) is type-checked on Linux, where UIKit doesn't
// exist. Declarations only, mirroring Apple's; each names its page, relative to
// https://developer.apple.com/documentation/uikit/ (the ".md" pages).

/// uiscene.md: `@MainActor class UIScene`; iOS 13.0, iPadOS 13.0, Mac Catalyst 13.1, tvOS 13.0,
/// visionOS 1.0 (no macOS, no watchOS). Apple's is an `NSObject` subclass; nothing here needs that.
@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIScene {
}

/// uiwindowscene.md: `@MainActor class UIWindowScene`; iOS 13.0, iPadOS 13.0, Mac Catalyst 13.1,
/// tvOS 13.0, visionOS 1.0 (no macOS, no watchOS). A `UIScene` subclass.
@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIWindowScene: UIScene {
}
