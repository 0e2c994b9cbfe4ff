import Foundation
import MigratePlan
import MigrateSupport

/// Lines from the report's bytes, handed to the row reader.
extension SalesReportImporter {
    /// Reads a report from pieces of bytes in order: lines are cut at "\n" (a "\r" before it dropped) and
    /// handed to the row reader as bytes, which decodes only the fields it reads (invalid UTF-8 becomes U+FFFD,
    /// as in a whole decode); only a line that spans two pieces is copied. The first problem that ends the
    /// import is kept in `failure`, and then the rest is ignored.
    final class StreamParser {
        let file: String
        private(set) var failure: ImportError?
        private var partial: [UInt8] = []
        private var lineNumber = 0
        private var rows = 0
        private var reader: RowReader?
        /// The first line, held while it is blank and nothing else has been seen: a file of blanks is
        /// empty, but a blank line before content is a header without the needed columns.
        private var blankHeader: String?

        private let progress: (@Sendable (Double) -> Void)?
        /// The share of the input read once the current piece is parsed, for `progress`.
        private var fraction = 0.0

        let bySeries: Bool
        /// The first pass: whose rows these are, nothing counted.
        let surveying: Bool
        let rowScope: SalesRowScope?
        /// Blank lines passed over.
        private var blankLines = 0

        init(
            file: String, bySeries: Bool, progress: (@Sendable (Double) -> Void)?, surveying: Bool = false, rowScope: SalesRowScope? = nil
        ) {
            self.bySeries = bySeries
            self.file = file
            self.progress = progress
            self.surveying = surveying
            self.rowScope = rowScope
        }

        /// What the first pass found.
        func survey() throws(ImportError) -> SalesReportSurvey {
            finishLine()
            if let failure { throw failure }
            return reader?.survey ?? SalesReportSurvey()
        }

        func feed(_ bytes: ArraySlice<UInt8>, readUpTo fraction: Double) {
            guard failure == nil else { return }
            self.fraction = fraction
            bytes.withUnsafeBufferPointer { feed($0) }
        }

        /// Lines found with `memchr`, which reads a word or more at a time.
        private func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            if memchr(base, 0, bytes.count) != nil {
                failure = ImportError(
                    .badData, file: file, "this is a binary file, not a tab-separated sales report",
                    hint: "Pass the .txt or .txt.gz file App Store Connect gives.")
                return
            }
            var start = 0
            while failure == nil, let found = memchr(base + start, 0x0A, bytes.count - start) {
                let newline = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
                if partial.count + (newline - start) > Limits.salesReportLineBytes {
                    tooLong()
                    return
                }
                let piece = UnsafeBufferPointer(start: base + start, count: newline - start)
                if partial.isEmpty {
                    line(piece)
                } else {
                    partial += piece
                    let whole = partial
                    partial.removeAll(keepingCapacity: true)
                    whole.withUnsafeBufferPointer { line($0) }
                }
                start = newline + 1
            }
            guard failure == nil, start < bytes.count else { return }
            partial += UnsafeBufferPointer(start: base + start, count: bytes.count - start)
            if partial.count > Limits.salesReportLineBytes { tooLong() }
        }

        private func tooLong() {
            failure = ImportError(
                .badData, file: file, location: SourceLocation(line: lineNumber + 1, column: 1), place: "line \(lineNumber + 1)",
                "the line is longer than \(Limits.grouped(Limits.salesReportLineBytes)) bytes, migrate's limit for a line of a sales report; stopped reading",
                hint: "A Summary Sales report's lines are a few hundred bytes: pass the .txt or .txt.gz file App Store Connect gives.")
        }

        private func line(_ raw: UnsafeBufferPointer<UInt8>) {
            var bytes = raw
            if bytes.last == 0x0D { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
            lineNumber += 1
            if reader == nil {
                let text = String(decoding: bytes, as: UTF8.self)
                if blankHeader == nil && lineNumber == 1 && text[...].isBlank {
                    blankHeader = text
                    return
                }
                if let blank = blankHeader {
                    // Content after a blank first line: the blank line was the header.
                    guard !text[...].isBlank else {
                        blankLines += 1
                        return
                    }
                    header(blank)
                    guard failure == nil else { return }
                } else {
                    header(text)
                    return
                }
            }
            guard !Self.isBlank(bytes) else {
                blankLines += 1
                return
            }
            reader?.read(bytes, line: lineNumber)
            rows += 1
            if rows % 50_000 == 0 { progress?(fraction) }
        }

        /// `isBlank` without decoding the line unless it holds bytes past ASCII (a Unicode space, perhaps).
        static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for byte in bytes where byte != 0x20 && byte != 0x09 {
                return byte < 0x80 ? false : String(decoding: bytes, as: UTF8.self)[...].isBlank
            }
            return true
        }

        private func header(_ text: String) {
            do throws(ImportError) {
                reader = try SalesReportImporter.header(text, file: file, bySeries: bySeries)
                reader?.surveying = surveying
                reader?.rowScope = rowScope
            } catch {
                failure = error
            }
        }

        /// Reads the last line, when the input doesn't end with a line feed.
        private func finishLine() {
            guard !partial.isEmpty, failure == nil else { return }
            fraction = 1
            let last = partial
            partial = []
            last.withUnsafeBufferPointer { line($0) }
        }

        /// The result, once every piece was fed.
        func finish() throws(ImportError) -> ImportResult {
            finishLine()
            if let failure { throw failure }
            guard let reader else {
                throw ImportError(.badData, file: file, "the file is empty; expected a Summary Sales report with a header line")
            }
            var result = reader.finish()
            // Every line accounted for: the header, each row counted, set aside or skipped, and the blank lines.
            var tally = LineTally()
            tally.lines = lineNumber
            tally.header = 1
            tally.blank = blankLines
            tally.decided = reader.countedRows
            tally.skipped = reader.skippedRows
            tally.setAside = reader.setAside.total
            result.salesTally = tally
            if rowScope != nil { result.salesScope = SalesScopeReport(survey: SalesReportSurvey(), appSKUs: [], setAside: reader.setAside) }
            return result
        }
    }
}
