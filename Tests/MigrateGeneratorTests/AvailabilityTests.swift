import Foundation
import MigrateGenerator
import MigratePlan
import MigrateTestSupport
import Testing

/// Availability checked for real on Linux (see AvailabilityChecker): the shims mirror Apple's
/// `@available`, and code that names API newer than its deployment target outside a matching
/// `@available` or `#available` fails, as it would in Xcode.
///
/// Where the declarations come from: each one in Tests/Fixtures/StoreKitShim/StoreKit.swift names
/// its Apple documentation page (developer.apple.com/documentation/storekit/…), whose availability
/// list gives its `@available` ("iOS: 16.0.0 -"; "16.0.0 - 18.4.0" is a deprecation) and whose
/// declaration gives `@backDeployed`, `@frozen`, `let`/`var`, `async`/`throws` and optionality; the
/// Combine and Security shims do the same for `ObservableObject`/`Published` and the Keychain calls.
@Suite("Availability", .timeLimit(.minutes(20)))
struct AvailabilityTests {
    /// A client written the way the generated layer should be: AppTransaction on iOS 16, the
    /// back-deployed members unguarded, `originalPlatform` behind `#available`, and `@unknown
    /// default` for the non-frozen PurchaseResult.
    static let correctClient = """
        import Foundation
        import StoreKit

        @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
        struct OriginalPurchaseReader {
          func read() async throws -> (version: String, platform: String, id: String) {
            let transaction = try await AppTransaction.shared.payloadValue
            // Back-deployed before 18.4: readable on iOS 16 without a guard.
            var platform = transaction.originalPlatformStringRepresentation
            let id = transaction.appTransactionID
            if #available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *) {
              platform = Self.name(transaction.originalPlatform)
            }
            return (transaction.originalAppVersion, platform, id)
          }

          @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
          static func name(_ platform: AppStore.Platform) -> String {
            switch platform {
            case .iOS: return "iOS"
            case .macOS: return "macOS"
            default: return platform.rawValue
            }
          }

          @available(visionOS, unavailable)
          @MainActor func buy(_ product: Product) async throws -> Bool {
            switch try await product.purchase() {
            case .success(.verified(let transaction)):
              await transaction.finish()
              return true
            case .success(.unverified), .userCancelled, .pending:
              return false
            @unknown default:
              return false
            }
          }
        }

        """

    static func mutant(of client: String) -> String {
        // A signature that names AppStore.Platform outside a matching @available.
        client.replacingOccurrences(
            of: "  @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)\n  static func name",
            with: "\n  static func name")
    }

    static func errors(_ diagnostics: [AvailabilityChecker.Diagnostic]) -> [AvailabilityChecker.Diagnostic] {
        diagnostics.filter { $0.severity == .error }
    }

    /// What each SDK generation sees: the shims' own (the 27 SDKs: StoreKit 816, so the versioned
    /// `canImport` is on), and the oldest the layer supports (Xcode 16: that and the 6.1 and 6.2
    /// branches off). Between them, Xcode 26 turns only the versioned `canImport` off.
    static let sdks: [(name: String, replacements: [String: String])] = [
        ("this toolchain, Xcode 27's StoreKit", [:]),
        ("Xcode 26", ["#if canImport(StoreKit, _version: 816)": "#if false"]),
        (
            "Xcode 16",
            ["#if compiler(>=6.1)": "#if false", "#if compiler(>=6.2)": "#if false", "#if canImport(StoreKit, _version: 816)": "#if false"]
        ),
    ]

    /// An example's generated Swift: with the layer's sources copied in (`vendored`, the default), or importing the library.
    static func generatedSources(_ example: String, storeLayer: GenerationOptions.StoreLayer = .vendored) throws -> [AvailabilityChecker.Source] {
        try Generator(options: GenerationOptions(access: .public, module: "Generated", storeLayer: storeLayer))
            .generate(try examplePlan(example), only: [.swift])
            .map { AvailabilityChecker.Source(name: ($0.path as NSString).lastPathComponent, text: $0.body) }
    }

