import Foundation
import MigratePlan
import MigrateSupport

/// The app whose rows a Summary Sales report is read for. App Store Connect's report covers every app and in-app
/// purchase of the developer account, one row per SKU, country, currency and price: an app's own rows are those
/// whose SKU or Apple Identifier is the app's, and its in-app purchases those whose Parent Identifier is the app's
/// SKU (Apple, "Sales and Trends reports": Summary Sales report fields). Every other row is another app's, set aside
/// and counted, never added.
public struct SalesScope: Sendable, Hashable {
    public var name: String
    public var bundleID: String
    /// The SKU chosen in App Store Connect, when known; otherwise found in the report (the bundle id, the name, or
    /// the Parent Identifier of the plan's products).
    public var sku: String?
    /// The app's Apple ID, when known.
    public var appleID: String?
    /// The app's in-app product ids.
    public var products: Set<String>
    /// A report that names one app only, none of whose names is this app's, is taken as this app's (said in the
    /// notes): for `init`, where the project's name may not be the App Store's and the user named the report.
    public var acceptsSoleApp = false

    public init(name: String, bundleID: String, sku: String? = nil, appleID: String? = nil, products: Set<String> = []) {
        self.name = name
        self.bundleID = bundleID
        self.sku = sku
        self.appleID = appleID
        self.products = products
    }

    /// The plan's app: its name, bundle id, SKU and Apple ID (`app.appleID`, else `directSales.offerCodes.appID`),
    /// and its products.
    public init(plan: MigrationPlan) {
        self.init(
            name: plan.app.name, bundleID: plan.app.bundleID, sku: plan.app.sku, appleID: plan.app.appleID ?? plan.directSales?.offerCodes?.appID,
            products: Set(plan.products.map(\.id)))
    }
}

/// An app a report names, as its rows show it: the SKU of its download rows (and the Parent Identifier of its
/// in-app purchases), its titles and Apple Identifiers, and how many rows and units it has.
public struct SalesReportApp: Sendable, Hashable {
    public var sku: String
    public var titles: Set<String> = []
    public var appleIDs: Set<String> = []
    /// Rows and units of the app itself (downloads, redownloads, updates).
    public var rows = 0
    public var units = 0
    /// Rows and units of its in-app purchases (by Parent Identifier).
    public var inAppRows = 0
    public var inAppUnits = 0

    public init(sku: String) {
        self.sku = sku
    }

    /// `'Tally' (SKU TALLY1)`, for messages.
    public var label: String {
        let title = titles.sorted().first.map { "'\($0)' " } ?? ""
        return "\(title)(SKU \(sku))"
    }
}

/// What a report holds, app by app, and which of its apps is the scope's: read in a first pass over the few columns
/// that name a row's app, so that the second pass can count only the app's rows.
public struct SalesReportSurvey: Sendable {
    /// Every app the report names, by SKU.
    public var apps: [String: SalesReportApp] = [:]
    /// In-app purchase rows with no Parent Identifier (older report variants have no such column), by product id.
    public var parentlessProducts: [String: Int] = [:]
    /// The report has a Parent Identifier column.
    public var hasParentColumn = false

    public init() {}

    /// The SKUs of the scope's app: download rows whose SKU is the plan's SKU or bundle id, whose title is the app's
    /// name, or whose Apple Identifier is the app's; and the Parent Identifier of the plan's in-app purchases.
    public func appSKUs(for scope: SalesScope) -> Set<String> {
        var skus = Set<String>()
        let name = scope.name.lowercased()
        for app in apps.values {
            if app.sku == scope.sku || app.sku == scope.bundleID || app.titles.contains(where: { $0.lowercased() == name })
                || scope.appleID.map(app.appleIDs.contains) == true
            {
                skus.insert(app.sku)
            }
        }
        for (sku, products) in productsByParent where !products.isDisjoint(with: scope.products) { skus.insert(sku) }
        return skus
    }

    /// The plan's products by the app SKU the report gives as their parent.
    public var productsByParent: [String: Set<String>] = [:]
}

