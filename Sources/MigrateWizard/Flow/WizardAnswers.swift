import Foundation
import MigrateImport
import MigratePlan

/// How the buyers of one paid era are treated after the switch.
public enum EraTreatment: Sendable, Hashable {
    /// They keep, free, what they had when the app went free: what their purchase included and what the free
    /// updates after it brought.
    case keepWhatTheyBought
    /// They keep only what their own releases included: a later release that added features was a paid upgrade
    /// (a new app, or bought again), so they never had those free. Written as the tier's `grants` and
    /// `takesAway`, the plan's explicit take-away.
    case paidUpgrade
    /// They get every feature, including ones added later.
    case everything
    /// They keep what they bought and may buy this product at this price.
    case discount(product: String, price: Price)
}

/// One paid era: consecutive paid releases whose price bought the same features.
public struct Era: Sendable, Hashable {
    /// Indexes into the wizard's releases.
    public var releases: [Int]
    /// What the era's own releases included.
    public var features: [String]
    /// What its buyers had when the app went free: `features` and what every later paid release added, since
    /// updates were free. What they keep by default.
    public var hadAtSwitch: [String]
    public var from: Date
    /// When the next era (or the free app) began.
    public var until: Date?
    /// `1.0 – 1.2`.
    public var label: String
}

/// Every answer so far. Answers kept after going back become the defaults when asked again.
public struct WizardAnswers: Sendable, Hashable {
    public var appName: String?
    public var bundleID: String?
    public var platforms: [Platform]?
    public var universalPurchase: Bool?
    /// The version history, oldest first (imported, or typed when nothing was found).
    public var releases: [ImportedRelease] = []
    /// Versions the history shows untagged (not releases), oldest first: an era's name covers those dated inside it.
    public var untagged: [ImportedRelease] = []
    /// Index into `releases` of the first free one; `releases.count` means `newFreeRelease`.
    public var firstFree: Int?
    /// When the first free release (a listed one) went live, as answered.
    public var freeGoLive: Date?
    /// Typed (or given with --free-from), not the listed date taken with Return: the plan then records it as
    /// confirmed from the App Store; otherwise the listed date keeps its source, and `check` warns when that
    /// source is weaker than a sale.
    public var freeGoLiveConfirmed = false
    /// Typed, and still to come when typed: the plan records it as planned (`"releasedSource": "planned"`), not confirmed.
    public var freeGoLivePlanned = false
    /// The first free release when it has not shipped yet (or was not found).
    public var newFreeRelease: ImportedRelease?
    /// The first free release on each other platform the app ships on (not listed yet either), each with its own go-live.
    public var platformFreeReleases: [Platform: ImportedRelease] = [:]
    /// When the first free release went live on each other platform, when the first free release is a listed one and
    /// that platform lists its own (its twin: the same version or the next): each platform with its own go-live.
    public var platformGoLives: [Platform: PlatformGoLive] = [:]
    public var price: Price?
    public var features: [Feature]?
    /// When the app went free in the past: the features its free releases gave everyone (nil: not asked).
    public var freeGaveAway: [String]?
    /// The moment the wizard runs at, for what is past and what is planned.
    public var now: Date?
    /// Feature id → index into `releases` of the first paid release that included it; nil for none.
    public var featureSince: [String: Int?] = [:]
    /// The imported products, and the one typed at the product question (last).
    public var products: [Product] = []
    /// The product typed because no imported one unlocks features (or `--product` was given).
    public var newProduct: Product?
    /// Product id → whether the app sells it, for imported products whose id says they may be someone else's
    /// (a placeholder, a sample, another app's); those answered false are left out of `products`.
    public var sells: [String: Bool] = [:]
    /// Product id → how long one purchase of an imported non-renewing subscription lasts.
    public var durations: [String: TrialPeriod] = [:]
    /// Product id → the features it grants, once answered.
    public var grants: [String: [String]] = [:]
    public var eraTreatments: [Int: EraTreatment] = [:]
    public var nonProduction: Policies.NonProduction?
    public var verificationFailure: Policies.VerificationFailure?
    public var familySharing: Policies.FamilySharing?
    /// Asked when no sales history shows a trend (none, or too few months).
    public var paidDownloads: PaidDownloads?
    public var confirmed: Bool?
    /// The text of each accepted answer, by its `--answers` key, so a session can be saved and run
    /// again with `--answers` (a default taken from a list is saved as `#N`).
    public var typed: [String: String] = [:]

