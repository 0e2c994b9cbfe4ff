import Foundation
import MigrateCLI

exit(Migrate.run(Array(CommandLine.arguments.dropFirst()), context: .process()).rawValue)
