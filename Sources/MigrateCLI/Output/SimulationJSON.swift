import MigrateSimulation
import MigrateSupport

/// `simulate --format json`: the report as `SimulationRenderer.json()` writes it, member for member in the
/// order declared. Amounts carry two decimals, probabilities four, assumption values the text's figures.
struct SimulationJSON: Encodable {
    var app: String
    var horizonMonths: Int
    var scenarios: [Scenario]
    var sweep: Sweep?

    struct Scenario: Encodable {
        var id: String
        var name: String
        var commission: String
        /// The price conversion is quoted at: the paid app's.
        var referencePrice: JSONNumber
        /// How the forecast was set up (the season, a commission the plan leaves out), in words.
        var notes: [String]
        var cohorts: [Cohort]
        var assumptions: [Assumption]
        var months: [Month]
        var breakEvenMonth: JSONNullable<Int>
        var monteCarlo: MonteCarlo?
        var verdict: Verdict
        var sensitivity: [Sensitivity]
    }

    /// A cohort row: one ownership state, or many folded into one row (`ownsOneOf`).
    enum Cohort: Encodable {
        case single(Single)
        case folded(Folded)

        func encode(to encoder: Encoder) throws {
            switch self {
            case .single(let row): try row.encode(to: encoder)
            case .folded(let row): try row.encode(to: encoder)
            }
        }
    }

    struct Single: Encodable {
        var cohort: String
        var tier: String?
        var platform: String
        var owns: [String]
        var size: JSONNullable<JSONNumber>
        /// The size's P10, P50 and P90 over the draws, when it varies.
        var sizeBand: Spread?
        var entitlements: [String]
        var offers: [Offer]
        var withheld: [String]
        var reason: String
        var directSale: JSONValue?
    }

    struct Offer: Encodable {
        var product: String
        var price: String
        var regularPrice: String?
        var mechanism: JSONValue?
    }

    struct Folded: Encodable {
        var cohort: String
        var tier: String?
        var platform: String
        var ownsOneOf: OwnsOneOf
        var size: JSONNullable<JSONNumber>
        var entitlements: [String]
        var reason: String
    }

    struct OwnsOneOf: Encodable {
        var kind: String
        var products: [Choice]
    }

    struct Choice: Encodable {
        var product: String
        var size: JSONNullable<JSONNumber>
    }

    struct Assumption: Encodable {
        var name: String
        var value: String
        var source: String
    }

    struct Month: Encodable {
        var month: Int
        var stayPaid: JSONNumber
        var freemium: JSONNumber
        var cumulativePaid: JSONNumber
        var cumulativeFreemium: JSONNumber
    }

    struct MonteCarlo: Encodable {
        var draws: Int
        var seed: UInt64
        var probabilityFreemiumWins: JSONNumber
        var probabilityTie: JSONNumber
        var advantage: Spread
        var breakEvenMonth: MonthSpread
        /// Draws breaking even in each month, then the draws that don't within the horizon: the JSON's one list.
        var breakEvenCounts: [Int]
        var cumulativePaid: [Spread]
        var cumulativeFreemium: [Spread]
        var monthlyFreemium: [Spread]
        var monthlyPaid: [Spread]
    }

    /// The 10th, 50th and 90th percentiles of an amount.
    struct Spread: Encodable {
        var p10: JSONNumber
        var p50: JSONNumber
        var p90: JSONNumber
    }

    /// The 10th, 50th and 90th percentiles of a break-even month; null where it doesn't break even.
    struct MonthSpread: Encodable {
        var p10: JSONNullable<Int>
        var p50: JSONNullable<Int>
        var p90: JSONNullable<Int>
    }

    struct Verdict: Encodable {
        var comparable: Bool
        var cannotCompare: String?
        var uncertaintyModelled: Bool
        var probabilityFreemiumAhead: JSONNumber?
        var probabilityTie: JSONNumber?
        var medianDifference: JSONNumber
        var breakEvenMonth: JSONNullable<Int>
        var text: String
        var aheadAtMedian: Bool
        var whatWouldHaveToBeTrue: [Threshold]
        /// The assumptions searched for a lever.
        var searched: [String]
        /// How the calibration set's outcomes fell against the forecast's ranges.
        var calibration: Calibration
    }

    /// A lever: freemium is level at `value`, ahead at or above it (`atLeast`) or at or below it (`atMost`); with
    /// `aheadNow` it says what would make freemium fall behind.
    struct Threshold: Encodable {
        var assumption: String
        var direction: String
        var value: JSONNumber
        var aheadNow: Bool
        var now: String
        /// The plausible range searched, low and high.
        var plausible: [JSONNumber]
        var text: String
    }

    struct Calibration: Encodable {
        var cases: Int
        var figures: Int
        var inside: Int
        var verdicts: Int
        var verdictsRight: Int
    }

    struct Sensitivity: Encodable {
        var assumption: String
        var low: JSONNumber
        var high: JSONNumber
        var advantageAtLow: JSONNumber
        var advantageAtHigh: JSONNumber
    }

    struct Sweep: Encodable {
        var scenario: String
        var points: [SweepPoint]
    }

    /// A point of a sweep: the swept assumptions' values (keyed by their names), then the totals.
    struct SweepPoint: Encodable {
        var settings: [(name: String, value: JSONNumber)]
        var cumulativeFreemium: JSONNumber
        var cumulativePaid: JSONNumber
        var breakEvenMonth: JSONNullable<Int>

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            for (name, value) in settings { try container.encode(value, forKey: JSONKey(name)) }
            try container.encode(cumulativeFreemium, forKey: JSONKey("cumulativeFreemium"))
            try container.encode(cumulativePaid, forKey: JSONKey("cumulativePaid"))
            try container.encode(breakEvenMonth, forKey: JSONKey("breakEvenMonth"))
        }
    }
}
