import Foundation
import MigrateCore
import MigrateImport
import MigratePlan
import MigrateSupport
import MigrateWizard

/// `migrate init`: finds what it can in the project, asks the rest, writes a plan that passes `check`.
enum InitCommand {
    static let plan = Argument<String>.option("plan", valueName: "file", help: "The plan to create.", default: "migration.json").naming(.output)
    static let project = Argument<String>.option(
        "project", valueName: "path", help: "The project folder to scan, or the app's .xcodeproj in it (the only project then read).", default: ".")
    static let keepAnswers = Argument<Bool>.flag(
        "keep-answers", help: "Keep the answers file an earlier run saved beside the plan; by default a successful run removes it.")
    static let force = Argument<Bool>.flag("force", help: "Replace an existing plan.")
    static let yes = Argument<Bool>.flag("yes", short: "y", help: "Take the default for every question not answered by a flag or --answers.")
    static let answersFile = Argument<String?>.option("answers", valueName: "file", help: "Answers as JSON, by question key (see above).").naming(
        .input)
    static let asc = Argument<[String]>.options("asc", valueName: "file", help: "App Store Connect API responses to read releases from.").naming(
        .input)
    static let sales = Argument<[String]>.options(
        "sales", valueName: "file", help: "Sales and Trends summary reports: the install base, and the day each version first sold."
    ).naming(.input)
    static let now = Argument<Date?>.date("now", help: "Judge dates against this moment instead of the clock (ISO 8601).")

    /// The options that answer questions, from the questions' own declarations: the texts given, in order (at
    /// most one for a single answer).
    static let questionOptions: [(kind: QuestionKind, argument: Argument<[String]>)] = QuestionKind.all.map { kind in
        var valueName = kind.valueName
        if case .perItem(let item) = kind.form { valueName = "\(item)=\(valueName)" }
        let spec = ArgumentSpec.option(kind.flag, valueName: valueName, help: kind.help, choices: kind.choices, repeating: kind.form != .single)
        return (kind, Argument(spec: spec) { $0.all(kind.flag, as: String.self) })
    }

    static let spec = CommandSpec(
        name: "init",
        abstract: "Create a migration plan from your project's files and a few answers.",
        discussion: """
            Scans the project (--project, default the current folder) for .storekit files, Xcode projects, \
            Info.plist files and the git history, lists what it found, imports it, and asks what no file \
            says: the first free release, the features and which paid releases included them, what each \
            product unlocks, how each paid era's buyers are treated, and the policies. Type '<' or 'back' to \
            return to the previous question; nothing is written until you confirm the summary, where the \
            number of any answer goes back to change it (every other answer is kept). A long history lists \
            its last releases; type a version, a version and build, or the start of a version for the others. \
            When the project tags its releases, the tagged versions are the releases (--all-versions takes every \
            version change, --tagged-only insists on tags). The first free release's go-live is asked with the \
            evidence at hand; a date only a git commit gives is never the default (--free-from). Without a \
            terminal, answers come from flags or --answers FILE (JSON with the keys appName, bundleID, \
            platforms, universalPurchase, releases, firstFree, freeFrom, newFreeRelease, newFreeReleases {platform: "2.0 (1) 2026-12-15"}, \
            freeFromOn {platform: date-time}, sells {product: yes|no}, price, \
            features, featureSince {feature: version}, freeGaveAway [features], product, durations {product: "P1Y"}, grants {product: [features]}, \
            eras {"1": "keep"|"everything"|"discount"|"upgrade"}, \
            eraDiscounts {"1": "PRODUCT PRICE"}, nonProduction, verificationFailure, familySharing, \
            paidDownloadsPerMonth) and --yes takes the defaults (on a terminal too); a missing answer exits 64 \
            naming its flag, and so does an answer no question of the run asks, saying why. \
            The plan is checked before it is written (exit 1 with errors) and never overwritten without --force.
            """.wrappedForHelp,
        arguments: [plan, project, force, yes, answersFile, keepAnswers, asc, sales] + GitVersionsFlags.arguments + questionOptions.map(\.argument)
            + [now],
        validate: { usageProblems($0) },
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    /// How the options go together, every problem at once: the git history's two flags, and every per-item answer
    /// that names no item or gives one item two answers.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        var problems = GitVersionsFlags.usageProblems(arguments)
        for (kind, argument) in questionOptions {
            guard case .perItem(let item) = kind.form else { continue }
            problems += itemAnswers(kind, item: item, arguments[argument]).problems
        }
        return problems
    }

