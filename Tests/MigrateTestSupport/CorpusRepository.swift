import Foundation

/// A real public app repository recorded as facts (`Tests/Fixtures/corpus/OWNER--NAME.json`): per snapshot (every tag,
/// and every commit where a target's version, build, bundle id or name changed), the Xcode projects' targets as Xcode
/// resolves them and the `.storekit` products. `rebuild()` makes a small git repository from them, so `init` reads the
/// history's shape (tags, dates, targets, platforms, catalogs) without a line of the app's code.
public struct CorpusRepository: Decodable, Sendable {
    public struct Target: Decodable, Sendable {
        public var name: String
        public var type: String
        public var bundleID: String?
        public var displayName: String?
        public var sdk: String?
        public var platforms: String?
        public var catalyst: Bool?
        public var version: String?
        public var build: String?
        /// The configuration these settings are (Focus and Klar are two configurations of one target); Release when nil.
        public var configuration: String?
    }

    public struct Project: Decodable, Sendable {
        public var path: String
        public var targets: [Target]
    }

    public struct Product: Decodable, Sendable {
        public var id: String
        public var type: String
        public var price: String?
        public var familyShareable: Bool?
        public var name: String?
        public var group: String?
        public var period: String?
        public var groupNumber: Int?
    }

    public struct StoreKitFile: Decodable, Sendable {
        public var path: String
        public var products: [Product]
    }

    public struct Snapshot: Decodable, Sendable {
        public var commit: String
        public var date: String
        public var tags: [String]
        public var tagDate: String?
        public var projects: [Project]
        public var storekit: [StoreKitFile]?
    }

    public struct App: Decodable, Sendable {
        public var bundleID: String
        public var name: String
    }

    public var source: String
    public var commit: String
    public var shapes: [String]
    public var about: String
    public var app: App
    public var snapshots: [Snapshot]

