import Foundation

/// The keys `migrate explain --batch` reads from each row of a customer list: CSV header names or
/// JSON Lines keys, named like `AppTransaction`'s properties. Any other column is carried through.
public enum BatchColumn: String, CaseIterable, Sendable {
    /// `AppTransaction.originalAppVersion`: a build number on iOS, a marketing version on macOS.
    case originalAppVersion
    /// `AppTransaction.originalPurchaseDate`: ISO 8601, or milliseconds since 1970 as the App Store
    /// Server API writes dates.
    case originalPurchaseDate
    /// `AppTransaction.originalPlatform` (iOS 18.4 / macOS 15.4 and later); empty when unknown.
    case originalPlatform
    /// `Production`, `Sandbox` or `Xcode` (also `ProductionSandbox`, `LocalTesting`); empty is production.
    case environment
    /// Product ids the customer has transactions for, separated by spaces, each as `explain --owns`
    /// takes it: `PRODUCT[@DATE][:STATE]`. In JSON Lines also an array of strings.
    case products
    /// The platform the app runs on now; empty: the original platform when the app has it, else the app's first.
    case platform
    /// `AppTransaction`'s revocation date: set when the paid download itself was refunded.
    case revocationDate
    /// `AppTransaction.bundleID`: a row for another app is refused, naming both ids.
    case bundleID

    /// Names of a carried column that identifies the customer, compared without case: a list's own id, the app's
    /// account token, an App Store transaction id, an e-mail address. The first such column is the row's identity,
    /// and a value listed twice is the `duplicateCustomer` warning.
    public static let customerNames: Set<String> = [
        "customerid", "customer_id", "customer id", "customer", "id", "userid", "user_id", "user id", "appaccounttoken",
        "apptransactionid", "originaltransactionid", "email", "e-mail",
    ]

    /// Whether a header or key names the customer (`customerNames`).
    public static func namesCustomer(_ name: String) -> Bool {
        customerNames.contains(name.lowercased())
    }

    /// The App Store Server API's names for the same facts (`JWSAppTransactionDecodedPayload`), read as these.
    public static let serverNames: [String: BatchColumn] = [
        "originalApplicationVersion": .originalAppVersion, "receiptType": .environment, "bundleId": .bundleID,
    ]

    /// The column a header or key names, by its own name or the server's.
    public init?(key: String) {
        if let column = BatchColumn(rawValue: key) {
            self = column
        } else if let column = Self.serverNames[key] {
            self = column
        } else {
            return nil
        }
    }
}

/// What `migrate explain --batch` adds to each row, after the columns it read.
public enum BatchOutputColumn: String, CaseIterable, Sendable {
    /// `legacy` or `newCustomer`.
    case cohort
    /// The legacy tier's id; empty for a new customer.
    case tier
    /// The rule that decided the cohort (`buildNumber`, `marketingVersion`, `purchaseDate`, …).
    case rule
    /// The features the customer has, separated by spaces (an array in JSON Lines).
    case features
    /// The products the upsell offers.
    case offers
    /// The products the upsell withholds.
    case withheld
    /// The doubts about the row (`BatchRowWarning`), separated by spaces (an array in JSON Lines).
    case warnings
}
