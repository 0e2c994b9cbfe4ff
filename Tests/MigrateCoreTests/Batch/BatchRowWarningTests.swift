import MigrateCore
import Testing

@Suite("Batch row warnings", .timeLimit(.minutes(20)))
struct BatchRowWarningTests {
    @Test("Each warning's position is its place in allCases, the order rows and the summary list them in")
    func positions() {
        for (offset, warning) in BatchRowWarning.allCases.enumerated() {
            #expect(warning.position == offset, "\(warning)")
        }
        #expect(BatchRowWarning.allCases.sorted() == BatchRowWarning.allCases)
    }
}