/// Whether one row of a report is the scope's app's: decided by its SKU and Parent Identifier alone, once the
/// survey has found the app's SKUs.
public struct SalesRowScope: Sendable {
    public let appSKUs: Set<String>
    public let products: Set<String>
    /// In-app rows without a parent count as the app's when the report holds no other app.
    public let parentlessAreOurs: Bool

    public init(survey: SalesReportSurvey, scope: SalesScope) {
        var skus = survey.appSKUs(for: scope)
        if skus.isEmpty, scope.acceptsSoleApp, survey.apps.count == 1, let only = survey.apps.keys.first { skus = [only] }
        appSKUs = skus
        products = scope.products
        parentlessAreOurs = survey.apps.keys.allSatisfy { skus.contains($0) }
    }

    /// Whether a row is the app's: `inApp` rows by their parent (or, with none, their product), others by their SKU.
    public func contains(inApp: Bool, sku: String?, parent: String?) -> Bool {
        if inApp {
            if let parent, !parent.isEmpty { return appSKUs.contains(parent) }
            return sku.map(products.contains) == true || parentlessAreOurs
        }
        return sku.map(appSKUs.contains) ?? parentlessAreOurs
    }
}

/// Rows of other apps a report held, set aside: how many, and whose.
public struct SalesSetAside: Sendable, Hashable {
    /// By the owning app's SKU (the row's SKU, or an in-app row's Parent Identifier; "" when it names none).
    public var rows: [String: Int] = [:]
    public var units: [String: Int] = [:]

    public init() {}

    public var total: Int { rows.values.reduce(0, +) }

    public mutating func add(_ other: SalesSetAside) {
        rows.merge(other.rows, uniquingKeysWith: +)
        units.merge(other.units, uniquingKeysWith: +)
    }
}

/// How a report read for one app was scoped: the apps it holds, which SKUs are the app's, and the rows set aside.
public struct SalesScopeReport: Sendable, Hashable {
    public var apps: [SalesReportApp]
    public var appSKUs: Set<String>
    public var setAside: SalesSetAside
    /// The report's only app was taken as this one though none of its names is (`SalesScope.acceptsSoleApp`).
    public var tookSoleApp = false

    public init(survey: SalesReportSurvey, appSKUs: Set<String>, setAside: SalesSetAside) {
        apps = survey.apps.values.sorted { $0.sku < $1.sku }
        self.appSKUs = appSKUs
        self.setAside = setAside
    }

    /// The other apps whose rows were set aside, each with its rows and units, for the note that says so.
    public var otherApps: [(app: String, rows: Int, units: Int)] {
        setAside.rows.keys.sorted().map { sku in
            let label = apps.first { $0.sku == sku }?.label ?? (sku.isEmpty ? "rows naming no app" : "SKU \(sku)")
            return (label, setAside.rows[sku] ?? 0, setAside.units[sku] ?? 0)
        }
    }

    /// `set aside 12,503 rows of 2 other apps ('Other' (SKU OTHER1): 12,500 rows, 49,870 units; …), not counted`.
    public var note: String? {
        if tookSoleApp, let app = apps.first {
            return "its only app, \(app.label), is taken as this one, though neither its title nor its SKU is this app's"
        }
        let others = otherApps
        guard !others.isEmpty else { return nil }
        let rows = others.map(\.rows).reduce(0, +)
        let listed = others.prefix(5).map {
            "\($0.app): \(Limits.grouped($0.rows)) \($0.rows == 1 ? "row" : "rows"), \(Limits.grouped($0.units)) units"
        }
        return "set aside \(Limits.grouped(rows)) \(rows == 1 ? "row" : "rows") of \(others.count) other \(others.count == 1 ? "app" : "apps") ("
            + listed.joined(separator: "; ") + (others.count > 5 ? "; …" : "")
            + "): this report covers the whole account, and only this app's rows are counted"
    }

    public mutating func add(_ other: SalesScopeReport) {
        for app in other.apps where !apps.contains(where: { $0.sku == app.sku }) { apps.append(app) }
        apps.sort { $0.sku < $1.sku }
        appSKUs.formUnion(other.appSKUs)
        setAside.add(other.setAside)
    }
}
