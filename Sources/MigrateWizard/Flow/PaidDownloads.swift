import Foundation
import MigratePlan

/// The answer to "how many paid downloads a month": a guess of one number, or a range. Either way the plan gets
/// a range, never a point: with no sales history long enough to measure it, the rate is a guess.
public struct PaidDownloads: Sendable, Hashable {
    public var low: Int
    /// The most likely rate: the number typed, or the middle of a typed range.
    public var likely: Int
    public var high: Int
    /// Typed as a range: every value in it is as likely (uniform); a single number is most likely itself.
    public var isRange: Bool

    /// A single number: 60% to 140% of it, most likely itself (judgement: a guess is rarely closer than that).
    public init(guess: Int) {
        self.init(low: Int((Double(guess) * 0.6).rounded()), likely: guess, high: Int((Double(guess) * 1.4).rounded()), isRange: false)
    }

    /// `LOW-HIGH`, as typed.
    public init(low: Int, high: Int) {
        self.init(low: low, likely: (low + high) / 2, high: high, isRange: true)
    }

    init(low: Int, likely: Int, high: Int, isRange: Bool) {
        self.low = low
        self.likely = likely
        self.high = high
        self.isRange = isRange
    }

    /// `250` or a range such as `150-350` (also `150–350` or `150 to 350`); nil for anything else, or a range
    /// whose ends are reversed.
    public static func parse(_ text: String) -> PaidDownloads? {
        let compact = text.replacingOccurrences(of: " to ", with: "-").replacingOccurrences(of: "–", with: "-").replacingOccurrences(
            of: " ", with: "")
        let parts = compact.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let guess = Int(parts[0]), guess >= 0 else { return nil }
            return PaidDownloads(guess: guess)
        case 2:
            guard let low = Int(parts[0]), let high = Int(parts[1]), low >= 0, low <= high else { return nil }
            return low == high ? PaidDownloads(low: low, likely: low, high: high, isRange: true) : PaidDownloads(low: low, high: high)
        default:
            return nil
        }
    }

    /// What `simulation.assumptions.paidDownloadsPerMonth` holds.
    public var distribution: Distribution {
        if low == high { return .point(Double(low)) }
        return isRange ? .uniform(low: Double(low), high: Double(high)) : .triangular(low: Double(low), mode: Double(likely), high: Double(high))
    }

    /// As the answer would be typed again: `250`, or `150-350`.
    public var text: String { isRange ? "\(low)-\(high)" : String(likely) }

    /// In words, for the summary and the answer's consequence.
    public var description: String {
        isRange ? "\(low)–\(high) paid downloads a month, each as likely" : "about \(likely) paid downloads a month (a range: \(low)–\(high))"
    }
}