    /// The library's sources, as an app that depends on it compiles them.
    static let library = (
        name: StoreLayerSources.folder,
        sources: StoreLayerSources.names.map { AvailabilityChecker.Source(name: "\($0).swift", text: StoreLayerSources.source(named: $0) ?? "") }
    )

    @Test(
        "Every example's generated Swift type-checks for iOS 16 and macOS 13 with Apple's availability in Swift 6, and the flagship's on old and new SDKs and in Swift 5 too"
    )
    func generatedCodePasses() async throws {
        // One check per target, SDK and mode, the shims built once for all examples. What an SDK
        // changes is behind `#if compiler(…)`, which only the library's sources use (the test below
        // keeps it so), and they are the same bytes in every example: the flagship stands for all
        // on the older and newer SDKs. Swift 5 is the laxer mode; the small tests below check both
        // modes on every rule.
        //
        // Every example is checked importing the library (`--store-layer dependency`), which is built
        // once per pass: its sources are the same bytes in every example. The flagship is checked with
        // the layer copied in too (`vendored`, the default), the library's sources in the app's module.
        let flagship = [(name: "tilt-to-live-hd (vendored)", sources: try Self.generatedSources("tilt-to-live-hd"))]
        let importing = try availabilityExamples.map { (name: $0, sources: try Self.generatedSources($0, storeLayer: .dependency)) }
        #expect(flagship[0].sources.contains { $0.name == "AppStoreFront.swift" })
        for client in importing {
            #expect(!client.sources.contains { $0.name == "AppStoreFront.swift" }, "\(client.name)")
            #expect(client.sources.contains { $0.text.contains("import \(StoreLayerSources.folder)\n") }, "\(client.name)")
        }
        let clients = flagship + importing
        // Every target, SDK and pass checked at once: each is its own set of swiftc processes.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for target in [AvailabilityChecker.DeploymentTarget.iOS16, .macOS13] {
                for sdk in Self.sdks {
                    let thisToolchain = sdk.replacements.isEmpty
                    let passes: [(modes: [AvailabilityChecker.LanguageMode], clients: [(name: String, sources: [AvailabilityChecker.Source])])] =
                        thisToolchain ? [([.swift6], clients), ([.swift5], flagship)] : [([.swift6], flagship)]
                    for pass in passes {
                        group.addTask {
                            let imports = pass.clients.count > flagship.count
                            let found = try await AvailabilityChecker.check(
                                clients: pass.clients, modules: [.uiKit, .storeKit, .combine, .security], library: imports ? Self.library : nil,
                                deploymentTarget: target, languageModes: pass.modes, replacements: sdk.replacements)
                            #expect(found.count == pass.clients.count)
                            for (example, diagnostics) in found.sorted(by: { $0.key < $1.key }) {
                                #expect(
                                    diagnostics.isEmpty,
                                    "\(example), \(target), \(sdk.name):\n\(diagnostics.map(\.description).joined(separator: "\n"))")
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("Only the library's sources branch on the SDK (#if compiler, a versioned canImport), so one example stands for all on each SDK")
    func onlyTheLibraryBranchesOnTheSDK() throws {
        let templates = repositoryRoot.appendingPathComponent("Templates")
        let paths = try #require(FileManager.default.subpaths(atPath: templates.path)).filter { $0.hasSuffix(".mustache") }
        #expect(!paths.isEmpty)
        for path in paths {
            let text = try String(contentsOf: templates.appendingPathComponent(path), encoding: .utf8)
            #expect(!text.contains("#if compiler"), "\(path) branches on the SDK: check every example on every SDK again")
            #expect(!text.contains("_version:"), "\(path) branches on the SDK: check every example on every SDK again")
        }
        // Every SDK branch of the library is one the SDK generations above turn off.
        let library = StoreLayerSources.names.map { StoreLayerSources.source(named: $0) ?? "" }.joined()
        let branches = Set(
            library.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                $0.hasPrefix("#if compiler") || $0.contains("_version:")
            })
        #expect(branches.isSubset(of: Set(Self.sdks.flatMap(\.replacements.keys))), "\(branches)")
    }

    @Test("A versioned canImport follows the StoreKit shim's module version, the 27 SDKs' 816, without a warning")
    func versionedCanImportFollowsTheShim() async throws {
        func client(_ version: String) -> String {
            """
            import Foundation
            import StoreKit

            @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
            func revoked(_ transaction: AppTransaction) -> Bool {
              #if canImport(StoreKit, _version: \(version))
                return transaction.revocationDate != nil && transaction.unknownMember
              #else
                return false
              #endif
            }

            """
        }
        let on = try await AvailabilityChecker.check(
            sources: [.init(name: "Revoked.swift", text: client("816"))], deploymentTarget: .iOS16, languageModes: [.swift6])
        #expect(on.map(\.line) == [7], "\(on)")
        let off = try await AvailabilityChecker.check(
            sources: [.init(name: "Revoked.swift", text: client("817"))], deploymentTarget: .iOS16, languageModes: [.swift6])
        #expect(off.isEmpty, "\(off)")
    }

    @Test("The flagship's generated Swift also type-checks for tvOS 16, watchOS 9 and visionOS 1")
    func generatedCodePassesOnOtherPlatforms() async throws {
        let sources = try Self.generatedSources("tilt-to-live-hd")
        for target in [AvailabilityChecker.DeploymentTarget.tvOS16, .watchOS9, .visionOS1] {
            let diagnostics = try await AvailabilityChecker.check(
                sources: sources, modules: [.uiKit, .storeKit, .combine, .security], deploymentTarget: target, languageModes: [.swift6])
            #expect(diagnostics.isEmpty, "\(target):\n\(diagnostics.map(\.description).joined(separator: "\n"))")
        }
    }

    /// The flagship's layer with one text replaced, checked on `target` in Swift 6: the errors in AppStoreFront.swift.
    static func appStoreFrontErrors(replacing find: String, with replace: String, on target: AvailabilityChecker.DeploymentTarget)
        async throws -> [AvailabilityChecker.Diagnostic]
    {
        var sources = try generatedSources("tilt-to-live-hd")
        let index = try #require(sources.firstIndex { $0.name == "AppStoreFront.swift" })
        #expect(sources[index].text.contains(find), "the mutation point moved; update the test")
        sources[index].text = sources[index].text.replacingOccurrences(of: find, with: replace)
        let diagnostics = try await AvailabilityChecker.check(
            sources: sources, modules: [.uiKit, .storeKit, .combine, .security], deploymentTarget: target, languageModes: [.swift6])
        return errors(diagnostics).filter { $0.file == "AppStoreFront.swift" }
    }

    @Test("A purchase confirmed in a scene without its #available fails on iOS 16: the checker sees the UIKit branch")
    func sceneBranchIsChecked() async throws {
        let found = try await Self.appStoreFrontErrors(
            replacing: "if #available(iOS 17.0, tvOS 17.0, visionOS 1.0, *),\n          let scene", with: "if let scene", on: .iOS16)
        #expect(found.contains { $0.message.contains("purchase(confirmIn:options:)") && $0.message.contains("iOS17") }, "\(found)")
    }

    @Test("The library, built once for the examples that import it, is checked too: its scene branch without #available fails")
    func libraryIsChecked() async throws {
        var library = Self.library
        let index = try #require(library.sources.firstIndex { $0.name == "AppStoreFront.swift" })
        let find = "if #available(iOS 17.0, tvOS 17.0, visionOS 1.0, *),\n          let scene"
        #expect(library.sources[index].text.contains(find), "the mutation point moved; update the test")
        library.sources[index].text = library.sources[index].text.replacingOccurrences(of: find, with: "if let scene")
        let found = try await AvailabilityChecker.check(
            clients: [(name: "tilt-to-live-hd", sources: try Self.generatedSources("tilt-to-live-hd", storeLayer: .dependency))],
            modules: [.uiKit, .storeKit, .combine, .security], library: library, deploymentTarget: .iOS16, languageModes: [.swift6])
        let errors = Self.errors(found["tilt-to-live-hd"] ?? []).filter { $0.file == "AppStoreFront.swift" }
        #expect(errors.contains { $0.message.contains("purchase(confirmIn:options:)") && $0.message.contains("iOS17") }, "\(errors)")
    }

    @Test("On visionOS only the scene's purchase exists: buying with purchase(options:) there fails, so #if os(visionOS) code is checked")
    func visionOSBranchIsChecked() async throws {
        let found = try await Self.appStoreFrontErrors(
            replacing: "      #if os(visionOS)\n        throw StoreFrontError(message: StoreFrontError.visionOSNeedsScene)\n      #else\n",
            with: "      #if false\n      #else\n", on: .visionOS1)
        #expect(found.contains { $0.message.contains("purchase(options:)") && $0.message.contains("unavailable") }, "\(found)")
        // The same code on macOS is fine: each target takes its own branches.
        let onMac = try await Self.appStoreFrontErrors(
            replacing: "      #if os(visionOS)\n        throw StoreFrontError(message: StoreFrontError.visionOSNeedsScene)\n      #else\n",
            with: "      #if false\n      #else\n", on: .macOS13)
        #expect(onMac.isEmpty, "\(onMac)")
    }

    @Test("A generated layer whose signature names AppStore.Platform outside @available fails (the bug this check exists for)")
    func generatedMutantFails() async throws {
        var sources = try Self.generatedSources("tilt-to-live-hd")
        let index = try #require(sources.firstIndex { $0.name == "AppStoreFront.swift" })
        let point = "    private static func storeFrontError("
        #expect(sources[index].text.contains(point), "the mutation point moved; update the test")
        sources[index].text = sources[index].text.replacingOccurrences(
            of: point,
            with: "    private static func platform(_ platform: AppStore.Platform) -> AppPlatform? { nil }\n\n" + point)
        let diagnostics = try await AvailabilityChecker.check(
            sources: sources, modules: [.uiKit, .storeKit, .combine, .security], deploymentTarget: .iOS16)
        for mode in AvailabilityChecker.LanguageMode.allCases {
            let found = Self.errors(diagnostics).filter { $0.mode == mode && $0.file == "AppStoreFront.swift" }
            #expect(found.contains { $0.message.contains("'Platform' is only available in iOS18_4") }, "\(mode.rawValue): \(diagnostics)")
        }
    }

    @Test("A correct client passes on every deployment target, in Swift 6 and Swift 5")
    func correctClientPasses() async throws {
        for target in AvailabilityChecker.DeploymentTarget.all {
            let diagnostics = try await AvailabilityChecker.check(
                sources: [.init(name: "Client.swift", text: Self.correctClient)], modules: [.storeKit], deploymentTarget: target)
            #expect(Self.errors(diagnostics).isEmpty, "\(target): \(diagnostics.map(\.description).joined(separator: "\n"))")
        }
    }

    @Test("A signature naming AppStore.Platform outside a matching @available fails, in Swift 6 and Swift 5")
    func mutantFails() async throws {
        let mutant = Self.mutant(of: Self.correctClient)
        #expect(mutant != Self.correctClient, "the mutation point moved; update the test")
        let diagnostics = try await AvailabilityChecker.check(
            sources: [.init(name: "Client.swift", text: mutant)], modules: [.storeKit], deploymentTarget: .iOS16)
        for mode in AvailabilityChecker.LanguageMode.allCases {
            let found = Self.errors(diagnostics).filter { $0.mode == mode }
            #expect(found.map(\.description) == ["Client.swift:18:41: error: 'Platform' is only available in iOS18_4 [\(mode.rawValue)]"])
        }
        // On a target that already has 18.4, the same code is fine.
        let later = AvailabilityChecker.DeploymentTarget(platform: "iOS", version: [18, 4])
        let onLater = try await AvailabilityChecker.check(
            sources: [.init(name: "Client.swift", text: mutant)], modules: [.storeKit], deploymentTarget: later)
        #expect(Self.errors(onLater).isEmpty, "\(onLater)")
    }

    @Test("Checked together, each client's errors are its own: the mutant fails and the correct client beside it passes")
    func clientsCheckedTogetherKeepTheirErrors() async throws {
        let found = try await AvailabilityChecker.check(
            clients: [
                (name: "correct", sources: [.init(name: "Client.swift", text: Self.correctClient)]),
                (name: "mutant", sources: [.init(name: "Client.swift", text: Self.mutant(of: Self.correctClient))]),
            ],
            modules: [.storeKit], deploymentTarget: .iOS16, languageModes: [.swift6])
        #expect(Self.errors(found["correct"] ?? [.init(file: "", line: 0, column: 0, severity: .error, message: "missing", mode: .swift6)]).isEmpty)
        #expect(
            Self.errors(found["mutant"] ?? []).map(\.description) == ["Client.swift:18:41: error: 'Platform' is only available in iOS18_4 [Swift 6]"])
    }

    @Test("Non-frozen StoreKit enums need @unknown default in Swift 6 (a warning in Swift 5)")
    func nonFrozenEnumsNeedUnknownDefault() async throws {
        let client = Self.correctClient.replacingOccurrences(of: "    @unknown default:\n      return false\n", with: "")
        let diagnostics = try await AvailabilityChecker.check(
            sources: [.init(name: "Client.swift", text: client)], modules: [.storeKit], deploymentTarget: .iOS16)
        let message = "switch covers known cases, but 'Product.PurchaseResult' may have additional unknown values"
        #expect(Self.errors(diagnostics).contains { $0.mode == .swift6 && $0.message == message })
        #expect(diagnostics.contains { $0.mode == .swift5 && $0.severity == .warning && $0.message.hasPrefix(message) })
    }

    @Test("A 27-SDK member guarded by #if compiler can be forced on and off")
    func replacementsForceCompilerBranches() async throws {
        let client = """
            import Foundation
            import StoreKit

            @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
            func revoked(_ transaction: AppTransaction) -> Bool {
              #if compiler(>=9.9)
                return transaction.revocationDate != nil && transaction.unknownMember
              #else
                return false
              #endif
            }

            """
        let off = try await AvailabilityChecker.check(
            sources: [.init(name: "Revoked.swift", text: client)], deploymentTarget: .iOS16, languageModes: [.swift6])
        #expect(Self.errors(off).isEmpty, "\(off)")
        let on = try await AvailabilityChecker.check(
            sources: [.init(name: "Revoked.swift", text: client)], deploymentTarget: .iOS16, languageModes: [.swift6],
            replacements: ["#if compiler(>=9.9)": "#if true"])
        #expect(Self.errors(on).map(\.line) == [7], "\(on)")
    }

    @Test("The Combine shim takes both ObservableObject store patterns in Swift 6 and Swift 5")
    func combineStorePatterns() async throws {
        let client = """
            import Combine

            enum StoreState: Sendable { case loading, ready(Int) }

            @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
            @MainActor final class WillSetStore: ObservableObject {
              private(set) var state: StoreState = .loading {
                willSet { objectWillChange.send() }
              }
              func load() async { state = .ready(1) }
            }

            @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
            @MainActor final class PublishedStore: ObservableObject {
              @Published private(set) var state: StoreState = .loading
              func load() async { state = .ready(1) }
              var changes: Published<StoreState>.Publisher { $state }
            }

            """
        let diagnostics = try await AvailabilityChecker.check(
            sources: [.init(name: "Store.swift", text: client)], modules: [.combine], deploymentTarget: .iOS16)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }

    @Test("The Keychain sample, written as on Apple platforms, type-checks against the Security shim")
    func keychainSample() async throws {
        let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/SecurityShim/KeychainSample.swift.txt")
        let sample = AvailabilityChecker.Source(name: "KeychainSample.swift", text: try String(contentsOf: url, encoding: .utf8))
        let diagnostics = try await AvailabilityChecker.check(sources: [sample], modules: [.security], deploymentTarget: .iOS16)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
    }
}
