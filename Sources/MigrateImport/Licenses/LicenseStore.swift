import Foundation

/// A store that sold licenses outside the App Store, and how its customer export is laid out: which header names
/// carry the order, the buyer, the product, the date, refunds and seats. A file's store is told by its header.
///
/// Sources, one per store (cited in the manual's "Direct sales" article too):
/// - **Gumroad**: the sales CSV (Sales → Export), whose columns are `Exports::PurchaseExportService::PURCHASE_FIELDS`
///   in Gumroad's own source (github.com/antiwork/gumroad, `app/services/exports/purchase_export_service.rb`):
///   `Purchase ID`, `Item Name`, `Buyer Name`, `Purchase Email`, `Purchase Date`, `Purchase Time (UTC timezone)`,
///   `Refunded?`, `Fully Refunded?`, `Disputed?`, `Dispute Won?`, `Access Revoked?`, `Variants`, `Recurring Charge?`,
///   `Quantity`…, and a last row whose first field is `Totals`.
/// - **Paddle Classic**: the Transactions Report ("An Insight into the Transactions Report", paddle.com/help):
///   `Order ID`, `Order Status` (completed, disputed, refunded, partially refunded), `Order Type`, `Product ID`,
///   `Product Name`, `Customer Email`, `Quantity`, …. The article doesn't name the date column: `Date`, `Order Date`,
///   `Created At` and `Transaction Date` are accepted, and a file with none is refused, naming them.
/// - **FastSpring**: the revenue report of FastSpring's Data API (`/data/v1/revenue`, developer.fastspring.com,
///   "Generate revenue report"), whose documented columns include `Buyer_Email` and `Chargeback_True_False`. The
///   order, product, date and quantity columns are taken in the same `Word_Word` style (`Order_ID` or
///   `Order_Reference`, `Product_Name` or `Product_Path`, `Transaction_Date` or `Order_Date`, `Quantity`); an export
///   that names them otherwise is refused with the names expected, and the plain CSV reads any store.
/// - **Plain CSV** (any other store, documented in the manual): `order,email,name,product,edition,version,purchased,
///   refunded,seats`, of which `order`, `email`, `product` and `purchased` are required.
public enum LicenseStore: String, CaseIterable, Sendable, Hashable {
    case paddle, fastspring, gumroad, csv

    /// How reports name the store.
    public var displayName: String {
        switch self {
        case .paddle: "Paddle"
        case .fastspring: "FastSpring"
        case .gumroad: "Gumroad"
        case .csv: "plain CSV"
        }
    }

    /// What a row means, read from one column (or, for the optional ones, none).
    enum Field: CaseIterable {
        case order, email, name, product, edition, version, date, time, status, refunded, fullyRefunded, disputed, disputeWon
        case accessRevoked, recurring, chargeback, seats
    }

    /// The header names each field is read from, the first found winning; the required fields with the names a
    /// refusal lists.
    var columns: [Field: [String]] {
        switch self {
        case .gumroad:
            [
                .order: ["Purchase ID"], .email: ["Purchase Email"], .name: ["Buyer Name"], .product: ["Item Name"], .edition: ["Variants"],
                .date: ["Purchase Date"], .time: ["Purchase Time (UTC timezone)"], .refunded: ["Refunded?"], .fullyRefunded: ["Fully Refunded?"],
                .disputed: ["Disputed?"], .disputeWon: ["Dispute Won?"], .accessRevoked: ["Access Revoked?"], .recurring: ["Recurring Charge?"],
                .seats: ["Quantity"],
            ]
        case .paddle:
            [
                .order: ["Order ID"], .email: ["Customer Email"], .product: ["Product Name"], .status: ["Order Status"],
                .date: ["Date", "Order Date", "Created At", "Transaction Date"], .seats: ["Quantity"],
            ]
        case .fastspring:
            [
                .order: ["Order_ID", "Order_Reference"], .email: ["Buyer_Email"], .product: ["Product_Name", "Product_Path"],
                .date: ["Transaction_Date", "Order_Date"], .chargeback: ["Chargeback_True_False"],
                .refunded: ["Refund_True_False", "Return_True_False"],
                .seats: ["Quantity"],
            ]
        case .csv:
            [
                .order: ["order"], .email: ["email"], .name: ["name"], .product: ["product"], .edition: ["edition"], .version: ["version"],
                .date: ["purchased"], .refunded: ["refunded"], .seats: ["seats"],
            ]
        }
    }

    /// The fields a file of this store must have.
    var required: [Field] {
        switch self {
        case .gumroad: [.order, .email, .product, .date, .fullyRefunded]
        case .paddle: [.order, .email, .product, .status, .date]
        case .fastspring: [.order, .email, .product, .date]
        case .csv: [.order, .email, .product, .date]
        }
    }

    /// The columns that tell this store's export from the others: all must be present.
    var signature: [String] {
        switch self {
        case .gumroad: ["Purchase ID", "Item Name", "Purchase Email"]
        case .paddle: ["Order ID", "Customer Email", "Product Name"]
        case .fastspring: ["Buyer_Email"]
        case .csv: ["email", "product", "purchased"]
        }
    }

    /// The store whose signature the header carries (names compared as written, apart from spaces around them).
    static func detect(_ header: [String]) -> LicenseStore? {
        let names = Set(header.map { $0.trimmingCharacters(in: .whitespaces) })
        return allCases.first { store in store.signature.allSatisfy(names.contains) }
    }

    /// "Order ID, Customer Email, Product Name, Order Status, Date (or Order Date, …)": the columns a refusal names.
    var expectedColumns: String {
        required.map { field in
            let names = columns[field] ?? []
            return names.count == 1 ? names[0] : "\(names[0]) (or \(names.dropFirst().joined(separator: ", ")))"
        }.joined(separator: ", ")
    }
}
