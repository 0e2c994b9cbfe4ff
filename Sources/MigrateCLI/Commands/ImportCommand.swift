import Foundation
import MigrateImport
import MigratePlan

/// `migrate import SOURCE …`: reads what developers already have and merges it into the plan.
enum ImportCommand {
    /// How new releases were sold, for `--model`.
    enum SaleModel: String, CaseIterable, Sendable { case paid, free }

    static let plan = Argument<String>.option(
        "plan", valueName: "file", help: "The plan to merge into; created when absent.", default: "migration.json"
    ).naming(.inputOutput)
    static let dryRun = Argument<Bool>.flag("dry-run", help: "Show what would change; write nothing.")
    static let overwrite = Argument<Bool>.flag(
        "overwrite", help: "Where the plan and the source disagree, take the source's value (the plan's wins otherwise).")
    static let appName = Argument<String?>.option("app-name", valueName: "name", help: "The app's name, for a new plan when the source has none.")
    static let bundleID = Argument<String?>.option("bundle-id", valueName: "id", help: "The bundle id, for a new plan when the source has none.")
    static let platforms = Argument<[Platform]>.choices(
        "platform", valueName: "platform", help: "A platform, for a new plan when the source has none.")
    static let shared: [any DeclaredArgument] = [plan, dryRun, overwrite, appName, bundleID, platforms]

    static let model = Argument<SaleModel?>.choice(
        "model", valueName: "model", help: "How new releases were sold (default: paid, with a warning).")
    static let price = Argument<Price?>.converted(
        "price", valueName: "price", help: "The download price of new paid releases, such as 2.99.",
        expected: "Expected a decimal price above 0 such as 2.99 (a free release is '--model free')."
    ) { text in (try? Price(text)).flatMap { $0.isZero ? nil : $0 } }
    static let releaseOptions: [any DeclaredArgument] = [model, price]

    /// How `--model` and `--price` go together, for the validation step of the sources that take them.
    static func releaseProblems(_ arguments: ParsedArguments) -> [String] {
        guard arguments[Self.model] == .free, arguments[Self.price] != nil else { return [] }
        return ["'--price' applies only to paid releases; leave it out with '--model free'."]
    }

    static let file = Argument<String>.positional("file", help: "The .storekit file.").naming(.input)
    static let responseFiles = Argument<[String]>.positionals("files", help: "JSON response files.").naming(.input)
    static let reportFiles = Argument<[String]>.positionals("files", help: "Summary Sales report files (.txt or .txt.gz).").naming(.input)
    static let projectPath = Argument<String>.positional(
        "path", help: "A .xcodeproj, its project.pbxproj, a folder holding one, or an Info.plist.")
    static let released = Argument<Date?>.date("released", help: "Add the current version as a release that went live at this moment.")
    static let repository = Argument<String>.positional("repository", help: "The repository's folder.")
    static let refs = Argument<[String]>.options(
        "ref", valueName: "ref", help: "Where to start walking (default HEAD); tags are always walked.")
    static let paths = Argument<[String]>.options(
        "path", valueName: "path", help: "Only read these files or folders (relative to the repository).")

    static let spec = CommandSpec(
        name: "import",
        abstract: "Import products, releases and sales from files you already have.",
        discussion: """
            Reads one source and merges it into the plan (--plan, default migration.json, created when absent), \
            reporting what was added, changed and ignored. Nothing you wrote is dropped: where the plan and the \
            source disagree, the plan's value is kept and the conflict reported, unless --overwrite. --dry-run \
            shows the change without writing. Exits 65 when a source cannot be read, 66 when it is missing, 64 \
            when a new plan needs a flag; the plan on disk is then unchanged.
            """.wrappedForHelp,
        subcommands: [storekit, asc, sales, xcode, git, licenses])

    static let storekit = CommandSpec(
        name: "storekit", abstract: "Products from an Xcode StoreKit configuration (.storekit, formats 1.0–5.0).",
        arguments: [file] + shared,
        run: { arguments, context throws(CommandError) in
            let file = try InputFile.read(arguments[Self.file], context: context)
            let result = try importing { () throws(ImportError) in try StoreKitImporter.read(file.bytes, file: file.displayPath) }
            return try merge(result, arguments, context)
        })

    static let asc = CommandSpec(
        name: "asc", abstract: "Releases from App Store Connect API responses (appStoreVersions, builds, buildUploads).",
        discussion: """
            Pass every page of a paged response (or one file holding them as a JSON array). The API records \
            no release date: each release says which date was used (earliestReleaseDate, else createdDate, \
            else the build's uploadedDate); correct "released" in the plan where you know better.
            """.wrappedForHelp,
        arguments: [responseFiles] + releaseOptions + shared,
        validate: { releaseProblems($0) },
        run: { arguments, context throws(CommandError) in
            var pages: [AppStoreConnectImporter.Page] = []
            for path in arguments[Self.responseFiles] {
                let file = try InputFile.read(path, context: context)
                pages.append(AppStoreConnectImporter.Page(file: file.displayPath, bytes: file.bytes))
            }
            let result = try importing { () throws(ImportError) in try AppStoreConnectImporter.read(pages) }
            return try merge(result, arguments, context)
        })

