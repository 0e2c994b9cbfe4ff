import MigrateCore

/// One factor's value in a row.
public struct FactorValue: Sendable, Hashable {
    public var factor: String
    public var value: String

    public init(factor: String, value: String) {
        self.factor = factor
        self.value = value
    }
}

/// What the app must do for the customer a row describes, as the engine decides it.
public struct ExpectedOutcome: Sendable, Hashable {
    /// `legacy` or `newCustomer`.
    public var cohort: String
    /// The legacy tier's id, for `legacy`.
    public var tier: String?
    /// How the cohort was decided (`CutoffRuleKind` raw value).
    public var rule: String
    /// Feature ids the customer has, in plan order.
    public var features: [String]
    /// Product ids offered, in the order the upsell shows them.
    public var offers: [String]
    /// Whether the Restore Purchases control is shown.
    public var restoreShown: Bool
    /// The message after tapping Restore, for the row's restore outcome.
    public var restoreMessage: String

    /// `legacy paid-1.0` or `newCustomer`, for tables.
    public var cohortLabel: String { tier.map { "\(cohort) \($0)" } ?? cohort }
}

/// One test case: a value per factor and, for a plan's matrix, the outcome to expect.
///
/// `migrate generate` consumes these: `customer` and `restore` are the inputs to inject,
/// `expected` the assertions, `explainArguments` the `migrate explain` call that shows why.
public struct MatrixRow: Sendable, Hashable {
    /// 1-based.
    public var number: Int
    public var values: [FactorValue]
    /// The customer the row describes (plan matrices only).
    public var customer: Customer?
    /// The outcome of a Restore Purchases tap (plan matrices only).
    public var restore: RestoreOutcome?
    public var expected: ExpectedOutcome?
    /// Arguments for `migrate explain PLAN …` that describe the same customer (plan matrices only).
    public var explainArguments: [String]

    public init(
        number: Int, values: [FactorValue], customer: Customer? = nil, restore: RestoreOutcome? = nil, expected: ExpectedOutcome? = nil,
        explainArguments: [String] = []
    ) {
        self.number = number
        self.values = values
        self.customer = customer
        self.restore = restore
        self.expected = expected
        self.explainArguments = explainArguments
    }

    public func value(of factor: String) -> String? { values.first { $0.factor == factor }?.value }
}

extension CoveringArray {
    /// The rows as plain `MatrixRow`s (no expected outcome: a generic model has none).
    public var matrixRows: [MatrixRow] {
        rows.enumerated().map { index, row in
            MatrixRow(
                number: index + 1,
                values: row.enumerated().map {
                    FactorValue(factor: model.factors[$0.offset].name, value: model.factors[$0.offset].levels[$0.element])
                })
        }
    }
}
