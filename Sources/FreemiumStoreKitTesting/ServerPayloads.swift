// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// What the App Store Server API and App Store Server Notifications V2 send a server, for tests of a
/// server's decisions: the decoded payloads as JSON carries them (dates in milliseconds), read the
/// way Apple's App Store Server Library hands them over once their signatures have verified (its
/// property names, the raw values kept raw), so each conforms to the layer's protocol in one line as
/// the library's type does; and an App Store of the tests' own that signs and verifies them. The same
/// for every app: a generated server's tests give only the plan's customers and products.
public enum ServerPayloads {
  /// A date as the App Store Server API writes one: milliseconds since 1970.
  public static func date(milliseconds: Double) -> Date {
    Date(timeIntervalSince1970: milliseconds / 1000)
  }

  /// Milliseconds since 1970, as the App Store Server API writes a date.
  public static func milliseconds(_ date: Date) -> Int64 {
    Int64(date.timeIntervalSince1970 * 1000)
  }

  /// `json` decoded as `type`, its dates read as milliseconds.
  public static func decode<Payload: Decodable>(_ type: Payload.Type, _ json: String) throws
    -> Payload
  {
    try decode(type, from: Data(json.utf8))
  }

  /// `data` decoded as `type`, its dates read as milliseconds.
  public static func decode<Payload: Decodable>(_ type: Payload.Type, from data: Data) throws
    -> Payload
  {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      date(milliseconds: try decoder.singleValueContainer().decode(Double.self))
    }
    return try decoder.decode(type, from: data)
  }
}

/// A decoded `JWSAppTransactionDecodedPayload` (`ServerAppTransaction`, as the library's
/// `AppTransaction`), `originalPlatform` kept raw.
public struct AppTransactionPayload: Decodable, ServerAppTransaction, Sendable {
  public var originalApplicationVersion: String?
  public var originalPurchaseDate: Date?
  public var rawOriginalPlatform: String?
  public var receiptType: String?
  public var appTransactionId: String?
  public var bundleId: String?

  enum CodingKeys: String, CodingKey {
    case originalApplicationVersion, originalPurchaseDate, receiptType, appTransactionId, bundleId
    case rawOriginalPlatform = "originalPlatform"
  }

  /// The environment of the verifier that accepts this payload: Apple's library refuses one whose
  /// `receiptType` is another's.
  public var environment: StoreEnvironment { StoreEnvironment(serverName: receiptType) }
}

/// A decoded `JWSTransactionDecodedPayload` (`ServerTransaction`, as the library's
/// `JWSTransactionDecodedPayload`).
public struct TransactionPayload: Decodable, ServerTransaction, Sendable {
  public var productId: String?
  public var rawInAppOwnershipType: String?
  public var purchaseDate: Date?
  public var expiresDate: Date?
  public var revocationDate: Date?
  public var transactionId: String?
  public var originalTransactionId: String?

  enum CodingKeys: String, CodingKey {
    case productId, purchaseDate, expiresDate, revocationDate, transactionId, originalTransactionId
    case rawInAppOwnershipType = "inAppOwnershipType"
  }
}

/// A decoded `responseBodyV2DecodedPayload` (`ServerNotification`, as the library's
/// `ResponseBodyV2DecodedPayload`: `rawNotificationType`, `rawSubtype`).
public struct NotificationPayload: Decodable, ServerNotification, Sendable {
  /// The notification's `data`.
  public struct Data: Decodable, Sendable {
    public var environment: String?
    public var bundleId: String?
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?
  }

  public var rawNotificationType: String?
  public var rawSubtype: String?
  public var notificationUUID: String?
  public var signedDate: Date?
  public var data: Data?

  enum CodingKeys: String, CodingKey {
    case notificationUUID, signedDate, data
    case rawNotificationType = "notificationType"
    case rawSubtype = "subtype"
  }
}

