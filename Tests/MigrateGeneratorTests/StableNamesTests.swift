import Foundation
import MigrateCore
import MigrateGenerator
import MigratePlan
import MigrateTestSupport
import Testing

/// Generated Swift names come from each id alone, so the app's code keeps compiling when the plan
/// gains, loses or reorders products and features.
@Suite("Stable Swift names", .timeLimit(.minutes(20)))
struct StableNamesTests {
    /// Server Pal (bundle id com.example.serverpal) with these products.
    static func plan(products ids: [String], features featureIDs: [String]? = nil) throws -> MigrationPlan {
        var plan = try examplePlan("server-pal")
        let template = plan.products[0]
        plan.products = ids.map { id in
            var product = template
            product.id = id
            product.origin = nil
            return product
        }
        if let featureIDs {
            plan.features = featureIDs.map { Feature(id: $0, name: $0) }
        }
        return plan
    }

    static func entitlements(_ plan: MigrationPlan) throws -> String {
        let files = try Generator(options: GenerationOptions()).generate(plan, only: [.swift])
        return try #require(files.first { $0.path.hasSuffix("/Entitlements.swift") }).body
    }

    @Test(
        "A product keeps its Swift name whatever else the plan sells",
        arguments: [
            ["com.example.serverpal.sub.yearly"],
            ["com.example.serverpal.sub.yearly", "com.example.serverpal.sub.monthly"],
            ["com.example.serverpal.sub.yearly", "com.example.serverpal.sub.monthly", "com.example.serverpal.sub.yearly.legacy"],
            ["com.example.serverpal.sub.monthly", "com.example.serverpal.sub.yearly", "com.example.serverpal.unlock"],
            ["com.example.serverpal.sub.yearly", "com.other.tip"],
        ])
    func productNames(ids: [String]) throws {
        let body = try Self.entitlements(try Self.plan(products: ids))
        #expect(body.contains("  case subYearly = \"com.example.serverpal.sub.yearly\"\n"), "\(ids)")
        #expect(SwiftIdentifier.productCases(try Self.plan(products: ids)).collisions.isEmpty)
    }

    @Test(
        "A product id without the bundle id is named in full; a feature by its id",
        arguments: [
            ("tip", "tip"), ("com.other.tip", "comOtherTip"), ("com.example.serverpal", "comExampleServerpal"),
            ("com.example.serverpal.pro_unlock", "proUnlock"),
        ])
    func productName(id: String, expected: String) {
        #expect(SwiftIdentifier.productName(id, bundleID: "com.example.serverpal") == expected)
    }

    @Test(
        "Two ids with one Swift name are a check error naming both, at the second id",
        arguments: [
            (
                products: ["com.example.serverpal.pro.unlock", "com.example.serverpal.pro-unlock"], features: nil,
                message: "products 'com.example.serverpal.pro.unlock' and 'com.example.serverpal.pro-unlock' would both be ProductID.proUnlock",
                path: "products[1].id"
            ),
            (
                products: ["com.example.serverpal.unlock", "unlock"], features: nil,
                message: "products 'com.example.serverpal.unlock' and 'unlock' would both be ProductID.unlock", path: "products[1].id"
            ),
            (
                products: ["com.example.serverpal.unlock"], features: ["one-server", "many-servers", "live-graphs", "one.server"],
                message: "features 'one-server' and 'one.server' would both be Feature.oneServer", path: "features[3].id"
            ),
        ] as [(products: [String], features: [String]?, message: String, path: String)])
    func collisions(products: [String], features: [String]?, message: String, path: String) throws {
        var plan = try Self.plan(products: products, features: features)
        plan.products = plan.products.map { product in
            var product = product
            product.grants = ["many-servers", "live-graphs"]
            return product
        }
        let errors = PlanChecker.check(plan, now: Date()).diagnostics.filter { $0.code == .swiftNameCollision }
        #expect(errors.count == 1, "\(errors.map(\.message))")
        #expect(errors.first?.message.hasPrefix(message) == true, "\(errors.map(\.message))")
        #expect(errors.first?.severity == .error)
        #expect(errors.first?.path?.description == path)
    }
}
