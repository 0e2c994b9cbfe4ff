import Foundation

/// The repository root, found from this file so tests run from any directory.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Every file under `folder` (hidden ones too) by relative path, with its text; "<unreadable>" for a file that
/// is not UTF-8, so a comparison shows it.
public func textFiles(in folder: URL) -> [String: String] {
    var result: [String: String] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [:] }
    while let path = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
        if !isDirectory.boolValue {
            result[path] = (try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)) ?? "<unreadable>"
        }
    }
    return result
}

/// A temporary folder with files in it, removed at the end of the test.
public final class Scratch {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` at `name` (a relative path; its folders are created).
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The text at `name`, or nil when there is none.
    public func read(_ name: String) -> String? {
        try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }
}

/// The examples under Examples/: every folder holding a migration.json, sorted, so a new example is
/// checked, generated and matched against goldens without editing a list.
public enum Examples {
    public static let names: [String] = {
        let folder = repositoryRoot.appendingPathComponent("Examples")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/migration.json").path) }.sorted()
    }()

    /// The examples without a forecast: their plans give no paid downloads a month, so `simulate` refuses them and
    /// `report` says why instead. Every other example has one, so a test of the forecast fails for a new example that
    /// has none until it is listed here.
    public static let withoutForecast: Set<String> = ["inkwell-universal", "pocket-ledger", "server-pal", "tally-two-switches"]
}

/// Text as one line: paragraphs wrapped at the terminal's width are joined back, so a sentence reads whole.
public func flat(_ text: String) -> String {
    text.replacing(/\n */, with: " ")
}
