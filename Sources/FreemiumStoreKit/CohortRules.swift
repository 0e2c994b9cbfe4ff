import Foundation

/// A `CFBundleVersion` or `CFBundleShortVersionString`, compared numerically component by
/// component, with missing components read as zero: `1.10 > 1.9`, `10 > 9`, `1 == 1.0.0`.
///
/// Never compare versions as Strings: there `"10" < "2"`.
public struct BundleVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
  public let components: [UInt64]
  public let description: String

  /// Nil for anything that is not period-separated non-negative integers, such as `"2.0.1b"`.
  public init?(_ text: String) {
    var components: [UInt64] = []
    for part in text.split(separator: ".", omittingEmptySubsequences: false) {
      guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = UInt64(part)
      else { return nil }
      components.append(value)
    }
    guard !components.isEmpty else { return nil }
    self.components = components
    self.description = text
  }

  /// A version the plan's tables spell out already split.
  public init(components: [UInt64], description: String) {
    self.components = components
    self.description = description
  }

  private var significant: ArraySlice<UInt64> {
    var end = components.count
    while end > 1 && components[end - 1] == 0 { end -= 1 }
    return components[0..<end]
  }

  public static func == (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
    lhs.significant == rhs.significant
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(Array(significant))
  }

  public static func < (lhs: BundleVersion, rhs: BundleVersion) -> Bool {
    for position in 0..<max(lhs.components.count, rhs.components.count) {
      let left = position < lhs.components.count ? lhs.components[position] : 0
      let right = position < rhs.components.count ? rhs.components[position] : 0
      if left != right { return left < right }
    }
    return false
  }
}

/// What the App Store says about the original purchase, as inputs that tests can set freely:
/// the sandbox always reports `"1.0"`, so real cutoff logic can only be tried this way.
public struct OriginalPurchaseFacts<Platform: Hashable & Sendable>: Hashable, Sendable {
  /// `AppTransaction.originalAppVersion`.
  public var originalAppVersion: String?
  /// `AppTransaction.originalPurchaseDate`.
  public var originalPurchaseDate: Date?
  /// The platform the app runs on now.
  public var platform: Platform
  /// `AppTransaction.originalPlatform`, reported on iOS 18.4 and macOS 15.4 and later.
  public var originalPlatform: Platform?
  public var environment: StoreEnvironment
  public var verification: Verification
  /// The paid download itself was refunded (`AppTransaction.revocationDate` is set).
  public var isRevoked: Bool

  public init(
    originalAppVersion: String? = nil,
    originalPurchaseDate: Date? = nil,
    platform: Platform,
    originalPlatform: Platform? = nil,
    environment: StoreEnvironment = .production,
    verification: Verification = .verified,
    isRevoked: Bool = false
  ) {
    self.originalAppVersion = originalAppVersion
    self.originalPurchaseDate = originalPurchaseDate
    self.platform = platform
    self.originalPlatform = originalPlatform
    self.environment = environment
    self.verification = verification
    self.isRevoked = isRevoked
  }
}

/// Which group a customer belongs to, by the era of their original purchase.
public enum PlanCohort<Tier: Hashable & Sendable>: Hashable, Sendable {
  case legacy(Tier)
  case newCustomer
}

/// How the cohort was decided.
public enum CohortRule: String, Codable, Hashable, Sendable {
  case buildNumber
  case marketingVersion
  case purchaseDate
  case environmentPolicy
  /// The original purchase can't be verified now: what a legacy tier could own isn't sold.
  case noProof
  /// The paid download was refunded: a new customer, who may buy anything.
  case refunded
  case undetermined
}

/// The cohort and the rule that decided it.
public struct PlanCohortDecision<Tier: Hashable & Sendable, Platform: Hashable & Sendable>:
  Hashable, Sendable
{
  public var cohort: PlanCohort<Tier>
  public var rule: CohortRule
  /// The platform whose releases gave the original version its meaning.
  public var platform: Platform?

  public init(cohort: PlanCohort<Tier>, rule: CohortRule, platform: Platform?) {
    self.cohort = cohort
    self.rule = rule
    self.platform = platform
  }
}

