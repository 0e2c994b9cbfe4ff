import Foundation
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateSupport

/// `migrate generate PLAN --output DIR`: Swift code, tests, tables and a StoreKit configuration.
enum GenerateCommand {
    static let plan = CommonArguments.plan
    static let output = Argument<String>.converted(
        "output", short: "o", valueName: "dir", help: "The folder to write into (created if needed).", default: "Generated",
        expected: "Name a folder, such as --output Generated (or --output . for this one)."
    ) { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }.naming(.outputFolder)
    static let only = Argument<[OutputGroup]>.choices("only", valueName: "group", help: "Generate one group only. Repeatable.")
    static let access = Argument<GenerationOptions.Access>.choice(
        "access", valueName: "level", help: "Access level of the generated API.", default: .public)
    static let module = Argument<String>.converted(
        "module", valueName: "name", help: "The Swift module name, used for folders and @testable import.", default: "Freemium",
        expected: "Use a Swift identifier such as Freemium."
    ) { name in
        name.first?.isLetter == true && name.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII } ? name : nil
    }
    static let templates = Argument<String?>.option(
        "templates", valueName: "dir", help: "A folder of <kind>/<variant>.mustache templates that override the built-in ones.")
    static let dryRun = Argument<Bool>.flag("dry-run", help: "Print what would be created, updated or kept, and write nothing.")
    static let force = Argument<Bool>.flag("force", help: "Overwrite generated files that were edited by hand.")
    static let package = Argument<Bool>.flag(
        "package", help: "Write a Swift package: Package.swift, Sources/MODULE and Tests/MODULETests, so swift test runs the generated tests.")
    static let storeLayer = Argument<GenerationOptions.StoreLayer>.choice(
        "store-layer", valueName: "mode",
        help:
            "How the StoreKit layer ships: vendored copies its sources into MODULE/FreemiumStoreKit (its test double into MODULETests); dependency imports migrate's libraries.",
        default: .vendored)
    static let storeLayerPackage = Argument<String?>.option(
        "store-layer-package", valueName: "url-or-path",
        help: "With --package --store-layer dependency: where Package.swift finds migrate's package (a git URL or a local path).")
    static let server = Argument<Bool>.flag(
        "server",
        help:
            "Also the same decisions for the app's server: MODULEServer (Foundation only, builds on Linux) deciding from verified App Store Server API payloads, its tests, and SERVER.md."
    )
    static let prune = Argument<Bool>.flag(
        "prune", help: "Remove files an earlier generation wrote that this one no longer writes (unless edited by hand).")

    static let spec = CommandSpec(
        name: "generate",
        abstract: "Generate Swift code, tests, tables and a StoreKit configuration from a plan.",
        discussion: """
            Writes \(Generator.outputs(module: "MODULE").map(\.path).filter { !StoreLayerSources.isCopy($0) }.joined(separator: ", ")), \
            and the StoreKit layer's library, its sources copied into MODULE/FreemiumStoreKit/ and its test double's \
            into MODULETests/FreemiumStoreKitTesting/ (none with --store-layer dependency). \
            INTEGRATION.md says which file goes into which target and how to wire the StoreKit layer. \
            Output is byte-identical for the same plan. Each file carries a checksum; a file you edited \
            is kept unless you pass --force. Every file is written to a temporary next to it and renamed \
            into place only when all are written, the manifest last: nothing changes when any file can't \
            be written (a full disk, a read-only folder). A symlink is written through to its target.
            """.wrappedForHelp,
        arguments: [plan, output, only, access, module, templates, dryRun, force, package, storeLayer, storeLayerPackage, server, prune],
        validate: { usageProblems($0) },
        run: { arguments, context throws(CommandError) in try run(arguments, context) })

    /// How the options go together, every problem at once: the server's module needs public decisions, and a
    /// package that depends on migrate's library needs to know where it is.
    static func usageProblems(_ arguments: ParsedArguments) -> [String] {
        var problems: [String] = []
        if arguments[Self.server], arguments[Self.access] == .internal {
            problems.append("--server needs --access public: the server's module imports the app's decisions from another module.")
        }
        if arguments[Self.package], arguments[Self.storeLayer] == .dependency, arguments[Self.storeLayerPackage] == nil {
            problems.append(
                "--package --store-layer dependency needs --store-layer-package: the git URL of migrate's package, or a path to a clone "
                    + "(for example --store-layer-package ../migrate).")
        }
        return problems
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> ExitCode {
        let loaded = try LoadedPlan.load(arguments[Self.plan], context: context)
        // Code from a plan with launch-day errors would ship the error.
        let catalog = try loaded.requireCheckedCatalog(context: context, outcome: "nothing was generated")
        let library = try templateLibrary(arguments[Self.templates], context: context)
        let source = (loaded.file.displayPath as NSString).lastPathComponent
        // How the options go together was checked before the run (`usageProblems`).
        let options = GenerationOptions(
            access: arguments[Self.access], module: arguments[Self.module], sourceName: source, storeLayer: arguments[Self.storeLayer],
            storeLayerPackage: arguments[Self.storeLayerPackage], server: arguments[Self.server])
        let groups = Set(arguments[Self.only].isEmpty ? OutputGroup.allCases : arguments[Self.only])

        let files: [GeneratedFile]
        let progress = ProgressLine(output: context.standardError, label: "generating")
        do {
            files = try Generator(library: library, options: options, package: arguments[Self.package]).generate(
                catalog, only: groups, progress: progress.map { line in { line.update(status: $0) } })
        } catch {
            progress?.finish()
            throw CommandError(.dataError, "template \(error.description)")
        }
        progress?.finish()

        let outputDisplay = arguments[Self.output]
        let outputPath = context.resolve(outputDisplay)
        // What the app ran before this run: said once the files are written, so a layer update is noticed.
        let outdatedLayers = StoreLayerCopies.outdated(under: outputPath)
        // Each file is read once, though the planner and the orphan search both ask.
        var read: [String: String?] = [:]
        func existing(_ path: String) -> String? {
            if let known = read[path] { return known }
            let text = try? String(contentsOfFile: outputPath + "/" + path, encoding: .utf8)
            read[path] = text
            return text
        }
        let prune = arguments[Self.prune]
        // A manifest that lists every file it wrote says it all; an older one (or none) means searching.
        let candidates = OutputPlanner.manifestListsEveryFile(existing: existing) ? [] : generatedLookingFiles(in: outputPath)
        let orphans = OutputPlanner.orphans(of: files, candidates: candidates, existing: existing)
        let kept = prune ? [] : orphans.filter(\.isUnedited).map(\.path)
        let writes = OutputPlanner.plan(files, source: source, existing: existing, force: arguments[Self.force], keeping: kept)
        let style = context.style(for: context.standardOutput)
        func shown(_ path: String) -> String { (outputDisplay.hasSuffix("/") ? outputDisplay : outputDisplay + "/") + path }
        func orphanLines(removed: Bool) -> String {
            orphans.map { orphan in
                if orphan.isUnedited && prune {
                    return style.yellow(removed ? "removed  " : "remove   ") + shown(orphan.path) + " (no longer generated)\n"
                }
                let why = orphan.isUnedited ? "no longer generated; --prune removes it" : "no longer generated, edited by hand; kept"
                return style.dim("orphan   ") + shown(orphan.path) + " (\(why))\n"
            }.joined()
        }

        if arguments[Self.dryRun] {
            var text = ""
            for write in writes where write.path != OutputPlanner.manifestPath {
                switch write.action {
                case .create: text += style.green("create   ") + shown(write.path) + style.dim(" (\(write.linesAdded) lines)") + "\n"
                case .update:
                    text += style.yellow("update   ") + shown(write.path) + style.dim(" (+\(write.linesAdded) −\(write.linesRemoved) lines)") + "\n"
                case .unchanged: text += style.dim("unchanged " + shown(write.path)) + "\n"
                case .conflict:
                    text +=
                        style.red("keep     ") + shown(write.path)
                        + " (edited by hand; --force overwrites it, +\(write.linesAdded) −\(write.linesRemoved) lines)\n"
                }
            }
            text += orphanLines(removed: false)
            text += "Dry run: nothing was written.\n"
            context.standardOutput.write(text)
            return .success
        }

        let conflicts = writes.filter { $0.action == .conflict }
        if !conflicts.isEmpty {
            let list = conflicts.map { "  " + shown($0.path) }.joined(separator: "\n")
            throw CommandError(
                .cannotCreate,
                "these generated files were edited by hand, so nothing was written:\n\(list)\nMove your changes elsewhere, or pass --force to overwrite them (--dry-run shows the change)."
            )
        }
        try ensureWritable(outputPath, display: outputDisplay, folders: Set(writes.map { ($0.path as NSString).deletingLastPathComponent }))
        // Everything is rendered; write it all or nothing: data files first, the manifest last, so a
        // failure between renames leaves a manifest older than its files, never newer.
        let changed = writes.filter { $0.action == .create || $0.action == .update }
        let ordered = changed.filter { $0.path != OutputPlanner.manifestPath } + changed.filter { $0.path == OutputPlanner.manifestPath }
        let entries = ordered.map { FileTransaction.Entry(path: outputPath + "/" + $0.path, display: shown($0.path), text: $0.content) }
        let targets: [String]
        do {
            targets = try (context.fileTransaction ?? FileTransaction.standard()).commit(entries)
        } catch {
            if error.renamed.isEmpty { throw .writing(error, "; nothing was written.") }
            throw .writing(
                error,
                ". \(error.renamed.count) of \(entries.count) files already hold their new content and the rest their old; no temporary file is left. Run 'migrate generate' again once the cause is fixed."
            )
        }
        let written = changed.filter { $0.path != OutputPlanner.manifestPath }.count
        var throughLinks: [String: String] = [:]
        for (entry, target) in zip(entries, targets) where target != entry.path { throughLinks[entry.display] = target }
        let unchanged = writes.filter { $0.action == .unchanged && $0.path != OutputPlanner.manifestPath }.count
        var text = ""
        for write in writes where write.path != OutputPlanner.manifestPath && write.action != .unchanged {
            let link = throughLinks[shown(write.path)].map { " → " + $0 } ?? ""
            text += (write.action == .create ? style.green("created  ") : style.yellow("updated  ")) + shown(write.path) + link + "\n"
        }
        if prune {
            for orphan in orphans where orphan.isUnedited {
                do {
                    try FileManager.default.removeItem(atPath: outputPath + "/" + orphan.path)
                } catch {
                    throw CommandError(
                        .cannotCreate, "cannot remove \(shown(orphan.path)): \(error.localizedDescription); every new file was written.")
                }
            }
        }
        text += orphanLines(removed: true)
        // Reaching here, every generated file was written (an edited one stops the run): a copy is current
        // when this run generated it, and still old when `--only` left it out.
        let generated = Set(files.map(\.path))
        for copy in outdatedLayers {
            let kept = !generated.contains(copy.path)
            text +=
                "note: the StoreKit layer at \(shown(copy.path)) was \(copy.version.map { "version \($0)" } ?? "from before the library")"
                + (kept ? "; it is still not \(StoreLayerSources.version)\n" : ", now \(StoreLayerSources.version)\n")
        }
        text += "\(written) file\(written == 1 ? "" : "s") written, \(unchanged) unchanged in \(outputDisplay).\n"
        context.standardOutput.write(text)
        return .success
    }

    /// Swift and Markdown files below the output folder (where migrate puts its own), so files of an
    /// earlier generation that carry migrate's header are found even when no manifest lists them.
    static func generatedLookingFiles(in folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            if path.split(separator: "/").count > 3 {
                enumerator.skipDescendants()
                continue
            }
            if GeneratedFileHeader.canCarryHeader(path) { paths.append(path) }
            if paths.count >= 10_000 { break }
        }
        return paths
    }

    static func templateLibrary(_ folder: String?, context: CommandContext) throws(CommandError) -> TemplateLibrary {
        guard let folder else { return .builtIn }
        do {
            return try TemplateLibrary.overriding(with: context.resolve(folder))
        } catch {
            throw CommandError(error.isUnknownName ? .dataError : .noInput, "\(folder): \(error.message).")
        }
    }

    /// Fails before anything is written when the output folder (or a subfolder) can't be created or written.
    static func ensureWritable(_ path: String, display: String, folders: Set<String>) throws(CommandError) {
        let manager = FileManager.default
        for folder in folders.sorted() {
            let full = folder.isEmpty ? path : path + "/" + folder
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: full, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw CommandError(.cannotCreate, "cannot write into \(display)/\(folder): it is a file, not a folder.")
                }
                guard manager.isWritableFile(atPath: full) else {
                    throw CommandError(
                        .cannotCreate,
                        "cannot write into \(folder.isEmpty ? display : display + "/" + folder): permission denied; nothing was written.")
                }
            } else {
                // The nearest existing ancestor must let us create the folder.
                var ancestor = (full as NSString).deletingLastPathComponent
                while !manager.fileExists(atPath: ancestor, isDirectory: &isDirectory) && ancestor != "/" {
                    ancestor = (ancestor as NSString).deletingLastPathComponent
                }
                guard isDirectory.boolValue, manager.isWritableFile(atPath: ancestor) else {
                    throw CommandError(.cannotCreate, "cannot create \(display): permission denied; nothing was written.")
                }
            }
        }
    }
}
