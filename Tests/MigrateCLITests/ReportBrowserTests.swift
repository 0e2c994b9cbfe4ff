import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

/// The report in a real browser: headless Chromium (Debian's `chromium`, which `.ci/run` installs) loads each
/// example's page and the test reads the DOM it built, what it logged, how wide the page laid out at phone
/// and desktop widths, and how many pages it prints to. Skipped, with the reason, when no browser is present.
/// `MIGRATE_RECORD=1` also writes the flagship's screenshots under Documentation/.
@Suite(.serialized, .enabled(if: Browser.path != nil, "no headless browser: install Debian's chromium (apt-get install chromium)"))
struct ReportBrowserTests {
    static let sections = ["verdict", "cohorts", "forecast", "assumptions", "after-launch", "traps", "rules"]

    /// Writes the report of `example` (the flagship with its customer list and sales) into `scratch`.
    static func render(_ example: String, into scratch: Scratch) throws -> URL {
        let plan = "Examples/\(example)"
        var arguments = ["report", plan, "--draws", "500"]
        if example == "tilt-to-live-hd" {
            arguments += ["--batch", "\(plan)/customers.csv", "--actuals", "\(plan)/sales-2011-11-to-2012-02.txt"]
        }
        let file = scratch.url.appendingPathComponent("report.html")
        let run = Run(arguments: arguments + ["--output", file.path])
        #expect(run.status == .success, "\(run.error)")
        return file
    }

    /// A copy of the page with a script (the test's, never the report's) that writes how wide the document
    /// laid out into the DOM, for `--dump-dom` to read.
    static func measuringCopy(of page: URL, in scratch: Scratch) throws -> URL {
        let html = try String(contentsOf: page, encoding: .utf8)
        let script = """
            <script>document.body.insertAdjacentHTML('beforeend', '<output id="measure">' + document.documentElement.scrollWidth + ' ' + \
            window.innerWidth + '</output>');</script>
            """
        return try scratch.write("measure.html", html.replacingOccurrences(of: "</body>", with: script + "</body>"))
    }

    @Test(arguments: Examples.names)
    func everySectionAtPhoneAndDesktopWidth(_ example: String) async throws {
        let scratch = try Scratch()
        let page = try Self.render(example, into: scratch)
        let copy = try Self.measuringCopy(of: page, in: scratch)
        for width in [390, 1280] {
            let result = try await Browser.run(["--window-size=\(width),900", "--dump-dom", copy.absoluteString], in: scratch.url)
            let dom = result.output
            #expect(result.status == 0, "\(example) at \(width): \(result.output.suffix(2000))")
            for id in Self.sections {
                #expect(dom.contains("<section id=\"\(id)\" aria-labelledby=\"\(id)-title\">"), "\(example): section \(id) at \(width)")
                #expect(dom.contains("<h2 id=\"\(id)-title\">"), "\(example): heading of \(id)")
            }
            // Text alternatives: the chart is an image with a title and a description; every table has headers and a caption.
            #expect(dom.contains("role=\"img\" aria-labelledby=\"chart-title chart-desc\""), "\(example)")
            #expect(dom.contains("<title id=\"chart-title\">") && dom.contains("<desc id=\"chart-desc\">"), "\(example)")
            #expect(dom.components(separatedBy: "<table>").count == dom.components(separatedBy: "<caption>").count, "\(example)")
            #expect(!dom.contains("<table>\n<tbody>"), "\(example): a table without headers")
            // No horizontal overflow: wide tables scroll inside their own box, the page does not.
            let measured = try #require(dom.firstMatch(of: /<output id="measure">(\d+) (\d+)<\/output>/), "\(example): not measured")
            let (scrollWidth, viewport) = (Int(measured.1)!, Int(measured.2)!)
            #expect(viewport == width, "\(example): the window is \(viewport) wide, not \(width)")
            #expect(scrollWidth <= viewport, "\(example) at \(width) px: the page is \(scrollWidth) px wide")
            // Nothing logged to the console: the page itself runs no script and fetches nothing.
            let console = result.output.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("net::ERR_") }
            #expect(console.isEmpty, "\(example): \(console.joined(separator: "\n"))")
        }
    }

    @Test(arguments: Examples.names)
    func printsToPages(_ example: String) async throws {
        let scratch = try Scratch()
        let page = try Self.render(example, into: scratch)
        let pdf = scratch.url.appendingPathComponent("report.pdf")
        let result = try await Browser.run(["--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", page.absoluteString], in: scratch.url)
        #expect(result.status == 0, "\(result.output.suffix(2000))")
        let bytes = try Data(contentsOf: pdf)
        let text = String(decoding: bytes, as: UTF8.self)
        let pages = text.matches(of: /\/Type\s*\/Page[^s]/).count
        // Every section prints: the verdict page, the cohorts, the chart and its table of months, the rest. A
        // flagship report with its after-launch comparison is longer.
        let expected = example == "tilt-to-live-hd" ? 4...9 : 3...8
        #expect(expected.contains(pages), "\(example): \(pages) pages printed")
    }

    /// The flagship at both widths, as the README shows it: written under Documentation/ with MIGRATE_RECORD=1.
    @Test func screenshotsOfTheFlagship() async throws {
        let scratch = try Scratch()
        let page = try Self.render("tilt-to-live-hd", into: scratch)
        for (width, height) in [(390, 1800), (1280, 1400)] {
            let shot = scratch.url.appendingPathComponent("report-\(width).png")
            let result = try await Browser.run(
                ["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(shot.path)", page.absoluteString], in: scratch.url)
            #expect(result.status == 0, "\(result.output.suffix(2000))")
            let bytes = try Data(contentsOf: shot)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
            let kept = repositoryRoot.appendingPathComponent("Documentation/report-\(width).png")
            if isRecording {
                try bytes.write(to: kept)
            } else {
                #expect(FileManager.default.fileExists(atPath: kept.path), "Documentation/report-\(width).png is missing: MIGRATE_RECORD=1")
            }
        }
    }
}

/// Headless Chromium, when the machine has it.
enum Browser {
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") { return "\(folder)/\(name)" }
        }
        return nil
    }()

    /// Runs the browser headless on a page, at most two minutes, with its log on standard error (merged into `output`).
    static func run(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
        let profile = directory.appendingPathComponent("profile").path
        return try await shell(
            [
                "timeout", "120", path!, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000",
            ] + arguments, in: directory)
    }
}
