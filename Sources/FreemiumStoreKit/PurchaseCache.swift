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

/// The consumable transactions the app's delivery hook was given and accepted, newest last, so
/// none is credited twice: `Transaction.updates`, `Transaction.unfinished` and a purchase's result
/// may each hand over the same one, in one process or after a relaunch.
///
/// Bounded: it keeps the newest `maximumIDs`. A delivered transaction is finished at once, and the
/// App Store sends a finished one no more, so only one delivered just before a crash (unfinished)
/// comes back, at the next launch: far fewer than the bound.
public struct DeliveredConsumables: Codable, Hashable, Sendable {
  /// `Transaction.id`s, oldest first.
  public private(set) var ids: [UInt64]

  static let maximumIDs = 1_000

  public init(ids: [UInt64] = []) {
    self.ids = Array(ids.suffix(Self.maximumIDs))
  }

  public func contains(_ id: UInt64) -> Bool { ids.contains(id) }

  /// Records `id`, dropping the oldest beyond the bound.
  public mutating func insert(_ id: UInt64) {
    guard !contains(id) else { return }
    ids.append(id)
    if ids.count > Self.maximumIDs { ids.removeFirst(ids.count - Self.maximumIDs) }
  }

  /// The list in `data`; empty when there is none or it is malformed.
  public static func decode(_ data: Data?) -> DeliveredConsumables {
    guard let data, data.count <= VerifiedPurchaseRecord.maximumBytes,
      let list = try? JSONDecoder().decode(DeliveredConsumables.self, from: data)
    else { return DeliveredConsumables() }
    return DeliveredConsumables(ids: list.ids)
  }

  public func encoded() -> Data? { try? JSONEncoder().encode(self) }
}

/// When the store began a provisional grant (`policies.provisionalGrant`), and the latest time it
/// saw while the grant ran, so relaunching never restarts the window and a clock set back never
/// reopens one that ended. Kept beside the verified record and never cleared with it: a window is
/// spent once begun, so only a cache wiped whole gains one more.
public struct ProvisionalGrantWindow: Codable, Hashable, Sendable {
  /// Seconds since 1970 when the window began.
  public var startedAt: Double
  /// Seconds since 1970: the latest time the store saw while the window ran.
  public var latestSeen: Double

  public init(startedAt: Date, latestSeen: Date) {
    self.startedAt = startedAt.timeIntervalSince1970
    self.latestSeen = max(latestSeen, startedAt).timeIntervalSince1970
  }

  /// When a window of `days` ends.
  public func end(days: Int) -> Date {
    Date(timeIntervalSince1970: startedAt + Double(days) * 86_400)
  }

  /// Whether a window of `days` is still open at `now`: begun, and its end not reached by `now` or
  /// by any time seen before it.
  public func isOpen(at now: Date, days: Int) -> Bool {
    let seen = max(now.timeIntervalSince1970, latestSeen)
    return now.timeIntervalSince1970 >= startedAt && seen < end(days: days).timeIntervalSince1970
  }

  /// The window in `data`, or nil when there is none. A malformed one counts as a window that ended
  /// (`spent`), so editing it never opens another.
  public static func decode(_ data: Data?) -> ProvisionalGrantWindow? {
    guard let data else { return nil }
    guard data.count <= VerifiedPurchaseRecord.maximumBytes,
      let window = try? JSONDecoder().decode(ProvisionalGrantWindow.self, from: data),
      window.startedAt.isFinite, window.latestSeen.isFinite, window.startedAt >= 0,
      window.latestSeen >= window.startedAt
    else { return spent }
    return window
  }

  /// A window that is over whatever the clock says.
  static let spent = ProvisionalGrantWindow(
    startedAt: Date(timeIntervalSince1970: 0), latestSeen: .distantFuture)

  public func encoded() -> Data? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try? encoder.encode(self)
  }
}

/// Where the record of the last verified facts lives, the consumables already delivered and a
/// provisional grant's window: the Keychain in the app, memory in tests.
public protocol PurchaseCacheStore: Sendable {
  func load() -> Data?
  func save(_ data: Data)
  /// Forgets the verified facts; the delivered consumables stay.
  func clear()
  /// `DeliveredConsumables`, as `saveDelivered(_:)` left them.
  func loadDelivered() -> Data?
  func saveDelivered(_ data: Data)
  /// `ProvisionalGrantWindow`, as `saveProvisionalWindow(_:)` left it; `clear()` keeps it.
  func loadProvisionalWindow() -> Data?
  func saveProvisionalWindow(_ data: Data)
}

/// A cache in memory, for tests and previews.
public final class InMemoryPurchaseCache: PurchaseCacheStore, @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?

  private var delivered: Data?
  private var provisionalWindow: Data?

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

  public func loadDelivered() -> Data? {
    lock.lock()
    defer { lock.unlock() }
    return delivered
  }

  public func saveDelivered(_ data: Data) {
    lock.lock()
    defer { lock.unlock() }
    delivered = data
  }

  public func loadProvisionalWindow() -> Data? {
    lock.lock()
    defer { lock.unlock() }
    return provisionalWindow
  }

  public func saveProvisionalWindow(_ data: Data) {
    lock.lock()
    defer { lock.unlock() }
    provisionalWindow = data
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

    private var query: [String: Any] { itemQuery(account: account) }

    /// The delivered consumables live beside the record, under their own account, so clearing the
    /// record keeps them.
    private var deliveredQuery: [String: Any] {
      itemQuery(account: account + ".deliveredConsumables")
    }

    /// The provisional grant's window lives beside the record too, and clearing the record keeps it.
    private var provisionalWindowQuery: [String: Any] {
      itemQuery(account: account + ".provisionalGrantWindow")
    }

    private func itemQuery(account: String) -> [String: Any] {
      [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: service,
        kSecAttrAccount as String: account,
        // The data protection keychain on macOS too, as on iOS: Apple recommends it for every
        // keychain call (TN3137); other platforms ignore the key.
        kSecUseDataProtectionKeychain as String: true,
      ]
    }

    public func load() -> Data? { load(query) }

    public func save(_ data: Data) { save(data, query) }

    public func loadDelivered() -> Data? { load(deliveredQuery) }

    public func saveDelivered(_ data: Data) { save(data, deliveredQuery) }

    public func loadProvisionalWindow() -> Data? { load(provisionalWindowQuery) }

    public func saveProvisionalWindow(_ data: Data) { save(data, provisionalWindowQuery) }

    private func load(_ query: [String: Any]) -> Data? {
      var query = query
      query[kSecReturnData as String] = true
      query[kSecMatchLimit as String] = kSecMatchLimitOne
      var result: CFTypeRef?
      guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
      return result as? Data
    }

    private func save(_ data: Data, _ query: [String: Any]) {
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
