import Foundation
import MigratePlan
import MigrateSupport

extension GitImporter {
    /// The version at one commit, and what the project said about the app there.
    struct Resolved: Hashable {
        var version: Version
        var build: Version?
        var platforms: [Platform]
        var bundleID: String?
        var name: String?
        /// `path/to/App.xcodeproj/project.pbxproj:Target`, or the Info.plist's path: which app target this is.
        var target: String = ""
    }

    /// Replays the project files commit by commit and resolves the version at each change.
    struct Replay {
        let contents: [String: [UInt8]]
        let displayPath: String
        var files: [String: [String: String]] = [:]
        /// Every application target's version at each commit, the app's own project first.
        var values: [String: [Resolved]] = [:]
        var cache: [String: [Resolved]?] = [:]
        var projects: [String: XcodeProject?] = [:]
        var issues: [Diagnostic] = []
        var reportedBlobs = Set<String>()
        var lastIssues: [Diagnostic] = []
        /// Commits whose committer date is before their first parent's: the history was rewritten.
        var datesOutOfOrder = 0

        init(contents: [String: [UInt8]], displayPath: String) {
            self.contents = contents
            self.displayPath = displayPath
        }

        mutating func run(_ commits: inout [Commit]) {
            var dates: [String: (committed: Date, effective: Date)] = [:]
            for index in commits.indices {
                let parent = commits[index].parents.first
                if let parent, let parentDates = dates[parent] {
                    if commits[index].committed < parentDates.committed { datesOutOfOrder += 1 }
                    // A version can't have been released before the work it builds on was written.
                    commits[index].date = max(commits[index].authored, parentDates.effective)
                }
                dates[commits[index].hash] = (commits[index].committed, commits[index].date)
                let commit = commits[index]
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

        mutating func resolve(_ state: [String: String], commit: String) -> [Resolved]? {
            let key = state.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
            if let cached = cache[key] { return cached }
            let value = resolveUncached(state, commit: commit)
            cache[key] = value
            return value
        }

        mutating func resolveUncached(_ state: [String: String], commit: String) -> [Resolved]? {
            let short = String(commit.prefix(10))
            // The app's own project first: shallower before deeper, and samples, demos and vendored frameworks last.
            let projectPaths = state.keys.filter { $0.hasSuffix(".pbxproj") }.sorted {
                (XcodeProject.isAuxiliary($0) ? 1 : 0, $0.split(separator: "/").count, $0) < (
                    XcodeProject.isAuxiliary($1) ? 1 : 0, $1.split(separator: "/").count, $1
                )
            }
            var found: [Resolved] = []
            var firstIssues: [Diagnostic]?
            for path in projectPaths {
                guard let blob = state[path], let project = project(blob: blob, path: path, commit: short) else { continue }
                let folder = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
                let lookup: XcodeImporter.FileLookup = { relative in
                    let full = folder.isEmpty ? relative : folder + "/" + relative
                    return state[(full as NSString).standardizingPath].flatMap { contents[$0] }
                }
                // Every application target: a repository may build several apps (iOS and Mac, Focus and Klar).
                for target in project.targets where target.isApplication {
                    do throws(ImportError) {
                        let version = try XcodeImporter.resolve(project: project, projectFile: path, targetName: target.name, files: lookup)
                        if var value = resolved(version, at: short) {
                            value.target = path + ":" + target.name
                            found.append(value)
                            if firstIssues == nil { firstIssues = lastIssues }
                        }
                    } catch {
                        report(error, blob: blob, commit: short)
                    }
                }
            }
            if let firstIssues { lastIssues = firstIssues }
            if !found.isEmpty { return found }
            let plists = state.keys.filter { $0.lowercased().hasSuffix("info.plist") }.sorted {
                ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1)
            }
            for path in plists {
                guard let blob = state[path] else { continue }
                do {
                    let version = try XcodeImporter.resolve(project: nil, projectFile: path, infoPlistPath: path) {
                        $0 == path ? contents[blob] : nil
                    }
                    if var value = resolved(version, at: short) {
                        value.target = path
                        return [value]
                    }
                } catch {
                    report(error, blob: blob, commit: short)
                }
            }
            return nil
        }

        mutating func resolved(_ version: XcodeVersion, at commit: String) -> Resolved? {
            lastIssues = version.issues.map { issue in
                var issue = issue
                issue.place = "commit \(commit), \(issue.file ?? "")" + (issue.place.map { " \($0)" } ?? "")
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
                Diagnostic(
                    .warning, code: .commitUnreadable, "\(error.file): \(error.message); this commit's version was not read",
                    hint: "A file committed half-merged or damaged is skipped; the versions before and after it are still read.", file: displayPath,
                    place: "commit \(commit)"))
        }

        func history(commits: [Commit], tags: [Tag], head: String, taggedOnly: Bool?, bundleID wanted: String? = nil) -> History {
            // The app: the one the user named, else the app's own project's first application target at HEAD.
            let headCandidates = self.values[head] ?? commits.reversed().lazy.compactMap { self.values[$0.hash] }.first ?? []
            let named = wanted.flatMap { id in headCandidates.first { $0.bundleID?.lowercased() == id.lowercased() } }
            let appBundleID =
                wanted ?? headCandidates.first?.bundleID
                ?? commits.reversed().lazy.compactMap { self.values[$0.hash]?.first?.bundleID }.first
            let appTarget = named?.target ?? headCandidates.first?.target
            var values: [String: Resolved] = [:]
            for (commit, candidates) in self.values {
                if let appBundleID, let match = candidates.first(where: { $0.bundleID?.lowercased() == appBundleID.lowercased() }) {
                    values[commit] = match
                } else if let match = candidates.first(where: { $0.target == appTarget }) {
                    values[commit] = match
                } else if appBundleID == nil {
                    values[commit] = candidates.first
                }
            }
            // Other apps the repository builds at HEAD (a Mac app beside the iOS one, a second brand): said, never merged.
            let otherTargets = headCandidates.filter { $0.bundleID != nil && $0.bundleID?.lowercased() != appBundleID?.lowercased() }
            var changes: [GitVersionChange] = []
            var tagsByCommit: [String: [String]] = [:]
            for tag in tags { tagsByCommit[tag.commit, default: []].append(tag.name) }
            for commit in commits {
                guard let value = values[commit.hash] else { continue }
                let previous = commit.parents.first.flatMap { values[$0] }
                let isTagged = tagsByCommit[commit.hash] != nil
                if previous.map({ $0.version.text != value.version.text || $0.build?.text != value.build?.text || $0.bundleID != value.bundleID })
                    ?? true || isTagged
                {
                    changes.append(
                        GitVersionChange(
                            commit: commit.hash, date: commit.date, version: value.version, build: value.build,
                            tags: (tagsByCommit[commit.hash] ?? []).sorted(), bundleID: value.bundleID, name: value.name, platforms: value.platforms))
                }
            }
            var result = ImportResult(source: "git")
            result.issues = issues + lastIssues
            if let rewrite = GitHistoryShape.rewrite(commits, outOfOrder: datesOutOfOrder) {
                result.issues.append(Diagnostic(.note, code: .historyRewritten, rewrite, file: displayPath))
            }
            let latest = commits.reversed().lazy.compactMap { values[$0.hash] }.first
            var platforms = latest?.platforms ?? []
            if platforms.isEmpty {
                platforms = [.iOS]
                if latest != nil { result.ignored.append("note: the project names no SDK; read as iOS") }
            }
            // A version whose app target had another bundle id belongs to another App Store app (a bundle id can't
            // change on a record), whose buyers have no AppTransaction for this one.
            func isOtherApp(_ value: Resolved) -> Bool {
                guard let appBundleID, let bundleID = value.bundleID else { return false }
                return bundleID.lowercased() != appBundleID.lowercased()
            }
            var otherApps: [String: [GitVersionChange]] = [:]
            for change in changes {
                guard let value = values[change.commit], isOtherApp(value), let bundleID = value.bundleID else { continue }
                otherApps[bundleID, default: []].append(change)
            }
            result.app = AppHints(name: latest?.name, bundleID: latest?.bundleID ?? appBundleID, platforms: platforms)
            var leftOut: [String] = []
            var seenOthers = Set<String>()
            for other in otherTargets where seenOthers.insert(other.bundleID!.lowercased()).inserted {
                leftOut.append(
                    "the repository also builds \(other.name ?? other.target) (\(other.bundleID!), \(other.platforms.map(\.rawValue).joined(separator: ", "))), another App Store app: planned apart, with --bundle-id \(other.bundleID!)"
                )
            }

            func key(_ version: Version, _ build: Version?) -> String { "\(version.canonical) (\(build?.canonical ?? ""))" }
            var commitDates: [String: Date] = [:]
            for commit in commits { commitDates[commit.hash] = commit.date }
            // A beta's or a release candidate's tag marks a test build, never a release's day; another app's tags aren't this app's.
            let prerelease = tags.filter { values[$0.commit] != nil && GitVersionChange.isPrerelease(tag: $0.name) }.map(\.name)
            // A tag that names another platform's app (`mac-6.0` in a repository whose app is the iOS one) isn't this app's.
            let otherPlatform = tags.filter { tag in
                guard let value = values[tag.commit], let platform = GitVersionChange.platform(ofTag: tag.name) else { return false }
                return !value.platforms.contains(platform)
            }.map(\.name)
            let versionTags = tags.filter { tag in
                guard let value = values[tag.commit] else { return false }
                return !isOtherApp(value) && !GitVersionChange.isPrerelease(tag: tag.name) && !otherPlatform.contains(tag.name)
            }
            let tagged = Set(versionTags.compactMap { values[$0.commit].map { key($0.version, $0.build) } })
            // The version at HEAD that no tag marks is work in progress when the project tags its releases.
            var current: GitVersionChange?
            if let value = values[head], !tagged.contains(key(value.version, value.build)) {
                current = changes.last { key($0.version, $0.build) == key(value.version, value.build) }
            }

            var seen = Set<String>()
            var untaggedLeftOut = 0
            var releases:
                [(
                    version: Version, build: Version?, date: Date, source: String, provenance: ReleaseDateSource, origin: String,
                    platforms: [Platform]
                )] =
                    []
            let fromTags = taggedOnly ?? !versionTags.isEmpty
            if fromTags {
                let retroactive = GitHistoryShape.retroactiveTags(versionTags, commitDates: commitDates)
                if let note = retroactive.note { result.issues.append(Diagnostic(.note, code: .tagsMadeLater, note, file: displayPath)) }
                for tag in versionTags {
                    guard let value = values[tag.commit], seen.insert(key(value.version, value.build)).inserted else { continue }
                    if tag.isAnnotated && !retroactive.names.contains(tag.name) {
                        releases.append((value.version, value.build, tag.date, "git tag date", .tag, "tag \(tag.name)", value.platforms))
                    } else {
                        // A lightweight tag has no date of its own: it marks the release, the commit dates it.
                        let date = commitDates[tag.commit] ?? tag.date
                        releases.append(
                            (value.version, value.build, date, "git commit date, tag \(tag.name)", .commit, "tag \(tag.name)", value.platforms))
                    }
                }
                let ours = changes.filter { values[$0.commit].map { !isOtherApp($0) } ?? true }
                let untagged = Set(ours.map { key($0.version, $0.build) }).subtracting(seen)
                untaggedLeftOut = untagged.count
                if !untagged.isEmpty {
                    result.ignored.append(
                        "\(Limits.grouped(untagged.count)) untagged version\(untagged.count == 1 ? "" : "s") left out (TestFlight builds or work in progress)"
                            + (taggedOnly == nil ? "; --all-versions imports every version the history shows" : ""))
                }
            } else {
                for change in changes where seen.insert(key(change.version, change.build)).inserted {
                    if let value = values[change.commit], isOtherApp(value) { continue }
                    if let current, !versionTags.isEmpty, change.commit == current.commit { continue }
                    let origin = "commit \(change.commit.prefix(10))" + (change.tags.isEmpty ? "" : " (\(change.tags.joined(separator: ", ")))")
                    releases.append((change.version, change.build, change.date, "git commit date", .commit, origin, change.platforms))
                }
                if !releases.isEmpty {
                    result.ignored.append(
                        "note: every version and build the history shows was imported; remove builds that never went live (or tag releases and use --tagged-only)"
                    )
                }
            }
            if let current {
                if versionTags.isEmpty {
                    result.issues.append(
                        Diagnostic(
                            .warning, code: .untaggedHead,
                            "\(current.displayName), the version at HEAD, has no tag and nothing says it went live; it was imported as a release",
                            hint: "Remove it from the plan if it is still in development, or tag the commits that were released.", file: displayPath,
                            place: "HEAD"))
                } else {
                    result.ignored.append("\(current.displayName) at HEAD: no tag marks it released; read as the current version, not a release")
                }
            }
            // Walk order is topological; releases read best by date (ties keep the walk order).
            releases = releases.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
            // Each release on the platforms its own commit built for: a platform added later has no earlier releases.
            let releasePlatforms = Set(releases.flatMap { $0.platforms.isEmpty ? platforms : $0.platforms })
            for platform in platforms.filter(releasePlatforms.contains) + releasePlatforms.subtracting(platforms).sorted() {
                for release in releases where (release.platforms.isEmpty ? platforms : release.platforms).contains(platform) {
                    result.releases.append(
                        ImportedRelease(
                            platform: platform, version: release.version, build: release.build, date: release.date,
                            dateSource: release.source, provenance: release.provenance, origin: release.origin))
                }
            }
            for (bundleID, versions) in otherApps.sorted(by: { $0.key < $1.key }) {
                let shown = versions.map(\.displayName)
                let range = shown.count == 1 ? shown[0] : "\(shown.first!) – \(shown.last!)"
                leftOut.append(
                    "\(Limits.grouped(versions.count)) version\(versions.count == 1 ? "" : "s") of another app left out (\(bundleID)\(versions.first?.name.map { ", \($0)" } ?? ""): \(range)): a bundle id is one App Store record, so its buyers have no purchase of this app"
                )
            }
            if !otherPlatform.isEmpty {
                leftOut.append(
                    "\(Limits.grouped(otherPlatform.count)) tag\(otherPlatform.count == 1 ? "" : "s") of another platform's app (\(otherPlatform.prefix(3).joined(separator: ", "))\(otherPlatform.count > 3 ? ", …" : "")) left out"
                )
            }
            if !prerelease.isEmpty {
                leftOut.append(
                    "\(Limits.grouped(prerelease.count)) pre-release tag\(prerelease.count == 1 ? "" : "s") (\(prerelease.prefix(3).joined(separator: ", "))\(prerelease.count > 3 ? ", …" : "")) left out: a beta's or a release candidate's tag never dates a release"
                )
            }
            result.ignored += leftOut
            var history = History(changes: changes, result: result, current: current, fromTags: fromTags, untaggedLeftOut: untaggedLeftOut)
            if fromTags {
                // The version at HEAD that no tag marks is work in progress, not a release anyone bought.
                let working = current.map { key($0.version, $0.build) }
                history.untagged = changes.filter { change in
                    guard let value = values[change.commit], !isOtherApp(value) else { return false }
                    let changeKey = key(change.version, change.build)
                    // A version above a release tagged after it never shipped: a placeholder (main's "9000") or a
                    // development number, not a release anyone bought.
                    let overtaken = releases.contains { $0.date > change.date && $0.version < change.version }
                    return !seen.contains(changeKey) && changeKey != working && !overtaken
                }
            }
            history.otherApps = otherApps
            history.prereleaseTags = prerelease
            history.leftOut = leftOut
            return history
        }
    }
}
