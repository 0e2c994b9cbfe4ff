import Foundation
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateTestSupport
import Testing

let exampleNames = Examples.names

/// The examples whose generated Swift is type-checked for availability: every one but seven-minute-workout,
/// whose layer has the flagship's shape (paid downloads, one non-consumable, no tier), since each example
/// costs about a minute of CI on two cores.
let availabilityExamples = exampleNames.filter { $0 != "seven-minute-workout" }
