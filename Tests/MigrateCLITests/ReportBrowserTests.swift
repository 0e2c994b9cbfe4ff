import Foundation
import MigrateCLI
import MigrateReport
import MigrateTestSupport
import Testing

/// The report in a real browser: headless Chromium (Debian's `chromium`, which `.ci/run` installs) loads each
/// example's page and the test reads the DOM it built, what it logged, how wide every table and the page laid out at
/// four widths, how large the chart's text is drawn, and how many pages it prints to; a screenshot at each width is kept
/// in the test's folder (its path printed). Skipped, with the reason, when no browser is present. `MIGRATE_RECORD=1`
/// also writes the flagship's screenshots under Documentation/, made by the command the manual shows.
@Suite(
    .serialized, .timeLimit(.minutes(20)),
    .enabled(if: Browser.path != nil, "no headless browser: install Debian's chromium (apt-get install chromium)"))
struct ReportBrowserTests {
    static let sections = HTMLReport.sectionIDs
    /// A phone, a tablet upright and on its side, a laptop.
    static let widths = [390, 768, 1024, 1280]
    /// The command the manual shows, whose page its screenshots are.
    static let manualCommand = [
        "report", "Examples/tilt-to-live-hd", "--batch", "Examples/tilt-to-live-hd/customers.csv", "--now", "2011-10-01T00:00:00Z",
    ]

    /// Writes the report of `example` (the flagship with its customer list and sales) into `scratch`.
    static func render(_ example: String, into scratch: Scratch, name: String = "report.html") throws -> URL {
        let plan = "Examples/\(example)"
        var arguments = ["report", plan, "--draws", "500"]
        if example == "tilt-to-live-hd" {
            arguments += ["--batch", "\(plan)/customers.csv", "--actuals", "\(plan)/sales-2011-11-to-2012-02.txt"]
        }
        let file = scratch.url.appendingPathComponent(name)
        let run = Run(arguments: arguments + ["--output", file.path])
        #expect(run.status == .success, "\(run.error)")
        return file
    }

    /// A page of the test's own (the report has no script) that holds each report in a frame of each width and writes
    /// what it measured in each into the DOM, for `--dump-dom` to read: the page's width, every table's width against its
    /// box, the smallest text the chart draws, and the sections. Headless Chromium's window is at least 500 px wide, so
    /// the phone width is a frame's. One browser measures every example at every width.
    static func measuringPage(for pages: [(name: String, url: URL)], in scratch: Scratch) throws -> URL {
        var out = "<!DOCTYPE html><html><body style=\"margin:0\">\n"
        for page in pages {
            let html = try String(contentsOf: page.url, encoding: .utf8)
            let source = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            for width in widths {
                out +=
                    "<iframe class=\"probe\" data-name=\"\(page.name)\" data-width=\"\(width)\" width=\"\(width)\" height=\"200\" loading=\"eager\" style=\"border:0\" srcdoc=\"\(source)\"></iframe>\n"
            }
        }
        out += """
            <script>
            // The window's load waits for every frame's: each is measured once all are laid out.
            window.addEventListener('load', () => {
              for (const frame of document.querySelectorAll('iframe.probe')) {
                const page = frame.contentDocument;
                const sections = [...page.querySelectorAll('main > section')].map((section) => section.id).join(',');
                const clipped = [...page.querySelectorAll('div.table')].filter((box) =>
                  box.scrollWidth > box.clientWidth + 1 || box.querySelector('table').getBoundingClientRect().width > box.clientWidth + 1
                ).map((box) => box.querySelector('caption').textContent.slice(0, 40) + ' ' + box.querySelector('table').getBoundingClientRect().width
                  + '>' + box.clientWidth).join('|');
                let smallest = 1000;
                for (const svg of page.querySelectorAll('svg.chart')) {
                  const scale = svg.getScreenCTM().a;
                  for (const text of svg.querySelectorAll('text')) {
                    smallest = Math.min(smallest, parseFloat(frame.contentWindow.getComputedStyle(text).fontSize) * scale);
                  }
                }
                document.body.insertAdjacentHTML('beforeend', '<output class="measure">' + frame.dataset.name + ' ' + frame.dataset.width
                  + ' ' + page.documentElement.scrollWidth + ' ' + frame.contentWindow.innerWidth + ' ' + smallest.toFixed(1) + ' '
                  + sections + ' [' + clipped + ']</output>');
              }
            });
            </script></body></html>
            """
        return try scratch.write("measure.html", out)
    }

