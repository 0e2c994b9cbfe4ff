import Foundation
import MigratePlan

/// Sums and describes install bases, keeping their lists in a stable order.
public enum InstallBaseBuilder {
    /// The sum of two install bases (for reports of separate periods).
    public static func combine(_ a: InstallBase, _ b: InstallBase) -> InstallBase {
        var downloads: [DownloadKey: DownloadCount] = [:]
        for count in a.downloads + b.downloads {
            let key = DownloadKey(platform: count.platform, version: count.version)
            var total = downloads[key] ?? DownloadCount(platform: count.platform, version: count.version)
            total.paid += count.paid
            total.free += count.free
            total.refunds += count.refunds
            downloads[key] = total
        }
        var products: [String: ProductCount] = [:]
        for count in a.products + b.products {
            var total = products[count.product] ?? ProductCount(product: count.product, units: 0)
            total.units += count.units
            total.refunds += count.refunds
            products[count.product] = total
        }
        var months: [String: Int] = [:]
        for count in a.months + b.months { months[count.month, default: 0] += count.paid }
        let froms = [a.from, b.from].compactMap { $0 }
        let untils = [a.until, b.until].compactMap { $0 }
        return InstallBase(
            from: froms.min(), until: untils.max(), downloads: sorted(Array(downloads.values)),
            products: products.values.sorted { $0.product < $1.product },
            months: months.sorted { $0.key < $1.key }.map { MonthlyDownloads(month: $0.key, paid: $0.value) })
    }

    /// Platform, then version (unknown first), so the same reports always give the same plan.
    static func sorted(_ downloads: [DownloadCount]) -> [DownloadCount] {
        downloads.sorted { lhs, rhs in
            if lhs.platform != rhs.platform {
                guard let left = lhs.platform else { return true }
                guard let right = rhs.platform else { return false }
                return left < right
            }
            switch (lhs.version, rhs.version) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let left?, let right?): return left != right ? left < right : left.text < right.text
            }
        }
    }

    /// `1,204 paid and 310 free downloads, 96 in-app units, 2020-10-05 to 2020-10-31`.
    public static func summary(_ base: InstallBase) -> String {
        let paid = base.downloads.reduce(0) { $0 + $1.paid }
        let free = base.downloads.reduce(0) { $0 + $1.free }
        let units = base.products.reduce(0) { $0 + $1.units }
        var text = "\(paid) paid and \(free) free downloads, \(units) in-app units"
        if let from = base.from, let until = base.until {
            text += ", \(Timestamp.formatDate(from)) to \(Timestamp.formatDate(until))"
        }
        return text
    }
}

struct DownloadKey: Hashable {
    var platform: Platform?
    var version: Version?
}
