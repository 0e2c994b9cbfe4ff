import Foundation

/// A repository shaped like a real subscription app's: an Xcode project with the app and a notification service
/// extension whose own Info.plist its target names (`INFOPLIST_FILE`), annotated tags on each release, and two
/// `.storekit` files — monthly and yearly plans at one level of one group, each with a free trial, a non-renewing
/// "lifetime" pass, and Xcode's placeholder products from its template.
enum ReaderProject {
    static let subscriptions = """
        {
          "identifier" : "5A1B2C3D",
          "nonRenewingSubscriptions" : [
            {
              "displayPrice" : "49.99", "familyShareable" : false, "internalID" : "7A000001",
              "localizations" : [ { "description" : "Everything, for good", "displayName" : "Lifetime", "locale" : "en_US" } ],
              "productID" : "com.example.reader.lifetime", "referenceName" : "Lifetime", "type" : "NonRenewingSubscription"
            }
          ],
          "products" : [ ],
          "settings" : { "_applicationInternalID" : "1234567891", "_developerTeamID" : "ABCDE12345" },
          "subscriptionGroups" : [
            {
              "id" : "7B000000", "localizations" : [ ], "name" : "Reader Pro",
              "subscriptions" : [
                {
                  "adHocOffers" : [ ], "codeOffers" : [ ], "displayPrice" : "2.99", "familyShareable" : false, "groupNumber" : 1,
                  "internalID" : "7B000001",
                  "introductoryOffer" : { "internalID" : "7C000001", "paymentMode" : "free", "subscriptionPeriod" : "P1W" },
                  "localizations" : [ { "description" : "Monthly", "displayName" : "Monthly", "locale" : "en_US" } ],
                  "productID" : "com.example.reader.monthly", "recurringSubscriptionPeriod" : "P1M", "referenceName" : "Monthly",
                  "subscriptionGroupID" : "7B000000", "type" : "RecurringSubscription"
                },
                {
                  "adHocOffers" : [ ], "codeOffers" : [ ], "displayPrice" : "24.99", "familyShareable" : false, "groupNumber" : 1,
                  "internalID" : "7B000002",
                  "introductoryOffer" : { "internalID" : "7C000002", "paymentMode" : "free", "subscriptionPeriod" : "P1M" },
                  "localizations" : [ { "description" : "Yearly", "displayName" : "Yearly", "locale" : "en_US" } ],
                  "productID" : "com.example.reader.yearly", "recurringSubscriptionPeriod" : "P1Y", "referenceName" : "Yearly",
                  "subscriptionGroupID" : "7B000000", "type" : "RecurringSubscription"
                }
              ]
            }
          ],
          "version" : { "major" : 4, "minor" : 0 }
        }

        """

    /// Xcode's template products beside one of the app's own.
    static let products = """
        {
          "identifier" : "5A1B2C3E",
          "nonRenewingSubscriptions" : [ ],
          "products" : [
            {
              "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "7D000001",
              "localizations" : [ { "description" : "", "displayName" : "", "locale" : "en_US" } ],
              "productID" : "com.temporary.id.nonconsumable.a", "referenceName" : "Non-Consumable A", "type" : "NonConsumable"
            },
            {
              "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "7D000002",
              "localizations" : [ { "description" : "", "displayName" : "", "locale" : "en_US" } ],
              "productID" : "com.temporary.id.nonconsumable.b", "referenceName" : "Non-Consumable B", "type" : "NonConsumable"
            },
            {
              "displayPrice" : "3.99", "familyShareable" : false, "internalID" : "7D000003",
              "localizations" : [ { "description" : "Reading themes", "displayName" : "Themes", "locale" : "en_US" } ],
              "productID" : "com.example.reader.themes", "referenceName" : "Themes", "type" : "NonConsumable"
            }
          ],
          "settings" : { "_applicationInternalID" : "1234567891", "_developerTeamID" : "ABCDE12345" },
          "subscriptionGroups" : [ ],
          "version" : { "major" : 4, "minor" : 0 }
        }

        """

    static let extensionInfoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        	<key>CFBundleIdentifier</key>
        	<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        	<key>CFBundleShortVersionString</key>
        	<string>$(MARKETING_VERSION)</string>
        	<key>CFBundleVersion</key>
        	<string>$(CURRENT_PROJECT_VERSION)</string>
        	<key>NSExtension</key>
        	<dict>
        		<key>NSExtensionPointIdentifier</key>
        		<string>com.apple.usernotifications.service</string>
        	</dict>
        </dict>
        </plist>

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
        		B10000000000000000000001 /* Reader.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = Reader.app; sourceTree = BUILT_PRODUCTS_DIR; };
        		B10000000000000000000002 /* NSE.appex */ = {isa = PBXFileReference; explicitFileType = "wrapper.app-extension"; includeInIndex = 0; path = NSE.appex; sourceTree = BUILT_PRODUCTS_DIR; };
        /* End PBXFileReference section */