// Codable where the app's own types are, so a server returns its decisions as they are.
extension OriginalPurchaseFacts: Codable where Platform: Codable {}
extension PlanCohort: Codable where Tier: Codable {}
extension PlanCohortDecision: Codable where Tier: Codable, Platform: Codable {}

/// `policies.cutoffRule`: which of the original version and the purchase date decides.
public enum CutoffRule: String, Hashable, Sendable {
  /// The version where it orders the eras as the release dates do, the date elsewhere.
  case automatic
  case version
  case date
}

/// The cutoff rules, the same for every plan, over a plan's tables: which release a customer's
/// original purchase was, and which legacy tier that puts them in.
///
/// `migrate generate` writes only the tables (releases per platform, tier windows, policies); the
/// rules are this type's, compiled and tested in migrate's repository.
public struct CohortRules<Tier: Hashable & Sendable, Platform: Hashable & Sendable>: Sendable {
  public typealias Decision = PlanCohortDecision<Tier, Platform>
  public typealias Purchase = OriginalPurchaseFacts<Platform>

  /// One release on one platform.
  public struct Release: Hashable, Sendable {
    /// The version receipts carry on this platform, or nil when the plan doesn't know it: such a
    /// release still decides by its date.
    public let version: BundleVersion?
    public let released: Date
    public let tier: Tier?
    public let paid: Bool
    /// Whatever names the release where the tables came from (`migrate` uses the plan's index).
    public let id: Int?

    @_spi(Generated) public init(
      version: BundleVersion?, released: Date, tier: Tier?, paid: Bool, id: Int? = nil
    ) {
      self.version = version
      self.released = released
      self.tier = tier
      self.paid = paid
      self.id = id
    }
  }

  /// How a decision was reached, for whoever explains it: the steps taken, the release that
  /// decided, and whether the platforms' histories disagreed.
  public struct Trace: Hashable, Sendable {
    public enum Step: Hashable, Sendable {
      /// Sandbox, TestFlight or Xcode: the plan's policy for testers decides.
      case nonProduction
      /// The paid download was refunded.
      case refunded
      /// Verification failed and no verified result young enough is kept.
      case unverified
      /// Verification failed; a verified result within the kept days decides.
      case keptFromCache
      /// Universal purchase, original platform unknown, several platforms: the date decides.
      case universalByDate
      /// The same, without a date: every platform's reading of the version agrees.
      case universalReadingsAgree
      /// The same, without a date: the version alone can't tell.
      case universalUndetermined
      /// Universal purchase first made on another platform than the one running.
      case originalPlatform(Platform)
      /// The plan has no releases for this platform.
      case noReleases(Platform)
      /// Universal purchase, original platform unknown, and only this platform had releases: nothing could be bought
      /// anywhere else, so the purchase was made here, whatever platform runs the app now.
      case onlyPlatformWithReleases(Platform)
      /// The version decides.
      case byVersion
      /// The version would decide, but there is no usable one: the date decides.
      case noVersionByDate
      /// The version would decide, but there is neither a usable version nor a date.
      case noVersionNoDate
      /// The date decides.
      case byDate
      /// The date would decide, but there is none: the version decides.
      case noDateByVersion
      /// The date would decide, but there is none, and the version can't.
      case noDateUndetermined
      /// No release of the platform has a version to compare with.
      case noVersionedReleases
    }

    public var steps: [Step] = []
    /// The release whose buyers the customer is among, on the decision's platform.
    public var release: Release?
    /// The platforms' histories disagreed at the purchase date: the more generous reading won.
    public var disagreed = false

    public init() {}
  }

  /// A written tier's window of purchase dates: from (inclusive) until (exclusive).
  public struct Window: Sendable {
    public let tier: Tier
    public let from: Date?
    public let until: Date?

    @_spi(Generated) public init(tier: Tier, from: Date?, until: Date?) {
      self.tier = tier
      self.from = from
      self.until = until
    }
  }

