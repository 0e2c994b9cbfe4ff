// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// Consumables: delivered through the app's hook at most once per transaction, finished only then.
extension PlanStore {
  /// Delivers the consumables the App Store still holds unfinished (`Transaction.unfinished`):
  /// bought before `deliverConsumable` was set, or when it returned false. `refresh()` calls it,
  /// and so does setting `deliverConsumable`. Never prompts.
  public func deliverUnfinishedConsumables() async {
    guard deliverConsumable != nil, !Plan.consumables.isEmpty else { return }
    for transaction in await storeFront.unfinishedTransactions() {
      guard let product = Plan.Product(rawValue: transaction.productID),
        Plan.consumables.contains(product)
      else { continue }
      await deliver(transaction, as: product)
    }
  }

  func handleUpdate(_ transaction: StoreTransaction) async {
    // A product this build doesn't know (added after it shipped) is never finished here: it may
    // be a consumable nobody delivered, and the App Store sends it again to a build that knows it.
    guard let product = Plan.Product(rawValue: transaction.productID) else { return }
    guard Plan.consumables.contains(product) else {
      await read(appTransaction: nil, including: nil)
      // Finish only what verified and is now unlocked; an unverified one comes back.
      if transaction.isVerified { await transaction.finish() }
      return
    }
    await deliver(transaction, as: product)
  }

  /// Delivers one verified consumable through `deliverConsumable` at most once per transaction id,
  /// and finishes it only once the app says it was delivered; otherwise it stays unfinished and
  /// comes back. True when it is delivered, now or before.
  @discardableResult
  func deliver(_ transaction: StoreTransaction, as product: Plan.Product) async -> Bool {
    guard transaction.isVerified else { return false }
    if let running = deliveries[transaction.id] { return await running.value }
    let delivery = Task { @MainActor [weak self] in
      await self?.deliverOnce(transaction, as: product) ?? false
    }
    deliveries[transaction.id] = delivery
    let delivered = await delivery.value
    deliveries[transaction.id] = nil
    return delivered
  }

  func deliverOnce(_ transaction: StoreTransaction, as product: Plan.Product) async -> Bool {
    // Delivered before (a relaunch, or the App Store sending it again before it was finished):
    // finish it without crediting again.
    if !delivered.contains(transaction.id) {
      let delivery = ConsumableDelivery(product: product, transactionID: transaction.id)
      guard let deliver = deliverConsumable, await deliver(delivery) else { return false }
      delivered.insert(transaction.id)
      if let data = delivered.encoded() { cache.saveDelivered(data) }
    }
    await transaction.finish()
    return true
  }
}
