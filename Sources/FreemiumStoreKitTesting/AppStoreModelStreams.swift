// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation
import FreemiumStoreKit

/// `Transaction.updates` and `PurchaseIntent.intents` of `AppStoreModel`: each listener gets its own
/// stream, from the moment it asks, with everything the model sends after that, in order.
extension AppStoreModel {
  public func transactionUpdates() -> AsyncStream<StoreTransaction> {
    updates.listen()
  }

  public func purchaseIntents() -> AsyncStream<StorePurchaseIntent> {
    intents.listen()
  }
}

/// One of the model's streams (`Transaction.updates`, `PurchaseIntent.intents`): what it sent each
/// listener, in order, and what each listener has handled. A listener has handled what it took once
/// it asks for the next element, as a `for await` loop does when its body returns; so a test can
/// wait until everything sent so far is handled (`AppStoreModel.settle(within:)`), without sleeping.
/// Each listener's elements wait for it, unbounded, as StoreKit's do.
final class ModelStream<Element: Sendable>: @unchecked Sendable {
  private struct Listener {
    /// Sent, not taken yet.
    var queue: [Element] = []
    /// The listener, waiting for the next element.
    var taker: CheckedContinuation<Element?, Never>?
    /// The listener took an element and hasn't asked for the next one: it is handling it.
    var isHandling = false

    var isIdle: Bool { queue.isEmpty && !isHandling }
  }

  /// Removes its listener when the stream goes away, however it ends.
  private final class Lease: Sendable {
    let end: @Sendable () -> Void
    init(end: @escaping @Sendable () -> Void) { self.end = end }
    deinit { end() }
  }

  private let lock = NSLock()
  private var listeners: [Int: Listener] = [:]
  private var nextListener = 0
  /// Tasks waiting until every listener has handled what it was sent, by id.
  private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextWaiter = 0

  /// A new listener's stream: what is sent from now on.
  func listen() -> AsyncStream<Element> {
    let id = lock.withLock {
      defer { nextListener += 1 }
      listeners[nextListener] = Listener()
      return nextListener
    }
    let lease = Lease { [weak self] in self?.remove(id) }
    return AsyncStream(
      unfolding: { [weak self] in
        withExtendedLifetime(lease) {}
        return await self?.take(for: id)
      },
      onCancel: { [weak self] in self?.remove(id) })
  }

  /// Sends `element` to every listener.
  func send(_ element: Element) {
    let takers: [CheckedContinuation<Element?, Never>] = lock.withLock {
      var takers: [CheckedContinuation<Element?, Never>] = []
      for id in listeners.keys.sorted() {
        if let taker = listeners[id]?.taker {
          listeners[id]?.taker = nil
          listeners[id]?.isHandling = true
          takers.append(taker)
        } else {
          listeners[id]?.queue.append(element)
        }
      }
      return takers
    }
    for taker in takers { taker.resume(returning: element) }
  }

  /// Whether every listener has handled all it was sent.
  var isIdle: Bool { lock.withLock { listeners.values.allSatisfy(\.isIdle) } }

  /// How many elements sent are not handled yet, over every listener.
  var unhandled: Int {
    lock.withLock { listeners.values.reduce(0) { $0 + $1.queue.count + ($1.isHandling ? 1 : 0) } }
  }

  /// Returns once every listener has handled all it was sent, or once the task is cancelled.
  func untilIdle() async {
    let id = lock.withLock {
      nextWaiter += 1
      return nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
        let done = lock.withLock {
          if Task.isCancelled || listeners.values.allSatisfy(\.isIdle) { return true }
          waiters[id] = waiter
          return false
        }
        if done { waiter.resume() }
      }
    } onCancel: {
      lock.withLock { waiters.removeValue(forKey: id) }?.resume()
    }
  }

  /// The listener asks for its next element: it has handled the one before.
  private func take(for id: Int) async -> Element? {
    await withCheckedContinuation { (taker: CheckedContinuation<Element?, Never>) in
      var taken: Element?? = .none
      let woken: [CheckedContinuation<Void, Never>] = lock.withLock {
        guard var listener = listeners[id] else {
          taken = .some(nil)
          return []
        }
        if listener.queue.isEmpty {
          listener.isHandling = false
          listener.taker = taker
        } else {
          taken = .some(listener.queue.removeFirst())
          listener.isHandling = true
        }
        listeners[id] = listener
        return wakeIfIdle()
      }
      for waiter in woken { waiter.resume() }
      if let taken { taker.resume(returning: taken) }
    }
  }

  /// The listener stopped (cancelled, or its stream went away): nothing more is sent to it.
  private func remove(_ id: Int) {
    let (taker, woken) = lock.withLock {
      let taker = listeners.removeValue(forKey: id)?.taker
      return (taker, wakeIfIdle())
    }
    taker?.resume(returning: nil)
    for waiter in woken { waiter.resume() }
  }

  /// The waiters to wake, when every listener is idle; call holding the lock.
  private func wakeIfIdle() -> [CheckedContinuation<Void, Never>] {
    guard listeners.values.allSatisfy(\.isIdle) else { return [] }
    defer { waiters = [:] }
    return waiters.sorted { $0.key < $1.key }.map(\.value)
  }
}
