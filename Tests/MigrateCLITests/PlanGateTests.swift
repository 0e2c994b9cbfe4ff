import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

/// Every command that acts on a plan agrees with `migrate check`: a plan with errors is refused
/// with exit 65 and the errors, never explained, simulated, generated or turned into a matrix.
@Suite("Commands agree with check", .timeLimit(.minutes(20)))
struct PlanGateTests {
    static let commands: [[String]] = [
        ["explain", "--original-version", "31"],
        ["matrix"],
        ["simulate"],
        ["generate", "-o", "/nonexistent/migrate-gate-output"],
    ]

    static let plans: [(file: String, message: String)] = [
        ("Tests/Fixtures/plans/no-free-release.json", "no free release follows a paid one"),
        ("Tests/Fixtures/plans/tier-overlap.json", "tiers 'early' and 'late' both cover iOS"),
        ("Tests/Fixtures/plans/introductory-offer-paid-era.json", "as 'com.example.tally.pro.yearly''s introductory offer"),
    ]

    @Test("A plan that check rejects is refused with exit 65 and check's errors", arguments: commands, plans.indices)
    func refused(command: [String], plan: Int) {
        let (file, message) = Self.plans[plan]
        #expect(Run("check", file).status == .checkFailed)
        let run = Run(arguments: [command[0], file] + command.dropFirst())
        #expect(run.status == .dataError, "\(command[0]): \(run.output)")
        #expect(run.error.contains(message), "\(command[0]) prints the error: \(run.error)")
        #expect(run.error.contains("\(file):"), "the error names the file")
        #expect(run.error.contains("\(file) fails 'migrate check' with 1 error"), "\(run.error)")
        #expect(run.output.isEmpty, "nothing is printed as if the plan were fine")
    }
}
