import Foundation
import MigratePlan
import MigrateSupport

/// What writing the generated files would do to each one.
public struct PlannedWrite: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable {
        case create
        case update
        case unchanged
        /// The file on disk was edited by hand (or not written by migrate); kept without --force.
        case conflict
    }

    public var path: String
    public var content: String
    public var action: Action
    /// Lines added and removed, for `--dry-run` (a multiset comparison, not a full diff).
    public var linesAdded: Int
    public var linesRemoved: Int
}

/// Decides, without touching the disk, which generated files to create, update or keep.
public enum OutputPlanner {
    /// The manifest records checksums of files that can't carry a header (CSV, .storekit).
    public static let manifestPath = GeneratedOutput.manifestName

    /// - Parameters:
    ///   - existing: the current content of a path relative to the output folder, or nil.
    ///   - force: overwrite files edited by hand.
    ///   - keeping: files of an earlier generation left in place, which the manifest keeps listing so a
    ///     later `--prune` still finds them.
    public static func plan(
        _ files: [GeneratedFile], source: String, existing: (String) -> String?, force: Bool, keeping: [String] = []
    ) -> [PlannedWrite] {
        let manifest = existing(manifestPath).flatMap(readManifest) ?? Manifest()
        var writes: [PlannedWrite] = []
        var checksums: [String: String] = [:]
        for file in files {
            let content = GeneratedFileHeader.content(for: file, source: source)
            checksums[file.path] = Checksum.of(content)
            writes.append(write(path: file.path, content: content, existing: existing(file.path), manifest: manifest, force: force))
        }
        for path in keeping { if let content = existing(path) { checksums[path] = Checksum.of(content) } }
        // A file may still hold the version the previous manifest recorded (a run stopped after the
        // manifest's rename, by an older migrate that renamed it first): that is not an edit by hand.
        var previous: [String: String] = [:]
        for (path, checksum) in manifest.current where checksums[path] != nil && checksums[path] != checksum { previous[path] = checksum }
        func members(_ map: [String: String]) -> JSONValue {
            .object(map.keys.sorted().map { JSONMember(key: $0, value: JSONNode(.string(map[$0]!))) })
        }
        var root: [(String, JSONValue)] = [("generator", .string("migrate")), ("files", members(checksums))]
        if !previous.isEmpty { root.append(("previous", members(previous))) }
        let manifestContent = JSONWriter().string(from: .object(root.map { JSONMember(key: $0.0, value: JSONNode($0.1)) }))
        // The manifest itself is always migrate's to rewrite.
        let current = existing(manifestPath)
        writes.append(
            PlannedWrite(
                path: manifestPath, content: manifestContent, action: current == nil ? .create : (current == manifestContent ? .unchanged : .update),
                linesAdded: 0, linesRemoved: 0))
        return writes.sorted { $0.path < $1.path }
    }

    private static func write(path: String, content: String, existing: String?, manifest: Manifest, force: Bool) -> PlannedWrite {
        guard let existing else {
            return PlannedWrite(path: path, content: content, action: .create, linesAdded: content.lineCount, linesRemoved: 0)
        }
        let (added, removed) = lineChanges(from: existing, to: content)
        if existing == content {
            return PlannedWrite(path: path, content: content, action: .unchanged, linesAdded: 0, linesRemoved: 0)
        }
        let unedited: Bool
        if GeneratedFileHeader.canCarryHeader(path) {
            unedited = GeneratedFileHeader.isUnedited(existing) ?? false
        } else {
            unedited = manifest.knows(path, checksum: Checksum.of(existing))
        }
        let action: PlannedWrite.Action = unedited || force ? .update : .conflict
        return PlannedWrite(path: path, content: content, action: action, linesAdded: added, linesRemoved: removed)
    }

