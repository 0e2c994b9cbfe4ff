import Foundation
import MigratePlan
import MigrateSupport

/// The answer to "which in-app purchase will unlock the paid features?": `PRODUCT-ID [KIND] PRICE`.
///
/// KIND is `non-consumable` (the default), `non-renewing` with how long one purchase lasts (`non-renewing
/// yearly`, `non-renewing P3M`), or an auto-renewable subscription's period:
/// `weekly`, `monthly`, `yearly` or an ISO 8601 period the plan allows (`P1W` … `P1Y`), optionally after
/// `subscription`. A consumable is refused: it is used up, so it can't unlock anything for good.
enum ProductAnswer {
    /// Words that name a subscription period, and the period.
    static let periodWords: [String: String] = ["weekly": "P1W", "monthly": "P1M", "quarterly": "P3M", "yearly": "P1Y"]
    static let kindWords = ["non-consumable", "non-renewing", "subscription"] + periodWords.keys.sorted()

    static let format = "PRODUCT-ID [KIND] PRICE, such as com.example.app.pro 4.99 or com.example.app.pro.yearly yearly 9.99"

    /// The product, or why the answer is not one. `group` names a subscription's group (the app's name).
    static func parse(_ input: String, group: String) -> Result<Product, Message> {
        let words = input.split(separator: " ").map(String.init)
        guard words.count >= 2, words.count <= 4 else { return .failure(Message("answer \(format)")) }
        let id = words[0]
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-"))
        guard id.contains("."), id.unicodeScalars.allSatisfy(allowed.contains), !id.hasPrefix("."), !id.hasSuffix(".") else {
            return .failure(Message("'\(id)' is not a product id: use reverse-DNS letters, digits, '.', '_' and '-', such as com.example.app.pro"))
        }
        guard let price = try? Price(words[words.count - 1]), !price.isZero else {
            return .failure(Message("'\(words[words.count - 1])' is not a price above 0, such as 4.99; answer \(format)"))
        }
        var rest = words.dropFirst().dropLast().map { $0.lowercased() }
        let name = "Pro"
        if rest.first == "non-renewing" || rest.first == "nonrenewing" {
            // StoreKit never ends a non-renewing subscription: the plan must say how long one lasts.
            guard rest.count == 2 else {
                return .failure(
                    Message(
                        "a non-renewing subscription needs how long one purchase lasts, such as \(id) non-renewing yearly \(price) (or P3M, P10Y, lifetime…)"
                    ))
            }
            switch DurationQuestion.parse(rest[1]) {
            case .failure(let message): return .failure(Message("\(id): \(message.text)"))
            case .success(let duration): return .success(Product(id: id, name: name, kind: .nonRenewing, price: price, duration: duration))
            }
        }
        let subscription = rest.first == "subscription" || rest.first == "auto-renewable"
        if subscription { rest.removeFirst() }
        let periods = "weekly, monthly, quarterly, yearly or " + PlanKeys.subscriptionPeriods.joined(separator: ", ")
        guard rest.count <= 1 else { return .failure(Message("answer \(format)")) }
        guard let word = rest.first else {
            if subscription { return .failure(Message("a subscription needs its period: \(periods)")) }
            return .success(Product(id: id, name: name, kind: .nonConsumable, price: price))
        }
        if let period = periodWords[word] ?? PlanKeys.subscriptionPeriods.first(where: { $0.lowercased() == word }) {
            return .success(
                Product(
                    id: id, name: name, kind: .autoRenewable, price: price, subscription: SubscriptionInfo(group: group, level: 1, period: period)))
        }
        if subscription { return .failure(Message("'\(word)' is not a subscription period; use \(periods)")) }
        switch word {
        case "non-consumable", "nonconsumable": return .success(Product(id: id, name: name, kind: .nonConsumable, price: price))
        case "consumable":
            return .failure(
                Message("a consumable is used up, so it can't unlock features for good; answer non-consumable, non-renewing or a subscription period")
            )
        default:
            return .failure(Message("'\(word)' is not a kind of product." + Suggestions.didYouMean(word, in: kindWords) + " Answer \(format)"))
        }
    }

    /// The answer that gives `product` back, for defaults and saved answers.
    static func text(_ product: Product) -> String {
        switch product.kind {
        case .nonConsumable: "\(product.id) \(product.price)"
        case .nonRenewing: "\(product.id) non-renewing \(product.duration?.description ?? "P1Y") \(product.price)"
        case .consumable: "\(product.id) consumable \(product.price)"
        case .autoRenewable:
            "\(product.id) \(periodWords.first { $0.value == product.subscription?.period }?.key ?? product.subscription?.period ?? "P1M") \(product.price)"
        }
    }

    /// A refusal's text, as an error so it fits `Result`.
    struct Message: Error, Hashable {
        var text: String
        init(_ text: String) { self.text = text }
    }
}
