import Foundation
import MigratePlan
import MigrateSupport

/// The version an Xcode project builds now, and where each value came from.
public struct XcodeVersion: Sendable, Hashable {
    public var version: Version?
    public var build: Version?
    public var bundleID: String?
    public var name: String?
    public var platforms: [Platform] = []
    /// The app target the values were read from, when there is a project.
    public var target: String?
    /// The Info.plist read, relative to the folder holding the `.xcodeproj` (or as given, alone).
    public var infoPlist: String?
    /// Where each value came from, such as `CFBundleVersion = $(CURRENT_PROJECT_VERSION) → 1344 (target LavaRock, Release)`.
    public var sources: [String] = []
    public var issues: [Diagnostic] = []

    public init() {}
}

/// Reads the current version from Info.plist, project.pbxproj and .xcconfig files.
///
/// The files come through a lookup by path (relative to the folder holding the `.xcodeproj`),
/// so the same code reads a checkout on disk and a commit in git history.
public enum XcodeImporter {
    /// Reads files relative to the project's folder; nil when a file is absent.
    public typealias FileLookup = (String) -> [UInt8]?

    /// Resolves the version from a parsed project (or none) and an Info.plist path.
    ///
    /// - Parameters:
    ///   - project: the parsed project.pbxproj, when there is one.
    ///   - projectFile: how messages name the project file.
    ///   - infoPlistPath: an Info.plist to read when the project names none (or there is no project).
    ///   - targetName: the application target to read; nil for the first one.
    public static func resolve(
        project: XcodeProject?, projectFile: String, infoPlistPath: String? = nil, targetName: String? = nil, files: FileLookup
    ) throws(ImportError) -> XcodeVersion {
        var result = XcodeVersion()
        var settings: [String: String] = [:]
        var configurationLabel = ""
        if let project {
            let applications = project.targets.filter(\.isApplication)
            guard let target = applications.first(where: { $0.name == targetName }) ?? applications.first else {
                let names = project.targets.map { "\($0.name) (\($0.productType.replacingOccurrences(of: "com.apple.product-type.", with: "")))" }
                throw ImportError(
                    .badData, file: projectFile,
                    "no application target in the project (targets: \(names.isEmpty ? "none" : names.joined(separator: ", ")))",
                    hint: "Pass the project of the app itself.")
            }
            if applications.count > 1 && targetName == nil {
                result.issues.append(
                    Diagnostic(
                        .note, code: .severalTargets,
                        "several application targets; read '\(target.name)', the first (others: \(applications.dropFirst().map(\.name).joined(separator: ", ")))",
                        file: projectFile, place: "targets"))
            }
            result.target = target.name
            let configuration = XcodeProject.releaseConfiguration(of: target) ?? "Release"
            configurationLabel = "target \(target.name), \(configuration)"
            // Lowest precedence first: project xcconfig, project settings, target xcconfig, target settings.
            for layer in [
                project.projectXcconfigs[configuration].flatMap { config(files, $0) }, project.projectSettings[configuration],
                target.xcconfigs[configuration].flatMap { config(files, $0) }, target.settings[configuration],
            ] {
                for (key, value) in layer ?? [:] { settings[key] = value }
            }
            settings["TARGET_NAME"] = settings["TARGET_NAME"] ?? target.name
            settings["PRODUCT_NAME"] = settings["PRODUCT_NAME"] ?? target.name
        }
        /// Expands `$(NAME)` and `${NAME}` from the build settings. `key` names the value in messages;
        /// `setting` is the build setting `text` is the value of, when it is one: only a setting that
        /// names itself is circular (`$(inherited)`-style, which this flat view can't resolve). An
        /// Info.plist value that names the setting of its own name (`CFBundleIdentifier` is
        /// `$(PRODUCT_BUNDLE_IDENTIFIER)` in every template Xcode ships) is the ordinary case.
        func expand(_ text: String, key: String, setting: String? = nil) -> String? {
            var output = ""
            var rest = Substring(text)
            var depth = 0
            while let start = rest.range(of: "$(") ?? rest.range(of: "${") {
                let close: Character = rest[start].hasSuffix("(") ? ")" : "}"
                guard let end = rest[start.upperBound...].firstIndex(of: close) else { break }
                output += rest[..<start.lowerBound]
                var name = String(rest[start.upperBound..<end])
                if let colon = name.firstIndex(of: ":") { name = String(name[..<colon]) }
                depth += 1
                let shownPlace = configurationLabel.isEmpty ? "" : " (\(configurationLabel))"
                guard depth < 32, name != setting else {
                    result.issues.append(
                        Diagnostic(
                            .warning, code: .buildSettingCycle, "\(key) = \(text) refers to itself through $(\(name))\(shownPlace)",
                            hint: "Give \(name) a value of its own in the app target's Release build settings or its .xcconfig.", file: projectFile,
                            place: key))
                    return nil
                }
                guard let value = settings[name] else {
                    result.issues.append(
                        Diagnostic(
                            .warning, code: .buildSettingUndefined, "\(key) uses $(\(name)), which no build setting defines\(shownPlace)",
                            hint: "Set \(name) in the app target's Release build settings or its .xcconfig.", file: projectFile, place: key))
                    return nil
                }
                rest = Substring(value) + rest[rest.index(after: end)...]
            }
            return output + rest
        }
        func version(_ text: String?, key: String, from origin: String) -> Version? {
            guard let text, let expanded = expand(text, key: key) else { return nil }
            let shown = expanded == text ? text : "\(text) → \(expanded)"
            result.sources.append("\(key) = \(shown) (\(origin))")
            do {
                return try Version(expanded.trimmingCharacters(in: .whitespaces))
            } catch {
                result.issues.append(
                    Diagnostic(
                        .warning, code: .invalidVersion, error.description, hint: "Use one to three period-separated integers.", file: origin,
                        place: key))
                return nil
            }
        }

        let generated = settings["GENERATE_INFOPLIST_FILE"] == "YES"
        var plistPath = settings["INFOPLIST_FILE"].flatMap { expand($0, key: "INFOPLIST_FILE", setting: "INFOPLIST_FILE") } ?? infoPlistPath
        if let path = plistPath { plistPath = strippingRoot(path) }
        result.infoPlist = plistPath
        var plist: [String: Any] = [:]
        if let plistPath {
            if let bytes = files(plistPath) {
                plist = try PropertyList.dictionary(bytes, file: plistPath, what: "an Info.plist")
            } else if !generated {
                result.issues.append(
                    Diagnostic(.warning, code: .infoPlistMissing, "\(plistPath) was not found", file: projectFile, place: "INFOPLIST_FILE"))
            }
        }
        // With GENERATE_INFOPLIST_FILE, Xcode writes the keys from build settings; a partial Info.plist may still add others.
        let marketing = plist["CFBundleShortVersionString"] as? String ?? (generated || project != nil ? "$(MARKETING_VERSION)" : nil)
        let build = plist["CFBundleVersion"] as? String ?? (generated || project != nil ? "$(CURRENT_PROJECT_VERSION)" : nil)
        let plistOrigin =
            plist["CFBundleShortVersionString"] != nil
            ? (plistPath ?? "Info.plist") : (configurationLabel.isEmpty ? projectFile : "\(projectFile), \(configurationLabel)")
        if settings.isEmpty, let marketing, marketing.contains("$(") || marketing.contains("${") {
            result.issues.append(
                Diagnostic(
                    .warning, code: .versionUnresolved, "the version is \(marketing), a build setting; pass the .xcodeproj so it can be resolved",
                    file: plistPath ?? projectFile, place: "CFBundleShortVersionString"))
        } else {
            result.version = version(marketing, key: "CFBundleShortVersionString", from: plistOrigin)
            result.build = version(build, key: "CFBundleVersion", from: plist["CFBundleVersion"] != nil ? (plistPath ?? "Info.plist") : plistOrigin)
        }
        if let identifier = plist["CFBundleIdentifier"] as? String {
            result.bundleID = settings.isEmpty && identifier.contains("$(") ? nil : expand(identifier, key: "CFBundleIdentifier")
        } else if let identifier = settings["PRODUCT_BUNDLE_IDENTIFIER"] {
            result.bundleID = expand(identifier, key: "PRODUCT_BUNDLE_IDENTIFIER", setting: "PRODUCT_BUNDLE_IDENTIFIER")
        }
        let name =
            plist["CFBundleDisplayName"] as? String ?? settings["INFOPLIST_KEY_CFBundleDisplayName"] ?? plist["CFBundleName"] as? String
            ?? settings["PRODUCT_NAME"]
        if let name, !(settings.isEmpty && name.contains("$(")) { result.name = expand(name, key: "CFBundleDisplayName") }
        result.platforms = platforms(settings: settings, plist: plist)
        return result
    }