    /// Every recorded repository, by file name.
    public static func all() throws -> [(name: String, repository: CorpusRepository)] {
        let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/corpus")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted().map { name in
            (String(name.dropLast(5)), try JSONDecoder().decode(CorpusRepository.self, from: Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }

    /// The platforms a target's settings name, as `init` reads them.
    public static func platforms(of target: Target) -> Set<String> {
        var names = Set((target.platforms ?? target.sdk ?? "").split(separator: " ").map(String.init))
        if target.catalyst == true { names.insert("macosx") }
        var platforms = Set<String>()
        for name in names {
            switch name {
            case "iphoneos", "iphonesimulator": platforms.insert("iOS")
            case "macosx": platforms.insert("macOS")
            case "appletvos", "appletvsimulator": platforms.insert("tvOS")
            case "watchos", "watchsimulator": platforms.insert("watchOS")
            case "xros", "xrsimulator": platforms.insert("visionOS")
            default: break
            }
        }
        return platforms
    }

    /// A new folder holding a git repository whose commits, dates and tags are the snapshots', each commit writing the
    /// projects and `.storekit` files the snapshot records (and removing those it no longer has).
    public func rebuild() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.git(["init", "-q", "-b", "main"], in: folder)
        var written = Set<String>()
        var taken = Set<String>()
        for (index, snapshot) in snapshots.enumerated() {
            var now = Set<String>()
            for project in snapshot.projects {
                let path = project.path + "/project.pbxproj"
                try Self.write(Self.pbxproj(project), to: folder.appendingPathComponent(path))
                now.insert(path)
            }
            for file in snapshot.storekit ?? [] {
                try Self.write(Self.storeKit(file), to: folder.appendingPathComponent(file.path))
                now.insert(file.path)
            }
            for gone in written.subtracting(now) { try? FileManager.default.removeItem(at: folder.appendingPathComponent(gone)) }
            written = now
            try Self.git(["add", "-A"], in: folder)
            try Self.git(
                ["commit", "-q", "--allow-empty", "-m", "snapshot \(index) (\(snapshot.commit.prefix(10)))"], in: folder, date: snapshot.date)
            for tag in snapshot.tags where taken.insert(tag).inserted {
                if let tagDate = snapshot.tagDate {
                    try Self.git(["tag", "-a", tag, "-m", tag], in: folder, date: tagDate)
                } else {
                    try Self.git(["tag", tag], in: folder)
                }
            }
        }
        return folder
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// An OpenStep property list with each target's resolved settings, one configuration each (Release, or the
    /// configurations the fixture names), so that Xcode's rules read back exactly what was recorded.
    static func pbxproj(_ project: Project) -> String {
        var objects: [String] = []
        var targetIDs: [String] = []
        var order: [String] = []
        var byName: [String: [Target]] = [:]
        for target in project.targets {
            if byName[target.name] == nil { order.append(target.name) }
            byName[target.name, default: []].append(target)
        }
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        for (offset, name) in order.enumerated() {
            let targetID = String(format: "A1%022X", offset)
            let listID = String(format: "A2%022X", offset)
            var configurationIDs: [String] = []
            for (index, target) in byName[name]!.enumerated() {
                let configurationID = String(format: "A3%010X%012X", offset, index)
                configurationIDs.append(configurationID)
                var settings: [(String, String)] = [("PRODUCT_NAME", name), ("GENERATE_INFOPLIST_FILE", "YES")]
                if let value = target.bundleID { settings.append(("PRODUCT_BUNDLE_IDENTIFIER", value)) }
                if let value = target.version { settings.append(("MARKETING_VERSION", value)) }
                if let value = target.build { settings.append(("CURRENT_PROJECT_VERSION", value)) }
                if let value = target.displayName { settings.append(("INFOPLIST_KEY_CFBundleDisplayName", value)) }
                if let value = target.sdk { settings.append(("SDKROOT", value)) }
                if let value = target.platforms { settings.append(("SUPPORTED_PLATFORMS", value)) }
                if target.catalyst == true { settings.append(("SUPPORTS_MACCATALYST", "YES")) }
                let body = settings.map { "\t\t\t\t\($0.0) = \(quoted($0.1));" }.joined(separator: "\n")
                objects.append(
                    "\t\t\(configurationID) = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n\(body)\n\t\t\t};\n\t\t\tname = \(quoted(target.configuration ?? "Release"));\n\t\t};"
                )
            }
            let defaultName = byName[name]!.first?.configuration ?? "Release"
            objects.append(
                "\t\t\(listID) = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = (\(configurationIDs.joined(separator: ", ")));\n\t\t\tdefaultConfigurationName = \(quoted(defaultName));\n\t\t};"
            )
            let type = byName[name]!.first!.type
            objects.append(
                "\t\t\(targetID) = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = \(listID);\n\t\t\tname = \(quoted(name));\n\t\t\tproductType = \(quoted("com.apple.product-type." + type));\n\t\t};"
            )
            targetIDs.append(targetID)
        }
        objects.append(
            "\t\tA4000000000000000000000000 = {\n\t\t\tisa = XCConfigurationList;\n\t\t\tbuildConfigurations = ();\n\t\t\tdefaultConfigurationName = Release;\n\t\t};"
        )
        objects.append(
            "\t\tA5000000000000000000000000 = {\n\t\t\tisa = PBXProject;\n\t\t\tbuildConfigurationList = A4000000000000000000000000;\n\t\t\ttargets = (\(targetIDs.joined(separator: ", ")));\n\t\t};"
        )
        return "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 56;\n\tobjects = {\n" + objects.joined(separator: "\n")
            + "\n\t};\n\trootObject = A5000000000000000000000000;\n}\n"
    }

    /// A `.storekit` file (format 3) with the recorded products: non-consumables and consumables in `products`,
    /// non-renewing subscriptions in theirs, auto-renewable ones in their groups.
    static func storeKit(_ file: StoreKitFile) -> String {
        func item(_ product: Product, type: String, index: Int) -> [String: Any] {
            var object: [String: Any] = [
                "productID": product.id, "referenceName": product.name ?? product.id, "type": type, "displayPrice": product.price ?? "0.99",
                "familyShareable": product.familyShareable ?? false, "internalID": String(format: "%08X", index + 1),
                "localizations": [["locale": "en_US", "displayName": product.name ?? product.id, "description": ""]],
            ]
            if let period = product.period { object["recurringSubscriptionPeriod"] = period }
            if product.type == "RecurringSubscription" {
                object["groupNumber"] = product.groupNumber ?? 1
                object["subscriptionGroupID"] = product.group ?? "group"
                object["introductoryOffer"] = NSNull()
                object["codeOffers"] = [Any]()
                object["subscriptionOffers"] = [Any]()
            }
            return object
        }
        var products: [[String: Any]] = []
        var nonRenewing: [[String: Any]] = []
        var groups: [String: [[String: Any]]] = [:]
        for (index, product) in file.products.enumerated() {
            switch product.type {
            case "RecurringSubscription": groups[product.group ?? "group", default: []].append(item(product, type: product.type, index: index))
            case "NonRenewingSubscription": nonRenewing.append(item(product, type: product.type, index: index))
            default: products.append(item(product, type: product.type, index: index))
            }
        }
        let root: [String: Any] = [
            "identifier": "C0RP05", "products": products, "nonRenewingSubscriptions": nonRenewing,
            "subscriptionGroups": groups.keys.sorted().map { ["id": $0, "name": $0, "localizations": [Any](), "subscriptions": groups[$0]!] },
            "settings": [String: Any](), "version": ["major": 3, "minor": 0],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func git(_ arguments: [String], in folder: URL, date: String? = nil) throws {
        try ScratchGit.run(arguments, in: folder, date: date, author: "Corpus")
    }

    /// Whether git is on PATH, for the tests that rebuild a repository.
    public static var gitAvailable: Bool { ScratchGit.isAvailable }
}
