import Foundation
import MigratePlan
import MigrateSupport

/// A real switch whose numbers before and after were published: a plan holding only what its developer knew
/// before the switch, and the outcomes that followed, each with its source and the words it says it in.
public struct CalibrationCase: Sendable {
    public var id: String
    public var app: String
    public var plan: MigrationPlan
    public var outcomes: [CalibrationOutcome]
    /// Whether freemium ended ahead of staying paid, where a source says so.
    public var verdict: PublishedVerdict?
    /// What the case is, in a sentence, with what it leaves out.
    public var summary: String

    public init(id: String, app: String, plan: MigrationPlan, outcomes: [CalibrationOutcome], verdict: PublishedVerdict?, summary: String) {
        self.id = id
        self.app = app
        self.plan = plan
        self.outcomes = outcomes
        self.verdict = verdict
        self.summary = summary
    }
}

/// A published figure from after a switch, and the forecast's figure it is held against.
public struct CalibrationOutcome: Sendable, Hashable {
    /// What the figure counts, over months 1 to `months` after the switch.
    public enum Figure: String, Sendable, Hashable, CaseIterable {
        /// Free downloads, added up.
        case freeDownloads
        /// Freemium's proceeds (after tax and commission), added up.
        case freemiumProceeds
        /// Freemium's proceeds over staying paid's, both added up.
        case proceedsRatio
        /// Freemium's proceeds in month `months` over staying paid's in the same month.
        case monthlyProceedsRatio
    }

    /// Whether the source gives the figure, or only a floor ("over 50k").
    public enum Bound: String, Sendable, Hashable, CaseIterable {
        case exact
        case atLeast
    }

    public var figure: Figure
    public var months: Int
    public var value: Double
    public var bound: Bound
    public var source: String
    /// The source's own words for the figure.
    public var quote: String
    /// How the value is worked out from the quote, when it is.
    public var derivation: String?

    public init(
        figure: Figure, months: Int, value: Double, bound: Bound = .exact, source: String, quote: String, derivation: String? = nil
    ) {
        self.figure = figure
        self.months = months
        self.value = value
        self.bound = bound
        self.source = source
        self.quote = quote
        self.derivation = derivation
    }
}

/// A published statement of whether the switch paid, over the months it covers.
public struct PublishedVerdict: Sendable, Hashable {
    public var freemiumAhead: Bool
    public var source: String
    public var quote: String
}

/// Why a calibration case can't be read: the file and what is wrong with it.
public struct CalibrationError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String
    public var description: String { "\(file): \(message)" }
}

