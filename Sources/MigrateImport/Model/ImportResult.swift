import Foundation
import MigratePlan
import MigrateSupport

/// What one importer learned from one source, before it is merged into a plan.
///
/// Importers only read: they never touch a plan, never print, and report every doubt as an issue,
/// so the command and the `migrate init` wizard decide how to show it.
public struct ImportResult: Sendable, Hashable {
    /// Which importer produced it, such as `storekit` or `git`.
    public var source: String
    /// What the source says about the app itself, for a new plan.
    public var app: AppHints
    public var releases: [ImportedRelease]
    public var products: [Product]
    public var installBase: InstallBase?
    /// The first day each version sold, from daily sales reports: evidence for release dates.
    public var firstSales: [FirstSale]
    /// Things the source holds that the plan has no place for (introductory offers, test settings…).
    public var ignored: [String]
    public var issues: [Diagnostic]
    /// Sales reports only: counts by reporting period, for comparing a forecast with what happened.
    public var periods: [SalesPeriod] = []
    /// Sales reports only: the titles, SKUs and products the report names.
    public var salesIdentity: SalesReportIdentity?
    /// Sales reports only: every line accounted for (counted, set aside as another app's, skipped, blank, header).
    public var salesTally: LineTally?
    /// Sales reports read for one app: its apps, which are this app's, and the rows set aside.
    public var salesScope: SalesScopeReport?
    /// `.storekit` files only: the storefront its prices are in (`settings._storefront`, such as `DEU`), when it says.
    public var storefront: String?
    /// Sales reports only: the customer price most paid downloads were sold at.
    public var paidDownloadPrice: PaidDownloadPrice?

    public init(
        source: String, app: AppHints = AppHints(), releases: [ImportedRelease] = [], products: [Product] = [],
        installBase: InstallBase? = nil, firstSales: [FirstSale] = [], ignored: [String] = [], issues: [Diagnostic] = []
    ) {
        self.source = source
        self.app = app
        self.releases = releases
        self.products = products
        self.installBase = installBase
        self.firstSales = firstSales
        self.ignored = ignored
        self.issues = issues
    }

    /// Several pages or files of one source, read as one.
    public mutating func append(_ other: ImportResult) {
        app.fill(from: other.app)
        releases += other.releases
        products += other.products
        if let base = other.installBase {
            installBase = installBase.map { InstallBaseBuilder.combine($0, base) } ?? base
        }
        firstSales = FirstSale.earliest(firstSales + other.firstSales)
        ignored += other.ignored
        issues += other.issues
        if !other.periods.isEmpty { periods = SalesPeriod.combined(periods + other.periods) }
        if let identity = other.salesIdentity {
            salesIdentity = salesIdentity ?? SalesReportIdentity()
            salesIdentity?.add(identity)
        }
        if let price = other.paidDownloadPrice, price.units > (paidDownloadPrice?.units ?? 0) { paidDownloadPrice = price }
        if let tally = other.salesTally { salesTally = (salesTally ?? LineTally()) + tally }
        if let scope = other.salesScope {
            if salesScope == nil {
                salesScope = scope
            } else {
                salesScope?.add(scope)
            }
        }
    }
}

/// What a source says about the app: each piece only when the source holds it.
public struct AppHints: Sendable, Hashable {
    public var name: String?
    public var bundleID: String?
    public var platforms: [Platform]

    public init(name: String? = nil, bundleID: String? = nil, platforms: [Platform] = []) {
        self.name = name
        self.bundleID = bundleID
        self.platforms = platforms
    }

    /// Takes what this one lacks from `other`.
    public mutating func fill(from other: AppHints) {
        name = name ?? other.name
        bundleID = bundleID ?? other.bundleID
        for platform in other.platforms where !platforms.contains(platform) { platforms.append(platform) }
        platforms.sort()
    }
}

/// A release as a source saw it: the model (paid or free) is never known to a source.
public struct ImportedRelease: Sendable, Hashable {
    public var platform: Platform
    /// `CFBundleShortVersionString`.
    public var version: Version
    /// `CFBundleVersion`, when the source knows it.
    public var build: Version?
    /// The best date the source has for when it went live.
    public var date: Date
    /// Which date that is, such as `earliestReleaseDate` or `first commit 1a2b3c4`: sources rarely
    /// know the moment a build went live, so the user must be told what was used.
    public var dateSource: String
    /// What kind of evidence the date is, written to the plan as `releasedSource`.
    public var provenance: ReleaseDateSource
    /// Where in the source it was found, such as `builds.json data[3]`.
    public var origin: String

    /// - Parameter provenance: defaults to the weakest kind, a commit date, when the caller can't say.
    public init(
        platform: Platform, version: Version, build: Version?, date: Date, dateSource: String, provenance: ReleaseDateSource = .commit,
        origin: String
    ) {
        self.platform = platform
        self.version = version
        self.build = build
        self.date = date
        self.dateSource = dateSource
        self.provenance = provenance
        self.origin = origin
    }

    /// `2.0 (40)`, or `2.0` without a build.
    public var displayName: String {
        build.map { "\(version) (\($0))" } ?? version.text
    }
}

/// Why a source could not be read at all: a `Diagnostic` (with the file and the place in it) and what kind of
/// failure it is, which decides the exit code. The plan is left untouched.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The file is not in the expected format (exit 65).
        case badData
        /// The file, folder or repository is missing (exit 66).
        case noInput
        /// A tool the importer needs, such as `git`, is missing (exit 66: the input cannot be read).
        case toolMissing

        var code: DiagnosticCode {
            switch self {
            case .badData: .unreadableSource
            case .noInput: .missingSource
            case .toolMissing: .missingTool
            }
        }
    }

    public var kind: Kind
    public var diagnostic: Diagnostic

    public init(
        _ kind: Kind, file: String, location: SourceLocation? = nil, place: String? = nil, _ message: String, hint: String? = nil
    ) {
        self.kind = kind
        self.diagnostic = Diagnostic(.error, code: kind.code, message, location: location, hint: hint, file: file, place: place)
    }

    /// The file as the user named it.
    public var file: String { diagnostic.file ?? "" }
    public var location: SourceLocation? { diagnostic.location }
    public var message: String { diagnostic.message }
    public var place: String? { diagnostic.place }
    public var hint: String? { diagnostic.hint }

    /// `file:line:column: place: message`, the way compilers name a place.
    public var description: String {
        var text = file
        if let location { text += ":\(location)" }
        text += ": "
        if let place = diagnostic.place { text += "\(place): " }
        text += message
        if let hint = diagnostic.hint { text += "\n  fix: \(hint)" }
        return text
    }
}

/// What a paid download cost, as a sales report shows it: the customer price most paid downloads were sold at, in the
/// currency most were sold in, and how many of them.
public struct PaidDownloadPrice: Sendable, Hashable {
    public var price: Price
    public var currency: String
    public var units: Int
    /// Paid downloads in that currency at any price.
    public var of: Int

    public init(price: Price, currency: String, units: Int, of total: Int) {
        self.price = price
        self.currency = currency
        self.units = units
        self.of = total
    }
}
