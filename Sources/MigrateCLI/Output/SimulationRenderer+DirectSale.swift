import MigrateSimulation
import MigrateSupport

extension SimulationRenderer {
    /// A direct-sale edition's figures in `simulate --format json`: the counts, the redeemers' range and the bound
    /// on what they cost (`maximum`; the minimum is nothing).
    static func json(_ sale: DirectSaleFigures, _ number: (Double) -> JSONValue) -> JSONValue {
        .members([
            ("edition", .string(sale.editionID)),
            ("holders", .integer(sale.holders)),
            ("seats", .integer(sale.seats)),
            ("refunded", .integer(sale.refunded)),
            ("redeemers", .object(["p10": number(sale.redeemersLow), "p50": number(sale.redeemers), "p90": number(sale.redeemersHigh)])),
            (
                "forgoneSales",
                sale.forgone.map { forgone in
                    .members([
                        ("product", .string(forgone.productID)), ("price", number(forgone.price)),
                        ("periodMonths", forgone.periodMonths.map { .integer($0) }), ("minimum", number(0)),
                        ("maximum", number(forgone.upperBound)),
                    ])
                } ?? .null
            ),
        ])
    }
}
