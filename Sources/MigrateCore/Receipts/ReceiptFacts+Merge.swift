extension ReceiptFacts {
    /// One customer's responses together: the app's purchase from the one that describes it, every product.
    public func merged(with second: ReceiptFacts) -> ReceiptFacts {
        let first = self
        var merged = first.source.describesAppPurchase || !second.source.describesAppPurchase ? first : second
        let other = merged == first ? second : first
        merged.environment = merged.environment ?? other.environment
        merged.bundleID = merged.bundleID ?? other.bundleID
        var purchases = merged.purchases
        for purchase in other.purchases where !purchases.contains(where: { $0.productID == purchase.productID }) { purchases.append(purchase) }
        merged.purchases = purchases.sorted { $0.productID < $1.productID }
        merged.unverifiedSignatures = first.unverifiedSignatures + second.unverifiedSignatures
        // Complete once any page says there is no more; incomplete while every page given says there is.
        switch (first.historyHasMore, second.historyHasMore) {
        case (false?, _), (_, false?): merged.historyHasMore = false
        case (true?, _), (_, true?): merged.historyHasMore = true
        default: merged.historyHasMore = nil
        }
        return merged
    }
}
