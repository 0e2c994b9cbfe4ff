import Dispatch
import MigrateSupport

/// Settings of one generator run.
public struct GeneratorOptions: Sendable, Hashable {
    /// t: every combination of values of any t factors that can occur together is covered. 1 to 4.
    public var strength: Int
    /// The same seed gives the same array.
    public var seed: UInt64
    /// Independent greedy runs; the smallest result is kept. Where they run in turn (under
    /// `restartsAtOnceMinimumTuples`) and the default pass follows, only until one has as few rows as a
    /// construction (see `generate`).
    public var restarts: Int
    /// Candidate rows compared for each row placed.
    public var candidates: Int
    /// Post-optimisation beyond the short default pass, 0 to 10: each step allows about a second
    /// of simulated annealing on this project's reference machine; the first round that removes no
    /// row ends it. The budget counts work, not time, so results repeat exactly on any machine.
    public var effort: Int
    /// Run the short annealing pass that follows every greedy construction (on by default).
    public var polish: Bool
    /// Overrides the effort's annealing budget, in work units (tuple-count updates); for tests
    /// that need a small, exact budget.
    public var effortWork: Int?
    /// The most work the greedy passes may do, in units of about a third of a nanosecond on this
    /// project's reference machine (see `greedyPasses(levelCounts:)`); `Int.max` turns the cap off.
    public var greedyWork = GeneratorOptions.defaultGreedyWork
    /// The effort stops after this many of its rounds in a row remove no row (a round drops one row
    /// and anneals until every tuple is covered again, each failed one longer than the last).
    public var roundsWithoutGain = 1
    /// Run the greedy restarts at once, one per core: the same rows as running them in turn, sooner.
    /// Off only to check that.
    var restartsAtOnce = true
    /// Below this many required tuples the restarts run in turn: a run takes less than starting a
    /// thread in a new process does.
    static let restartsAtOnceMinimumTuples = 500

    public init(strength: Int = 2, seed: UInt64 = 0, restarts: Int = 2, candidates: Int = 10, effort: Int = 0, polish: Bool = true) {
        self.strength = strength
        self.seed = seed
        self.restarts = restarts
        self.candidates = candidates
        self.effort = effort
        self.polish = polish
    }

    /// Annealing work (tuple-count updates) per effort step: about a second.
    public static let workPerEffort = 60_000_000
    /// Annealing (or tabu) work of the default pass: a few tens of milliseconds at most.
    public static let polishWork = 3_000_000
    /// At strengths 3 and 4, the default pass's annealing work per tuple, where that is more than
    /// `polishWork`. A cell change there updates thousands of tuples on a wide model, so a fixed budget
    /// buys it almost nothing: 4^15 3^17 2^29 at strength 3 (762,008 tuples, 305 million units, about
    /// 0.6 s) goes from 209 rows to 197, and 197–199 with seeds 1 to 3; 300 units a tuple left seed 0 at
    /// 199 and seed 3 at 200. Small models (3^13, 2^10 3^5, 3^8 at strength 4: 5,000–8,000 tuples)
    /// keep `polishWork`.
    public static let polishWorkPerTuple = 400

    /// The default pass's work for a problem with this many tuples: `polishWork`, or at strengths 3
    /// and 4 `polishWorkPerTuple` for each tuple when that is more.
    func polishWork(tupleCount: Int) -> Int {
        guard strength >= 3 else { return Self.polishWork }
        let scaled = tupleCount.multipliedReportingOverflow(by: Self.polishWorkPerTuple)
        return scaled.overflow ? Int.max : max(Self.polishWork, scaled.partialValue)
    }
    /// Tabu search's moves to repair the array after a row goes; the first repair that fails ends
    /// the default pass. 2,000 keeps every standard model at or under its rows before tabu search
    /// (5^10 needs it for 39; 1,000 gives 40) at a fifth of the annealer's time on 3^13.
    public static let tabuMovesPerRepair = 2_000

    /// The fewest tabu moves the default pass's work must buy (see `usesTabuSearch`) for tabu search
    /// to run instead of the annealer. Each tabu move weighs every row, so on tall and wide models
    /// (10^100, 20^30, 300 mixed factors: 60–75 moves) the annealer's cheap moves do better; on the
    /// standard models (390–3,200 moves) tabu search gives as few rows or fewer, faster. At 300, one of
    /// 258 random models (`migrate-bench matrix random`, seeds 11–13), 10^7 9 8^2 7 6 5^3 3 2^9 at 312
    /// moves, got 152 rows where the annealer gives 148; at 350 it anneals.
    public static let tabuMinimumMoves = 350

