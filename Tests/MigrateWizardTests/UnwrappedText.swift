import Foundation

extension String {
    /// The text with each wrapped line joined back to the one before it: `migrate init` continues a line that would
    /// pass 80 columns on indented lines, and a test looks for the wizard's whole sentence.
    var unwrapped: String { replacingOccurrences(of: "\n +", with: " ", options: .regularExpression) }
}
