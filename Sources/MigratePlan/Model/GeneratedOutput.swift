/// Facts about what `migrate generate` writes that other parts must recognise (the wizard skips its
/// output when it looks for a project's own files).
public enum GeneratedOutput {
    /// The file in an output folder that records the checksum of every generated file.
    public static let manifestName = ".migrate-generated.json"
}
