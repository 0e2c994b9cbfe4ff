// A prototype, not part of migrate: tabu search for pairwise (strength 2) covering arrays without
// constraints, in the manner of TCA (Lin et al., "TCA: An Efficient Two-Mode Meta-Heuristic Algorithm for
// Combinatorial Test Generation", ASE 2015). Kept as the measured starting point for a faster `migrate matrix`
// search (see the matrix page's time bound against PICT).
//
// Each move takes a random uncovered pair and, over every row, the change of one or two cells that covers
// it and loses the fewest other pairs, skipping cells changed in the last few moves (tabu) and now and then
// taking a random row instead. From random rows it solves, drops the row that covers fewest pairs alone, and
// solves again, until a solve fails within the budget of moves.
//
// Run: swiftc -O Benchmarks/pairwise-tabu-prototype.swift -o /tmp/tabu && /tmp/tabu 4^15,3^17,2^29 38 2000
// (levels, starting rows, moves allowed per solve; five seeds).
//
// Measured November 2026 on the 2-core reference machine (five seeds; migrate's default today in brackets):
// 3^13 15–16 rows in 2–3 ms [15, 11 ms]; 2^10 3^5 12 in 2.1 ms [12, 10.7 ms]; 4^15 3^17 2^29 29–30 in
// 17–32 ms [32, 23 ms]; 4^1 3^39 2^35 21–22 in 18–22 ms [23, 23 ms]; 10^20 191–194 in 160–260 ms [196, 34 ms].
// Far fewer moves than migrate's annealer (hundreds to thousands, against its tens of thousands), and more rows
// removed, but each move scans every row: on wide or tall models that scan is the cost to cut.
// Most of the time is the last solve, the one that fails. With 300 moves per solve and a start nearer the
// answer: 2^10 3^5 (14 rows) 12 in 0.3 ms; 4^15 3^17 2^29 (34) 30–31 in 4.5–7 ms; 4^1 3^39 2^35 (25) 22 in
// 4.1–4.4 ms; but 3^13 (19) stops at 16, and needs about 1,000 moves per solve for 15 (1–1.5 ms).
// Exact incremental scores (per row and cell: the pairs it alone covers, the missing pairs each value would
// cover) made the same decisions and were no faster at these sizes.
import Foundation