        /* Begin PBXNativeTarget section */
        		B20000000000000000000001 /* Reader */ = {
        			isa = PBXNativeTarget;
        			buildConfigurationList = B50000000000000000000001 /* Build configuration list for PBXNativeTarget "Reader" */;
        			buildPhases = (
        			);
        			name = Reader;
        			productName = Reader;
        			productReference = B10000000000000000000001 /* Reader.app */;
        			productType = "com.apple.product-type.application";
        		};
        		B20000000000000000000002 /* NSE */ = {
        			isa = PBXNativeTarget;
        			buildConfigurationList = B50000000000000000000002 /* Build configuration list for PBXNativeTarget "NSE" */;
        			buildPhases = (
        			);
        			name = NSE;
        			productName = NSE;
        			productReference = B10000000000000000000002 /* NSE.appex */;
        			productType = "com.apple.product-type.app-extension";
        		};
        /* End PBXNativeTarget section */

        /* Begin PBXProject section */
        		B30000000000000000000001 /* Project object */ = {
        			isa = PBXProject;
        			buildConfigurationList = B50000000000000000000000 /* Build configuration list for PBXProject "Reader" */;
        			mainGroup = B60000000000000000000001;
        			targets = (
        				B20000000000000000000001 /* Reader */,
        				B20000000000000000000002 /* NSE */,
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
        				INFOPLIST_KEY_CFBundleDisplayName = Reader;
        				MARKETING_VERSION = \(version);
        				PRODUCT_BUNDLE_IDENTIFIER = com.example.reader;
        				PRODUCT_NAME = "$(TARGET_NAME)";
        				SDKROOT = iphoneos;
        			};
        			name = Release;
        		};
        		B40000000000000000000003 /* Release */ = {
        			isa = XCBuildConfiguration;
        			buildSettings = {
        				CURRENT_PROJECT_VERSION = \(build);
        				INFOPLIST_FILE = NSE/Info.plist;
        				MARKETING_VERSION = \(version);
        				PRODUCT_BUNDLE_IDENTIFIER = com.example.reader.NSE;
        				PRODUCT_NAME = "$(TARGET_NAME)";
        				SDKROOT = iphoneos;
        			};
        			name = Release;
        		};
        /* End XCBuildConfiguration section */

        /* Begin XCConfigurationList section */
        		B50000000000000000000000 /* Build configuration list for PBXProject "Reader" */ = {
        			isa = XCConfigurationList;
        			buildConfigurations = (
        				B40000000000000000000001 /* Release */,
        			);
        			defaultConfigurationName = Release;
        		};
        		B50000000000000000000001 /* Build configuration list for PBXNativeTarget "Reader" */ = {
        			isa = XCConfigurationList;
        			buildConfigurations = (
        				B40000000000000000000002 /* Release */,
        			);
        			defaultConfigurationName = Release;
        		};
        		B50000000000000000000002 /* Build configuration list for PBXNativeTarget "NSE" */ = {
        			isa = XCConfigurationList;
        			buildConfigurations = (
        				B40000000000000000000003 /* Release */,
        			);
        			defaultConfigurationName = Release;
        		};
        /* End XCConfigurationList section */
        	};
        	rootObject = B30000000000000000000001 /* Project object */;
        }

        """
    }

    /// Three paid releases, each tagged (annotated, dated the afternoon of its commit).
    static let history: [(version: String, build: String, date: String)] = [
        ("1.0", "1", "2020-03-01T10:00:00Z"), ("1.1", "2", "2020-09-01T10:00:00Z"), ("2.0", "3", "2021-06-01T10:00:00Z"),
    ]

    static func make() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-reader-\(UUID().uuidString)")
        let files = [
            "Reader/Subscriptions.storekit": subscriptions, "Reader/Products.storekit": products, "NSE/Info.plist": extensionInfoPlist,
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Reader.xcodeproj"), withIntermediateDirectories: true)
        try DemoProject.git(["init", "-q", "-b", "main"], in: folder)
        for (index, release) in history.enumerated() {
            try pbxproj(version: release.version, build: release.build)
                .write(to: folder.appendingPathComponent("Reader.xcodeproj/project.pbxproj"), atomically: true, encoding: .utf8)
            try DemoProject.git(["add", index == 0 ? "-A" : "Reader.xcodeproj"], in: folder)
            try DemoProject.git(["commit", "-q", "-m", "Release \(release.version)"], in: folder, date: release.date)
            let tagDate = release.date.replacingOccurrences(of: "T10:", with: "T17:")
            try DemoProject.git(["tag", "-a", "v\(release.version)", "-m", "Version \(release.version)"], in: folder, date: tagDate)
        }
        return folder
    }
}
