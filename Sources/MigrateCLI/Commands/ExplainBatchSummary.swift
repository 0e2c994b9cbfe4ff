import Foundation
import MigrateCore
import MigrateSupport

extension ExplainBatch {
    /// Decides every customer of a list as `explain --batch` does and returns only the counts, for `report --batch`:
    /// the decisions themselves are discarded, skipped rows are reported on standard error by line, and a list
    /// with no row at all is refused as `explain --batch` refuses it.
    static func summarize(_ path: String, catalog: PlanCatalog, now: Date, context: CommandContext) throws(CommandError) -> BatchSummary {
        let display = path == "-" ? "standard input" : path
        let absolute = path == "-" ? path : context.resolve(path)
        var isDirectory: ObjCBool = false
        if path != "-" && !FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) {
            throw CommandError(.noInput, "\(path): no such file or folder.")
        }
        guard let discard = FileHandle(forWritingAtPath: "/dev/null") else {
            throw CommandError(.cannotCreate, "/dev/null cannot be opened to discard the decisions.")
        }
        let sink = BatchOutput.Sink.output(TextOutput(handle: discard, isTerminal: false))
        var source: ByteSource?
        let input: InputKind
        if isDirectory.boolValue {
            input = .folder
        } else {
            do {
                source = try ByteSource(path: absolute, display: display)
            } catch {
                throw CommandError(.noInput, error.description + ".")
            }
            switch path == "-" ? "" : (path as NSString).pathExtension.lowercased() {
            case "jsonl", "ndjson", "json": input = .jsonLines
            case "csv", "tsv", "txt": input = .csv
            default: input = sniff(source!.head(4096)) ?? .csv
            }
        }
        let batch = ExplainBatch(
            catalog: catalog, context: context, display: display, now: now, output: BatchOutput(kind: .csv, sink: sink), rejected: nil)
        do {
            switch input {
            case .csv: try batch.readCSV(source!)
            case .jsonLines: try batch.readJSONLines(source!)
            case .folder: try batch.readFolder(absolute)
            }
            batch.drain()
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.noInput, "\(display): \(error).")
        }
        if batch.summary.decided + batch.summary.skippedCount == 0 {
            throw CommandError(.dataError, "\(display): \(batch.emptyReason(input)); nothing was decided.")
        }
        return batch.summary
    }
}