    /// A file an earlier generation wrote that this one no longer writes (an output dropped, or
    /// another `--module`), found through the manifest or migrate's header.
    public struct Orphan: Sendable, Hashable {
        public var path: String
        /// Still as migrate wrote it, so `--prune` may remove it; an edited one is always kept.
        public var isUnedited: Bool
    }

    /// The earlier generation's files among `candidates` (paths in the output folder) and the
    /// manifest's, that the new `files` don't include.
    public static func orphans(
        of files: [GeneratedFile], candidates: [String], existing: (String) -> String?
    ) -> [Orphan] {
        let manifest = existing(manifestPath).flatMap(readManifest) ?? Manifest()
        let current = Set(files.map(\.path))
        var result: [Orphan] = []
        for path in Set(candidates).union(manifest.current.keys).sorted() where !current.contains(path) && path != manifestPath {
            guard let content = existing(path) else { continue }
            let checksum = Checksum.of(content)
            if manifest.knows(path, checksum: checksum) {
                result.append(Orphan(path: path, isUnedited: true))
            } else if let unedited = GeneratedFileHeader.isUnedited(content) {
                result.append(Orphan(path: path, isUnedited: unedited))
            } else if manifest.current[path] != nil {
                // Listed by the manifest but changed since: the user's now.
                result.append(Orphan(path: path, isUnedited: false))
            }
        }
        return result
    }

    /// Whether the output's manifest lists every file it wrote. Earlier manifests listed only
    /// the files that can't carry a header, so their Swift and Markdown files must be searched for.
    public static func manifestListsEveryFile(existing: (String) -> String?) -> Bool {
        guard let manifest = existing(manifestPath).flatMap(readManifest) else { return false }
        return manifest.current.keys.contains(where: GeneratedFileHeader.canCarryHeader)
    }

    /// The checksums the manifest records: each file's current one, and the one before when it changed.
    struct Manifest {
        var current: [String: String] = [:]
        var previous: [String: String] = [:]
        func knows(_ path: String, checksum: String) -> Bool { current[path] == checksum || previous[path] == checksum }
    }

    private static func readManifest(_ text: String) -> Manifest? {
        guard let root = try? JSONParser.parse(text), let files = root["files"]?.objectValue else { return nil }
        var result = Manifest()
        for member in files {
            if let checksum = member.value.stringValue { result.current[member.key] = checksum }
        }
        for member in root["previous"]?.objectValue ?? [] {
            if let checksum = member.value.stringValue { result.previous[member.key] = checksum }
        }
        return result
    }

    static func lineChanges(from old: String, to new: String) -> (added: Int, removed: Int) {
        var counts: [Substring: Int] = [:]
        for line in old.lines { counts[line, default: 0] += 1 }
        var added = 0
        for line in new.lines {
            if let count = counts[line], count > 0 { counts[line] = count - 1 } else { added += 1 }
        }
        return (added, counts.values.reduce(0, +))
    }
}

extension String {
    /// The lines, split at each "\n" character as `split(separator: "\n", omittingEmptySubsequences: false)` splits them
    /// (a "\r\n" is one character, not a line break), found in the bytes: splitting megabytes of generated tests into
    /// characters took a tenth of `generate`'s time, and comparing them with the files already there as much again.
    var lines: [Substring] {
        var lines: [Substring] = []
        var start = startIndex
        var afterReturn = false
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x0A && !afterReturn {
                lines.append(self[start..<index])
                start = utf8.index(after: index)
            }
            afterReturn = byte == 0x0D
            index = utf8.index(after: index)
        }
        lines.append(self[start...])
        return lines
    }

    /// The lines, as `lines` splits them, not counting an empty one after a final "\n".
    var lineCount: Int {
        var breaks = 0
        var afterReturn = false
        for byte in utf8 {
            if byte == 0x0A && !afterReturn { breaks += 1 }
            afterReturn = byte == 0x0D
        }
        return breaks + 1 - (hasSuffix("\n") ? 1 : 0)
    }
}
