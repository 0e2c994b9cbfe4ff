import Foundation
import MigrateCore
import MigrateMatrix
import MigratePlan

/// `migrate matrix PLAN` or `migrate matrix --model FILE`: the smallest set of test cases that covers
/// every valid combination of t factor values, with the outcome to expect for a plan's customers.
enum MatrixCommand {
    /// `--exhaustive` prints at most this many rows unless `--force` is given.
    static let exhaustiveLimit = 10_000

    static let plan = Argument<String?>.optionalPositional("plan", help: CommonArguments.plan.spec.help).naming(.plan)
    static let model = Argument<String?>.option(
        "model", valueName: "file", help: "A model in PICT's format ('Name: v1, v2' lines and IF … THEN … constraints) instead of a plan."
    ).naming(.input)
    static let strength = Argument<Int>.number(
        "strength", valueName: "t", help: "Cover every combination of this many factors' values (1 to 4).", in: 1...4, default: 2)
    static let seed = Argument<UInt64>.number("seed", help: "The random seed; the same seed gives the same matrix.", in: 0...UInt64.max, default: 0)
    static let effort = Argument<Int>.number(
        "effort",
        help:
            "Extra optimisation, 0 to 10, for fewer rows: up to n fixed amounts of annealing work (the same rows on every machine), about a second each on a small model and more on a wide one. It stops at the lower bound, or at the first round (an attempt to drop one more row) that fails. Typically one to three rows fewer on wide pairwise models, up to 8% at strengths 3 and 4; nothing once the array is optimal.",
        in: 0...10, default: 0)
    static let verbose = Argument<Bool>.flag(
        "verbose", help: "Also say, on standard error, what produced the rows: a known construction, search, or both.")
    static let seedRows = Argument<String?>.option(
        "seed-rows", valueName: "file",
        help: "Rows that must be included, as CSV or tab-separated like PICT's seed files (header: factor names; an empty cell means any value)."
    ).naming(.input)
    static let exhaustive = Argument<Bool>.flag(
        "exhaustive", help: "Print every valid combination instead (refused above \(exhaustiveLimit) rows without --force).")
    static let force = Argument<Bool>.flag("force", help: "Allow --exhaustive above the limit.")
    static let verify = Argument<String?>.option(
        "verify", valueName: "file", help: "Check a matrix (CSV, or PICT's tab-separated output) against the model instead of generating one."
    ).naming(.input)
    static let format = CommonArguments.tableFormat

