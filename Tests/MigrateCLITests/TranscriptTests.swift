import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

/// The transcripts in the README and the manual (`Documentation/Migrate.docc`) are what `migrate` prints:
/// every ```console block is run, command by command, and its output compared.
///
/// - A line starting with `$ migrate ` is a command; the lines after it, up to the next `$ `, are what it
///   prints (standard output, then standard error). A line that is only `…` stands for any number of lines.
/// - A command line ending in ` \` goes on on the next line, as in a shell, so a long command fits the page.
/// - `MIGRATE_RECORD=1` writes what each command printed over a transcript that differs, keeping the lines
///   before and after a single `…`; a transcript with several `…` is left for a person to edit.
/// - The commands of one page run in order in one scratch folder outside any git repository, holding a copy of
///   `Examples`, so a tour's `init` writes the plan its `check` reads.
/// - A block that can't run here (a terminal session, another program's command) is preceded by
///   `<!-- not run: REASON -->`, which DocC and GitHub don't show.
@Suite("Transcripts in the README and the manual", .timeLimit(.minutes(20)))
struct TranscriptTests {
    static let catalog = "Documentation/Migrate.docc"

    /// The README and every page of the catalog, by path from the repository root.
    static let pages: [String] = {
        let folder = repositoryRoot.appendingPathComponent(catalog)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return ["README.md"] + files.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    }()

    struct Block {
        var line: Int
        var text: [String]
        var skipReason: String?
    }