    public init() {}

    /// Whether the first free release is a listed one that went live before `now`: the app is free already.
    public func wentFree(before now: Date) -> Bool {
        // From the listed releases alone: `freeDate` reads `allReleases`, which holds the releases this decides.
        guard let firstFree, firstFree < releases.count else { return false }
        return (freeGoLive ?? releases[firstFree].date) <= now
    }

    /// The release that starts selling what the free releases gave away, when they gave something: the next major
    /// version after the newest listed release, planned a month from now, one per platform that has releases. Its
    /// downloaders are the first to buy; the free era's keep what they had.
    public var freemiumReleases: [ImportedRelease] {
        guard let now, let gave = gaveAway, !gave.isEmpty else { return [] }
        let day = Calendar(identifier: .gregorian).startOfDay(for: now.addingTimeInterval(30 * 86_400)).addingTimeInterval(12 * 3_600)
        return Array(Set(releases.map(\.platform))).sorted().filter { platforms?.contains($0) ?? true }.compactMap { platform in
            guard let newest = releases.last(where: { $0.platform == platform }) else { return nil }
            let major = (newest.version.components.first ?? 0) + 1
            // A build number one past the newest, on the platforms whose receipts carry one.
            let build = newest.build.map { Version(($0.components.first ?? 0) + 1) }
            return ImportedRelease(
                platform: platform, version: Version(major, 0), build: build, date: day,
                dateSource: "planned: sells what the free releases gave away", provenance: .planned, origin: "init")
        }
    }

    /// The releases including a not-yet-listed first free one, oldest first.
    public var allReleases: [ImportedRelease] {
        var all = releases
        if let newFreeRelease, firstFree == releases.count {
            all.append(newFreeRelease)
            // After it, so that `firstFree` still points at it.
            let shipped = Set(platforms ?? Platform.allCases).subtracting([newFreeRelease.platform])
            all += platformFreeReleases.keys.sorted().filter(shipped.contains).compactMap { platformFreeReleases[$0] }
        } else {
            // A listed first free release: a platform that lists no release of that version or later goes free with a
            // release of its own, not listed yet.
            all += platformFreeReleases.keys.sorted().filter(needsOwnFreeRelease).compactMap { platformFreeReleases[$0] }
        }
        return all + freemiumReleases
    }

    /// The moment the app became free, once known.
    public var freeDate: Date? {
        guard let firstFree else { return nil }
        if firstFree < releases.count, let freeGoLive { return freeGoLive }
        return allReleases.indices.contains(firstFree) ? allReleases[firstFree].date : nil
    }

    /// When the app goes free on one platform: its own first free release's go-live when it has one, else `freeDate`.
    public func freeDate(on platform: Platform) -> Date? {
        if firstFree == releases.count, platform != newFreeRelease?.platform, let own = platformFreeReleases[platform],
            platforms?.contains(platform) ?? true
        {
            return own.date
        }
        if listedFreeRelease(on: platform) != nil, let own = platformGoLives[platform] { return own.date }
        if needsOwnFreeRelease(platform), let own = platformFreeReleases[platform] { return own.date }
        return freeDate
    }

    /// When the first free release is a listed one, the listed release that is the first free one on another
    /// platform: the first there of the same version or later (a multiplatform target's tag lists each version once
    /// per platform). Nil on the first free release's own platform, or when that platform lists none.
    public func listedFreeRelease(on platform: Platform) -> Int? {
        guard let firstFree, firstFree < releases.count else { return nil }
        let main = releases[firstFree]
        guard platform != main.platform, platforms?.contains(platform) ?? true else { return nil }
        return releases.indices.first { releases[$0].platform == platform && releases[$0].version >= main.version }
    }

    /// When the first free release is a listed one: whether `platform` lists releases but none of that version or later,
    /// so its own first free release is still to come (asked as `platformFreeRelease`). Without one its buyers would
    /// stay paying customers with no free release at all.
    public func needsOwnFreeRelease(_ platform: Platform) -> Bool {
        guard let firstFree, firstFree < releases.count, platform != releases[firstFree].platform else { return false }
        guard platforms?.contains(platform) ?? true, releases.contains(where: { $0.platform == platform }) else { return false }
        return listedFreeRelease(on: platform) == nil
    }

