// FreemiumStoreKit: the StoreKit layer that `migrate generate` vendors into an app, or that an app
// depends on as a library. Edit it in migrate's repository, never in an app's copy.

import Foundation

/// The store's clock: the time now, and waiting until a moment. The app's is the device's
/// (`DeviceClock`); tests give the App Store model's, so a journey moves time on and what the store
/// scheduled (asking the App Store again, a provisional grant's end) happens then, without waiting.
public protocol StoreClock: Sendable {
  /// The time now on this clock.
  var now: Date { get }
  /// Returns once this clock reaches `deadline`; throws `CancellationError` when the task is
  /// cancelled first.
  func sleep(until deadline: Date) async throws
}

/// The device's clock.
public struct DeviceClock: StoreClock {
  public init() {}

  public var now: Date { Date() }

  public func sleep(until deadline: Date) async throws {
    let seconds = deadline.timeIntervalSinceNow
    guard seconds > 0 else { return try Task.checkCancellation() }
    try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
  }
}

/// A clock that reads the time from a function and waits in real time: for a store given a `now`
/// of its own.
struct FunctionClock: StoreClock {
  let read: @Sendable () -> Date

  var now: Date { read() }

  func sleep(until deadline: Date) async throws {
    let seconds = deadline.timeIntervalSince(read())
    guard seconds > 0 else { return try Task.checkCancellation() }
    try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
  }
}
