import Foundation
import MigrateCore
import MigrateSupport

/// The engine's reports for many customers at once, a consecutive share of them on each core: with thousands of
/// products each report weighs every product, most of `generate`'s time, and no report depends on another. They
/// come back in the customers' order, the same on any number of cores. The cores share the advisor: it only reads
/// its tables (an advisor a core, over a catalog a core, cost more to make than it saved).
enum ParallelReports {
    /// Below this many products times customers the reports take less than starting threads does, and stay on one.
    static let minimumWork = 20_000

    /// `transform` of each customer's report, in the customers' order. It runs where the report is made, so a large
    /// report needn't outlive it.
    static func map<Result: Sendable>(
        _ customers: [Customer], advisor: Advisor, _ transform: @escaping @Sendable (CustomerReport) -> Result
    ) -> [Result] {
        let shares = min(customers.count, ProcessInfo.processInfo.activeProcessorCount)
        let work = customers.count.multipliedReportingOverflow(by: advisor.catalog.plan.products.count)
        guard shares > 1, work.overflow || work.partialValue >= minimumWork else { return customers.map { transform(advisor.report(for: $0)) } }
        var states = [Bool](repeating: false, count: shares)
        return ParallelShares.run(&states) { share, _ in
            ParallelShares.range(ofShare: share, of: shares, count: customers.count).map { transform(advisor.report(for: customers[$0])) }
        }.flatMap { $0 }
    }

    /// Each customer's report, in the customers' order.
    static func reports(for customers: [Customer], advisor: Advisor) -> [CustomerReport] {
        map(customers, advisor: advisor) { $0 }
    }
}
