import Foundation
import MigratePlan
import MigrateSupport

/// The first pass of a scoped read: whose each row is, nothing counted.
extension SalesReportImporter.RowReader {
    /// Notes whose row this is, for the survey: the app's SKU, title and Apple Identifier, or an in-app
    /// purchase's parent.
    mutating func note(_ fields: Fields) {
        func field(_ column: Int?) -> String? {
            column.flatMap { column in interned(column, fields).map { texts.strings[$0] } ?? fields.string(column) }
        }
        let type = field(typeColumn) ?? ""
        let kind = typeColumn.flatMap { fields.ascii($0) }.flatMap { TypeKind($0) } ?? TypeKind(type)
        let units = unitsColumn.flatMap { fields.integer($0) } ?? 0
        survey.hasParentColumn = parentColumn != nil
        guard let sku = field(skuColumn) else { return }
        if kind == .inApp {
            guard let parent = field(parentColumn) else {
                survey.parentlessProducts[sku, default: 0] += 1
                return
            }
            survey.productsByParent[parent, default: []].insert(sku)
            var app = survey.apps[parent] ?? SalesReportApp(sku: parent)
            app.inAppRows += 1
            app.inAppUnits += units
            survey.apps[parent] = app
        } else {
            var app = survey.apps[sku] ?? SalesReportApp(sku: sku)
            app.rows += 1
            app.units += units
            if let title = field(titleColumn), app.titles.count < 8 { app.titles.insert(title) }
            if let appleID = field(appleIDColumn), app.appleIDs.count < 8 { app.appleIDs.insert(appleID) }
            survey.apps[sku] = app
        }
    }
}