    /// A per-item option's answers (`--era 1=keep`) by item, in the order given, and what is wrong with the others:
    /// a value without `item=`, or an item given two different answers.
    static func itemAnswers(
        _ kind: QuestionKind, item: String, _ values: [String]
    ) -> (answers: [(item: String, answer: String)], problems: [String]) {
        var answers: [(item: String, answer: String)] = []
        var problems: [String] = []
        var seen: [String: String] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                problems.append(
                    "The value '\(value)' is invalid for '--\(kind.flag)'. Expected \(item)=\(kind.valueName), such as \(kind.flag == "era" ? "1=keep" : kind.flag == QuestionKind.platformFreeRelease.flag ? "macOS='2.0 2026-12-15'" : kind.flag == QuestionKind.platformGoLive.flag ? "macOS=2021-06-02T17:00:00Z" : "themes=1.0")."
                )
                continue
            }
            let name = String(value[..<equals])
            let answer = String(value[value.index(after: equals)...])
            if let earlier = seen[name] {
                if earlier != answer {
                    problems.append(
                        "'--\(kind.flag) \(name)=…' is given twice with different answers ('\(earlier)', '\(answer)'); it takes one. Give it once.")
                }
                continue
            }
            seen[name] = answer
            answers.append((name, answer))
        }
        return (answers, problems)
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let out = context.standardOutput
        let style = context.style(for: out)
        let planPath = arguments[Self.plan]
        let planFile = context.resolve(planPath)
        if FileManager.default.fileExists(atPath: planFile) && !arguments[Self.force] {
            throw CommandError(.cannotCreate, "\(planPath) already exists; give --force to replace it, or --plan to write another file.")
        }
        let now = arguments[Self.now] ?? context.now
        let renderer = WizardRenderer(style: style)
        let collected = try answers(from: arguments, context: context)
        var given = collected.answers
        for line in collected.replaced { out.write(renderer.note(line)) }

        let projectPath = arguments[Self.project]
        var root = context.resolve(projectPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError(.noInput, "\(projectPath): no such folder (--project).")
        }
        // An .xcodeproj names the app's project: its folder is scanned, and no other project in it is read.
        var onlyProject: String?
        if (root as NSString).pathExtension == "xcodeproj" {
            guard FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent("project.pbxproj")) else {
                throw CommandError(.noInput, "\(projectPath): no project.pbxproj inside (--project); name an Xcode project or a folder.")
            }
            onlyProject = (root as NSString).lastPathComponent + "/project.pbxproj"
            root = (root as NSString).deletingLastPathComponent
        }
        var scan = ProjectScanner.scan(root)
        if let onlyProject { scan.projectFiles = [onlyProject] }
        let asc = try arguments[Self.asc].map { (path) throws(CommandError) in
            let file = try InputFile.read(path, context: context)
            return ProjectImport.File(displayPath: file.displayPath, bytes: file.bytes)
        }
        let sales = try arguments[Self.sales].map { (path) throws(CommandError) in
            let file = try InputFile.read(path, context: context)
            return ProjectImport.File(displayPath: file.displayPath, bytes: file.bytes)
        }
        let taggedOnly = GitVersionsFlags.resolve(arguments)
        // init reads a git history only beside an Xcode project or an Info.plist (`ProjectImport.gather`).
        if let taggedOnly, scan.gitRepository == nil || (scan.projectFiles.isEmpty && scan.infoPlists.isEmpty) {
            let flag = taggedOnly ? "--tagged-only" : "--all-versions"
            let why =
                scan.gitRepository == nil
                ? "\(projectPath) has no git repository"
                : "init reads the git history only beside an Xcode project or Info.plist, and \(projectPath) has none"
            throw .usage("'\(flag)' chooses which versions of the git history are releases, but \(why), so it would change nothing; leave it out.")
        }
        let facts: WizardFacts
        do {
            facts = try ProjectImport.gather(
                root: root, scan: scan, asc: asc, sales: sales, taggedOnly: taggedOnly, bundleID: given["bundleID"], environment: context.environment)
        } catch {
            throw CommandError(error.kind == .badData ? .dataError : .noInput, error.description)
        }
        out.write(style.bold(scan.isEmpty ? "Found nothing to import in \(projectPath)" : "Found in \(projectPath):") + "\n")
        for line in scan.lines { out.write("  \(line)\n") }
        for note in facts.notes { out.write(renderer.note("read: \(note)", styled: style.dim)) }
        out.write("\n")

        // --product is honoured beside a .storekit too: it adds the product that unlocks the features.
        var wizard = Wizard(facts: facts, now: now, asksForProduct: given["product"] != nil)
        // --yes takes the defaults instead of asking, on a terminal too.
        let interactive = context.standardInput.isTerminal && out.isTerminal && !arguments[Self.yes]
        if interactive {
            let keys = Set(given.keys)
            var used = Set<String>()
            let finished = ask(&wizard, given: &given, used: &used, context: context, renderer: renderer)
            guard finished else {
                out.write("\nInput ended before the plan was complete; nothing was written.\n")
                return .checkFailed
            }
            if wizard.answers.confirmed == false {
                out.write("Nothing was written.\n")
                return .checkFailed
            }
            let unused = wizard.unused(keys, used: used)
            if !unused.isEmpty {
                let saved = saveAnswers(wizard, nextTo: planFile, displayPath: planPath, context: context)
                throw .usage(unusedMessage(unused, fromFile: collected.fromFile) + " Nothing was written." + saved)
            }
        } else {
            switch ScriptedRun.run(wizard, answers: given, acceptDefaults: arguments[Self.yes]) {
            case .success(let (done, lines)):
                wizard = done
                out.write(renderer.consequences(lines, marker: false))
            case .failure(.missing(let id, let prompt)):
                throw .usage(
                    "init needs an answer to \"\(prompt)\" and input is not a terminal. Give \(id.flag) (or \"\(id.key.split(separator: ".").first!)\" in --answers)"
                        + (arguments[Self.yes] ? "; it has no default." : ", or --yes to take the defaults."))
            case .failure(.invalid(let id, let answer, let message)):
                throw .usage("The answer '\(answer)' for \(id.flag) is invalid: \(message).")
            case .failure(.conflict(let conflict)):
                let kind = QuestionKind.all.first { $0.key == conflict.key }
                throw .usage("The answer '\(conflict.answer)' for \(kind?.usage ?? conflict.key) is invalid: \(conflict.message).")
            case .failure(.unused(let unused)):
                throw .usage(unusedMessage(unused, fromFile: collected.fromFile))
            }
            out.write("\n")
            out.write(renderer.summary(PlanBuilder.summary(wizard.answers, facts: facts)))
        }
        let code = try write(wizard.plan, to: planFile, displayPath: planPath, now: now, context: context, style: style, wizard: wizard)
        if code == .success && !arguments[Self.keepAnswers] { removeSavedAnswers(displayPath: planPath, context: context) }
        return code
    }

    /// The answers file a run saves beside the plan when the plan can't be written: `migration.answers.json`.
    static func savedAnswersPath(displayPath: String) -> String {
        let name = ((displayPath as NSString).lastPathComponent as NSString).deletingPathExtension + ".answers.json"
        let folder = (displayPath as NSString).deletingLastPathComponent
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// Once the plan is written, the answers an earlier run saved beside it have done their job: they are removed
    /// (and the removal said), unless `--keep-answers`. A file that can't be removed is said too.
    static func removeSavedAnswers(displayPath: String, context: CommandContext) {
        let shown = savedAnswersPath(displayPath: displayPath)
        let file = context.resolve(shown)
        guard FileManager.default.fileExists(atPath: file) else { return }
        let said: String
        do {
            try FileManager.default.removeItem(atPath: file)
            said = "Removed \(shown), the answers saved by an earlier run (--keep-answers keeps it)."
        } catch {
            said = "Could not remove \(shown), the answers saved by an earlier run: \(error.localizedDescription)"
        }
        for line in TextTable.paragraph(said, first: "", rest: "  ") { context.standardOutput.write(line + "\n") }
    }

    /// Every answer given that no question asked, with why: a flag's or the answers file's, as it was given.
    static func unusedMessage(_ unused: [UnusedAnswer], fromFile: [String: String]) -> String {
        let lines = unused.map { item in
            let given = fromFile[item.key].map { "\(item.answersKey) in \($0)" } ?? "'\(item.flag)'"
            return "\(given) is not used: \(item.reason)\(item.reason.hasSuffix("?") ? "" : ".")"
        }
        let fix = "Leave \(unused.count == 1 ? "it" : "them") out, or change the answers that decide which questions are asked."
        if lines.count == 1 { return "\(lines[0]) \(fix)" }
        return "\(lines.count) answers are not used:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + "\n  " + fix
    }

    /// The question loop on a terminal. False when input ended before the last answer.
    static func ask(
        _ wizard: inout Wizard, given: inout [String: String], used: inout Set<String>, context: CommandContext, renderer: WizardRenderer
    ) -> Bool {
        let out = context.standardOutput
        let style = renderer.style
        out.write(style.dim("Press Return to take the [default]; '<' or 'back' goes to the previous question.") + "\n\n")
        while let question = wizard.question {
            if question.id == .confirm {
                out.write(style.bold("Summary") + "\n")
                out.write(renderer.summary(PlanBuilder.summary(wizard.answers, facts: wizard.facts)))
                let problems = PlanChecker.check(wizard.plan, now: wizard.now).diagnostics.filter { $0.severity == .error }
                for problem in problems { out.write(renderer.note(style.red("error: ") + problem.message)) }
                out.write("\n")
            }
            if question.id == .newFreeRelease, let freeFrom = given.removeValue(forKey: QuestionKind.freeGoLive.key) {
                // The go-live of a release not listed yet is its date: --free-from gives it.
                used.insert(QuestionKind.freeGoLive.key)
                switch wizard.newFreeRelease(given: given[question.id.key], freeFrom: freeFrom) {
                case .success(let answer): given[question.id.key] = answer
                case .failure(let conflict): out.write(renderer.sorry(conflict.message))
                }
            }
            if let answer = given.removeValue(forKey: question.id.key) {
                used.insert(question.id.key)
                if let problem = Wizard.positionProblem(question.id, answer: answer) {
                    out.write(renderer.sorry(problem))
                    continue
                }
                out.write(renderer.given(question, answer: answer))
                if report(wizard.submit(answer), out: out, renderer: renderer) { continue }
            }
            out.write(renderer.question(question))
            out.write(renderer.answerLine(question))
            guard let line = context.standardInput.readLine() else { return false }
            _ = report(wizard.submit(line), out: out, renderer: renderer)
        }
        return true
    }

    /// Prints what an answer did; true when it moved the wizard on (or back).
    @discardableResult
    static func report(_ outcome: WizardOutcome, out: TextOutput, renderer: WizardRenderer) -> Bool {
        switch outcome {
        case .accepted(let lines):
            out.write(renderer.consequences(lines) + "\n")
            return true
        case .invalid(let message):
            out.write(renderer.sorry(message))
            return false
        case .wentBack:
            out.write("  " + renderer.style.dim("(back)") + "\n\n")
            return true
        case .cancelled:
            return true
        }
    }

    /// Checks, then writes atomically; a plan with errors is shown and not written.
    static func write(
        _ plan: MigrationPlan, to path: String, displayPath: String, now: Date, context: CommandContext, style: Style, wizard: Wizard? = nil
    ) throws(CommandError) -> ExitCode {
        let out = context.standardOutput
        let text = PlanEncoder.encode(plan)
        let decoded = PlanDecoder.decode(text)
        var diagnostics = decoded.diagnostics
        if let reread = decoded.plan, !decoded.hasErrors { diagnostics += PlanChecker.check(reread, now: now).diagnostics }
        diagnostics = diagnostics.sortedForDisplay()
        if !diagnostics.isEmpty { out.write("\n") }
        let renderer = WizardRenderer(style: style)
        for diagnostic in diagnostics { out.write(renderer.diagnostic(diagnostic)) }
        if diagnostics.contains(where: { $0.severity == .error }) {
            let saved = wizard.map { saveAnswers($0, nextTo: path, displayPath: displayPath, context: context) } ?? ""
            context.standardError.write(
                "The plan would not pass migrate check, so \(displayPath) was not written; answer differently or edit the flags.\(saved)\n")
            return .checkFailed
        }
        let written: (plan: String, schema: String?)
        do {
            written = try OutputFile.writeNewPlan(Array(text.utf8), to: displayPath, context: context)
        } catch {
            let saved = wizard.map { saveAnswers($0, nextTo: path, displayPath: displayPath, context: context) } ?? ""
            throw CommandError(error.exitCode, error.message + "." + saved)
        }
        out.write("\n" + style.green("Created \(written.plan)" + (written.schema.map { " and \($0)" } ?? "") + ".") + " Next steps:\n")
        // The descriptions line up after the longest of `check` and `simulate`.
        let column = "  migrate simulate \(displayPath)   ".count
        out.write(renderer.step("migrate check \(displayPath)", "the cutoff rules and tiers, any trap left", descriptionColumn: column))
        out.write(renderer.step("migrate simulate \(displayPath)", "the cohorts, staying paid against freemium", descriptionColumn: column))
        // Without a package of its own beside the plan, the generated code is best a package the app adds.
        let folder = (path as NSString).deletingLastPathComponent
        if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("Package.swift")) {
            out.write(renderer.step("migrate generate \(displayPath)", "the entitlement code for your app", descriptionColumn: column))
        } else {
            out.write(
                renderer.step(
                    "migrate generate \(displayPath) --package", "the entitlement code and its tests, as a Swift package", descriptionColumn: column))
        }
        return .success
    }

    /// Saves every answer given so far as an `--answers` file, so no session is lost when the plan
    /// can't be written: next to the plan, or in the temporary folder when that folder refuses it,
    /// or printed when neither can be written. Returns the sentence that says where.
    static func saveAnswers(_ wizard: Wizard, nextTo path: String, displayPath: String, context: CommandContext) -> String {
        let text = JSONWriter().string(from: answersJSON(wizard))
        let name = ((displayPath as NSString).lastPathComponent as NSString).deletingPathExtension + ".answers.json"
        let besidePlan = savedAnswersPath(displayPath: displayPath)
        let candidates = [
            (context.resolve(besidePlan), besidePlan),
            (
                (NSTemporaryDirectory() as NSString).appendingPathComponent("migrate-" + name),
                (NSTemporaryDirectory() as NSString).appendingPathComponent("migrate-" + name)
            ),
        ]
        for (absolute, shown) in candidates {
            if (try? OutputFile.write(text, to: absolute, context: context)) != nil {
                return
                    " Your answers were saved to \(shown); run 'migrate init --answers \(shown)' to try again without answering again (edit it, or give a flag, to change one)."
            }
        }
        return " Your answers could not be saved to a file either; here they are, to save as a file for 'migrate init --answers FILE':\n" + text
    }

    /// The answers given, as an `--answers` file: one key per question asked, per-item answers nested.
    static func answersJSON(_ wizard: Wizard) -> JSONValue {
        var top: [(String, JSONValue?)] = []
        var nested: [String: [(String, JSONValue?)]] = [:]
        for id in wizard.sequence() where id != .confirm {
            guard let text = wizard.answers.typed[id.key] else { continue }
            let key = id.key
            if let dot = key.firstIndex(of: "."), AnswersFile.itemKeys[String(key[..<dot])] != nil {
                let group = String(key[..<dot])
                if nested[group] == nil {
                    top.append((group, nil))
                }
                nested[group, default: []].append((String(key[key.index(after: dot)...]), .string(text)))
            } else {
                top.append((key, .string(text)))
            }
        }
        return .members(top.map { key, value in (key, value ?? nested[key].map { .members($0) }) })
    }

    /// Answers from --answers FILE, then flags (which win, each replacement said), by question key; `fromFile` names
    /// the file of each answer still taken from it. A flag given twice with different answers was refused before the
    /// run (`usageProblems`).
    static func answers(
        from arguments: ParsedArguments, context: CommandContext
    ) throws(CommandError) -> (answers: [String: String], fromFile: [String: String], replaced: [String]) {
        var answers: [String: String] = [:]
        var fromFile: [String: String] = [:]
        var replaced: [String] = []
        if let path = arguments[Self.answersFile] {
            let file = try InputFile.read(path, context: context)
            answers = try AnswersFile.read(file.bytes, file: file.displayPath)
            for key in answers.keys { fromFile[key] = file.displayPath }
        }
        func set(_ key: String, _ value: String, flag: String) {
            if let file = fromFile.removeValue(forKey: key), let old = answers[key], old != value {
                replaced.append("\(flag)\(flag.hasSuffix("=") ? "" : " ")\(value) replaces \(file)'s answer '\(old)'.")
            }
            answers[key] = value
        }
        for (kind, argument) in questionOptions {
            let values = arguments[argument]
            switch kind.form {
            case .single:
                // The parser refuses a single answer's flag given twice.
                if let value = values.last { set(kind.key, value, flag: "--\(kind.flag)") }
            case .list:
                if !values.isEmpty { set(kind.key, values.joined(separator: ", "), flag: "--\(kind.flag)") }
            case .perItem(let item):
                // A value without `item=`, or an item given two answers, was refused before the run (`usageProblems`).
                for (name, answer) in itemAnswers(kind, item: item, values).answers {
                    set(kind.key + "." + name, answer, flag: "--\(kind.flag) \(name)=")
                }
            }
        }
        return (answers, fromFile, replaced)
    }
}
