import Foundation
import MigrateImport
import MigratePlan

/// `import sales [MB]`: `SalesReportImporter.read` (what `import sales` and `simulate --actuals` run) over a
/// generated Summary Sales report of about MB megabytes (default 160) with the real 28-column header, hundreds of
/// SKUs, a hundred countries and a year of days. Prints MB/s of decompressed text for the plain report, for the
/// same report gzipped (inflate included), for inflating alone, and the time to refuse a gzip that inflates past
/// `Limits.salesReportBytes` (the report's members concatenated until they pass it).
func salesBenchmark(megabytes: Int) {
    let plain = salesReport(bytes: megabytes * 1_000_000)
    let rows = plain.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1
    guard let (gzipped, how) = gzip(plain) else {
        print("sales: skipped, could not gzip the report")
        return
    }
    let mb = Double(plain.count) / 1e6
    print(
        "sales: a Summary Sales report of \(rows) rows, \(format(mb)) MB decompressed, \(format(Double(gzipped.count) / 1e6)) MB gzipped (\(how))")

    /// Fastest and median wall time of `runs` runs, and the least CPU time (user and system) of one, in seconds; nil when
    /// the body threw. CPU time is what a busy machine changes least: the reading runs on one thread.
    func measure(runs: Int, _ body: () throws -> Void) -> (fastest: Double, median: Double, cpu: Double)? {
        var samples: [Double] = []
        var cpu = Double.infinity
        for _ in 0..<runs {
            let before = cpuSeconds()
            guard let elapsed = try? seconds(body) else { return nil }
            cpu = min(cpu, cpuSeconds() - before)
            samples.append(elapsed)
        }
        samples.sort()
        return (samples[0], samples[runs / 2], cpu)
    }
    func line(_ name: String, _ sample: (fastest: Double, median: Double, cpu: Double)?) {
        guard let sample else {
            print("sales: \(name): failed")
            return
        }
        print(
            "sales: \(name): \(format(mb / sample.fastest)) MB/s (fastest of 3: \(format(sample.fastest)) s; median \(format(sample.median)) s; "
                + "\(format(mb / sample.cpu)) MB/s of CPU time)")
    }
    var checked: ImportResult?
    line("plain report read", measure(runs: 3) { checked = try SalesReportImporter.read(plain, file: "bench.txt") })
    var fromGzip: ImportResult?
    line("gzipped report read", measure(runs: 3) { fromGzip = try SalesReportImporter.read(gzipped, file: "bench.txt.gz") })
    if let checked, let fromGzip, checked.installBase != fromGzip.installBase || checked.ignored != fromGzip.ignored {
        print("sales: the plain and gzipped reports read differently")
    }
    line("gunzip alone (CRC checked, pieces dropped)", measure(runs: 3) { try Inflate.gunzip(gzipped) { _, _ in true } })

    // Members concatenated until they inflate past the limit: refused once the limit is reached.
    let copies = Limits.salesReportBytes / plain.count + 1
    let bomb = Array([[UInt8]](repeating: gzipped, count: copies).joined())
    var message = ""
    let cpuBefore = cpuSeconds()
    let refused = seconds {
        do {
            _ = try SalesReportImporter.read(bomb, file: "big.txt.gz")
            message = "not refused"
        } catch {
            message = (error as? ImportError)?.message ?? "\(error)"
        }
    }
    let refusedCPU = cpuSeconds() - cpuBefore
    print(
        "sales: a gzip of \(copies) such members (\(format(Double(plain.count * copies) / 1e6)) MB decompressed) refused in \(format(refused)) s "
            + "(\(format(refusedCPU)) s of CPU time): \(message)")
}

/// CPU time of this process so far (user and system), in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if os(macOS)
        getrusage(RUSAGE_SELF, &usage)
    #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// A realistic Summary Sales report of at least `bytes` bytes: every row a day's sales of one SKU in one country.
