import Foundation
import MigratePlan

/// Reads the customers of a folder of App Store Server API responses (or compact JWS files): one customer per
/// file, or per subfolder of files that together describe one customer.
public struct BatchResponseFolder: Sendable {
    public let plan: MigrationPlan
    /// The moment subscriptions and trials are judged at.
    public let now: Date

    /// One entry of the folder: its customer, or why it has none.
    public struct Entry: Sendable {
        public enum Outcome: Sendable {
            /// The customer, with what the responses leave in doubt (an incomplete history).
            case customer(Customer, doubts: [BatchRowWarning])
            case problem(String)
        }

        public var outcome: Outcome
        /// Files read whose JWS signatures were decoded without being verified.
        public var unverifiedFiles: Int
    }

    public init(plan: MigrationPlan, now: Date) {
        self.plan = plan
        self.now = now
    }

    /// The customer that `files` (each with the name messages show and its path) describe together; the
    /// first file that can't be read, or belongs to another app, stands for the entry.
    public func customer(named name: String, files: [(shown: String, path: String)]) -> Entry {
        var facts: ReceiptFacts?
        var problem: String?
        var unverified = 0
        for (shown, file) in files {
            var read = Self.readResponse(file, now: now)
            // Another app's response is refused, as `explain --receipt` refuses it.
            if case .success(let facts) = read, let doubt = facts.doubts(forBundleID: plan.app.bundleID).first(where: \.refuses) {
                read = .failure(doubt.message)
            }
            switch read {
            case .failure(let message):
                problem = problem ?? (shown == name ? message : "\(shown): \(message)")
            case .success(let read):
                unverified += read.unverifiedSignatures > 0 ? 1 : 0
                facts = facts.map { $0.merged(with: read) } ?? read
            }
        }
        if let problem { return Entry(outcome: .problem(problem), unverifiedFiles: unverified) }
        guard let facts else {
            return Entry(
                outcome: .problem("an empty folder: expected App Store Server API responses or compact JWS files"), unverifiedFiles: unverified)
        }
        let doubts: [BatchRowWarning] = facts.doubts(forBundleID: plan.app.bundleID).contains(.incompleteHistory) ? [.incompleteHistory] : []
        return Entry(outcome: .customer(customer(from: facts), doubts: doubts), unverifiedFiles: unverified)
    }

    /// The customer `explain --receipt` would describe from `facts`, on the platform they name when the app runs there.
    public func customer(from facts: ReceiptFacts) -> Customer {
        var customer = Customer(platform: plan.app.platforms.first ?? .iOS)
        customer.now = now
        customer.take(facts)
        if let original = customer.originalPlatform, plan.app.platforms.contains(original) { customer.platform = original }
        return customer
    }

    enum ResponseRead {
        case success(ReceiptFacts)
        case failure(String)
    }

    static func readResponse(_ path: String, now: Date) -> ResponseRead {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure("not a regular file") }
        guard Int(info.st_size) <= Limits.customerResponseBytes else {
            return .failure("\(info.st_size) bytes, more than the \(Limits.customerResponseBytes) a response may have")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure("cannot be read") }
        do {
            let read = try ReceiptReader.read(bytes: Array(data), now: now)
            if let error = read.diagnostics.first(where: { $0.severity == .error }) {
                let place = error.path.flatMap { $0 == .root ? nil : "\($0): " } ?? ""
                return .failure(place + error.message)
            }
            guard let facts = read.facts else { return .failure("not a response migrate can read") }
            return .success(facts)
        } catch {
            return .failure(error.message)
        }
    }
}
