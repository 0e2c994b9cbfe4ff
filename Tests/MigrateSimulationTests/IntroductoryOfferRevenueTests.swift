import Foundation
import MigratePlan
import MigrateSimulation
import Testing

/// 100 subscribers join in month 1 and no one after (`RevenueModelTests.oneMonthOfSubscribers`); each table row
/// gives the subscription an introductory offer and the proceeds expected month by month, worked out on paper.
@Suite("Introductory offers move when, and at what price, subscribers pay", .timeLimit(.minutes(20)))
struct IntroductoryOfferRevenueTests {
    static func plan(period: String = "P1M", price: String = "10", offer: String?, churn: String = "0") -> String {
        let introductory = offer.map { #", "introductoryOffer": \#($0)"# } ?? ""
        return handPlan(
            assumptions: RevenueModelTests.oneMonthOfSubscribers.replacingOccurrences(of: "CHURN", with: churn), horizon: 14,
            products: """
                [ { "id": "com.example.demo.sub", "type": "autoRenewable", "price": "\(price)", "grants": ["pro", "extra"],
                    "subscription": { "group": "main", "period": "\(period)"\(introductory) } } ]
                """)
    }

    /// 100 subscribers × 10 a month: 700 after Apple's 30%, 850 after its 15% once a subscriber has paid for a year.
    static let first = 700.0
    static let later = 850.0
    static let week = 7 / 30.436875

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var offer: String?
        var period = "P1M"
        var price = "10"
        var churn = "0"
        /// Proceeds in months 1 to 14.
        var expected: [Double]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no offer: charged from month 1", offer: nil, expected: Array(repeating: first, count: 12) + [later, later]),
        Case(
            name: "a 1-month free trial: the first charge a month later, and the first paid year with it",
            offer: #"{ "paymentMode": "freeTrial", "period": "P1M" }"#, expected: [0] + Array(repeating: first, count: 12) + [later]),
        Case(
            name: "a 1-week free trial: a week's share of the first charges falls in month 2",
            offer: #"{ "paymentMode": "freeTrial", "period": "P1W" }"#,
            expected: [first * (1 - week)] + Array(repeating: first, count: 11) + [later * (1 - week) + first * week, later]),
        Case(
            name: "3 months paid up front at 5: 5 once, nothing until the regular price in month 4",
            offer: #"{ "paymentMode": "payUpFront", "period": "P3M", "price": "5" }"#,
            expected: [350, 0, 0] + Array(repeating: first, count: 9) + [later, later]),
        Case(
            name: "pay as you go, 3 months at 2.50: the offer's price, then the regular one; the paid year counts from month 1",
            offer: #"{ "paymentMode": "payAsYouGo", "period": "P1M", "periods": 3, "price": "2.5" }"#,
            expected: [175, 175, 175] + Array(repeating: first, count: 9) + [later, later]),
        Case(
            name: "a yearly plan after a 1-month free trial: its renewal in month 14, at 15%",
            offer: #"{ "paymentMode": "freeTrial", "period": "P1M" }"#, period: "P1Y", price: "120",
            expected: [0, 8400] + Array(repeating: 0, count: 11) + [100 * 120 * 0.85]),
        Case(
            name: "churn counts from the first payment: a trial loses no one before it",
            offer: #"{ "paymentMode": "freeTrial", "period": "P1M" }"#, churn: "0.5",
            expected: [0, first, first / 2, first / 4] + (4..<13).map { first * pow(0.5, Double($0 - 1)) } + [later * pow(0.5, 12)]),
    ]

    @Test("Month by month", arguments: cases)
    func monthByMonth(_ row: Case) throws {
        let series = try deterministic(Self.plan(period: row.period, price: row.price, offer: row.offer, churn: row.churn))
        #expect(series.freemium.count == row.expected.count)
        for (month, expected) in row.expected.enumerated() where month < series.freemium.count {
            #expect(close(series.freemium[month], expected), "month \(month + 1): \(series.freemium[month]) ≠ \(expected)")
        }
    }

    @Test("Conversion stays the plan's: over a long enough horizon a free trial moves revenue later, not away")
    func trialMovesRevenue() throws {
        let without = try deterministic(Self.plan(offer: nil))
        let trial = try deterministic(Self.plan(offer: #"{ "paymentMode": "freeTrial", "period": "P1M" }"#))
        #expect(trial.freemium != without.freemium)
        #expect(close(Array(trial.freemium.dropFirst()).reduce(0, +) - without.freemium.dropLast().reduce(0, +), 0, tolerance: 1e-9))
    }
}
