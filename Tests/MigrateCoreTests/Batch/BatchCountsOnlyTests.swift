import Foundation
import MigrateCore
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

/// `report --batch` wants a list's counts, not its decisions: a counts-only run writes (and formats) nothing and counts
/// every row as a run that writes them does.
@Suite(.timeLimit(.minutes(20))) struct BatchCountsOnlyTests {
    @Test(arguments: [BatchOutputKind.csv, .jsonLines])
    func countsOnlyCountsWhatAWrittenRunCounts(_ written: BatchOutputKind) throws {
        let catalog = try BatchTests.catalog("tilt-to-live-hd")
        let path = repositoryRoot.appendingPathComponent("Examples/tilt-to-live-hd/customers.csv").path
        func run(_ kind: BatchOutputKind) throws -> (summary: BatchSummary, bytes: Int) {
            var bytes = 0
            let list = BatchRun(
                catalog: catalog, display: "customers.csv", now: Date(timeIntervalSince1970: 1_700_000_000), outputKind: kind,
                events: BatchRun.Events(write: { bytes += $0.count }, skipped: { _, _, _, _ in }))
            try list.read(.csv, source: try ByteSource(path: path, display: "customers.csv"), folder: path)
            return (list.summary, bytes)
        }
        let counted = try run(.countsOnly)
        let full = try run(written)
        #expect(counted.bytes == 0)
        #expect(full.bytes > 0)
        #expect(counted.summary.decided > 0)
        #expect(counted.summary.decided == full.summary.decided && counted.summary.skippedCount == full.summary.skippedCount)
        #expect(counted.summary.groups == full.summary.groups && counted.summary.warningCounts == full.summary.warningCounts)
    }
}
