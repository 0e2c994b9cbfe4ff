import Foundation
import MigrateTestSupport
import Testing

/// Code blocks in the manual fit the width DocC shows without scrolling sideways.
///
/// The width is measured, not guessed: DocC-Render's widest reading column (a 1400-pixel window, `docc convert` of
/// this catalog in headless Chromium) holds a code listing 803 pixels wide with 14 pixels of padding each side, and
/// its 15-pixel monospaced font (Menlo, or the system's monospace) is 9.03 pixels a character: 775 ÷ 9.03 = 85 columns.
/// Narrower windows show fewer, so 85 is the most a line can be and never scroll on a desktop. `migrate` writes its
/// text for 80 columns, so its transcripts fit.
///
/// Every line of every code block fits, but in a block marked `<!-- wide: REASON -->` on the line before its fence
/// (or before its `<!-- not run: … -->`), which says why its lines can't: a line an editor or a script reads whole
/// (a diagnostic's first line, a CSV row, a GitHub annotation), a table of many columns, another program's output.
/// A marked block that fits fails too, so a marker never outlives its reason.
@Suite(.timeLimit(.minutes(20))) struct ManualWidthTests {
    static let width = 85

    struct Block {
        /// The fence's line, from 1.
        var line: Int
        /// Why its lines may be wider, when it says.
        var wideReason: String?
        /// Its lines wider than `width`, with their line numbers.
        var wider: [(line: Int, text: String)]
    }

    /// The fenced code blocks of a page, each with its `<!-- wide: … -->` reason and its wider lines.
    static func blocks(_ text: String) -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var open: Block?
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    // The marker is the line before the fence, or the one before a `not run` comment there.
                    let before = index > 0 ? lines[index - 1] : ""
                    let marker = before.hasPrefix("<!-- not run: ") && index > 1 ? lines[index - 2] : before
                    let reason =
                        marker.hasPrefix("<!-- wide: ") && marker.hasSuffix(" -->")
                        ? String(marker.dropFirst("<!-- wide: ".count).dropLast(" -->".count)) : nil
                    open = Block(line: index + 1, wideReason: reason, wider: [])
                }
                continue
            }
            if line.count > width { open?.wider.append((index + 1, line)) }
        }
        return blocks
    }

    @Test func codeBlocksFitDocCsColumnOrSayWhyNot() throws {
        let folder = repositoryRoot.appendingPathComponent("Documentation/Migrate.docc")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
        #expect(pages.count > 10)
        for page in pages {
            let text = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            for block in Self.blocks(text) {
                guard let reason = block.wideReason else {
                    let list = block.wider.map { "  \(page):\($0.line): \($0.text.count) columns" }.joined(separator: "\n")
                    if !block.wider.isEmpty {
                        Issue.record("\(page):\(block.line): code lines wider than \(Self.width) columns; wrap them or say why not:\n\(list)")
                    }
                    continue
                }
                #expect(!reason.isEmpty, "\(page):\(block.line): say why the block is wide")
                #expect(!block.wider.isEmpty, "\(page):\(block.line): the block fits \(Self.width) columns now; remove its wide marker")
            }
        }
    }

    @Test(
        "A wider line counts only inside a code block, and only where no marker says why",
        arguments: [
            (
                "\(ManualWidthTests.long)\n```console\n\(String(repeating: "y", count: ManualWidthTests.width))\n\(ManualWidthTests.long)\n```\n\(ManualWidthTests.long)\n",
                [4], nil
            ),
            ("<!-- wide: a table -->\n```console\n\(ManualWidthTests.long)\n```\n", [3], "a table"),
            ("<!-- wide: a table -->\n<!-- not run: made up -->\n```console\n\(ManualWidthTests.long)\n```\n", [4], "a table"),
            ("<!-- wide: a table -->\n\n```console\n\(ManualWidthTests.long)\n```\n", [4], nil),
        ])
    func marker(page: String, wider: [Int], reason: String?) {
        let blocks = Self.blocks(page)
        #expect(blocks.count == 1)
        #expect(blocks.first?.wider.map(\.line) == wider)
        #expect(blocks.first?.wideReason == reason)
    }

    static let long = String(repeating: "x", count: width + 1)
}
