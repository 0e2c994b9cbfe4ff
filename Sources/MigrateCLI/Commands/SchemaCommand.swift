import MigratePlan

/// `migrate schema`: the JSON Schema of the plan, for editor completion.
enum SchemaCommand {
    static let spec = CommandSpec(
        name: "schema",
        abstract: "Print the JSON Schema of migration.json.",
        discussion: """
            Save it beside your plan and point "$schema" at it for completion and validation in \
            editors: migrate schema > migration.schema.json
            """.wrappedForHelp,
        run: { _, context throws(CommandError) in
            context.standardOutput.write(PlanSchema.text)
            return .success
        })
}
