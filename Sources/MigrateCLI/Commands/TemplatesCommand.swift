import MigrateSupport

/// `migrate templates list|show`: the built-in templates, to start your own from a copy.
enum TemplatesCommand {
    static let listTemplates = GenerateCommand.templates.with(help: "Also list the templates in this folder, which override built-in ones.")
    static let showTemplates = GenerateCommand.templates.with(help: "Look in this folder first.")
    static let templateName = Argument<String>.positional("name", help: "A template name such as swift/Entitlements.")

    static let spec = CommandSpec(
        name: "templates",
        abstract: "List or show the templates migrate generate renders.",
        discussion: """
            Start your own from a copy: migrate templates show swift/Upsell > MyTemplates/swift/Upsell.mustache, \
            then migrate generate --templates MyTemplates. Templates/CONTEXT.md in the repository documents \
            every value a template sees.
            """.wrappedForHelp,
        subcommands: [
            CommandSpec(
                name: "list", abstract: "List template names (<kind>/<variant>).",
                arguments: [listTemplates],
                run: { arguments, context throws(CommandError) in
                    let folder = arguments[listTemplates]
                    let library = try GenerateCommand.templateLibrary(folder, context: context)
                    var text = ""
                    for name in library.names {
                        text += name + (library.overridden.contains(name) ? "  (from \(folder ?? ""))" : "") + "\n"
                    }
                    context.standardOutput.write(text)
                    return .success
                }),
            CommandSpec(
                name: "show", abstract: "Print one template's source.",
                arguments: [templateName, showTemplates],
                run: { arguments, context throws(CommandError) in
                    let library = try GenerateCommand.templateLibrary(arguments[showTemplates], context: context)
                    let name = arguments[templateName]
                    guard let source = library.templates[name] else {
                        throw .usage("Unknown template '\(name)'.\(Suggestions.didYouMean(name, in: library.names)) See 'migrate templates list'.")
                    }
                    context.standardOutput.write(source)
                    return .success
                }),
        ])
}
