import MigrateSupport

/// The code of a plan the simulator can't run (a scenario or sweep that doesn't fit the plan).
extension DiagnosticCode {
    /// The codes, each a case, so the list of them is complete by construction.
    public enum Simulation: String, DiagnosticCodes {
        case simulation
    }

    public static let simulation = DiagnosticCode(Simulation.simulation)
}
