// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "migrate",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "migrate", targets: ["migrate"]),
        .library(name: "MigratePlan", targets: ["MigratePlan"]),
        .library(name: "MigrateCore", targets: ["MigrateCore"]),
        .library(name: "MigrateMatrix", targets: ["MigrateMatrix"]),
    ],
    targets: [
        // The spec model: JSON with source positions, versions, the plan and its structural validation.
        .target(name: "MigratePlan"),
        // The engine: cutoff rules, cohorts, entitlements, upsells, receipts and plan checks.
        .target(name: "MigrateCore", dependencies: ["MigratePlan"]),
        // Test matrices: constrained t-wise covering arrays, a coverage verifier and the factor model of a plan.
        .target(name: "MigrateMatrix", dependencies: ["MigrateCore", "MigratePlan"]),
        // The command layer: argument parsing, help, commands with injected output.
        .target(name: "MigrateCLI", dependencies: ["MigratePlan", "MigrateCore", "MigrateMatrix"]),
        .executableTarget(name: "migrate", dependencies: ["MigrateCLI"]),
        // Benchmarks that print their figures: swift run -c release migrate-bench
        .executableTarget(name: "migrate-bench", dependencies: ["MigrateCore", "MigratePlan", "MigrateMatrix"]),
        .testTarget(name: "MigratePlanTests", dependencies: ["MigratePlan", "MigrateCore"]),
        .testTarget(name: "MigrateCoreTests", dependencies: ["MigrateCore", "MigratePlan"]),
        .testTarget(name: "MigrateMatrixTests", dependencies: ["MigrateMatrix", "MigrateCLI", "MigrateCore", "MigratePlan"]),
        .testTarget(name: "MigrateCLITests", dependencies: ["MigrateCLI", "MigrateCore", "MigratePlan"]),
    ]
)