/// A decoded `JWSRenewalInfoDecodedPayload` (`ServerRenewalInfo`).
public struct RenewalInfoPayload: Decodable, ServerRenewalInfo, Sendable {
  public var originalTransactionId: String?
  public var productId: String?
  public var autoRenewProductId: String?
  public var rawAutoRenewStatus: Int32?
  public var isInBillingRetryPeriod: Bool?
  public var gracePeriodExpiresDate: Date?

  enum CodingKeys: String, CodingKey {
    case originalTransactionId, productId, autoRenewProductId, isInBillingRetryPeriod
    case gracePeriodExpiresDate
    case rawAutoRenewStatus = "autoRenewStatus"
  }
}

/// The tests' App Store: signs JSON as a compact JWS (`header.payload.signature`, base64url) with a
/// key of its own, and verifies only what it signed, as `SignedDataVerifier` verifies only Apple's.
public final class TestSigner: @unchecked Sendable {
  /// A payload this signer didn't sign, or not a compact JWS.
  public struct Unverified: Error {}

  private let lock = NSLock()
  private var signed: Set<String> = []

  public init() {}

  /// `text` in base64url without padding, as a JWS carries each part.
  public static func base64URL(_ text: String) -> String {
    Foundation.Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  /// `object` as JSON, signed: a JWS only this signer verifies.
  public func sign(_ object: [String: Any]) throws -> String {
    let json = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    lock.lock()
    defer { lock.unlock() }
    let header = Self.base64URL(#"{"alg":"ES256","x5c":["test"]}"#)
    let jws = [
      header, Self.base64URL(String(decoding: json, as: UTF8.self)),
      Self.base64URL("signature-\(signed.count)"),
    ]
    .joined(separator: ".")
    signed.insert(jws)
    return jws
  }

  /// The payload of `jws`, decoded, when this signer signed it; throws `Unverified` otherwise.
  public func verify<Payload: Decodable>(_ jws: String, as type: Payload.Type) throws -> Payload {
    lock.lock()
    let known = signed.contains(jws)
    lock.unlock()
    let parts = jws.split(separator: ".")
    guard known, parts.count == 3 else { throw Unverified() }
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let payload = Foundation.Data(base64Encoded: base64) else { throw Unverified() }
    return try ServerPayloads.decode(type, from: payload)
  }
}

/// A suite that follows one subscription through App Store Server Notifications: the payloads Apple
/// posts (`responseBodyV2`) and the transactions and renewal info they carry, signed by the suite's
/// `signer`, and their receipt as an endpoint does it with Apple's library. The suite gives its
/// app's bundle id, the products it follows, when the journey starts, and how its server decides
/// from what a ledger holds; the journeys (`checkSubscribedAndRenewed()` and the rest) are the same
/// for every app.
public protocol ServerNotificationJourney {
  /// The app's bundle id, as every payload carries it.
  static var bundleID: String { get }
  /// The subscription the journey follows: a transaction's product unless another is named.
  static var subscription: String { get }
  /// Another plan of the subscription's group, to change to at the next renewal; nil when none.
  static var other: String? { get }
  /// A product bought once (not a subscription) the plan sells; nil when none.
  static var oneTime: String? { get }
  /// `policies.familySharing`: whether a family-shared subscription entitles.
  static var familySharingEntitles: Bool { get }
  /// When the journey starts: a transaction is bought then unless another date is given.
  static var start: Date { get }
  /// Signs the payloads, and verifies only what it signed.
  var signer: TestSigner { get }
  /// Whether the app's server, deciding from what `ledger` holds at `now` in `environment`, gives
  /// the customer `product`.
  func has(
    _ product: String, _ ledger: NotificationLedger, at now: Date, environment: StoreEnvironment
  ) throws -> Bool
}

/// A notification whose data is not one an endpoint can apply (no type, no id, no date).
public struct UnreadableNotification: Error {}

extension ServerNotificationJourney {
  /// A signed transaction of `product` (the journey's subscription unless named), in `environment`:
  /// a subscription's period from `bought`, `days` long; a one-time purchase (`days` nil) has none.
  public func transaction(
    _ product: String? = nil, bought: Date? = nil, days: Double? = 30, revoked: Date? = nil,
    shared: Bool = false, original: String = "1000000001", environment: String = "Sandbox"
  ) throws -> String {
    let bought = bought ?? Self.start
    var fields: [String: Any] = [
      "transactionId": "\(ServerPayloads.milliseconds(bought))",
      "originalTransactionId": original, "bundleId": Self.bundleID,
      "productId": product ?? Self.subscription,
      "purchaseDate": ServerPayloads.milliseconds(bought),
      "originalPurchaseDate": ServerPayloads.milliseconds(bought),
      "inAppOwnershipType": shared ? "FAMILY_SHARED" : "PURCHASED", "environment": environment,
      "signedDate": ServerPayloads.milliseconds(bought),
      "type": days == nil ? "Non-Consumable" : "Auto-Renewable Subscription",
    ]
    if let days {
      fields["expiresDate"] = ServerPayloads.milliseconds(bought.addingTimeInterval(days * 86_400))
    }
    if let revoked { fields["revocationDate"] = ServerPayloads.milliseconds(revoked) }
    return try signer.sign(fields)
  }

  /// Signed renewal info of the journey's subscription, renewing to `next` (itself unless named).
  public func renewal(
    next: String? = nil, autoRenew: Bool = true, retry: Bool = false, grace: Date? = nil,
    environment: String = "Sandbox"
  ) throws -> String {
    var fields: [String: Any] = [
      "originalTransactionId": "1000000001", "productId": Self.subscription,
      "autoRenewProductId": next ?? Self.subscription,
      "autoRenewStatus": autoRenew ? 1 : 0, "isInBillingRetryPeriod": retry,
      "environment": environment, "signedDate": ServerPayloads.milliseconds(Self.start),
    ]
    if let grace { fields["gracePeriodExpiresDate"] = ServerPayloads.milliseconds(grace) }
    return try signer.sign(fields)
  }

  /// A signed `responseBodyV2` payload, as Apple posts it.
  public func notification(
    _ type: String, _ subtype: String? = nil, uuid: String, signed: Date, transaction: String?,
    renewal: String? = nil, environment: String = "Sandbox"
  ) throws -> String {
    var data: [String: Any] = [
      "environment": environment, "bundleId": Self.bundleID, "bundleVersion": "1",
    ]
    if let transaction { data["signedTransactionInfo"] = transaction }
    if let renewal { data["signedRenewalInfo"] = renewal }
    var fields: [String: Any] = [
      "notificationType": type, "notificationUUID": uuid, "version": "2.0",
      "signedDate": ServerPayloads.milliseconds(signed), "data": data,
    ]
    if let subtype { fields["subtype"] = subtype }
    return try signer.sign(fields)
  }

  /// Verifies `signedPayload` and what it carries, as an endpoint does with Apple's library, and
  /// applies it to `ledger`: throws `TestSigner.Unverified` for anything the App Store didn't sign.
  public func receive(_ signedPayload: String, into ledger: inout NotificationLedger) throws
    -> NotificationLedger.Outcome
  {
    let payload = try signer.verify(signedPayload, as: NotificationPayload.self)
    let transaction = try payload.data?.signedTransactionInfo.map {
      try signer.verify($0, as: TransactionPayload.self)
    }
    let renewal = try payload.data?.signedRenewalInfo.map {
      try signer.verify($0, as: RenewalInfoPayload.self)
    }
    guard
      let verified = VerifiedNotification(
        payload, environment: StoreEnvironment(serverName: payload.data?.environment),
        transaction: transaction.flatMap(VerifiedTransaction.init),
        renewalInfo: renewal.map(VerifiedRenewalInfo.init))
    else { throw UnreadableNotification() }
    return ledger.apply(verified)
  }
}
