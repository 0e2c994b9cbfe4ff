import Foundation
import MigrateCore
import MigratePlan
import MigrateTestSupport
import Testing

func date(_ text: String) -> Date {
    guard let date = Timestamp.parse(text) else { fatalError("bad test date \(text)") }
    return date
}

func release(_ version: String, build: String?, _ released: String, paid price: String? = nil, includes: [String]? = nil) -> Release {
    release(.iOS, version, build: build, released, paid: price, includes: includes)
}

func release(
    _ platform: Platform, _ version: String, build: String?, _ released: String, paid price: String? = nil,
    includes: [String]? = nil
) -> Release {
    Release(
        platform: platform, version: try! Version(version), build: build.map { try! Version($0) }, released: date(released),
        model: price.map { .paid(try! Price($0)) } ?? .free, includes: includes)
}

func product(
    _ id: String, _ price: String, grants: [String] = [], contains: [String] = [], requires: [String] = [], forSale: Bool = true,
    kind: Product.Kind = .nonConsumable
) -> Product {
    Product(
        id: id, name: id, kind: kind, price: try! Price(price), grants: grants, contains: contains, requires: requires, forSale: forSale,
        familyShareable: true,
        subscription: kind == .autoRenewable ? SubscriptionInfo(group: "g", level: 1, period: "P1M") : nil)
}

func features(_ ids: String...) -> [Feature] {
    ids.map { Feature(id: $0, name: $0.capitalized) }
}

extension Advisor {
    func cohort(_ customer: Customer) -> Cohort { report(for: customer).decision.cohort }
}
