// FreemiumStoreKitTesting: the StoreKit layer's test double, which `migrate generate` vendors into an
// app's test target (never the app), or that the app's tests depend on as a library. Edit it in
// migrate's repository, never in an app's copy.

import Foundation

/// What a journey found wrong: every check that failed, each with its line in the journey's source
/// and what it saw.
public struct JourneyFailure: Error, Hashable, CustomStringConvertible {
  /// What the journey proves, in a few words.
  public var journey: String
  /// The checks that failed, in the order they ran.
  public var checks: [String]

  public init(journey: String, checks: [String]) {
    self.journey = journey
    self.checks = checks
  }

  public var description: String {
    "Journey \"\(journey)\" failed \(checks.count) check\(checks.count == 1 ? "" : "s"):\n"
      + checks.map { "  - \($0)" }.joined(separator: "\n")
  }
}

/// A journey's checks: each that fails is kept, and `finish()` throws them together; `require`
/// throws at once, with those so far, when the journey can't go on without a value. The journeys
/// need no test framework this way, so any test target links them.
struct JourneyChecks {
  let journey: String
  private(set) var failed: [String] = []

  init(_ journey: String) { self.journey = journey }

  /// Keeps `message` when `condition` is false, with where the journey checked it.
  mutating func expect(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    if !condition { failed.append("\(file):\(line): \(message())") }
  }

  /// `value`, or the failure with the checks so far and `message` when there is none.
  mutating func require<Value>(
    _ value: Value?, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
  ) throws -> Value {
    guard let value else { throw fail(message(), file: file, line: line) }
    return value
  }

  /// The failure to throw when the journey can't go on: the checks so far and this one.
  mutating func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line)
    -> JourneyFailure
  {
    failed.append("\(file):\(line): \(message)")
    return JourneyFailure(journey: journey, checks: failed)
  }

  /// Throws every check that failed, together; returns when none did.
  func finish() throws {
    if !failed.isEmpty { throw JourneyFailure(journey: journey, checks: failed) }
  }
}
