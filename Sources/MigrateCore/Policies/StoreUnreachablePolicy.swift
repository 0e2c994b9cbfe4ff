import MigratePlan

extension Policies {
    /// The fewest days the last verified facts keep deciding while the App Store can't be reached.
    ///
    /// `AppTransaction.shared` throws when the device is offline or nobody is signed in. That is
    /// "unknown", not "unverified", so `verificationFailure: deny` doesn't apply: denying would
    /// lock out a payer on a plane, the FullControl 3.0.3 failure. StoreKit keeps the app
    /// transaction on the device and reads it without a network once fetched, so this window only
    /// matters on a device that couldn't reach the App Store at all since its last verified launch:
    /// one billing month.
    public static let minimumDaysKeptWhileStoreUnreachable = 30

    /// Days the last verified facts decide while the App Store can't be reached: the policy's
    /// `keepLastVerified` days when longer, otherwise ``minimumDaysKeptWhileStoreUnreachable``.
    public var daysKeptWhileStoreUnreachable: Int {
        if case .keepLastVerified(let days) = verificationFailure {
            return max(days, Self.minimumDaysKeptWhileStoreUnreachable)
        }
        return Self.minimumDaysKeptWhileStoreUnreachable
    }
}