    /// Whether the default pass is tabu search rather than annealing: pairwise models without
    /// constraints whose default-pass work buys `tabuMinimumMoves` tabu moves over twice the lower
    /// bound's rows (about greedy's rows on the standard models: 4^15 3^17 2^29 40 for 17, 10^20 208
    /// for 101). Constrained models keep the annealer: on the example plans tabu search (which undoes a
    /// move that breaks a constraint) was 3–4 times faster, but gave two of the seven more rows
    /// (tilt-to-live-hd 39 for 37, inkwell-universal 47 for 46) while two got 3 fewer.
    func usesTabuSearch(_ problem: CoverageProblem, lowerBound: Int) -> Bool {
        guard polish && strength == 2 && !problem.solver.hasConstraints else { return false }
        let rows = 2 * max(lowerBound, 1)
        return Annealer.tabuMovesAffordable(rows: rows, factors: problem.factorCount, work: Self.polishWork) >= Self.tabuMinimumMoves
    }

    /// The greedy passes' default cap: under a second on the reference machine. Small models never
    /// reach it (the examples need a thousandth of it); a plan of 60 products, 200 releases and 40
    /// tiers would need seven times it with the full passes, and gets one run of 2 candidates.
    public static let defaultGreedyWork = 2_500_000_000

    /// Restarts and candidates for a model with these factor sizes: as set, unless their work passes
    /// `greedyWork`; then one restart and as many candidates as fit, at least 2. A completion costs
    /// about factors × total levels for each row, and the two widest factors force at least the
    /// product of their sizes in rows. Counted, not timed, so the rows repeat on every machine.
    public func greedyPasses(levelCounts: [Int]) -> (restarts: Int, candidates: Int) {
        let restarts = max(restarts, 1)
        let candidates = max(candidates, 1)
        let widest = levelCounts.sorted(by: >)
        let forcedRows = (widest.first ?? 1).multipliedReportingOverflow(by: widest.dropFirst().first ?? 1)
        var levels = (partialValue: 0, overflow: false)
        for count in levelCounts where !levels.overflow { levels = levels.partialValue.addingReportingOverflow(count) }
        let perRow = levelCounts.count.multipliedReportingOverflow(by: levels.partialValue)
        let perCompletion = perRow.partialValue.multipliedReportingOverflow(by: forcedRows.partialValue)
        let overflow = forcedRows.overflow || levels.overflow || perRow.overflow || perCompletion.overflow
        let runs = restarts.multipliedReportingOverflow(by: candidates)
        let full = perCompletion.partialValue.multipliedReportingOverflow(by: runs.partialValue)
        if !overflow && !runs.overflow && !full.overflow && full.partialValue <= greedyWork { return (restarts, candidates) }
        let fitting = overflow ? 0 : greedyWork / max(perCompletion.partialValue, 1)
        return (1, min(candidates, max(2, fitting)))
    }
}

/// A generated matrix: rows of level indices into the model's factors.
public struct CoveringArray: Sendable {
    public var model: CoverageModel
    public var strength: Int
    /// Each row holds one level index per factor, in factor order.
    public var rows: [[Int]]
    /// How many t-tuples occur in at least one valid row (what had to be covered).
    public var requiredTupleCount: Int
    /// How many t-tuples there are without constraints.
    public var tupleCount: Int

    /// The fewest rows any covering array of the model can have, as far as cheap arguments prove
    /// (see `CoverageBound`); an array with this many rows is optimal.
    public var lowerBound: Int
    /// What made the rows, for `--verbose`: a construction, search, or both.
    public var producedBy: String

    public init(
        model: CoverageModel, strength: Int, rows: [[Int]], requiredTupleCount: Int, tupleCount: Int, lowerBound: Int = 1, producedBy: String = ""
    ) {
        self.model = model
        self.strength = strength
        self.rows = rows
        self.requiredTupleCount = requiredTupleCount
        self.tupleCount = tupleCount
        self.lowerBound = lowerBound
        self.producedBy = producedBy
    }

    /// No covering array of the model has fewer rows.
    public var isOptimal: Bool { rows.count <= lowerBound }

