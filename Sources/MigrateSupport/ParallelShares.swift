import Dispatch
import Foundation

/// Work split into shares that run at once, one thread each. Every share has a state of its own (a cache, a
/// table) that only it touches, and returns its own result; the results come back in the shares' order.
public enum ParallelShares {
    /// Runs `body` for every share at once, share `n` with `states[n]`, and returns the shares' results in
    /// order. `states` then holds each state as its share left it.
    public static func run<State: Sendable, Result: Sendable>(
        _ states: inout [State], _ body: @Sendable (_ share: Int, _ state: inout State) -> Result
    ) -> [Result] {
        guard states.count > 1 else { return states.indices.map { body($0, &states[$0]) } }
        let slots = Slots<State, Result>(states)
        // The slots hold the only copies, so a share changes its state in place instead of copying it.
        states.removeAll()
        DispatchQueue.concurrentPerform(iterations: slots.count) { share in
            var state = slots.take(share)
            let result = body(share, &state)
            slots.put(share, state: state, result: result)
        }
        let finished = slots.finish()
        states = finished.states
        return finished.results
    }

    /// The range of `count` items that share `share` of `shares` takes: consecutive, as even as can be.
    public static func range(ofShare share: Int, of shares: Int, count: Int) -> Range<Int> {
        (count * share / shares)..<(count * (share + 1) / shares)
    }
}

/// Each share's state and result behind a lock: a share takes its state out, works with the lock released,
/// then puts the state back with its result. Every stored property is read and written only under the lock.
private final class Slots<State: Sendable, Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [State?]
    private var results: [Result?]
    let count: Int

    init(_ states: [State]) {
        self.states = states
        results = Array(repeating: nil, count: states.count)
        count = states.count
    }

    func take(_ share: Int) -> State {
        lock.lock()
        defer { lock.unlock() }
        let state = states[share]!
        states[share] = nil
        return state
    }

    func put(_ share: Int, state: State, result: Result) {
        lock.lock()
        defer { lock.unlock() }
        states[share] = state
        results[share] = result
    }

    func finish() -> (states: [State], results: [Result]) {
        lock.lock()
        defer { lock.unlock() }
        return (states.map { $0! }, results.map { $0! })
    }
}