extension CalibrationCase {
    /// The cases in `folder`: one folder each, holding `migration.json` (the plan) and `outcome.json`, read in the
    /// order of their names.
    public static func load(folder: URL) throws(CalibrationError) -> [CalibrationCase] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw CalibrationError(file: folder.path, message: "cannot list the calibration cases: \(error.localizedDescription)")
        }
        var cases: [CalibrationCase] = []
        for name in names {
            let caseFolder = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: caseFolder.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            cases.append(try load(id: name, caseFolder))
        }
        return cases
    }

    static func bytes(_ url: URL) throws(CalibrationError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CalibrationError(file: url.path, message: "cannot be read")
        }
        return Array(data)
    }

    static func load(id: String, _ folder: URL) throws(CalibrationError) -> CalibrationCase {
        let planFile = folder.appendingPathComponent("migration.json")
        let decoded = PlanDecoder.decode(bytes: try bytes(planFile))
        guard let plan = decoded.plan, !decoded.diagnostics.contains(where: { $0.severity == .error }) else {
            let first = decoded.diagnostics.first { $0.severity == .error }
            throw CalibrationError(file: planFile.path, message: "is not a plan migrate reads: \(first?.message ?? "unreadable")")
        }
        let outcomeFile = folder.appendingPathComponent("outcome.json")
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes: try bytes(outcomeFile))
        } catch let error as JSONSyntaxError {
            throw CalibrationError(file: outcomeFile.path, message: error.description)
        } catch let error as CalibrationError {
            throw error
        } catch {
            throw CalibrationError(file: outcomeFile.path, message: "\(error)")
        }
        let reader = OutcomeReader(file: outcomeFile.path)
        try reader.known(root, ["app", "summary", "outcomes", "verdict", "known"], at: "$")
        let app = try reader.string(root, "app", at: "$")
        let summary = try reader.string(root, "summary", at: "$")
        var outcomes: [CalibrationOutcome] = []
        for (index, item) in (root["outcomes"]?.arrayValue ?? []).enumerated() {
            let at = "$.outcomes[\(index)]"
            try reader.known(item, ["figure", "months", "value", "bound", "source", "quote", "derivation"], at: at)
            guard let figure = CalibrationOutcome.Figure(rawValue: try reader.string(item, "figure", at: at)) else {
                throw CalibrationError(
                    file: outcomeFile.path,
                    message: "\(at).figure must be one of \(CalibrationOutcome.Figure.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let boundText = item["bound"] == nil ? CalibrationOutcome.Bound.exact.rawValue : try reader.string(item, "bound", at: at)
            guard let bound = CalibrationOutcome.Bound(rawValue: boundText) else {
                throw CalibrationError(file: outcomeFile.path, message: "\(at).bound must be exact or atLeast")
            }
            let months = Int(try reader.number(item, "months", at: at))
            guard months >= 1, months <= plan.simulation?.horizonMonths ?? SimulationSettings.defaultHorizonMonths else {
                throw CalibrationError(file: outcomeFile.path, message: "\(at).months must be from 1 to the plan's horizon")
            }
            outcomes.append(
                CalibrationOutcome(
                    figure: figure, months: months, value: try reader.number(item, "value", at: at), bound: bound,
                    source: try reader.string(item, "source", at: at), quote: try reader.string(item, "quote", at: at),
                    derivation: item["derivation"] == nil ? nil : try reader.string(item, "derivation", at: at)))
        }
        var verdict: PublishedVerdict?
        if let node = root["verdict"] {
            try reader.known(node, ["freemiumAhead", "source", "quote"], at: "$.verdict")
            guard case .bool(let ahead)? = node["freemiumAhead"]?.value else {
                throw CalibrationError(file: outcomeFile.path, message: "$.verdict.freemiumAhead must be true or false")
            }
            verdict = PublishedVerdict(
                freemiumAhead: ahead, source: try reader.string(node, "source", at: "$.verdict"),
                quote: try reader.string(node, "quote", at: "$.verdict"))
        }
        for (index, item) in (root["known"]?.arrayValue ?? []).enumerated() {
            let at = "$.known[\(index)]"
            try reader.known(item, ["fact", "source", "quote"], at: at)
            for key in ["fact", "source", "quote"] { _ = try reader.string(item, key, at: at) }
        }
        guard !outcomes.isEmpty || verdict != nil else {
            throw CalibrationError(file: outcomeFile.path, message: "has neither outcomes nor a verdict to hold the forecast against")
        }
        return CalibrationCase(id: id, app: app, plan: plan, outcomes: outcomes, verdict: verdict, summary: summary)
    }
}

/// Reads `outcome.json` strictly: every key known, every value of its type.
private struct OutcomeReader {
    var file: String

    func known(_ node: JSONNode, _ keys: Set<String>, at path: String) throws(CalibrationError) {
        guard let members = node.objectValue else { throw CalibrationError(file: file, message: "\(path) must be an object") }
        for member in members where !keys.contains(member.key) {
            throw CalibrationError(
                file: file, message: "\(path).\(member.key) is not a key of a calibration case (\(keys.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ node: JSONNode, _ key: String, at path: String) throws(CalibrationError) -> String {
        guard let text = node[key]?.stringValue, !text.isEmpty else {
            throw CalibrationError(file: file, message: "\(path).\(key) must be a non-empty string")
        }
        return text
    }

    func number(_ node: JSONNode, _ key: String, at path: String) throws(CalibrationError) -> Double {
        guard case .number(let literal)? = node[key]?.value, let value = Double(literal), value.isFinite, value >= 0 else {
            throw CalibrationError(file: file, message: "\(path).\(key) must be a number, 0 or more")
        }
        return value
    }
}
