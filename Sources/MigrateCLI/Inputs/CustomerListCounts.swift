import Foundation
import MigrateCore
import MigrateSupport

extension CustomerListInput {
    /// Decides every customer of a list as `explain --batch` does and counts them, for `report --batch`: no decision
    /// is written or even formatted, skipped rows are reported on standard error by line, and a list with no row at
    /// all is refused as `explain --batch` refuses it.
    static func summarize(_ path: String, catalog: PlanCatalog, now: Date, context: CommandContext) throws(CommandError) -> BatchSummary {
        let input = try CustomerListInput(path, context: context)
        let display = input.display
        var source: ByteSource?
        let kind: BatchInputKind
        if input.isFolder {
            kind = .folder
        } else {
            let opened = try input.open(path, as: nil)
            kind = opened.0
            source = opened.1
        }
        let list = BatchRun(
            catalog: catalog, display: display, now: now, outputKind: .countsOnly,
            events: BatchRun.Events(
                write: { _ in },
                skipped: { place, message, _, listed in
                    if listed { context.standardError.write("\(display): \(place): skipped: \(message)\n") }
                }))
        do {
            try list.read(kind, source: source, folder: input.absolute)
        } catch let error as BatchListError {
            throw CommandError(.dataError, error.message)
        } catch {
            throw CommandError(.noInput, "\(display): \(error).")
        }
        if list.summary.decided + list.summary.skippedCount == 0 {
            throw CommandError(.dataError, "\(display): \(list.emptyReason(kind)); nothing was decided.")
        }
        return list.summary
    }
}
