import Foundation
import MigrateCLI
import MigratePlan
import MigrateSupport
import MigrateTestSupport
import Testing

@Suite("migrate explain", .timeLimit(.minutes(20)))
struct ExplainCommandTests {
    @Test("A production receipt with original version 31 is a legacy buyer, and the comparison is shown")
    func productionReceipt() {
        let run = Run("explain", "Examples/server-pal", "--receipt", "Examples/server-pal/receipt-production.json")
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("Cohort: legacy tier 'paid-1.0'"))
        #expect(run.output.contains("build 31 < 40 (numeric), the first build of 2.0 (40), a free release"))
        #expect(run.output.contains("Restore Purchases: can be hidden"))
    }

    @Test("A monthly subscriber is offered Lifetime (told to cancel the subscription); the yearly plan is a switch, not an upgrade")
    func subscriberMayBuyLifetime() throws {
        let run = Run(
            "explain", "Examples/quill-writer/migration.json", "--original-version", "300", "--owns", "com.example.quill.monthly", "--format", "json")
        #expect(run.status == .success, "\(run.error)")
        let root = try JSONParser.parse(run.output)
        let offers = root["offers"]?.arrayValue ?? []
        #expect(offers.compactMap { $0["product"]?.stringValue } == ["com.example.quill.lifetime"])
        #expect(offers.last?["keepsRenewing"]?.arrayValue?.compactMap(\.stringValue) == ["com.example.quill.monthly"])
        #expect(run.output.contains("a switch from 'com.example.quill.monthly'"), "\(run.output)")
    }

    @Test("The sandbox receipt's \"1.0\" is a tester, decided by environment")
    func sandboxReceipt() {
        let run = Run("explain", "Examples/server-pal", "--receipt", "Examples/server-pal/receipt-sandbox.json", "--now", "2018-01-01T00:00:00Z")
        #expect(run.status == .success)
        #expect(run.output.contains("Cohort: new customer"))
        #expect(run.output.contains("environment policy"))
        #expect(run.output.contains("✓  many-servers"))
    }

    @Test(
        "Seed 000's three states, as JSON",
        arguments: [
            (["--original-version", "34"], ["com.example.tilttolivehd.fullturret"]),
            (["--original-version", "21"], ["com.example.tilttolivehd.turret"]),
            (["--original-version", "34", "--owns", "com.example.tilttolivehd.full"], ["com.example.tilttolivehd.turret"]),
            (["--original-version", "40", "--owns", "com.example.tilttolivehd.fullturret"], []),
        ])
    func seed000States(options: [String], offers: [String]) throws {
        let run = Run(arguments: ["explain", "Examples/tilt-to-live-hd", "--format", "json"] + options)
        #expect(run.status == .success)
        let report = try JSONParser.parse(run.output)
        let products = report["offers"]?.arrayValue?.compactMap { $0["product"]?.stringValue }
        #expect(products == offers)
    }

    @Test("Options override the receipt; a universal purchase follows the original platform")
    func universal() throws {
        let run = Run(
            "explain", "Examples/inkwell-universal", "--receipt", "Examples/inkwell-universal/appTransaction-mac-bought-on-ios.json",
            "--platform", "macOS", "--format", "json")
        let report = try JSONParser.parse(run.output)
        #expect(report["customer"]?["platform"]?.stringValue == "macOS")
        #expect(report["customer"]?["originalPlatform"]?.stringValue == "iOS")
        #expect(report["cohort"]?["rule"]?.stringValue == "buildNumber")
        #expect(report["cohort"]?["tier"]?.stringValue == "paid-1.0")
    }

    @Test("Bad inputs: a broken plan exits 65, a missing receipt 66, a broken receipt 65")
    func badInputs() throws {
        let scratch = try Scratch()
        try scratch.write("plan.json", examplePlanText.replacingOccurrences(of: "\"grants\": [", with: "\"grantz\": ["))
        let broken = Run("explain", "plan.json", "--original-version", "3", directory: scratch.url)
        #expect(broken.status == .dataError)
        #expect(broken.error.contains("plan.json:"))
        #expect(broken.error.contains("unknown key 'grantz'"))
        #expect(broken.error.contains("Error: plan.json has 1 error; run 'migrate check plan.json' for details."))

        let missing = Run("explain", "Examples/server-pal", "--receipt", "nope.json")
        #expect(missing.status == .noInput)

        try scratch.write("receipt.json", "{ \"status\": 21007 }")
        let badReceipt = Run(
            "explain", repositoryRoot.appendingPathComponent("Examples/server-pal").path, "--receipt", "receipt.json", directory: scratch.url)
        #expect(badReceipt.status == .dataError)
        #expect(badReceipt.error.contains("receipt.json:1:13: error: status: verifyReceipt returned status 21007"))
    }

    @Test("An unknown product in --owns is ignored with a suggestion")
    func unknownProduct() {
        let run = Run("explain", "Examples/server-pal", "--original-version", "44", "--owns", "com.example.serverpal.unlok")
        #expect(run.output.contains("ignored com.example.serverpal.unlok: not a product in the plan. Did you mean 'com.example.serverpal.unlock'?"))
    }

    @Test(
        "--owns ID@DATE: a 14-day trial before and after it ends, judged at --now",
        arguments: [
            ("2026-11-25T00:00:00Z", true), ("2026-12-04T09:59:59Z", true), ("2026-12-04T10:00:00Z", false),
        ])
    func trial(now: String, running: Bool) {
        let run = Run(
            "explain", "Examples/inkwell-universal", "--platform", "iOS", "--original-platform", "iOS", "--original-version", "900",
            "--owns", "com.example.inkwell.trial@2026-11-20T10:00:00Z", "--now", now)
        #expect(run.status == .success, "\(run.error)")
        #expect(run.output.contains("owns               com.example.inkwell.trial (bought 2026-11-20T10:00:00Z)"))
        if running {
            #expect(
                run.output.contains("note: 'com.example.inkwell.trial' is a trial of 14 days, from 2026-11-20T10:00:00Z until 2026-12-04T10:00:00Z"))
            #expect(run.output.contains("✓  sync"))
        } else {
            #expect(run.output.contains("ignored com.example.inkwell.trial: a trial of 14 days that ended 2026-12-04T10:00:00Z"))
            #expect(run.output.contains("✗  sync"))
        }
    }

    @Test("--owns with a date that doesn't read is a usage error")
    func badTrialDate() {
        let run = Run("explain", "Examples/inkwell-universal", "--owns", "com.example.inkwell.trial@yesterday")
        #expect(run.status == .usage)
        #expect(run.error.contains("The date in '--owns com.example.inkwell.trial@yesterday' is invalid"))
    }
}