    static let spec = CommandSpec(
        name: "matrix",
        abstract: "Generate the smallest test matrix that covers every valid combination of factor values.",
        discussion: """
            From a plan: factors for the original version around every cutoff, the purchase date, \
            the environment, verification, each product, the restore outcome and the platforms, with \
            the constraints between them; each row gets the expected cohort, features, offers and \
            restore message. With --model: a model in PICT's plain format, read with PICT's meaning \
            (negative values, aliases, reuse, numeric and text comparison); sub-models and the few other \
            constructs migrate does not reproduce are errors at their line. --verify checks a matrix made \
            elsewhere (CSV, or PICT's tab-separated output) against the model and lists missing combinations.
            """.wrappedForHelp,
        arguments: [plan, model, strength, seed, effort, seedRows, exhaustive, force, verify, format, verbose],
        validate: { usageProblems($0) },
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    /// How the arguments go together, every problem at once.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        var problems: [String] = []
        if arguments[Self.force] && !arguments[Self.exhaustive] { problems.append("'--force' applies only with '--exhaustive'.") }
        switch (arguments[Self.plan], arguments[Self.model]) {
        case (nil, nil): problems.append("Name a plan, or a model file with '--model'.")
        case (.some, .some): problems.append("Name either a plan or '--model', not both.")
        default: break
        }
        return problems
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let strength = arguments[Self.strength]
        let seed = arguments[Self.seed]
        let isExhaustive = arguments[Self.exhaustive]
        let isForced = arguments[Self.force]

        let source: MatrixSource
        switch (arguments[Self.plan], arguments[Self.model]) {
        case (nil, nil), (.some, .some): throw .usage("Name a plan, or a model file with '--model'.")  // refused by `usageProblems`
        case (let plan?, nil):
            let loaded = try LoadedPlan.load(plan, context: context)
            source = .plan(PlanFactorModel(catalog: try loaded.requireCheckedCatalog(context: context, outcome: "no matrix was made")))
        case (nil, let path?):
            let file = try InputFile.read(path, context: context)
            let (model, errors) = PICTModel.parse(try text(of: file, context: context))
            guard let model, errors.isEmpty else {
                report(errors, in: file, context: context)
                throw CommandError(
                    .dataError, "\(file.displayPath) is not a model migrate can read (\(errors.count) error\(errors.count == 1 ? "" : "s")).")
            }
            report(model.warnings, in: file, kind: "warning", context: context)
            source = .model(model, file: file.displayPath)
        }
        let model = source.model
        let renderer = MatrixRenderer(source: source, strength: strength, format: arguments[Self.format])

        if let path = arguments[Self.verify] {
            let file = try InputFile.read(path, context: context)
            let table = MatrixCSV.table(try text(of: file, context: context), model: model, vocabulary: source.vocabulary)
            guard table.errors.isEmpty else {
                report(table.errors, in: file, context: context)
                throw CommandError(.dataError, "\(file.displayPath) is not a matrix of this model.")
            }
            let verifier = source.verifier(strength: strength)
            let result = verifier.verify(table.rows.map { $0.map { $0 ?? -1 } })
            context.standardOutput.write(renderer.verification(result, verifier: verifier, file: file.displayPath))
            return result.isComplete ? .success : .checkFailed
        }

        var seedRows: [[Int?]] = []
        if let path = arguments[Self.seedRows] {
            let file = try InputFile.read(path, context: context)
            let table = MatrixCSV.table(try text(of: file, context: context), model: model, vocabulary: source.vocabulary, allowsEmpty: true)
            guard table.errors.isEmpty else {
                report(table.errors, in: file, context: context)
                throw CommandError(.dataError, "\(file.displayPath) is not a set of rows of this model.")
            }
            // A seed row must extend to a valid row; say which row and why, before generating.
            let verifier = source.verifier(strength: strength)
            var problems: [ModelFileError] = []
            for (index, row) in table.rows.enumerated() {
                if let problem = verifier.problem(extending: row) {
                    problems.append(
                        ModelFileError(
                            line: table.lines[index], column: 1,
                            message: "seed row \(index + 1) can't be part of the matrix: \(source.describe(problem)); change or remove it"))
                }
            }
            guard problems.isEmpty else {
                report(problems, in: file, context: context)
                throw CommandError(
                    .dataError,
                    "\(file.displayPath) has \(problems.count) seed row\(problems.count == 1 ? "" : "s") that break\(problems.count == 1 ? "s" : "") the constraints."
                )
            }
            seedRows = table.rows
        }

        let generator = CoveringArrayGenerator(
            model: model, options: GeneratorOptions(strength: strength, seed: seed, effort: arguments[Self.effort]))
        let array: CoveringArray
        do {
            if isExhaustive {
                let hardLimit = Limits.exhaustiveRows(factors: model.factors.count)
                let limit = isForced ? hardLimit : exhaustiveLimit
                // The product without constraints is an upper bound: past the hard limit, refuse before enumerating.
                if isForced, model.fullProductSize > hardLimit, model.constraints.isEmpty {
                    throw CommandError(
                        .usage,
                        "--exhaustive prints at most \(Limits.grouped(hardLimit)) rows for \(model.factors.count) factors, even with --force (migrate's limit: \(Limits.grouped(Limits.exhaustiveRows)) rows, \(Limits.grouped(Limits.exhaustiveCells)) cells), and this model has \(model.fullProductSize == Int.max ? "more than \(Limits.grouped(Int.max))" : Limits.grouped(model.fullProductSize)). Leave out '--exhaustive' for a covering matrix."
                    )
                }
                guard let rows = try generator.exhaustive(limit: limit) else {
                    if isForced {
                        throw CommandError(
                            .usage,
                            "--exhaustive prints at most \(Limits.grouped(hardLimit)) rows for \(model.factors.count) factors, even with --force (migrate's limit: \(Limits.grouped(Limits.exhaustiveRows)) rows, \(Limits.grouped(Limits.exhaustiveCells)) cells), and this model has more valid rows. Leave out '--exhaustive' for a covering matrix."
                        )
                    }
                    throw CommandError(
                        .usage,
                        "The full product has more than \(exhaustiveLimit) valid rows (\(model.fullProductSize == Int.max ? "too many to count" : String(model.fullProductSize)) without constraints). Add '--force' to print them all, or leave out '--exhaustive' for a covering matrix."
                    )
                }
                array = CoveringArray(
                    model: model, strength: model.factors.count, rows: rows, requiredTupleCount: rows.count, tupleCount: model.fullProductSize,
                    lowerBound: rows.count, producedBy: "every valid combination")
            } else {
                array = try source.generate(generator.options, seedRows: seedRows)
            }
        } catch let error as ModelError {
            throw CommandError(.dataError, "\(source.file.map { "\($0): the model" } ?? "The model") can't be used: \(error.message).")
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.software, "\(error)")
        }
        if arguments[Self.verbose] && !isExhaustive {
            context.standardError.write("matrix: \(array.rows.count) rows from \(array.producedBy); lower bound \(array.lowerBound).\n")
        }
        context.standardOutput.write(renderer.render(array, exhaustive: isExhaustive, seed: seed))
        return .success
    }
}

