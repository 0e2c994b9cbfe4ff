import Foundation
import MigratePlan
import MigrateSupport

/// A row's fields: the line cut at its tabs into byte ranges, each field decoded only when read, and what its
/// Product Type Identifier counts as.
extension SalesReportImporter.RowReader {
    mutating func read(_ line: UnsafeBufferPointer<UInt8>, line number: Int) {
        // Tabs split at the byte level, into offsets kept from row to row; a field is decoded only when read.
        var bounds = spareBounds
        spareBounds = []
        bounds.removeAll(keepingCapacity: true)
        bounds.append(0)
        var index = 0
        if let base = line.baseAddress {
            // Eight bytes a step: a byte's high bit marks a tab, exactly (no carry crosses a byte).
            while index + 8 <= line.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian ^ 0x0909_0909_0909_0909
                var tabs = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
                while tabs != 0 {
                    bounds.append(index + tabs.trailingZeroBitCount >> 3 + 1)
                    tabs &= tabs &- 1
                }
                index += 8
            }
        }
        while index < line.count {
            if line[index] == 0x09 { bounds.append(index + 1) }
            index += 1
        }
        bounds.append(line.count + 1)
        let fields = Fields(line: line, bounds: bounds)
        bounds = []
        defer { spareBounds = fields.bounds }
        read(fields, line: number)
    }

    /// A row's fields as ranges of its line's bytes: field `i` is `line[bounds[i] ..< bounds[i + 1] - 1]`. What a row
    /// reads is decoded from them; the common forms (ASCII text, whole numbers, amounts) without making a `String`.
    struct Fields {
        let line: UnsafeBufferPointer<UInt8>
        let bounds: [Int]

        var count: Int { bounds.count - 1 }

        /// The field as text, untrimmed.
        func text(_ index: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: line[bounds[index]..<bounds[index + 1] - 1]), as: UTF8.self)
        }

        /// The field's bytes without surrounding spaces (empty when blank) when ASCII decides where it starts and ends,
        /// or nil when a byte past ASCII is at an edge (a Unicode space, perhaps): then `string` trims as `trimmedOfSpaces`.
        func ascii(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
            var start = bounds[index]
            var end = bounds[index + 1] - 1
            while start < end && line[start] == 0x20 { start += 1 }
            while end > start && line[end - 1] == 0x20 { end -= 1 }
            guard start == end || (line[start] < 0x80 && line[end - 1] < 0x80) else { return nil }
            return UnsafeBufferPointer(rebasing: line[start..<end])
        }

        /// The field without surrounding spaces, or nil when that leaves nothing.
        func string(_ index: Int) -> String? {
            if let bytes = ascii(index) { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            let value = Substring(text(index)).trimmedOfSpaces
            return value.isEmpty ? nil : String(value)
        }

        /// A whole number as `Int(_:)` reads it (a sign, ASCII digits, no overflow), or nil to read the field as text.
        func integer(_ index: Int) -> Int? {
            guard let bytes = ascii(index), let first = bytes.first else { return nil }
            let negative = first == 0x2D
            var position = negative || first == 0x2B ? 1 : 0
            guard position < bytes.count else { return nil }
            var value = 0
            while position < bytes.count {
                let digit = bytes[position] &- 0x30
                guard digit < 10 else { return nil }
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
                guard !overflow && !overflowSum else { return nil }
                value = sum
                position += 1
            }
            return value
        }

        /// An amount in ten-thousandths as `amount(_:)` reads its plain forms (`-1.99`, `0`, `12.5`), or nil to read the
        /// field as text (blank, grouping commas, anything else).
        func amount(_ index: Int) -> Int64? {
            guard let bytes = ascii(index), let first = bytes.first else { return nil }
            let negative = first == 0x2D
            var position = negative ? 1 : 0
            var whole: Int64 = 0
            let wholeStart = position
            while position < bytes.count {
                let digit = bytes[position] &- 0x30
                guard digit < 10 else { break }
                whole = whole &* 10 &+ Int64(digit)
                position += 1
            }
            guard position > wholeStart, position - wholeStart <= Limits.priceWholeDigits else { return nil }
            var fraction: Int64 = 0
            if position < bytes.count {
                guard bytes[position] == 0x2E, bytes.count - position - 1 <= 4, position + 1 < bytes.count else { return nil }
                position += 1
                var scale: Int64 = 1_000
                while position < bytes.count {
                    let digit = bytes[position] &- 0x30
                    guard digit < 10 else { return nil }
                    fraction += Int64(digit) * scale
                    scale /= 10
                    position += 1
                }
            }
            let value = whole * SalesPeriod.proceedsScale + fraction
            return negative ? -value : value
        }
    }

    /// What a Product Type Identifier counts as: `downloadTypes`, `redownloadTypes` (a "7" in it an update),
    /// `inAppTypes`, or none of them.
    enum TypeKind {
        case download, redownload, update, inApp, other

        init(_ type: String) {
            if SalesReportImporter.downloadTypes.contains(type) {
                self = .download
            } else if SalesReportImporter.redownloadTypes.contains(type) {
                self = type.contains("7") ? .update : .redownload
            } else if SalesReportImporter.inAppTypes.contains(type) {
                self = .inApp
            } else {
                self = .other
            }
        }

        /// The kind of an ASCII identifier up to 8 bytes, without hashing it; nil for any other.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count <= 8, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let packed = Self.pack(bytes)
            guard let kind = Self.table.first(where: { $0.packed == packed })?.kind else {
                self = .other
                return
            }
            self = kind
        }

        static func pack<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
            bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | UInt64(bytes.count) << 60
        }

        /// Every identifier of the three sets, packed, with its kind.
        static let table: [(packed: UInt64, kind: TypeKind)] =
            (SalesReportImporter.downloadTypes.union(SalesReportImporter.redownloadTypes).union(SalesReportImporter.inAppTypes)).map {
                (pack(Array($0.utf8)), TypeKind($0))
            }
    }
}
