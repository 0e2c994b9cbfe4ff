// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "migrate",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "migrate", targets: ["migrate"]),
        .library(name: "MigratePlan", targets: ["MigratePlan"]),
        .library(name: "MigrateCore", targets: ["MigrateCore"]),
        .library(name: "MigrateImport", targets: ["MigrateImport"]),
        .library(name: "MigrateMatrix", targets: ["MigrateMatrix"]),
        .library(name: "MigrateSimulation", targets: ["MigrateSimulation"]),
        // The StoreKit layer an app's generated code uses: `migrate generate` vendors these sources,
        // or (`--store-layer dependency`) the generated package depends on this product.
        .library(name: "FreemiumStoreKit", targets: ["FreemiumStoreKit"]),
        // The App Store model for an app's tests (never its app target): `generate` copies these sources into
        // the generated test target, or (`--store-layer dependency`) the generated tests depend on this product.
        .library(name: "FreemiumStoreKitTesting", targets: ["FreemiumStoreKitTesting"]),
        // `swift package migrate …` in an app's repository that depends on this package.
        .plugin(name: "MigratePlugin", targets: ["MigratePlugin"]),
        // `swift package plugin migrate-read check|explain|simulate …`, asking for no permission.
        .plugin(name: "MigrateReadOnlyPlugin", targets: ["MigrateReadOnlyPlugin"]),
    ],
    targets: [
        // Generic helpers that know nothing of apps or plans: "did you mean" suggestions, a seeded generator.
        .target(name: "MigrateSupport"),
        // The spec model: JSON with source positions, versions, the plan and its structural validation.
        .target(name: "MigratePlan", dependencies: ["MigrateSupport", "FreemiumStoreKit"]),
        // The engine: cutoff rules, cohorts, entitlements, upsells, receipts and plan checks.
        .target(name: "MigrateCore", dependencies: ["MigratePlan", "MigrateSupport", "FreemiumStoreKit"]),
        // Importers: .storekit, App Store Connect JSON, sales reports, Xcode projects and git history.
        .target(name: "MigrateImport", dependencies: ["MigratePlan", "MigrateCore", "MigrateSupport"]),
        // Test matrices: constrained t-wise covering arrays, a coverage verifier, the factor model of a plan.
        .target(name: "MigrateMatrix", dependencies: ["MigrateCore", "MigratePlan", "MigrateSupport"]),
        // The StoreKit layer of the generated code, plan-independent: StoreKit 2 behind a protocol, the
        // verified-facts cache. Ordinary Swift, compiled and tested here, vendored verbatim by `generate`.
        .target(name: "FreemiumStoreKit"),
        // The StoreKit layer's test double, kept out of the app: a model of the App Store that sells, renews and
        // refunds by Apple's rules, a `StoreFront` for tests. Vendored into the generated test target only.
        .target(name: "FreemiumStoreKitTesting", dependencies: ["FreemiumStoreKit"]),
        // The generator: a Mustache renderer, the template context built from a plan, generated files and safe writing.
        // Templates/ and FreemiumStoreKit's sources reach it through the EmbedResources build-tool plugin.
        .target(
            name: "MigrateGenerator", dependencies: ["MigratePlan", "MigrateCore", "MigrateMatrix", "MigrateSupport", "FreemiumStoreKit"],
            plugins: ["EmbedResources"]),
        // Writes the embedded templates and layer sources while building (never committed).
        .executableTarget(name: "embed-resources"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
        // What-if revenue and the cohort preview: scenarios, sweeps, Monte Carlo, the SVG chart.
        .target(name: "MigrateSimulation", dependencies: ["MigratePlan", "MigrateCore", "MigrateSupport"]),
        // The decision report: one self-contained HTML page laid out from the simulation, the checks and a customer list.
        .target(name: "MigrateReport", dependencies: ["MigrateSimulation", "MigrateCore", "MigratePlan", "MigrateSupport"]),
        // The `migrate init` wizard: project discovery and the question flow as a pure state machine.
        .target(name: "MigrateWizard", dependencies: ["MigratePlan", "MigrateCore", "MigrateImport", "MigrateSimulation", "MigrateSupport"]),
        // The command layer: argument parsing, help, commands with injected output.
        .target(
            name: "MigrateCLI",
            dependencies: [
                "MigratePlan", "MigrateCore", "MigrateImport", "MigrateMatrix", "MigrateGenerator", "MigrateSimulation", "MigrateWizard",
                "MigrateReport", "MigrateSupport",
            ]),
        .executableTarget(name: "migrate", dependencies: ["MigrateCLI"]),
        // Runs the migrate executable from SwiftPM: `swift package --allow-writing-to-package-directory plugin migrate …`,
        // for the commands that write (generate, import, init).
        .plugin(
            name: "MigratePlugin",
            capability: .command(
                intent: .custom(verb: "migrate", description: "Run migrate (check, generate, simulate, explain…) on this package's plan."),
                permissions: [.writeToPackageDirectory(reason: "migrate generate and import write the plan's generated files and the plan.")]),
            dependencies: ["migrate"]),
        // Runs the commands that only read (check, explain, simulate) with no permission: `swift package plugin migrate-read …`.
        .plugin(
            name: "MigrateReadOnlyPlugin",
            capability: .command(
                intent: .custom(verb: "migrate-read", description: "Run migrate check, explain or simulate on this package's plan.")),
            dependencies: ["migrate"]),
        // A seeded generator of bad inputs (mutated examples and fixtures), for `swift test` and `migrate-bench fuzz N`.
        .target(name: "MigrateFuzz", dependencies: ["MigrateCore", "MigrateSupport"]),
        // Benchmarks that print their figures: swift run -c release migrate-bench
        .executableTarget(
            name: "migrate-bench",
            dependencies: [
                "MigrateCore", "MigratePlan", "MigrateImport", "MigrateMatrix", "MigrateGenerator", "MigrateSimulation", "MigrateFuzz",
                "MigrateSupport",
            ]),
        // Helpers every test target shares: the repository root, scratch folders, the list of examples, `Run`.
        .target(name: "MigrateTestSupport", dependencies: ["MigratePlan", "MigrateCLI"], path: "Tests/MigrateTestSupport"),
        .testTarget(name: "MigratePlanTests", dependencies: ["MigrateTestSupport", "MigratePlan", "MigrateCore", "MigrateSupport"]),
        .testTarget(name: "MigrateCoreTests", dependencies: ["MigrateTestSupport", "MigrateCore", "MigratePlan", "MigrateSupport"]),
        .testTarget(
            name: "MigrateImportTests",
            dependencies: ["MigrateTestSupport", "MigrateImport", "MigrateCLI", "MigrateCore", "MigratePlan", "MigrateSupport"]),
        .testTarget(
            name: "MigrateMatrixTests",
            dependencies: ["MigrateTestSupport", "MigrateMatrix", "MigrateCLI", "MigrateCore", "MigratePlan", "MigrateSupport"]),
        .testTarget(
            name: "MigrateGeneratorTests", dependencies: ["MigrateTestSupport", "MigrateGenerator", "MigrateCore", "MigratePlan", "MigrateSupport"]),
        .testTarget(
            name: "MigrateSimulationTests", dependencies: ["MigrateTestSupport", "MigrateSimulation", "MigrateCore", "MigratePlan", "MigrateSupport"]),
        .testTarget(
            name: "MigrateWizardTests",
            dependencies: ["MigrateTestSupport", "MigrateWizard", "MigrateCLI", "MigrateImport", "MigrateCore", "MigratePlan", "MigrateSupport"]),
        .testTarget(
            name: "MigrateCLITests",
            dependencies: [
                "MigrateTestSupport", "MigrateCLI", "MigrateCore", "MigratePlan", "MigrateGenerator", "MigrateFuzz", "MigrateImport",
                "MigrateSimulation", "MigrateReport",
                "MigrateSupport",
            ]),
        .testTarget(name: "FreemiumStoreKitTests", dependencies: ["FreemiumStoreKit", "FreemiumStoreKitTesting"]),
    ]
)
