/// Writes EmbeddedTemplates.swift from the Templates/ folder. A test compares the checked-in file
/// with this output and re-records it when MIGRATE_RECORD=1 is set.
public enum EmbeddedTemplatesSource {
    public static func render(_ templates: [String: String]) -> String {
        // The templates are data, kept byte for byte: the project's `swift format` leaves the file alone.
        var text = """
            // swift-format-ignore-file
            // Generated from Templates/ by the EmbeddedTemplatesTests test; do not edit.
            // Re-record after changing a template: MIGRATE_RECORD=1 swift test --filter EmbeddedTemplates

            enum EmbeddedTemplates {
              static let all: [String: String] = [

            """
        for name in templates.keys.sorted() {
            let source = templates[name]!
            var hashes = "#"
            // A raw literal ends at `"""#` and interpolates at `\#(`: use enough hashes to avoid both.
            while source.contains("\"\"\"" + hashes) || source.contains("\\" + hashes) { hashes += "#" }
            // A multi-line literal drops the newline before its closing delimiter, so add one.
            text += "    \"\(name)\": \(hashes)\"\"\"\n\(source)\n\"\"\"\(hashes),\n"
        }
        text += "  ]\n}\n"
        return text
    }
}
