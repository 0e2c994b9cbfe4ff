/// How PICT reads and compares the text of a model, as its documentation (github.com/microsoft/pict,
/// doc/pict.md, "Types", "Case Sensitiveness", "Conditional Constraints") describes it.
enum PICTText {
    /// Text folded for comparison: PICT compares case-insensitively by upper-casing each character
    /// and then comparing character codes, so "_" sorts after "A" (not after "a", as with lower-casing).
    static func folded(_ text: String) -> [UInt32] {
        text.unicodeScalars.map { scalar in
            // ASCII by arithmetic: the Unicode tables' mapping makes a string for each character, which was most of
            // the time reading a small model took.
            if scalar.isASCII { return ("a"..."z").contains(scalar) ? scalar.value - 32 : scalar.value }
            // One character at a time, like towupper: "ß" stays "ß" rather than becoming "SS".
            let upper = scalar.properties.uppercaseMapping.unicodeScalars
            return upper.count == 1 ? upper.first!.value : scalar.value
        }
    }

    /// -1, 0 or 1, comparing folded texts code by code.
    static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// The value of a parameter's value name when it is a number: PICT treats a parameter as numeric
    /// when every value converts to a number whole (C's `strtod` reading all of it, in range).
    static func number(_ text: String) -> Double? {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty, isNumberSyntax(scalars) else { return nil }
        let lower = text.lowercased()
        let special = contains(lower, "inf") || contains(lower, "nan")
        var body = lower
        if body.hasPrefix("+") { body.removeFirst() }
        guard let value = Double(body) ?? Double(lower) else { return nil }
        if special { return value }
        // strtod reports a range error for a number too large or too small to represent; PICT then
        // treats the text as a string.
        if value.isInfinite { return nil }
        if value != 0 && value.magnitude < Double.leastNormalMagnitude { return nil }
        if value == 0 && hasNonzeroMantissa(scalars) { return nil }
        return value
    }

    /// The forms `strtod` accepts: an optional sign, then decimal digits with an optional point and
    /// exponent, hexadecimal (`0x1A`, `0x1p4`), `inf`, `infinity` or `nan`.
    private static func isNumberSyntax(_ s: [Unicode.Scalar]) -> Bool {
        var i = 0
        if s[i] == "+" || s[i] == "-" { i += 1 }
        let rest = String(String.UnicodeScalarView(s[i...])).lowercased()
        if rest == "inf" || rest == "infinity" || rest == "nan" { return true }
        if rest.hasPrefix("nan(") && rest.hasSuffix(")") {
            return rest.dropFirst(4).dropLast().unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || $0 == "_"
            }
        }
        func digits(_ hex: Bool) -> Int {
            let start = i
            while i < s.count, s[i].isASCII, hex ? s[i].properties.isASCIIHexDigit : ("0"..."9").contains(s[i]) { i += 1 }
            return i - start
        }
        let hex = rest.hasPrefix("0x") && s.count > i + 2
        if hex { i += 2 }
        var count = digits(hex)
        if i < s.count, s[i] == "." {
            i += 1
            count += digits(hex)
        }
        guard count > 0 else { return false }
        if i < s.count, hex ? (s[i] == "p" || s[i] == "P") : (s[i] == "e" || s[i] == "E") {
            var j = i + 1
            if j < s.count, s[j] == "+" || s[j] == "-" { j += 1 }
            let start = j
            while j < s.count, ("0"..."9").contains(s[j]) { j += 1 }
            // An exponent without digits is not part of the number, so text remains and it is no number.
            guard j > start else { return false }
            i = j
        }
        return i == s.count
    }

    private static func hasNonzeroMantissa(_ s: [Unicode.Scalar]) -> Bool {
        let text = String(String.UnicodeScalarView(s)).lowercased()
        var mantissa = Substring(text)
        if let x = text.firstIndex(of: "x") {
            // Hexadecimal: the syntax allows an x only in its "0x".
            mantissa = mantissa[text.index(after: x)...]
            if let p = mantissa.firstIndex(of: "p") { mantissa = mantissa[..<p] }
            return mantissa.contains { $0.isHexDigit && $0 != "0" }
        }
        if let e = mantissa.firstIndex(of: "e") { mantissa = mantissa[..<e] }
        return mantissa.contains { $0.isNumber && $0 != "0" }
    }

    /// Whether `part` occurs in `text`, compared character by character. Foundation's `contains` would
    /// copy the text through UTF-16 first, most of the time reading a value takes.
    static func contains(_ text: String, _ part: String) -> Bool {
        guard let first = part.first else { return true }
        var index = text.startIndex
        while let found = text[index...].firstIndex(of: first) {
            if text[found...].starts(with: part) { return true }
            index = text.index(after: found)
        }
        return false
    }

    /// PICT's `LIKE`: `*` any run of characters (also none), `?` one character, compared folded.
    /// One quirk is kept: PICT's matcher lets a trailing `**` (two or more stars) match only a
    /// non-empty rest, so such a tail is read as `?*`.
    static func matches(_ text: [UInt32], pattern: [UInt32]) -> Bool {
        let star = UInt32(UInt8(ascii: "*"))
        let any = UInt32(UInt8(ascii: "?"))
        var pattern = pattern
        var trailing = 0
        while trailing < pattern.count && pattern[pattern.count - 1 - trailing] == star { trailing += 1 }
        if trailing >= 2 { pattern = Array(pattern.dropLast(trailing)) + [any, star] }
        // The usual iterative matcher: remember the last star and retry from one character further.
        var t = 0
        var p = 0
        var starAt = -1
        var resumeAt = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == any || (pattern[p] != star && pattern[p] == text[t])) {
                t += 1
                p += 1
            } else if p < pattern.count && pattern[p] == star {
                starAt = p
                resumeAt = t
                p += 1
            } else if starAt >= 0 {
                p = starAt + 1
                resumeAt += 1
                t = resumeAt
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == star { p += 1 }
        return p == pattern.count
    }
}
