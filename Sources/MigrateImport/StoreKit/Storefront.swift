/// The App Store storefronts a `.storekit` file names (`settings._storefront`, an ISO 3166-1 alpha-3 code), and the
/// currency each one's prices are in, so a price taken from the file is never read as another currency's.
public enum Storefront {
    /// The storefront's currency (ISO 4217), for the storefronts Xcode offers; nil for one not listed.
    public static func currency(of storefront: String) -> String? {
        let code = storefront.uppercased()
        if euro.contains(code) { return "EUR" }
        return others[code]
    }

    /// Storefronts whose App Store prices are in euros.
    static let euro: Set<String> = [
        "AUT", "BEL", "CYP", "DEU", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "IRL", "ITA", "LTU", "LUX", "LVA", "MLT", "NLD", "PRT", "SVK",
        "SVN",
    ]

    static let others: [String: String] = [
        "USA": "USD", "GBR": "GBP", "CAN": "CAD", "AUS": "AUD", "NZL": "NZD", "JPN": "JPY", "CHN": "CNY", "KOR": "KRW", "IND": "INR",
        "BRA": "BRL", "MEX": "MXN", "CHE": "CHF", "SWE": "SEK", "NOR": "NOK", "DNK": "DKK", "POL": "PLN", "CZE": "CZK", "HUN": "HUF",
        "ROU": "RON", "TUR": "TRY", "ISR": "ILS", "SAU": "SAR", "ARE": "AED", "ZAF": "ZAR", "SGP": "SGD", "HKG": "HKD", "TWN": "TWD",
        "THA": "THB", "IDN": "IDR", "MYS": "MYR", "PHL": "PHP", "VNM": "VND", "RUS": "RUB", "CHL": "CLP", "COL": "COP", "PER": "PEN",
        "EGY": "EGP", "NGA": "NGN", "PAK": "PKR", "KAZ": "KZT", "QAT": "QAR", "TZA": "TZS", "BGR": "BGN",
    ]
}
