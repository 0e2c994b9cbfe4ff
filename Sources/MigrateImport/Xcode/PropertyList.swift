import Foundation
import MigratePlan
import MigrateSupport

/// Reads property lists (XML, binary and the old ASCII form that project.pbxproj uses) with errors
/// that name the file and the place: line and column for the ASCII form (`OpenStepPropertyList`), the line
/// when Foundation says it for XML.
enum PropertyList {
    static func dictionary(_ bytes: [UInt8], file: String, what: String) throws(ImportError) -> [String: Any] {
        let value: Any
        let hint = "Pass the file Xcode wrote, whole; an excerpt or a damaged file cannot be read."
        if OpenStepPropertyList.looksLikeOpenStep(bytes) {
            // project.pbxproj: read here, so a damaged file is reported at its real line and column.
            do {
                value = try OpenStepPropertyList.parse(bytes)
            } catch {
                throw ImportError(.badData, file: file, location: error.location, "\(error.message); expected \(what)", hint: hint)
            }
        } else {
            value = try foundationValue(bytes, file: file, what: what)
        }
        guard let dictionary = value as? [String: Any] else {
            throw ImportError(.badData, file: file, "the property list is not a dictionary; expected \(what)")
        }
        return dictionary
    }

    /// XML and binary property lists (Info.plist), read by Foundation.
    static func foundationValue(_ bytes: [UInt8], file: String, what: String) throws(ImportError) -> Any {
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            let text = describe(error)
            var location: SourceLocation?
            if let range = text.range(of: #"line (\d+)"#, options: .regularExpression),
                let line = Int(text[range].dropFirst(5))
            {
                location = SourceLocation(line: line, column: 1)
            }
            let empty = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            throw ImportError(
                .badData, file: file, location: location,
                empty ? "the file is empty; expected \(what)" : "not a property list (\(text)); expected \(what)",
                hint: "Pass the file Xcode wrote, whole; an excerpt or a damaged file cannot be read.")
        }
        return value
    }

    /// The most specific message Foundation gives (the nested old-style parser error when there is one).
    static func describe(_ error: Error) -> String {
        let info = (error as NSError).userInfo
        for value in info.values {
            if let nested = value as? NSError, let debug = nested.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
        }
        if let debug = info[NSDebugDescriptionErrorKey] as? String { return debug }
        return (error as NSError).localizedDescription
    }
}