func salesReport(bytes: Int) -> [UInt8] {
    let header = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units", "Developer Proceeds",
        "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds", "Apple Identifier", "Customer Price",
        "Promo Code", "Parent Identifier", "Subscription", "Period", "Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason",
        "Preserved Pricing", "Client", "Order Type",
    ]
    var out: [UInt8] = []
    out.reserveCapacity(bytes + 1_000)
    out += Array((header.joined(separator: "\t") + "\n").utf8)
    let countries = (0..<100).map { index -> (country: String, currency: String) in
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let code = String([letters[index % 26], letters[(index / 26 * 7 + index) % 26]])
        let currencies = ["USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "SEK", "MXN", "INR", "CNY", "BRL"]
        return (code, currencies[index % currencies.count])
    }
    let apps = (0..<40).map { index in
        (
            sku: "com.example.app\(index)", title: "Example App \(index)", id: String(1_450_000_000 + index * 7),
            category: ["Productivity", "Games", "Utilities"][index % 3]
        )
    }
    let products = (0..<400).map { index in (sku: "com.example.app\(index % 40).item\(index)", id: String(1_460_000_000 + index)) }
    let prices = ["0.99", "1.99", "2.99", "4.99", "9.99", "19.99", "0", "1,299.00", "149.00", "0.49"]
    let proceeds = ["0.70", "1.40", "2.10", "3.50", "6.99", "13.99", "0", "909.30", "104.30", "0.34"]
    let devices = ["iPhone", "iPad", "Desktop", "iPod touch"]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    var day = 0
    while out.count < bytes {
        let month = day / 28 % 12 + 1
        let date = String(format: "%02d/%02d/%04d", month, day % 28 + 1, 2019 + day / 336)
        day += 1
        for _ in 0..<2_000 {
            let place = countries[next(countries.count)]
            let app = apps[next(apps.count)]
            let price = next(prices.count)
            let kind = next(20)
            let type: String
            var sku = app.sku
            var id = app.id
            var parent = " "
            var subscription = " "
            var period = " "
            switch kind {
            case 0..<7: type = ["1", "1F", "1T", "F1"][next(4)]
            case 7..<9: type = ["3", "3F", "3T"][next(3)]
            case 9..<12: type = ["7", "7F", "7T"][next(3)]
            default:
                let product = products[next(products.count)]
                type = ["IA1", "IAY", "IAY", "IA9", "IA1-M", "FI1"][next(6)]
                sku = product.sku
                id = product.id
                parent = app.sku
                if type == "IAY" {
                    subscription = next(3) == 0 ? "New" : "Renewal"
                    period = ["7 Days", "1 Month", "1 Year"][next(3)]
                }
            }
            let units = next(50) == 0 ? -1 : 1 + next(next(4) == 0 ? 200 : 12)
            let version = "\(1 + next(4)).\(next(10))"
            let device = devices[next(devices.count)]
            let platform = type.hasPrefix("F") || type.hasSuffix("-M") || device == "Desktop" ? "macOS" : "iOS"
            let fields = [
                "APPLE", "US", sku, "Example Ltd", app.title, version, type, String(units), proceeds[price], date, date, place.currency,
                place.country, place.currency, id, prices[price], " ", parent, subscription, period, app.category, " ", device, platform, " ",
                " ", " ", " ",
            ]
            out += Array((fields.joined(separator: "\t") + "\n").utf8)
        }
    }
    return out
}

/// The report gzipped by /usr/bin/gzip when there is one (the benchmark only: migrate itself never runs it), else in
/// stored blocks, which exercise no Huffman decoding and say so.
func gzip(_ bytes: [UInt8]) -> (bytes: [UInt8], how: String)? {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-bench-sales-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("report.txt")
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip"), (try? Data(bytes).write(to: input)) != nil {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-6", "-n", input.path]
        if (try? process.run()) != nil {
            process.waitUntilExit()
            if process.terminationStatus == 0, let data = FileManager.default.contents(atPath: input.path + ".gz") {
                return (Array(data), "by /usr/bin/gzip -6, run by the benchmark only")
            }
        }
    }
    // Stored blocks: no compressor needed.
    var crc: UInt32 = 0xFFFF_FFFF
    let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }
    for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    crc ^= 0xFFFF_FFFF
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    var start = 0
    repeat {
        let end = min(bytes.count, start + 65_535)
        let length = end - start
        out.append(end == bytes.count ? 1 : 0)
        out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
        out += bytes[start..<end]
        start = end
    } while start < bytes.count
    let size = UInt32(truncatingIfNeeded: bytes.count)
    for value in [crc, size] { out += (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    return (out, "in stored blocks: /usr/bin/gzip not found, so no Huffman decoding is measured")
}
