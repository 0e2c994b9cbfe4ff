import Foundation
import MigratePlan

/// Sales reports that count the same sales twice: the same report given twice, a daily report inside a monthly
/// one, two downloads of one month. Each sale is counted once, and a warning names the files.
///
/// Periods are compared within a series (a provider's SKU in one country, of one product type): two periods of a
/// series that share a day count the same sales on that day.
/// - The same period in two files, or a period inside a longer one (the days of a month inside the month): the
///   longer one counts, the other is left out (of equal ones, the file given first counts).
/// - Periods that share some days but neither holds the other (a week across a month's end beside the month)
///   cannot be split by day without inventing sales: refused, naming both files.
/// Periods without a series (counts of every row, combined by whoever made them) are taken as they are.
public enum ActualOverlaps {
    public struct Resolution: Sendable, Hashable {
        /// One period per begin and end day, every series added up, in date order.
        public var periods: [ActualPeriod]
        /// One warning per pair of files that count the same sales.
        public var warnings: [String]
    }

    public static func resolve(_ periods: [ActualPeriod]) throws(SimulationError) -> Resolution {
        var fileOrder: [String: Int] = [:]
        for period in periods where fileOrder[period.file] == nil { fileOrder[period.file] = fileOrder.count }
        // Rows of one report for the same series and period are different sales (versions, prices): added up.
        struct Slot: Hashable {
            var series: ActualSeries?
            var file: String
            var begin: Date
            var end: Date
        }
        var slots: [Slot: ActualPeriod] = [:]
        for period in periods {
            let slot = Slot(series: period.series, file: period.series == nil ? "" : period.file, begin: period.begin, end: period.end)
            if slots[slot] == nil { slots[slot] = period } else { slots[slot]!.add(period) }
        }
        var bySeries: [ActualSeries?: [ActualPeriod]] = [:]
        for period in slots.values { bySeries[period.series, default: []].append(period) }

        struct Pair: Hashable {
            var dropped: String
            var kept: String
        }
        var repeats: [Pair: (count: Int, first: (ActualPeriod, ActualPeriod))] = [:]
        var excess: [(kept: ActualPeriod, dropped: Int)] = []
        var kept: [ActualPeriod] = []
        let seriesOrder = bySeries.keys.sorted { left, right in
            guard let left else { return right != nil }
            guard let right else { return false }
            return left < right
        }
        for series in seriesOrder {
            let list = bySeries[series]!
            guard series != nil else {
                kept += list
                continue
            }
            // Longest first at each begin day, then the file given first: what holds another comes before it.
            let sorted = list.sorted { left, right in
                if left.begin != right.begin { return left.begin < right.begin }
                if left.end != right.end { return left.end > right.end }
                return fileOrder[left.file]! < fileOrder[right.file]!
            }
            var seriesKept: [ActualPeriod] = []
            // Units of the shorter periods inside each kept one, each period of days once (copies of a day count once).
            var droppedUnits: [Int] = []
            var droppedDays: [Set<[Date]>] = []
            for period in sorted {
                // Kept periods never share a day, so only the last one kept can reach this one's begin day.
                guard let last = seriesKept.last, period.begin <= last.end else {
                    seriesKept.append(period)
                    droppedUnits.append(0)
                    droppedDays.append([])
                    continue
                }
                guard period.end <= last.end else {
                    throw partialOverlap(period, last)
                }
                let pair = Pair(dropped: period.file, kept: last.file)
                if let known = repeats[pair] {
                    repeats[pair] = (known.count + 1, known.first)
                } else {
                    repeats[pair] = (1, (period, last))
                }
                if (period.begin, period.end) != (last.begin, last.end),
                    droppedDays[droppedDays.count - 1].insert([period.begin, period.end]).inserted
                {
                    droppedUnits[droppedUnits.count - 1] += period.unitCount
                }
            }
            for (index, period) in seriesKept.enumerated() where droppedUnits[index] > period.unitCount {
                excess.append((period, droppedUnits[index]))
            }
            kept += seriesKept
        }

        var warnings: [String] = []
        for (pair, found) in repeats.sorted(by: {
            (fileOrder[$0.key.dropped]!, fileOrder[$0.key.kept]!) < (fileOrder[$1.key.dropped]!, fileOrder[$1.key.kept]!)
        }) {
            let (period, holder) = found.first
            let same = period.begin == holder.begin && period.end == holder.end
            let what = "\(found.count) group\(found.count == 1 ? "" : "s") of rows (the same provider, SKU, country and product type)"
            let example =
                "first: \(period.series!.description), \(days(period)) at \(period.origin) \(same ? "repeats" : "inside") \(days(holder)) at \(holder.origin)"
            if pair.dropped == pair.kept {
                warnings.append(
                    "warning: \(pair.dropped) counts some sales twice: \(what) fall on days its longer periods already count (\(example)); counted once, from the longer periods."
                )
            } else {
                warnings.append(
                    "warning: \(pair.dropped) counts sales that \(pair.kept) already counts: \(what) on days \(pair.kept) covers (\(example)); each is counted once, from \(pair.kept). Pass each period's report once."
                )
            }
        }
        for (period, dropped) in excess.sorted(by: { ($0.kept.series!, $0.kept.begin) < ($1.kept.series!, $1.kept.begin) }) {
            warnings.append(
                "warning: \(period.file): \(period.series!.description), \(days(period)) (\(period.origin)) counts \(ActualsComparison.whole(Double(period.unitCount))) units, but the shorter periods inside it count \(ActualsComparison.whole(Double(dropped))); \(period.file)'s figure is used. Check that the reports are of the same account."
            )
        }

        // One period per begin and end day; its origin the first file's.
        kept.sort { left, right in
            if (left.begin, left.end) != (right.begin, right.end) { return (left.begin, left.end) < (right.begin, right.end) }
            if left.file != right.file { return fileOrder[left.file, default: 0] < fileOrder[right.file, default: 0] }
            return (left.series?.sku ?? "", left.origin) < (right.series?.sku ?? "", right.origin)
        }
        var combined: [[Date]: ActualPeriod] = [:]
        for period in kept {
            let key = [period.begin, period.end]
            if combined[key] == nil {
                var first = period
                first.series = nil
                combined[key] = first
            } else {
                combined[key]!.add(period)
            }
        }
        return Resolution(periods: combined.values.sorted { ($0.begin, $0.end) < ($1.begin, $1.end) }, warnings: warnings)
    }

    static func partialOverlap(_ period: ActualPeriod, _ other: ActualPeriod) -> SimulationError {
        let shared = (ActualMonths.calendar.dateComponents([.day], from: period.begin, to: min(period.end, other.end)).day ?? 0) + 1
        let files = period.file == other.file ? period.file : "\(other.file) and \(period.file)"
        return SimulationError(
            "\(files) overlap in part: \(period.series!.description) has \(days(other)) at \(other.origin) and \(days(period)) at \(period.origin), which share \(shared) day\(shared == 1 ? "" : "s") without one holding the other, so its sales on those days would be counted twice or guessed",
            hint:
                "Pass reports whose periods don't overlap, or that hold one another (a month and days inside it): monthly reports alone, or daily ones alone, for the months compared.",
            file: period.file)
    }

    /// `2011-11-01 to 2011-11-30`, or one day.
    static func days(_ period: ActualPeriod) -> String {
        period.begin == period.end
            ? Timestamp.formatDate(period.begin) : "\(Timestamp.formatDate(period.begin)) to \(Timestamp.formatDate(period.end))"
    }
}
