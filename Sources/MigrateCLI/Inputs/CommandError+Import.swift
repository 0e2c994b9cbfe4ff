import MigrateImport

extension CommandError {
    /// An importer's error as a command's, with the file and place: bad data exits 65, a missing input 66.
    init(_ error: ImportError) {
        self.init(error.kind == .badData ? .dataError : .noInput, error.description)
    }
}
