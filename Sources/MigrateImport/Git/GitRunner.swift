import Foundation
import MigrateSupport

/// Runs `git` as a subprocess, a handful of times per import rather than once per commit.
struct GitRunner {
    let executable: String
    let repository: String
    let displayPath: String

    /// Finds `git` on the given PATH.
    static func locate(environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/bin:/bin:/usr/local/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs git with `arguments`, writing `input` to its stdin, and returns stdout.
    func run(_ arguments: [String], input: [UInt8]? = nil) throws(ImportError) -> (status: Int32, output: [UInt8], error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-C", repository] + arguments
        // A fixed, plain environment: no pager, no colour, no user config that changes the output format.
        process.environment = ["GIT_PAGER": "cat", "LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = input == nil ? nil : Pipe()
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ImportError(.toolMissing, file: displayPath, "cannot run git (\(executable)): \(error.localizedDescription)")
        }
        // Read stderr and feed stdin on other threads so that no pipe fills up and blocks git.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        if let inputPipe, let input {
            DispatchQueue.global().async(group: group) {
                inputPipe.fileHandleForWriting.write(Data(input))
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        return (process.terminationStatus, Array(data), String(decoding: errorData, as: UTF8.self))
    }
}