    /// The rows as level names.
    public var namedRows: [[String]] { rows.map(model.names(of:)) }
}

/// Builds constrained t-wise covering arrays: a known construction where one applies, greedy
/// construction with restarts, then a default pass that removes rows while every required tuple stays
/// covered (tabu search for pairwise models without constraints, simulated annealing otherwise), and
/// the effort's annealing on top.
public struct CoveringArrayGenerator: Sendable {
    public let model: CoverageModel
    public let options: GeneratorOptions

    public init(model: CoverageModel, options: GeneratorOptions = GeneratorOptions()) {
        self.model = model
        self.options = options
    }

    /// Generates the array. `seedRows` are rows that must appear first, given as level indices
    /// with nil where any value will do.
    public func generate(seedRows: [[Int?]] = []) throws(ModelError) -> CoveringArray {
        let problem = try CoverageProblem(model: model, strength: options.strength)
        var seeds: [[Int]] = []
        for (number, seed) in seedRows.enumerated() {
            guard seed.count == model.factors.count else {
                throw ModelError("seed row \(number + 1) has \(seed.count) values; the model has \(model.factors.count) factors")
            }
            var row = [Int](repeating: -1, count: seed.count)
            for (factor, value) in seed.enumerated() {
                guard let value else { continue }
                guard (0..<model.factors[factor].levels.count).contains(value) else {
                    throw ModelError("seed row \(number + 1): factor '\(model.factors[factor].name)' has no level \(value)")
                }
                row[factor] = value
            }
            guard problem.solver.isExtendable(row) else {
                throw ModelError("seed row \(number + 1) breaks a constraint: no valid row has these values")
            }
            seeds.append(row)
        }
        if problem.requiredCount == 0 && seeds.isEmpty && !problem.solver.isExtendable([Int](repeating: -1, count: model.factors.count)) {
            throw ModelError("the constraints exclude every row")
        }

        let lowerBound = Self.lowerBound(problem: problem, seedCount: seeds.count)
        var best: [[Int]]?
        var producedBy = ""
        var isProduct = false
        // A known construction first: when it meets the lower bound no search can do better.
        // One with more than four times the bound's rows is not built: on the standard models search
        // always did better there (4^15 3^17 2^29 would get 3,721 rows over GF(61), and spend half its
        // time dropping them). A product only within twice the bound: where it wins (many factors of
        // many levels: 7^64 gets 97 rows for a bound of 50, search 139) it is that close, and on the
        // standard models and the plans, where search wins, it would only cost time.
        if let (construction, constructed) = Construction.best(
            levelCounts: model.levelCounts, strength: options.strength, maxRows: lowerBound.multipliedReportingOverflow(by: 4).partialValue,
            productMaxRows: lowerBound.multipliedReportingOverflow(by: 2).partialValue)
        {
            var rows = constructed
            var dropped = 0
            if problem.solver.hasConstraints || !seeds.isEmpty {
                // The seed rows first, then the constructed rows that keep the constraints; greedy
                // completion covers what the dropped rows covered.
                let valid = rows.filter { problem.solver.isExtendable($0) }
                dropped = rows.count - valid.count
                var random = SeededGenerator(seed: options.seed &* 0x9E37_79B9_7F4A_7C15)
                rows = GreedyBuilder(problem: problem, candidates: 1).build(seeds: seeds + valid, random: &random)
            }
            rows = Self.removeRedundantRows(rows, problem: problem, keep: seeds.count)
            best = rows
            producedBy = "construction: \(construction)" + (seeds.isEmpty ? "" : ", after the seed rows")
            if case .product = construction { isProduct = true }
            if dropped > 0 { producedBy += ", \(dropped) rows breaking the constraints replaced by greedy search" }
        }

        // The starts to polish: search's, and the construction's when it has fewer rows but is not
        // optimal. Both are polished and the smaller kept (search's on a tie), so no model gets more
        // rows than search alone gives it. A product is far from optimal by nature: it is polished only
        // when it already has fewer rows than search's polished array (3^13: its 17 rows beat greedy's
        // 19, but polishing them as well doubled the time for search's 15).
        var starts: [(rows: [[Int]], producedBy: String, onlyIfAhead: Bool)] = []
        var usesTabuSearch = false
        if best == nil || best!.count > lowerBound {
            var searched: [[Int]]?
            // Tabu search starts from one greedy run of one candidate: the rows more candidates save,
            // tabu search removes for less (4^15 3^17 2^29: greedy's 20 runs took 14 of the annealer's
            // 24 ms). Decided before greedy runs, so no run is wasted.
            usesTabuSearch = options.usesTabuSearch(problem, lowerBound: lowerBound)
            let passes = usesTabuSearch ? (restarts: 1, candidates: 1) : options.greedyPasses(levelCounts: model.levelCounts)
            let small = problem.requiredCount < GeneratorOptions.restartsAtOnceMinimumTuples
            var runsMade = passes.restarts
            let seed = options.seed
            let candidates = passes.candidates
            let seedRows = seeds
            // Shared by the restarts run at once below (see there).
            nonisolated(unsafe) let shared = problem
            @Sendable func greedy(_ restart: Int, solver: ConstraintSolver? = nil) -> [[Int]] {
                var random = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(restart))
                let rows = GreedyBuilder(problem: shared, candidates: candidates, solver: solver).build(seeds: seedRows, random: &random)
                return Self.removeRedundantRows(rows, problem: shared, keep: seedRows.count)
            }
            if passes.restarts > 1 && options.restartsAtOnce && problem.requiredCount >= GeneratorOptions.restartsAtOnceMinimumTuples {
                // The restarts at once, one per core (on one core Dispatch runs them in turn): each has its
                // own generator and its own copy of the constraint solver (whose cache and witness change as
                // it answers), and reads the rest of the problem only. The first with the fewest rows wins,
                // as in turn.
                var runs = [[[Int]]](repeating: [], count: passes.restarts)
                let solvers = (0..<passes.restarts).map { $0 == 0 ? problem.solver : problem.solver.copy() }
                runs.withUnsafeMutableBufferPointer { runs in
                    nonisolated(unsafe) let slots = runs
                    nonisolated(unsafe) let solvers = solvers
                    DispatchQueue.concurrentPerform(iterations: slots.count) { slots[$0] = greedy($0, solver: solvers[$0]) }
                }
                for rows in runs where searched == nil || rows.count < searched!.count { searched = rows }
            } else {
                for restart in 0..<passes.restarts {
                    let rows = greedy(restart)
                    runsMade = restart + 1
                    if searched == nil || rows.count < searched!.count { searched = rows }
                    if rows.count <= lowerBound { break }
                    // A small model's runs go in turn, and one is enough unless a construction has fewer
                    // rows: the default pass's annealing removes what a further run might save, sooner
                    // (PICT's disk-partition example: runs of 59 and 61 rows, both annealed to the bound's
                    // 56), but a construction ahead of search is annealed as well, which a run that
                    // catches up spares (seven-minute-workout: 35 rows, the construction 34, the second
                    // run 34).
                    if small && options.polish && (best == nil || best!.count >= searched!.count) { break }
                }
            }
            starts.append((searched!, "search: greedy (\(runsMade) × \(passes.candidates) candidates)", false))
            if let best, best.count < searched!.count {
                starts.append((best, producedBy + " (greedy search found \(searched!.count) rows)", isProduct))
            }
        } else {
            starts.append((best!, producedBy, false))
        }
        // The default pass first, then the effort on top of its result, so more effort never gives more rows.
        let frozen = seeds.map { $0.map { $0 >= 0 } }
        // Made when first needed: its tables cost time a model that needs no annealing need not spend.
        var made: Annealer?
        func annealer() -> Annealer {
            if let made { return made }
            let annealer = Annealer(problem: problem, frozen: frozen)
            made = annealer
            return annealer
        }
        let canShrink = starts[0].rows.count < 60_000 && problem.requiredCount > 0
        var rows: [[Int]] = []
        for (index, start) in starts.enumerated() {
            if start.onlyIfAhead && index > 0 && start.rows.count >= rows.count { continue }
            var polished = start.rows
            var label = start.producedBy
            if options.polish && canShrink && polished.count > lowerBound {
                var random = SeededGenerator(seed: options.seed ^ 0xA5A5_5A5A_1234_4321)
                if usesTabuSearch {
                    polished = annealer().tabuShrink(
                        polished, movesPerRepair: GeneratorOptions.tabuMovesPerRepair, work: GeneratorOptions.polishWork, lowerBound: lowerBound,
                        random: &random)
                    if polished.count < start.rows.count { label += ", tabu search" }
                } else {
                    polished =
                        annealer().shrink(
                            polished, work: options.polishWork(tupleCount: problem.space.tupleCount), lowerBound: lowerBound, random: &random
                        ).rows
                    if polished.count < start.rows.count { label += ", annealing" }
                }
            }
            if index == 0 || polished.count < rows.count {
                rows = polished
                producedBy = label
            }
        }
        // Effort: one pass of `effort` × `workPerEffort` on top, which stops at the lower bound or at
        // the first round that removes no row (the default pass keeps going: its budget is small).
        let effortWork = options.effortWork ?? max(0, options.effort) * GeneratorOptions.workPerEffort
        if effortWork > 0 && canShrink && rows.count > lowerBound {
            var random = SeededGenerator(seed: (options.seed ^ 0xA5A5_5A5A_1234_4321) &+ 1)
            let before = rows.count
            let result = annealer().shrink(
                rows, work: effortWork, lowerBound: lowerBound, maxFailures: max(1, options.roundsWithoutGain), random: &random)
            rows = result.rows
            producedBy += ", effort: \(before - rows.count) row\(before - rows.count == 1 ? "" : "s") fewer"
            if result.stopped { producedBy += " (stopped at a round that removed no row)" }
        }
        return CoveringArray(
            model: model, strength: options.strength, rows: rows, requiredTupleCount: problem.requiredCount,
            tupleCount: problem.space.tupleCount, lowerBound: lowerBound, producedBy: producedBy)
    }

    /// The fewest rows any array for the problem can have: without constraints the bound from the
    /// level counts; with them, the most required tuples of one set of t factors (each row covers
    /// exactly one tuple of every set), and the level counts' bound for a set of factors whose every
    /// tuple is required (the array holds a covering array of those factors without constraints:
    /// PICT's parameter-comparison example has 2^4's 5 rows where one set of factors shows only 4), and
    /// for a model of a handful of valid rows the fewest found by trying them (`tinyBound`); never fewer
    /// than the seed rows.
    static func lowerBound(problem: CoverageProblem, seedCount: Int) -> Int {
        if !problem.solver.hasConstraints {
            return max(seedCount, CoverageBound.lowerBound(levelCounts: problem.levelCounts, strength: problem.strength))
        }
        var most = 0
        let space = problem.space
        let t = problem.strength
        // Per factor, the sets of t factors holding it that miss some tuple.
        var partial = [[Int]](repeating: [], count: problem.factorCount)
        problem.required.withUnsafeBufferPointer { required in
            for combination in 0..<space.combinationCount {
                var count = 0
                for id in space.base[combination]..<space.base[combination + 1] { count += Int(required[id]) }
                most = max(most, count)
                if count < space.base[combination + 1] - space.base[combination] {
                    for member in space.factors[(combination * t)..<(combination * t + t)] { partial[member].append(combination) }
                }
            }
        }
        // Widest factors first (the bound grows with their levels), each kept when no set it would
        // complete with the factors kept misses a tuple: one such set, not the best, found cheaply.
        let counts = problem.levelCounts
        var kept = [Bool](repeating: false, count: counts.count)
        for factor in counts.indices.sorted(by: { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }) {
            let completesPartial = partial[factor].contains { combination in
                space.factors[(combination * t)..<(combination * t + t)].allSatisfy { $0 == factor || kept[$0] }
            }
            if !completesPartial { kept[factor] = true }
        }
        let full = CoverageBound.lowerBound(levelCounts: counts.indices.filter { kept[$0] }.map { counts[$0] }, strength: t)
        let bound = problem.requiredCount > 0 ? max(most, 1, full) : most
        return max(seedCount, tinyBound(problem: problem, from: bound) ?? bound)
    }

    /// The most required tuples, valid rows and sets of rows `tinyBound` looks at.
    static let tinyBoundLimits = (tuples: 64, rows: 24, sets: 20_000)

    /// For a model with a handful of valid rows, the fewest rows that cover every required tuple, or as many
    /// as shown needed when the sets to try run out; nil when the model is larger. Sets of `bound` valid
    /// rows are tried, then one more, until one covers: then no array has fewer. Where the constraints
    /// leave no array at the cheap bound, search would spend its whole budget looking (PICT's NOT example:
    /// 5 rows, the bound 4, and a third of the run annealing).
    static func tinyBound(problem: CoverageProblem, from bound: Int) -> Int? {
        let limits = tinyBoundLimits
        guard problem.requiredCount <= limits.tuples, problem.requiredCount > 0 else { return nil }
        // Each required tuple's bit.
        var bits = [Int](repeating: -1, count: problem.space.tupleCount)
        var next = 0
        for id in 0..<problem.space.tupleCount where problem.required[id] != 0 {
            bits[id] = next
            next += 1
        }
        // The valid rows, as the required tuples each covers.
        let counts = problem.levelCounts
        let solver = problem.solver
        var covers: [UInt64] = []
        var row = [Int](repeating: -1, count: counts.count)
        var tooMany = false
        // Called only while `tooMany` is false: the loop below stops once it is set.
        func visit(_ factor: Int) {
            if factor == counts.count {
                guard covers.count < limits.rows else {
                    tooMany = true
                    return
                }
                var mask: UInt64 = 0
                row.withUnsafeBufferPointer { problem.space.forEachTuple(in: $0) { if bits[$0] >= 0 { mask |= 1 << UInt64(bits[$0]) } } }
                covers.append(mask)
                return
            }
            for level in 0..<counts[factor] where !tooMany {
                row[factor] = level
                if !solver.isConstrained[factor] || solver.isExtendable(row) { visit(factor + 1) }
            }
            row[factor] = -1
        }
        visit(0)
        guard !tooMany else { return nil }
        let all: UInt64 = next == 64 ? ~0 : (1 << UInt64(next)) - 1
        // Whether `size` rows from `first` on, with `mask` covered so far, can cover the rest; nil when the
        // sets allowed run out.
        var tried = 0
        func coverable(_ size: Int, from first: Int, _ mask: UInt64) -> Bool? {
            if mask == all { return true }
            if size == 0 || covers.count - first < size { return false }
            for index in first..<covers.count {
                tried += 1
                if tried > limits.sets { return nil }
                guard let found = coverable(size - 1, from: index + 1, mask | covers[index]) else { return nil }
                if found { return true }
            }
            return false
        }
        var size = max(bound, 1)
        while size < covers.count {
            guard let found = coverable(size, from: 0, 0) else { return size }
            if found { return size }
            size += 1
        }
        return max(size, bound)
    }

    /// Drops rows (other than the first `keep`) whose every tuple another row also covers, last first.
    static func removeRedundantRows(_ rows: [[Int]], problem: CoverageProblem, keep: Int) -> [[Int]] {
        let space = problem.space
        var counts = [UInt32](repeating: 0, count: space.tupleCount)
        var kept = [Bool](repeating: true, count: rows.count)
        counts.withUnsafeMutableBufferPointer { counts in
            problem.required.withUnsafeBufferPointer { required in
                for row in rows {
                    row.withUnsafeBufferPointer { space.forEachTuple(in: $0) { counts[$0] &+= 1 } }
                }
                for index in stride(from: rows.count - 1, through: keep, by: -1) {
                    // Most rows cover some required tuple alone, found early: stop there.
                    let needed = rows[index].withUnsafeBufferPointer { row in
                        space.containsTuple(in: row) { counts[$0] == 1 && required[$0] != 0 }
                    }
                    if !needed {
                        kept[index] = false
                        rows[index].withUnsafeBufferPointer { space.forEachTuple(in: $0) { counts[$0] &-= 1 } }
                    }
                }
            }
        }
        return rows.indices.filter { kept[$0] }.map { rows[$0] }
    }

    /// Every valid complete row (the full product under the constraints), in order; nil when there
    /// are more than `limit`.
    public func exhaustive(limit: Int) throws(ModelError) -> [[Int]]? {
        let solver = try ConstraintSolver(model: model)
        let counts = model.levelCounts
        var rows: [[Int]] = []
        var row = [Int](repeating: -1, count: counts.count)
        var exceeded = false
        func visit(_ factor: Int) {
            if exceeded { return }
            if factor == counts.count {
                if rows.count >= limit {
                    exceeded = true
                    return
                }
                rows.append(row)
                return
            }
            for level in 0..<counts[factor] {
                row[factor] = level
                if !solver.isConstrained[factor] || solver.isExtendable(row) { visit(factor + 1) }
                if exceeded { break }
            }
            row[factor] = -1
        }
        if solver.isExtendable(row) { visit(0) }
        return exceeded ? nil : rows
    }
}
