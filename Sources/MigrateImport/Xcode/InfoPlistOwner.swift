import Foundation

/// The Xcode project whose app target builds a given Info.plist: modern Info.plists leave the version
/// (and often the bundle id) to build settings, so an Info.plist is read through its project.
struct InfoPlistOwner {
    var project: XcodeProject
    /// The folder holding the `.xcodeproj`, on disk.
    var root: String
    /// How messages name the project.pbxproj, relative like the Info.plist's display path.
    var displayPath: String
    var target: String
    /// Whether the target is the app itself; false for an app extension, a widget or another target whose own
    /// Info.plist this is.
    var isApplication: Bool = true

    /// How many folders above the Info.plist's own are searched for a `.xcodeproj`.
    static let foldersUp = 4

    /// Looks in the Info.plist's folder and the folders above it for a `.xcodeproj` with a target whose
    /// `INFOPLIST_FILE` (in the configuration that ships) is this file, the app's target first; nil when none.
    static func find(infoPlist path: String, displayPath: String) -> InfoPlistOwner? {
        let fileManager = FileManager.default
        let plist = ((path as NSString).standardizingPath as NSString).resolvingSymlinksInPath
        var folder = (plist as NSString).deletingLastPathComponent
        var displayFolder = (displayPath as NSString).deletingLastPathComponent
        for _ in 0...foldersUp {
            let projects = ((try? fileManager.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".xcodeproj") }.sorted()
            let relative = String(plist.dropFirst(folder.count).drop { $0 == "/" })
            for name in projects {
                let file = (folder as NSString).appendingPathComponent(name + "/project.pbxproj")
                let shown = join(displayFolder, name + "/project.pbxproj")
                guard let data = fileManager.contents(atPath: file), let project = try? XcodeProject.parse(Array(data), file: shown) else { continue }
                let root = folder
                let lookup: XcodeImporter.FileLookup = { fileManager.contents(atPath: (root as NSString).appendingPathComponent($0)).map(Array.init) }
                // The app's target first: an Info.plist it uses is the app's. Then any other target (an extension's).
                for target in project.targets.filter(\.isApplication) + project.targets.filter({ !$0.isApplication }) {
                    // Only the path is compared here; no file is read but the target's .xcconfig.
                    let named = try? XcodeImporter.resolve(project: project, projectFile: shown, targetName: target.name) { relative in
                        relative.hasSuffix(".xcconfig") ? lookup(relative) : nil
                    }
                    if let used = named?.infoPlist, (used as NSString).standardizingPath == relative {
                        return InfoPlistOwner(
                            project: project, root: root, displayPath: shown, target: target.name, isApplication: target.isApplication)
                    }
                }
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { break }
            folder = parent
            displayFolder = up(displayFolder)
        }
        return nil
    }

    /// `a/b` → `a`, `a` → ``, `` → `..`, `..` → `../..`: the display path of the folder above.
    static func up(_ folder: String) -> String {
        if folder.isEmpty || folder == "." { return ".." }
        if (folder as NSString).lastPathComponent == ".." { return folder + "/.." }
        let parent = (folder as NSString).deletingLastPathComponent
        return parent
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty || folder == "." ? name : folder + "/" + name
    }
}