struct RNG {
    var s: UInt64
    @inline(__always) mutating func next() -> UInt64 {
        s &+= 0x9E37_79B9_7F4A_7C15
        var z = s
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    @inline(__always) mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Shrinks from `startRows` random rows: solve, drop the row covering fewest pairs alone, solve again, until a
/// solve fails within `budget` moves. Returns the smallest complete row count and the total moves.
func run(_ levels: [Int], startRows: Int, budget: Int, seed: UInt64) -> (rows: Int, moves: Int) {
    let k = levels.count
    var base = [Int](repeating: 0, count: k * k)
    var mulA = base
    var mulB = base
    var total = 0
    for a in 0..<k {
        for b in 0..<k where a != b {
            if a < b {
                base[a * k + b] = total
                total += levels[a] * levels[b]
            }
        }
    }
    for a in 0..<k {
        for b in 0..<k where a != b {
            if a < b {
                mulA[a * k + b] = levels[b]
                mulB[a * k + b] = 1
            } else {
                base[a * k + b] = base[b * k + a]
                mulA[a * k + b] = 1
                mulB[a * k + b] = levels[a]
            }
        }
    }
    var pairF = [Int32](repeating: 0, count: total * 4)
    for a in 0..<k {
        for b in (a + 1)..<k {
            for va in 0..<levels[a] {
                for vb in 0..<levels[b] {
                    let id = base[a * k + b] + va * levels[b] + vb
                    pairF[id * 4] = Int32(a)
                    pairF[id * 4 + 1] = Int32(va)
                    pairF[id * 4 + 2] = Int32(b)
                    pairF[id * 4 + 3] = Int32(vb)
                }
            }
        }
    }
    var rng = RNG(s: seed)
    var rowCount = startRows
    var cells = [Int](repeating: 0, count: rowCount * k)
    for i in 0..<rowCount * k { cells[i] = rng.below(levels[i % k]) }
    var counts = [Int32](repeating: 0, count: total)
    var missing = [Int](repeating: 0, count: total)
    var missingCount = 0
    var pos = [Int](repeating: -1, count: total)
    var tabu = [Int](repeating: -100, count: rowCount * k)
    var moves = 0
    var best = Int.max
    return base.withUnsafeBufferPointer { base in
        mulA.withUnsafeBufferPointer { mulA in
            mulB.withUnsafeBufferPointer { mulB in
                pairF.withUnsafeBufferPointer { pairF in
                    counts.withUnsafeMutableBufferPointer { counts in
                        missing.withUnsafeMutableBufferPointer { missing in
                            pos.withUnsafeMutableBufferPointer { pos in
                                cells.withUnsafeMutableBufferPointer { cells in
                                    tabu.withUnsafeMutableBufferPointer { tabu in
                                        @inline(__always) func pid(_ a: Int, _ va: Int, _ b: Int, _ vb: Int) -> Int {
                                            base[a * k + b] &+ va &* mulA[a * k + b] &+ vb &* mulB[a * k + b]
                                        }
                                        @inline(__always) func dec(_ id: Int) {
                                            counts[id] -= 1
                                            if counts[id] == 0 {
                                                pos[id] = missingCount
                                                missing[missingCount] = id
                                                missingCount += 1
                                            }
                                        }
                                        @inline(__always) func inc(_ id: Int) {
                                            if counts[id] == 0 {
                                                let p = pos[id]
                                                missingCount -= 1
                                                let last = missing[missingCount]
                                                if last != id {
                                                    missing[p] = last
                                                    pos[last] = p
                                                }
                                                pos[id] = -1
                                            }
                                            counts[id] += 1
                                        }
                                        func load() {
                                            for i in 0..<total {
                                                counts[i] = 0
                                                pos[i] = -1
                                            }
                                            missingCount = 0
                                            for r in 0..<rowCount {
                                                for a in 0..<k { for b in (a + 1)..<k { counts[pid(a, cells[r * k + a], b, cells[r * k + b])] += 1 } }
                                            }
                                            for id in 0..<total where counts[id] == 0 {
                                                pos[id] = missingCount
                                                missing[missingCount] = id
                                                missingCount += 1
                                            }
                                        }
                                        @inline(__always) func setCell(_ r: Int, _ f: Int, _ v: Int) {
                                            let row = r * k
                                            let old = cells[row + f]
                                            for g in 0..<k where g != f {
                                                let w = cells[row + g]
                                                dec(pid(f, old, g, w))
                                                inc(pid(f, v, g, w))
                                            }
                                            cells[row + f] = v
                                        }
                                        @inline(__always) func cellDelta(_ row: Int, _ f: Int, _ old: Int, _ new: Int, _ skip: Int) -> Int {
                                            var s = 0
                                            for h in 0..<k where h != f && h != skip {
                                                let w = cells[row + h]
                                                s &+= (counts[pid(f, new, h, w)] == 0 ? 1 : 0) &- (counts[pid(f, old, h, w)] == 1 ? 1 : 0)
                                            }
                                            return s
                                        }
                                        load()
                                        let tenure = 4
                                        var step = 0
                                        while true {
                                            var solveMoves = 0
                                            while missingCount > 0 && solveMoves < budget {
                                                step += 1
                                                solveMoves += 1
                                                let t = missing[rng.below(missingCount)]
                                                let f = Int(pairF[t * 4])
                                                let a = Int(pairF[t * 4 + 1])
                                                let g = Int(pairF[t * 4 + 2])
                                                let b = Int(pairF[t * 4 + 3])
                                                var bestScore = Int.min
                                                var bestRow = -1
                                                var ties = 0
                                                if rng.below(100) < 5 {
                                                    bestRow = rng.below(rowCount)
                                                } else {
                                                    for r in 0..<rowCount {
                                                        let row = r * k
                                                        let of = cells[row + f]
                                                        let og = cells[row + g]
                                                        if (of != a && tabu[row + f] > step - tenure) || (og != b && tabu[row + g] > step - tenure) {
                                                            continue
                                                        }
                                                        var s = 1
                                                        if of != a { s &+= cellDelta(row, f, of, a, g) }
                                                        if og != b { s &+= cellDelta(row, g, og, b, f) }
                                                        if counts[pid(f, of, g, og)] == 1 { s -= 1 }
                                                        if s > bestScore {
                                                            bestScore = s
                                                            bestRow = r
                                                            ties = 1
                                                        } else if s == bestScore {
                                                            ties += 1
                                                            if rng.below(ties) == 0 { bestRow = r }
                                                        }
                                                    }
                                                    if bestRow < 0 { bestRow = rng.below(rowCount) }
                                                }
                                                if cells[bestRow * k + f] != a {
                                                    setCell(bestRow, f, a)
                                                    tabu[bestRow * k + f] = step
                                                }
                                                if cells[bestRow * k + g] != b {
                                                    setCell(bestRow, g, b)
                                                    tabu[bestRow * k + g] = step
                                                }
                                            }
                                            moves += solveMoves
                                            if missingCount > 0 { return (best, moves) }
                                            best = rowCount
                                            // drop the row whose pairs are covered by others most
                                            var drop = 0
                                            var fewest = Int.max
                                            for r in 0..<rowCount {
                                                var alone = 0
                                                let row = r * k
                                                for a in 0..<k {
                                                    for b in (a + 1)..<k where counts[pid(a, cells[row + a], b, cells[row + b])] == 1 { alone += 1 }
                                                }
                                                if alone < fewest {
                                                    fewest = alone
                                                    drop = r
                                                }
                                            }
                                            let row = drop * k
                                            for a in 0..<k { for b in (a + 1)..<k { dec(pid(a, cells[row + a], b, cells[row + b])) } }
                                            for i in row..<((rowCount - 1) * k) {
                                                cells[i] = cells[i + k]
                                                tabu[i] = tabu[i + k]
                                            }
                                            rowCount -= 1
                                            if rowCount < 1 { return (best, moves) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

let args = CommandLine.arguments
let levels: [Int] = args[1].split(separator: ",").flatMap { part -> [Int] in
    let p = part.split(separator: "^")
    return Array(repeating: Int(p[0])!, count: Int(p[1])!)
}
let startRows = Int(args[2])!
let budget = Int(args[3])!
for seed in 1...5 {
    let t0 = DispatchTime.now().uptimeNanoseconds
    let r = run(levels, startRows: startRows, budget: budget, seed: UInt64(seed))
    let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
    print("\(args[1]) start \(startRows) budget \(budget) seed \(seed): \(r.rows) rows, \(r.moves) moves, \(String(format: "%.2f", ms)) ms")
}
