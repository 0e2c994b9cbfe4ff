import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a set of files could not be written. Nothing visible changed unless `renamed` lists files.
public struct FileWriteError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// ENOSPC or EDQUOT: the disk (or the user's quota) is full.
        case noSpace
        /// EACCES, EPERM or EROFS.
        case permission
        /// A folder on the way is a file.
        case notAFolder
        /// EIO, EFBIG, EPIPE: the device failed or refused the bytes while they were written.
        case io
        case other
    }

    public var kind: Kind
    /// The file (as the user named it) being written when it failed.
    public var display: String
    public var message: String
    /// Files already renamed into place when a rename failed: each holds its complete new content.
    public var renamed: [String] = []

    public var description: String { "cannot write \(display): \(message)" }
}

/// Writes several files all-or-nothing, as far as a POSIX file system allows.
///
/// Every file is written first, to a temporary name in its target's folder (created exclusively, so
/// nothing of the user's is overwritten); only when all are complete are they renamed over their
/// targets, in the order given, so the caller puts the manifest last. Any failure before the renames
/// removes every temporary file and every folder this transaction created, leaving nothing changed.
/// A rename can only fail for reasons outside migrate (the folder removed meanwhile); then the files
/// before it hold their new content, the rest their old, and no temporary file remains.
///
/// A target that is a symbolic link is written through: the temporary file goes next to the link's
/// final target, takes the target's permissions, and replaces the target; the link stays a link.
public struct FileTransaction: Sendable {
    public struct Entry: Sendable {
        /// Absolute path.
        public var path: String
        /// The path as messages show it.
        public var display: String
        /// What is written.
        public var contents: Contents

        /// An entry's bytes, or text written as its UTF-8 as it is held, without a copy of megabytes of generated code.
        public enum Contents: Sendable {
            case bytes([UInt8])
            case text(String)
        }

        public init(path: String, display: String, bytes: [UInt8]) {
            self.init(path: path, display: display, contents: .bytes(bytes))
        }

        public init(path: String, display: String, text: String) {
            self.init(path: path, display: display, contents: .text(text))
        }

        public init(path: String, display: String, contents: Contents) {
            self.path = path
            self.display = display
            self.contents = contents
        }

