import Foundation
import MigratePlan

/// What `migrate init` found in a project folder, as paths relative to it, sorted.
public struct ProjectScan: Sendable, Hashable {
    public var storeKitFiles: [String] = []
    public var projectFiles: [String] = []
    public var infoPlists: [String] = []
    /// The folder of the git repository holding the project (relative, "." for the project itself).
    public var gitRepository: String?

    public init() {}

    public var isEmpty: Bool { storeKitFiles.isEmpty && projectFiles.isEmpty && infoPlists.isEmpty && gitRepository == nil }

    /// One line per thing found, for the list shown before the questions.
    public var lines: [String] {
        var lines: [String] = []
        for file in storeKitFiles { lines.append("StoreKit configuration  \(file)") }
        for file in projectFiles { lines.append("Xcode project           \(file)") }
        for file in infoPlists { lines.append("Info.plist              \(file)") }
        if let gitRepository { lines.append("git repository          \(gitRepository)") }
        return lines
    }
}

/// Walks a project folder for the files the importers read.
///
/// Build products, dependencies and hidden folders are skipped: they hold copies (or thousands of
/// files) that say nothing about the app's own history.
public enum ProjectScanner {
    public static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", "node_modules", "Carthage", "build"]
    /// How deep to look; an app's project rarely sits deeper.
    public static let maximumDepth = 6

    public static func scan(_ root: String) -> ProjectScan {
        var scan = ProjectScan()
        walk(root, relative: "", depth: 0, into: &scan)
        scan.storeKitFiles.sort()
        scan.projectFiles.sort()
        scan.infoPlists.sort()
        scan.gitRepository = repository(containing: root)
        return scan
    }

    static func walk(_ folder: String, relative: String, depth: Int, into scan: inout ProjectScan) {
        guard depth <= maximumDepth, let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries.sorted() {
            if entry.hasPrefix(".") || skippedFolders.contains(entry) { continue }
            let path = (folder as NSString).appendingPathComponent(entry)
            let shown = relative.isEmpty ? entry : relative + "/" + entry
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if entry.hasSuffix(".xcodeproj") {
                    if FileManager.default.fileExists(atPath: path + "/project.pbxproj") { scan.projectFiles.append(shown + "/project.pbxproj") }
                    continue
                }
                if entry.hasSuffix(".xcworkspace") || entry.hasSuffix(".xcassets") || entry.hasSuffix(".lproj") { continue }
                // migrate's own output (its Products.storekit is the plan's, not the project's).
                if FileManager.default.fileExists(atPath: path + "/" + GeneratedOutput.manifestName) { continue }
                walk(path, relative: shown, depth: depth + 1, into: &scan)
            } else if entry.hasSuffix(".storekit") {
                scan.storeKitFiles.append(shown)
            } else if entry == "Info.plist" || entry.hasSuffix("-Info.plist") {
                scan.infoPlists.append(shown)
            }
        }
    }

    /// The folder holding `.git`, looking upwards from the root, as a path relative to the root.
    static func repository(containing root: String) -> String? {
        var folder = root
        var ups = 0
        while true {
            if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(".git")) {
                return ups == 0 ? "." : Array(repeating: "..", count: ups).joined(separator: "/")
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty || ups >= 8 { return nil }
            folder = parent
            ups += 1
        }
    }
}
