import Foundation
import MigratePlan
import MigrateSupport

/// Counting a row: downloads by platform and version, in-app units, renewals, refunds, periods and first sales.
extension SalesReportImporter.RowReader {
    mutating func read(_ fields: Fields, line: Int) {
        guard fields.count == width else {
            warn(
                .rowMalformed, line: line, column: nil, "the row has \(fields.count) fields but the header has \(width); skipped", fields: fields)
            skippedRows += 1
            return
        }
        if surveying { return note(fields) }
        func field(_ column: Int?) -> String? { column.flatMap { fields.string($0) } }
        // Made only when needed: most rows are classified from the bytes and their platform named.
        lazy var type = field(typeColumn) ?? ""
        let kind = typeColumn.flatMap { fields.ascii($0) }.flatMap { TypeKind($0) } ?? TypeKind(type)
        guard let units = unitsColumn.flatMap({ fields.integer($0) }) ?? field(unitsColumn).flatMap({ Int($0) }) else {
            warn(
                .invalidValue, line: line, column: "Units", "'\(field(unitsColumn) ?? "")' is not a whole number of units; row skipped",
                fields: fields)
            skippedRows += 1
            return
        }
        guard abs(units) <= Limits.salesUnitsPerRow else {
            warn(
                .invalidValue, line: line, column: "Units",
                "\(field(unitsColumn) ?? "") units is more than migrate's limit of \(Limits.grouped(Limits.salesUnitsPerRow)) a row; row skipped",
                fields: fields)
            skippedRows += 1
            return
        }
        // Whose row it is, before anything of it is counted: another app's is set aside whole.
        let skuEntry = interned(skuColumn, fields)
        let sku = skuEntry.map { texts.strings[$0] } ?? field(skuColumn)
        if kind == .inApp && sku == nil {
            warn(.entrySkipped, line: line, column: "SKU", "an in-app purchase row without a SKU (the product id); row skipped", fields: fields)
            skippedRows += 1
            return
        }
        if let rowScope {
            let parent = parentColumn.flatMap { column in interned(column, fields).map { texts.strings[$0] } ?? field(column) }
            guard rowScope.contains(inApp: kind == .inApp, sku: sku, parent: parent) else {
                let owner = (kind == .inApp ? parent : sku) ?? ""
                setAside.rows[owner, default: 0] += 1
                setAside.units[owner, default: 0] += units
                return
            }
        }
        var customerPrice = Int64(0)
        if let column = customerPriceColumn {
            if let amount = fields.amount(column) {
                customerPrice = amount
            } else if let text = field(column) {
                guard let amount = cachedAmount(text) else {
                    warn(.invalidPrice, line: line, column: "Customer Price", "'\(text)' is not an amount; row skipped", fields: fields)
                    skippedRows += 1
                    return
                }
                customerPrice = amount
            }
        }
        countedRows += 1
        let begin = readDate(beginColumn, name: "Begin Date", fields: fields, line: line)
        if let begin { from = min(from ?? begin, begin) }
        let end = readDate(endColumn, name: "End Date", fields: fields, line: line)
        if let end { until = max(until ?? end, end) }
        // Currencies repeat: each is found in `texts`, and its total by the index remembered for it.
        let customerEntry = interned(customerCurrencyColumn, fields)
        let customerCurrency = customerEntry.map { texts.strings[$0] } ?? field(customerCurrencyColumn)
        if let currency = customerCurrency {
            Self.add(customerPrice, units, currency, customerEntry, to: &customerTotals, indexes: &customerIndexes, overflowed: &overflowed)
        }
        // The period's index in `periods`, which stays valid until a period is added: a row of the last row's
        // period updates it without hashing the key again.
        var periodKey: [PeriodKey: SalesPeriod].Index?
        if let begin {
            // By series, so that two reports of the same sales over overlapping days can be told apart.
            let series =
                bySeries
                ? SalesSeries(
                    provider: field(providerColumn) ?? "", sku: field(skuColumn) ?? "", country: field(countryColumn) ?? "", productType: type)
                : nil
            let key = PeriodKey(begin: begin, end: max(begin, end ?? begin), series: series)
            if key != lastRow.period?.key {
                if periods[key] == nil {
                    periods[key] = SalesPeriod(begin: key.begin, end: key.end, origin: "\(file):\(line)", series: series)
                }
                lastRow.period = (key, periods.index(forKey: key)!)
            }
            periodKey = lastRow.period?.index
        } else {
            identity.undatedRows += 1
        }
        if let column = proceedsColumn, let proceeds = fields.amount(column) ?? field(column).flatMap({ cachedAmount($0) }) {
            var currencyEntry = interned(proceedsCurrencyColumn, fields)
            var currency = currencyEntry.map { texts.strings[$0] } ?? field(proceedsCurrencyColumn) ?? ""
            if currency.isEmpty { (currency, currencyEntry) = (customerCurrency ?? "?", customerEntry) }
            Self.add(proceeds, units, currency, currencyEntry, to: &proceedsTotals, indexes: &proceedsIndexes, overflowed: &overflowed)
            if let periodKey, kind == .download || kind == .inApp {
                var overflow = Set<String>()
                Self.add(proceeds, units, currency, to: &periods.values[periodKey].proceeds, overflowed: &overflow)
            }
        }
        // Titles and SKUs repeat: one seen before is neither decoded nor hashed again, nor inserted into a set holding it.
        let titleEntry = interned(titleColumn, fields)
        let title = titleEntry.map { texts.strings[$0] } ?? field(titleColumn)
        if let title { texts.insert(title, titleEntry, into: &appNames, flag: Interner.appNames) }
        let supported = field(platformsColumn)
        let platform: Platform?
        // A named platform doesn't depend on the type: the few names a report holds are remembered.
        if let supported, let named = namedPlatforms.first(where: { $0.name == supported }) {
            platform = named.platform
        } else {
            platform = Self.platform(type: type, supported: supported)
            if let supported, namedPlatforms.count < 8, let named = Platform(named: supported) { namedPlatforms.append((supported, named)) }
        }
        if kind == .download {
            var version: Version?
            if let text = field(versionColumn) {
                do {
                    if let last = lastRow.version, last.text == text {
                        version = last
                    } else if let known = versions[Substring(text)] {
                        version = known
                    } else {
                        let parsed = try Version(text)
                        if versions.count < 100_000 { versions[Substring(text)] = parsed }
                        version = parsed
                    }
                } catch {
                    warn(.invalidVersion, line: line, column: "Version", "\(error.description); counted without a version", fields: fields)
                }
                if let version { lastRow.version = version }
            }
            if let version, units > 0 {
                // Only a one-day row says which day a version first sold; a week or a month says less.
                if let begin, let end, begin == end {
                    // A later day than one already noted for this version's text can't be its first sale.
                    let noted = FirstSaleText(platform: platform ?? .iOS, version: version.text)
                    if firstSaleDays[noted].map({ begin <= $0 }) ?? true {
                        noteFirstSale(FirstSale(platform: platform ?? .iOS, version: version, day: begin, origin: "\(file):\(line)"))
                        firstSaleDays[noted] = min(firstSaleDays[noted] ?? begin, begin)
                    }
                } else {
                    undatedVersions.insert(version.text)
                }
            }
            let key = DownloadKey(platform: platform, version: version)
            // Found once by its index, updated in place: one hash of the key for a known one.
            let index =
                downloads.index(forKey: key)
                ?? {
                    downloads[key] = DownloadCount(platform: platform, version: version)
                    return downloads.index(forKey: key)!
                }()
            var count = downloads.values[index]
            if let title { texts.insert(title, titleEntry, into: &identity.titles, flag: Interner.titles) }
            if let sku { texts.insert(sku, skuEntry, into: &identity.appSKUs, flag: Interner.appSKUs) }
            if let periodKey {
                if customerPrice == 0 {
                    periods.values[periodKey].freeDownloads += units
                } else {
                    periods.values[periodKey].paidDownloads += units
                }
            }
            if customerPrice == 0 {
                count.free += units
            } else {
                count.paid += units
                if let currency = customerCurrency { paidPrices[currency, default: [:]][customerPrice, default: 0] += units }
                if let begin {
                    let month = lastRow.month?.begin == begin ? lastRow.month!.month : months[begin] ?? MonthlyDownloads.month(of: begin)
                    if months.count < 100_000 { months[begin] = month }
                    lastRow.month = (begin, month)
                    monthly[month, default: 0] += units
                }
                if units < 0 { count.refunds += -units }
            }
            downloads.values[index] = count
        } else if kind == .update {
            updates += units
        } else if kind == .redownload {
            redownloads += units
        } else if kind == .inApp {
            let id = sku ?? ""
            let renewal =
                subscriptionColumn.map { column in fields.ascii(column).map { $0.elementsEqual("Renewal".utf8) } ?? (field(column) == "Renewal") }
                ?? false
            if renewal { renewals += units }
            texts.insert(id, skuEntry, into: &identity.products, flag: Interner.products)
            if let periodKey {
                if units < 0 {
                    periods.values[periodKey].inAppRefunds[id, default: 0] += -units
                } else if renewal {
                    periods.values[periodKey].renewals[id, default: 0] += units
                } else {
                    periods.values[periodKey].inAppUnits[id, default: 0] += units
                }
            }
            let index =
                products.index(forKey: id)
                ?? {
                    products[id] = ProductCount(product: id, units: 0)
                    return products.index(forKey: id)!
                }()
            var count = products.values[index]
            count.units += units
            if units < 0 { count.refunds += -units }
            products.values[index] = count
        } else {
            otherTypes[type.isEmpty ? "(blank)" : type, default: 0] += units
        }
    }

    mutating func noteFirstSale(_ sale: FirstSale) {
        let key = "\(sale.platform.rawValue) \(sale.version.canonical)"
        if let known = firstSales[key], !FirstSale.isEarlier(sale, than: known) { return }
        firstSales[key] = sale
    }
}