    /// Every ```console block of a page, with its line and the reason it isn't run, if it says one.
    static func blocks(in text: String) -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```console" else {
                index += 1
                continue
            }
            let previous = index > 0 ? lines[index - 1] : ""
            let reason =
                previous.hasPrefix("<!-- not run: ") && previous.hasSuffix(" -->")
                ? String(previous.dropFirst("<!-- not run: ".count).dropLast(" -->".count)) : nil
            var body: [String] = []
            var end = index + 1
            while end < lines.count && !lines[end].hasPrefix("```") {
                body.append(lines[end])
                end += 1
            }
            blocks.append(Block(line: index + 1, text: body, skipReason: reason))
            index = end + 1
        }
        return blocks
    }

    /// The words of a command line: whitespace separates them, quotes group them, `#` starts a comment.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "#" && !inWord {
                break
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Nil when `actual` is what `expected` shows (each `…` line standing for any lines), else where they part.
    static func mismatch(expected: [String], actual: [String]) -> String? {
        let expected = expected.map { $0.trimmingTrailingSpaces }
        let actual = actual.map { $0.trimmingTrailingSpaces }
        func match(_ e: Int, _ a: Int) -> Bool {
            if e == expected.count { return a == actual.count }
            if expected[e] == "…" { return (a...actual.count).contains { match(e + 1, $0) } }
            return a < actual.count && expected[e] == actual[a] && match(e + 1, a + 1)
        }
        if match(0, 0) { return nil }
        let first = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 && $0.element.0 != "…" }
        if let first { return "line \(first.offset + 1): expected «\(first.element.0)», got «\(first.element.1)»" }
        return "expected \(expected.count) lines, got \(actual.count)"
    }

    /// The command that starts at `start` of a block's lines, joining lines that end in ` \`, and the index of
    /// the first line after it.
    static func command(_ lines: [String], at start: Int, end: Int) -> (text: String, next: Int) {
        var text = lines[start]
        var next = start + 1
        while text.hasSuffix(" \\") && next < end {
            text = text.dropLast(2) + " " + lines[next].drop { $0 == " " }
            next += 1
        }
        return (text, next)
    }

    /// What to write for `expected` when the command printed `actual`: its lines, keeping a single `…` where the
    /// transcript has it: the printed lines up to the one the transcript shows just before it, and from the one
    /// just after it (or as many lines as the transcript shows, when that line is no longer printed); nil when
    /// the transcript has several.
    static func recorded(expected: [String], actual: [String]) -> [String]? {
        let gaps = expected.indices.filter { expected[$0] == "…" }
        guard let gap = gaps.first else { return actual }
        guard gaps.count == 1 else { return nil }
        let headEnd = gap == 0 ? 0 : actual.lastIndex(of: expected[gap - 1]).map { $0 + 1 } ?? gap
        let tailCount = expected.count - gap - 1
        let tailStart = tailCount == 0 ? actual.count : actual.firstIndex(of: expected[gap + 1]) ?? actual.count - tailCount
        guard headEnd <= tailStart else { return actual }
        return Array(actual[..<headEnd]) + ["…"] + Array(actual[tailStart...])
    }

    @Test("The manual's catalog has pages, and the README and the catalog have transcripts")
    func found() throws {
        #expect(Self.pages.count > 10)
        let runnable = try Self.pages.flatMap { page in
            Self.blocks(in: try String(contentsOf: repositoryRoot.appendingPathComponent(page), encoding: .utf8)).filter { $0.skipReason == nil }
        }
        #expect(runnable.count > 20)
    }

    @Test("Each transcript is what migrate prints", arguments: pages)
    func transcripts(page: String) throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(page), encoding: .utf8)
        let recording = ProcessInfo.processInfo.environment["MIGRATE_RECORD"] == "1"
        // Lines of the page to replace when recording: the range of a command's output, and what it printed.
        var replacements: [(range: Range<Int>, lines: [String])] = []
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Examples"), to: scratch.url.appendingPathComponent("Examples"))
        for block in Self.blocks(in: text) {
            let commands = block.text.enumerated().filter { $0.element.hasPrefix("$ ") }
            if let reason = block.skipReason {
                #expect(!reason.isEmpty, "\(page):\(block.line): say why the block is not run")
                continue
            }
            #expect(!commands.isEmpty, "\(page):\(block.line): a console block without a command")
            for (position, (offset, _)) in commands.enumerated() {
                let end = position + 1 < commands.count ? commands[position + 1].offset : block.text.count
                let (line, next) = Self.command(block.text, at: offset, end: end)
                let words = Self.words(String(line.dropFirst(2)))
                guard words.first == "migrate" else {
                    Issue.record("\(page):\(block.line + 1 + offset): not a migrate command; mark the block <!-- not run: REASON -->")
                    continue
                }
                let expected = Array(block.text[next..<end])
                let run = Run(arguments: Array(words.dropFirst()), directory: scratch.url)
                let printed = (run.output + run.error).components(separatedBy: "\n")
                let actual = printed.last == "" ? Array(printed.dropLast()) : printed
                guard let difference = Self.mismatch(expected: expected, actual: actual) else { continue }
                if recording, let lines = Self.recorded(expected: expected, actual: actual) {
                    // `block.line` is the fence's line (from 1), so the block's lines start at that index (from 0).
                    replacements.append(((block.line + next)..<(block.line + end), lines))
                }
                Issue.record("\(page):\(block.line + 1 + offset): \(line)\n\(difference)\nprinted:\n\(actual.joined(separator: "\n"))")
            }
        }
        guard !replacements.isEmpty else { return }
        var lines = text.components(separatedBy: "\n")
        for replacement in replacements.reversed() { lines.replaceSubrange(replacement.range, with: replacement.lines) }
        try lines.joined(separator: "\n").write(to: repositoryRoot.appendingPathComponent(page), atomically: true, encoding: .utf8)
    }

    /// The matrix page quotes CI's `migrate-bench matrix` run as printed; its times vary by machine, but its rows
    /// and bounds for the example plans are what `migrate matrix` gives here, so a stale paste fails.
    @Test("The benchmark pasted on the matrix page has the rows and bounds migrate matrix gives each example")
    func pastedBenchmarkRows() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("\(Self.catalog)/MatrixCommand.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("plan ") }
        #expect(rows.count == Examples.names.count)
        for row in rows {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true)
            // plan NAME t bound best PICT PICT-ms before rows ms
            guard cells.count >= 10 else {
                Issue.record("unexpected row: \(row)")
                continue
            }
            let summary = Run("matrix", "Examples/\(cells[1])").output.split(separator: "\n").first ?? ""
            #expect(
                summary.hasPrefix("\(cells[8]) rows (lower bound \(cells[3]))"),
                "\(cells[1]): pasted \(cells[8]) rows, bound \(cells[3]); now \(summary)")
        }
    }

    @Test(
        "… stands for any lines, and nothing else is skipped",
        arguments: [
            (["a", "…", "d"], ["a", "b", "c", "d"], true), (["a", "…"], ["a"], true), (["…", "c"], ["a", "b"], false),
            (["a", "b"], ["a", "b", "c"], false), (["a  "], ["a"], true),
        ])
    func ellipsis(expected: [String], actual: [String], matches: Bool) {
        #expect((Self.mismatch(expected: expected, actual: actual) == nil) == matches)
    }

    @Test(
        "A command line ending in ` \\` goes on on the next",
        arguments: [
            (["$ migrate a \\", "    --b c", "out"], "$ migrate a --b c", 2), (["$ migrate a", "out \\", "more"], "$ migrate a", 1),
            (["$ migrate a \\"], "$ migrate a \\", 1),
        ])
    func continuation(lines: [String], command: String, next: Int) {
        let found = Self.command(lines, at: 0, end: lines.count)
        #expect(found.text == command)
        #expect(found.next == next)
    }

    @Test(
        "Recording keeps the lines around a single …, and leaves several to a person",
        arguments: [
            (["a", "b"], ["x", "y", "z"], ["x", "y", "z"]), (["a", "…", "d"], ["w", "x", "y", "z"], ["w", "…", "z"]),
            (["a", "b", "…", "d"], ["w", "x"], ["w", "x"]), (["…", "b", "…"], ["x"], nil),
            (["a", "…", "c", "d"], ["a", "b", "x", "c", "e", "d"], ["a", "…", "c", "e", "d"]),
        ])
    func recording(expected: [String], actual: [String], recorded: [String]?) {
        #expect(Self.recorded(expected: expected, actual: actual) == recorded)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
