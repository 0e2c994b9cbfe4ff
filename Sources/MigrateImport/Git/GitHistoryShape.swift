import Foundation
import MigratePlan

/// What the shape of a history says about its dates: a rewrite (a filter-branch, an import from another
/// system, a squash-and-rebase) gives every commit it touches a new committer date, and tags made after
/// the fact carry the day they were made. Either way the dates say nothing about when a build went live.
enum GitHistoryShape {
    /// Commits that share one committer second with this many others or more were written by a tool.
    static let burstSize = 3
    /// Committed this long after being written: moved by a rewrite, not merged from a branch.
    static let lateCommit: TimeInterval = 30 * 86_400
    /// Annotated tags made within one day for commits this far apart were made after the fact.
    static let retroactiveSpan: TimeInterval = 7 * 86_400

    /// One note when the history looks rewritten, with the counts; nil when it doesn't.
    static func rewrite(_ commits: [GitImporter.Commit], outOfOrder: Int) -> String? {
        let bursts = Dictionary(grouping: commits, by: \.committed).values.filter { $0.count >= burstSize }
        let inBursts = bursts.reduce(0) { $0 + $1.count }
        let late = commits.filter { $0.committed.timeIntervalSince($0.authored) > lateCommit }.count
        guard inBursts >= 10 || late >= max(3, commits.count / 10) || outOfOrder > 0 else { return nil }
        var signs: [String] = []
        if inBursts > 0, let largest = bursts.max(by: { ($0.count, $1[0].committed) < ($1.count, $0[0].committed) }) {
            signs.append(
                "\(Limits.grouped(inBursts)) share their commit time with others (\(Limits.grouped(largest.count)) at \(Timestamp.format(largest[0].committed)))"
            )
        }
        if late > 0 { signs.append("\(Limits.grouped(late)) were committed more than 30 days after they were written") }
        if outOfOrder > 0 { signs.append("\(Limits.grouped(outOfOrder)) are committed before their parent") }
        return "the history looks rewritten: of \(Limits.grouped(commits.count)) commits, " + signs.joined(separator: ", ")
            + "; versions are dated by author dates (when the work was written), which are still not when a build went live"
    }

    /// Annotated tags whose own date can't be a release date: made in a burst on one day for commits far
    /// apart, or dated before the commit they name was written. With the note to show once.
    static func retroactiveTags(_ tags: [GitImporter.Tag], commitDates: [String: Date]) -> (names: Set<String>, note: String?) {
        var names = Set<String>()
        let annotated = tags.filter(\.isAnnotated)
        let byDay = Dictionary(grouping: annotated) { Timestamp.formatDate($0.date) }
        var burstDays: [String] = []
        for (day, group) in byDay where group.count >= burstSize {
            let dates = group.compactMap { commitDates[$0.commit] }
            guard let first = dates.min(), let last = dates.max(), last.timeIntervalSince(first) > retroactiveSpan else { continue }
            names.formUnion(group.map(\.name))
            burstDays.append(day)
        }
        let early = annotated.filter { tag in commitDates[tag.commit].map { tag.date < $0 } ?? false }
        names.formUnion(early.map(\.name))
        guard !names.isEmpty else { return (names, nil) }
        var reasons: [String] = []
        if !burstDays.isEmpty {
            reasons.append("made together on \(burstDays.sorted().joined(separator: ", ")) for commits written weeks apart")
        }
        if !early.isEmpty { reasons.append("\(early.count) dated before the commit they name") }
        let note =
            "\(Limits.grouped(names.count)) tag\(names.count == 1 ? " was" : "s were") \(reasons.joined(separator: "; ")): "
            + "their dates say when the tags were made, so those releases are dated by their commits"
        return (names, note)
    }
}