        /// Calls `body` with the bytes to write.
        func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
            switch contents {
            case .bytes(let bytes): bytes.withUnsafeBytes(body)
            case .text(var text): text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
            }
        }
    }

    /// A step the fault hook can fail, for tests: creating an entry's temporary file, writing its
    /// bytes (the temporary file exists), or renaming it over the target.
    public enum Step: Sendable, Hashable {
        case create(display: String)
        case write(display: String)
        case rename(display: String)
    }

    /// Called before each step; returning an errno fails the step as if the system had (ENOSPC, EIO…).
    public var fault: (@Sendable (Step) -> Int32?)?

    public init(fault: (@Sendable (Step) -> Int32?)? = nil) {
        self.fault = fault
    }

    /// The transaction `generate` uses: no faults, unless `MIGRATE_TEST_KILL_AT_STEP=N` or `N:KILL`/`N:TERM`
    /// is set, which the kill-during-write tests use to end a real process at its Nth step (counted from 0,
    /// in the order `Step`s come) with that signal, as a kill or Ctrl-C would. SIGTERM is the default.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> FileTransaction {
        guard let setting = environment["MIGRATE_TEST_KILL_AT_STEP"] else { return FileTransaction() }
        let parts = setting.split(separator: ":")
        guard let step = parts.first.flatMap({ Int($0) }) else { return FileTransaction() }
        let signal = parts.count > 1 && parts[1] == "KILL" ? SIGKILL : SIGTERM
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var seen = 0
            func next() -> Int {
                lock.withLock {
                    defer { seen += 1 }
                    return seen
                }
            }
        }
        let counter = Counter()
        return FileTransaction(fault: { _ in
            if counter.next() == step {
                // A test runner may start migrate with signals blocked (its threads block them); a kill from a
                // shell reaches a process that doesn't, so unblock it here before it is raised.
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, signal)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(signal)
            }
            return nil
        })
    }

    /// Removes temporary files that an earlier migrate, killed with SIGKILL (which no handler can catch),
    /// left beside the targets: `.NAME.migrate-PID-N` for one of this transaction's file names, from a
    /// process that no longer runs. Nothing else in the folder is touched.
    static func removeStaleTemporaries(targets: [String]) {
        var names: [String: Set<String>] = [:]
        for target in targets {
            names[(target as NSString).deletingLastPathComponent, default: []].insert((target as NSString).lastPathComponent)
        }
        for (folder, owned) in names {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for entry in entries where entry.hasPrefix(".") {
                // `.migrate-generated.json` itself starts with the marker: a temporary has a name before it.
                guard let marker = entry.range(of: ".migrate-", options: .backwards), marker.lowerBound > entry.startIndex else { continue }
                let name = String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound])
                let suffix = entry[marker.upperBound...].split(separator: "-")
                guard owned.contains(name), suffix.count == 2, let pid = Int32(suffix[0]), UInt32(suffix[1]) != nil,
                    pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
                else { continue }
                unlink(folder + "/" + entry)
            }
        }
    }

    /// Where an entry's bytes end up: the target of a symbolic link (followed to the end), or the path itself.
    public static func resolvedTarget(_ path: String) -> String {
        var current = path
        var hops = 0
        while hops < 40, let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) {
            current = destination.hasPrefix("/") ? destination : (current as NSString).deletingLastPathComponent + "/" + destination
            hops += 1
        }
        return current
    }

    /// Writes every entry or none; returns each entry's resolved target (differs from `path` for a symlink).
    @discardableResult
    public func commit(_ entries: [Entry]) throws(FileWriteError) -> [String] {
        var createdFolders: [String] = []
        var temporaries: [(temporary: String, target: String)] = []
        PendingTemporaries.installHandlers()
        defer { PendingTemporaries.remove(temporaries.map(\.temporary)) }
        func rollBack() {
            for item in temporaries { unlink(item.temporary) }
            for folder in createdFolders.reversed() { rmdir(folder) }
        }
        let targets = entries.map { Self.resolvedTarget($0.path) }
        // A run killed while it renamed its files left a journal: finish its renames before anything is replaced.
        Self.recoverInterrupted(folders: targets.map { ($0 as NSString).deletingLastPathComponent })
        Self.removeStaleTemporaries(targets: targets)
        for (entry, target) in zip(entries, targets) {
            do throws(FileWriteError) {
                try makeFolder((target as NSString).deletingLastPathComponent, for: entry, created: &createdFolders)
                let temporary = try writeTemporary(entry, target: target)
                temporaries.append((temporary, target))
            } catch {
                rollBack()
                throw error
            }
        }
        // Several files are one change: a journal of the renames, complete before the first, lets a run killed
        // between two renames be finished by the signal handler or, after SIGKILL, by the next run.
        var journal: String?
        if temporaries.count > 1 {
            do throws(FileWriteError) {
                journal = try Self.writeJournal(temporaries, folder: (targets[0] as NSString).deletingLastPathComponent, for: entries[0])
            } catch {
                rollBack()
                throw error
            }
            PendingTemporaries.commit(temporaries.map { ($0.temporary, $0.target) }, journal: journal!)
        }
        defer { if let journal { PendingTemporaries.finishCommit(journal: journal) } }
        var renamed: [String] = []
        for (index, entry) in entries.enumerated() {
            let item = temporaries[index]
            var failure = fault?(.rename(display: entry.display)) ?? 0
            if failure == 0 && rename(item.temporary, item.target) != 0 { failure = errno }
            if failure != 0 {
                for later in temporaries[index...] { unlink(later.temporary) }
                if let journal { unlink(journal) }
                var error = Self.error(failure, entry)
                error.renamed = renamed
                throw error
            }
            renamed.append(entry.display)
        }
        if let journal { unlink(journal) }
        return targets
    }

    /// The journal's name prefix: `.migrate-journal-PID-N` in the first target's folder.
    static let journalPrefix = ".migrate-journal-"

    /// Writes the renames to come (`temporary`, `target`, one pair a line, each path as a JSON string) under a name of
    /// its own, then renames it into place: a journal exists whole or not at all.
    static func writeJournal(_ renames: [(temporary: String, target: String)], folder: String, for entry: Entry) throws(FileWriteError) -> String {
        let name = journalPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let path = folder + "/" + name
        var text = "migrate journal 1\n"
        // A tab apart: JSON writes a tab inside a string as \t, so the separator can't be part of a path.
        for item in renames { text += JSONWriter.quoted(item.temporary) + "\t" + JSONWriter.quoted(item.target) + "\n" }
        text += "end\n"
        let partial = path + ".partial"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw error(errno, entry) }
        PendingTemporaries.add(partial)
        defer { PendingTemporaries.remove([partial]) }
        var failure = StreamOutput.writeAll(Array(text.utf8), to: descriptor)
        if failure == 0 && fsync(descriptor) != 0 && errno != EINVAL { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(partial, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(partial)
            throw error(failure, entry)
        }
        return path
    }

    /// Finishes what runs killed while renaming left in `folders`: each complete journal of a process that no longer
    /// runs has its remaining renames done (every file was whole before the first rename), then is removed. A journal
    /// never completed (`.partial`) is removed; its temporary files go with the other stale ones.
    public static func recoverInterrupted(folders: [String]) {
        for folder in Set(folders) {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for entry in entries.sorted() where entry.hasPrefix(journalPrefix) {
                let isPartial = entry.hasSuffix(".partial")
                let owner = entry.dropFirst(journalPrefix.count).split(separator: "-").first.flatMap { Int32($0) }
                guard let owner, owner != getpid(), kill(owner, 0) != 0, errno == ESRCH else { continue }
                let path = folder + "/" + entry
                defer { unlink(path) }
                guard !isPartial, let data = FileManager.default.contents(atPath: path) else { continue }
                let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                guard lines.first == "migrate journal 1", lines.contains("end") else { continue }
                for line in lines.dropFirst() where line.hasPrefix("\"") {
                    let fields = line.split(separator: "\t")
                    guard fields.count == 2, let temporary = try? JSONParser.parse(String(fields[0])).stringValue,
                        let target = try? JSONParser.parse(String(fields[1])).stringValue
                    else { continue }
                    if FileManager.default.fileExists(atPath: temporary) { rename(temporary, target) }
                }
            }
        }
    }

    private func makeFolder(_ folder: String, for entry: Entry, created: inout [String]) throws(FileWriteError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw FileWriteError(kind: .notAFolder, display: entry.display, message: "\(folder) is a file, not a folder")
            }
            return
        }
        try makeFolder((folder as NSString).deletingLastPathComponent, for: entry, created: &created)
        if mkdir(folder, 0o777) != 0 && errno != EEXIST { throw Self.error(errno, entry) }
        created.append(folder)
    }

    /// Creates `.NAME.migrate-PID-N` next to the target exclusively and writes all of the bytes to it.
    private func writeTemporary(_ entry: Entry, target: String) throws(FileWriteError) -> String {
        if let failure = fault?(.create(display: entry.display)), failure != 0 { throw Self.error(failure, entry) }
        let (descriptor, temporary, modeFailure) = try Self.createTemporary(beside: target, for: entry)
        var failure = modeFailure
        entry.withBytes { buffer in
            var offset = 0
            while failure == 0 && offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno != EINTR { failure = errno }
                } else {
                    offset += count
                }
            }
        }
        if failure == 0 && fsync(descriptor) != 0 && errno != EINVAL { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0, let injected = fault?(.write(display: entry.display)), injected != 0 { failure = injected }
        if failure != 0 {
            unlink(temporary)
            PendingTemporaries.remove([temporary])
            throw Self.error(failure, entry)
        }
        return temporary
    }

    /// Creates `.NAME.migrate-PID-N` next to `target` exclusively, registered for the signal handler, with
    /// the target's permissions when it exists (otherwise 0666 less the umask, as for any new file).
    /// - Returns: the open descriptor, the temporary's path, and errno if the permissions couldn't be set.
    static func createTemporary(beside target: String, for entry: Entry) throws(FileWriteError) -> (Int32, String, Int32) {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var info = stat()
        let existingMode: mode_t? = stat(target, &info) == 0 ? info.st_mode & 0o7777 : nil
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<100 {
            temporary = folder + "/." + name + ".migrate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw Self.error(errno, entry) }
        PendingTemporaries.add(temporary)
        let modeFailure: Int32 = existingMode.map { fchmod(descriptor, $0) != 0 ? errno : 0 } ?? 0
        return (descriptor, temporary, modeFailure)
    }

    /// The error for an errno while writing an entry.
    public static func error(_ code: Int32, _ entry: Entry) -> FileWriteError {
        switch code {
        case ENOSPC, EDQUOT:
            return FileWriteError(kind: .noSpace, display: entry.display, message: "no space left on the disk (\(String(cString: strerror(code))))")
        case EACCES, EPERM:
            return FileWriteError(kind: .permission, display: entry.display, message: "permission denied")
        case EROFS:
            return FileWriteError(kind: .permission, display: entry.display, message: "the disk is read-only")
        case EIO, EFBIG, EPIPE:
            return FileWriteError(kind: .io, display: entry.display, message: String(cString: strerror(code)))
        default:
            return FileWriteError(kind: .other, display: entry.display, message: String(cString: strerror(code)))
        }
    }
}