  /// The plan's platforms in order: the order breaks ties between platforms.
  public let platforms: [Platform]
  /// Platforms whose `originalAppVersion` is the build number (every one but macOS).
  public let buildNumberPlatforms: Set<Platform>
  /// Releases per platform in go-live order, with the version receipts carry there.
  public let releases: [Platform: [Release]]
  /// The written tiers' windows per platform, in the plan's order. A purchase made outside a
  /// window is not in that tier, even when its release went live inside it.
  public let windows: [Platform: [Window]]
  /// Platforms where versions order the eras the same way as release dates. Elsewhere build
  /// numbers restart or go backwards, so the purchase date decides.
  public let versionRuleIsSound: [Platform: Bool]
  /// Platforms that run another platform's binary when they have no releases of their own.
  public let fallbacks: [Platform: Platform]
  public var isUniversalPurchase: Bool
  public var cutoffRule: CutoffRule
  /// `policies.nonProduction`: the cohort of sandbox, TestFlight and Xcode customers.
  public var nonProductionCohort: PlanCohort<Tier>
  /// `policies.verificationFailure`: days a verified result is kept when verification fails.
  public var keepLastVerifiedDays: Int?
  /// Days the last verified facts decide while the App Store can't be reached.
  public var keepWhileUnreachableDays: Int
  /// How many features each tier keeps: when platforms disagree, the more generous reading wins.
  public var tierFeatureCounts: [Tier: Int]
  /// Each platform's releases that have a version, sorted by it (ties in go-live order) with their
  /// offsets: sorted once here, not once per customer.
  @usableFromInline let versioned: [Platform: [VersionedRelease]]
  /// The platforms whose releases give a version its meaning: those with releases of their own, and
  /// those that run another's.
  @usableFromInline let trackPlatforms: Set<Platform>

  /// A release with its version and its offset in its platform's list.
  @usableFromInline struct VersionedRelease: Sendable {
    @usableFromInline let offset: Int
    @usableFromInline let version: BundleVersion
    @usableFromInline let release: Release

    @usableFromInline init(offset: Int, version: BundleVersion, release: Release) {
      self.offset = offset
      self.version = version
      self.release = release
    }
  }

  /// The tables `migrate generate` writes for a plan. Generated code makes the rules; an app
  /// reads them through its plan (`@_spi(Generated)`: not the app's API).
  @_spi(Generated) public init(
    platforms: [Platform],
    buildNumberPlatforms: Set<Platform>,
    releases: [Platform: [Release]],
    windows: [Platform: [Window]],
    versionRuleIsSound: [Platform: Bool],
    fallbacks: [Platform: Platform],
    isUniversalPurchase: Bool,
    cutoffRule: CutoffRule,
    nonProductionCohort: PlanCohort<Tier>,
    keepLastVerifiedDays: Int?,
    keepWhileUnreachableDays: Int,
    tierFeatureCounts: [Tier: Int]
  ) {
    self.platforms = platforms
    self.buildNumberPlatforms = buildNumberPlatforms
    self.releases = releases
    self.windows = windows
    self.versionRuleIsSound = versionRuleIsSound
    self.fallbacks = fallbacks
    self.isUniversalPurchase = isUniversalPurchase
    self.cutoffRule = cutoffRule
    self.nonProductionCohort = nonProductionCohort
    self.keepLastVerifiedDays = keepLastVerifiedDays
    self.keepWhileUnreachableDays = keepWhileUnreachableDays
    self.tierFeatureCounts = tierFeatureCounts
    versioned = releases.mapValues { list in
      list.enumerated().compactMap { offset, release in
        release.version.map { VersionedRelease(offset: offset, version: $0, release: release) }
      }.sorted { $0.version != $1.version ? $0.version < $1.version : $0.offset < $1.offset }
    }
    trackPlatforms = Set(
      platforms.compactMap { Self.track(for: $0, releases: releases, fallbacks: fallbacks) })
  }

  /// Days the last verified facts may decide for this verification, or nil for none.
  @inlinable
  public func daysKept(for verification: Verification) -> (age: Int?, limit: Int?)? {
    switch verification {
    case .verified: return nil
    case .failed(let age): return (age, keepLastVerifiedDays)
    case .unreachable(let age): return (age, keepWhileUnreachableDays)
    }
  }

  /// The cohort of a customer, and the rule that decided it.
  @inlinable
  public func decide(_ purchase: Purchase) -> Decision {
    decideTraced(purchase).decision
  }