    /// Whether a release (an index into `allReleases`) was paid: a listed one before its platform went free. A
    /// release not listed yet is a free one; with no free release answered yet, every listed one counts as paid.
    public func isPaid(_ index: Int) -> Bool {
        guard index < releases.count, index != firstFree, index != listedFreeRelease(on: releases[index].platform) else { return false }
        guard let free = freeDate(on: releases[index].platform) else { return true }
        return releases[index].date < free
    }

    /// The first free release on each platform that has one, the first free release's own platform first.
    public var firstFreeReleases: [ImportedRelease] {
        guard let firstFree, allReleases.indices.contains(firstFree) else { return [] }
        guard firstFree == releases.count else {
            let others = (platforms ?? []).compactMap(listedFreeRelease(on:)).sorted().map { releases[$0] }
            return [allReleases[firstFree]] + others + Array(allReleases[releases.count...])
        }
        return [allReleases[firstFree]] + Array(allReleases[(firstFree + 1)...])
    }

    /// Indexes of the paid releases (before the first free one), oldest first.
    public var paidReleases: [Int] {
        guard freeDate != nil else { return [] }
        // The first free release itself is listed before its go-live when its date is a commit's or a tag's.
        return allReleases.indices.filter(isPaid)
    }

    /// The features each paid release included, by `featureSince`.
    public func includes(ofRelease index: Int) -> [String] {
        let date = allReleases[index].date
        return (features ?? []).filter { feature in
            guard let since = featureSince[feature.id] ?? nil, allReleases.indices.contains(since) else { return false }
            return allReleases[since].date <= date
        }.map(\.id)
    }

    /// What the free releases gave away, when the app went free in the past and it was answered; an answer kept from
    /// before the first free release changed to one still to come counts for nothing.
    public var gaveAway: [String]? {
        guard let now, wentFree(before: now) else { return nil }
        return freeGaveAway
    }

    /// What every paid era's buyers had when the app went free: the default of what the free releases gave away.
    public var hadAtSwitch: [String] {
        let had = Set(paidReleases.flatMap { includes(ofRelease: $0) })
        return (features ?? []).map(\.id).filter(had.contains)
    }

    /// Paid releases grouped into eras by what their price bought.
    public var eras: [Era] {
        var eras: [Era] = []
        for index in paidReleases {
            let included = includes(ofRelease: index)
            if var last = eras.last, last.features == included {
                last.releases.append(index)
                eras[eras.count - 1] = last
            } else {
                eras.append(
                    Era(releases: [index], features: included, hadAtSwitch: [], from: allReleases[index].date, until: nil, label: ""))
            }
        }
        let atSwitch = Set(paidReleases.flatMap { includes(ofRelease: $0) })
        for position in eras.indices {
            eras[position].hadAtSwitch = (features ?? []).map(\.id).filter(atSwitch.contains)
            eras[position].until = position + 1 < eras.count ? eras[position + 1].from : freeDate
            eras[position].label = label(of: eras[position])
        }
        return eras
    }

    /// An era's name: the versions it covers, on each platform when they differ between platforms (one range across
    /// them would overlap the next era's), reaching to the untagged versions dated inside it, whose buyers are its
    /// buyers too (read as the release before them).
    func label(of era: Era) -> String {
        let end = era.until ?? .distantFuture
        var ranges: [(platform: Platform, text: String)] = []
        for platform in Set(era.releases.map { allReleases[$0].platform }).sorted() {
            let own = era.releases.filter { allReleases[$0].platform == platform }
            let first = allReleases[own.first!].version
            var last = allReleases[own.last!].version
            for version in untagged
            where version.platform == platform && version.date >= era.from && version.date < end && version.version > last {
                last = version.version
            }
            ranges.append((platform, first.canonical == last.canonical ? first.text : "\(first.text) – \(last.text)"))
        }
        if Set(ranges.map(\.text)).count <= 1 { return ranges.first?.text ?? "" }
        return ranges.map { "\($0.platform) \($0.text)" }.joined(separator: ", ")
    }
}

/// A platform's own go-live for its listed first free release, as answered.
public struct PlatformGoLive: Sendable, Hashable {
    public var date: Date
    /// Typed (not the listed date taken with Return): the plan records it as confirmed from the App Store.
    public var confirmed: Bool
    /// Typed and still to come: recorded as planned.
    public var planned: Bool

    public init(date: Date, confirmed: Bool, planned: Bool) {
        self.date = date
        self.confirmed = confirmed
        self.planned = planned
    }
}
