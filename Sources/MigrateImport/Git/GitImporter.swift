import Foundation
import MigratePlan
import MigrateSupport

/// A marketing version and build that first appeared at one commit.
public struct GitVersionChange: Sendable, Hashable {
    /// The full commit hash.
    public var commit: String
    /// When the work was written: the author date, or the commit it builds on's if that is later (a rebased
    /// commit keeps an older author date). A rewrite of the history changes committer dates, not this.
    public var date: Date
    public var version: Version
    public var build: Version?
    /// Tags that point at this commit.
    public var tags: [String]
    /// The app target's bundle id and name at this commit, when the project says.
    public var bundleID: String? = nil
    public var name: String? = nil
    /// The platforms the app target builds for at this commit.
    public var platforms: [Platform] = []

    public var displayName: String { version.text + (build.map { " (\($0))" } ?? "") }

    /// Whether a tag names a pre-release (a beta, a release candidate, an alpha, a development build): such a tag
    /// marks a TestFlight or test build, never the day a version went live on the App Store. `v2.0b1`, `1.0-rc1`,
    /// `mac-6.0alpha1`, `5.1d2`, `2.0.0-beta.3`, `beta/2.1`.
    /// The platform a tag's prefix names (`mac-6.0`, `ios/5.1.5`, `iOS-6.1-6105`): a repository of several apps tags each
    /// app's releases with its platform; nil for a tag without such a prefix.
    public static func platform(ofTag tag: String) -> Platform? {
        let lowered = tag.lowercased()
        let prefixes: [(String, Platform)] = [
            ("macos", .macOS), ("mac", .macOS), ("ios", .iOS), ("ipados", .iOS), ("ipad", .iOS), ("tvos", .tvOS), ("watchos", .watchOS),
            ("watch", .watchOS), ("visionos", .visionOS),
        ]
        for (prefix, platform) in prefixes where lowered.hasPrefix(prefix) {
            let rest = lowered.dropFirst(prefix.count)
            if let next = rest.first, next == "-" || next == "/" || next == "_" { return platform }
        }
        return nil
    }

    public static func isPrerelease(tag: String) -> Bool {
        let name = tag.lowercased()
        for word in ["alpha", "beta", "preview", "snapshot", "nightly", "canary", "dev"] where name.contains(word) { return true }
        // `rc`, `a`, `b` or `d` right after a digit, or `rc` after a separator, followed by a number or the end.
        return name.range(of: #"([0-9]|[-._/])rc([0-9]|$|[-._])|[0-9](a|b|d)[0-9]+$|[0-9](a|b|d)[0-9]+[-._]"#, options: .regularExpression) != nil
    }
}

/// Reads the version history of an Xcode project from git.
///
/// git runs four times whatever the size of the history: `rev-parse`, `for-each-ref` for tags, one
/// `log --raw` stream for every commit's changed files, and one `cat-file --batch` for the file
/// contents. The project files are then replayed commit by commit in memory, each commit starting
/// from its first parent's files, so branches (a hotfix that goes back) are read as they were.
public enum GitImporter {
    public struct Options: Sendable, Hashable {
        /// Where to start walking; tags are always walked too.
        public var refs: [String]
        /// Files or folders to read (relative to the repository root); empty means every
        /// project.pbxproj, *Info.plist and .xcconfig.
        public var paths: [String]
        /// Which versions are releases: the tagged ones, every version change, or (nil) the tagged ones
        /// when any version is tagged and every change otherwise.
        public var taggedOnly: Bool?
        /// The PATH to look for git on.
        public var environment: [String: String]
        /// The app's bundle id, when known (a plan's, or `--bundle-id`): its versions are read, every other app's left
        /// out. Nil: the app the repository's own project builds first at HEAD.
        public var bundleID: String?

        public init(
            refs: [String] = ["HEAD"], paths: [String] = [], taggedOnly: Bool? = nil,
            environment: [String: String] = ProcessInfo.processInfo.environment, bundleID: String? = nil
        ) {
            self.refs = refs
            self.paths = paths
            self.taggedOnly = taggedOnly
            self.environment = environment
            self.bundleID = bundleID
        }
    }