    @Test func everyExampleFitsFourWidths() async throws {
        let scratch = try Scratch()
        var pages: [(name: String, url: URL)] = []
        for example in Examples.names { pages.append((example, try Self.render(example, into: scratch, name: "\(example).html"))) }
        let probe = try Self.measuringPage(for: pages, in: scratch)
        let measured = try await Browser.run(["--window-size=1400,4000", "--dump-dom", probe.absoluteString], in: scratch.url, budget: 10000)
        let rows = measured.output.matches(of: /<output class="measure">(\S+) (\d+) (\d+) (\d+) ([\d.]+) ([a-z,-]*) \[(.*?)\]<\/output>/)
        #expect(rows.count == pages.count * Self.widths.count, "not measured: \(measured.output.suffix(2000))")
        for row in rows {
            let (example, frame, scrollWidth, viewport) = (row.1, Int(row.2)!, Int(row.3)!, Int(row.4)!)
            #expect(viewport == frame, "\(example): the frame is \(viewport) px wide, not \(frame)")
            #expect(scrollWidth <= viewport, "\(example) at \(frame) px: the page is \(scrollWidth) px wide")
            #expect(row.7.isEmpty, "\(example) at \(frame) px: tables wider than their box: \(row.7)")
            let smallest = Double(row.5)!
            #expect(smallest >= 11 || smallest == 1000, "\(example) at \(frame) px: chart text of \(smallest) px")
            #expect(row.6 == Self.sections.joined(separator: ","), "\(example) at \(frame) px: sections \(row.6)")
        }
    }

    @Test(arguments: Examples.names)
    func theDOMHasEverySectionAndTextAlternatives(_ example: String) async throws {
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
        // months at least three, the flagship with its after-launch comparison at least four; none runs past twelve.
        let html = try String(contentsOf: page, encoding: .utf8)
        let expected = example == "tilt-to-live-hd" ? 4...12 : html.contains("No forecast yet") ? 2...12 : 3...12
        #expect(expected.contains(pages), "\(example): \(pages) pages printed")
    }

    /// The flagship at each width, made by the command the manual shows, kept after the test in the temporary folder
    /// `migrate-report-screenshots` (their paths printed, each run replacing the last) and, with MIGRATE_RECORD=1,
    /// written under Documentation/ at 390 and 1280 px.
    @Test func screenshotsAtEachWidth() async throws {
        let scratch = try Scratch()
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-report-screenshots")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        // The manual and the README show this very command.
        for document in ["Documentation/Migrate.docc/ReportCommand.md", "README.md"] {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(document), encoding: .utf8)
            let shown = try #require(text.firstMatch(of: /\$ (migrate report (?:[^\n]*\\\n)+[^\n]*)\n/)).1
                .replacingOccurrences(of: "\\\n", with: "").split(separator: " ").map(String.init)
            #expect(shown == ["migrate"] + Self.manualCommand + ["-o", "report.html"], "\(document) shows \(shown)")
        }
        let page = scratch.url.appendingPathComponent("report.html")
        let run = Run(arguments: Self.manualCommand + ["-o", page.path])
        #expect(run.status == .success, "\(run.error)")
        for width in Self.widths {
            // A frame of the width inside a window at least as wide as headless Chromium allows.
            let html = try String(contentsOf: page, encoding: .utf8)
            let source = html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            let height = width < 700 ? 2400 : 1600
            let holder = try scratch.write(
                "frame-\(width).html",
                "<!DOCTYPE html><html><body style=\"margin:0\"><iframe width=\"\(width)\" height=\"\(height)\" style=\"border:0;display:block\" srcdoc=\"\(source)\"></iframe></body></html>"
            )
            let shot = kept.appendingPathComponent("report-\(width).png")
            let result = try await Browser.run(
                ["--hide-scrollbars", "--window-size=\(max(width, 500)),\(height)", "--screenshot=\(shot.path)", holder.absoluteString],
                in: scratch.url)
            #expect(result.status == 0, "\(result.output.suffix(2000))")
            let bytes = try Data(contentsOf: shot)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
            print("report at \(width) px: \(shot.path)")
            guard width == 390 || width == 1280 else { continue }
            let documented = repositoryRoot.appendingPathComponent("Documentation/Migrate.docc/Resources/report-\(width).png")
            if isRecording {
                try bytes.write(to: documented)
            } else {
                #expect(
                    FileManager.default.fileExists(atPath: documented.path),
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

    /// Runs the browser headless on a page, at most two minutes, with its log on standard error (merged into `output`);
    /// `budget` is the virtual time, in milliseconds, the page gets to load and lay out.
    static func run(_ arguments: [String], in directory: URL, budget: Int = 2000) async throws -> (status: Int32, output: String) {
        let profile = directory.appendingPathComponent("profile").path
        return try await shell(
            [
                "timeout", "120", path!, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=\(budget)",
            ] + arguments, in: directory)
    }
}