    static let sales = CommandSpec(
        name: "sales", abstract: "The install base from Sales and Trends summary reports (TSV, plain or gzipped).",
        arguments: [reportFiles] + shared,
        run: { arguments, context throws(CommandError) in
            var combined = ImportResult(source: "sales")
            let scope = try salesScope(arguments, context: context)
            for path in arguments[Self.reportFiles] {
                let file = try InputFile.read(path, context: context)
                combined.append(try SalesReportInput.read(file, scope: scope, context: context))
            }
            if scope == nil, let skus = combined.salesIdentity?.appSKUs, skus.count > 1 {
                throw .usage(
                    "the reports hold \(skus.count) apps (SKUs \(skus.sorted().prefix(5).joined(separator: ", "))): a Summary Sales report covers the whole account. Import into the app's plan (--plan), or name the app with --app-name and --bundle-id, so that only its rows are counted."
                )
            }
            return try merge(combined, arguments, context)
        })

    /// The app a sales report is read for: the plan's, when it exists; else the one `--app-name` or `--bundle-id`
    /// names; nil when nothing names it (a report of one app is then read whole).
    static func salesScope(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) -> SalesScope? {
        let planPath = arguments[Self.plan]
        if FileManager.default.fileExists(atPath: context.resolve(planPath)) {
            let loaded = try LoadedPlan.load(planPath, context: context)
            return SalesScope(plan: try loaded.requirePlan(context: context))
        }
        let name = arguments[Self.appName]
        let bundleID = arguments[Self.bundleID]
        guard name != nil || bundleID != nil else { return nil }
        return SalesScope(name: name ?? "", bundleID: bundleID ?? "")
    }

    static let xcode = CommandSpec(
        name: "xcode", abstract: "The current version, bundle id and platforms from an Xcode project or Info.plist.",
        arguments: [projectPath, released] + releaseOptions + shared,
        validate: { releaseProblems($0) },
        run: { arguments, context throws(CommandError) in
            let path = arguments[Self.projectPath]
            let released = arguments[Self.released]
            let version = try importing { () throws(ImportError) in try XcodeImporter.read(path: context.resolve(path), displayPath: path) }
            var result = XcodeImporter.importResult(version, released: released, file: path)
            if let marketing = version.version {
                let target = version.target.map { " (target \($0))" } ?? ""
                context.standardOutput.write("Current version\(target): \(marketing)\(version.build.map { " (\($0))" } ?? "")\n")
                // Where each value came from, wrapped at the terminal's width under itself.
                for source in version.sources {
                    let fits = source.count + 2 <= TerminalWidth.columns
                    for (index, piece) in (fits ? [source] : TextTable.wrap(source, width: TerminalWidth.columns - 4)).enumerated() {
                        context.standardOutput.write((index == 0 ? "  " : "    ") + piece + "\n")
                    }
                }
            }
            result.source = "xcode"
            return try merge(result, arguments, context)
        })

    static let git = CommandSpec(
        name: "git", abstract: "The version history (marketing version, build, first-seen date) from git.",
        discussion: """
            Walks the commits that changed project.pbxproj, Info.plist and .xcconfig files (and every tag), \
            reading the app target's version at each change, with a few git processes whatever the history's \
            size. When the project tags its releases, the tagged versions are the releases, dated by their \
            annotated tags (or, for lightweight tags and tags made after the fact, by their commits); otherwise \
            every version change is imported. Commits are dated by author dates; a rewritten history is \
            reported. The version at HEAD is not a release unless it is tagged. Every date is written with \
            "releasedSource": "tag" or "commit": confirm the first free release's date in App Store Connect.
            """.wrappedForHelp,
        arguments: [repository, refs, paths] + GitVersionsFlags.arguments + releaseOptions + shared,
        validate: { GitVersionsFlags.usageProblems($0) + releaseProblems($0) },
        run: { arguments, context throws(CommandError) in
            let path = arguments[Self.repository]
            let refs = arguments[Self.refs]
            let taggedOnly = GitVersionsFlags.resolve(arguments)
            let options = GitImporter.Options(
                refs: refs.isEmpty ? ["HEAD"] : refs, paths: arguments[Self.paths], taggedOnly: taggedOnly,
                environment: context.environment)
            let history = try importing { () throws(ImportError) in
                try GitImporter.read(repository: context.resolve(path), displayPath: path, options: options)
            }
            return try merge(history.result, arguments, context)
        })

