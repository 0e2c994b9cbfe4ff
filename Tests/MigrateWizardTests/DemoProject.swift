import Foundation
import MigrateTestSupport

/// A project as a new user has it: a `.storekit` file and a git repository whose project.pbxproj
/// history holds four releases, build numbers restarting at 1 in 2.0 and 3.0.
enum DemoProject {
    static let storeKit = """
        {
          "identifier" : "4C1D2E3F",
          "nonRenewingSubscriptions" : [ ],
          "products" : [
            {
              "displayPrice" : "1.99",
              "familyShareable" : false,
              "internalID" : "6A7B8C9D",
              "localizations" : [ { "description" : "Colour themes", "displayName" : "Themes", "locale" : "en_US" } ],
              "productID" : "com.example.tally.themes",
              "referenceName" : "Themes",
              "type" : "NonConsumable"
            },
            {
              "displayPrice" : "2.99",
              "familyShareable" : true,
              "internalID" : "6A7B8C9E",
              "localizations" : [ { "description" : "iCloud sync", "displayName" : "Sync", "locale" : "en_US" } ],
              "productID" : "com.example.tally.sync",
              "referenceName" : "Sync",
              "type" : "NonConsumable"
            }
          ],
          "settings" : { "_applicationInternalID" : "1234567890", "_developerTeamID" : "ABCDE12345" },
          "subscriptionGroups" : [ ],
          "version" : { "major" : 4, "minor" : 0 }
        }

        """

    static func pbxproj(version: String, build: String) -> String {
        """
        // !$*UTF8*$!
        {
        	archiveVersion = 1;
        	classes = {
        	};
        	objectVersion = 56;
        	objects = {

        /* Begin PBXFileReference section */
        		B10000000000000000000001 /* Tally.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = Tally.app; sourceTree = BUILT_PRODUCTS_DIR; };
        /* End PBXFileReference section */

        /* Begin PBXNativeTarget section */
        		B20000000000000000000001 /* Tally */ = {
        			isa = PBXNativeTarget;
        			buildConfigurationList = B50000000000000000000001 /* Build configuration list for PBXNativeTarget "Tally" */;
        			buildPhases = (
        			);
        			name = Tally;
        			productName = Tally;
        			productReference = B10000000000000000000001 /* Tally.app */;
        			productType = "com.apple.product-type.application";
        		};
        /* End PBXNativeTarget section */

        /* Begin PBXProject section */
        		B30000000000000000000001 /* Project object */ = {
        			isa = PBXProject;
        			buildConfigurationList = B50000000000000000000000 /* Build configuration list for PBXProject "Tally" */;
        			mainGroup = B60000000000000000000001;
        			targets = (
        				B20000000000000000000001 /* Tally */,
        			);
        		};
        /* End PBXProject section */

        /* Begin XCBuildConfiguration section */
        		B40000000000000000000001 /* Release */ = {
        			isa = XCBuildConfiguration;
        			buildSettings = {
        				SDKROOT = iphoneos;
        			};
        			name = Release;
        		};
        		B40000000000000000000002 /* Release */ = {
        			isa = XCBuildConfiguration;
        			buildSettings = {
        				CURRENT_PROJECT_VERSION = \(build);
        				GENERATE_INFOPLIST_FILE = YES;
        				INFOPLIST_KEY_CFBundleDisplayName = Tally;
        				MARKETING_VERSION = \(version);
        				PRODUCT_BUNDLE_IDENTIFIER = com.example.tally;
        				PRODUCT_NAME = "$(TARGET_NAME)";
        				SDKROOT = iphoneos;
        			};
        			name = Release;
        		};
        /* End XCBuildConfiguration section */

        /* Begin XCConfigurationList section */
        		B50000000000000000000000 /* Build configuration list for PBXProject "Tally" */ = {
        			isa = XCConfigurationList;
        			buildConfigurations = (
        				B40000000000000000000001 /* Release */,
        			);
        			defaultConfigurationName = Release;
        		};
        		B50000000000000000000001 /* Build configuration list for PBXNativeTarget "Tally" */ = {
        			isa = XCConfigurationList;
        			buildConfigurations = (
        				B40000000000000000000002 /* Release */,
        			);
        			defaultConfigurationName = Release;
        		};
        /* End XCConfigurationList section */
        	};
        	rootObject = B30000000000000000000001 /* Project object */;
        }

        """
    }

    static let history: [(version: String, build: String, date: String)] = [
        ("1.0", "1", "2019-03-01T10:00:00Z"), ("1.1", "2", "2019-09-01T10:00:00Z"), ("2.0", "1", "2020-06-01T10:00:00Z"),
        ("3.0", "1", "2021-06-01T10:00:00Z"),
    ]

    /// A fresh folder holding Tally.storekit and a git repository with the pbxproj history; with `tagged`, each
    /// release also has an annotated tag `vVERSION` made at 17:00 UTC on its day, as a release script would.
    static func make(tagged: Bool = false) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-init-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Tally.xcodeproj"), withIntermediateDirectories: true)
        try storeKit.write(to: folder.appendingPathComponent("Tally.storekit"), atomically: true, encoding: .utf8)
        try git(["init", "-q", "-b", "main"], in: folder)
        for (index, release) in history.enumerated() {
            try pbxproj(version: release.version, build: release.build)
                .write(to: folder.appendingPathComponent("Tally.xcodeproj/project.pbxproj"), atomically: true, encoding: .utf8)
            try git(["add", index == 0 ? "-A" : "Tally.xcodeproj"], in: folder)
            try git(["commit", "-q", "-m", "Release \(release.version)"], in: folder, date: release.date)
            if tagged {
                let tagDate = release.date.replacingOccurrences(of: "T10:", with: "T17:")
                try git(["tag", "-a", "v\(release.version)", "-m", "Version \(release.version)"], in: folder, date: tagDate)
            }
        }
        return folder
    }

    static var gitAvailable: Bool { ScratchGit.isAvailable }

    static func git(_ arguments: [String], in folder: URL, date: String? = nil) throws {
        try ScratchGit.run(arguments, in: folder, date: date)
    }
}