    /// Reads a project from disk: a `.xcodeproj` folder, a `project.pbxproj`, a folder holding one
    /// `.xcodeproj`, or an `Info.plist` alone.
    public static func read(path: String, displayPath: String) throws(ImportError) -> XcodeVersion {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(.noInput, file: displayPath, "no such file or folder")
        }
        var projectFile = path
        var shown = displayPath
        if isDirectory.boolValue {
            if path.hasSuffix(".xcodeproj") || path.hasSuffix(".xcodeproj/") {
                projectFile = (path as NSString).appendingPathComponent("project.pbxproj")
                shown = (displayPath as NSString).appendingPathComponent("project.pbxproj")
            } else {
                let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".xcodeproj") }.sorted()
                guard let first = entries.first else {
                    throw ImportError(
                        .noInput, file: displayPath, "the folder holds no .xcodeproj",
                        hint: "Name the .xcodeproj, its project.pbxproj or an Info.plist.")
                }
                guard entries.count == 1 else {
                    throw ImportError(.badData, file: displayPath, "the folder holds several projects (\(entries.joined(separator: ", "))); name one")
                }
                projectFile = (path as NSString).appendingPathComponent(first + "/project.pbxproj")
                shown = (displayPath as NSString).appendingPathComponent(first + "/project.pbxproj")
            }
        }
        guard let data = FileManager.default.contents(atPath: projectFile) else {
            throw ImportError(.noInput, file: shown, "cannot be read")
        }
        let bytes = Array(data)
        if projectFile.hasSuffix(".pbxproj") {
            // The project's folder is the one holding the .xcodeproj.
            let root = ((projectFile as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            let project = try XcodeProject.parse(bytes, file: shown)
            return try resolve(project: project, projectFile: shown) { relative in
                FileManager.default.contents(atPath: (root as NSString).appendingPathComponent(relative)).map(Array.init)
            }
        }
        // An Info.plist alone says little since Xcode 11 moved the version into build settings: read it
        // through the project whose app target uses it, when one sits beside it.
        if let owner = InfoPlistOwner.find(infoPlist: path, displayPath: shown) {
            guard owner.isApplication else {
                // An extension's version is its own (it must match the app's to ship, but it is not the app's record).
                throw ImportError(
                    .badData, file: shown,
                    "the Info.plist of the target '\(owner.target)' in \(owner.displayPath), not of the app (an extension or another "
                        + "bundle): its version is its own; the app's version, build and bundle id are read from that project's app target",
                    hint:
                        "Nothing to do. With several projects, name the app's .xcodeproj: 'migrate import xcode PATH' or 'migrate init --project PATH'."
                )
            }
            return try resolve(project: owner.project, projectFile: owner.displayPath, targetName: owner.target) { relative in
                FileManager.default.contents(atPath: (owner.root as NSString).appendingPathComponent(relative)).map(Array.init)
            }
        }
        let version = try resolve(project: nil, projectFile: shown, infoPlistPath: shown) { name in name == shown ? bytes : nil }
        if version.version == nil && version.issues.isEmpty {
            throw ImportError(
                .badData, file: shown,
                "no CFBundleShortVersionString, and no Xcode project beside it uses it (Xcode keeps the version in the MARKETING_VERSION build setting)",
                hint: "Name the app's .xcodeproj (or the project.pbxproj inside it), whose build settings hold the version.")
        }
        return version
    }

    /// The result as an import: app hints and, when a release date is given, the current version as a release.
    public static func importResult(_ version: XcodeVersion, released: Date?, file: String) -> ImportResult {
        var result = ImportResult(source: "xcode")
        result.app = AppHints(name: version.name, bundleID: version.bundleID, platforms: version.platforms)
        result.issues = version.issues
        if let marketing = version.version {
            let label = marketing.text + (version.build.map { " (\($0))" } ?? "")
            if let released {
                for platform in version.platforms.isEmpty ? [Platform.iOS] : version.platforms {
                    result.releases.append(
                        ImportedRelease(
                            platform: platform, version: marketing, build: version.build, date: released, dateSource: "--released",
                            provenance: .appStore, origin: file))
                }
            } else {
                result.ignored.append("the current version \(label) (not a release until it goes live; give --released DATE to add it)")
            }
        }
        return result
    }

    static func config(_ files: FileLookup, _ path: String) -> [String: String]? {
        files(strippingRoot(path)).map { XcodeConfig.parse(String(decoding: $0, as: UTF8.self)) }
    }

    static func strippingRoot(_ path: String) -> String {
        for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "./"] where path.hasPrefix(prefix) {
            return String(path.dropFirst(prefix.count))
        }
        return path
    }

    static func platforms(settings: [String: String], plist: [String: Any]) -> [Platform] {
        var names = (settings["SUPPORTED_PLATFORMS"] ?? settings["SDKROOT"] ?? "").split(separator: " ").map(String.init)
        if names.isEmpty, plist["LSRequiresIPhoneOS"] as? Bool == true { names = ["iphoneos"] }
        if names.isEmpty, plist["LSMinimumSystemVersion"] != nil { names = ["macosx"] }
        if names.isEmpty, settings["IPHONEOS_DEPLOYMENT_TARGET"] != nil { names = ["iphoneos"] }
        var platforms = Set<Platform>()
        for name in names {
            switch name {
            case "iphoneos", "iphonesimulator": platforms.insert(.iOS)
            case "macosx": platforms.insert(.macOS)
            case "appletvos", "appletvsimulator": platforms.insert(.tvOS)
            case "watchos", "watchsimulator": platforms.insert(.watchOS)
            case "xros", "xrsimulator": platforms.insert(.visionOS)
            default: break
            }
        }
        if settings["SUPPORTS_MACCATALYST"] == "YES" { platforms.insert(.macOS) }
        return platforms.sorted()
    }
}
