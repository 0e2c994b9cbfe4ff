import Foundation
import MigrateCLI
import MigrateTestSupport
import Testing

/// The report in a real browser: headless Chromium (Debian's `chromium`, which `.ci/run` installs) loads each
/// example's page and the test reads the DOM it built, what it logged, how wide the page laid out at phone
/// and desktop widths, and how many pages it prints to. Skipped, with the reason, when no browser is present.
/// `MIGRATE_RECORD=1` also writes the flagship's screenshots under Documentation/.
@Suite(
    .serialized, .timeLimit(.minutes(20)),
    .enabled(if: Browser.path != nil, "no headless browser: install Debian's chromium (apt-get install chromium)"))
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

    /// A page of the test's own (the report has no script) that holds the report in a frame of each width and
    /// writes how wide the report laid out in each into the DOM, for `--dump-dom` to read. Headless Chromium's
    /// window is at least 500 px wide, so the phone width is a frame's.
    static func measuringPage(for page: URL, widths: [Int], in scratch: Scratch) throws -> URL {
        let html = try String(contentsOf: page, encoding: .utf8)
        let source = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        var out = "<!DOCTYPE html><html><body style=\"margin:0\">\n"
        for width in widths {
            out +=
                "<iframe class=\"probe\" data-width=\"\(width)\" width=\"\(width)\" height=\"900\" style=\"border:0\" srcdoc=\"\(source)\"></iframe>\n"
        }
        out += """
            <script>
            let pending = document.querySelectorAll('iframe.probe').length;
            for (const frame of document.querySelectorAll('iframe.probe')) {
              frame.addEventListener('load', () => {
                const page = frame.contentDocument;
                const sections = [...page.querySelectorAll('main > section')].map((section) => section.id).join(',');
                document.body.insertAdjacentHTML('beforeend', '<output class="measure">' + frame.dataset.width + ' '
                  + page.documentElement.scrollWidth + ' ' + frame.contentWindow.innerWidth + ' ' + sections + '</output>');
              });
            }
            </script></body></html>
            """
        return try scratch.write("measure.html", out)
    }

    @Test(arguments: Examples.names)
    func everySectionAtPhoneAndDesktopWidth(_ example: String) async throws {
        let scratch = try Scratch()
        let page = try Self.render(example, into: scratch)
        // The report's own DOM, as the browser built it.
        let result = try await Browser.run(["--window-size=1280,900", "--dump-dom", page.absoluteString], in: scratch.url)
        #expect(result.status == 0, "\(example): \(result.output.suffix(2000))")
        let dom = result.output
        for id in Self.sections {
            #expect(dom.contains("<section id=\"\(id)\" aria-labelledby=\"\(id)-title\">"), "\(example): section \(id)")
            #expect(dom.contains("<h2 id=\"\(id)-title\">"), "\(example): heading of \(id)")
        }
        // Text alternatives: every chart is an image with a title and a description; every table has headers and a caption.
        let charts = dom.components(separatedBy: "<svg").count - 1
        #expect(dom.components(separatedBy: "role=\"img\" aria-labelledby=\"chart-title chart-desc\"").count - 1 == charts, "\(example)")
        #expect(dom.components(separatedBy: "<desc id=\"chart-desc\">").count - 1 == charts, "\(example)")
        #expect(dom.contains("<figcaption>") || charts == 0, "\(example)")
        #expect(dom.components(separatedBy: "<table>").count == dom.components(separatedBy: "<caption>").count, "\(example)")
        #expect(dom.components(separatedBy: "<table>").count == dom.components(separatedBy: "<thead>").count, "\(example)")
        // Nothing logged to the console: the page runs no script and fetches nothing.
        let console = result.output.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("net::ERR_") }
        #expect(console.isEmpty, "\(example): \(console.joined(separator: "\n"))")

        // No horizontal overflow at phone and desktop width: wide tables scroll inside their own box, the page does not.
        let probe = try Self.measuringPage(for: page, widths: [390, 1280], in: scratch)
        let measured = try await Browser.run(["--window-size=1400,1000", "--dump-dom", probe.absoluteString], in: scratch.url)
        let widths = measured.output.matches(of: /<output class="measure">(\d+) (\d+) (\d+) ([a-z,-]*)<\/output>/)
        #expect(widths.count == 2, "\(example): not measured: \(measured.output.suffix(2000))")
        for width in widths {
            let (frame, scrollWidth, viewport) = (Int(width.1)!, Int(width.2)!, Int(width.3)!)
            #expect(viewport == frame, "\(example): the frame is \(viewport) px wide, not \(frame)")
            #expect(scrollWidth <= viewport, "\(example) at \(frame) px: the page is \(scrollWidth) px wide")
            #expect(width.4 == Self.sections.joined(separator: ","), "\(example) at \(frame) px: sections \(width.4)")
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
        // A4 or Letter, every section printed: a page without a forecast takes two, one with the chart and its table of
        // months at least three, the flagship with its after-launch comparison at least four; none runs past ten.
        let html = try String(contentsOf: page, encoding: .utf8)
        let expected = example == "tilt-to-live-hd" ? 4...10 : html.contains("No forecast yet") ? 2...10 : 3...10
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
            let kept = repositoryRoot.appendingPathComponent("Documentation/Migrate.docc/Resources/report-\(width).png")
            if isRecording {
                try bytes.write(to: kept)
            } else {
                #expect(
                    FileManager.default.fileExists(atPath: kept.path),
                    "Documentation/Migrate.docc/Resources/report-\(width).png is missing: MIGRATE_RECORD=1")
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
