import Foundation
import MigratePlan

extension GitImporter {
    /// The version at one commit, and what the project said about the app there.
    struct Resolved: Hashable {
        var version: Version
        var build: Version?
        var platforms: [Platform]
        var bundleID: String?
        var name: String?
    }

    /// Replays the project files commit by commit and resolves the version at each change.
    struct Replay {
        let contents: [String: [UInt8]]
        let displayPath: String
        var files: [String: [String: String]] = [:]
        var values: [String: Resolved] = [:]
        var cache: [String: Resolved?] = [:]
        var projects: [String: XcodeProject?] = [:]
        var issues: [ImportIssue] = []
        var reportedBlobs = Set<String>()
        var lastIssues: [ImportIssue] = []
        var datesOutOfOrder = 0

        init(contents: [String: [UInt8]], displayPath: String) {
            self.contents = contents
            self.displayPath = displayPath
        }

        mutating func run(_ commits: inout [Commit]) {
            var dates: [String: Date] = [:]
            for commit in commits {
                dates[commit.hash] = commit.date
                let parent = commit.parents.first
                if let parent, let parentDate = dates[parent], commit.date < parentDate { datesOutOfOrder += 1 }
                var state = parent.flatMap { files[$0] } ?? [:]
                for change in commit.changes { state[change.path] = change.blob }
                files[commit.hash] = state
                if commit.changes.isEmpty {
                    if let parent, let value = values[parent] { values[commit.hash] = value }
                    continue
                }
                if let value = resolve(state, commit: commit.hash) {
                    values[commit.hash] = value
                } else if let parent, let value = values[parent] {
                    values[commit.hash] = value
                }
            }
        }

        mutating func resolve(_ state: [String: String], commit: String) -> Resolved? {
            let key = state.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
            if let cached = cache[key] { return cached }
            let value = resolveUncached(state, commit: commit)
            cache[key] = value
            return value
        }

        mutating func resolveUncached(_ state: [String: String], commit: String) -> Resolved? {
            let short = String(commit.prefix(10))
            // Shallower projects first: the app's own project, not one vendored in a subfolder.
            let projectPaths = state.keys.filter { $0.hasSuffix(".pbxproj") }.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
            for path in projectPaths {
                guard let blob = state[path], let project = project(blob: blob, path: path, commit: short), project.appTarget != nil else { continue }
                let folder = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                let lookup: XcodeImporter.FileLookup = { relative in
                    let full = folder.isEmpty ? relative : folder + "/" + relative
                    return state[(full as NSString).standardizingPath].flatMap { contents[$0] }
                }
                do {
                    let version = try XcodeImporter.resolve(project: project, projectFile: path, files: lookup)
                    return resolved(version, at: short)
                } catch {
                    report(error, blob: blob, commit: short)
                    return nil
                }
            }
            let plists = state.keys.filter { $0.lowercased().hasSuffix("info.plist") }.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
            for path in plists {
                guard let blob = state[path] else { continue }
                do {
                    let version = try XcodeImporter.resolve(project: nil, projectFile: path, infoPlistPath: path) { $0 == path ? contents[blob] : nil }
                    if let value = resolved(version, at: short) { return value }
                } catch {
                    report(error, blob: blob, commit: short)
                }
            }
            return nil
        }

        mutating func resolved(_ version: XcodeVersion, at commit: String) -> Resolved? {
            lastIssues = version.issues.map { issue in
                var issue = issue
                issue.place = "commit \(commit), \(issue.file)" + (issue.place.map { " \($0)" } ?? "")
                issue.file = displayPath
                return issue
            }
            guard let marketing = version.version else { return nil }
            return Resolved(version: marketing, build: version.build, platforms: version.platforms, bundleID: version.bundleID, name: version.name)
        }

        mutating func project(blob: String, path: String, commit: String) -> XcodeProject? {
            if let cached = projects[blob] { return cached }
            var project: XcodeProject?
            do {
                project = try XcodeProject.parse(contents[blob] ?? [], file: path)
            } catch {
                report(error, blob: blob, commit: commit)
            }
            projects[blob] = project
            return project
        }

        mutating func report(_ error: ImportError, blob: String, commit: String) {
            guard reportedBlobs.insert(blob).inserted else { return }
            issues.append(
                ImportIssue(
                    .warning, file: displayPath, place: "commit \(commit)", "\(error.file): \(error.message); this commit's version was not read",
                    hint: "A file committed half-merged or damaged is skipped; the versions before and after it are still read."))
        }

        func history(commits: [Commit], tags: [Tag], taggedOnly: Bool) -> History {
            var changes: [GitVersionChange] = []
            var tagsByCommit: [String: [String]] = [:]
            for tag in tags { tagsByCommit[tag.commit, default: []].append(tag.name) }
            for commit in commits {
                guard let value = values[commit.hash] else { continue }
                let previous = commit.parents.first.flatMap { values[$0] }
                let isTagged = tagsByCommit[commit.hash] != nil
                if previous.map({ $0.version.text != value.version.text || $0.build?.text != value.build?.text }) ?? true || isTagged {
                    changes.append(
                        GitVersionChange(commit: commit.hash, date: commit.date, version: value.version, build: value.build, tags: (tagsByCommit[commit.hash] ?? []).sorted()))
                }
            }
            var result = ImportResult(source: "git")
            result.issues = issues + lastIssues
            if datesOutOfOrder > 0 {
                result.issues.append(
                    ImportIssue(
                        .note, file: displayPath,
                        "\(datesOutOfOrder) commit\(datesOutOfOrder == 1 ? " is" : "s are") dated before \(datesOutOfOrder == 1 ? "its" : "their") parent (rewritten history); versions follow the commit order, dates are committer dates"))
            }
            let latest = commits.reversed().lazy.compactMap { values[$0.hash] }.first
            var platforms = latest?.platforms ?? []
            if platforms.isEmpty {
                platforms = [.iOS]
                if latest != nil { result.ignored.append("note: the project names no SDK; read as iOS") }
            }
            result.app = AppHints(name: latest?.name, bundleID: latest?.bundleID, platforms: platforms)

            func key(_ version: Version, _ build: Version?) -> String { "\(version.canonical) (\(build?.canonical ?? ""))" }
            var seen = Set<String>()
            var releases: [(version: Version, build: Version?, date: Date, source: String, origin: String)] = []
            if taggedOnly {
                for tag in tags.sorted(by: { ($0.date, $0.name) < ($1.date, $1.name) }) {
                    guard let value = values[tag.commit], seen.insert(key(value.version, value.build)).inserted else { continue }
                    releases.append((value.version, value.build, tag.date, "git tag date", "tag \(tag.name)"))
                }
            } else {
                for change in changes where seen.insert(key(change.version, change.build)).inserted {
                    let origin = "commit \(change.commit.prefix(10))" + (change.tags.isEmpty ? "" : " (\(change.tags.joined(separator: ", ")))")
                    releases.append((change.version, change.build, change.date, "git commit date", origin))
                }
            }
            // Walk order is topological; releases read best by date (ties keep the walk order).
            releases = releases.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
            for platform in platforms {
                for release in releases {
                    result.releases.append(
                        ImportedRelease(
                            platform: platform, version: release.version, build: release.build, date: release.date,
                            dateSource: release.source, origin: release.origin))
                }
            }
            if !taggedOnly && !releases.isEmpty {
                result.ignored.append("note: every version and build the history shows was imported; remove builds that never went live (or use --tagged-only)")
            }
            return History(changes: changes, result: result)
        }
    }
}
