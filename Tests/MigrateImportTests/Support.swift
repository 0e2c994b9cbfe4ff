import Foundation
import MigrateCLI
import MigrateImport
import MigratePlan
import MigrateTestSupport
import Testing

let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/import")

func fixture(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
}

func date(_ text: String) -> Date {
    guard let date = Timestamp.parse(text) else { fatalError("bad test date \(text)") }
    return date
}

/// A plan someone wrote by hand: a product with grants and a paid release.
let handWrittenPlan = """
    {
      "formatVersion": 1,
      "app": { "name": "Shelf", "bundleID": "com.example.shelf", "platforms": ["iOS"] },
      "features": [{ "id": "export", "name": "Export" }],
      "releases": [
        { "platform": "iOS", "version": "1.0", "build": "14", "released": "2019-04-01T17:00:00Z", "model": "paid", "price": "2.99", "includes": ["export"] }
      ],
      "products": [
        { "id": "com.example.shelf.pro", "name": "Pro (my name)", "type": "nonConsumable", "price": "3.99", "grants": ["export"] }
      ]
    }

    """