  /// The cohort of a customer, the rule that decided it, and how.
  @inlinable
  public func decideTraced(_ purchase: Purchase) -> (decision: Decision, trace: Trace) {
    var trace = Trace()
    func done(_ decision: Decision, _ step: Trace.Step) -> (Decision, Trace) {
      trace.steps.append(step)
      return (decision, trace)
    }
    func undetermined(_ step: Trace.Step) -> (Decision, Trace) {
      done(Decision(cohort: .newCustomer, rule: .undetermined, platform: nil), step)
    }
    // The sandbox and TestFlight report "1.0" for everyone: decide by environment, never by value.
    if purchase.environment != .production {
      return done(
        Decision(cohort: nonProductionCohort, rule: .environmentPolicy, platform: nil),
        .nonProduction)
    }
    if purchase.isRevoked {
      return done(Decision(cohort: .newCustomer, rule: .refunded, platform: nil), .refunded)
    }
    if let kept = daysKept(for: purchase.verification) {
      guard let age = kept.age, let days = kept.limit, age <= days else {
        return done(Decision(cohort: .newCustomer, rule: .noProof, platform: nil), .unverified)
      }
      trace.steps.append(.keptFromCache)
    }
    let version = purchase.originalAppVersion.flatMap(BundleVersion.init)
    let date = purchase.originalPurchaseDate
    let appPlatforms = trackPlatforms

    // Universal purchase: the value's meaning follows the platform of the original purchase.
    if isUniversalPurchase && purchase.originalPlatform == nil && appPlatforms.count > 1 {
      let ordered = platforms.filter(appPlatforms.contains)
      if let date {
        let (decision, release, disagreed) = byDate(
          date, platforms: ordered, preferred: track(for: purchase.platform))
        trace.release = release
        trace.disagreed = disagreed
        return done(decision, .universalByDate)
      }
      if let version {
        let readings = ordered.compactMap { platform -> (Decision, Release?)? in
          guard versionRuleIsSound[platform] == true else { return nil }
          let reading = byVersion(version, on: platform)
          return reading.release == nil ? nil : reading
        }
        if readings.count == ordered.count, Set(readings.map(\.0.cohort)).count == 1 {
          trace.release = readings[0].1
          return done(readings[0].0, .universalReadingsAgree)
        }
      }
      return undetermined(.universalUndetermined)
    }

    if isUniversalPurchase, let original = purchase.originalPlatform, original != purchase.platform
    {
      trace.steps.append(.originalPlatform(original))
    }
    var origin = purchase.originalPlatform ?? purchase.platform
    if isUniversalPurchase, purchase.originalPlatform == nil, track(for: origin) == nil,
      appPlatforms.count == 1, let only = appPlatforms.first
    {
      // One record for every platform, and releases on one only: the original purchase was made there.
      origin = only
      trace.steps.append(.onlyPlatformWithReleases(only))
    }
    guard let platform = track(for: origin) else { return undetermined(.noReleases(origin)) }
    let sound = versionRuleIsSound[platform] ?? false
    let useVersion = cutoffRule == .version || (cutoffRule == .automatic && sound)
    func versionDecides(purchased: Date?, _ step: Trace.Step) -> (Decision, Trace) {
      let (decision, release) = byVersion(version!, on: platform, purchased: purchased)
      guard release != nil else { return undetermined(.noVersionedReleases) }
      trace.release = release
      return done(decision, step)
    }
    func dateDecides(_ date: Date, _ step: Trace.Step) -> (Decision, Trace) {
      let (decision, release, disagreed) = byDate(date, platforms: [platform], preferred: platform)
      trace.release = release
      trace.disagreed = disagreed
      return done(decision, step)
    }
    if useVersion {
      if version != nil { return versionDecides(purchased: date, .byVersion) }
      if let date { return dateDecides(date, .noVersionByDate) }
      return undetermined(.noVersionNoDate)
    }
    if let date { return dateDecides(date, .byDate) }
    if version != nil, sound { return versionDecides(purchased: nil, .noDateByVersion) }
    return undetermined(.noDateUndetermined)
  }

  /// The platform whose releases give an original version its meaning.
  @inlinable
  public func track(for platform: Platform) -> Platform? {
    Self.track(for: platform, releases: releases, fallbacks: fallbacks)
  }

