/// The keys each object of a plan may hold. The decoder rejects others (with a suggestion),
/// and a test keeps `migrate schema` in step with these lists.
public enum PlanKeys {
    public static let root = [
        "$schema", "formatVersion", "app", "features", "releases", "products", "tiers", "policies", "installBase", "simulation",
    ]
    public static let app = ["name", "bundleID", "platforms", "universalPurchase"]
    public static let feature = ["id", "name"]
    public static let release = ["platform", "version", "build", "released", "releasedSource", "model", "price", "includes"]
    public static let releasedSources = ReleaseDateSource.allCases.map(\.rawValue)
    public static let product = [
        "id", "name", "type", "price", "grants", "contains", "requires", "forSale", "familyShareable", "subscription", "trial",
    ]
    public static let subscription = ["group", "level", "period"]
    public static let tier = ["id", "name", "from", "until", "platforms", "grants", "discounts"]
    public static let discount = ["product", "price", promotionalOffer, legacyProduct]
    /// The mechanisms that charge a legacy price; a discount names exactly one.
    public static let promotionalOffer = "promotionalOffer"
    public static let legacyProduct = "legacyProduct"
    public static let policies = ["nonProduction", "verificationFailure", "familySharing", "cutoffRule"]
    public static let nonProduction = ["treatAs", "tier"]
    public static let verificationFailure = ["action", "days"]

    public static let installBase = ["from", "until", "downloads", "products", "months"]
    public static let monthlyDownloads = ["month", "paid"]
    public static let downloadCount = ["platform", "version", "paid", "free", "refunds"]
    public static let productCount = ["product", "units", "refunds"]

    public static let simulation = ["horizonMonths", "commission", "assumptions", "scenarios"]
    public static let scenario = ["id", "name", "assumptions", "prices", "tiers", "commission"]
    public static let scenarioPrice = ["product", "price"]
    public static let assumptions = SimulationAssumption.allCases.map(\.rawValue)
    public static let distribution = ["distribution", "value", "low", "mode", "high"]
    public static let distributions = ["point", "uniform", "triangular", "logNormal"]
    public static let commissions = Commission.allCases.map(\.rawValue)

    public static let productTypes = Product.Kind.allCases.map(\.rawValue)
    public static let models = ["paid", "free"]
    public static let subscriptionPeriods = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"]
    public static let nonProductionChoices = ["newCustomer", "tier"]
    public static let verificationFailureChoices = ["deny", "keepLastVerified"]
    /// The days `keepLastVerified` may keep a verified result: the one bound the decoder, the schema,
    /// `init`'s question and its `--verification-failure` flag all read.
    public static let keepLastVerifiedDays: ClosedRange<Int> = 1...90
    public static let familySharingChoices = ["entitles", "ignored"]
    public static let cutoffRuleChoices = ["automatic", "version", "date"]
}
