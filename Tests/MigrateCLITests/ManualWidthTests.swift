import Foundation
import MigrateTestSupport
import Testing

/// Code blocks in the manual fit the width DocC shows without scrolling sideways.
///
/// The width is measured, not guessed: DocC-Render's widest reading column (a 1400-pixel window, `docc convert` of
/// this catalog in headless Chromium) holds a code listing 803 pixels wide with 14 pixels of padding each side, and
/// its 15-pixel monospaced font (Menlo, or the system's monospace) is 9.03 pixels a character: 775 ÷ 9.03 = 85 columns.
/// Narrower windows show fewer, so 85 is the most a line can be and never scroll on a desktop.
///
/// Most transcripts print wider lines today (`check`'s one-line diagnostics, `explain`'s tables and CSV, `simulate`'s
/// prose wrapped at 100, `matrix`'s tables), so each page's count of wider lines is recorded below: a page that gains one
/// fails, and one that loses one fails too until its count is lowered, so the record only ever shrinks to zero.
@Suite(.timeLimit(.minutes(20))) struct ManualWidthTests {
    static let width = 85

    /// Lines wider than `width` in each page's code blocks today; a page not listed has none.
    static let wider: [String: Int] = [
        "CheckCommand.md": 14, "DirectSales.md": 23, "ExplainCommand.md": 26, "GenerateCommand.md": 12,
        "ImportCommand.md": 15, "InitCommand.md": 26, "Installing.md": 1, "LaunchDay.md": 3, "MatrixCommand.md": 34,
        "ReportCommand.md": 2, "Server.md": 1, "SimulateCommand.md": 94, "StoreKitLayer.md": 1,
    ]

    /// Lines of a page's fenced code blocks wider than `width` characters, with their line numbers.
    static func widerLines(_ text: String) -> [(line: Int, text: String)] {
        var inBlock = false
        var found: [(Int, String)] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock && line.count > width { found.append((index + 1, line)) }
        }
        return found
    }

    @Test func codeBlocksFitDocCsColumnOrAreCounted() throws {
        let folder = repositoryRoot.appendingPathComponent("Documentation/Migrate.docc")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
        #expect(pages.count > 10)
        for page in pages {
            let text = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            let lines = Self.widerLines(text)
            let recorded = Self.wider[page] ?? 0
            if lines.count > recorded {
                let list = lines.map { "  \(page):\($0.line): \($0.text.count) columns" }.joined(separator: "\n")
                Issue.record("\(page): \(lines.count) code-block lines wider than \(Self.width) columns, \(recorded) recorded:\n\(list)")
            } else if lines.count < recorded {
                Issue.record("\(page): \(lines.count) code-block lines wider than \(Self.width) columns now: lower its count from \(recorded)")
            }
        }
        for page in Self.wider.keys { #expect(pages.contains(page), "\(page) is recorded but no longer in the manual") }
    }

    @Test func onlyLinesInsideCodeBlocksCount() {
        let long = String(repeating: "x", count: Self.width + 1)
        let page = "\(long)\n```console\n\(String(repeating: "y", count: Self.width))\n\(long)\n```\n\(long)\n"
        #expect(Self.widerLines(page).map(\.line) == [4])
    }
}