    /// Runs an importer, turning its error into the command's: bad data exits 65, a missing input 66.
    static func importing<Imported>(_ body: () throws(ImportError) -> Imported) throws(CommandError) -> Imported {
        do {
            return try body()
        } catch {
            throw CommandError(error)
        }
    }

    static func merge(_ result: ImportResult, _ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let errorStyle = context.style(for: context.standardError)
        context.standardError.write(DiagnosticRenderer(file: nil, style: errorStyle).render(result.issues))

        let planPath = arguments[Self.plan]
        let absolute = context.resolve(planPath)
        var original: [UInt8]?
        let plan: MigrationPlan
        if FileManager.default.fileExists(atPath: absolute) {
            let loaded = try LoadedPlan.load(planPath, context: context)
            plan = try loaded.requirePlan(context: context)
            original = loaded.file.bytes
        } else {
            plan = try newPlan(result, arguments)
        }

        var options = MergeOptions(overwrite: arguments[Self.overwrite])
        switch (arguments[Self.model], arguments[Self.price]) {
        // A price with '--model free' was refused before the run (`releaseProblems`).
        case (.free, _): options.model = .free
        case (.paid, let price): options.model = .paid(price)
        case (nil, let price?): options.model = .paid(price)
        case (nil, nil): break
        }
        let merged: MigrationPlan
        let report: MergeReport
        do {
            (merged, report) = try PlanMerger.merge(result, into: plan, options: options)
        } catch {
            switch error {
            case .needsPrice(let releases):
                throw .usage(
                    "New releases are marked paid, and the plan has no paid release to copy a price from (\(releases.prefix(3).joined(separator: ", "))\(releases.count > 3 ? ", …" : "")). "
                        + "Give '--price' (such as --price 2.99), or '--model free'.")
            }
        }
        let analysis = result.releases.isEmpty ? nil : BuildNumberAnalysis.analyze(merged)
        let style = context.style(for: context.standardOutput)
        context.standardOutput.write(ImportReportRenderer.report(report, analysis: analysis, source: result.source, style: style))

        let text = PlanEncoder.encode(merged)
        // A merge must never produce a plan that no longer reads; refuse to write one.
        let check = PlanDecoder.decode(text)
        if check.hasErrors {
            let problems = check.diagnostics.filter { $0.severity == .error }.map { "  \($0.path.map { "\($0): " } ?? "")\($0.message)" }
            throw CommandError(
                .dataError, "the merged plan would not be valid, so \(planPath) was left unchanged:\n" + problems.joined(separator: "\n"))
        }
        let bytes = Array(text.utf8)
        if bytes == original {
            context.standardOutput.write("\(planPath) is unchanged.\n")
            return .success
        }
        if arguments[Self.dryRun] {
            context.standardOutput.write("\n--dry-run: \(planPath) was not written. It would change like this:\n")
            context.standardOutput.write(LineDiff.render(old: original.map { String(decoding: $0, as: UTF8.self) } ?? "", new: text, style: style))
            return .success
        }
        if original == nil {
            let written = try OutputFile.writeNewPlan(bytes, to: planPath, context: context)
            context.standardOutput.write("Created \(written.plan)" + (written.schema.map { " and \($0)" } ?? "") + ".\n")
        } else {
            let written = try OutputFile.write(bytes, to: planPath, context: context)
            context.standardOutput.write("Wrote \(written).\n")
        }
        return .success
    }

    /// A new plan from the flags, else what the source says; a usage error names the missing flag.
    static func newPlan(_ result: ImportResult, _ arguments: ParsedArguments) throws(CommandError) -> MigrationPlan {
        let planPath = arguments[Self.plan]
        let name = arguments[Self.appName] ?? result.app.name
        let bundleID = arguments[Self.bundleID] ?? result.app.bundleID
        var platforms = arguments[Self.platforms]
        if platforms.isEmpty { platforms = result.app.platforms }
        if platforms.isEmpty { platforms = Array(Set(result.releases.map(\.platform))).sorted() }
        let missing = [(name == nil, "--app-name"), (bundleID == nil, "--bundle-id"), (platforms.isEmpty, "--platform")].filter(\.0).map {
            "'\($0.1)'"
        }
        guard let name, let bundleID, !platforms.isEmpty else {
            let list = missing.count == 1 ? missing[0] : missing.dropLast().joined(separator: ", ") + " and " + missing.last!
            throw .usage("\(planPath) does not exist, and the \(result.source) source does not say enough to create it. Give \(list).")
        }
        return MigrationPlan(
            schemaReference: PlanSchema.fileName, app: AppInfo(name: name, bundleID: bundleID, platforms: Array(Set(platforms)).sorted()))
    }
}
