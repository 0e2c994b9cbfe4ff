import MigratePlan
import MigrateSupport

/// A problem that stops a simulation, with the place in the plan (or on the command line) to fix.
public struct SimulationError: Error, Sendable, Hashable {
    public var message: String
    /// Where in the plan, when the problem is in the plan.
    public var path: JSONPath?
    public var hint: String?
    /// True when the command line is at fault (an unknown scenario, a malformed sweep).
    public var isUsage: Bool
    /// The input at fault when it is not the plan (a sales report); the message names it.
    public var file: String?

    public init(_ message: String, path: JSONPath? = nil, hint: String? = nil, isUsage: Bool = false, file: String? = nil) {
        self.message = message
        self.path = path
        self.hint = hint
        self.isUsage = isUsage
        self.file = file
    }
}
