import Foundation
import MigratePlan

/// One reporting period of a sales report after the switch, as `simulate --actuals` needs it (the importer's
/// `SalesPeriod`, without the importer).
public struct ActualPeriod: Sendable, Hashable {
    /// The period's first and last day, midnight UTC.
    public var begin: Date
    public var end: Date
    public var freeDownloads: Int
    public var paidDownloads: Int
    /// In-app units bought (renewals apart), refunded, and renewed, by product id.
    public var inAppUnits: [String: Int]
    public var inAppRefunds: [String: Int]
    public var renewals: [String: Int]
    /// Developer proceeds by currency.
    public var proceeds: [String: Double]
    /// `file:line` where the period was first seen.
    public var origin: String
    /// The report it comes from, as the command line named it; with `series`, what tells two reports of the same
    /// sales apart (`ActualOverlaps`).
    public var file: String
    /// The rows it counts (a provider's SKU in one country, of one product type); nil for counts of every row.
    public var series: ActualSeries?

    public init(
        begin: Date, end: Date, freeDownloads: Int = 0, paidDownloads: Int = 0, inAppUnits: [String: Int] = [:], inAppRefunds: [String: Int] = [:],
        renewals: [String: Int] = [:], proceeds: [String: Double] = [:], origin: String = "", file: String? = nil, series: ActualSeries? = nil
    ) {
        self.begin = begin
        self.end = end
        self.freeDownloads = freeDownloads
        self.paidDownloads = paidDownloads
        self.inAppUnits = inAppUnits
        self.inAppRefunds = inAppRefunds
        self.renewals = renewals
        self.proceeds = proceeds
        self.origin = origin
        self.file = file ?? String(origin.split(separator: ":").first ?? "")
        self.series = series
    }

    /// Adds another period's counts.
    public mutating func add(_ other: ActualPeriod) {
        freeDownloads += other.freeDownloads
        paidDownloads += other.paidDownloads
        inAppUnits.merge(other.inAppUnits, uniquingKeysWith: +)
        inAppRefunds.merge(other.inAppRefunds, uniquingKeysWith: +)
        renewals.merge(other.renewals, uniquingKeysWith: +)
        proceeds.merge(other.proceeds, uniquingKeysWith: +)
    }

    /// Every unit it counts: downloads, in-app units, refunds and renewals.
    var unitCount: Int {
        freeDownloads + paidDownloads + inAppUnits.values.reduce(0, +) + inAppRefunds.values.reduce(0, +) + renewals.values.reduce(0, +)
    }
}

/// The rows of a sales report that count the same thing on different days (`SalesSeries`, declared once with the
/// plan's model so the importer and the comparison share it).
public typealias ActualSeries = SalesSeries

/// What the reports say about one calendar month after the switch.
public struct ActualMonth: Sendable, Hashable {
    /// 1 for the calendar month of the switch (the forecast's month 1).
    public var index: Int
    /// `2011-11`.
    public var label: String
    /// Days of the month the reports cover (from the switch on, in month 1), and the days it has.
    public var daysCovered: Int
    public var daysInMonth: Int
    public var freeDownloads = 0.0
    public var inAppUnits: [String: Double] = [:]
    public var inAppRefunds: [String: Double] = [:]
    public var renewals = 0.0
    public var proceeds: [String: Double] = [:]

    /// The share of the month the reports cover: the forecast's month is scaled by it.
    public var coverage: Double { Double(daysCovered) / Double(daysInMonth) }
    public var units: Double { inAppUnits.values.reduce(0, +) }
    public var refunds: Double { inAppRefunds.values.reduce(0, +) }
}

/// Sales report periods put into calendar months from the switch on.
///
/// - A period that ends before the switch's day is left out (its rows are from the paid era); one that begins
///   before it counts from the switch's day on (only free downloads and in-app purchases are compared, and those
///   follow the switch).
/// - A period that spans several months (a week across a month's end, a yearly report) is spread over its days
///   evenly.
/// - Month 1 is the calendar month of the switch; a month the reports cover only in part (the switch after the
///   1st, reports that stop mid-month) is compared with the forecast scaled to the days covered.
public enum ActualMonths {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    public static func bucket(_ periods: [ActualPeriod], switchDate: Date) -> (months: [ActualMonth], notes: [String]) {
        let switchDay = calendar.startOfDay(for: switchDate)
        let start = calendar.dateComponents([.year, .month], from: switchDay)
        var months: [Int: ActualMonth] = [:]
        var covered: [Int: Set<Int>] = [:]
        var notes: [String] = []
        var before: [String] = []
        var early: [String] = []
        var long: [String] = []
        var paid = 0
        for period in periods.sorted(by: { ($0.begin, $0.end) < ($1.begin, $1.end) }) {
            guard period.end >= switchDay else {
                before.append(period.origin)
                continue
            }
            if period.begin < switchDay { early.append(period.origin) }
            paid += period.paidDownloads
            let first = max(period.begin, switchDay)
            let days = (calendar.dateComponents([.day], from: first, to: period.end).day ?? 0) + 1
            if calendar.dateComponents([.day], from: period.begin, to: period.end).day ?? 0 > 31 { long.append(period.origin) }
            let share = 1 / Double(days)
            for offset in 0..<days {
                let day = calendar.date(byAdding: .day, value: offset, to: first)!
                let parts = calendar.dateComponents([.year, .month, .day], from: day)
                let index = (parts.year! - start.year!) * 12 + parts.month! - start.month! + 1
                if months[index] == nil {
                    let length = calendar.range(of: .day, in: .month, for: day)!.count
                    let firstDay = index == 1 ? calendar.component(.day, from: switchDay) : 1
                    months[index] = ActualMonth(
                        index: index, label: String(format: "%04d-%02d", parts.year!, parts.month!), daysCovered: 0,
                        daysInMonth: length - firstDay + 1)
                }
                covered[index, default: []].insert(parts.day!)
                months[index]!.freeDownloads += Double(period.freeDownloads) * share
                for (id, units) in period.inAppUnits { months[index]!.inAppUnits[id, default: 0] += Double(units) * share }
                for (id, units) in period.inAppRefunds { months[index]!.inAppRefunds[id, default: 0] += Double(units) * share }
                months[index]!.renewals += Double(period.renewals.values.reduce(0, +)) * share
                for (currency, amount) in period.proceeds { months[index]!.proceeds[currency, default: 0] += amount * share }
            }
        }
        for index in months.keys { months[index]!.daysCovered = covered[index]?.count ?? 0 }
        if !before.isEmpty {
            notes.append(
                "warning: \(before.count) reporting period\(before.count == 1 ? " ends" : "s end") before the switch (\(Timestamp.formatDate(switchDay))), so \(before.count == 1 ? "it is" : "they are") ignored (first: \(before[0]))"
            )
        }
        if !early.isEmpty {
            notes.append(
                "note: \(early.count) reporting period\(early.count == 1 ? " begins" : "s begin") before the switch (first: \(early[0])); counted from the switch's day on"
            )
        }
        if !long.isEmpty {
            notes.append(
                "note: \(long.count) reporting period\(long.count == 1 ? " spans" : "s span") more than a month (first: \(long[0])); spread evenly over \(long.count == 1 ? "its" : "their") days, so those months are averages"
            )
        }
        if paid > 0 { notes.append("note: \(paid) paid downloads after the switch are not compared (the forecast has none)") }
        return (months.values.sorted { $0.index < $1.index }, notes)
    }
}