    /// The full history of changes (for the wizard) and the import result.
    public struct History: Sendable {
        public var changes: [GitVersionChange]
        public var result: ImportResult
        /// The version at HEAD when no tag marks it: work in progress, never offered as a release.
        public var current: GitVersionChange?
        /// The releases are the tagged versions (the project tags its releases, or tags were asked for).
        public var fromTags: Bool
        /// Versions and builds the history changed to that no tag marks, left out because the releases are the
        /// tagged versions (`--all-versions` takes them); 0 when every version change was read.
        public var untaggedLeftOut: Int = 0
        /// Versions whose app target had another bundle id than the app's: another App Store app that lived in the
        /// repository, left out of the releases, by bundle id.
        public var otherApps: [String: [GitVersionChange]] = [:]
        /// Tags left out because they name a pre-release (a beta, a release candidate).
        public var prereleaseTags: [String] = []
        /// This app's version changes no tag marks, left out of the releases (the releases are the tagged versions): an
        /// era's name still covers them, since their buyers are among its releases' by version and date.
        public var untagged: [GitVersionChange] = []
        /// What the history held that isn't this app's releases, one sentence each (another app's versions, other apps
        /// the repository builds, pre-release tags, another platform's tags): also in `result.ignored`.
        public var leftOut: [String] = []
    }

