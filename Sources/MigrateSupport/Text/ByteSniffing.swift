/// What the first bytes of a text say about it, before it is read.
public enum ByteSniffing {
    /// The first byte that is neither white space nor part of a UTF-8 byte order mark, or nil when `head` has none.
    public static func firstSignificantByte(_ head: [UInt8]) -> UInt8? {
        head.first(where: { ![9, 10, 13, 32, 0xEF, 0xBB, 0xBF].contains($0) })
    }

    /// Whether `head` looks like UTF-16: a UTF-16 byte order mark, or a zero byte among several.
    public static func isUTF16(_ head: [UInt8]) -> Bool {
        head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) || (head.count > 1 && head.contains(0))
    }
}
