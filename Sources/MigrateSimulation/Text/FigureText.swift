import Foundation
import MigratePlan

/// Numbers as `simulate` and the report write them, in one place: the same rounding as `simulate`'s text, so a figure in
/// the report reads exactly as `simulate`, `explain --batch` and `simulate --actuals` print it. Amounts and counts follow
/// `style`: `simulate`'s en-US grouping with no currency symbol (amounts "in the plan's currency") unless a caller, such as
/// `report --locale --currency`, renders within `$style.withValue(…)`.
public enum FigureText {
    /// The reader's locale and currency for amounts and counts written within `$style.withValue(…)`; `simulate`'s by default.
    @TaskLocal public static var style = FigureStyle.plain

    /// 12,345 whole units, "−" before a negative amount; "—" for infinity or NaN. With a currency: $12,345, 12.345 €.
    public static func money(_ value: Double) -> String { style.amount(value, fraction: 0) }

    /// A price to its currency's minor digits ($2.99, 2,99 €, ¥300); without a currency, to two decimals as the plan writes
    /// prices (24.99, 5.00).
    public static func price(_ value: Double) -> String { style.amount(value, fraction: style.currency?.minorDigits ?? 2) }

    /// 12,345 people: an estimated count, to whole units with the locale's grouping and never a currency symbol.
    public static func people(_ value: Double) -> String { FigureStyle(locale: style.locale, currency: nil).amount(value, fraction: 0) }

    /// 1,234: a count of people or rows.
    public static func count(_ value: Int) -> String { style.grouped(Substring(String(abs(value)))) }

    /// 3, 0.99, 12.5: at most four decimals, trailing zeros dropped (on a page, grouped and with the locale's decimal sign).
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "—" }
        if value == value.rounded() && abs(value) < 1e15 { return style.localized(String(Int64(value))) }
        var text = String(format: abs(value) >= 10 ? "%.1f" : abs(value) >= 1 ? "%.2f" : "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return style.localized(text)
    }

    /// 6.5%; "<0.1%" and ">99.9%" rather than a 0.0% or 100.0% that isn't so (on a page, `6,5 %` as the locale writes it).
    public static func percent(_ value: Double) -> String {
        if value > 0 && value < 0.0005 { return "<" + percentText("0.1") }
        if value < 1 && value >= 0.9995 { return ">" + percentText("99.9") }
        return percentText(String(format: "%.1f", value * 100))
    }

    /// A percentage's digits (`6.5`) with the sign, as the page's locale writes them.
    static func percentText(_ digits: String) -> String {
        style.localizesEverything ? style.localized(digits) + style.locale.percentSign : digits + "%"
    }

    /// A calendar date (UTC): `2011-11-01` as `simulate` writes it; on a page, as the locale writes it (`01.11.2011`).
    public static func date(_ date: Date) -> String {
        let iso = Timestamp.formatDate(date)
        guard style.localizesEverything else { return iso }
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return iso }
        return style.locale.date(year: parts[0], month: parts[1], day: parts[2])
    }

    /// 1.5k, 20k, 1.2M for a chart's axis: `RevenueChart.compact`, with the page's decimal sign.
    public static func compact(_ value: Double) -> String {
        let text = RevenueChart.compact(value)
        guard style.localizesEverything else { return text }
        return text.replacingOccurrences(of: ".", with: style.locale.decimal)
    }

    /// "month 7", or "not within the horizon".
    public static func breakEven(_ month: Int?) -> String { month.map { "month \($0)" } ?? "not within the horizon" }

    /// An assumption's value in its own units: 3.8% for a share, −1.2%/month for a trend (−1.2% without `perMonth`,
    /// where the sentence says "a month" itself).
    public static func assumptionValue(_ value: Double, _ assumption: SimulationAssumption, perMonth: Bool = true) -> String {
        switch assumption.bound {
        case .probability: return percentText(String(format: value < 0.1 ? "%.1f" : "%.0f", value * 100))
        case .change: return (value < 0 ? "−" : "+") + percentText(String(format: "%.1f", abs(value) * 100)) + (perMonth ? "/month" : "")
        case .nonNegative, .positive: return number(value >= 10 ? value.rounded() : value)
        }
    }

    /// What an assumption is now, P10 to P90 (or its single value).
    public static func now(_ distribution: Distribution, _ assumption: SimulationAssumption) -> String {
        if case .point(let value) = distribution { return assumptionValue(value, assumption) }
        // The unit once, after the high end: −4.0% to +1.0%/month.
        let low = assumptionValue(distribution.quantile(0.1), assumption, perMonth: false)
        let high = assumptionValue(distribution.quantile(0.9), assumption)
        return low + " to " + high
    }

    /// A distribution as `simulate` writes it in its assumptions table: "triangular 2.21 / 3 / 3.78".
    public static func describe(_ distribution: Distribution) -> String {
        switch distribution {
        case .point(let value): number(value)
        case .uniform(let low, let high): "uniform \(number(low))–\(number(high))"
        case .triangular(let low, let mode, let high): "triangular \(number(low)) / \(number(mode)) / \(number(high))"
        case .logNormal(let low, let high): "log-normal, P10 \(number(low)), P90 \(number(high))"
        }
    }

    /// The same distribution in words a reader who has never seen one follows.
    public static func inWords(_ distribution: Distribution, _ assumption: SimulationAssumption) -> String {
        func value(_ number: Double) -> String { assumptionValue(number, assumption) }
        switch distribution {
        case .point(let number):
            return "Taken as exactly \(value(number)): no uncertainty is modelled for it."
        case .uniform(let low, let high):
            return "Anywhere from \(value(low)) to \(value(high)), every value in between as likely as any other."
        case .triangular(let low, let mode, let high):
            return "Most likely \(value(mode)), never below \(value(low)) nor above \(value(high)); the further from "
                + "\(value(mode)), the less likely (a triangular range)."
        case .logNormal(let low, let high):
            return "Usually between \(value(low)) and \(value(high)) (one draw in ten falls below the first, one in ten above "
                + "the second), with a long tail of higher values (log-normal)."
        }
    }
}