/// Temporary files that exist right now, so SIGINT, SIGTERM or SIGHUP (Ctrl-C, a kill, a closed terminal)
/// can remove them before the process ends. The handler only calls unlink(2), signal(2) and raise(3),
/// which are async-signal-safe; paths are C strings in a fixed table. SIGKILL can't be caught.
public enum PendingTemporaries {
    static let capacity = 4_096
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    static let lock = NSLock()
    nonisolated(unsafe) static var installed = false
    /// While several files are renamed into place: each slot's target (the temporary in `slots`), and the journal to
    /// remove once they are. The handler renames these instead of removing them, so a change is finished, not halved.
    nonisolated(unsafe) static let targets: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let targets = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        targets.initialize(repeating: nil, count: capacity)
        return targets
    }()
    nonisolated(unsafe) static var journal: UnsafeMutablePointer<CChar>?

    /// From now on a signal finishes these renames (each temporary already registered) and removes the journal.
    static func commit(_ renames: [(temporary: String, target: String)], journal path: String) {
        lock.lock()
        defer { lock.unlock() }
        for (temporary, target) in renames {
            for index in 0..<capacity {
                if let pointer = slots[index], String(cString: pointer) == temporary {
                    targets[index] = strdup(target)
                    break
                }
            }
        }
        journal = strdup(path)
    }

    /// The renames are done (or abandoned): a signal goes back to removing temporaries.
    static func finishCommit(journal path: String) {
        lock.lock()
        defer { lock.unlock() }
        for index in 0..<capacity {
            if let target = targets[index] {
                targets[index] = nil
                free(target)
            }
        }
        if let pointer = journal {
            journal = nil
            free(pointer)
        }
    }

    static func add(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for index in 0..<capacity where slots[index] == nil {
            slots[index] = strdup(path)
            return
        }
    }

    static func remove(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        let set = Set(paths)
        for index in 0..<capacity {
            if let pointer = slots[index], set.contains(String(cString: pointer)) {
                slots[index] = nil
                free(pointer)
                if let target = targets[index] {
                    targets[index] = nil
                    free(target)
                }
            }
        }
    }

    /// The temporary files registered now (for tests).
    public static var paths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return (0..<capacity).compactMap { slots[$0].map { String(cString: $0) } }
    }

    /// What the signal handler does: unlink every registered temporary file, or, while several files are being
    /// renamed into place, finish the renames and remove their journal.
    public static func unlinkAll() {
        for index in 0..<capacity {
            guard let pointer = slots[index] else { continue }
            if let target = targets[index] {
                rename(pointer, target)
            } else {
                unlink(pointer)
            }
        }
        if let journal { unlink(journal) }
    }

    static func installHandlers() {
        lock.lock()
        defer { lock.unlock() }
        guard !installed else { return }
        installed = true
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number) { received in
                PendingTemporaries.unlinkAll()
                signal(received, SIG_DFL)
                raise(received)
            }
            // A signal the user chose to ignore (`nohup migrate generate …` ignores SIGHUP) stays ignored.
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { signal(number, SIG_IGN) }
        }
    }
}