/// Where a matrix's factors come from.
enum MatrixSource {
    case plan(PlanFactorModel)
    /// A PICT model and the file it came from.
    case model(PICTModel, file: String)

    /// What the generator works on.
    var model: CoverageModel {
        switch self {
        case .plan(let factors): factors.model
        case .model(let model, _): model.model
        }
    }

    var file: String? {
        if case .model(_, let file) = self { return file }
        return nil
    }

    /// How `--verify` and `--seed-rows` files name factors and values.
    var vocabulary: MatrixCSV.Vocabulary {
        switch self {
        case .plan(let factors): .exact(factors.model)
        case .model(let model, _): .pict(model)
        }
    }

    func verifier(strength: Int) -> CoverageVerifier {
        switch self {
        case .plan(let factors): CoverageVerifier(model: factors.model, strength: strength)
        case .model(let model, _): model.verifier(strength: strength)
        }
    }

    func generate(_ options: GeneratorOptions, seedRows: [[Int?]]) throws(ModelError) -> CoveringArray {
        switch self {
        case .plan(let factors): try CoveringArrayGenerator(model: factors.model, options: options).generate(seedRows: seedRows)
        case .model(let model, _): try model.generate(options: options, seedRows: seedRows)
        }
    }

    /// A verifier's reason, with a PICT constraint's line tied to the model file.
    func describe(_ problem: String) -> String {
        guard let file else { return problem }
        return problem.replacingOccurrences(of: "breaks line ", with: "breaks the constraint at \(file) line ")
            .replacingOccurrences(of: "; line ", with: "; the constraint at \(file) line ")
    }
}

extension MatrixCommand {
    /// The file as UTF-8 text; other bytes are an error at their line and column, never replaced.
    static func text(of file: InputFile, context: CommandContext) throws(CommandError) -> String {
        if let offset = UTF8Check.firstInvalidByte(in: file.bytes) {
            let place = UTF8Check.location(of: offset, in: file.bytes)
            let problem = ModelFileError(line: place.line, column: place.column, message: "byte \(offset) is not valid UTF-8; save the file as UTF-8")
            report([problem], in: file, context: context)
            throw CommandError(.dataError, "\(file.displayPath) is not UTF-8 text.")
        }
        return String(decoding: file.bytes, as: UTF8.self)
    }

    static func report(_ problems: [ModelFileError], in file: InputFile, kind: String = "error", context: CommandContext) {
        for problem in problems {
            context.standardError.write("\(file.displayPath):\(problem.line):\(problem.column): \(kind): \(problem.message)\n")
        }
    }
}