  /// A platform's own releases, or those of the platform whose binary it runs.
  @inlinable
  static func track(
    for platform: Platform, releases: [Platform: [Release]], fallbacks: [Platform: Platform]
  ) -> Platform? {
    if releases[platform] != nil { return platform }
    return fallbacks[platform].flatMap { releases[$0] == nil ? nil : $0 }
  }

  /// The order that breaks ties between platforms.
  @inlinable
  func order(of platform: Platform) -> Int {
    platforms.firstIndex(of: platform) ?? 0
  }

  /// The customer's release is the one with the highest version not above theirs, or the first
  /// for a version below every release's; releases without a version take no part.
  @inlinable
  func byVersion(
    _ version: BundleVersion, on platform: Platform, purchased date: Date? = nil
  ) -> (decision: Decision, release: Release?) {
    let rule: CohortRule =
      buildNumberPlatforms.contains(platform) ? .buildNumber : .marketingVersion
    let sorted = versioned[platform] ?? []
    guard let first = sorted.first else {
      return (Decision(cohort: .newCustomer, rule: .undetermined, platform: nil), nil)
    }
    // The last release whose version is not above the customer's, found by halving.
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle].version <= version { low = middle + 1 } else { high = middle }
    }
    let match = low > 0 ? sorted[low - 1] : first
    // The version decides, unless a tier's window begins or ends while its release was on sale.
    let purchased = windowSplits(match.offset, on: platform) ? date : nil
    let decision = Decision(
      cohort: cohort(of: match.release, on: platform, purchased: purchased), rule: rule,
      platform: platform)
    return (decision, match.release)
  }

  /// The customer's release is the one on sale at the purchase date; a purchase at the very
  /// moment a release went live counts as that release, and one before the first release (a
  /// pre-order) as the first.
  @inlinable
  func byDate(_ date: Date, platforms: [Platform], preferred: Platform?) -> (
    decision: Decision, release: Release?, disagreed: Bool
  ) {
    var readings: [(platform: Platform, release: Release)] = []
    for platform in platforms {
      guard let list = releases[platform], let first = list.first else { continue }
      readings.append((platform, list.last { $0.released <= date } ?? first))
    }
    guard var chosen = readings.first(where: { $0.platform == preferred }) ?? readings.first else {
      return (Decision(cohort: .newCustomer, rule: .undetermined, platform: nil), nil, false)
    }
    let disagreed = Set(readings.map { $0.release.tier }).count > 1
    if disagreed {
      // The platforms disagree at this moment: never take away what someone may have paid for.
      chosen =
        readings.max { lhs, rhs in
          let left = lhs.release.tier.map { tierFeatureCounts[$0] ?? 0 } ?? -1
          let right = rhs.release.tier.map { tierFeatureCounts[$0] ?? 0 } ?? -1
          return left != right ? left < right : order(of: lhs.platform) > order(of: rhs.platform)
        } ?? chosen
    }
    let decision = Decision(
      cohort: cohort(of: chosen.release, on: chosen.platform, purchased: date),
      rule: .purchaseDate, platform: chosen.platform)
    return (decision, chosen.release, disagreed)
  }

  /// Whether a written tier's window begins or ends while release `offset` was on sale, so that
  /// its buyers are in different tiers by purchase date.
  @inlinable
  func windowSplits(_ offset: Int, on platform: Platform) -> Bool {
    guard let list = releases[platform], list.indices.contains(offset) else { return false }
    let start = list[offset].released
    let end = offset + 1 < list.count ? list[offset + 1].released : Date.distantFuture
    return (windows[platform] ?? []).contains { window in
      [window.from, window.until].contains { bound in
        bound.map { start < $0 && $0 < end } ?? false
      }
    }
  }

  /// The tier of a purchase of `release`: by its written tier's window when the purchase date is
  /// known, by the release otherwise.
  @inlinable
  func cohort(of release: Release, on platform: Platform, purchased date: Date?) -> PlanCohort<Tier>
  {
    guard let date, let list = windows[platform], !list.isEmpty else {
      return release.tier.map(PlanCohort.legacy) ?? .newCustomer
    }
    let window = list.first { window in
      (window.from.map { date >= $0 } ?? true) && (window.until.map { date < $0 } ?? true)
        && (release.paid || release.tier == window.tier)
    }
    return window.map { PlanCohort.legacy($0.tier) } ?? .newCustomer
  }
}
