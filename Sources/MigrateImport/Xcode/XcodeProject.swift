import Foundation
import MigratePlan
import MigrateSupport

/// The parts of a project.pbxproj that say which version an app is: targets and their build settings.
public struct XcodeProject: Sendable {
    public struct Target: Sendable, Hashable {
        public var name: String
        public var productType: String
        /// Build settings by configuration name (Debug, Release…).
        public var settings: [String: [String: String]]
        /// Paths of the base `.xcconfig` of each configuration, relative to the project's folder.
        public var xcconfigs: [String: String]
        public var defaultConfiguration: String?

        public var isApplication: Bool { productType == "com.apple.product-type.application" }
    }

    public var targets: [Target]
    /// Project-level settings by configuration name; targets inherit them.
    public var projectSettings: [String: [String: String]]
    public var projectXcconfigs: [String: String]

    /// Parses the ASCII property list of a project.pbxproj.
    public static func parse(_ bytes: [UInt8], file: String) throws(ImportError) -> XcodeProject {
        let root = try PropertyList.dictionary(bytes, file: file, what: "an Xcode project (project.pbxproj)")
        guard let objects = root["objects"] as? [String: Any], let rootID = root["rootObject"] as? String,
            let project = objects[rootID] as? [String: Any]
        else {
            throw ImportError(.badData, file: file, "no 'objects' or 'rootObject': this property list is not an Xcode project")
        }
        let paths = FilePaths(objects: objects)
        func configurations(_ listID: Any?) -> (settings: [String: [String: String]], xcconfigs: [String: String], defaultName: String?) {
            guard let id = listID as? String, let list = objects[id] as? [String: Any] else { return ([:], [:], nil) }
            var settings: [String: [String: String]] = [:]
            var xcconfigs: [String: String] = [:]
            for configurationID in list["buildConfigurations"] as? [String] ?? [] {
                guard let configuration = objects[configurationID] as? [String: Any], let name = configuration["name"] as? String else { continue }
                var values: [String: String] = [:]
                for (key, value) in configuration["buildSettings"] as? [String: Any] ?? [:] {
                    if let text = value as? String { values[key] = text }
                    if let list = value as? [String] { values[key] = list.joined(separator: " ") }
                }
                settings[name] = values
                if let reference = configuration["baseConfigurationReference"] as? String, let path = paths.path(of: reference) {
                    xcconfigs[name] = path
                }
            }
            return (settings, xcconfigs, list["defaultConfigurationName"] as? String)
        }
        var targets: [Target] = []
        for id in project["targets"] as? [String] ?? [] {
            guard let target = objects[id] as? [String: Any] else { continue }
            let lists = configurations(target["buildConfigurationList"])
            targets.append(
                Target(
                    name: target["name"] as? String ?? id, productType: target["productType"] as? String ?? "",
                    settings: lists.settings, xcconfigs: lists.xcconfigs, defaultConfiguration: lists.defaultName))
        }
        let projectLists = configurations(project["buildConfigurationList"])
        return XcodeProject(targets: targets, projectSettings: projectLists.settings, projectXcconfigs: projectLists.xcconfigs)
    }

    /// Whether a project at `path` is not the app's own: a sample's, a demo's, a test host's or a vendored framework's,
    /// whose application targets never name the app.
    public static func isAuxiliary(_ path: String) -> Bool {
        let words = ["sample", "example", "demo", "test", "frameworks/", "vendor", "thirdparty", "third-party", "pods/", "carthage/", "playground"]
        let lowered = path.lowercased()
        return words.contains { lowered.contains($0) }
    }

    /// The app target: the first application target, as Xcode lists them.
    public var appTarget: Target? { targets.first { $0.isApplication } }

    /// Which configuration describes what ships: Release, else the list's default, else the first by name.
    public static func releaseConfiguration(of target: Target) -> String? {
        if target.settings["Release"] != nil { return "Release" }
        if let name = target.defaultConfiguration, target.settings[name] != nil { return name }
        return target.settings.keys.sorted().first
    }
}

/// Paths of PBXFileReference objects, following their groups, relative to the project's folder.
private struct FilePaths {
    let objects: [String: Any]
    var parents: [String: String] = [:]

    init(objects: [String: Any]) {
        self.objects = objects
        for (id, value) in objects {
            guard let object = value as? [String: Any], object["isa"] as? String == "PBXGroup" || object["isa"] as? String == "PBXVariantGroup" else {
                continue
            }
            for child in object["children"] as? [String] ?? [] { parents[child] = id }
        }
    }

    func path(of id: String) -> String? {
        var components: [String] = []
        var current: String? = id
        var steps = 0
        while let now = current, let object = objects[now] as? [String: Any], steps < 64 {
            steps += 1
            if let path = object["path"] as? String { components.insert(path, at: 0) }
            let tree = object["sourceTree"] as? String ?? "<group>"
            if tree != "<group>" { break }
            current = parents[now]
        }
        return components.isEmpty ? nil : components.joined(separator: "/")
    }
}

/// Build settings from an `.xcconfig` file: `KEY = value` lines; `#include` and conditions are skipped.
public enum XcodeConfig {
    public static func parse(_ text: String) -> [String: String] {
        var settings: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = Substring(rawLine)
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            guard let equals = line.firstIndex(of: "=") else { continue }
            var key = line[..<equals].trimmingCharacters(in: .whitespaces)
            // `KEY[sdk=iphoneos*] = …` applies conditionally; the plain key is what ships everywhere.
            if key.contains("[") { continue }
            key = key.trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !key.hasPrefix("#") else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value.removeLast() }
            settings[key] = value
        }
        return settings
    }
}
