import Foundation
import MigrateImport

/// One App Store Connect sales report as a command reads it (`import sales`, `simulate --actuals`, `report --actuals`):
/// only the rows of the app `SalesScope` names, its lines accounted for on standard error.
enum SalesReportInput {
    /// Reads `file`; a report of millions of rows takes seconds, so a terminal shows how far it is. `bySeries`: counts
    /// per series in each period, for the actuals (`SalesReportImporter.read`). The rows of other apps are set aside
    /// and said so.
    static func read(_ file: InputFile, bySeries: Bool = false, scope: SalesScope?, context: CommandContext) throws(CommandError)
        -> ImportResult
    {
        let line = ProgressLine(output: context.standardError, label: "reading \(file.displayPath)")
        var progress: (@Sendable (Double) -> Void)?
        if let line { progress = { fraction in line.update(fraction) } }
        let result: ImportResult
        do throws(ImportError) {
            result = try SalesReportImporter.read(file.bytes, file: file.displayPath, bySeries: bySeries, scope: scope, progress: progress)
        } catch {
            throw CommandError(error)
        }
        line?.finish()
        if let tally = result.salesTally {
            let sentence = tally.sentence(records: ("row", "rows"), decidedVerb: "counted") + "."
            // A long path goes on a line of its own, the sentence under it, so neither is cut at 80 columns.
            let fits = file.displayPath.count + sentence.count + 2 <= TerminalWidth.columns
            var text = fits ? "\(file.displayPath): \(sentence)\n" : "\(file.displayPath):\n  \(sentence)\n"
            if let note = result.salesScope?.note { text += "  \(note)\n" }
            context.standardError.write(text)
        }
        return result
    }
}
