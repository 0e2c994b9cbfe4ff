import Foundation
import MigratePlan
import MigrateSupport

/// Where templates come from: the built-in set compiled into the binary, overridden by a folder.
///
/// The built-in templates are compiled into the binary from Templates/ by the EmbedResources
/// build-tool plugin, so an installed binary copied alone works: there is no resource bundle to lose.
public struct TemplateLibrary: Sendable {
    /// Source text by name (`swift/Entitlements`).
    public let templates: [String: String]
    /// Names that came from the override folder.
    public let overridden: Set<String>

    public static let builtIn = TemplateLibrary(templates: EmbeddedTemplates.all, overridden: [])

    public init(templates: [String: String], overridden: Set<String>) {
        self.templates = templates
        self.overridden = overridden
    }

    /// The built-in templates, with every `<kind>/<variant>.mustache` under `folder` taking precedence.
    public static func overriding(with folder: String) throws(TemplateLibraryError) -> TemplateLibrary {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TemplateLibraryError(message: "no templates folder at that path")
        }
        var templates = EmbeddedTemplates.all
        var overridden = Set<String>()
        for name in try files(in: folder) {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name + ".mustache") else {
                throw TemplateLibraryError(message: "\(name).mustache cannot be read")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw TemplateLibraryError(message: "\(name).mustache is not UTF-8")
            }
            templates[name] = text
            overridden.insert(name)
        }
        // A misspelled override would be silently ignored: every file must replace a built-in
        // template or be a partial that another template includes.
        for name in overridden.sorted() where EmbeddedTemplates.all[name] == nil {
            let included = overridden.contains { other in
                templates[other]!.contains("{{>\(name)}}") || templates[other]!.contains("{{> \(name)}}")
            }
            guard included else {
                throw TemplateLibraryError(
                    message: "\(name).mustache matches no built-in template and no template includes it as a partial, so it would be ignored."
                        + Suggestions.didYouMean(name, in: EmbeddedTemplates.all.keys)
                        + " Name it after the template it replaces ('migrate templates list' shows them)",
                    isUnknownName: true)
            }
        }
        return TemplateLibrary(templates: templates, overridden: overridden)
    }

    /// Template names (`kind/variant`) found under a folder, sorted.
    public static func files(in folder: String) throws(TemplateLibraryError) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
            throw TemplateLibraryError(message: "the folder cannot be read")
        }
        var names: [String] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".mustache") else { continue }
            names.append(String(path.dropLast(".mustache".count)))
        }
        return names.sorted()
    }

    public var names: [String] { templates.keys.sorted() }

    /// A parsed template, with "did you mean" when the name is unknown.
    public func template(named name: String) throws(TemplateError) -> Template {
        guard let source = templates[name] else {
            let suggestion = names.min { Self.distance(name, $0) < Self.distance(name, $1) }
            throw TemplateError(
                template: name, line: 0, message: "no template named '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
        }
        return try Template(name: name, text: source)
    }

    /// A renderer whose partials come from this library.
    public var renderer: TemplateRenderer {
        let templates = self.templates
        return TemplateRenderer(isStrict: true, partialSource: { templates[$0] })
    }

    private static func distance(_ a: String, _ b: String) -> Int {
        let common = zip(a, b).prefix { $0 == $1 }.count
        return max(a.count, b.count) - common
    }
}

public struct TemplateLibraryError: Error, Sendable {
    public var message: String
    /// A file in the folder names no template (exit 65 rather than 66).
    public var isUnknownName = false
}