    public static func read(repository: String, displayPath: String, options: Options = Options()) throws(ImportError) -> History {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: repository, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ImportError(.noInput, file: displayPath, "no such folder")
        }
        guard let executable = GitRunner.locate(environment: options.environment) else {
            throw ImportError(
                .toolMissing, file: displayPath, "git is not installed (not found on PATH)", hint: "Install git, or use another importer.")
        }
        let git = GitRunner(executable: executable, repository: repository, displayPath: displayPath)
        let top = try git.run(["rev-parse", "--show-toplevel"])
        guard top.status == 0 else {
            throw ImportError(.noInput, file: displayPath, "not a git repository", hint: "Name the folder of a clone (the one holding .git).")
        }
        for ref in options.refs {
            let check = try git.run(["rev-parse", "--verify", "--quiet", ref + "^{commit}"])
            guard check.status == 0 else {
                throw ImportError(.noInput, file: displayPath, place: "--ref \(ref)", "'\(ref)' is not a branch, tag or commit in this repository")
            }
        }
        let prefixOutput = try git.run(["rev-parse", "--show-prefix"])
        let prefix = String(decoding: prefixOutput.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let tags = try readTags(git)
        let log = try git.run(
            [
                "log", "--topo-order", "--reverse", "--format=%x1e%H %P%x00%ct%x00%at", "--raw", "--no-abbrev", "--no-renames",
                "--diff-merges=first-parent",
            ]
                + options.refs + ["--tags", "--"])
        guard log.status == 0 else {
            let message = log.error.split(separator: "\n").first.map(String.init) ?? "git log failed"
            if message.contains("does not have any commits") {
                throw ImportError(.badData, file: displayPath, "the repository has no commits")
            }
            throw ImportError(.badData, file: displayPath, "git log failed: \(message)")
        }
        let filter = PathFilter(paths: options.paths.map { prefix + $0 })
        var commits = parseLog(log.output, filter: filter)
        let blobs = Set(commits.flatMap { $0.changes.compactMap(\.blob) })
        let contents = try readBlobs(git, Array(blobs).sorted())
        var replay = Replay(contents: contents, displayPath: displayPath)
        replay.run(&commits)
        let head = String(decoding: try git.run(["rev-parse", "HEAD"]).output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return replay.history(commits: commits, tags: tags, head: head, taggedOnly: options.taggedOnly, bundleID: options.bundleID)
    }

    struct Change {
        var path: String
        /// Nil when the file was deleted.
        var blob: String?
    }

    struct Commit {
        var hash: String
        var parents: [String]
        /// When it landed in this history; a rewrite sets it anew for every commit it touches.
        var committed: Date
        /// When it was written, as git records it.
        var authored: Date
        var changes: [Change]
        /// The author date, or the first parent's if later: what the commit's version is dated by.
        var date: Date

        init(hash: String, parents: [String], committed: Date, authored: Date, changes: [Change]) {
            self.hash = hash
            self.parents = parents
            self.committed = committed
            self.authored = authored
            self.changes = changes
            self.date = authored
        }
    }

    struct Tag {
        var name: String
        var commit: String
        var date: Date
        /// An annotated tag has a date of its own (the tagger's); a lightweight one is only a name.
        var isAnnotated: Bool
    }

    /// Which files matter: the user's paths, or the project files Xcode versions live in.
    struct PathFilter {
        var paths: [String]

        func matches(_ path: String) -> Bool {
            if !paths.isEmpty {
                return paths.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
            }
            if path.contains("Pods/") || path.contains("Carthage/") || path.contains(".build/") { return false }
            return path.hasSuffix(".pbxproj") || path.lowercased().hasSuffix("info.plist") || path.hasSuffix(".xcconfig")
        }
    }

    static func readTags(_ git: GitRunner) throws(ImportError) -> [Tag] {
        let output = try git.run(["for-each-ref", "refs/tags", "--format=%(refname:short)%00%(objectname)%00%(*objectname)%00%(creatordate:unix)"])
        var tags: [Tag] = []
        for line in String(decoding: output.output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let seconds = Double(fields[3]) else { continue }
            // An annotated tag's own object is the tag; `*objectname` is the commit it points at.
            tags.append(
                Tag(
                    name: fields[0], commit: fields[2].isEmpty ? fields[1] : fields[2], date: Date(timeIntervalSince1970: seconds),
                    isAnnotated: !fields[2].isEmpty))
        }
        return tags
    }

    static func parseLog(_ bytes: [UInt8], filter: PathFilter) -> [Commit] {
        var commits: [Commit] = []
        for record in bytes.split(separator: 0x1E) {
            let lines = record.split(separator: 0x0A)
            guard let header = lines.first else { continue }
            let fields = header.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 3 else { continue }
            let ids = fields[0].split(separator: " ").map(String.init)
            guard let hash = ids.first, let committed = Double(fields[1]), let authored = Double(fields[2]) else { continue }
            var changes: [Change] = []
            for line in lines.dropFirst() where line.first == UInt8(ascii: ":") {
                // :100644 100644 <old> <new> M\t<path>
                guard let tab = line.firstIndex(of: 0x09) else { continue }
                let path = String(decoding: line[(tab + 1)...], as: UTF8.self)
                guard filter.matches(path) else { continue }
                let fields = line[line.startIndex..<tab].split(separator: 0x20)
                guard fields.count >= 5 else { continue }
                let blob = String(decoding: fields[3], as: UTF8.self)
                let status = fields[4].first
                changes.append(Change(path: path, blob: status == UInt8(ascii: "D") || blob.allSatisfy { $0 == "0" } ? nil : blob))
            }
            commits.append(
                Commit(
                    hash: hash, parents: Array(ids.dropFirst()), committed: Date(timeIntervalSince1970: committed),
                    authored: Date(timeIntervalSince1970: authored), changes: changes))
        }
        return commits
    }

    /// Every blob's bytes, from one `git cat-file --batch`.
    static func readBlobs(_ git: GitRunner, _ ids: [String]) throws(ImportError) -> [String: [UInt8]] {
        guard !ids.isEmpty else { return [:] }
        let input = Array(ids.joined(separator: "\n").utf8) + [0x0A]
        let output = try git.run(["cat-file", "--batch"], input: input).output
        var contents: [String: [UInt8]] = [:]
        var index = 0
        while index < output.count {
            guard let end = output[index...].firstIndex(of: 0x0A) else { break }
            let header = String(decoding: output[index..<end], as: UTF8.self).split(separator: " ")
            index = end + 1
            guard header.count == 3, let size = Int(header[2]) else { continue }  // "<id> missing"
            contents[String(header[0])] = Array(output[index..<min(index + size, output.count)])
            index += size + 1
        }
        return contents
    }
}
