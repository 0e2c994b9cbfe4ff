// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// The last facts the App Store verified for this customer, kept so a payer isn't locked out while
/// the App Store can't be reached.
///
/// A cache, never a proof: it only extends what was verified, for the policy's days. It can't
/// create a grant (an unverified transaction counts only for a product this record lists), it is
/// bound to the Apple Account's `appTransactionID` (a store never lets it decide for a claimed app
/// transaction of another account) and environment, and a record that is malformed
/// in any way (wrong types, dates that aren't finite, in the future or before 1970) is ignored.
public struct VerifiedPurchaseRecord: Codable, Hashable, Sendable {
  public var appTransactionID: String
  /// `StoreEnvironment.rawValue`.
  public var environment: String
  public var originalAppVersion: String
  /// Seconds since 1970; negative in the Xcode environment, which reports 0001-01-01.
  public var originalPurchaseDate: Double
  /// `StorePlatform.rawValue`, when the App Store said.
  public var originalPlatform: String?
  public var isRevoked: Bool
  /// Products whose transactions verified, sorted.
  public var products: [String]
  /// Seconds since 1970 when the App Store last verified these facts on this device.
  public var verifiedAt: Double

  /// Records bigger than this are ignored unread.
  static let maximumBytes = 65_536
  /// Lists or strings longer than this make a record malformed.
  static let maximumItems = 1_000
  static let maximumLength = 256

  public init(_ facts: AppTransactionFacts, products: Set<String>, verifiedAt: Date) {
    appTransactionID = facts.appTransactionID
    environment = facts.environment.rawValue
    originalAppVersion = facts.originalAppVersion
    originalPurchaseDate = facts.originalPurchaseDate.timeIntervalSince1970
    originalPlatform = facts.originalPlatform?.rawValue
    isRevoked = facts.isRevoked
    self.products = products.sorted()
    self.verifiedAt = verifiedAt.timeIntervalSince1970
  }

  /// The verified facts again, or nil when the record names what this app doesn't know.
  public var facts: AppTransactionFacts? {
    guard let environment = StoreEnvironment(rawValue: environment) else { return nil }
    var platform: StorePlatform?
    if let originalPlatform {
      guard let known = StorePlatform(rawValue: originalPlatform) else { return nil }
      platform = known
    }
    return AppTransactionFacts(
      appTransactionID: appTransactionID,
      originalAppVersion: originalAppVersion,
      originalPurchaseDate: Date(timeIntervalSince1970: originalPurchaseDate),
      environment: environment,
      originalPlatform: platform,
      isRevoked: isRevoked)
  }

  /// Whole days since the facts were verified.
  public func age(at now: Date) -> Int {
    Int((now.timeIntervalSince1970 - verifiedAt) / 86_400)
  }

  /// The record in `data`, or nil when it is malformed or was verified in the future.
  public static func decode(_ data: Data, now: Date) -> VerifiedPurchaseRecord? {
    guard data.count <= maximumBytes,
      let record = try? JSONDecoder().decode(VerifiedPurchaseRecord.self, from: data),
      record.isWellFormed(now: now)
    else { return nil }
    return record
  }

  public func encoded() -> Data? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try? encoder.encode(self)
  }

  func isWellFormed(now: Date) -> Bool {
    let strings = [appTransactionID, environment, originalAppVersion] + products
    return verifiedAt.isFinite && verifiedAt >= 0 && verifiedAt <= now.timeIntervalSince1970
      && originalPurchaseDate.isFinite && abs(originalPurchaseDate) < 1e11
      && products.count <= Self.maximumItems
      && strings.allSatisfy { $0.utf8.count <= Self.maximumLength }
      && (originalPlatform?.utf8.count ?? 0) <= Self.maximumLength
      && facts != nil
  }
}

/// Where the record of the last verified facts lives: the Keychain in the app, memory in tests.
public protocol PurchaseCacheStore: Sendable {
  func load() -> Data?
  func save(_ data: Data)
  func clear()
}

/// A cache in memory, for tests and previews.
public final class InMemoryPurchaseCache: PurchaseCacheStore, @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?

  public init(data: Data? = nil) {
    self.data = data
  }

  public func load() -> Data? {
    lock.lock()
    defer { lock.unlock() }
    return data
  }

  public func save(_ data: Data) {
    lock.lock()
    defer { lock.unlock() }
    self.data = data
  }

  public func clear() {
    lock.lock()
    defer { lock.unlock() }
    data = nil
  }
}

#if canImport(Security)
  import Security

  /// Keeps the record in the Keychain. Unlike UserDefaults, whose plist customers can edit, the
  /// Keychain is out of their reach; `ThisDeviceOnly` keeps it out of backups and other devices.
  public struct KeychainPurchaseCache: PurchaseCacheStore {
    public var service: String
    public var account: String

    /// - Parameter service: the app's own, such as its bundle identifier, so the record is the
    ///   app's alone. The generated code passes the plan's (`KeychainPurchaseCache()`).
    public init(service: String, account: String = "lastVerifiedPurchase") {
      self.service = service
      self.account = account
    }

    private var query: [String: Any] {
      [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        // The data protection keychain on macOS too, as on iOS: Apple recommends it for every
        // keychain call (TN3137); other platforms ignore the key.
        kSecUseDataProtectionKeychain as String: true,
      ]
    }

    public func load() -> Data? {
      var query = self.query
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
      return result as? Data
    }

    public func save(_ data: Data) {
      let attributes: [String: Any] = [
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
      ]
      let status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
      if status == errSecItemNotFound {
        let item = query.merging(attributes) { _, new in new }
        _ = SecItemAdd(item as CFDictionary, nil)
      }
    }

    public func clear() {
      _ = SecItemDelete(query as CFDictionary)
    }
  }
#endif
