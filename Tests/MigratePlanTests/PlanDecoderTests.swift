import Foundation
import MigratePlan
import MigrateSupport
import Testing

/// A small valid plan; bad-input cases replace one piece of it.
let minimalPlan = """
    {
      "app": { "name": "Demo", "bundleID": "com.example.demo", "platforms": ["iOS"] },
      "features": [ { "id": "pro", "name": "Pro" }, { "id": "themes", "name": "Themes" } ],
      "releases": [
        { "platform": "iOS", "version": "1.0", "build": "10", "released": "2020-01-01T00:00:00Z", "model": "paid", "price": "2.99", "includes": ["pro", "themes"] },
        { "platform": "iOS", "version": "2.0", "build": "20", "released": "2021-01-01T00:00:00Z", "model": "free" }
      ],
      "products": [ { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "4.99", "grants": ["pro", "themes"] } ]
    }
    """

@Suite("Plan decoding", .timeLimit(.minutes(20)))
struct PlanDecoderTests {
    @Test("A minimal plan decodes without diagnostics")
    func minimal() throws {
        let document = PlanDecoder.decode(minimalPlan)
        #expect(document.diagnostics.isEmpty)
        let plan = try #require(document.plan)
        #expect(plan.app.platforms == [.iOS])
        #expect(plan.releases.count == 2)
        #expect(plan.releases[0].model == .paid(try Price("2.99")))
        #expect(plan.releases[1].includes == nil)
        #expect(plan.product(withID: "com.example.demo.pro")?.grants == ["pro", "themes"])
        #expect(plan.policies == Policies())
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var replace: String
        var with: String
        var code: String
        var path: String
        var message: String
        var hint: String? = nil

        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(
            name: "unknown key with suggestion", replace: #""grants": ["pro", "themes"]"#, with: #""grant": ["pro"]"#,
            code: "unknown-key", path: "products[0].grant", message: "unknown key 'grant'", hint: "Did you mean 'grants'?"),
        BadInput(
            name: "unknown feature reference", replace: #""grants": ["pro", "themes"]"#, with: #""grants": ["pro", "theme"]"#,
            code: "unknown-reference", path: "products[0].grants[1]", message: "unknown feature 'theme'", hint: "Did you mean 'themes'?"),
        BadInput(
            name: "unknown product in a bundle", replace: #""grants": ["pro", "themes"]"#, with: #""contains": ["com.example.demo.pr"]"#,
            code: "unknown-reference", path: "products[0].contains[0]", message: "unknown product 'com.example.demo.pr'"),
        BadInput(
            name: "duplicate feature id", replace: #"{ "id": "themes", "name": "Themes" }"#, with: #"{ "id": "pro", "name": "Themes" }"#,
            code: "duplicate-id", path: "features[1].id", message: "feature id 'pro' is used twice"),
        BadInput(
            name: "unparseable build", replace: #""build": "10""#, with: #""build": "2.0.1b""#,
            code: "invalid-version", path: "releases[0].build", message: "'2.0.1b' is not a bundle version"),
        BadInput(
            name: "missing build on iOS", replace: #""build": "10", "#, with: "",
            code: "missing-key", path: "releases[0].build", message: "missing 'build'"),
        BadInput(
            name: "date without a zone", replace: #""released": "2020-01-01T00:00:00Z""#, with: #""released": "2020-01-01T00:00:00""#,
            code: "invalid-date", path: "releases[0].released", message: "not an ISO 8601 date-time"),
        BadInput(
            name: "price with a comma", replace: #""price": "4.99""#, with: #""price": "4,99""#,
            code: "invalid-price", path: "products[0].price", message: "'4,99' is not a price"),
        BadInput(
            name: "misspelt model", replace: #""model": "free""#, with: #""model": "fre""#,
            code: "invalid-value", path: "releases[1].model", message: "'fre' is not a valid value", hint: "Did you mean 'free'?"),
        BadInput(
            name: "unknown platform", replace: #""platforms": ["iOS"]"#, with: #""platforms": ["iOS", "andriod"]"#,
            code: "unknown-platform", path: "app.platforms[1]", message: "unknown platform 'andriod'"),
        BadInput(
            name: "lower-case platform", replace: #""platforms": ["iOS"]"#, with: #""platforms": ["ios"]"#,
            code: "invalid-value", path: "app.platforms[0]", message: "must be written 'iOS'"),
        BadInput(
            name: "release on an unlisted platform", replace: #""platform": "iOS", "version": "2.0""#, with: #""platform": "tvOS", "version": "2.0""#,
            code: "platform-not-listed", path: "releases[1].platform", message: "for tvOS, which 'app.platforms' does not list"),
        BadInput(
            name: "wrong type", replace: #""features": ["#, with: #""features": 3, "x": ["#,
            code: "wrong-type", path: "features", message: "'features' must be an array, found a number"),
        BadInput(
            name: "consumable granting features", replace: #""type": "nonConsumable""#, with: #""type": "consumable""#,
            code: "consumable-grants", path: "products[0].grants", message: "a consumable cannot grant features"),
        BadInput(
            name: "auto-renewable without subscription", replace: #""type": "nonConsumable""#, with: #""type": "autoRenewable""#,
            code: "missing-key", path: "products[0].subscription", message: "missing 'subscription'"),
        BadInput(
            name: "free release with a price", replace: #""model": "free""#, with: #""model": "free", "price": "1.99""#,
            code: "invalid-price", path: "releases[1].price", message: "a free release cannot have a price"),
        BadInput(
            name: "missing app", replace: #""app": { "name": "Demo", "bundleID": "com.example.demo", "platforms": ["iOS"] },"#, with: "",
            code: "missing-key", path: "app", message: "missing 'app'"),
        BadInput(
            name: "duplicate key", replace: #""name": "Demo","#, with: #""name": "Demo", "name": "Other","#,
            code: "duplicate-key", path: "app.name", message: "'name' is given twice"),
        BadInput(
            name: "build as a JSON number", replace: #""build": "10""#, with: #""build": 10"#,
            code: "number-as-version", path: "releases[0].build", message: "write it as a string (\"10\") so that 1.10 stays 1.10"),
        BadInput(
            name: "price as a JSON number", replace: #""price": "4.99""#, with: #""price": 4.99"#,
            code: "number-as-price", path: "products[0].price", message: "write prices as strings (\"4.99\") so no tool rounds them"),
        BadInput(
            name: "version of the wrong type", replace: #""version": "1.0""#, with: #""version": true"#,
            code: "wrong-type", path: "releases[0].version", message: "'version' must be a string such as \"1.2.5\", found"),
        BadInput(
            name: "price of the wrong type", replace: #""price": "4.99""#, with: #""price": ["4.99"]"#,
            code: "wrong-type", path: "products[0].price", message: "'price' must be a decimal string such as \"4.99\", found"),
        BadInput(
            name: "missing price", replace: #", "price": "4.99""#, with: "",
            code: "missing-key", path: "products[0].price", message: "missing 'price' (a decimal string such as \"4.99\")"),
        BadInput(
            name: "provisional grant days out of range", replace: #"  "products": ["#,
            with: #"  "policies": { "provisionalGrant": { "tier": "paid", "days": 8 } }, "products": ["#,
            code: "invalid-value", path: "policies.provisionalGrant.days", message: "'days' must be between 1 and 7, found 8",
            hint: "forged evidence gains no more than that"),
        BadInput(
            name: "provisional grant without days", replace: #"  "products": ["#,
            with: #"  "policies": { "provisionalGrant": { "tier": "paid" } }, "products": ["#,
            code: "missing-key", path: "policies.provisionalGrant.days", message: "missing 'days'"),
        BadInput(
            name: "provisional grant of an undeclared tier", replace: #"  "products": ["#,
            with: #"""
                  "tiers": [ { "id": "paid", "name": "Paid", "until": "2021-01-01T00:00:00Z", "grants": ["pro"] } ],
                  "policies": { "provisionalGrant": { "tier": "payd", "days": 3 } }, "products": [
                """#,
            code: "unknown-reference", path: "policies.provisionalGrant.tier", message: "unknown tier 'payd'", hint: "Did you mean 'paid'?"),
    ]

    @Test("Bad input gets a message naming the place, the problem and the fix", arguments: badInputs)
    func badInput(_ input: BadInput) throws {
        #expect(minimalPlan.contains(input.replace), "the case must change the plan")
        let text = minimalPlan.replacingOccurrences(of: input.replace, with: input.with)
        let document = PlanDecoder.decode(text)
        let match = document.diagnostics.first { $0.code.rawValue == input.code && $0.path?.description == input.path }
        let diagnostic = try #require(
            match, "no \(input.code) at \(input.path); got \(document.diagnostics.map { "\($0.code) \($0.path?.description ?? "")" })")
        #expect(diagnostic.message.contains(input.message), "\(diagnostic.message)")
        if let hint = input.hint { #expect(diagnostic.hint?.contains(hint) == true, "\(diagnostic.hint ?? "no hint")") }
        #expect(diagnostic.location != nil, "every problem in a parsed file has a line and column")
    }

    @Test(
        "Names and ids past their limits are refused with the JSON path and the limit; at the limit they decode",
        arguments: [
            (#""name": "Demo""#, "name", "app.name", Limits.planNameCharacters, "a name"),
            (#""bundleID": "com.example.demo""#, "bundleID", "app.bundleID", Limits.planIdentifierCharacters, "an id"),
            (#""id": "com.example.demo.pro""#, "id", "products[0].id", Limits.planIdentifierCharacters, "an id"),
        ])
    func stringLimits(original: String, key: String, path: String, limit: Int, kind: String) throws {
        func plan(_ value: String) -> String { minimalPlan.replacingOccurrences(of: original, with: "\"\(key)\": \"\(value)\"") }
        // Multi-byte characters count as one each: é is two bytes.
        let atLimit = PlanDecoder.decode(plan(String(repeating: "é", count: limit)))
        #expect(!atLimit.diagnostics.contains { $0.path?.description == path }, "\(atLimit.diagnostics.map(\.message))")
        let over = PlanDecoder.decode(plan(String(repeating: "a", count: limit + 1)))
        let diagnostic = try #require(over.diagnostics.first { $0.path?.description == path })
        #expect(
            diagnostic.message.hasPrefix(
                "'\(key)' is \(Limits.grouped(limit + 1)) characters long; migrate's limit for \(kind) is \(Limits.grouped(limit)) characters"))
        #expect(diagnostic.severity == .error)
    }

    // How fast is for `migrate-bench`, not a unit test: a clock here fails on a busy machine.
    @Test("A 50 MB app name is refused, with the limit named and an excerpt, not the name")
    func hugeName() throws {
        let document = PlanDecoder.decode(
            minimalPlan.replacingOccurrences(of: #""name": "Demo""#, with: "\"name\": \"\(String(repeating: "x", count: 50 << 20))\""))
        let diagnostic = try #require(document.diagnostics.first { $0.path?.description == "app.name" })
        #expect(diagnostic.message.contains("52,428,800 characters long; migrate's limit for a name is 200 characters"))
        #expect(diagnostic.message.count < 300, "the message quotes an excerpt, not the name")
    }

    @Test("Every problem is reported at once, in file order")
    func allAtOnce() {
        let text =
            minimalPlan
            .replacingOccurrences(of: #""grants": ["pro", "themes"]"#, with: #""grants": ["por"], "colour": 1"#)
            .replacingOccurrences(of: #""build": "10""#, with: #""build": "1.x""#)
            .replacingOccurrences(of: #""model": "free""#, with: #""model": "gratis""#)
        let diagnostics = PlanDecoder.decode(text).diagnostics.sortedForDisplay()
        #expect(Set(diagnostics.map(\.code.rawValue)) == ["invalid-version", "invalid-value", "unknown-key", "unknown-reference"])
        let lines = diagnostics.compactMap { $0.location?.line }
        #expect(lines == lines.sorted())
    }

    @Test("A syntax error gives line and column and no plan")
    func syntaxError() {
        let document = PlanDecoder.decode("{\n  \"app\": {,}\n}")
        #expect(document.plan == nil)
        #expect(document.diagnostics.count == 1)
        #expect(document.diagnostics[0].code == .jsonSyntax)
        #expect(document.diagnostics[0].location == SourceLocation(line: 2, column: 11))
    }

    @Test("Bundle cycles are found, each once")
    func bundleCycle() {
        let text = minimalPlan.replacingOccurrences(
            of: #"[ { "id": "com.example.demo.pro", "type": "nonConsumable", "price": "4.99", "grants": ["pro", "themes"] } ]"#,
            with: """
                [ { "id": "a", "type": "nonConsumable", "price": "1", "grants": ["pro"], "contains": ["b"] },
                  { "id": "b", "type": "nonConsumable", "price": "1", "grants": ["themes"], "contains": ["c"] },
                  { "id": "c", "type": "nonConsumable", "price": "1", "grants": ["themes"], "contains": ["a"] } ]
                """)
        let cycles = PlanDecoder.decode(text).diagnostics.filter { $0.code == .bundleCycle }
        #expect(cycles.count == 1)
        #expect(cycles.first?.message.contains("a → b → c → a") == true)
    }

    /// Every object of the plan: where the schema describes it, and the keys the decoder reads (`PlanKeys`).
    static let planObjects: [(path: [String], keys: [String])] = [
        ([], PlanKeys.Root.names),
        (["properties", "app"], PlanKeys.App.names),
        (["properties", "features", "items"], PlanKeys.Feature.names),
        (["properties", "releases", "items"], PlanKeys.Release.names),
        (["properties", "products", "items"], PlanKeys.Product.names),
        (["properties", "products", "items", "properties", "subscription"], PlanKeys.Subscription.names),
        (["properties", "tiers", "items"], PlanKeys.Tier.names),
        (["properties", "tiers", "items", "properties", "discounts", "items"], PlanKeys.Discount.names),
        (["properties", "policies"], PlanKeys.Policies.names),
        (["properties", "policies", "properties", "nonProduction"], PlanKeys.NonProduction.names),
        (["properties", "policies", "properties", "verificationFailure"], PlanKeys.VerificationFailure.names),
        (["properties", "policies", "properties", "provisionalGrant"], PlanKeys.ProvisionalGrant.names),
        (["properties", "installBase"], PlanKeys.InstallBase.names),
        (["properties", "installBase", "properties", "months", "items"], PlanKeys.MonthlyDownloads.names),
        (["properties", "installBase", "properties", "downloads", "items"], PlanKeys.DownloadCount.names),
        (["properties", "installBase", "properties", "products", "items"], PlanKeys.ProductCount.names),
        (["properties", "simulation"], PlanKeys.Simulation.names),
        (["properties", "simulation", "properties", "assumptions"], SimulationAssumption.names),
        (["properties", "simulation", "properties", "scenarios", "items"], PlanKeys.Scenario.names),
        (["properties", "simulation", "properties", "scenarios", "items", "properties", "assumptions"], SimulationAssumption.names),
        (["properties", "simulation", "properties", "scenarios", "items", "properties", "prices", "items"], PlanKeys.ScenarioPrice.names),
        (["properties", "simulation", "properties", "scenarios", "items", "properties", "tiers", "items"], PlanKeys.Tier.names),
        (["$defs", "distribution", "oneOf", "1"], PlanKeys.Distribution.names),
    ]

    @Test("The schema and the decoder know the same keys, for every object of the plan")
    func schemaMatchesDecoder() throws {
        func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
            switch value {
            case .object(let members)?: members.first { $0.key == key }?.value.value
            case .array(let items)?: Int(key).flatMap { $0 < items.count ? items[$0].value : nil }
            default: nil
            }
        }
        func properties(_ value: JSONValue?) -> [String]? {
            guard case .object(let properties)? = member(value, "properties") else { return nil }
            return properties.map(\.key).sorted()
        }
        for (path, keys) in Self.planObjects {
            let object = path.reduce(Optional(PlanSchema.document)) { member($0, $1) }
            #expect(properties(object) == keys.sorted(), "schema at \(path.joined(separator: "/")): \(properties(object) ?? [])")
        }
    }
}

@Suite("Plan: where a release date came from", .timeLimit(.minutes(20)))
struct ReleasedSourceDecodingTests {
    @Test("releasedSource is read, written back, and a misspelling gets a suggestion")
    func roundTrip() throws {
        let text = """
            {"formatVersion": 1, "app": {"name": "A", "bundleID": "a", "platforms": ["iOS"]},
             "releases": [
               {"platform": "iOS", "version": "1.0", "build": "1", "released": "2020-01-01T00:00:00Z", "releasedSource": "sales", "model": "paid", "price": "1.99"},
               {"platform": "iOS", "version": "2.0", "build": "2", "released": "2021-01-01T00:00:00Z", "model": "free"}
             ]}
            """
        let plan = try #require(PlanDecoder.decode(text).plan)
        #expect(plan.releases.map(\.releasedSource) == [.sales, nil])
        let written = PlanEncoder.encode(plan)
        #expect(written.contains("\"releasedSource\": \"sales\""))
        #expect(try #require(PlanDecoder.decode(written).plan).releases.map(\.releasedSource) == [.sales, nil])

        let wrong = PlanDecoder.decode(text.replacingOccurrences(of: "\"sales\"", with: "\"appstore\""))
        let error = try #require(wrong.diagnostics.first { $0.code == .invalidValue })
        #expect(error.path?.description == "releases[0].releasedSource" && error.hint == "Did you mean 'appStore'?")
    }
}
