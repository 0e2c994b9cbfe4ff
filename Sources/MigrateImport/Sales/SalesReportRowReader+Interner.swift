import Foundation
import MigratePlan
import MigrateSupport

/// Titles, SKUs and currencies, each decoded and hashed once however many rows repeat it.
extension SalesReportImporter.RowReader {
    /// The entry in `texts` of a field whose ends are ASCII and that isn't blank; nil to read it as text.
    mutating func interned(_ column: Int?, _ fields: Fields) -> Int? {
        guard let column, let bytes = fields.ascii(column), !bytes.isEmpty else { return nil }
        return texts.entry(bytes)
    }

    /// Texts found by their bytes with a cheap hash (eight bytes a step, not `Hasher`'s SipHash), each decoded once,
    /// with a bit for each set already holding it. Up to `limit` texts; past that, `entry` says nil.
    struct Interner {
        static let appNames: UInt8 = 1
        static let titles: UInt8 = 2
        static let appSKUs: UInt8 = 4
        static let products: UInt8 = 8
        static let limit = 4_096

        private(set) var strings: [String] = []
        var flags: [UInt8] = []
        private var hashes: [UInt64] = []
        /// Each text's bytes, `bytes[starts[i] ..< starts[i + 1]]`.
        private var bytes: [UInt8] = []
        private var starts: [Int] = [0]
        /// Open addressing: an entry's index, or -1.
        private var slots = [Int32](repeating: -1, count: 1_024)

        static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
            var index = 0
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 29
                index += 8
            }
            var last: UInt64 = 0
            while index < bytes.count {
                last = last << 8 | UInt64(bytes[index])
                index += 1
            }
            hash = (hash ^ last) &* 0xC4CE_B9FE_1A85_EC53
            return hash ^ hash >> 32
        }

        /// Inserts a text into a set, unless its entry (if it has one) says the set holds it already.
        mutating func insert(_ text: String, _ entry: Int?, into set: inout Set<String>, flag: UInt8) {
            guard let entry else {
                set.insert(text)
                return
            }
            guard flags[entry] & flag == 0 else { return }
            set.insert(text)
            flags[entry] |= flag
        }

        mutating func entry(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
            let hash = Self.hash(text)
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 {
                let entry = Int(slots[slot])
                if hashes[entry] == hash && starts[entry + 1] - starts[entry] == text.count
                    && bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + starts[entry], text.baseAddress!, text.count) == 0 })
                {
                    return entry
                }
                slot = (slot + 1) & mask
            }
            guard strings.count < Self.limit else { return nil }
            strings.append(String(decoding: text, as: UTF8.self))
            flags.append(0)
            hashes.append(hash)
            bytes += text
            starts.append(bytes.count)
            slots[slot] = Int32(strings.count - 1)
            if strings.count * 2 > slots.count {
                // Twice the slots, every entry placed again.
                slots = [Int32](repeating: -1, count: slots.count * 2)
                for (index, hash) in hashes.enumerated() {
                    var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
                    while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
                    slots[slot] = Int32(index)
                }
            }
            return strings.count - 1
        }
    }
}
