import Foundation

/// "simulating… 40%" or "generating… 3 of 14: TEST_MATRIX.md" on stderr, only on a terminal and only once
/// a run has taken a second. A timer redraws the last state every quarter second, so the line appears after
/// a second even while one long step (building a large catalog's test cases) reports nothing.
final class ProgressLine: @unchecked Sendable {
    private let output: TextOutput
    private let label: String
    private let start = DispatchTime.now().uptimeNanoseconds
    private let lock = NSLock()
    private var shown = false
    private var finished = false
    private var status = ""
    private var drawn = ""
    private var timer: DispatchSourceTimer?

    /// Nil when `output` is not a terminal: nothing is ever written then.
    init?(output: TextOutput, label: String) {
        guard output.isTerminal else { return nil }
        self.output = output
        self.label = label
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: 0.25)
        timer.setEventHandler { [weak self] in self?.redraw() }
        timer.resume()
        self.timer = timer
    }

    deinit { timer?.cancel() }

    /// A share of the work done, shown as a percentage.
    func update(_ fraction: Double) {
        update(status: "\(Int(fraction * 100))%")
    }

    /// What is being done now, such as "3 of 14: TEST_MATRIX.md".
    func update(status: String) {
        lock.lock()
        self.status = status
        lock.unlock()
        redraw()
    }

    private func redraw() {
        lock.lock()
        defer { lock.unlock() }
        guard !finished, DispatchTime.now().uptimeNanoseconds - start > 1_000_000_000 else { return }
        let line = "\(label)… \(status)"
        guard line != drawn else { return }
        drawn = line
        shown = true
        output.write("\(Style.carriageReturn)\(Style.escape)[K\(line)")
    }

    /// Clears the line, if it was shown; nothing is drawn after this.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        finished = true
        timer?.cancel()
        timer = nil
        if shown { output.write("\(Style.carriageReturn)\(Style.escape)[K") }
    }
}
