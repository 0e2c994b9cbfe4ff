import MigratePlan
import MigrateSupport

/// Parses a JSON source file, turning a syntax error into an `ImportError` with the place.
enum JSONSource {
    static func parse(_ bytes: [UInt8], file: String, expecting what: String) throws(ImportError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes: bytes)
        } catch {
            throw ImportError(
                .badData, file: file, location: error.location, "\(error.message) (the file is not valid JSON)",
                hint: "Export \(what) again; the file may be truncated.")
        }
    }
}

extension JSONNode {
    /// A string, or the literal text of a number: ids and prices arrive as either.
    var scalarText: String? {
        switch value {
        case .string(let text): text
        case .number(let literal): literal
        default: nil
        }
    }

    var boolValue: Bool? {
        if case .bool(let value) = value { return value }
        return nil
    }
}
