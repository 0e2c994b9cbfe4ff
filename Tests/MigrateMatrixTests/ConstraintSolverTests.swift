import Testing

@testable import MigrateMatrix

@Suite("The constraint solver's answers for partial rows", .timeLimit(.minutes(20)))
struct ConstraintSolverTests {
    /// Small models in PICT's format: every assignment of their factors, some unassigned, is checked.
    static let models = [
        // Nogoods on two factors (PICT's disk-partition example, fewer values): the table of partial assignments.
        """
        Type:        Primary, Logical, Span
        Size:        10, 100, 500, 1000, 5000, 10000, 40000
        File system: FAT, FAT32, NTFS
        Compression: on, off
        IF [File system] = "FAT"   THEN [Size] <= 4096;
        IF [File system] = "FAT32" THEN [Size] <= 32000;
        """,
        // A rule on every factor (PICT's parameter-comparison example).
        """
        OS_1:  Win7, Win8
        SKU_1: Home, Pro
        OS_2:  Win7, Win8
        SKU_2: Home, Pro
        IF [OS_1] = [OS_2] THEN [SKU_1] <> [SKU_2];
        """,
        // Six constrained factors of eight values: more partial assignments than the table holds, so the search answers.
        """
        A: 1, 2, 3, 4, 5, 6, 7, 8
        B: 1, 2, 3, 4, 5, 6, 7, 8
        C: 1, 2, 3, 4, 5, 6, 7, 8
        D: 1, 2, 3, 4, 5, 6, 7, 8
        IF [A] > 6 THEN [B] < 3 OR [C] = 8;
        IF [C] = 8 THEN [D] <> 8;
        IF [B] = 1 THEN [D] > [A];
        """,
    ]

    @Test("A partial row extends exactly when some valid complete row agrees with it", arguments: models.indices)
    func extendable(_ index: Int) throws {
        let model = try #require(PICTModel.parse(Self.models[index]).model).model
        let solver = try ConstraintSolver(model: model)
        let valid = try #require(try CoveringArrayGenerator(model: model).exhaustive(limit: 10_000))
        let counts = model.levelCounts
        // Each valid row with any of its factors unassigned: the partial rows that extend.
        var extending = Set<[Int]>()
        for complete in valid {
            for mask in 0..<(1 << counts.count) {
                extending.insert(complete.indices.map { mask & (1 << $0) == 0 ? complete[$0] : -1 })
            }
        }
        var row = [Int](repeating: -1, count: counts.count)
        var checked = 0
        var extendable = 0
        // Every assignment, each factor -1 (unassigned) or one of its levels, counted like an odometer.
        while true {
            let expected = extending.contains(row)
            #expect(solver.isExtendable(row) == expected, "\(row)")
            checked += 1
            extendable += expected ? 1 : 0
            var factor = counts.count - 1
            while factor >= 0 {
                row[factor] += 1
                if row[factor] < counts[factor] { break }
                row[factor] = -1
                factor -= 1
            }
            if factor < 0 { break }
        }
        #expect(checked == counts.reduce(1) { $0 * ($1 + 1) })
        // Some partial rows extend and some don't: the constraints do exclude something.
        #expect(extendable > 0 && extendable < checked)
    }
}
