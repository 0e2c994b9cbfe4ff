import MigrateSupport

/// The code of a plan the simulator can't run (a scenario or sweep that doesn't fit the plan).
extension DiagnosticCode {
    public static let simulation = DiagnosticCode("simulation")

    /// Every code above, for the test that keeps them unique.
    public static let simulator: [DiagnosticCode] = [.simulation]
}
